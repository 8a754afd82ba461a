"""The prover's soundness against an exhaustive search (gogame.kernel.prover
through gogame.core.prover).

The reference below tries every legal move of both sides (the attacker
never passes, the defender may), under the same ko model as the prover,
and decides whether the attacker captures within ``cap`` plies (a capture
that leaves the capturing string in atari, the defender allowed to take
it at once -- a snapback or a ko retake -- does not count yet).  Every
proven answer must agree with it: a proven capture (codes 1..3, each under
its model) must be a capture within the cap, since the prover's lines are
capped the same way; a string proven safe (attack 0) must survive; a defend
0 must lose to every move; a defend 1, 2 or 3 must survive after its move
under the ko models its code holds under.
"""

import random

import numpy as np
import pytest

from gogame.core.position import Position
from gogame.core.prover import Prover
from gogame.kernel.layout import BLACK, EMPTY, WHITE

# model -> (the attacker may retake a ko at once, the defender may)
FREE = {0: (False, True), 1: (False, False), 2: (True, False)}
CODE_MODEL = {1: 0, 2: 1, 3: 2}
SAFE_MODELS = {1: (0, 1, 2), 2: (0, 1), 3: (0,)}  # a defend code -> the models it holds under


class Exhaustive:
    """Every legal move, a ply cap, memoised on (hash, side, plies left)."""

    def __init__(self, pos, target, model):
        self.pos = pos
        self.target = target
        self.color = pos.color_at(target)
        self.free = FREE[model]
        self.points = [(r, c) for r in range(pos.size) for c in range(pos.size)]
        self.memo = {}

    def _play(self, pt, attacker):
        color = 3 - self.color if attacker else self.color
        if self.free[0 if attacker else 1]:
            return self.pos.tryko(pt, color)
        return self.pos.trymove(pt, color)

    def captured(self):
        return self.pos.color_at(self.target) != self.color

    def after_attack(self, move, left):
        """After the attacker's ``move``: has it won, with ``left`` plies to
        go?  A capture stands unless the capturing string is left in atari
        and the defender may take it at once (snapback, ko retake)."""
        if not self.captured():
            return self.defend(left)
        libs = self.pos.findlib(move)
        if len(libs) == 1 and self._play(libs[0], False):
            self.pos.popgo()
            return self.defend(left)
        return True

    def attack(self, left):
        """Attacker to move: does it capture within ``left`` plies?"""
        if self.captured():
            return True  # the defender did not retake
        if left < 1:
            return False
        key = (self.pos.hash, 0, left)
        if key not in self.memo:
            self.memo[key] = self._attack(left)
        return self.memo[key]

    def _attack(self, left):
        for pt in self.points:
            if self.pos.color_at(pt) != EMPTY or not self._play(pt, True):
                continue
            win = self.after_attack(pt, left - 1)
            self.pos.popgo()
            if win:
                return True
        return False

    def defend(self, left):
        """Defender to move: does every move (a pass too) lose within ``left``?"""
        if left < 2:
            return False
        key = (self.pos.hash, 1, left)
        if key not in self.memo:
            self.memo[key] = self._defend(left)
        return self.memo[key]

    def _defend(self, left):
        for pt in self.points + [None]:
            if pt is not None and self.pos.color_at(pt) != EMPTY:
                continue
            if not self._play(pt, False):
                continue
            lost = self.attack(left - 1)
            self.pos.popgo()
            if not lost:
                return False
        return True


def random_position(rng, size, density):
    """A legal random position (no string without liberties)."""
    while True:
        stones = {}
        for r in range(size):
            for c in range(size):
                x = rng.random()
                if x < density / 2:
                    stones[(r, c)] = BLACK
                elif x < density:
                    stones[(r, c)] = WHITE
        pos = Position(size)
        try:
            pos.setup(stones)
        except ValueError:
            continue
        if stones:
            return pos


def check_answer(pos, target, which, result, cap):
    """Assert that a proven answer agrees with the exhaustive search."""
    if not result.proven:
        return
    if which == "attack":
        if result.code == 0:
            for model in FREE:
                assert not Exhaustive(pos, target, model).attack(cap), (pos.diagram(), target)
            return
        ex = Exhaustive(pos, target, CODE_MODEL[result.code])
        assert ex.attack(cap), (pos.diagram(), target, result)
        # the move named must win too
        assert ex._play(result.move, True)
        ok = ex.after_attack(result.move, cap - 1)
        pos.popgo()
        assert ok, (pos.diagram(), target, result)
    elif result.code == 0:
        assert Exhaustive(pos, target, 0).defend(cap), (pos.diagram(), target, result)
    else:
        # code 1: safe under model 2 (the attacker retakes every ko), so
        # under every model; 2: under model 1, so 0 too; 3: under model 0
        for model in SAFE_MODELS[result.code]:
            ex = Exhaustive(pos, target, model)
            if result.move is not None:
                assert ex._play(result.move, False)
            survives = not ex.attack(cap - (1 if result.move is not None else 0))
            if result.move is not None:
                pos.popgo()
            assert survives, (pos.diagram(), target, result)


def targets(pos, maxlibs):
    seen = set()
    for pt in pos.stones():
        stones = tuple(pos.string_stones(pt))
        if stones not in seen:
            seen.add(stones)
            if pos.countlib(pt) <= maxlibs:
                yield pt


def run_random(seed, count, size, cap, density=0.55, max_order=3):
    rng = random.Random(seed)
    prover = Prover(table_mb=1, max_nodes=20000, max_depth=cap, max_order=max_order)
    stats = {"proven": 0, "unknown": 0, "disagree": 0}
    for _ in range(count):
        pos = random_position(rng, size, density)
        for target in targets(pos, 3):
            for which in ("attack", "defend"):
                before = (pos.stackp, pos.hash, pos.snapshot())
                result = getattr(prover, which)(pos, target)
                assert (pos.stackp, pos.hash, pos.snapshot()) == before
                stats["proven" if result.proven else "unknown"] += 1
                check_answer(pos, target, which, result, cap)
    return stats


def test_random_positions_agree_with_exhaustive_search():
    stats = run_random(seed=1, count=6, size=4, cap=5)
    assert stats["proven"] > 0


@pytest.mark.slow
@pytest.mark.parametrize("size,cap,max_order", [(4, 7, 3), (5, 5, 3), (5, 5, 2)])
def test_many_random_positions_agree_with_exhaustive_search(size, cap, max_order):
    stats = run_random(seed=size * 100 + cap, count=60, size=size, cap=cap, max_order=max_order)
    print(stats)
    assert stats["proven"] > stats["unknown"] / 4


@pytest.mark.slow
def test_random_7x7_positions_agree_with_exhaustive_search():
    """Dense 7x7 positions, with a short cap."""
    stats = run_random(seed=705, count=10, size=7, cap=5, density=0.65)
    assert stats["proven"] > stats["unknown"] / 4


def test_defend_under_each_ko_model_agrees_with_exhaustive_search():
    """``Prover.defend(model=m)``: a proof that the string is lost holds
    when the exhaustive search, under the same ko model, finds every
    defender move losing."""
    rng = random.Random(7)
    prover = Prover(table_mb=1, max_nodes=20000, max_depth=5, max_order=3)
    lost = dict.fromkeys((0, 1, 2), 0)
    for _ in range(8):
        pos = random_position(rng, 4, 0.55)
        for target in targets(pos, 3):
            for model in lost:
                result = prover.defend(pos, target, model=model)
                if result.proven and result.code == 0:
                    lost[model] += 1
                    assert Exhaustive(pos, target, model).defend(5), (pos.diagram(), model)
    assert lost[1] >= lost[0] > 0  # model 1 is no harder for the attacker than model 0
    with pytest.raises(ValueError):
        prover.defend(pos, target, model=3)


def test_put_first_moves_the_guide_move_to_the_front():
    """``put_first``: a listed move comes first, the others keep their
    order; an unlisted one is added only when asked and empty; PASS
    changes nothing."""
    from gogame.kernel import prover as kp
    from gogame.kernel.layout import PASS

    pos = Position(5)
    pos.play("C3", "b")
    a, b, c, d = (pos.pos(v) for v in ("A1", "B2", "D4", "E5"))
    mv = np.zeros((2, 8), np.int32)
    mv[0, :3] = a, b, c
    assert kp.put_first(pos.s, mv, 0, 3, c, False) == 3
    assert list(mv[0, :3]) == [c, a, b]
    assert kp.put_first(pos.s, mv, 0, 3, d, False) == 3
    assert list(mv[0, :3]) == [c, a, b]
    assert kp.put_first(pos.s, mv, 0, 3, pos.pos("C3"), True) == 3  # not empty
    assert kp.put_first(pos.s, mv, 0, 3, d, True) == 4
    assert list(mv[0, :4]) == [d, c, a, b]
    assert kp.put_first(pos.s, mv, 0, 4, PASS, True) == 4
