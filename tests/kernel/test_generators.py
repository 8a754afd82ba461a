"""The reader's candidate generators (gogame.kernel.reading ``_add_*``), one
test each, on hand-drawn diagrams: the points a generator lists, and some
it must not list.  Each generator is called directly, on the move rows of
``new_context()`` (ply 0, an empty row).  In the diagrams X is Black and O
White; which side is the owner is said with each."""

from gogame.core.coords import format_gtp
from gogame.kernel import board as kb
from gogame.kernel import reading as kr
from gogame.kernel.layout import BLACK, COLOR, ORIGIN, PASS, WHITE
from tests.helpers import diagrams, shapes
from tests.helpers.shapes import CHAIN_BACKFILL, EYE_RACE, FILL_ANSWER, RACE_ATARI, SUPERSTRING


def _setup(text):
    p = diagrams.position(text)
    ctx, mv = kr.new_context()
    return p, ctx, mv


def _origin(p, vertex):
    return int(p.s[ORIGIN + p.pos(vertex)])


def _listed(p, mv, n):
    """The points in mv[0, :n] as GTP vertices."""
    return {format_gtp(p.pt(int(m))) for m in mv[0, :n]}


def _score(p, mv, n, vertex):
    (i,) = [i for i in range(n) if mv[0, i] == p.pos(vertex)]
    return int(mv[0, kr.SCORES + i])


def _neighbours(p, o, mv):
    """List the attacker strings next to ``o`` in mv[0, NBR:], as
    ``_candidates`` does; return their count."""
    other = 3 - int(p.s[COLOR + o])
    return int(kb.neighbour_strings(p.s, o, other, mv[0, kr.NBR : kr.SCRATCH]))


# White's C2-D2 (liberties D1, D3, E2) against Black.
TWO_STONES = """
. . . . .
. . . . .
. . X . .
. X O O .
. . X . .
"""


def test_liberties_of():
    p, _, mv = _setup(TWO_STONES)
    n = kr._add_liberties_of(p.s, mv, 0, 0, _origin(p, "C2"), 7)
    assert _listed(p, mv, n) == {"D1", "D3", "E2"}
    assert _score(p, mv, n, "E2") == 7


def test_second_order_liberties():
    p, _, mv = _setup(TWO_STONES)
    n = kr._add_second_order(p.s, mv, 0, 0, _origin(p, "C2"), kr.SC_APPROACH)
    assert _listed(p, mv, n) == {"D4", "E1", "E3"}  # not the liberties
    assert _score(p, mv, n, "D4") == kr.SC_APPROACH


# White's B2-B3 (liberties B4, C3, C2); its friend D2 (C2, D3) touches C2.
FRIEND = """
. . . . .
. . . . .
X O . . .
X O . O X
. X . X .
"""


def test_connections_list_a_short_friend_s_liberties():
    p, _, mv = _setup(FRIEND)
    o = _origin(p, "B2")
    n = kr._add_connections(p.s, mv, 0, 0, o, kr.JOIN_LIBS, kr.SC_JOIN)
    assert _listed(p, mv, n) == {"C2", "D3"}  # not the target's B4, C3
    assert _score(p, mv, n, "D3") == kr.SC_JOIN
    assert kr._add_connections(p.s, mv, 0, 0, o, 1, kr.SC_JOIN) == 0  # friend too long


def test_friend_approaches_list_a_two_liberty_friend_s_second_order():
    p, _, mv = _setup(FRIEND)
    n = kr._add_friend_approaches(p.s, mv, 0, 0, _origin(p, "B2"), kr.SC_FRIEND_APPROACH)
    assert _listed(p, mv, n) == {"C1", "C3", "D4", "E3"}  # not the friend's C2, D3


# White's C2-C3-D2 (liberties C4, D1); Black's C1 (B1, D1) touches D1.
BACKFILL = """
. . . . .
. . . . .
. X O X .
. X O O X
. . X . .
"""


def test_backfills_list_the_attacker_s_own_short_string():
    p, _, mv = _setup(BACKFILL)
    o = _origin(p, "C2")
    n = kr._add_backfills(p.s, mv, 0, 0, o, kr.BACKFILL_LIBS, kr.SC_BACKFILL)
    assert _listed(p, mv, n) == {"B1", "D1"}  # not C4
    assert kr._add_backfills(p.s, mv, 0, 0, o, 1, kr.SC_BACKFILL) == 0


# White's B3-C3 (liberties B4, C4, D3) against Black's A3 (in atari at A4)
# and B2-C2 (in atari at C1); White's A2 is in atari at A1, White's B1 has
# two liberties (A1, C1), White's D1-D2 four (C1, D3, E1, E2).
ATTACKER_IN_ATARI = """
. . . . .
. . . . .
X O O . .
O X X O .
. O . O .
"""


# White's lone D4 (four liberties) and Black's C3 on one of its diagonals.
NET = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . O . . .
. . X . . . .
. . . . . . .
. . . . . . .
"""


def test_nets_list_the_points_next_to_two_liberties():
    p, _, mv = _setup(NET)
    n = kr._add_nets(p.s, mv, 0, 0, _origin(p, "D4"), kr.SC_APPROACH)
    # the empty diagonals; not D6, F4 ... (next to one liberty only)
    assert _listed(p, mv, n) == {"C5", "E5", "E3"}
    assert _score(p, mv, n, "E3") == 2 * kr.SC_APPROACH  # once a liberty


# White's D3-D5 (liberties D6, C4, E3 and D2) chased by Black: E3 and D2
# are diagonal neighbours, and E2 is the corner between them that White
# does not hold.
CAP = """
. . . . . . .
. . X . . . .
. . X O X . .
. . . O X . .
. . X O . . .
. . . . . . .
. . . . . . .
"""


def test_caps_list_the_corner_of_two_diagonal_liberties():
    p, _, mv = _setup(CAP)
    n = kr._add_caps(p.s, mv, 0, 0, _origin(p, "D4"), kr.SC_APPROACH)
    # not C5 or E5 (stones), nor D7 or B4 (next to one liberty only)
    assert _listed(p, mv, n) == {"E2"}
    assert _score(p, mv, n, "E2") == kr.SC_APPROACH


# Black's E3 (liberties D3, E2) against White; Black's D2 (D3, E2, C2, D1)
# has both of them, tied to it; Black's C3 (B3, C4, C2, D3) has only D3.
TIED = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . O . .
. . X . X O .
. . . X . . .
. . . . . . .
"""


def test_tied_nets_list_a_tied_friend_s_other_liberties():
    p, _, mv = _setup(TIED)
    n = kr._add_tied_nets(p.s, mv, 0, 0, _origin(p, "E3"), kr.SC_APPROACH)
    # D2's own: not the target's D3 and E2, nor C3's B3 and C4 (not tied)
    assert _listed(p, mv, n) == {"C2", "D1"}
    assert _score(p, mv, n, "D1") == kr.SC_APPROACH


def test_tied_nets_need_a_friend_on_both_liberties():
    p, _, mv = _setup(TIED.replace(". . . X . . .", ". . . . . . ."))
    assert kr._add_tied_nets(p.s, mv, 0, 0, _origin(p, "E3"), kr.SC_APPROACH) == 0


def test_save_extends_and_captures_around():
    p, _, mv = _setup(ATTACKER_IN_ATARI)
    x = _origin(p, "B2")
    n = kr._add_save(p.s, mv, 0, 0, x, 2)
    assert _listed(p, mv, n) == {"C1", "A1"}  # not the target's liberties
    assert _score(p, mv, n, "A1") == kr.SC_SAVE_CAPTURE


def test_far_race_shortens_the_owner_s_other_short_strings():
    p, _, mv = _setup(ATTACKER_IN_ATARI)
    x, o = _origin(p, "B2"), _origin(p, "B3")
    n = kr._add_far_race(p.s, mv, 0, 0, x, o, 2)
    # A2 (A1) and B1 (A1, C1); not D1-D2 (four liberties) nor the target
    assert _listed(p, mv, n) == {"A1", "C1"}


# Black's F1-F2 (liberties G1, G2); White's H1 touches G1 and is in atari
# (Black's J1 took its other liberty); J1 is in atari itself, at J2.
FRIEND_IN_ATARI_AT_A_LIBERTY = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . O O O O .
. . . . O O X X .
. . . . O X . X .
. . . . O X . O X
"""


def test_the_attacker_saves_a_friend_in_atari_at_a_liberty():
    """J2 takes J1 and saves H1, which keeps G1 a self-atari for Black;
    nothing once H1 is out of atari."""
    p, _, mv = _setup(FRIEND_IN_ATARI_AT_A_LIBERTY)
    o = _origin(p, "F1")
    k = _neighbours(p, o, mv)
    n = kr._add_friend_saves(p.s, mv, 0, 0, o, k, kr.SC_SAVE_CAPTURE)
    assert _listed(p, mv, n) == {"J2"}
    assert _score(p, mv, n, "J2") == kr.SC_SAVE_CAPTURE
    p.play("J2", "w")  # H1 now has two liberties (G1, J1)
    k = _neighbours(p, o, mv)
    assert kr._add_friend_saves(p.s, mv, 0, 0, o, k, kr.SC_SAVE_CAPTURE) == 0


def test_attacker_saves_its_neighbours_in_atari():
    p, ctx, mv = _setup(ATTACKER_IN_ATARI)
    o = _origin(p, "B3")
    k = _neighbours(p, o, mv)
    n = kr._add_attacker_saves(p.s, ctx, mv, 0, 0, o, 3, 0, k)
    assert _listed(p, mv, n) == {"A1", "A4", "C1"}  # not B4, C4, D3


def test_capture_of_a_neighbour_in_atari():
    p, _, mv = _setup(ATTACKER_IN_ATARI)
    n = kr._add_capture(p.s, mv, 0, 0, _origin(p, "B2"))
    assert _listed(p, mv, n) == {"C1"}
    assert _score(p, mv, n, "C1") == kr.SC_CAPTURE


def test_break_chain_captures_neighbours_in_atari():
    p, ctx, mv = _setup(ATTACKER_IN_ATARI)
    o = _origin(p, "B3")
    k = _neighbours(p, o, mv)
    n = kr._add_break_chain(p.s, ctx, mv, 0, 0, o, 3, 0, k)
    assert _listed(p, mv, n) == {"A4", "C1"}  # not A1 (an owner's capture)


# White's B3-C3 against Black's B2-C2-C1 (liberties A2, D1); White's B1
# (A1) touches it, White's D2 (D1, D3, E2) has three liberties.
ATTACKER_TWO_LIBERTIES = """
. . . . .
. . . . .
. O O . .
. X X O .
. O X . .
"""


def test_chain_atari_and_air_for_short_friends():
    p, _, mv = _setup(ATTACKER_TWO_LIBERTIES)
    x, o = _origin(p, "B2"), _origin(p, "B3")
    n = kr._add_chain_atari(p.s, mv, 0, 0, x, o, 2)
    assert _listed(p, mv, n) == {"A1", "A2", "D1"}  # not D3, E2 (D2's)
    assert _score(p, mv, n, "A2") == kr.SC_CHAIN_ATARI
    assert _score(p, mv, n, "A1") == kr.SC_FRIEND_AIR


# White's B5-B4 against Black's C4-D4 (liberties C5, D5); White's E4 in
# atari (E5) touches it and is saved by E5 or by taking Black's E3 at E2.
FRIEND_IN_ATARI = """
. O . . .
. O X X O
. X O O X
. X X O .
. . . O .
"""


def test_air_for_a_short_friend_includes_captures_next_to_it():
    p, _, mv = _setup(FRIEND_IN_ATARI)
    x, o = _origin(p, "C4"), _origin(p, "B5")
    n = kr._add_chain_atari(p.s, mv, 0, 0, x, o, 2)
    assert _listed(p, mv, n) == {"C5", "D5", "E5", "E2"}
    assert _score(p, mv, n, "E2") == kr.SC_FRIEND_AIR
    # without Black's E3 in atari, nothing to take
    p2, _, mv2 = _setup(FRIEND_IN_ATARI.replace(". X O O X", ". X O O ."))
    n = kr._add_chain_atari(p2.s, mv2, 0, 0, x, o, 2)
    assert _listed(p2, mv2, n) == {"C5", "D5", "E5", "E3"}


def test_break_chain_ataris_only_up_to_break_chain_depth():
    p, ctx, mv = _setup(ATTACKER_TWO_LIBERTIES)
    o = _origin(p, "B3")
    k = _neighbours(p, o, mv)
    n = kr._add_break_chain(p.s, ctx, mv, 0, 0, o, 3, 0, k)
    assert _listed(p, mv, n) == {"A1", "A2", "D1"}
    deep = int(ctx[kr.C_BREAKCHAIN]) + 1
    assert kr._add_break_chain(p.s, ctx, mv, 0, 0, o, 3, deep, k) == 0


# Black's A3-B3-B2-B1 (liberties A2, A1) against White's A4-B4 (A5, B5, C4).
RACE = """
. . . . .
O O . . .
X X O . .
. X O . .
. X O . .
"""


# White's B2-C2 (liberties A2, D2) against Black's B1-C1 (A1, D1): White's
# D1 leaves Black only A1, where it would have one liberty; White's A1 lets
# Black run out at D1.
EDGE_ATARI = """
. . . . .
. . . . .
. X X . .
. O O . .
. X X . .
"""

# White's B3 (A3, B4, C3) against Black's B2 (B1, C2); White's A2 in atari
# touches Black's B2 and is saved at A3.
SHORT_FRIEND = """
. . . . .
. . . . .
. O . . .
O X . . .
X . . . .
"""


def test_efficient_ataris_take_a_neighbour_that_cannot_run():
    p, _, mv = _setup(EDGE_ATARI)
    n = kr._add_efficient_atari(p.s, mv, 0, 0, _origin(p, "B1"), _origin(p, "B2"), 2)
    assert _listed(p, mv, n) == {"D1"}
    assert _score(p, mv, n, "D1") == kr.SC_CHAIN_ATARI
    # both ataris are self-ataris for White here: nothing
    p, _, mv = _setup(RACE)
    assert kr._add_efficient_atari(p.s, mv, 0, 0, _origin(p, "B2"), _origin(p, "A4"), 2) == 0


def test_efficient_ataris_save_an_owner_string_in_atari_first():
    p, _, mv = _setup(SHORT_FRIEND)
    x, o = _origin(p, "B2"), _origin(p, "B3")
    n = kr._add_efficient_atari(p.s, mv, 0, 0, x, o, 2)
    assert _listed(p, mv, n) == {"A3"}  # not the ataris B1 and C2
    # against a target of two liberties (Black's B4 added), the ataris as
    # above: C2, since Black at B1 would have two liberties (C1, C2)
    p2, _, mv2 = _setup(SHORT_FRIEND.replace(". . . . .\n. O", ". X . . .\n. O"))
    n = kr._add_efficient_atari(p2.s, mv2, 0, 0, _origin(p2, "B2"), _origin(p2, "B3"), 2)
    assert _listed(p2, mv2, n) == {"C2"}


def test_deep_break_chain_lists_the_efficient_ataris_only():
    p, ctx, mv = _setup(EDGE_ATARI)
    o = _origin(p, "B2")
    k = _neighbours(p, o, mv)
    n = kr._add_break_chain(p.s, ctx, mv, 0, 0, o, 2, 0, k)
    assert {"A1", "D1"} <= _listed(p, mv, n)
    deep = int(ctx[kr.C_BREAKCHAIN]) + 1
    n = kr._add_break_chain(p.s, ctx, mv, 0, 0, o, 2, deep, k)
    assert _listed(p, mv, n) == {"D1"}
    ctx[kr.C_LADDER] = 1  # a ladder read: captures only
    assert kr._add_break_chain(p.s, ctx, mv, 0, 0, o, 2, deep, k) == 0


# GNU Go's edge clamp: White's A2-B2-C2-C3 (liberties A1, B1, C1) against
# Black's D2-D3 (D1 on the edge, E2, E3); White's clamp at E2 keeps three
# liberties, and Black at E3 would have three (White's E4 above).
EDGE_CLAMP = """
. . . . . .
. . . . . .
. X X O O .
X X O X . .
O O O X . .
. . . . . .
"""


def test_edge_clamps_list_the_point_beside_the_edge_neighbour():
    p, _, mv = _setup(EDGE_CLAMP)
    o = _origin(p, "C2")
    k = _neighbours(p, o, mv)
    n = kr._add_edge_clamps(p.s, mv, 0, 0, o, k)
    assert _listed(p, mv, n) == {"E2"}
    assert _score(p, mv, n, "E2") == kr.SC_EDGE_CLAMP
    # without White's E4, Black would get out at E3: no clamp
    p, _, mv = _setup(EDGE_CLAMP.replace(". X X O O .", ". X X O . ."))
    o = _origin(p, "C2")
    assert kr._add_edge_clamps(p.s, mv, 0, 0, o, _neighbours(p, o, mv)) == 0


# The top left of a mined problem (gnugo-l5-19x19-s1904-m235-D14-attack,
# after E15 B16 A16 G14 F15 A17): White's D4 string (B5, C4) and Black's
# A6 string share their only two liberties; White's A7 (in atari at A8)
# took Black's last outside liberty.
SHARED_RACE = """
. . . . . . . . .
. . . . . . . . .
O X X X . . . . .
X O O X O X . . .
X . O O X X . . .
X O . O X X O X .
X X X X O O X . X
O X O O O X X X X
O O . . . O O O X
"""


def test_a_race_on_the_same_two_liberties_is_read_at_any_depth():
    """Past backfill2_depth the attacker still saves a neighbour that
    shares both liberties with the target: the capture at A8.  Above
    break_chain_depth A8 is also a far race move (the liberty of White's
    A7, next to the neighbour), and scores as both."""
    p, ctx, mv = _setup(SHARED_RACE)
    o = _origin(p, "D4")
    k = _neighbours(p, o, mv)
    deep = int(ctx[kr.C_BACKFILL2]) + 1
    for stackp in (0, deep, int(ctx[kr.C_DEPTH])):
        n = kr._add_attacker_saves(p.s, ctx, mv, 0, 0, o, 2, stackp, k)
        assert {"A8", "B5", "C4"} <= _listed(p, mv, n), stackp
        far = kr.SC_FAR_RACE if stackp < ctx[kr.C_BREAKCHAIN] else 0
        assert _score(p, mv, n, "A8") == kr.SC_SAVE_CAPTURE + far


def test_race_moves_against_one_liberty_more_only_with_slack():
    p, ctx, mv = _setup(RACE)
    x, o = _origin(p, "A4"), _origin(p, "A3")
    n = kr._add_race_moves(p.s, ctx, mv, 0, 0, x, o, 2, 0, 1)
    assert _listed(p, mv, n) == {"A5", "B5", "C4"}  # not the owner's A2, A1
    assert kr._add_race_moves(p.s, ctx, mv, 0, 0, x, o, 2, 0, 0) == 0


# White's B2-C2-C1 (liberties A2, B1, C3) against Black's D2-D1 (D3, E2,
# E1; no escape to six liberties): a race of three liberties each.  After
# White's race move at E2, Black's D2-D1 has two (D3, E1).
SHORT_RACE = """
. . . . . .
. . . . . .
. . . . . .
. X . . . .
. O O X . .
. . O X . .
"""

SHORT_RACE_AFTER = """
. . . . . .
. . . . . .
. . . . . .
. X . . . .
. O O X O .
. . O X . .
"""


def test_every_race_move_has_the_attacker_s_answer_one_ply_down():
    """The owner's race moves against a short neighbour end at
    ``break_chain_depth``, the attacker's saves of a two-liberty neighbour
    a ply later, so the deepest race move still meets its answer: without
    it, the race move at ``break_chain_depth`` defended falsely (the mined
    tournament problem kgs-20040507-GnuGoCVS-read-m210-J1, proven 2 H1:
    White's K5 at stackp 7 of the proof's line, Black's L5 one ply
    down)."""
    p, ctx, mv = _setup(SHORT_RACE)
    o, x = _origin(p, "B2"), _origin(p, "D2")
    last = int(ctx[kr.C_BREAKCHAIN])
    n = kr._add_race_moves(p.s, ctx, mv, 0, 0, x, o, 3, last, 0)
    assert _listed(p, mv, n) == {"D3", "E2", "E1"}
    assert kr._add_race_moves(p.s, ctx, mv, 0, 0, x, o, 3, last + 1, 0) == 0
    p, ctx, mv = _setup(SHORT_RACE_AFTER)
    o = _origin(p, "B2")
    k = _neighbours(p, o, mv)
    n = kr._add_attacker_saves(p.s, ctx, mv, 0, 0, o, 3, last + 1, k)
    assert _listed(p, mv, n) == {"D3", "E1"}
    assert kr._add_attacker_saves(p.s, ctx, mv, 0, 0, o, 3, last + 2, k) == 0


# Black's C2, next to White's target B3-C3-B2, is in atari at C1; White's
# D2, in atari at D1, touches it.
SAVES = """
. . . . .
. . . . .
. O O X .
. O X O X
. . . . .
"""


def test_saves_of_an_attacker_string_in_atari_next_to_the_target():
    p, _, _ = _setup(SAVES)
    o = _origin(p, "B3")
    points = ("A1", "B1", "C1", "D1", "E1", "A3", "E3", "C4", "D4")
    saves = {v for v in points if kr._saves_neighbour(p.s, p.pos(v), o, BLACK)}
    assert saves == {"C1", "D1"}  # extend, or take D2


def test_saves_are_tried_past_the_few_tries_only():
    """Past the try limit, up to branch_depth less BRANCH_PLIES, the
    attacker still saves its string in atari (the tournament games mined
    at ``--offset 5``: nando-meijin27_g1-m030-B16, proven 2 C17; at stackp
    8 of the proof's line White's two ataris on the target took its three
    tries, and E19, which saves White's string in atari, was fourth)."""
    p, ctx, _ = _setup(SAVES)
    target, c1, a3 = p.pos("B3"), p.pos("C1"), p.pos("A3")
    assert kr._save_past_tries(p.s, ctx, c1, target, True, 3, 3, False)
    assert not kr._save_past_tries(p.s, ctx, a3, target, True, 3, 3, False)
    assert not kr._save_past_tries(p.s, ctx, c1, target, True, 2, 3, False)  # within the limit
    assert not kr._save_past_tries(p.s, ctx, c1, target, False, 3, 3, False)  # the owner
    ctx[kr.C_BRANCH] = kr.BRANCH_PLIES - 1  # stackp 0 is past the few tries
    assert not kr._save_past_tries(p.s, ctx, c1, target, True, 3, 3, False)


# White's B3 (liberties A3, B4, C3, B2); its friend C1-C2 touches Black's
# D1-D2 (in atari at D3) and Black's B1 (A1, B2).
RESCUE = """
. . . . .
. . . . .
. O . . .
. . O X O
. X O X O
"""


def test_friend_rescues_capture_next_to_a_friend():
    p, _, mv = _setup(RESCUE)
    o = _origin(p, "B3")
    scratch = mv[0, kr.SCRATCH : kr.KILLER]
    n = kr._add_friend_rescues(p.s, mv, 0, 0, o, scratch, kr.SC_RESCUE, 1, 0, False, False)
    assert _listed(p, mv, n) == {"D3"}
    assert _score(p, mv, n, "D3") == kr.SC_RESCUE
    n = kr._add_friend_rescues(p.s, mv, 0, 0, o, scratch, kr.SC_RESCUE, 2, 0, False, False)
    assert _listed(p, mv, n) == {"D3", "A1", "B2"}  # and the atari of B1


# White's D7 (liberties C7, D6, E7); its friend C6 touches C7 and D6, and
# Black's B7-B6 (liberties A7, C7, B5) and C5 (B5, C4, D5) next to it.
# B7-B6 escapes only at B5 (joining C5: five liberties); C5 escapes at C4
# and D5.  (The position after 19 F19, G18, F18 of the mined
# gnugo-l2-19x19-s1902-m070-H19 problem, shrunk.)
FRIEND_THREE_7 = """
. X . O . . .
O X O . X . .
O . X . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
"""


def test_friend_rescues_against_three_liberties():
    p, _, mv = _setup(FRIEND_THREE_7)
    o = _origin(p, "D7")
    k = _neighbours(p, o, mv)  # E6 (four liberties)
    scratch = mv[0, kr.SCRATCH : kr.KILLER]
    assert kr._add_friend_rescues(p.s, mv, 0, 0, o, scratch, kr.SC_RESCUE, 2, 0, False, False) == 0
    n = kr._add_friend_rescues(p.s, mv, 0, 0, o, scratch, kr.SC_RESCUE, 3, k, False, False)
    assert _listed(p, mv, n) == {"B5"}  # B7-B6's one escape; C5 has two
    assert _score(p, mv, n, "B5") == kr.SC_RESCUE_THREE
    # B5 captures nothing: not listed against two liberties
    assert kr._add_friend_rescues(p.s, mv, 0, 0, o, scratch, kr.SC_RESCUE, 3, k, True, False) == 0
    # a string listed as a neighbour of D7 is left to _add_break_chain
    mv[0, kr.NBR + k] = _origin(p, "B7")
    assert (
        kr._add_friend_rescues(p.s, mv, 0, 0, o, scratch, kr.SC_RESCUE, 3, k + 1, False, False) == 0
    )


def test_friend_rescues_against_two_liberties_block_only_by_a_capture():
    """FRIEND_THREE_CAPTURE: White's E7, the block of E8-E9-F9's one
    escape, takes D7."""
    p, _, mv = _setup(shapes.FRIEND_THREE_CAPTURE)
    o = _origin(p, "H6")
    k = _neighbours(p, o, mv)
    scratch = mv[0, kr.SCRATCH : kr.KILLER]
    n = kr._add_friend_rescues(p.s, mv, 0, 0, o, scratch, kr.SC_RESCUE, 3, k, True, False)
    assert "E7" in _listed(p, mv, n)
    assert _score(p, mv, n, "E7") == kr.SC_RESCUE_THREE


# Black's C2-C3 (liberties B2, B3, C4) in White's net: it escapes nowhere
# (each extension leaves it three liberties), so each liberty is listed.
NO_ESCAPE = """
. . . . .
. O . O .
. . X O .
. . X O .
. O O . .
"""

# Without D4 it escapes at C4 (four liberties) alone: the block there.
ONE_ESCAPE = """
. . . . .
. O . . .
. . X O .
. . X O .
. O O . .
"""

# Without B1 too, it escapes at B2 as well: out of reach, nothing.
TWO_ESCAPES = """
. . . . .
. O . . .
. . X O .
. . X O .
. . O . .
"""


def test_chain_liberties_of_three_block_the_one_escape_or_take_them_all():
    for diagram, listed in ((NO_ESCAPE, {"B2", "B3", "C4"}), (ONE_ESCAPE, {"C4"})):
        p, _, mv = _setup(diagram)
        n = kr._add_chain_liberties(p.s, mv, 0, 0, _origin(p, "C2"), 5, False)
        assert _listed(p, mv, n) == listed
        assert _score(p, mv, n, "C4") == 5
        # none of them captures: nothing when only captures may block
        assert kr._add_chain_liberties(p.s, mv, 0, 0, _origin(p, "C2"), 5, True) == 0
    p, _, mv = _setup(TWO_ESCAPES)
    assert kr._add_chain_liberties(p.s, mv, 0, 0, _origin(p, "C2"), 5, False) == 0


# Black's C2-C3 with four liberties (B3, C4, B2, C1), held by White's wall
# except at C4, where it would extend to five.
FOUR_ONE_ESCAPE = """
. . . . .
. O . . .
O . X O .
O . X O .
. O . O .
"""


def test_chain_liberties_of_four_block_the_one_escape_or_take_them_all():
    p, _, mv = _setup(FOUR_ONE_ESCAPE)
    n = kr._add_chain_liberties(p.s, mv, 0, 0, _origin(p, "C3"), 5, False)
    assert _listed(p, mv, n) == {"C4"}
    # White's D4 closes the escape: all four liberties
    p, _, mv = _setup(FOUR_ONE_ESCAPE.replace(". O . . .", ". O . O ."))
    n = kr._add_chain_liberties(p.s, mv, 0, 0, _origin(p, "C3"), 5, False)
    assert _listed(p, mv, n) == {"B3", "C4", "B2", "C1"}


def test_last_resort_races_only_when_every_candidate_is_a_self_atari():
    p, _, mv = _setup(shapes.RACE_FOUR)  # D9: liberties E9, G9; C9: four
    o = _origin(p, "D9")
    k = _neighbours(p, o, mv)
    n = kr._add_liberties_of(p.s, mv, 0, 0, o, 0)  # E9 and G9, both self-ataris
    m = kr._add_last_resort_races(p.s, mv, 0, n, o, k)
    assert _listed(p, mv, m) - _listed(p, mv, n) == {"B9", "B8", "B7", "J9"}
    assert _score(p, mv, m, "B8") == kr.SC_RACE_FOUR
    # a candidate that gains air (E5, in the open) leaves them out
    n = kr._add(mv, 0, kr._add_liberties_of(p.s, mv, 0, 0, o, 0), p.pos("E5"), 0)
    assert kr._add_last_resort_races(p.s, mv, 0, n, o, k) == n


def test_tenuki_is_a_pass_scored_last():
    _, mv = kr.new_context()
    n = kr._add_tenuki(mv, 0, 0)
    assert n == 1 and mv[0, 0] == PASS and mv[0, kr.SCORES] == kr.SC_TENUKI


# Black's string (liberties B2 and D2) has two eyes: White's stone on
# either would be a suicide.
TWO_EYES = """
. . . . .
O O O O O
X X X X O
X . X . X
X X X X X
"""

# With White on E2, White's D2 joins its wall: that liberty can be filled.
FALSE_EYE = """
. . . . .
O O O O O
X X X X O
X . X . O
X X X X X
"""


def test_the_owner_may_pass_deep_down_only_where_no_liberty_can_be_filled():
    """Up to break_chain_depth the owner's two-liberty string may always
    tenuki; deeper only when the attacker cannot fill either liberty
    (both ``_eyes``), as in the eye shape of the mined tournament problem
    olympiad2003-aya_vs_gnugo-m210-Q7 (proven 1 S8; the owner must pass
    at stackp 8 of the proof's line)."""
    for diagram, deep_pass in ((TWO_EYES, True), (FALSE_EYE, False)):
        p, ctx, mv = _setup(diagram)
        o = _origin(p, "A1")
        assert all(kr._eyes(p.s, o)) == deep_pass
        k = _neighbours(p, o, mv)
        for stackp, listed in ((ctx[kr.C_BREAKCHAIN], True), (ctx[kr.C_BREAKCHAIN] + 1, deep_pass)):
            n = kr._defend_moves(p.s, ctx, mv, 0, o, 2, int(stackp), k)
            assert (PASS in mv[0, :n]) == listed, (diagram, stackp)


# White's lone D5, in atari at C5, which Black takes only by a ko; filling
# C5 would join White's B5-B4-C4 (liberties A5, A4, B3, C3; A5 a
# self-atari for Black).
KO_STONE = """
. O . O X
. O O X X
. . . . .
. . . . .
. . . . .
"""


def test_ko_backfills_shorten_the_string_the_fill_would_join():
    p, _, mv = _setup(KO_STONE)
    o = _origin(p, "D5")
    n = kr._add_ko_backfills(p.s, mv, 0, 0, o, kr.SC_BACKFILL)
    assert _listed(p, mv, n) == {"A4", "B3", "C3"}  # not the ko point, not A5
    assert _score(p, mv, n, "B3") == kr.SC_BACKFILL


def test_no_ko_backfills_when_the_capture_wins():
    p, _, mv = _setup(KO_STONE.replace(". O . O X\n. O O", ". O . O X\n. O ."))
    assert kr._add_ko_backfills(p.s, mv, 0, 0, _origin(p, "D5"), kr.SC_BACKFILL) == 0


# Black's lone A2 in atari at A1; White's stone there would have one
# liberty, B1, besides A2 (Black owns the string), and Black's B1 joins
# the wall C1-D4.
SNAPBACK_SETUP = """
. . . . . . .
. . . . . . .
. . . . . . .
. . X X . . .
O O X . . . .
X O X . . . .
. . X . . . .
"""


def test_snapback_setups_make_the_capture_of_a_lone_stone_a_ko():
    p, _, mv = _setup(SNAPBACK_SETUP)
    n = kr._add_snapback_setups(p.s, mv, 0, 0, _origin(p, "A2"), kr.SC_SNAPBACK_SETUP)
    assert _listed(p, mv, n) == {"B1"}
    assert _score(p, mv, n, "B1") == kr.SC_SNAPBACK_SETUP
    # a White string on B1 would give the capturing stone its liberties
    joined = SNAPBACK_SETUP.rstrip("\n")[: -len(". . X . . . .")] + ". O X . . . .\n"
    p2, _, mv2 = _setup(joined)
    assert kr._add_snapback_setups(p2.s, mv2, 0, 0, _origin(p2, "A2"), 0) == 0


def test_chain_backfills_make_a_self_atari_atari_playable():
    p, _, mv = _setup(CHAIN_BACKFILL)
    x = _origin(p, "C2")
    n = kr._add_chain_backfills(p.s, mv, 0, 0, x, _origin(p, "E2"), 1)
    assert _listed(p, mv, n) == {"B1"}  # not D2 (no empty neighbour), not C1
    assert _score(p, mv, n, "B1") == kr.SC_CHAIN_BACKFILL
    # the A2 group shares no liberty with C2: no race, no backfill
    assert kr._add_chain_backfills(p.s, mv, 0, 0, x, _origin(p, "A2"), 1) == 0


# Black's x (C1-C2-D2, C3-C4-D4-E4-E3; liberties D1, D3) around D3; both
# are suicides for White.  Black's lone E1 (D1, F1) touches D1 only: Black
# at D1 would have D3 and F1, so White's F1 ataris E1 and makes D1 a
# capture.  White's B1-B4 is the target.
CHAIN_APPROACH = """
. . . . . . .
. . . . . . .
. X O O O . .
. O X X X O .
. O X . X O .
. O X X O O .
. O X . X . .
"""


def test_chain_approaches_atari_the_stone_that_keeps_a_liberty_unplayable():
    p, _, mv = _setup(CHAIN_APPROACH)
    x = _origin(p, "C2")
    n = kr._add_chain_approaches(p.s, mv, 0, 0, x, 2)
    assert _listed(p, mv, n) == {"F1"}  # not D3: a suicide for White
    assert _score(p, mv, n, "F1") == kr.SC_CHAIN_BACKFILL
    assert kr._add_chain_backfills(p.s, mv, 0, 0, x, _origin(p, "B2"), 2) == 0


def test_chain_approaches_need_both_liberties_unplayable():
    without_e1 = CHAIN_APPROACH.replace(". O X . X . .", ". O X . . . .")
    p, _, mv = _setup(without_e1)  # Black at D1 would have D3 and E1
    n = kr._add_chain_approaches(p.s, mv, 0, 0, _origin(p, "C2"), 2)
    assert _listed(p, mv, n) == {"E1"}  # White's D1 is then an atari
    white_e1 = CHAIN_APPROACH.replace(". O X . X . .", ". O X . O . .")
    p, _, mv = _setup(white_e1)  # White's D1 joins E1: an atari, no self-atari
    assert kr._add_chain_approaches(p.s, mv, 0, 0, _origin(p, "C2"), 2) == 0


def test_break_chain_approaches_near_the_root_or_in_a_race():
    p, ctx, mv = _setup(CHAIN_APPROACH)
    o = _origin(p, "B2")
    k = _neighbours(p, o, mv)
    n = kr._add_break_chain(p.s, ctx, mv, 0, 0, o, 4, 0, k)
    assert "F1" in _listed(p, mv, n)
    # past backfill2_depth only against a neighbour sharing a liberty
    deeper = int(ctx[kr.C_BACKFILL2]) + 1
    n = kr._add_break_chain(p.s, ctx, mv, 0, 0, o, 4, deeper, k)
    assert "F1" not in _listed(p, mv, n)


def test_keep_near_edge_keeps_the_first_two_lines_in_order():
    p, _, mv = _setup(CHAIN_BACKFILL)
    points = ["E5", "B5", "D8", "C3", "H8"]  # 9x9: lines 5, 2, 2, 3, 2
    for i, v in enumerate(points):
        mv[0, i], mv[0, kr.SCORES + i] = p.pos(v), i
    n = kr._keep_near_edge(p.s, mv, 0, 1, len(points))
    assert [format_gtp(p.pt(int(m))) for m in mv[0, :n]] == ["E5", "B5", "D8", "H8"]
    assert list(mv[0, kr.SCORES : kr.SCORES + n]) == [0, 1, 2, 4]


# White's string B5-H5 (with C4, B6 and H6) has four black neighbours of
# two liberties each: D4 (D3, E4), C6 (C7, D6), E6 (D6, F6), G6 (F6, G7).
FOUR_LADDER_NEIGHBOURS = """
. . . . . . . . .
. . . . . . . . .
. . . . O . . . .
. O X . X . X O .
. O O O O O O O .
. . O X . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_lazy_ladder_candidates_do_not_depend_on_the_neighbour_order():
    """The owner's lazy ladder reads go to the three two-liberty neighbours
    with the lowest liberties (D4 by D3; E6 and C6 by D6, then F6 before
    C7), whatever order the move history left the neighbour list in: the
    reader's answer must be a function of the position for the cache to
    keep it."""
    p, ctx, mv = _setup(FOUR_LADDER_NEIGHBOURS)
    o = _origin(p, "D5")
    k = _neighbours(p, o, mv)
    assert k == 4
    want = [_origin(p, v) for v in ("D4", "E6", "C6")]
    for order in (list(range(k)), list(reversed(range(k))), [2, 0, 3, 1]):
        listed = [int(mv[0, kr.NBR + j]) for j in range(k)]
        for j, i in enumerate(order):
            mv[0, kr.NBR + j] = listed[i]
        lazy, x0, x1, x2 = kr._lazy_ladders(p.s, ctx, mv, 0, k, False)
        assert lazy
        assert [int(x0), int(x1), int(x2)] == want
        for j in range(k):
            mv[0, kr.NBR + j] = listed[j]
    assert not kr._lazy_ladders(p.s, ctx, mv, 0, k, True)[0]  # the attacker reads none


def test_race_ataris_take_an_owner_string_beside_the_racing_neighbour():
    """Black's C9 string (two liberties) races White's target F8: White's
    C10 beside it is put in atari at B10, where it cannot run (extending
    at C11 leaves it one liberty); not at C11, where B10 would give it
    three."""
    p, _, mv = _setup(RACE_ATARI)
    x, o = _origin(p, "C9"), _origin(p, "F8")
    n = kr._add_race_ataris(p.s, mv, 0, 0, x, o, 3 - BLACK)
    assert _listed(p, mv, n) == {"B10"}
    assert _score(p, mv, n, "B10") == kr.SC_RACE_ATARI


def test_fill_answers_make_the_attacker_s_fill_a_self_atari():
    """White's A3 has two liberties: Black filling A4 would have B4 and
    B5, filling A2 only A1; White's answers are those three points."""
    p, _, mv = _setup(FILL_ANSWER)
    n = kr._add_fill_answers(p.s, mv, 0, 0, _origin(p, "A3"))
    assert _listed(p, mv, n) == {"A1", "B4", "B5"}
    assert _score(p, mv, n, "B5") == kr.SC_FILL_ANSWER


def test_eye_races_shorten_the_neighbour_on_the_other_liberty():
    """Black's G6 string has the eye J4 (a suicide for White) and shares
    J1 with White's G5 string: Black's moves are that string's other
    liberties, F3 and F1.  White's A3 of another diagram has no eye: none."""
    p, _, mv = _setup(EYE_RACE)
    o = _origin(p, "G6")
    assert kr._eye_race(p.s, o) == p.pos("J1")
    n = kr._add_eye_races(p.s, mv, 0, 0, o, _neighbours(p, o, mv), kr._eye_race(p.s, o))
    assert _listed(p, mv, n) == {"F3", "F1"}
    assert _score(p, mv, n, "F3") == kr.SC_EYE_RACE
    p, _, mv = _setup(FILL_ANSWER)  # White's A3: Black may fill A4 and A2
    o = _origin(p, "A3")
    assert kr._eye_race(p.s, o) == PASS
    k = _neighbours(p, o, mv)
    assert kr._add_eye_races(p.s, mv, 0, 0, o, k, kr._eye_race(p.s, o)) == 0


def test_superstring_liberties_through_points_the_attacker_cannot_take():
    """Black's G1 string (liberties F1, H1) is tied through F1 (a white
    suicide) to E1's string, and that one through C1 to B1: White's
    superstring move is A1, not C1 (a suicide).  With a cap of one
    liberty no string is tied, and nothing is listed."""
    p, _, mv = _setup(SUPERSTRING)
    o = _origin(p, "G1")
    row = mv[0, kr.SCRATCH : kr.KILLER]
    k = kr._superstring(p.s, o, 2, row)
    assert {_origin(p, "E1"), _origin(p, "B1")} <= {int(x) for x in row[:k]}
    n = kr._add_superstring(p.s, mv, 0, 0, o, 2, kr.SC_APPROACH)
    assert _listed(p, mv, n) == {"A1"}
    assert _score(p, mv, n, "A1") == kr.SC_APPROACH
    assert kr._add_superstring(p.s, mv, 0, 0, o, 1, kr.SC_APPROACH) == 0


def test_neighbour_liberties_of_short_strings_at_the_liberties():
    """The shared core of connections and backfills: D2 touches B2-B3's
    liberty C2, so its liberties are listed when it has at most
    ``maxlibs``; no Black string touches a liberty of B2-B3."""
    p, _, mv = _setup(FRIEND)
    o = _origin(p, "B2")
    n = kr._add_neighbour_liberties(p.s, mv, 0, 0, o, WHITE, 2, 5)
    assert _listed(p, mv, n) == {"C2", "D3"}
    assert kr._add_neighbour_liberties(p.s, mv, 0, 0, o, WHITE, 1, 5) == 0  # D2 has two
    assert kr._add_neighbour_liberties(p.s, mv, 0, 0, o, BLACK, 4, 5) == 0


# White's C3 touches Black's D3 (in atari, its last liberty D2) and B3
# (three liberties).
CAPTURES_AROUND = """
. . . . .
. . . O .
. X O X O
. . . . .
. . . . .
"""


def test_captures_around_take_the_strings_in_atari_next_to_x():
    p, _, mv = _setup(CAPTURES_AROUND)
    n = kr._add_captures_around(p.s, mv, 0, 0, _origin(p, "C3"), BLACK, 9)
    assert _listed(p, mv, n) == {"D2"}  # not B3's liberties
    assert _score(p, mv, n, "D2") == 9
    assert kr._add_captures_around(p.s, mv, 0, 0, _origin(p, "D3"), WHITE, 9) == 0


# White's B2-C2 (liberties C1, D2): after D2 it has four liberties, after
# C1 two.
TRAPPED = """
. . . . .
. . . . .
. X X . .
X O O . .
. X . . .
"""


def test_trapping_ataris_only_where_the_string_cannot_run():
    p, _, mv = _setup(TRAPPED)
    n = kr._add_trapping_ataris(p.s, mv, 0, 0, _origin(p, "B2"), 4)
    assert _listed(p, mv, n) == {"D2"}  # C1 lets White run out at D2
    # with White's D3 and E2, Black's atari at D2 would be in atari itself
    q, _, mv = _setup(TRAPPED_SELF_ATARI)
    assert kr._add_trapping_ataris(q.s, mv, 0, 0, _origin(q, "B2"), 4) == 0


TRAPPED_SELF_ATARI = """
. . . . .
. . . . .
. X X O .
X O O . O
. X . . .
"""
