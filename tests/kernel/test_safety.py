"""Safety proofs (gogame.kernel.safety, through gogame.core.prover) against
an exhaustive search of the escape game.

The reference below plays every legal move of both sides under a ko model
(2: the attacker may retake any ko at once and the defender obeys the ban;
1: both obey it; 0: only the defender may retake at once); the attacker
never passes, the defender may.  The attacker wins when the target is removed (any removal,
even one the defender could answer by taking the capturing stones back,
save a single-stone target taken by a ko under model 0, which the defender
may retake); the defender wins when the target has ``escape`` liberties with the
attacker to move.  A proof of safety is a proof that
the attacker never wins, so the reference must find no win within any
ply cap.  Small values of ``escape`` make the zones matter on small boards:
the proof then stops far short of the whole board.
"""

import random

import pytest

from gogame.core.prover import Prover
from gogame.kernel import safety as ks
from gogame.play.session import board_points
from tests.helpers.diagrams import position

from .test_prover import Exhaustive, random_position, targets


class EscapeGame(Exhaustive):
    """``Exhaustive`` (every legal move, the same ko models, a ply cap) with
    the escape game's ends: any removal of the target wins for the attacker,
    ``escape`` liberties with the attacker to move for the defender."""

    def __init__(self, pos, target, escape, model=2):
        super().__init__(pos, target, model)
        self.escape = escape
        self.model = model

    def attack(self, left):
        if not self.captured() and self.pos.countlib(self.target) >= self.escape:
            return False
        return super().attack(left)

    def after_attack(self, move, left):
        """Any removal wins, but under model 0 a single-stone target taken
        by a ko capture may be retaken at once: the defender then moves."""
        retake = self.model == 0 and self.pos.ko == self.target
        return (self.captured() and not retake) or self.defend(left)


def safe(prover, pos, target, kind, model=2):
    """The safety search alone: (proven, the defender's move or None)."""
    r, _ = prover._safe(pos, pos.string_pos(target, ""), kind, prover.max_nodes, model)
    move = int(prover.safety[0][ks.C_MOVE])
    return r == 1, None if move == 0 else pos.pt(move)


def check_random(seed, count, size, escape, cap, density=0.5):
    """Every safety proof on random positions, under each ko model, against
    the escape game; return how many were proven."""
    rng = random.Random(seed)
    prover = Prover(table_mb=1, max_nodes=20_000, escape_libs=escape)
    proven = 0
    for _ in range(count):
        pos = random_position(rng, size, density)
        for target in targets(pos, escape - 1):
            for model in (2, 1, 0):
                proven += check_one(prover, pos, target, escape, cap, model)
    return proven


def check_one(prover, pos, target, escape, cap, model):
    """Both questions on one string under one ko model; the proofs found."""
    game = EscapeGame(pos, target, escape, model)
    before = (pos.stackp, pos.hash, pos.snapshot())
    found = 0
    ok, _ = safe(prover, pos, target, ks.KIND_A, model)
    if ok:
        found += 1
        assert not game.attack(cap), (pos.diagram(), target, "attack", model)
    ok, move = safe(prover, pos, target, ks.KIND_D, model)
    assert (pos.stackp, pos.hash, pos.snapshot()) == before
    if ok:
        found += 1
        assert game._play(move, False)
        lost = game.attack(cap - 1)
        pos.popgo()
        assert not lost, (pos.diagram(), target, "defend", move, model)
    return found


@pytest.mark.parametrize("size,escape", [(4, 3), (5, 3), (5, 4)])
def test_safety_proofs_agree_with_the_escape_game(size, escape):
    assert check_random(seed=size * 10 + escape, count=8, size=size, escape=escape, cap=5) > 0


@pytest.mark.slow
@pytest.mark.parametrize("size,escape,cap", [(4, 3, 7), (5, 3, 6), (5, 4, 6), (6, 4, 5)])
def test_many_safety_proofs_agree_with_the_escape_game(size, escape, cap):
    proven = check_random(seed=size * 100 + escape, count=25, size=size, escape=escape, cap=cap)
    assert proven > 0


MODEL_OF_CODE = {1: 2, 2: 1, 3: 0}  # prove_defence's codes and their ko models


def check_named(prover, pos, target, escape, cap, rng):
    """``prove_defence`` of a pass and two random owner moves on one string
    against the escape game: a proof of code c must leave the attacker no
    win after the move under that code's model; the proofs found."""
    owner = pos.color_at(target)
    empty = [p for p in board_points(pos.size) if pos.color_at(p) == 0 and pos.is_legal(p, owner)]
    found = 0
    for move in [None, *rng.sample(empty, min(2, len(empty)))]:
        before = (pos.stackp, pos.hash)
        result = prover.prove_defence(pos, target, move)
        assert (pos.stackp, pos.hash) == before
        if not result.proven:
            continue
        found += 1
        game = EscapeGame(pos, target, escape, MODEL_OF_CODE[result.code])
        played = move is not None and game._play(move, False)
        assert played or move is None
        lost = game.attack(cap)
        if played:
            pos.popgo()
        assert not lost, (pos.diagram(), target, move, result.code)
    return found


@pytest.mark.parametrize("size,escape", [(4, 3), (5, 3), (5, 4)])
def test_named_defences_agree_with_the_escape_game(size, escape):
    rng = random.Random(size * 7 + escape)
    prover = Prover(table_mb=1, max_nodes=20_000, escape_libs=escape)
    found = 0
    for _ in range(6):
        pos = random_position(rng, size, 0.5)
        for target in targets(pos, escape - 1):
            found += check_named(prover, pos, target, escape, 5, rng)
    assert found > 0


def test_a_safe_string_is_never_also_proven_captured():
    """The escape game is no harder for the attacker than any capture the
    lambda-search proves (its attacker nodes have at most 4 liberties, its
    captures stand), so no string has both proofs."""
    rng = random.Random(3)
    prover = Prover(table_mb=1, max_nodes=20_000)
    both = checked = 0
    for _ in range(12):
        pos = random_position(rng, 6, 0.5)
        for target in targets(pos, 4):
            t = pos.string_pos(target, "")
            captured, _ = prover._captures(pos, t, prover.max_nodes)
            ok, _ = safe(prover, pos, target, ks.KIND_A)
            checked += captured is not None or ok
            both += captured is not None and ok
    assert checked > 0 and both == 0


# Black's C5: two eyes of two points, four liberties, so the escape game's
# five are out of reach.  Pass-alive as it stands.
TWO_EYES = """
. . X . .
X X X X X
O O O O O
. . . . .
. . . . .
"""

# Black's C4: three liberties; the bent three of A4-A5-B5 is one eye or
# two as the next move there decides, and White's E5 is in atari (D5
# takes it: the second eye).  Not pass-alive until Black answers.
BENT_EYES = """
. . X . O
. X X X X
X X O O O
O O O . .
. . . . .
"""


def _safe_nodes(pos, vertex, benson, budget):
    """The escape game (5 liberties, attacker to move, ko model 2) with the
    pass-alive leaf on or off: (proven, nodes)."""
    prover = Prover(table_mb=1, max_nodes=budget)
    prover.safety[0][ks.C_BENSON] = benson
    r, nodes = prover._safe(pos, pos.string_pos(vertex, ""), ks.KIND_A, budget, 2)
    return r == 1, nodes


def test_a_pass_alive_string_is_a_leaf_of_the_escape_game():
    """Without the leaf the attacker's every move inside the eyes is read
    until none is left but suicide; with it the root is the proof."""
    pos = position(TWO_EYES)
    assert _safe_nodes(pos, "C5", 1, 100) == (True, 0)
    assert _safe_nodes(pos, "C5", 0, 100)[0] is False  # 465 nodes needed
    assert _safe_nodes(pos, "C5", 0, 10_000)[0] is True
    assert not EscapeGame(pos, (4, 2), 5).attack(5)


def test_the_pass_alive_leaf_below_the_root_keeps_its_zone_sound():
    """The leaf's zone (the blocks and their vital regions, whole) feeds
    the attacker nodes above it: the proof must agree with every attacker
    line of the escape game, and needs fewer nodes than without the leaf."""
    pos = position(BENT_EYES)
    before = (pos.stackp, pos.hash, pos.snapshot())
    on, off = _safe_nodes(pos, "C4", 1, 20_000), _safe_nodes(pos, "C4", 0, 20_000)
    assert (pos.stackp, pos.hash, pos.snapshot()) == before
    assert on[0] and off[0] and 0 < on[1] < off[1]
    for model in (2, 1, 0):
        assert not EscapeGame(pos, (3, 2), 5, model).attack(6)


def test_pass_alive_leaves_agree_with_the_escape_game():
    """Dense random 5x5 positions, where strings live by eyes and five
    liberties are rare: every proof made with the pass-alive leaf leaves
    the attacker no win in the exhaustive game, and some proofs are only
    made with it."""
    rng = random.Random(1)
    with_leaf = Prover(table_mb=1, max_nodes=20_000)
    without = Prover(table_mb=1, max_nodes=20_000)
    without.safety[0][ks.C_BENSON] = 0
    proven = gained = 0
    for _ in range(6):
        pos = random_position(rng, 5, 0.6)
        for target in targets(pos, 4):
            for model in (2, 1, 0):
                found = check_one(with_leaf, pos, target, 5, 5, model)
                kinds = (ks.KIND_A, ks.KIND_D)
                before = sum(safe(without, pos, target, k, model)[0] for k in kinds)
                proven += found
                gained += found > before
    assert proven > 0 and gained > 0


@pytest.mark.slow
def test_safety_proofs_on_7x7_agree_with_the_escape_game():
    """The same check on dense 7x7 positions, with a short cap."""
    assert check_random(seed=745, count=6, size=7, escape=4, cap=5, density=0.65) > 0


# White's B4 has one liberty, C4, where Black's capture is a ko: the
# capturing stone would have B4 as its one liberty.  Under model 0 White
# retakes at once and then connects; under models 1 and 2 the ko is lost.
KO_TARGET = """
. X O . .
X O . O .
. X O . .
. . . . .
. . . . .
"""


def test_a_target_taken_by_a_ko_is_retaken_under_model_0():
    """Only model 0 lets the defender retake; there the exhaustive game
    (every legal move, the retake included) finds no attacker win either."""
    pos = position(KO_TARGET)
    target = pos.string_pos("B4", "")
    for model, proven in ((2, False), (1, False), (0, True)):
        prover = Prover(table_mb=1, max_nodes=50_000, escape_libs=4)
        r, _ = prover._safe(pos, target, ks.KIND_A, 50_000, model)
        assert (r == 1) is proven, model
        assert EscapeGame(pos, (3, 1), 4, model).attack(7) is not proven
    assert check_one(Prover(table_mb=1, max_nodes=50_000, escape_libs=4), pos, (3, 1), 4, 7, 0)


# White's B7-C7-B6 (liberties C6, D7) is joined through C6 and D7 to its
# friend C5-D5-D6, and Black's E5 (liberties E6, F5) touches the friend,
# not the target.  Taking E5 frees both; the move that starts it lies on
# E5's liberties, which no try near the target lists.
CHAIN = """
X O O . . . .
X O . O . . .
X X O O X . O
. X X X O O O
. . . X X O .
. . . . X O .
. . . . X O .
"""


def test_the_liberties_of_a_friends_attacker_are_tried():
    """Without those tries the escape game gives up after about 3,000 nodes
    under models 0 and 1 (under model 2 it stays unproven within 2 M
    nodes either way)."""
    pos = position(CHAIN)
    for model in (1, 0):
        prover = Prover(table_mb=1, max_nodes=100_000)
        r, nodes = prover._safe(pos, pos.string_pos("B7", ""), ks.KIND_A, 100_000, model)
        assert r == 1, (model, nodes)
