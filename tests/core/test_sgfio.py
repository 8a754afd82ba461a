"""SGF reading (gogame.core.sgfio): the events of a game in file order
(setup, moves, IL ko points), the colour to move, the komi, ``apply_game``
up to a move number or vertex, and hostile files: the size and node limits,
deep nesting, foreign charsets.  The same files through GTP ``loadsgf`` are
in tests/gtp/test_engine_loadsgf.py, through ``gogame replay`` in
tests/tools/test_replay.py."""

import numpy as np
import pytest

from gogame.core import sgfio
from gogame.core.position import Position
from gogame.core.sgfio import (
    MAX_SGF_BYTES,
    MAX_SGF_NODES,
    SgfError,
    apply_game,
    il_is_ko,
    load_game,
    parse_game,
)
from gogame.kernel.layout import BLACK, WHITE
from tests.helpers import diagrams
from tests.helpers.hostile_sgf import write
from tests.helpers.paths import ROOT
from tests.helpers.shapes import KO5


# -------------------------------------------------------------- events
def test_events_are_in_file_order_with_every_il_value():
    g = parse_game(
        b"(;SZ[9]KM[6.5]HA[2]RE[W+R]AB[cc][gg]PL[B];W[ee]IL[aa][]AB[ca];B[]IL[cc])", "x.sgf"
    )
    assert (g.path, g.size, g.komi, g.handicap, g.result) == ("x.sgf", 9, 6.5, 2, "W+R")
    assert g.events == [
        ("setup", {(6, 2): BLACK, (2, 6): BLACK}),
        ("move", (4, 4), WHITE, 1),
        ("ko", (8, 0)),
        ("setup", {(8, 2): BLACK}),
        ("move", None, BLACK, 2),
        ("ko", (6, 2)),
    ]
    assert [m[3] for m in g.moves] == [1, 2]
    assert g.to_move == WHITE


@pytest.mark.parametrize(
    "text, to_move",
    [
        ("(;SZ[9])", BLACK),
        ("(;SZ[9]HA[2]AB[cc][gg])", WHITE),
        ("(;SZ[9]HA[1])", BLACK),
        ("(;SZ[9]PL[W])", WHITE),
        ("(;SZ[9]PL[2])", WHITE),
        ("(;SZ[9]HA[3]PL[B])", BLACK),
        ("(;SZ[9];B[ee])", WHITE),
        ("(;SZ[9];B[ee]PL[B])", BLACK),
        ("(;SZ[9]PL[W];B[ee])", WHITE),
        ("(;SZ[9];B[ee]W[cc])", BLACK),
        ("(;SZ[9];B[ee];W[cc]PL[W])", WHITE),
    ],
)
def test_game_colour_to_move_from_handicap_pl_and_the_last_move(text, to_move):
    assert parse_game(text.encode()).to_move == to_move


def test_komi_is_none_without_km():
    assert parse_game(b"(;SZ[9])").komi is None
    assert parse_game(b"(;SZ[9]KM[x])").komi is None
    assert parse_game(b"(;SZ[9]KM[0])").komi == 0.0


@pytest.mark.parametrize("km", [b"nan", b"inf", b"-1e999", b"9" * 5000, b"\xff"])
def test_a_komi_that_is_not_a_finite_number_is_ignored(tmp_path, km):
    path = write(tmp_path, "km.sgf", b"(;SZ[9]KM[" + km + b"];B[ee])")
    assert load_game(path).komi is None


GAME = b"(;SZ[9];B[ee];W[cc];B[gc];W[];B[eg];W[ce])"


@pytest.mark.parametrize(
    "until, moves, to_move",
    [
        (None, 6, BLACK),
        (1, 0, BLACK),
        (2, 1, WHITE),
        ("4", 3, WHITE),
        (999, 6, BLACK),
        ("C7", 1, WHITE),
        ((6, 2), 1, WHITE),
        ("pass", 3, WHITE),
        ("J9", 6, BLACK),
    ],
)
def test_apply_game_stops_before_move_n_or_the_first_move_at_a_vertex(until, moves, to_move):
    pos = Position(9)
    assert apply_game(parse_game(GAME), pos, until) == to_move
    assert len(pos.moves()) == moves


@pytest.mark.parametrize("until", [0, -1, True, "Z25", "x1", 2.5, (9, 9)])
def test_apply_game_refuses_a_bad_until_naming_the_file(until):
    with pytest.raises(SgfError, match="^g.sgf: "):
        apply_game(parse_game(GAME, "g.sgf"), Position(9), until)


def test_il_is_the_ko_only_where_a_capture_takes_one_stone():
    g = parse_game(f"(;{diagrams.sgf_setup(KO5)}PL[B]IL[aa][cc][ee])".encode())
    pos = Position(5)
    apply_game(g, pos)
    assert pos.ko == (2, 2)
    pos = Position(5)
    pos.setup({pt: c for ev in g.events if ev[0] == "setup" for pt, c in ev[1].items()})
    assert [il_is_ko(pos, pt) for pt in [(4, 0), (2, 2), (0, 4), (2, 0)]] == [
        False,
        True,
        False,
        False,
    ]


def test_il_after_the_until_move_is_not_applied():
    g = parse_game(f"(;{diagrams.sgf_setup(KO5)};W[ee]IL[cc])".encode())
    pos = Position(5)
    assert apply_game(g, pos, 1) == WHITE and pos.ko is None
    pos = Position(5)
    assert apply_game(g, pos) == BLACK and pos.ko == (2, 2)


def test_a_corrupted_word_is_counted_resynchronised_and_the_rest_checked():
    pos = Position(9, check_hashing=True)
    pos.hw[1] ^= np.uint64(1 << 40)
    mismatches = []
    apply_game(parse_game(b"(;SZ[9];B[ee];W[cc];B[gg])"), pos, on_mismatch=mismatches.append)
    assert mismatches == [1]
    assert len(pos.moves()) == 3
    assert pos.hash == pos.recompute_hash()


# ------------------------------------------------------------- limits
def test_file_over_the_size_limit_is_refused(tmp_path):
    body = b"(;SZ[9]C[" + b"x" * MAX_SGF_BYTES + b"];B[ee])"
    path = write(tmp_path, "huge.sgf", body)
    with pytest.raises(SgfError, match=r"larger than 10485760 bytes, the limit"):
        load_game(path)


def test_giant_property_value_under_the_limit_loads(tmp_path):
    path = write(tmp_path, "bigvalue.sgf", b"(;SZ[9]C[" + b"\\]x" * (3 << 20) + b"];B[ee];W[dd])")
    assert [m[1] for m in load_game(path).moves] == [(4, 4), (5, 3)]


def test_million_node_file_is_refused_before_it_is_parsed(tmp_path, monkeypatch):
    """The ';' count is checked before a parser builds a list of a million
    nodes (a small game still goes through the parser: the spy sees it)."""
    parsed = []
    real = sgfio.main_line

    def spy(data):
        parsed.append(len(data))
        return real(data)

    monkeypatch.setattr(sgfio, "main_line", spy)
    path = write(tmp_path, "million.sgf", b"(;SZ[19]" + b";B[]" * 1_000_000 + b")")
    with pytest.raises(SgfError, match=f"more than {MAX_SGF_NODES} nodes"):
        load_game(path)
    assert parsed == []
    assert len(load_game(write(tmp_path, "small.sgf", b"(;SZ[9];B[ee])")).moves) == 1
    assert len(parsed) == 1


def test_deep_variation_nesting_loads_its_main_line(tmp_path):
    """20,000 levels, each with a second variation after the main one."""
    depth = 20000
    deep = b"(;SZ[9]" + b"(;B[]" * depth + b")" + b"(;W[aa]))" * (depth - 1) + b")"
    game = load_game(write(tmp_path, "deep.sgf", deep))
    assert len(game.moves) == depth and game.moves[-1][1:] == (None, 1, depth)


def test_non_utf8_text_in_a_declared_charset_loads(tmp_path):
    path = write(
        tmp_path,
        "latin1.sgf",
        b"(;CA[ISO-8859-1]SZ[9]PB[J\xe9r\xf4me]C[\xff\xfe];B[ee]C[\x80\x81])",
    )
    assert len(load_game(path).moves) == 1


# ------------------------------------------------- the main-line fast path
def sgfmill_main_line(data):
    """sgfmill's own reading of the main line (property maps), or None
    when sgfmill refuses the data."""
    from sgfmill import sgf

    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError:
        return None
    return [node.get_raw_property_map() for node in game.get_main_sequence()]


@pytest.mark.parametrize(
    "data",
    [
        b"(;FF[4]SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))",
        rb"(;SZ[9]C[a \] ( ) ; b];B[aa]C[x\\];W[bb])",  # escapes, ( ) ; in values
        b"(;AddBlack[aa][bb]SZ[9];White[cc])",  # FF[3] names: lower case dropped
        b"junk (;SZ[9];B[aa]) (;SZ[19];W[bb])",  # the first game only
        b"(;SZ[9]AB[aa]AB[bb];B[]\n;\tW [cc] )",  # repeated identifier, blanks
        b"(;SZ[9];B[aa](;W[bb]C[(((]))(;W[cc]C[)]))",  # parens in a side line
        b"(;SZ[9];B[aa]",  # ends inside the game
        b"(;SZ[9]B;W[aa])",  # an identifier without a value
        b"(;SZ[9];B[aa](;W[bb]);B[cc])",  # a node after the variations
        b"(;SZ[9]())",  # an empty sequence
        b"(;SZ[9](B[aa]))",  # a property outside a node
        b"(;SZ[9];[aa])",  # a value without an identifier
        b"(;SZ[9];B[aa]!;W[bb])",  # junk inside the game
        b"no game here",
    ],
)
def test_main_line_reads_what_sgfmill_reads_or_gives_way(data):
    """The fast path gives sgfmill's main line exactly, and gives way
    (None) only where sgfmill refuses the data."""
    fast, slow = sgfio.main_line(data), sgfmill_main_line(data)
    assert fast == slow
    if slow is not None:
        game = sgfio.parse_game(data)
        assert game.events  # parse_game used the fast path's nodes


def test_main_line_agrees_with_sgfmill_on_every_game(gnugo_regress):
    """Every SGF of the project and of GNU Go's regress/ folder."""
    paths = sorted(gnugo_regress.rglob("*.sgf")) + sorted((ROOT / "sgf").rglob("*.sgf"))
    assert len(paths) > 150
    for path in paths:
        data = path.read_bytes()
        assert sgfio.main_line(data) == sgfmill_main_line(data), path
