"""Property and diagram tests of the board kernel against the reference board
(tests/helpers/refboard.py).

The kernel is driven only through ``gogame.core.position.Position``; every
observable (colours, ko point, captures, legality, strings, liberties, hash
words) is compared with the slow pure-Python ``RefBoard`` after each move
(tests/helpers/boards.py).  Diagrams are parsed by tests/helpers/diagrams.py:
top row first, X = black, O = white, '.' = empty; a lower-case letter (not
'o' or 'x') names an empty point for the test.
"""

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from gogame.core.position import IllegalMoveError, Position
from gogame.kernel.board import BLACK, WHITE
from tests.helpers.boards import (
    BRIEF,
    PROPERTY,
    Boards,
    as_pt,
    assert_hash_ok,
    assert_same,
    describe,
    games,
    games_with_tries,
    gtp,
    quiet_order,
    reference_legal,
    replay,
    small_first,
    twice_flag,
)
from tests.helpers.refboard import IllegalMove, RefBoard, other
from tests.helpers.shapes import KO4, KO4_TAKEN


# ------------------------------------------------------ property tests
def run_game_against_reference(size, moves):
    p, ref = Position(size), RefBoard(size)
    assert p.size == size
    assert_same(p, ref, "empty board")
    seen = {}  # (stones, ko) -> hash words
    for k, (pt, c) in enumerate(moves):
        context = f"move {k + 1}: {'BW'[c - 1]} {gtp(pt)} {pt}"
        ref.play(pt, c)
        p.play(pt, c)
        legal = reference_legal(ref)
        assert_same(p, ref, context, legality=legal)
        # Illegal moves are refused and change nothing.
        before = p.snapshot()
        stones = ref.stones()
        for color in (BLACK, WHITE):
            bad = [q for q in ref.points() if q not in stones and q not in legal[color]]
            if stones:
                bad.append(min(stones))  # an occupied point
            for q in bad:
                with pytest.raises(IllegalMoveError):
                    p.play(q, color)
                assert p.snapshot() == before, f"{context}: refused {q} changed the kernel"
        # Same stones and ko point <=> same words.
        key = (frozenset(stones.items()), ref.ko)
        seen.setdefault(key, p.hash)
        assert seen[key] == p.hash, f"{context}: same position, different words"
    words = {}
    for key, w in seen.items():
        assert w not in words, f"two positions share the words {w}"
        words[w] = key


@pytest.mark.slow
@PROPERTY
@given(games(sizes=small_first))
def test_random_games_match_reference(game):
    run_game_against_reference(*game)


@BRIEF
@given(games(sizes=st.integers(20, 25), max_moves=40))
def test_random_games_match_reference_large_boards(game):
    run_game_against_reference(*game)


@pytest.mark.slow
@PROPERTY
@given(games_with_tries())
def test_trymove_popgo_restores_exactly(case):
    size, moves, tries = case
    p, ref = replay(size, moves)
    saved = [(p.snapshot(), p.hash, ref.copy())]
    for pt, c, legal in tries:
        before = p.snapshot()
        ok = p.trymove(pt, c)
        assert ok == legal, f"trymove({pt}, {c}) returned {ok}"
        if not ok:
            assert p.snapshot() == before, f"illegal trymove({pt}, {c}) changed the kernel"
            continue
        ref.play(pt, c)
        assert p.stackp == len(saved)
        assert_same(p, ref, f"after trymove {pt} {c} at depth {p.stackp}", legality=size <= 9)
        saved.append((p.snapshot(), p.hash, ref.copy()))
    saved.pop()
    while saved:
        snap, words, r = saved.pop()
        p.popgo()
        assert p.stackp == len(saved)
        assert p.hash == words, f"popgo to depth {p.stackp}: words differ"
        assert p.snapshot() == snap, f"popgo to depth {p.stackp}: state differs"
        assert_same(p, r, f"after popgo to depth {p.stackp}", legality=False)


@st.composite
def transposed_games(draw):
    """A sequence of non-capturing moves, and a different order of the same
    moves (with passes sprinkled in) that also captures nothing."""
    size = draw(st.integers(2, 13))
    n = draw(st.integers(1, 60))
    ref, moves, color = RefBoard(size), [], BLACK
    for _ in range(n):
        if draw(twice_flag):
            color = other(color)
        quiet = [pt for pt in ref.legal_moves(color) if not ref.copy().play(pt, color)]
        if not quiet:
            break
        pt = quiet[draw(st.integers(0, len(quiet) - 1))]
        ref.play(pt, color)
        moves.append((pt, color))
        color = other(color)
    order = quiet_order(size, draw(st.permutations(moves)))
    assume(order is not None)
    for i in draw(st.lists(st.integers(0, len(order)), max_size=6)):
        order.insert(i, (None, draw(st.sampled_from([BLACK, WHITE]))))
    return size, moves, order


@pytest.mark.slow
@PROPERTY
@given(transposed_games())
def test_move_order_does_not_change_words(case):
    size, moves, order = case
    p1, r1 = replay(size, moves)
    p2, r2 = replay(size, order)
    assert r1.stones() == r2.stones() and r1.ko is None and r2.ko is None
    assert_hash_ok(p1, "first order")
    assert_hash_ok(p2, "second order")
    assert p1.hash == p2.hash, f"{describe(moves)}\nvs\n{describe(order)}"


def test_simple_ko_capture_and_forbidden_retake():
    g = Boards(KO4)
    assert g.play("a", BLACK) == {(2, 1)}
    assert as_pt(g.p.ko) == (2, 1)
    g.refuse((2, 1), WHITE)  # the retake
    assert g.p.captures(WHITE) == 1 and g.p.captures(BLACK) == 0


def test_ko_retake_legal_after_intervening_moves():
    g = Boards(KO4)
    g.play("a", BLACK)
    g.play((0, 0), WHITE)  # ko threat
    g.play((0, 3), BLACK)  # answer
    assert g.p.ko is None
    assert g.play((2, 1), WHITE) == {(2, 2)}
    assert as_pt(g.p.ko) == (2, 2)  # the retake is a ko capture too
    g.refuse((2, 2), BLACK)


def test_pass_clears_ko_and_same_colour_may_retake():
    g = Boards(KO4)
    g.play("a", BLACK)
    g.play(None, WHITE)
    assert g.p.ko is None
    g.play(None, BLACK)
    assert g.play((2, 1), WHITE) == {(2, 2)}


def test_ko_point_only_forbids_a_capturing_move():
    g = Boards(KO4)
    g.play("a", BLACK)
    # Black may fill the ko point (it captures nothing) even right away.
    assert g.p.is_legal((2, 1), BLACK)
    g.play((2, 1), BLACK)
    assert g.p.ko is None


def test_same_colour_moving_again_clears_ko():
    g = Boards(KO4)
    g.play("a", BLACK)
    g.play((0, 0), BLACK)  # black moves twice
    assert g.p.ko is None
    assert g.play((2, 1), WHITE) == {(2, 2)}


def test_corner_ko_on_3x3():
    g = Boards("""
        O a O
        X O .
        . . .
    """)
    assert g.play("a", BLACK) == {(2, 0)}
    assert as_pt(g.p.ko) == (2, 0)
    g.refuse((2, 0), WHITE)


# Two kos: black 'a' = (5, 2) takes (5, 1); black 'b' = (1, 5) takes (1, 4).
DOUBLE_KO = """
    . X O . . . .
    X O a O . . .
    . X O . . . .
    . . . . . . .
    . . . . X O .
    . . . X O b O
    . . . . X O .
"""


def test_double_ko_and_ko_replaced_by_another():
    g = Boards(DOUBLE_KO)
    words = {g.p.hash}
    g.play("a", BLACK)
    assert as_pt(g.p.ko) == (5, 1)
    g.refuse((5, 1), WHITE)
    g.play((3, 3), WHITE)  # threat
    words.add(g.p.hash)
    g.play("b", BLACK)  # second ko capture replaces the ko
    assert as_pt(g.p.ko) == (1, 4)
    words.add(g.p.hash)
    g.play((5, 1), WHITE)  # first ko no longer forbidden
    assert as_pt(g.p.ko) == (5, 2)
    words.add(g.p.hash)
    g.refuse((5, 2), BLACK)
    g.play(None, BLACK)
    words.add(g.p.hash)
    g.play((1, 4), WHITE)  # retake the second ko
    assert as_pt(g.p.ko) == (1, 5)
    words.add(g.p.hash)
    g.play((5, 2), BLACK)  # and retake the first one
    assert as_pt(g.p.ko) == (5, 1)
    words.add(g.p.hash)
    assert len(words) == 7


def test_same_stones_with_and_without_ko_have_different_words():
    g = Boards(KO4)
    g.play("a", BLACK)
    with_ko = g.p.hash
    no_ko = Boards(KO4_TAKEN)  # same stones, set up quietly
    assert no_ko.p.ko is None
    assert g.ref.stones() == no_ko.ref.stones()
    assert with_ko[0] != no_ko.p.hash[0] and with_ko[1] != no_ko.p.hash[1], (
        "the ko point must enter both words"
    )
    g.play(None, WHITE)  # the pass clears the ko ...
    assert g.p.hash == no_ko.p.hash  # ... and gives the quiet words
    g.p.undo()  # taking the pass back restores it
    assert as_pt(g.p.ko) == (2, 1)
    assert g.p.hash == with_ko
    assert_hash_ok(g.p)


def test_ko_position_reached_by_different_setup_orders():
    g1, g2 = Boards(KO4), Boards(KO4, reverse=True)
    assert g1.setup_moves != g2.setup_moves
    g1.play("a", BLACK)
    g2.play(None, WHITE)
    g2.play("a", BLACK)
    assert as_pt(g1.p.ko) == as_pt(g2.p.ko) == (2, 1)
    assert g1.p.hash == g2.p.hash


def test_trymove_into_ko_and_back():
    g = Boards(KO4)
    before = g.p.snapshot()
    assert g.p.trymove(g.pt("a"), BLACK)
    assert as_pt(g.p.ko) == (2, 1)
    assert not g.p.trymove((2, 1), WHITE)  # forbidden retake inside reading
    assert g.p.trymove((0, 0), WHITE)
    assert g.p.trymove((0, 3), BLACK)
    assert g.p.trymove((2, 1), WHITE)  # allowed now
    assert as_pt(g.p.ko) == (2, 2)
    assert_hash_ok(g.p)
    for _ in range(4):
        g.p.popgo()
    assert g.p.stackp == 0 and g.p.ko is None
    assert g.p.snapshot() == before


# ------------------------------------------- diagram: captures, suicide
def test_single_stone_suicide_refused():
    g = Boards("""
        a O .
        O . .
        . . .
    """)
    g.refuse("a", BLACK)
    assert g.p.is_legal(g.pt("a"), WHITE)


def test_multi_stone_suicide_refused():
    g = Boards("""
        X X O .
        a O . .
        O . . .
        . . . .
    """)
    g.refuse("a", BLACK)


def test_capture_that_saves_a_self_atari_is_legal():
    g = Boards("""
        a O X .
        O X . .
        X . . .
        . . . .
    """)
    assert g.play("a", BLACK) == {(3, 1), (2, 0)}
    assert g.p.ko is None  # two stones taken: no ko
    assert g.p.countlib(g.pt("a")) == 2


def test_snapback():
    g = Boards("""
        . . . .
        X X X X
        O O O X
        a b O X
    """)
    g.play("b", BLACK)  # throw-in
    assert g.play("a", WHITE) == {(0, 1)}
    assert g.p.ko is None  # capturing stone joined a string
    assert g.play("b", BLACK) == {(0, 0), (1, 0), (1, 1), (1, 2), (0, 2)}
    assert g.p.captures(WHITE) == 5 and g.p.captures(BLACK) == 1


def test_corner_and_edge_captures():
    g = Boards("""
        O a . b .
        X . X O X
        . . . c .
        . . . . .
        . . . . .
    """)
    assert g.play("a", BLACK) == {(4, 0)}  # corner
    assert g.p.ko is None
    g.play("b", BLACK)
    assert g.play("c", BLACK) == {(3, 3)}  # edge-adjacent stone
    assert g.p.captures(WHITE) == 2


def test_edge_capture_on_first_line():
    g = Boards("""
        . . . . .
        . . . . .
        . . . . .
        . . a . .
        . X O X .
    """)
    assert g.play("a", BLACK) == {(0, 2)}
    assert g.p.ko is None


def test_captures_in_different_orders_give_equal_words():
    diagram = """
        . . . . .
        . . . . .
        . . . . .
        a . . . b
        O X . X O
    """
    g1, g2, g3 = Boards(diagram), Boards(diagram), Boards(diagram)
    g1.play("a", BLACK)
    g1.play("b", BLACK)
    g2.play("b", BLACK)
    g2.play(None, WHITE)
    g2.play("a", BLACK)
    g3.play("a", BLACK)
    g3.play((4, 2), WHITE)
    g3.play("b", BLACK)
    g3.p.undo()
    g3.p.undo()
    g3.ref = g1.ref.copy()
    g3.ref.play(None, BLACK)
    g3.ref.captures = [0, 0, 1]
    assert g1.p.hash == g2.p.hash
    assert g1.p.captures(WHITE) == g2.p.captures(WHITE) == 2
    quiet = Boards("""
        . . . . .
        . . . . .
        . . . . .
        X . . . X
        . X . X .
    """)
    assert quiet.p.hash == g1.p.hash  # no captures at all, same stones


def test_2x2_board():
    g = Boards("""
        . .
        O X
    """)
    assert g.play((1, 0), BLACK) == {(0, 0)}
    assert g.p.ko is None  # capturing stone has 2 liberties
    g.refuse((0, 0), WHITE)  # suicide
    g.refuse((1, 1), WHITE)  # suicide
    g.play((0, 0), BLACK)
    g.refuse((1, 1), BLACK)  # filling the last point: suicide
    assert g.p.is_legal(None, WHITE)


def test_2x2_capture_two_stones():
    g = Boards("""
        . O
        X .
    """)
    g.play((0, 1), BLACK)
    assert g.play((1, 0), WHITE) == {(0, 0), (0, 1)}
    assert g.p.ko is None
    assert g.p.captures(BLACK) == 2


def test_3x3_capture_in_the_middle():
    g = Boards("""
        . X .
        X O X
        . a .
    """)
    assert g.play("a", BLACK) == {(1, 1)}
    assert g.p.ko is None
    g.refuse((1, 1), WHITE)  # suicide, not ko: no capture


@BRIEF
@given(games(sizes=st.integers(2, 7), max_moves=60))
def test_reference_legal_moves_shortcut_agrees_with_trial_play(game):
    size, moves = game
    ref = RefBoard(size)
    for pt, c in moves:
        ref.play(pt, c)
        for color in (BLACK, WHITE):
            assert ref.legal_moves(color) == [q for q in ref.points() if ref.is_legal(q, color)]


@pytest.mark.slow
@PROPERTY
@given(games(sizes=small_first, max_moves=150))
def test_libs_after_counts_what_a_move_would_leave(game):
    """``libs_after`` (no move played) equals the liberties the reference
    board gives the mover's string after the move, capped at MAXLIBS; a
    suicide counts 0.  Ko retakes count as if allowed."""
    from gogame.kernel.board import EMPTY, libs_after
    from gogame.kernel.layout import MAXLIBS

    size, moves = game
    p, ref = replay(size, moves)
    for pt in ref.points():
        if ref.color(pt) != EMPTY:
            continue
        for c in (BLACK, WHITE):
            trial = ref.copy()
            trial.ko = None
            try:
                trial.play(pt, c)
                want = min(len(trial.liberties(pt)), MAXLIBS)
            except IllegalMove:
                want = 0
            got = libs_after(p.s, p.pos(pt), c, MAXLIBS)
            assert got == want, f"{gtp(pt)} for {c} after {describe(moves)}"
