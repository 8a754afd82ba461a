"""The session (gogame.play.session): board commands, loadsgf semantics, GNU Go's board picture.

Where /usr/games/gnugo is installed, loadsgf is compared with GNU Go 3.8 over
GTP on every file reading.tst loads: the colour to move, the board (showboard,
stones and captures) and the legal moves of both colours (which shows the ko
point that IL[] sets).
"""

import re
import subprocess

import pytest

from gogame.gtp.engine import GtpEngine
from gogame.play.session import (
    BLACK,
    EMPTY,
    WHITE,
    CannotUndoError,
    Engine,
    HashMismatchError,
    IllegalMoveError,
    LoadError,
    board_text,
    is_hoshi,
)
from tests.helpers import diagrams
from tests.helpers.gnugo import GNUGO, needs_gnugo
from tests.helpers.shapes import KO5


# ----------------------------------------------------------------- helpers
def write_sgf(tmp_path, text, name="game.sgf"):
    path = tmp_path / name
    path.write_bytes(text.encode() if isinstance(text, str) else text)
    return str(path)


def gtp_responses(output):
    """Split a GTP output stream into [(ok, text)], text without the '=id '."""
    out, current = [], None
    for line in output.split("\n"):
        if current is None:
            if not line:
                continue
            m = re.match(r"([=?])[0-9]*(?: |$)(.*)", line)
            assert m, f"not a response: {line!r}"
            current = [m.group(1) == "=", [m.group(2)]]
        elif line == "":
            out.append((current[0], "\n".join(current[1])))
            current = None
        else:
            current[1].append(line)
    assert current is None, "unterminated response"
    return out


def normalise(text):
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def run_gnugo(lines, cwd=None):
    res = subprocess.run(
        [GNUGO, "--mode", "gtp"],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )
    return [(ok, normalise(t)) for ok, t in gtp_responses(res.stdout)]


def run_gogame(lines, engine=None):
    engine = engine or GtpEngine()
    out = "".join(engine.send(line) for line in lines)
    return [(ok, normalise(t)) for ok, t in gtp_responses(out)]


# ------------------------------------------------------------ basic session
def test_komi_survives_boardsize_and_clear_board():
    e = Engine(9)
    e.komi = 6.5
    e.boardsize(13)
    e.clear_board()
    assert e.komi == 6.5 and e.size == 13


@pytest.mark.parametrize("bad", [1, 0, 26, -3, 100, "9", 9.0, True])
def test_boardsize_outside_2_to_25_is_refused_and_changes_nothing(bad):
    e = Engine(9)
    e.play("b", "E5")
    h = e.hash
    with pytest.raises(ValueError, match="unacceptable size"):
        e.boardsize(bad)
    assert e.size == 9 and e.hash == h and e.color_at("E5") == BLACK


@pytest.mark.parametrize("n", [2, 7, 19, 25])
def test_boardsize_gives_an_empty_board(n):
    e = Engine(9)
    e.play("b", "E5")
    e.boardsize(n)
    assert e.size == n and e.position.stones() == {} and e.to_move == BLACK


def test_play_undo_and_colour_to_move():
    e = Engine(9)
    assert e.to_move == BLACK
    e.play("b", "E5")
    assert e.to_move == WHITE
    e.play("black", "D5")  # the same colour twice is allowed
    e.play("w", None)  # a pass
    assert e.to_move == BLACK
    e.undo()
    assert e.to_move == WHITE
    e.undo()
    assert e.to_move == BLACK and e.color_at("D5") == EMPTY
    e.undo()
    with pytest.raises(CannotUndoError):
        e.undo()
    assert e.position.stones() == {}


def test_illegal_moves_change_nothing():
    # . X .
    # X . X      black surrounds C2; white C2 is suicide; B2? is occupied
    # . X .
    e = Engine(3)
    for v in ("B3", "A2", "C2", "B1"):
        e.play("b", v)
    h, to_move = e.hash, e.to_move
    with pytest.raises(IllegalMoveError):
        e.play("w", "B2")  # suicide
    with pytest.raises(IllegalMoveError):
        e.play("w", "B3")  # occupied
    assert e.hash == h and e.to_move == to_move and e.color_at("B2") == EMPTY


def test_a_hash_mismatch_in_play_takes_the_move_back():
    e = Engine(9, check_hashing=True)
    e.play("b", "E5")
    e.position.hw[0] ^= 1 << 20  # corrupt the incremental word
    with pytest.raises(HashMismatchError):
        e.play("w", "C3")
    assert e.color_at("C3") == EMPTY and e.to_move == WHITE
    assert e.hash == e.position.recompute_hash()
    e.play("w", "C3")  # and play goes on
    assert e.color_at("C3") == WHITE


def test_check_hashing_setting_reaches_every_new_position(tmp_path):
    e = Engine(9, check_hashing=True)
    assert e.position.check_hashing
    e.boardsize(7)
    assert e.position.check_hashing
    e.loadsgf(write_sgf(tmp_path, "(;SZ[5];B[cc])"))
    assert e.position.check_hashing
    e.check_hashing = False
    e.clear_board()
    assert not e.position.check_hashing


def test_queries_in_gnu_go_order():
    # 5 . . . . .
    # 4 . X X . .
    # 3 . X O . .
    # 2 . . . O .
    # 1 . . . . .
    #   A B C D E
    e = Engine(5)
    for c, v in (("b", "B4"), ("b", "C4"), ("b", "B3"), ("w", "C3"), ("w", "D2")):
        e.play(c, v)
    assert e.findlib("B4") == [(4, 1), (4, 2), (3, 0), (3, 3), (2, 0), (1, 1)]
    assert e.countlib("C3") == 2
    assert e.worm_stones() == [[(3, 1), (3, 2), (2, 1)], [(2, 2)], [(1, 3)]]
    assert e.worm_stones(color="w") == [[(2, 2)], [(1, 3)]]
    assert e.worm_stones("C4") == [[(3, 1), (3, 2), (2, 1)]]
    assert e.all_legal("w")[:3] == [(4, 0), (4, 1), (4, 2)]


def test_reading_goes_through_the_reader_with_the_current_position():
    calls = []

    class Fake:
        nodes = trymoves = depth_offset = 0

        def attack(self, position, pt):
            calls.append(("attack", position, pt))
            return 1, (0, 0)

        def does_defend(self, position, pt, move):
            calls.append(("does_defend", position, pt, move))
            return 2

    e = Engine(9, reader=Fake())
    e.play("b", "E5")
    assert e.attack("E5") == (1, (0, 0))
    assert e.does_defend("E5", "E6") == 2
    assert calls == [("attack", e.position, "E5"), ("does_defend", e.position, "E5", "E6")]
    with pytest.raises(ValueError):
        e.attack("A1")  # empty vertex
    e.increase_depths()
    e.increase_depths()
    e.decrease_depths()
    assert e.reader.depth_offset == 1
    assert e.trymove("w", "D5") and e.tryko("b", "C5")
    assert e.reader.trymoves == 2
    e.popgo()
    e.popgo()
    with pytest.raises(IndexError):
        e.popgo()


# ------------------------------------------------------------------ loadsgf
GAME = "(;GM[1]FF[4]SZ[9]KM[7.5];B[ee];W[cc];B[gc];W[];B[eg];W[ce])"


def test_loadsgf_whole_game_and_colour_to_move(tmp_path):
    e = Engine()
    assert e.loadsgf(write_sgf(tmp_path, GAME)) == BLACK
    assert e.size == 9 and e.komi == 7.5 and len(e.position.moves()) == 6
    assert diagrams.render(e.position) == diagrams.canonical("""
. . . . . . . . .
. . . . . . . . .
. . O . . . X . .
. . . . . . . . .
. . O . X . . . .
. . . . . . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .""")


@pytest.mark.parametrize(
    "until, moves, to_move",
    [
        (1, 0, BLACK),
        (2, 1, WHITE),
        (3, 2, BLACK),
        (6, 5, WHITE),
        (7, 6, BLACK),
        (999, 6, BLACK),
        ("C7", 1, WHITE),
        ("c7", 1, WHITE),
        ((6, 2), 1, WHITE),
        ("E3", 4, BLACK),
        ("pass", 3, WHITE),
        ("J9", 6, BLACK),
    ],
)
def test_loadsgf_until_move_number_or_vertex(tmp_path, until, moves, to_move):
    e = Engine()
    assert e.loadsgf(write_sgf(tmp_path, GAME), until) == to_move
    assert len(e.position.moves()) == moves
    assert e.to_move == to_move


def test_loadsgf_counts_moves_from_one_and_keeps_setup(tmp_path):
    setup = diagrams.sgf_setup("""
        . . . . .
        . X . O .
        . . . . .
        . O . X .
        . . . . .""")
    path = write_sgf(tmp_path, f"(;{setup};W[cc];B[ca])")
    e = Engine()
    assert e.loadsgf(path, 1) == WHITE  # setup only; W's move is move 1
    assert diagrams.render(e.position) == diagrams.canonical("""
. . . . .
. X . O .
. . . . .
. O . X .
. . . . .""")
    assert e.loadsgf(path, "C3") == WHITE
    assert e.loadsgf(path) == WHITE and e.color_at("C5") == BLACK


def test_loadsgf_pl_and_handicap_set_the_colour_to_move(tmp_path):
    e = Engine()
    assert e.loadsgf(write_sgf(tmp_path, "(;SZ[9]AB[cc]PL[W])")) == WHITE
    assert e.loadsgf(write_sgf(tmp_path, "(;SZ[9]AB[cc]PL[B])")) == BLACK
    assert e.loadsgf(write_sgf(tmp_path, "(;SZ[9]PL[2])")) == WHITE
    assert e.loadsgf(write_sgf(tmp_path, "(;SZ[9]HA[2]AB[cc][gg])")) == WHITE
    assert e.loadsgf(write_sgf(tmp_path, "(;SZ[9]HA[2]AB[cc][gg];W[ee])")) == BLACK
    # both moves of a (malformed) node are played, in file order
    assert e.loadsgf(write_sgf(tmp_path, "(;SZ[9];B[ee]W[cc])")) == BLACK
    assert e.color_at("E5") == BLACK and e.color_at("C7") == WHITE
    # PL after a move in the same node overrides it, as GNU Go reads properties in order
    assert e.loadsgf(write_sgf(tmp_path, "(;SZ[9];B[ee]PL[B])")) == BLACK
    assert e.loadsgf(write_sgf(tmp_path, "(;SZ[9];B[ee];W[cc]PL[W])")) == WHITE


def test_loadsgf_il_sets_the_ko_point_only_at_a_ko(tmp_path):
    # White has just taken the ko at B3 (C3 is the point where black would
    # retake): IL[cc] marks that retake illegal for black.
    setup = diagrams.sgf_setup(KO5)
    e = Engine()
    e.loadsgf(write_sgf(tmp_path, f"(;{setup}PL[B]IL[cc])"))
    assert e.position.ko == (2, 2)
    assert not e.is_legal("b", "C3") and e.is_legal("b", "D4")
    # IL on points that are not a ko capture is ignored; the last ko IL wins
    e.loadsgf(write_sgf(tmp_path, f"(;{setup}PL[B]IL[aa][cc][ee])"))
    assert e.position.ko == (2, 2)
    e.loadsgf(write_sgf(tmp_path, f"(;{setup}PL[B]IL[aa][ee])"))
    assert e.position.ko is None and e.is_legal("b", "C3")


def test_loadsgf_il_after_the_until_move_is_not_applied(tmp_path):
    setup = diagrams.sgf_setup(KO5)
    path = write_sgf(tmp_path, f"(;{setup};W[ee]IL[cc])")
    e = Engine()
    e.loadsgf(path, 1)
    assert e.position.ko is None
    e.loadsgf(path)
    assert e.position.ko == (2, 2)


@pytest.mark.parametrize(
    "text, until",
    [
        (None, None),  # missing file
        (b"(;SZ[9];B[ee]", None),  # corrupt
        (b"not an sgf file at all", None),
        ("(;SZ[30];B[aa])", None),  # too large for the engine
        ("(;SZ[1])", None),
        ("(;SZ[9];B[ee];W[ee])", None),  # move on an occupied point
        ("(;SZ[9]AB[ba][ab]AW[aa])", None),  # setup leaves a string without liberties
        ("(;SZ[9];B[zz])", None),  # point off the board
        ("(;SZ[9]IL[zz])", None),
        (GAME, "Z25"),  # until vertex off this board
        (GAME, 0),
        (GAME, -2),
    ],
)
def test_a_bad_load_keeps_the_old_position(tmp_path, text, until):
    e = Engine(13)
    e.komi = 3.5
    e.play("b", "D4")
    e.play("w", "K10")
    before = (e.size, e.hash, e.position.stones(), e.to_move, e.komi, len(e.position.history))
    path = str(tmp_path / "missing.sgf") if text is None else write_sgf(tmp_path, text)
    with pytest.raises(ValueError, match="cannot load file"):
        e.loadsgf(path, until)
    assert (
        e.size,
        e.hash,
        e.position.stones(),
        e.to_move,
        e.komi,
        len(e.position.history),
    ) == before
    e.undo()  # history still works
    assert e.color_at("K10") == EMPTY


def test_load_error_is_a_value_error_naming_the_file(tmp_path):
    path = write_sgf(tmp_path, "(;SZ[9];B[ee];W[ee])")
    with pytest.raises(LoadError, match=r"cannot load file: .*game.sgf: move 2"):
        Engine().loadsgf(path)


@pytest.mark.parametrize(
    "text, until, where",
    [
        ("(;SZ[9];B[ee];W[ee])", None, "move 2: illegal move W E5"),
        ("(;SZ[9];B[ee];W[zz])", None, "move 2"),
        ("(;SZ[9];B[ee];W[cc]IL[zz])", 1, "IL[] at move 3"),  # bad anywhere: refused
        ("(;SZ[9];B[ee];AB[ba][ab]AW[aa])", None, "setup before move 2"),
        ("(;SZ[9];B[ee])", "Z25", "vertex off the 9x9 board"),
        ("(;SZ[9];B[ee])", 0, "move number 0 < 1"),
    ],
)
def test_load_errors_name_the_file_and_the_move(tmp_path, text, until, where):
    path = write_sgf(tmp_path, text)
    with pytest.raises(LoadError) as info:
        Engine().loadsgf(path, until)
    assert str(info.value).startswith(f"cannot load file: {path}: {where}")


def test_loadsgf_refuses_a_file_over_the_size_limit(tmp_path, monkeypatch):
    import gogame.core.sgfio

    path = write_sgf(tmp_path, GAME)
    monkeypatch.setattr(gogame.core.sgfio, "MAX_SGF_BYTES", 20)
    e = Engine(13)
    with pytest.raises(LoadError, match=f"cannot load file: {re.escape(path)}: .*larger than 20"):
        e.loadsgf(path)
    assert e.size == 13


def test_loadsgf_keeps_the_komi_when_the_file_sets_none(tmp_path):
    e = Engine()
    e.komi = 3.5
    e.loadsgf(write_sgf(tmp_path, "(;SZ[9];B[ee])"))
    assert e.komi == 3.5
    e.loadsgf(write_sgf(tmp_path, "(;SZ[9]KM[0.5];B[ee])"))
    assert e.komi == 0.5


def test_undo_after_loadsgf_takes_back_moves_but_not_setup(tmp_path):
    e = Engine()
    e.loadsgf(write_sgf(tmp_path, "(;SZ[9]AB[cc];W[ee];B[gg])"))
    e.undo()
    e.undo()
    assert e.position.stones() == {(6, 2): BLACK}
    with pytest.raises(CannotUndoError):
        e.undo()


# ------------------------------------------------------------ board picture
def test_board_text_of_a_small_position():
    e = Engine(5)
    for c, v in (("b", "B2"), ("w", "A2"), ("b", "A3"), ("w", "E5"), ("b", "A1")):
        e.play(c, v)
    assert (
        board_text(e.position)
        == """\
   A B C D E
 5 . . . . O 5
 4 . + . + . 4
 3 X . + . . 3
 2 . X . + . 2     WHITE (O) has captured 0 stones
 1 X . . . . 1     BLACK (X) has captured 1 stones
   A B C D E"""
    )


def test_star_points_on_large_boards():
    assert {(r, c) for r in range(25) for c in range(25) if is_hoshi(25, r, c)} == {
        (r, c) for r in (3, 12, 21) for c in (3, 12, 21)
    }
    assert {(r, c) for r in range(20) for c in range(20) if is_hoshi(20, r, c)} == {
        (3, 3),
        (3, 16),
        (16, 3),
        (16, 16),
    }


@needs_gnugo
def test_board_picture_matches_gnu_go_on_every_size():
    lines = []
    for n in range(2, 20):
        lines += [f"boardsize {n}", "clear_board", "showboard"]
    lines += ["boardsize 19", "clear_board"]
    for c, v in (
        ("b", "Q16"),
        ("w", "Q17"),
        ("b", "R17"),
        ("w", "P16"),
        ("b", "Q18"),
        ("w", "P17"),
        ("b", "R16"),
        ("w", "Q15"),
        ("b", "K10"),
        ("w", "R15"),
    ):
        lines.append(f"play {c} {v}")
    lines.append("showboard")
    ours, theirs = run_gogame(lines), run_gnugo(lines)
    assert ours == theirs


# ------------------------------------------------------- loadsgf vs GNU Go
def _reading_loads(tst):
    loads = []
    for line in tst.read_text().splitlines():
        parts = line.split()
        if parts and parts[0] == "loadsgf":
            loads.append(parts[1:])
    return tst.parent, loads


def _probe():
    return ["showboard", "all_legal black", "all_legal white", "query_boardsize"]


@needs_gnugo
def test_loadsgf_matches_gnu_go_on_every_reading_tst_load(reading_tst):
    folder, loads = _reading_loads(reading_tst)
    lines = []
    for args in dict.fromkeys(tuple(a) for a in loads):
        lines.append("loadsgf " + " ".join([str(folder / args[0])] + list(args[1:])))
        lines += _probe()
    assert len(loads) >= 140
    theirs = run_gnugo(lines)
    ours = run_gogame(lines)
    assert len(ours) == len(theirs)
    for line, a, b in zip(lines, ours, theirs, strict=True):
        assert a == b, line


def _vertex_until_cases(folder, limit=40):
    """(file, vertex) pairs: the vertex of a move in the middle of each game."""
    from sgfmill import sgf

    from gogame.core.coords import format_gtp

    cases = []
    for path in sorted((folder / "games").glob("*.sgf")):
        try:
            game = sgf.Sgf_game.from_bytes(path.read_bytes())
        except ValueError:
            continue  # not a case: a file sgfmill cannot parse
        moves = [n.get_move()[1] for n in game.get_main_sequence() if n.get_move()[0]]
        moves = [m for m in moves if m is not None]
        if len(moves) >= 4:
            cases.append((path, format_gtp(moves[len(moves) // 2])))
            cases.append((path, str(len(moves) // 3 + 1)))
        if len(cases) >= limit:
            break
    return cases


@needs_gnugo
def test_loadsgf_until_vertex_and_number_match_gnu_go(gnugo_regress):
    lines = []
    for path, until in _vertex_until_cases(gnugo_regress):
        lines.append(f"loadsgf {path} {until}")
        lines += _probe()
    theirs = run_gnugo(lines)
    ours = run_gogame(lines)
    for line, a, b in zip(lines, ours, theirs, strict=True):
        assert a == b, line


@needs_gnugo
def test_il_files_match_gnu_go(gnugo_regress):
    """reading16/19/20, owl03, semeai6 use IL[]: same board and legal moves."""
    files = [p for p in (gnugo_regress / "games").rglob("*.sgf") if b"IL[" in p.read_bytes()]
    assert len(files) >= 5
    lines = []
    for p in files:
        lines += [f"loadsgf {p}"] + _probe()
    assert run_gogame(lines) == run_gnugo(lines)


@needs_gnugo
def test_queries_match_gnu_go_after_a_game(gnugo_regress):
    """color, countlib, findlib, worm_stones, is_legal, all_legal, undo, trymove."""
    path = gnugo_regress / "games" / "incident2.sgf"
    lines = [
        f"loadsgf {path} 120",
        "showboard",
        "worm_stones",
        "worm_stones white",
        "worm_stones black",
    ]
    for v in ("C3", "D4", "Q16", "Q4", "K10", "F1", "E3", "O3", "S5", "A1", "T19"):
        lines += [
            f"color {v}",
            f"countlib {v}",
            f"findlib {v}",
            f"worm_stones {v}",
            f"is_legal b {v}",
            f"is_legal w {v}",
        ]
    lines += [
        "undo",
        "undo",
        "showboard",
        "trymove b A1",
        "showboard",
        "trymove w B1",
        "popgo",
        "popgo",
        "popgo",
        "showboard",
        "tryko b A2",
        "popgo",
        "play b T19",
        "play w T19",
        "showboard",
        "all_legal w",
    ]
    ours, theirs = run_gogame(lines), run_gnugo(lines)
    for line, a, b in zip(lines, ours, theirs, strict=True):
        assert a == b, line
