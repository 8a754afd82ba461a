"""Replay through the kernel: real games with hash checking, and bad input."""
import csv
import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import project_games, shared_path
from gogame.kernel.layout import BLACK, WHITE
from gogame.position import Position
from gogame.replay import replay_game, replay_games
from gogame.sgfio import SgfError, apply_game, il_is_ko, parse_game


def test_project_corpus_exists_across_sizes():
    sizes = {replay_game(p)["size"] for p in project_games()}
    assert len(project_games()) >= 6
    assert {9, 13, 19} <= sizes


@pytest.mark.parametrize("path", project_games(), ids=lambda p: p.name)
def test_project_games_replay_with_zero_mismatches(path):
    g = replay_game(path, check_hashing=True)
    assert g["error"] is None
    assert g["mismatches"] == 0
    assert g["moves"] > 0


def test_shared_games_replay_every_move_with_zero_mismatches():
    folder = shared_path("sgf", "gnugo-games")
    with open(folder / "MANIFEST.tsv") as f:
        expected = {row["file"]: int(row["moves"]) for row in csv.DictReader(f, delimiter="\t")}
    report = replay_games(sorted(folder.glob("*.sgf")), check_hashing=True)
    assert report["total"]["games"] == len(expected)
    for g in report["games"]:
        name = g["file"].rsplit("/", 1)[-1]
        assert g["error"] is None, g["error"]
        assert g["mismatches"] == 0
        assert g["moves"] == expected[name]


def test_regression_positions_with_setup_stones_replay_cleanly():
    folder = shared_path("regress", "gnugo")
    report = replay_games(sorted(folder.rglob("*.sgf")), check_hashing=True)
    assert report["total"]["errors"] == 0
    assert report["total"]["mismatches"] == 0


def test_a_corrupted_word_is_counted_resynchronised_and_the_rest_checked():
    pos = Position(9, check_hashing=True)
    pos.hw[1] ^= np.uint64(1 << 40)
    mismatches = []
    apply_game(parse_game(b"(;SZ[9];B[ee];W[cc];B[gg])"), pos, on_mismatch=mismatches.append)
    assert mismatches == [1]
    assert len(pos.moves()) == 3
    assert pos.hash == pos.recompute_hash()


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_bad_files_are_named_and_the_others_still_replayed(tmp_path):
    good = write(tmp_path, "good.sgf", "(;SZ[9];B[ee];W[cc];B[gg])")
    illegal = write(tmp_path, "illegal.sgf", "(;SZ[9];B[ee];W[cc];B[ee])")
    huge = write(tmp_path, "big.sgf", "(;SZ[26];B[aa])")
    corrupt = write(tmp_path, "corrupt.sgf", b"\x00(;SZ[9];B[e")
    missing = tmp_path / "missing.sgf"
    report = replay_games([good, illegal, huge, corrupt, missing], check_hashing=True)
    by_name = {g["file"].rsplit("/", 1)[-1]: g for g in report["games"]}
    assert by_name["good.sgf"]["error"] is None and by_name["good.sgf"]["moves"] == 3
    assert "move 3" in by_name["illegal.sgf"]["error"]
    assert "illegal.sgf" in by_name["illegal.sgf"]["error"]
    assert by_name["illegal.sgf"]["moves"] == 2
    assert "size 26" in by_name["big.sgf"]["error"]
    assert "corrupt.sgf" in by_name["corrupt.sgf"]["error"]
    assert "missing.sgf" in by_name["missing.sgf"]["error"]
    assert report["total"]["errors"] == 4


def test_setup_passes_and_handicap_are_replayed(tmp_path):
    path = write(tmp_path, "h.sgf", "(;SZ[13]HA[2]AB[dd][jj];W[dj];B[];W[jd];AE[dd]AW[gg];B[gh])")
    g = replay_game(path, check_hashing=True)
    assert g["error"] is None and g["moves"] == 4 and g["mismatches"] == 0


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "gogame", *args],
                          capture_output=True, text=True)


def test_cli_json_has_the_documented_keys_and_exit_status(tmp_path):
    good = write(tmp_path, "good.sgf", "(;SZ[9];B[ee];W[cc])")
    res = run_cli("replay", "--check-hashing", "--json", str(good))
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert {"file", "moves", "mismatches", "seconds", "hash"} <= set(data["games"][0])
    assert {"games", "moves", "mismatches", "seconds"} <= set(data["total"])
    assert data["total"]["moves"] == 2
    bad = write(tmp_path, "bad.sgf", "(;SZ[9];B[ee];W[ee])")
    res = run_cli("replay", str(good), str(bad))
    assert res.returncode == 1
    assert "bad.sgf: move 2: illegal move W E5" in res.stderr
    assert "good.sgf" in res.stdout


def test_cli_version_and_bad_options():
    res = run_cli("--version")
    assert res.returncode == 0 and res.stdout.startswith("gogame ")
    res = run_cli("replay")
    assert res.returncode == 2


# ------------------------------------------ the loader shared with loadsgf
KO = """
. . . . .
. X O . .
X O . O .
. X O . .
. . . . ."""


def ko_setup():
    """SGF setup of KO (white has just taken at B3; C3 is black's retake)."""
    rows = [r.split() for r in KO.strip().splitlines()]
    black = [chr(97 + c) + chr(97 + r) for r, row in enumerate(rows)
             for c, ch in enumerate(row) if ch == "X"]
    white = [chr(97 + c) + chr(97 + r) for r, row in enumerate(rows)
             for c, ch in enumerate(row) if ch == "O"]
    return "AB" + "".join(f"[{p}]" for p in black) + "AW" + "".join(f"[{p}]" for p in white)


def loadsgf(path):
    from gogame.engine import Engine
    e = Engine()
    to_move = e.loadsgf(path)
    return e, "black" if to_move == BLACK else "white"


def test_events_are_in_file_order_with_every_il_value():
    g = parse_game(b"(;SZ[9]KM[6.5]HA[2]RE[W+R]AB[cc][gg]PL[B];W[ee]IL[aa][]AB[ca];B[]IL[cc])",
                   "x.sgf")
    assert (g.path, g.size, g.komi, g.handicap, g.result) == ("x.sgf", 9, 6.5, 2, "W+R")
    assert g.events == [
        ("setup", {(6, 2): BLACK, (2, 6): BLACK}),
        ("move", (4, 4), WHITE, 1), ("ko", (8, 0)), ("setup", {(8, 2): BLACK}),
        ("move", None, BLACK, 2), ("ko", (6, 2))]
    assert [m[3] for m in g.moves] == [1, 2]
    assert g.to_move == WHITE


@pytest.mark.parametrize("text, to_move", [
    ("(;SZ[9])", BLACK), ("(;SZ[9]HA[2]AB[cc][gg])", WHITE), ("(;SZ[9]HA[1])", BLACK),
    ("(;SZ[9]PL[W])", WHITE), ("(;SZ[9]PL[2])", WHITE), ("(;SZ[9]HA[3]PL[B])", BLACK),
    ("(;SZ[9];B[ee])", WHITE), ("(;SZ[9];B[ee]PL[B])", BLACK), ("(;SZ[9]PL[W];B[ee])", WHITE),
    ("(;SZ[9];B[ee]W[cc])", BLACK), ("(;SZ[9];B[ee];W[cc]PL[W])", WHITE),
])
def test_game_colour_to_move_from_handicap_pl_and_the_last_move(text, to_move):
    assert parse_game(text.encode()).to_move == to_move


def test_komi_is_none_without_km():
    assert parse_game(b"(;SZ[9])").komi is None
    assert parse_game(b"(;SZ[9]KM[x])").komi is None
    assert parse_game(b"(;SZ[9]KM[0])").komi == 0.0


GAME = b"(;SZ[9];B[ee];W[cc];B[gc];W[];B[eg];W[ce])"


@pytest.mark.parametrize("until, moves, to_move", [
    (None, 6, BLACK), (1, 0, BLACK), (2, 1, WHITE), ("4", 3, WHITE), (999, 6, BLACK),
    ("C7", 1, WHITE), ((6, 2), 1, WHITE), ("pass", 3, WHITE), ("J9", 6, BLACK),
])
def test_apply_game_stops_before_move_n_or_the_first_move_at_a_vertex(until, moves, to_move):
    pos = Position(9)
    assert apply_game(parse_game(GAME), pos, until) == to_move
    assert len(pos.moves()) == moves


@pytest.mark.parametrize("until", [0, -1, True, "Z25", "x1", 2.5, (9, 9)])
def test_apply_game_refuses_a_bad_until_naming_the_file(until):
    with pytest.raises(SgfError, match="^g.sgf: "):
        apply_game(parse_game(GAME, "g.sgf"), Position(9), until)


def test_il_is_the_ko_only_where_a_capture_takes_one_stone():
    g = parse_game(f"(;SZ[5]{ko_setup()}PL[B]IL[aa][cc][ee])".encode())
    pos = Position(5)
    apply_game(g, pos)
    assert pos.ko == (2, 2)
    pos = Position(5)
    pos.setup({pt: c for ev in g.events if ev[0] == "setup" for pt, c in ev[1].items()})
    assert [il_is_ko(pos, pt) for pt in [(4, 0), (2, 2), (0, 4), (2, 0)]] == [
        False, True, False, False]


@pytest.mark.parametrize("il, ko", [("IL[cc]", (2, 2)), ("IL[aa][cc][ee]", (2, 2)),
                                    ("IL[aa][ee]", None), ("IL[ee][cc][aa]", (2, 2))])
def test_replay_honours_pl_and_every_il_value_as_loadsgf_does(tmp_path, il, ko):
    path = write(tmp_path, "ko.sgf", f"(;SZ[5]{ko_setup()}PL[W]{il})")
    g = replay_game(path, check_hashing=True)
    e, to_move = loadsgf(path)
    assert g["error"] is None and g["to_move"] == to_move == "white"
    assert e.position.ko == ko
    assert g["hash"] == [f"{w:#018x}" for w in e.hash]
    no_ko = replay_game(write(tmp_path, "plain.sgf", f"(;SZ[5]{ko_setup()}PL[W])"))
    assert (g["hash"] == no_ko["hash"]) == (ko is None)


def test_il_after_the_until_move_is_not_applied():
    g = parse_game(f"(;SZ[5]{ko_setup()};W[ee]IL[cc])".encode())
    pos = Position(5)
    assert apply_game(g, pos, 1) == WHITE and pos.ko is None
    pos = Position(5)
    assert apply_game(g, pos) == BLACK and pos.ko == (2, 2)


def test_replay_and_loadsgf_agree_on_every_regression_file():
    """Same loader: the same hash words (stones and ko point) and colour to move."""
    folder = shared_path("regress", "gnugo")
    files = sorted(folder.rglob("*.sgf"))
    assert sum(b"IL[" in p.read_bytes() for p in files) >= 5
    for path in files:
        g = replay_game(path)
        assert g["error"] is None, g["error"]
        e, to_move = loadsgf(path)
        assert g["hash"] == [f"{w:#018x}" for w in e.hash], path
        assert g["to_move"] == to_move, path
        assert g["moves"] == len(e.position.moves())


@pytest.mark.parametrize("text, where", [
    ("(;SZ[9];B[ee];W[zz])", "move 2"), ("(;SZ[9];B[ee]IL[zz])", "IL[] at move 2"),
    ("(;SZ[9];B[ee];AB[zz])", "setup before move 2"),
    ("(;SZ[9]AB[ba][ab]AW[aa];B[ee])", "setup before move 1"),
])
def test_bad_properties_and_setup_name_the_file_and_move(tmp_path, text, where):
    g = replay_game(write(tmp_path, "bad.sgf", text))
    assert g["error"].startswith(str(tmp_path / "bad.sgf") + ": " + where)


def test_read_traces_are_identical_across_schemes_and_budgets():
    from gogame.replay import ReadSettings
    game = min(project_games(), key=lambda p: p.stat().st_size)   # the shortest 9x9 game
    traces = {}
    for scheme, mb in (("double", 8), ("full", 0.01), ("double", 0)):
        trace = []
        report = replay_games([game], read=ReadSettings(scheme, mb), trace=trace, until=31)
        stats = report["total"]["cache"]
        assert stats["hits"] + stats["misses"] == stats["probes"]
        assert stats["bytes_allocated"] <= mb * 2**20
        assert report["total"]["moves"] == 30
        traces[scheme, mb] = trace
    first = traces["double", 8]
    assert len(first) > 100
    assert all(t == first for t in traces.values())


@pytest.mark.parametrize("option", [["--cache-mb", "-1"], ["--cache-mb", "lots"],
                                    ["--hash", "triple"], ["--hash-bits", "65"]])
def test_bad_cache_options_are_refused_with_one_line(option):
    res = run_cli("replay", "--read", *option, "x.sgf")
    assert res.returncode == 2
    assert res.stderr.strip().splitlines()[-1].startswith("gogame replay: error: argument")
