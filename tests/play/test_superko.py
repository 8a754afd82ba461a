"""Positional superko for our own moves (gogame.play.session, gogame.play.player).

The session keeps the key of every board the game has had (``board_key``:
the stones only, not the ko point nor the side to move); ``genmove`` never
returns a move that repeats one, while ``play`` from the controller still
follows the simple-ko rule only.

The position is a triple ko on 9x9.  In ``TRIPLE_KO`` the kos ``a`` and
``b`` hold a white stone black can take, and ko ``c`` a black stone white
can take (at ``d``).  Five single-stone ko captures in turn, none an
immediate retake, lead to a board where white's only ko capture, at B4 (the
stone taken at ``b`` comes back), recreates ``TRIPLE_KO`` itself.
"""

import pytest

from gogame.core.coords import parse_gtp
from gogame.play import player as player_mod
from gogame.play.player import RootMove, SearchResult
from gogame.play.session import BLACK, WHITE, Engine
from tests.helpers import diagrams
from tests.helpers.gtp import ok, setup_board

TRIPLE_KO = """
    . X O . . . X O .
    X O a O . X d X O
    . X O . . . X O .
    . . . . . . . . .
    . X O . . . . . .
    X O b O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""
CYCLE = [
    ("b", "C8"),  # a: takes B8
    ("w", "G8"),  # d: takes H8
    ("b", "C4"),  # b: takes B4
    ("w", "B8"),  # takes C8
    ("b", "H8"),  # takes G8
]
REPEAT = parse_gtp("B4", 9)  # white takes C4: the board of TRIPLE_KO again
ELSEWHERE = parse_gtp("J1", 9)


def engine_at(moves=CYCLE):
    e = Engine(9)
    e.position = diagrams.position(TRIPLE_KO)
    e.changed()
    e.play_sequence(moves)
    return e


def fake_search(moves):
    """A stand-in for Player.search whose root moves are ``moves`` in order."""

    def search(self, position, color, *args, **kw):
        root = [RootMove(pt, 100 - i, 0.6, [pt], 100.0 - i) for i, pt in enumerate(moves)]
        n = position.size
        return SearchResult(color, 1000, 0.01, root, [0.0] * 500, [0.0] * 500, n)

    return search


@pytest.fixture
def prefer(monkeypatch):
    """prefer(*moves): the player's search likes these moves, in order."""

    def set_moves(*moves):
        monkeypatch.setattr(player_mod.Player, "search", fake_search(list(moves)))

    return set_moves


# ------------------------------------------------------------ board key
def test_the_cycle_is_legal_under_simple_ko_and_repeats_the_first_board():
    e = engine_at()
    assert e.position.is_legal(REPEAT, WHITE)
    start = diagrams.position(TRIPLE_KO).board_key
    assert start in e.seen_boards()
    e.play("w", REPEAT)
    assert e.position.board_key == start


def test_board_key_ignores_the_ko_point():
    with_ko = diagrams.position(TRIPLE_KO, moves=[("b", "C8")])
    assert with_ko.ko == parse_gtp("B8", 9)
    same = diagrams.position(diagrams.render(with_ko))
    assert same.ko is None
    assert with_ko.hash != same.hash  # the ko point is in the hash words
    assert with_ko.board_key == same.board_key


def test_board_key_ignores_the_side_to_move():
    a = diagrams.position(TRIPLE_KO, moves=[("b", "E5"), ("w", "F5")])
    b = diagrams.position(TRIPLE_KO, moves=[("w", "F5"), ("b", "E5"), ("w", None)])
    assert a.board_key == b.board_key
    assert a.board_key != diagrams.position(TRIPLE_KO).board_key


# -------------------------------------------------------------- genmove
def test_genmove_does_not_repeat_a_board(prefer):
    e = engine_at()
    prefer(REPEAT, ELSEWHERE)
    decision = e.genmove("w", seconds=0.01)
    assert decision.move == ELSEWHERE
    assert "superko" in decision.reason
    assert e.position.color_at(ELSEWHERE) == WHITE


def test_genmove_passes_when_every_liked_move_repeats(prefer):
    e = engine_at()
    prefer(REPEAT)
    assert e.genmove("w", seconds=0.01, commit=False).move is None


def test_genmove_keeps_a_choice_that_repeats_nothing(prefer):
    e = engine_at(CYCLE[:4])  # black to move; nothing repeats yet
    prefer(parse_gtp("H8", 9))
    decision = e.genmove("b", seconds=0.01, commit=False)
    assert decision.move == parse_gtp("H8", 9)
    assert decision.reason == "search"


def test_the_search_leaves_superko_moves_out_of_the_root():
    e = engine_at()
    boards = e.seen_boards()
    res = e.player.search(
        e.position,
        WHITE,
        7.5,
        seconds=5.0,
        max_playouts=300,
        forbid=lambda pt: not e.superko_ok(WHITE, pt, boards),
    )
    moves = [m.move for m in res.moves]
    assert moves and REPEAT not in moves
    assert e.position.stackp == 0
    assert e.position.is_legal(REPEAT, WHITE)


def test_the_real_player_does_not_repeat_a_board():
    e = engine_at()
    for _ in range(2):
        decision = e.genmove("w", seconds=0.2, commit=False)
        assert decision.move != REPEAT
        assert all(m.move != REPEAT for m in decision.result.moves)


def test_genmove_reg_genmove_and_cleanup_over_gtp_do_not_repeat(prefer):
    e = setup_board(TRIPLE_KO)  # setup stones behind the session's back
    for color, vertex in CYCLE:
        ok(e, f"play {color} {vertex}")
    prefer(REPEAT, ELSEWHERE)
    assert ok(e, "reg_genmove w") == "J1"
    assert ok(e, "kgs-genmove_cleanup w") == "J1"
    ok(e, "undo")
    assert ok(e, "genmove w") == "J1"
    ok(e, "undo")
    ok(e, "play w B4")  # the controller is the referee
    assert ok(e, "color B4") == "white"


# ------------------------------------------------------------- the set
def test_play_still_accepts_a_superko_move_from_the_controller():
    e = engine_at()
    e.play("w", REPEAT)
    assert e.position.color_at(REPEAT) == WHITE
    assert e.last_move() == (REPEAT, WHITE)


def test_undo_rebuilds_the_set():
    e = engine_at()
    full = set(e.seen_boards())
    last = e.position.board_key
    e.undo()
    assert last not in e.seen_boards()
    assert e.seen_boards() == set(e.position.board_keys())
    e.play("b", "H8")
    assert e.seen_boards() == full
    e.undo_many(5)
    assert e.seen_boards() == {diagrams.position(TRIPLE_KO).board_key, (0, 0)}


def test_loadsgf_rebuilds_the_set(tmp_path, prefer):
    path = tmp_path / "cycle.sgf"
    path.write_text(diagrams.sgf_record(TRIPLE_KO, CYCLE))
    e = Engine(19)
    e.play("b", "D4")
    assert e.loadsgf(str(path)) == WHITE
    assert e.seen_boards() == set(engine_at().position.board_keys())
    prefer(REPEAT, ELSEWHERE)
    assert e.genmove("w", seconds=0.01).move == ELSEWHERE
    assert e.loadsgf(str(path), 3) == BLACK  # before move 3: nothing repeats
    assert len(e.seen_boards()) == 4  # empty, setup, after moves 1 and 2


def test_clear_board_boardsize_and_handicap_reset_the_set():
    e = engine_at()
    e.clear_board()
    assert e.seen_boards() == {(0, 0)}
    e.set_free_handicap([(2, 2), (6, 6)])
    assert len(e.seen_boards()) == 2
    e.boardsize(13)
    assert e.seen_boards() == {(0, 0)}
    e.fixed_handicap(4)
    assert e.position.board_key in e.seen_boards()


def test_moves_played_on_the_position_directly_are_caught_up():
    e = engine_at(CYCLE[:2])
    for color, vertex in CYCLE[2:]:
        e.position.play(vertex, color)  # behind the session's back
    assert not e.superko_ok("w", REPEAT)
    assert e.superko_ok("w", ELSEWHERE)
    assert e.superko_ok("w", None)
