"""``Position`` (gogame.core.position) beyond the board rules: undo back to
the empty board, and ``check_hashing``, which recomputes both hash words
after every move and raises ``HashMismatchError`` naming the move."""

import pytest
from hypothesis import given

from gogame.core.position import CannotUndoError, HashMismatchError, Position
from gogame.kernel.board import BLACK, WHITE
from tests.helpers.boards import (
    BRIEF,
    PROPERTY,
    Boards,
    assert_same,
    games,
    games_with_tries,
    small_first,
)
from tests.helpers.refboard import RefBoard
from tests.helpers.shapes import KO4


@pytest.mark.slow
@PROPERTY
@given(games(sizes=small_first, max_moves=150))
def test_undo_takes_back_plays(game):
    size, moves = game
    p, ref = Position(size), RefBoard(size)
    p.check_hashing = True
    states = [ref.copy()]
    for pt, c in moves:
        ref.play(pt, c)
        p.play(pt, c)
        states.append(ref.copy())
    states.pop()
    while states:
        p.undo()
        assert_same(p, states.pop(), f"after undo back to move {len(states)}", legality=size <= 7)
    with pytest.raises(CannotUndoError):
        p.undo()


# ------------------------------------------------------- check_hashing
def test_check_hashing_catches_a_corrupted_word_on_play():
    g = Boards(KO4)
    g.p.check_hashing = True
    g.play((0, 0), WHITE)  # fine while the words are right
    g.p.hw[0] ^= 1
    with pytest.raises(HashMismatchError) as e:
        g.p.play((0, 3), BLACK)
    msg = str(e.value)
    assert "D1" in msg or "(0, 3)" in msg, f"message does not name the move: {msg}"


def test_check_hashing_catches_a_corrupted_word_on_trymove():
    g = Boards(KO4)
    g.p.check_hashing = True
    g.p.hw[1] ^= 1 << 63
    with pytest.raises(HashMismatchError) as e:
        g.p.trymove(g.pt("a"), BLACK)
    msg = str(e.value)
    assert "C3" in msg or "(2, 2)" in msg, f"message does not name the move: {msg}"


@BRIEF
@given(games_with_tries(max_moves=100))
def test_check_hashing_silent_when_words_are_right(case):
    size, moves, tries = case
    p = Position(size)
    p.check_hashing = True
    for pt, c in moves:
        p.play(pt, c)
    for pt, c, legal in tries:
        assert p.trymove(pt, c) == legal
    while p.stackp:
        p.popgo()
    for _ in moves:
        p.undo()
    assert p.hash == Position(size).hash


def test_diagram_is_text():
    g = Boards(KO4)
    d = g.p.diagram()
    assert isinstance(d, str) and d.count("\n") >= g.size - 1
