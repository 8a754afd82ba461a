"""The board kernel and the reference board side by side, for the tests of
the kernel (tests/kernel/test_board.py, test_reading.py) and of Position
(tests/core/test_position.py).

``Boards`` sets up a kernel ``Position`` and a ``RefBoard`` from the same
diagram (tests/helpers/diagrams.py) by playing its stones in an order that
captures nothing; ``assert_same`` compares everything observable (colours,
ko point, captures, legality, strings, liberties, hash words).  The
hypothesis strategies draw legal games on the reference board.
"""

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from gogame.core.position import IllegalMoveError, Position
from gogame.kernel.board import BLACK, WHITE

from . import diagrams
from .refboard import IllegalMove, RefBoard, other

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
MAX_MOVES = 400

PROPERTY = settings(
    deadline=None,
    max_examples=60,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
    ],
)
BRIEF = settings(PROPERTY, max_examples=6)


# --------------------------------------------------------------- helpers
def gtp(pt):
    return "PASS" if pt is None else f"{GTP_COLUMNS[pt[1]]}{pt[0] + 1}"


def as_pt(x):
    """Normalise a kernel answer (tuple of numpy ints, ...) to (int, int)/None."""
    return None if x is None else (int(x[0]), int(x[1]))


def describe(moves):
    return " ".join(f"{'BW'[c - 1]}{gtp(pt)}" for pt, c in moves)


def reference_legal(ref):
    """{color: set of legal points} on the reference board."""
    return {c: set(ref.legal_moves(c)) for c in (BLACK, WHITE)}


def differences(p, ref, legality=True):
    """Everything observable in which the kernel differs from the reference.

    legality: False, True, or a precomputed reference_legal(ref)."""
    diffs = []
    points = ref.points()
    for pt in points:
        if p.color_at(pt) != ref.color(pt):
            diffs.append(f"colour at {pt}: kernel {p.color_at(pt)}, ref {ref.color(pt)}")
    if as_pt(p.ko) != ref.ko:
        diffs.append(f"ko: kernel {p.ko}, ref {ref.ko}")
    for c in (BLACK, WHITE):
        if p.captures(c) != ref.captures[c]:
            diffs.append(f"captures({c}): kernel {p.captures(c)}, ref {ref.captures[c]}")
    if legality:
        if legality is True:
            legality = reference_legal(ref)
        for c in (BLACK, WHITE):
            ref_legal = legality[c]
            kern_legal = {pt for pt in points if p.is_legal(pt, c)}
            for pt in sorted(kern_legal - ref_legal):
                diffs.append(f"is_legal({pt}, {c}): kernel True, ref False")
            for pt in sorted(ref_legal - kern_legal):
                diffs.append(f"is_legal({pt}, {c}): kernel False, ref True")
            if not p.is_legal(None, c):
                diffs.append(f"is_legal(None, {c}): kernel False")
    done = set()
    for pt in sorted(ref.stones()):
        if pt in done:
            continue
        stones = sorted(ref.string(pt))
        libs = sorted(ref.liberties(pt))
        done.update(stones)
        for q in stones:
            if [as_pt(x) for x in p.string_stones(q)] != stones:
                diffs.append(f"string_stones({q}): kernel {p.string_stones(q)}, ref {stones}")
            if [as_pt(x) for x in p.findlib(q)] != libs:
                diffs.append(f"findlib({q}): kernel {p.findlib(q)}, ref {libs}")
            if p.countlib(q) != len(libs):
                diffs.append(f"countlib({q}): kernel {p.countlib(q)}, ref {len(libs)}")
    if p.hash != p.recompute_hash():
        diffs.append(f"hash {p.hash} != recompute_hash() {p.recompute_hash()}")
    return diffs


def assert_same(p, ref, context="", legality=True):
    diffs = differences(p, ref, legality)
    assert not diffs, (
        f"{context}\nreference (* = ko point):\n{ref.diagram()}\n"
        f"kernel:\n{p.diagram()}\n" + "\n".join(diffs[:30])
    )


def assert_hash_ok(p, context=""):
    w = p.hash
    assert len(w) == 2 and all(isinstance(x, int) and 0 <= x < 2**64 for x in w), w
    assert w == p.recompute_hash(), f"{context}: hash {w} != recompute {p.recompute_hash()}"


def quiet_order(size, seq):
    """Reorder seq (a list of (pt, color)) so that every move is legal and
    captures nothing, preferring seq's order; None if no such order is found."""
    board = RefBoard(size)
    pending, out = list(seq), []
    while pending:
        for i, (pt, c) in enumerate(pending):
            trial = board.copy()
            try:
                if trial.play(pt, c):
                    continue  # it would capture
            except IllegalMove:
                continue
            board = trial
            out.append(pending.pop(i))
            break
        else:
            return None
    return out


class Boards:
    """A kernel Position and a RefBoard set up from the same diagram."""

    def __init__(self, diagram, reverse=False, check=True):
        d = diagrams.parse(diagram)
        self.size = d.size
        self.names = d.marks
        stones = list(d.stones.items())
        if reverse:
            stones.reverse()
        order = quiet_order(self.size, stones)
        assert order is not None, "diagram cannot be set up without captures"
        self.setup_moves = order
        self.p = Position(self.size)
        self.ref = RefBoard(self.size)
        for pt, c in order:
            assert not self.ref.play(pt, c)
            self.p.play(pt, c)
        if check:
            self.check("after setup")

    def pt(self, where):
        return self.names[where] if isinstance(where, str) else where

    def play(self, where, color):
        """Play on both boards (both must agree it is legal); return captures."""
        pt = self.pt(where)
        captured = self.ref.play(pt, color)
        self.p.play(pt, color)
        self.check(f"after {'BW'[color - 1]} {pt}")
        return captured

    def refuse(self, where, color):
        """Both boards must refuse the move; the kernel must not change."""
        pt = self.pt(where)
        assert not self.ref.is_legal(pt, color), "diagram error: ref allows it"
        assert not self.p.is_legal(pt, color), f"kernel allows {pt} for {color}"
        before = self.p.snapshot()
        with pytest.raises(IllegalMoveError):
            self.p.play(pt, color)
        assert self.p.snapshot() == before, "failed play changed the kernel"
        assert not self.p.trymove(pt, color)
        assert self.p.snapshot() == before, "failed trymove changed the kernel"
        assert self.p.stackp == 0

    def check(self, context=""):
        assert_same(self.p, self.ref, context)


# ----------------------------------------------------------- strategies
twice_flag = st.integers(0, 15).map(lambda i: i == 15)  # shrinks to "alternate"
ANY_SIZE = st.integers(2, 19)


@st.composite
def games(draw, sizes=ANY_SIZE, max_moves=MAX_MOVES):
    """(size, [(pt or None, color), ...]): legal moves and passes, colours
    alternating except for an occasional same-colour-twice move."""
    size = draw(sizes)
    n = draw(st.integers(0, max_moves))
    ref = RefBoard(size)
    moves, last = [], WHITE
    for _ in range(n):
        color = last if draw(twice_flag) else other(last)
        legal = ref.legal_moves(color)
        i = draw(st.integers(0, len(legal)))  # len(legal) means pass
        pt = legal[i] if i < len(legal) else None
        ref.play(pt, color)
        moves.append((pt, color))
        last = color
    return size, moves


small_first = st.one_of(st.integers(2, 6), st.integers(2, 19))


def replay(size, moves):
    p, ref = Position(size), RefBoard(size)
    for pt, c in moves:
        ref.play(pt, c)
        p.play(pt, c)
    return p, ref


@st.composite
def games_with_tries(draw, sizes=small_first, max_moves=150):
    size, moves = draw(games(sizes=sizes, max_moves=max_moves))
    ref = RefBoard(size)
    for pt, c in moves:
        ref.play(pt, c)
    depth = draw(st.integers(1, 30))
    tries, last = [], moves[-1][1] if moves else WHITE
    while len([t for t in tries if t[2]]) < depth:
        color = last if draw(twice_flag) else other(last)
        legal = ref.legal_moves(color)
        illegal = [q for q in ref.points() if q not in legal]
        if illegal and draw(st.integers(0, 7)) == 7:
            tries.append((illegal[draw(st.integers(0, len(illegal) - 1))], color, False))
            continue
        i = draw(st.integers(0, len(legal)))
        pt = legal[i] if i < len(legal) else None
        ref.play(pt, color)
        tries.append((pt, color, True))
        last = color
    return size, moves, tries
