"""The Go-aware playout rules (gogame.kernel.policy) on drawn positions:
the ladder reader takes a ladder and sees a breaker, atari escapes into a
working ladder are not played, the vital point of a three-point eye space
is, and the feature bits in the state header switch each rule."""

import numpy as np
import pytest

from gogame.kernel import playout as kp
from gogame.kernel import policy as kpol
from gogame.kernel.layout import BLACK, COLOR, H_KO, LIBS, MARK, NEXT, PASS, WHITE
from tests.helpers import diagrams

# White's E5 stone has two liberties (a, b); black ataris at either and
# the ladder runs to an edge.  O marks where the breakers go.
LADDER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . X O a . . .
    . . . . b X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . ."""
BREAKERS = ("H8", "B2")  # one white stone on each ladder's path


def work(position):
    """The playout's work copy of ``position`` and the policy's arrays."""
    ws, whw, *_ = kp.new_scratch()
    kp._load(position.s, position.hw, ws, whw)
    hw = np.zeros(kpol.LADDER_HW, np.uint64)
    return ws, hw, np.zeros(1, np.int64), np.zeros(4, np.int64)


def board_part(ws):
    """The position part of a state (colours to liberty lists), without
    the scratch marks and trymove bookkeeping a reading may change."""
    return np.concatenate([ws[H_KO : H_KO + 4], ws[COLOR - 0 : MARK]]).copy()


def ladder(breakers=()):
    position = diagrams.position(LADDER)
    for v in breakers:
        position.play(v, WHITE)
    return position


def test_a_ladder_is_read_to_the_edge_and_the_board_restored():
    d = diagrams.parse(LADDER)
    position = ladder()
    ws, hw, budget, _ = work(position)
    before = board_part(ws)
    mv = kpol.ladder_attack(ws, hw, position.keys, position.pos((4, 4)), BLACK, budget)
    assert position.pt(mv) in (d.marks["a"], d.marks["b"])
    assert (board_part(ws) == before).all()
    assert 0 < budget[0] < kpol.LADDER_NODES


def test_breakers_on_both_paths_stop_the_ladder():
    position = ladder(BREAKERS)
    ws, hw, budget, _ = work(position)
    mv = kpol.ladder_attack(ws, hw, position.keys, position.pos((4, 4)), BLACK, budget)
    assert mv == PASS


# Black's F5 put E5 in atari; extending at E4 leaves two liberties and runs
# into the ladder down and left, unless B2 breaks it.
ESCAPE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . X O X . . .
    . . . . e X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . ."""


@pytest.mark.parametrize("breaker, want", [((), False), (("B2",), True)])
def test_an_escape_into_a_working_ladder_is_not_played(breaker, want):
    d = diagrams.parse(ESCAPE)
    position = diagrams.position(ESCAPE)
    for v in breaker:
        position.play(v, WHITE)
    ws, hw, budget, buf = work(position)
    e = position.pos(d.marks["e"])
    last = position.pos((4, 5))
    assert kpol.escape_works(ws, hw, position.keys, e, WHITE, budget) is want
    with_rule = kp.urgent_move(ws, WHITE, last, hw, position.keys, kpol.F_ESCAPE, budget, buf)
    without = kp.urgent_move(ws, WHITE, last, hw, position.keys, 0, budget, buf)
    assert without == e
    assert with_rule == (e if want else PASS)


def test_the_last_moves_string_is_laddered_only_with_the_rule():
    d = diagrams.parse(LADDER)
    position = ladder()
    ws, hw, budget, buf = work(position)
    last = position.pos((4, 4))  # as if white had just played E5
    mv = kp.urgent_move(ws, BLACK, last, hw, position.keys, kpol.F_LADDER, budget, buf)
    assert position.pt(mv) in (d.marks["a"], d.marks["b"])
    assert kp.urgent_move(ws, BLACK, last, hw, position.keys, 0, budget, buf) == PASS


# White's last move (C1, marked l) closes a bent three in the corner:
# v is its vital point.  A straight three along the edge: m in the middle.
BENT = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O . . . . . .
    . O O . . . . . .
    v . l . . . . . ."""
STRAIGHT = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O . . . .
    . m . l O . . . ."""


@pytest.mark.parametrize("text, vital", [(BENT, (0, 0)), (STRAIGHT, "m")])
def test_nakade_plays_the_vital_point_of_a_three_point_space(text, vital):
    d = diagrams.parse(text)
    position = diagrams.position(text, moves=[("w", d.marks["l"])])
    ws, hw, budget, buf = work(position)
    last = position.pos(d.marks["l"])
    want = d.marks[vital] if isinstance(vital, str) else vital
    assert position.pt(kpol.nakade_point(ws, BLACK, last, buf)) == want
    mv = kp.urgent_move(ws, BLACK, last, hw, position.keys, kpol.F_NAKADE, budget, buf)
    assert position.pt(mv) == want
    assert kp.urgent_move(ws, BLACK, last, hw, position.keys, 0, budget, buf) == PASS


FOUR = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O O O O O . . .
    . . . . l O . . ."""
TOUCHED = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O X O O O . . . .
    . . . l O . . . ."""


@pytest.mark.parametrize("text", [FOUR, TOUCHED])
def test_no_nakade_in_four_points_or_where_a_black_stone_touches(text):
    d = diagrams.parse(text)
    position = diagrams.position(text, moves=[("w", d.marks["l"])])
    ws, _, _, buf = work(position)
    assert kpol.nakade_point(ws, BLACK, position.pos(d.marks["l"]), buf) == PASS


def test_the_header_bits_choose_the_rules():
    position = ladder()
    assert kpol.features(position.s) == kpol.DEFAULT_FEATURES
    kpol.set_features(position.s, 0)
    assert kpol.features(position.s) == 0
    kpol.set_features(position.s, kpol.F_NAKADE)
    ws, *_ = work(position)
    assert kpol.features(ws) == kpol.F_NAKADE  # the work copy carries them
    kpol.set_features(position.s, None)
    assert kpol.features(position.s) == kpol.DEFAULT_FEATURES
    assert LIBS < MARK and NEXT < MARK  # board_part covers the strings


# Black at a: a lone stone in atari whose liberty leads out (skipped with
# the rule); at n: inside White's two-point space (a nakade, kept); at c:
# it captures the white stone in atari (kept).
SELF_ATARI = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . O . . .
    . . . . O a O . .
    . . . . . . . . .
    . . . . . . . X O
    O O O . . . X O c
    n . O . . . . X O"""


@pytest.mark.parametrize("mark, bad", [("a", True), ("n", False), ("c", False)])
def test_lone_self_atari_outside_an_eye_space(mark, bad):
    d = diagrams.parse(SELF_ATARI)
    position = diagrams.position(SELF_ATARI)
    p = position.pos(d.marks[mark])
    assert kp.playable(position.s, p, BLACK)
    assert kpol.lone_self_atari(position.s, p, BLACK) is bad
