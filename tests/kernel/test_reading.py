"""The reading kernel's shortcuts and candidate lists (gogame.kernel.reading),
checked against the reference board or on hand-made diagrams, and numba's
cache of the recursive reading functions reloaded in a fresh process."""

import json
import os
import subprocess
import sys

import pytest
from hypothesis import given

from gogame.core.coords import format_gtp, parse_gtp
from gogame.core.position import Position
from gogame.core.prover import Prover
from gogame.core.reader import Reader
from gogame.core.reading_cache import ReadingCache
from gogame.core.sgfio import apply_game, load_game
from gogame.kernel import reading as kr
from gogame.kernel.board import BLACK, WHITE
from gogame.kernel.layout import MAXPOS
from gogame.tools import mine
from tests.helpers import diagrams
from tests.helpers.boards import PROPERTY, Boards, describe, games, gtp, replay, small_first
from tests.helpers.paths import ROOT
from tests.helpers.shapes import (
    CHAIN_BACKFILL,
    EYE_RACE,
    FILL_ANSWER,
    RACE_ATARI,
    RACE_FOUR,
    SUPERSTRING,
)


# ----------------------------------------------- the one-liberty shortcut
def _assert_capture_wins_agrees(p, ref, context):
    """Every string in atari on ``p``: the reader's shortcut (no move
    played) against playing the capture and scoring it."""
    from gogame.kernel.board import EMPTY
    from gogame.kernel.layout import H_CAPT

    for pt in ref.points():
        c = ref.color(pt)
        if c == EMPTY or len(ref.liberties(pt)) != 1:
            continue
        (lib,) = ref.liberties(pt)
        attacker = 3 - c
        want = False
        lost = p.s[H_CAPT + c]
        if p.trymove(lib, attacker):
            taken = p.s[H_CAPT + c] - lost
            want = kr._capture_code(p.s, p.pos(lib), EMPTY, c, taken) == kr.WIN
            p.popgo()
        got = kr._capture_wins(p.s, p.pos(lib), attacker)
        assert got == want, f"capture at {gtp(lib)} by {attacker} {context}"


# Black's capture at a joins J1 and leaves two stones with one liberty: it
# takes two stones (a capture); at b, joining A2-B2, it takes one (a
# snapback).
CAPTURES_INTO_ATARI = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O . . . . . . .
    X X O . X X X O O
    O b O . X O O a X
"""


def test_capture_wins_in_captures_into_atari():
    g = Boards(CAPTURES_INTO_ATARI)
    _assert_capture_wins_agrees(g.p, g.ref, "in CAPTURES_INTO_ATARI")


@pytest.mark.slow
@PROPERTY
@given(games(sizes=small_first, max_moves=150))
def test_capture_wins_agrees_with_playing_the_capture(game):
    """The reader's one-liberty shortcut decides, without playing, whether
    capturing a string in atari scores WIN (legal, no snapback, no ko); it
    must agree with playing the capture and scoring it (``_capture_code``
    with no komaster)."""
    size, moves = game
    p, ref = replay(size, moves)
    _assert_capture_wins_agrees(p, ref, f"after {describe(moves)}")


def _assert_safe_moves_are_safe(size, moves):
    """The reader's shortcut below the root (``_safe_extension``, then
    ``_safe_capture``): a move it names is legal and, played, leaves the
    owner's string at least ``_safe_libs`` liberties (trivially safe one ply
    down)."""
    import numpy as np

    from gogame.kernel import board as kb
    from gogame.kernel.layout import COLOR, NLIB, ORIGIN, PASS

    p, ref = replay(size, moves)
    ctx, mv = kr.new_context()[:2]
    nbr = np.zeros(24, np.int32)
    safe = kr._safe_libs(ctx, 1)
    for pt in ref.points():
        o = p.s[ORIGIN + p.pos(pt)]
        if p.s[COLOR + p.pos(pt)] not in (BLACK, WHITE) or o != p.pos(pt):
            continue
        owner = p.s[COLOR + o]
        k = kb.neighbour_strings(p.s, o, 3 - owner, nbr)
        kr._forget_counts(mv, 0)
        m = kr._safe_extension(p.s, mv, 0, o, safe)
        if m == PASS:
            m = kr._safe_capture(p.s, nbr, k, o, owner, safe)
        if m == PASS:
            continue
        move = next(q for q in ref.points() if p.pos(q) == m)
        assert p.trymove(move, owner), f"{gtp(move)} illegal after {describe(moves)}"
        assert p.s[NLIB + p.s[ORIGIN + o]] >= safe, f"{gtp(move)} after {describe(moves)}"
        p.popgo()


@pytest.mark.slow
@PROPERTY
@given(games(sizes=small_first, max_moves=150))
def test_safe_move_leaves_the_string_trivially_safe(game):
    _assert_safe_moves_are_safe(*game)


# Black's C1 string ends with nine liberties, more than its list keeps: the
# listed B1, taken by White's last move, is no liberty any more.
STALE_LIBERTY_LIST = (
    "BD3 WD4 BC2 WF4 BC1 WA1 BC6 WB1 BB5 WF3 BD1 WE5 BE1 WA5 BF2 WA2 "
    "BD6 WB2 BA4 BC3 WD2 WB4 BE3 WA6 BC4 WA3 BF1 WB3 BC5 WA4 BE2 BB6 WB1"
)


def test_safe_move_with_a_liberty_list_that_is_not_exact():
    moves = [
        (parse_gtp(m[1:], 6), BLACK if m[0] == "B" else WHITE) for m in STALE_LIBERTY_LIST.split()
    ]
    _assert_safe_moves_are_safe(6, moves)


# ------------------------------------------ candidate moves by depth
# White A1 is a throw-in: a self-atari away from the white string (liberties
# A2 and C2) that captures nothing.
OWNER_THROW_IN = """
. . . . .
X X X X .
O O O X .
. X . X .
. X X . .
"""


def listed(p, vertex, attack, stackp=0, throw_ins=True, ordered=None):
    """The candidates ``_read`` lists at ``stackp`` against the string at
    ``vertex``, in their order: the attacker's as generated, the owner's
    once ordered (``throw_ins``: up to backfill2_depth); ``ordered`` True
    or False overrides that."""
    from gogame.kernel import board as kb
    from gogame.kernel.layout import COLOR, NLIB, ORIGIN

    r = Reader()
    r._prepare(p)
    s, ctx, mv = p.s, r.ctx, r.mv
    target = p.pos(vertex)
    o, mine = s[ORIGIN + target], s[COLOR + target]
    nk = kb.neighbour_strings(s, o, 3 - mine, mv[0, kr.MAXMOVES : kr.MAXMOVES + 24])
    kr._forget_counts(mv, 0)  # a new node: the owner's counts not taken yet
    generate = kr._attack_moves if attack else kr._defend_moves
    n = generate(s, ctx, mv, 0, target, s[NLIB + o], stackp, nk)
    if ordered is None:
        ordered = not attack
    if ordered:
        color = 3 - mine if attack else mine
        n = kr._order(s, mv, 0, n, target, color, attack, nk, 5, throw_ins)
    return [format_gtp(p.pt(int(m))) for m in mv[0, :n]]


def candidates(p, vertex, attack, stackp=0, throw_ins=True):
    """``listed`` as a set."""
    return set(listed(p, vertex, attack, stackp, throw_ins))


def test_owner_throw_ins_only_up_to_backfill2_depth():
    p = diagrams.position(OWNER_THROW_IN)
    near = candidates(p, "A3", False, throw_ins=True)
    deep = candidates(p, "A3", False, throw_ins=False)
    assert {"A2", "A1"} <= near
    assert "C2" not in near  # leaves the three stones in atari: dropped
    assert "A1" not in deep
    assert near - deep == {"A1"}


# Two strings of three liberties: White's D5-E5 in the open, and Black's
# J3-J5 and H3 crawling along the first line (liberties J6, J2 and H2).
THREE_LIBERTIES = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . O .
. . X O O . . O X
. . . X . . . O X
. . . . . . O X X
. . . . . . . . .
. . . . . . . . .
"""


def test_attacker_approaches_three_liberties_deep_only_near_the_edge():
    """Up to backfill2_depth (5 at level 10) the attacker approaches a
    string of three liberties anywhere; past it only on the first two
    lines, up to branch_depth - 2 (11); then not at all."""
    p = diagrams.position(THREE_LIBERTIES)
    libs = {"E6", "F5", "E4"}
    near, deep, deeper = (candidates(p, "E5", True, stackp) for stackp in (5, 6, 12))
    assert near == libs | {"F6", "E7", "G5", "F4", "E3"}
    assert deep == deeper == libs
    edge = [candidates(p, "J4", True, stackp) for stackp in (5, 6, 11, 12)]
    assert edge[0] == edge[1] == edge[2] == {"J6", "J2", "H2", "J7", "J1", "G2", "H1"}
    assert edge[3] == {"J6", "J2", "H2"}


# The white F5 stone has two liberties.  Black's G5 ataris it (and G4) but
# is a self-atari that captures nothing: White takes it at G6 with
# liberties to spare.  Black's E5 ataris it from outside.  Mined from a
# game (the corpus's s1936-m060-S16 defence), where trying G5 first read
# 2,345 nodes to GNU Go's 31.
SELF_ATARI_ATARI = """
. . . . . . .
. . . . X X .
. . . X . O .
. . . . . X O
. . . . . . .
. . . . . . .
. . . . . . .
"""


def test_attacker_self_atari_comes_after_the_moves_that_are_not():
    order = listed(diagrams.position(SELF_ATARI_ATARI), "F5", True, ordered=True)
    assert order[0] == "E5"
    assert order[-1] == "G5"


# The white C4 string has two liberties, D5 and E4; Black's D3 stone next
# to it is in atari.  If Black ataris first, White takes D3 at D2 and
# escapes: Black's D2 saves it, and scores as an atari (ahead of the
# approaches; ahead of the ataris too it cost nodes, docs/reading.md).
# On the mined problem s2004-m060-P13 such a save came fifth where four
# moves are tried.
SAVE_FIRST = """
. . . . . . .
. . . . . . .
. . X . . . .
. X O O . . .
. X O X O . .
. . X . . . .
. . . . . . .
"""


def test_attacker_saves_a_neighbour_in_atari_right_after_the_ataris():
    order = listed(diagrams.position(SAVE_FIRST), "C4", True, ordered=True)
    assert set(order[:2]) == {"D5", "E4"}  # the ataris
    assert order[2] == "D2"


# Black's A3 string (liberties A2, A1) and the white A4 string of one
# liberty more (A5, B5, C4), which shares none of them.
OWNER_RACE = """
. . . . .
O O . . .
X X O . .
. X O . .
. X O . .
"""


def test_owner_race_against_one_liberty_more_only_up_to_backfill2_depth():
    p = diagrams.position(OWNER_RACE)
    backfill2 = Reader().depths[3]
    near = candidates(p, "A3", False, stackp=backfill2)
    deep = candidates(p, "A3", False, stackp=backfill2 + 1)
    assert {"A5", "B5", "C4"} <= near
    assert not {"A2", "A1"} & near  # they leave the three stones in atari
    assert near - deep == {"A5", "B5", "C4"}


# Black's B3 string (liberties B2, C2, D2) touches two white strings of two
# liberties each: A3 (A4, A2) and E3 (E4, F3).
ATTACKER_RACE = """
. . . . . . .
. . . . . . .
. . . . . . .
. O O O . . .
O X X X O . .
. . . . X . .
. . . . . . .
"""


def test_attacker_race_moves_up_to_a_ply_past_break_chain_depth():
    """A ply below the owner's last race moves against its neighbours
    (``break_chain_depth``), so that each has its answer."""
    p = diagrams.position(ATTACKER_RACE)
    break_chain = Reader().depths[4]
    assert break_chain > Reader().depths[3]  # past backfill2_depth
    near = candidates(p, "B3", True, break_chain + 1)
    deep = candidates(p, "B3", True, break_chain + 2)
    assert {"B2", "C2", "D2", "E4", "F3", "A4"} <= near
    assert near - deep == {"E4", "F3", "A4"}


# White's lone D4 with four liberties (D5, C4, E4, D3), Black's C3 on a
# diagonal.
NET = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . O . . .
. . X . . . .
. . . . . . .
. . . . . . .
"""


def test_nets_against_four_liberties_only_near_the_root():
    """The corpus's S15 and R18 captures start with a net against four
    liberties (docs/reading.md); deeper, a net costs reads and found
    nothing more on the development sets.  A little deeper the caps
    (GNU Go's find_cap) stand in for them: for a lone stone the same
    points; past that, neither."""
    p = diagrams.position(NET)
    backfill2 = Reader().depths[3]
    near = backfill2 - kr.NET_PLIES
    assert 0 <= near < backfill2 - kr.CAP_PLIES
    at = candidates(p, "D4", True, near)
    caps = candidates(p, "D4", True, backfill2 - kr.CAP_PLIES)
    deep = candidates(p, "D4", True, backfill2 - kr.CAP_PLIES + 1)
    assert {"D5", "C4", "E4", "D3"} <= deep
    assert at - deep == caps - deep == {"C5", "E5", "E3"}


# A mined game cut to 13x13 (sgf/fresh/gogame-vs-gnugo-l2-19x19-s7203.sgf
# after move 140, its columns C to N and rows 1 to 13): White's lone F8
# (H8 in the game; liberties F9, G8, F7) escapes along F7, F6 in a loose
# ladder.
# Black's G8, then G7 after F7, then the cap G5 after F6 captures it (the
# prover: 2 G8, a ko).
CAP_CHASE = """
O . X O . O . . X . . . .
O X O . O O O X . O O . .
O . X O O X O X O . X . .
X O O X O X X . X . . . .
X . X X X . . . . . . . .
X . X . X O . . . . . . .
X X O X . . . . . . X . .
O O O . X . . . X . . . .
O . X X . . . . . . . . .
. O O O . X . . . . . . .
O . . . . . X . . . . . .
X X . X . . . . . . . . .
. . . . . . . . . . . . .
"""


def test_a_cap_at_the_fourth_ply_takes_the_loose_ladder():
    """The chase's fourth ply is the cap G5 against four liberties: listed
    up to backfill2_depth less ``CAP_PLIES``; the reader then names G8,
    the move the prover proves (a ko, code 2).  Without caps the reader
    answers 0 here, as it did on the game (docs/reading.md)."""
    p = diagrams.position(CAP_CHASE)
    assert Reader().attack(p, "F8") == (1, parse_gtp("G8", 13))
    last = Reader().depths[3] - kr.CAP_PLIES
    for vertex, color in (("G8", BLACK), ("F7", WHITE), ("G7", BLACK), ("F6", WHITE)):
        assert p.trymove(parse_gtp(vertex, 13), color)
    assert p.stackp <= last
    assert "G5" in candidates(p, "F8", True, p.stackp)
    assert "G5" not in candidates(p, "F8", True, last + 1)
    for _ in range(4):
        p.popgo()
    # 5 M nodes: since the komaster's legal captures (2026-12-07) the
    # prover's guide orders this proof otherwise; 2 M no longer suffice
    proof = Prover(max_nodes=5_000_000).prove_move(p, parse_gtp("F8", 13), parse_gtp("G8", 13), 2)
    assert proof.proven and proof.code == 2


# Black's D2 string (liberties D3, E1) and white E2 (E3, E1) share E1; the
# black F3 string next to E2 has three liberties, two of them (G2, G3) far
# from D2: shortening it is a far race move for White.
FAR_RACE = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . O .
. . . . . X .
. . O X O X .
. . O X . O .
"""


def test_far_race_moves_only_near_the_root():
    p = diagrams.position(FAR_RACE)
    far = Reader().depths[3] - kr.FAR_RACE_PLIES  # backfill2_depth less it
    near = candidates(p, "D2", True, far)
    deep = candidates(p, "D2", True, far + 1)
    assert {"D3", "E1", "E3"} <= deep
    assert near - deep == {"G2", "G3"}


# Black's H8 (liberties H9, J8) and White's G7 string (the same two) cut
# each other; filling either liberty is a self-atari for both.  Black's F
# column string next to G7 has two liberties, E9 and E8: White shortens it
# and G7 wins the race, then H8 dies.
SAME_TWO = """
. . . O . X O . O
. . . O . X O X .
. . . O O X O O O
. . . O O X X X X
. . . . O O O O O
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_a_neighbour_with_the_very_same_two_liberties_races_far():
    """With the very same two liberties, the attacker's far race moves
    against the owner's other strings next to G7 are listed (``E8``,
    ``E9``) while the owner still has its answers a ply down (air for the
    shortened string, up to break_chain_depth): deeper than far race
    moves against one shared liberty, not at break_chain_depth.  The
    reader captures H8 as the prover does."""
    p = diagrams.position(SAME_TWO)
    chain = Reader().depths[4]  # break_chain_depth
    assert {"E8", "E9"} <= candidates(p, "H8", True, chain - 1)
    assert not {"E8", "E9"} & candidates(p, "H8", True, chain)
    code, move = Reader().attack(p, "H8")
    assert code == 1 and format_gtp(move) in ("E8", "E9")
    proof = Prover(max_nodes=200_000).attack(p, parse_gtp("H8", 9))
    assert proof.proven and proof.code == 1


def test_the_owner_races_a_four_liberty_neighbour_as_a_last_resort():
    """Every move of White's next to D9 is a self-atari or a suicide, so
    White's candidates take in the liberties of Black's four-liberty
    neighbour (GNU Go's break_chain4_moves when defend2 has no move), up
    to backfill2_depth.  The reader defends D9 as the prover does (before
    this rule it answered 0); Black to move captures."""
    p = diagrams.position(RACE_FOUR)
    near = Reader().depths[3]  # backfill2_depth
    assert {"B9", "B8", "B7"} <= candidates(p, "D9", False, near)
    assert not {"B9", "B8", "B7"} & candidates(p, "D9", False, near + 1)
    code, move = Reader().find_defense(p, "D9")
    assert code == 1 and format_gtp(move) in ("B9", "B8", "B7")
    assert Reader().attack(p, "D9")[0] == 1
    proof = Prover(max_nodes=200_000).defend(p, parse_gtp("D9", 9))
    assert proof.proven and proof.code == 1


# White's G1 string (liberties F1, G2) and White's F2 share both their
# liberties: they live or die together.  Black's D2 string next to F2 has
# three (C3, D1, E1); shortening it saves G1 outright, where without it
# White only wins a ko.
TIED_FRIEND = """
. O . . . X . . .
. O . . . X . . .
. O . . . X . . .
. O . . . X . . .
. O . . . X . . .
. O O O O X X X X
. O . X O X O O X
O O O X X O . O X
. . . . . . O O X
"""


def test_a_friend_tied_to_both_liberties_is_rescued_quietly_near_the_root():
    """Against two liberties the owner blocks a friend's three-liberty
    attacker only by a capture, except near the root (up to
    backfill2_depth less ``TIED_PLIES``) for a friend that has both of the
    target's liberties: then its quiet blocks are listed.  The reader
    defends G1 unconditionally (it answered a ko, code 3, before) and the
    attacker wins only a ko (code 2, it answered 1), as the prover proves."""
    p = diagrams.position(TIED_FRIEND)
    near = Reader().depths[3] - kr.TIED_PLIES  # backfill2_depth less it
    assert {"C3", "D1"} <= candidates(p, "G1", False, near)
    assert not {"C3", "D1"} & candidates(p, "G1", False, near + 1)
    assert Reader().find_defense(p, "G1")[0] == 1
    assert Reader().attack(p, "G1")[0] == 2
    proof = Prover(max_nodes=200_000).defend(p, parse_gtp("G1", 9))
    assert proof.proven and proof.code == 1


# Black's E4 has two liberties, D4 and E5.  Black's jump to D5 takes both
# (a friend tied to them: the two live or die together), and White's D6
# nets it.
TIED_NET = """
. . . . . . . . .
. . . O O . . . .
. . . . . O . . .
. . X . . . . . .
. O . . . O . . .
. . . . X O . . .
O . O O O . . . .
. . . . . . . O .
. . . . . . . . .
"""


def test_the_attacker_nets_a_friend_tied_to_both_liberties():
    """After Black's D5, which has both of E4's liberties, the attacker's
    candidates near the root (up to backfill2_depth less ``TIED_PLIES``)
    take in D5's other liberties, C5 and D6; the reader then captures E4,
    as the prover does, and no longer answers that D5 defends it (it
    answered ``1 D5`` before)."""
    p = diagrams.position(TIED_NET)
    assert Reader().find_defense(p, "E4")[0] == 0
    assert p.trymove(parse_gtp("D5", 9), BLACK)
    near = Reader().depths[3] - kr.TIED_PLIES  # backfill2_depth less it
    assert {"C5", "D6"} <= candidates(p, "E4", True, near)
    assert not {"C5", "D6"} & candidates(p, "E4", True, near + 1)
    assert Reader().attack(p, "E4")[0] == 1
    proof = Prover(max_nodes=200_000).attack(p, parse_gtp("E4", 9))
    assert proof.proven and proof.code == 1


# White's B7 has two liberties, A7 and B6, and Black's B8 one, C8.  After
# Black's B6 and White's C8, which takes B8, White's B7 has A7 and B8, and
# Black's B6 two others, A6 and B5: White now threatens B6, and Black's B5
# keeps it out of reach.
RACE_SAVE = """
. O X X . . . . .
O X . X . . . . .
. O X X . . . . .
. . O . . . . . .
. . O . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_the_attacker_saves_a_short_neighbour_outside_the_race_near_the_root():
    """Against one or two liberties the attacker saves a two-liberty
    neighbour that does not share both of the target's liberties only near
    the root (up to backfill2_depth less ``RACE_SAVE_PLIES``).  With B5
    listed after B6 and C8, the reader takes B7 by a ko Black takes first
    (code 2; it answered 3 before), as the prover proves."""
    p = diagrams.position(RACE_SAVE)
    assert Reader().attack(p, "B7") == (2, parse_gtp("B6", 9))
    proof = Prover(max_nodes=200_000).attack(p, parse_gtp("B7", 9))
    assert proof.proven and proof.code == 2
    assert p.trymove(parse_gtp("B6", 9), BLACK) and p.trymove(parse_gtp("C8", 9), WHITE)
    near = Reader().depths[3] - kr.RACE_SAVE_PLIES  # backfill2_depth less it
    assert "B5" in candidates(p, "B7", True, near)
    assert "B5" not in candidates(p, "B7", True, near + 1)


# Black's C2 is in atari: White's B2 takes it as a ko, and the lone B2 then
# has one liberty, C2, where Black's retake would be a conditional ko capture.
KO_AT_DEPTH = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X O . . . . . .
X X O . . . . . .
X . X O . . . . .
. X O . . . . . .
"""
FAR_MOVES = ("H9", "H8", "J9", "J8", "G9", "G8", "H7", "J7", "G7", "H6", "J6")


def _ko_taken_at(stackp):
    """KO_AT_DEPTH with White's ko capture at B2 as the ``stackp``-th
    trymove, after stackp - 1 moves far away."""
    p = diagrams.position(KO_AT_DEPTH)
    for k, vertex in enumerate(FAR_MOVES[: stackp - 1]):
        assert p.trymove(parse_gtp(vertex, 9), BLACK if k % 2 == 0 else WHITE)
    assert p.trymove(parse_gtp("B2", 9), WHITE)
    return p


@pytest.mark.parametrize("stackp", [8, 9, 10, 11, 12])
def test_the_attacker_retakes_a_ko_past_ko_depth(stackp):
    """The owner's B2 has just taken the ko, so Black's retake at C2 is a
    conditional ko capture: up to ``ko_depth`` for both sides, then
    ``KO_ATTACK_PLIES`` more for the attacker (up to stackp 10 at level
    10), and past that still for the capture of the lone target on its
    last liberty, as GNU Go's ``attack1`` answers at any depth; before
    these rules the reader answered 0 past ``ko_depth``.  The prover
    proves the capture by a ko (code 3)."""
    p = _ko_taken_at(stackp)
    assert Reader().attack(p, "B2") == (3, parse_gtp("C2", 9))
    if stackp == 12:
        proof = Prover(max_nodes=100_000).attack(p, parse_gtp("B2", 9))
        assert proof.proven and proof.code == 3


def test_only_the_attacker_retakes_a_ko_past_ko_depth():
    """``_ko_allowed`` past ``ko_depth``: the owner may not retake a ko;
    the attacker may for ``KO_ATTACK_PLIES``, then only at the last
    liberty of a lone target."""
    ctx = kr.new_context()[0]
    ko_depth = int(ctx[kr.C_KODEPTH])
    for stackp in (ko_depth + 1, ko_depth + kr.KO_ATTACK_PLIES + 1):
        p = _ko_taken_at(stackp)
        c2, b2, d5 = (p.pos(parse_gtp(v, 9)) for v in ("C2", "B2", "D5"))
        assert not kr._ko_allowed(p.s, ctx, c2, b2, False)
        assert kr._ko_allowed(p.s, ctx, c2, b2, True)
        deep = stackp > ko_depth + kr.KO_ATTACK_PLIES
        assert kr._ko_allowed(p.s, ctx, d5, b2, True) != deep


# White's ring (A3 to D7) holds Black's B5 (four liberties), A6 and C4,
# and Black's wall holds the ring: whoever fills an inner point first
# loses the race, so neither side can move there.
SEKI_INSIDE = """
. . . . . . . . .
X X X X . . . . .
O O O X X . . . .
X . O O X . . . .
. X . O X . . . .
O . X O X . . . .
O O O O X . . . .
X X X X X . . . .
. . . . . . . . .
"""


def test_a_string_that_cannot_be_taken_is_defended_by_a_tenuki():
    """At the root the owner's last candidate is a tenuki whatever the
    liberties: every move inside lets White capture B5, which White cannot
    when Black passes, so the answer is the pass (code 1, no move), not 0."""
    p = diagrams.position(SEKI_INSIDE)
    assert Reader().attack(p, "B5")[0] == 0
    for vertex in ("A5", "B6", "C5", "B4"):
        assert p.trymove(parse_gtp(vertex, 9), BLACK)
        assert Reader().attack(p, "B5")[0] == 1, vertex
        p.popgo()
    assert Reader().find_defense(p, "B5") == (1, None)


def test_the_owner_backfills_where_its_chain_atari_is_a_self_atari():
    """B1 is listed for the owner (the atari C1 itself too), and the prover
    proves that it saves E2: the attacker's far race move J2 is refuted."""
    p = diagrams.position(CHAIN_BACKFILL)
    assert {"C1", "B1"} <= candidates(p, "E2", False)
    proof = Prover(max_nodes=200_000).defend(p, parse_gtp("E2", 9))
    assert proof.proven and proof.code == 1 and proof.move == parse_gtp("B1", 9)


# The right side of a mined game (sgf/fresh/gnugo-l8-19x19-s6002.sgf,
# move 160), cut to 9x9: White's F5-F6 (liberties E6, G6) races Black's
# G5-H5 (G6, H6).  Black's J4 ataris White's J5; White saves it by taking
# J4 at J3.
FRIEND_TAKES = """
. . . . O . . . X
. . . . O X X X O
O . O . X X O O O
. . . X . O . . .
. . . . X O X X O
O O O O X X O O .
X X X O O X X O .
. . . X X X . O .
. X O X . . X O .
"""


def test_the_owner_takes_the_stone_that_ataris_a_short_friend():
    """After J4 the owner lists J3 (``_add_friend_captures``), which
    defends, as the prover proves; so F5 cannot be captured, as proven.
    The reader names G6 first (GNU Go's answer too, unproven), so J3 is
    checked by the attack after it."""
    p = diagrams.position(FRIEND_TAKES)
    target = parse_gtp("F5", 9)
    assert Reader().attack(p, "F5")[0] == 0
    proof = Prover(max_nodes=200_000).attack(p, target)
    assert proof.proven and proof.code == 0
    p.trymove(parse_gtp("J4", 9), BLACK)
    assert "J3" in candidates(p, "F5", False)
    assert Reader().find_defense(p, "F5")[0] == 1
    proof = Prover(max_nodes=200_000).defend(p, target)
    assert proof.proven and proof.code == 1 and proof.move == parse_gtp("J3", 9)
    p.trymove(parse_gtp("J3", 9), WHITE)
    assert Reader().attack(p, "F5")[0] == 0


# White's B2 string (liberties B1, B3, C3) escapes at B3, where it joins
# the B4 string: six liberties.
ONE_ESCAPE = """
. . . . . . .
. . . . . . .
. O . . . . .
. O . . . . .
. . . X . . .
X O O X . . .
. . X . . . .
"""


def test_race_liberties_left_out_at_the_given_number_of_escapes():
    from gogame.kernel.layout import ORIGIN

    p = diagrams.position(ONE_ESCAPE)
    r = Reader()
    r._prepare(p)
    x = p.s[ORIGIN + p.pos("B2")]
    listed = {}
    for most in (1, 2):
        n = kr._add_race_liberties(p.s, r.mv, 0, 0, x, 0, most)
        listed[most] = {format_gtp(p.pt(int(m))) for m in r.mv[0, :n]}
    assert listed == {1: set(), 2: {"B1", "B3", "C3"}}


# ------------------------------------------------ numba cache, reloaded
READ_IN_A_SUBPROCESS = r"""
import sys
from gogame.core.position import Position
from gogame.core.reader import Reader
from gogame.core.coords import format_gtp
p = Position(13)
p.setup({'E6': 'b', 'D5': 'b', 'F4': 'b', 'C3': 'w', 'E5': 'w'})
k = Position(9)
k.setup({'C5': 'b', 'D5': 'b', 'E5': 'b', 'C4': 'b', 'E4': 'b', 'C3': 'b', 'E3': 'b',
         'B2': 'b', 'C1': 'b', 'D3': 'w', 'F3': 'w', 'C2': 'w', 'E2': 'w', 'F2': 'w',
         'D1': 'w', 'E1': 'w'})
k.play('D2', 'b')
r = Reader()
out = []
for pos, kind, v in ((p, 'attack', 'E5'), (p, 'find_defense', 'E5'),
                     (p, 'ladder_attack', 'E5'), (k, 'find_defense', 'D3'),
                     (k, 'attack', 'D2')):
    code, move = getattr(r, kind)(pos, v)
    out.append(f"{kind} {v} {code} {format_gtp(move) if move else 'PASS'}")
print('; '.join(out))
"""


@pytest.mark.slow
def test_numba_cache_reload_in_a_fresh_process(tmp_path):
    """Two fresh interpreters, one after the other, share NUMBA_CACHE_DIR:
    the first compiles and writes the cache, the second loads it.  Both must
    exit 0 with the same answers (a recursive function loaded back from
    numba's cache once crashed the second one)."""
    cache = tmp_path / "numba-cache"
    cache.mkdir()
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT))
    env.pop("NUMBA_DISABLE_JIT", None)
    runs = []
    for _ in range(2):
        proc = subprocess.run(
            [sys.executable, "-c", READ_IN_A_SUBPROCESS],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert proc.returncode == 0, (
            f"exit {proc.returncode} (a negative code is a signal)\n{proc.stderr[-3000:]}"
        )
        runs.append(proc.stdout.strip())
        files = {f: f.stat().st_mtime_ns for f in cache.rglob("*") if f.is_file()}
        if len(runs) == 1:
            assert any(f.suffix == ".nbi" for f in files), "the first run wrote no numba cache"
            written = files
    assert files == written, "the second run compiled again instead of loading the cache"
    assert runs[0] == runs[1]
    assert runs[0].startswith("attack E5 1 E4;"), runs[0]


def _owner_row(candidates):
    """A context and move rows with the owner's ordered candidates at ply 1:
    (point, score) pairs, best first."""
    ctx, mv = kr.new_context()
    for i, (m, score) in enumerate(candidates):
        mv[1, i] = m
        mv[1, kr.SCORES + i] = score
    return ctx, mv


def test_the_owners_history_puts_its_refutations_first():
    """Three candidates of White's scored 100, 95 and 90: the third, which
    refuted three attacker moves in this question, gains 6 and comes second;
    after thirty refutations it comes first, by HISTORY_CAP (40), not 60."""
    a, b, c = 30, 31, 32
    history = kr.C_HISTORY + (WHITE - 1) * MAXPOS
    ctx, mv = _owner_row([(a, 100), (b, 95), (c, 90)])
    ctx[history + c] = 3
    ctx[kr.C_HISTORY + (BLACK - 1) * MAXPOS + b] = 50  # Black's: not White's
    assert kr._by_history(ctx, mv, 1, 3, WHITE)
    assert list(mv[1, :3]) == [a, c, b]
    assert list(mv[1, kr.SCORES : kr.SCORES + 3]) == [100, 96, 95]
    ctx, mv = _owner_row([(a, 100), (b, 95), (c, 90)])
    ctx[history + c] = 30
    kr._by_history(ctx, mv, 1, 3, WHITE)
    assert list(mv[1, :3]) == [c, a, b]
    assert mv[1, kr.SCORES] == 90 + kr.HISTORY_CAP


def test_the_owners_history_changes_nodes_not_answers():
    """The history orders only nodes where every move is tried, so it may
    change which refutation is found first, never a code: every tenth mined
    problem of 300 nodes or more, read with it and without it, gets the same
    answer, while the node counts differ."""
    index = json.loads((ROOT / "tests" / "data" / "problems" / "index.json").read_text())
    entries = [e for e in index if e["gogame"]["nodes"] >= 300][::10]
    nodes = {True: 0, False: 0}
    for entry in entries:
        answers = {}
        for on in (True, False):
            reader = Reader(cache=ReadingCache(1.0))
            for ctx, _ in reader._contexts:
                ctx[kr.C_HISTORY_ON] = int(on)
            position = mine.problem_position(ROOT / "tests" / "data" / "problems", entry)
            ask = reader.attack if entry["question"] == "attack" else reader.find_defense
            answers[on] = ask(position, entry["vertex"])
            nodes[on] += reader.nodes
        assert answers[True] == answers[False], entry["file"]
    assert len(entries) >= 40 and nodes[True] != nodes[False]


def test_a_question_reads_the_same_whatever_was_asked_before():
    """Killers and the owner's history never outlive a question (``_root``
    clears the history only when the last question learned something):
    mined problems asked one after another of one reader without a cache
    read the same nodes and answers as each asked of a fresh reader, and
    some of them left a history behind for the next to forget."""
    folder = ROOT / "tests" / "data" / "problems"
    index = json.loads((folder / "index.json").read_text())
    entries = [e for e in index if e["gogame"]["nodes"] >= 300][:16]
    again = Reader(cache=ReadingCache(0))
    learned = 0
    for entry in entries:
        answers, nodes = [], []
        for reader in (again, Reader(cache=ReadingCache(0))):
            position = mine.problem_position(folder, entry)
            ask = reader.attack if entry["question"] == "attack" else reader.find_defense
            before = reader.nodes
            answers.append(ask(position, entry["vertex"]))
            nodes.append(reader.nodes - before)
        assert answers[0] == answers[1] and nodes[0] == nodes[1], entry["file"]
        learned += int(again.ctx[kr.C_LEARNED])
    assert len(entries) == 16 and learned > 0


def test_race_ataris_only_up_to_a_ply_before_backfill2_depth():
    """The attacker's race atari B10 is listed up to ``backfill2_depth``
    less ``RACE_ATARI_PLIES``: on the mined game it led to, the proof
    needs it at stackp 4."""
    p = diagrams.position(RACE_ATARI)
    last = Reader().depths[3] - kr.RACE_ATARI_PLIES
    assert "B10" in candidates(p, "F8", True, last)
    assert "B10" not in candidates(p, "F8", True, last + 1)


def test_a_race_atari_decides_a_capture():
    """With the race ataris the reader captures White's F8 (the reader of
    the day before answered 0), and the prover proves its move."""
    p = diagrams.position(RACE_ATARI)
    code, move = Reader().attack(p, "F8")
    assert code == 1
    proof = Prover(max_nodes=500_000).prove_move(p, "F8", move, claimed=1)
    assert proof.proven and proof.code == 1


def test_eye_races_up_to_backfill_depth_and_their_answers_a_ply_below():
    """Black's eye races F3 and F1 are listed up to ``backfill_depth``
    (the held-out game needs them at stackp 11, past every other race
    move); after F3, White's save of its string, F1, a ply further."""
    p = diagrams.position(EYE_RACE)
    last = Reader().depths[2]  # backfill_depth
    assert {"F3", "F1"} <= candidates(p, "G6", False, last)
    assert not {"F3", "F1"} & candidates(p, "G6", False, last + 1)
    assert p.trymove("F3", BLACK)
    assert "F1" in candidates(p, "G6", True, last + 1)
    assert "F1" not in candidates(p, "G6", True, last + 2)


def test_an_eye_race_deep_in_a_held_out_game():
    """At stackp 11 of the line where the reader of 2026-12-07 claimed a
    false capture of a held-out 9x9 game (proven 0), Black now defends by
    an eye race, and the prover proves the move; at the root White's G5
    no longer captures."""
    game = load_game(ROOT / "sgf" / "fresh" / "gnugo-l10-9x9-s8024.sgf")
    p = Position(game.size)
    apply_game(game, p, 25)
    assert Reader().attack(p, "G6") == (0, None)
    for i, move in enumerate("G5 H5 G4 H3 G2 H2 H1 F2 G1 J2 J3".split()):
        assert p.trymove(move, WHITE if i % 2 == 0 else BLACK)
    code, move = Reader().find_defense(p, "G6")
    assert code == 1 and format_gtp(move) in ("F3", "F1")
    proof = Prover(max_nodes=500_000).prove_defence(p, "G6", format_gtp(move), claimed=1)
    assert proof.proven and proof.code == 1


def test_superstring_liberties_up_to_superstring_depth():
    """White's A1, the superstring's liberty against Black's two-liberty
    G1, is listed up to ``superstring_depth`` (GNU Go's attack2), and not
    past it."""
    p = diagrams.position(SUPERSTRING)
    last = Reader().depths[5]  # superstring_depth
    assert "A1" in candidates(p, "G1", True, last)
    assert "A1" not in candidates(p, "G1", True, last + 1)


def _assert_proven_attack(name, until, vertex, code, move):
    """In the position of ``sgf/fresh/NAME`` as ``loadsgf NAME UNTIL`` sets
    it up, the reader attacks ``vertex`` with ``code`` at ``move``, and
    the prover proves that move and code (500 k nodes)."""
    game = load_game(ROOT / "sgf" / "fresh" / name)
    p = Position(game.size)
    apply_game(game, p, until)
    answer = Reader().attack(p, vertex)
    assert (answer[0], format_gtp(answer[1])) == (code, move)
    proof = Prover(max_nodes=500_000).prove_move(p, vertex, answer[1], claimed=code)
    assert proof.proven and proof.code == code


def test_a_superstring_ko_in_a_held_out_game():
    """The development set's miss of a held-out 9x9 game (proven `3 F2`,
    answered 0): the reader now fills the superstring's liberty A1 and
    captures with a ko it takes first, and the prover proves that move
    and code."""
    _assert_proven_attack("gogame-vs-gnugo-l5-9x9-s8106.sgf", 61, "G1", 2, "A1")


def test_a_komaster_takes_a_second_ko_in_a_committed_game():
    """The miss of a held-out 19x19 game (proven `3 T11`, answered 0):
    inside the read Black becomes komaster of one ko and then needs the
    first, legal capture of another, which GNU Go's scheme forbids it
    (kernel/komaster.py, 2a).  Allowed, the reader finds the ko capture
    the prover proves."""
    _assert_proven_attack("gogame-vs-gnugo-l4-19x19-s8901.sgf", 156, "T12", 3, "T11")


def test_the_owner_answers_the_fill_at_the_root_only():
    """B5, the answer to Black's fill at A4, is listed for the owner of
    A3 at the root (the held-out game's proven B8 is there) and not a
    ply down, where such answers were found to hold falsely."""
    p = diagrams.position(FILL_ANSWER)
    assert kr.FILL_ANSWER_PLIES == Reader().depths[3]  # at the root only
    assert "B5" in candidates(p, "A3", False, 0)
    assert "B5" not in candidates(p, "A3", False, 1)
