"""``gogame replay`` (gogame.tools.replay): real games through the kernel
with hash checking, the loader it shares with GTP ``loadsgf``, traces of
``--read`` across cache schemes, and bad or hostile input."""

import csv
import json
import os
import subprocess
import sys

import numpy as np
import pytest

from gogame.core.position import Position
from gogame.core.sgfio import apply_game, parse_game
from gogame.kernel.layout import BLACK
from gogame.tools.replay import ReadSettings, _reading_step, replay_game, replay_games
from tests.helpers import diagrams
from tests.helpers.hostile_sgf import HOSTILE, good_game, write
from tests.helpers.paths import ROOT, project_games, shared_path
from tests.helpers.shapes import KO5


@pytest.fixture
def good(tmp_path):
    return good_game(tmp_path)


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


def test_regression_positions_with_setup_stones_replay_cleanly(gnugo_regress):
    report = replay_games(sorted(gnugo_regress.rglob("*.sgf")), check_hashing=True)
    assert report["total"]["errors"] == 0
    assert report["total"]["mismatches"] == 0


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
    return subprocess.run([sys.executable, "-m", "gogame", *args], capture_output=True, text=True)


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


# ------------------------------------------ the loader shared with loadsgf
def loadsgf(path):
    from gogame.play.session import Engine

    e = Engine()
    to_move = e.loadsgf(path)
    return e, "black" if to_move == BLACK else "white"


@pytest.mark.parametrize(
    "il, ko",
    [
        ("IL[cc]", (2, 2)),
        ("IL[aa][cc][ee]", (2, 2)),
        ("IL[aa][ee]", None),
        ("IL[ee][cc][aa]", (2, 2)),
    ],
)
def test_replay_honours_pl_and_every_il_value_as_loadsgf_does(tmp_path, il, ko):
    path = write(tmp_path, "ko.sgf", f"(;{diagrams.sgf_setup(KO5)}PL[W]{il})")
    g = replay_game(path, check_hashing=True)
    e, to_move = loadsgf(path)
    assert g["error"] is None and g["to_move"] == to_move == "white"
    assert e.position.ko == ko
    assert g["hash"] == [f"{w:#018x}" for w in e.hash]
    no_ko = replay_game(write(tmp_path, "plain.sgf", f"(;{diagrams.sgf_setup(KO5)}PL[W])"))
    assert (g["hash"] == no_ko["hash"]) == (ko is None)


def test_replay_and_loadsgf_agree_on_every_regression_file(gnugo_regress):
    """Same loader: the same hash words (stones and ko point) and colour to move."""
    files = sorted(gnugo_regress.rglob("*.sgf"))
    assert sum(b"IL[" in p.read_bytes() for p in files) >= 5
    for path in files:
        g = replay_game(path)
        assert g["error"] is None, g["error"]
        e, to_move = loadsgf(path)
        assert g["hash"] == [f"{w:#018x}" for w in e.hash], path
        assert g["to_move"] == to_move, path
        assert g["moves"] == len(e.position.moves())


@pytest.mark.parametrize(
    "text, where",
    [
        ("(;SZ[9];B[ee];W[zz])", "move 2"),
        ("(;SZ[9];B[ee]IL[zz])", "IL[] at move 2"),
        ("(;SZ[9];B[ee];AB[zz])", "setup before move 2"),
        ("(;SZ[9]AB[ba][ab]AW[aa];B[ee])", "setup before move 1"),
    ],
)
def test_bad_properties_and_setup_name_the_file_and_move(tmp_path, text, where):
    g = replay_game(write(tmp_path, "bad.sgf", text))
    assert g["error"].startswith(str(tmp_path / "bad.sgf") + ": " + where)


# ------------------------------------------------------------ --read
def test_read_traces_are_identical_across_schemes_and_budgets():
    from gogame.tools.replay import ReadSettings

    game = min(project_games(), key=lambda p: p.stat().st_size)  # the shortest 9x9 game
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


def games_19():
    return [p for p in project_games() if "19x19" in p.name]


@pytest.mark.parametrize("games, until", [(2, 26), (3, 61)])
def test_read_traces_are_identical_with_1_2_and_4_threads(games, until):
    """The threads take different strings of a window of positions
    (``Reader.examine_copies``; 61 moves make a full window and a part):
    the trace is the serial one, byte for byte, and so are the strings
    counted."""
    paths = games_19()[:games]
    reports, traces = {}, {}
    for threads in (1, 2, 4):
        traces[threads] = []
        reports[threads] = replay_games(
            paths, read=ReadSettings(threads=threads), trace=traces[threads], until=until
        )
    assert len(traces[1]) > 200 * games
    for threads in (2, 4):
        assert traces[threads] == traces[1]
        assert reports[threads]["total"]["results"] == reports[1]["total"]["results"]


def test_read_trace_with_threads_via_the_cli_is_identical(tmp_path):
    """``gogame replay --read --trace`` with 1 and 2 threads: the files are equal."""
    game = games_19()[0]
    files = []
    for threads in (1, 2):
        out = tmp_path / f"trace{threads}.txt"
        run = subprocess.run(
            [sys.executable, "-m", "gogame", "replay", "--read", "--moves", "12"]
            + ["--threads", str(threads), "--trace", str(out), str(game)],
            capture_output=True,
            cwd=ROOT,
            timeout=300,
        )
        assert run.returncode == 0, run.stderr
        files.append(out.read_bytes())
    assert files[0] == files[1] and files[0].count(b"\n") > 50


# ------------------------------------------------------ hostile files
def replay(*paths, timeout=120):
    """``gogame replay`` in a process limited to 4 GB of address space, so
    that a file read without bound fails there, not on the machine."""

    def limit():
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    return subprocess.run(
        [sys.executable, "-m", "gogame", "replay", *map(str, paths)],
        capture_output=True,
        cwd=ROOT,
        timeout=timeout,
        preexec_fn=limit,
    )


def test_replay_names_each_bad_file_and_still_replays_the_good_one(tmp_path, good):
    names = ["truncated.sgf", "off_board.sgf", "sz26.sgf", "bad_ca.sgf", "occupied.sgf"]
    paths = [write(tmp_path, n, HOSTILE[n][0]) for n in names]
    huge = write(tmp_path, "million.sgf", b"(;SZ[19]" + b";B[]" * 300_000 + b")")
    res = replay(good, *paths, huge, tmp_path / "missing.sgf")
    assert res.returncode == 1
    err = res.stderr.decode()
    for path, name in zip(paths, names, strict=True):
        assert f"{path}: " in err and HOSTILE[name][1] in err, (name, err)
    assert "more than 250000 nodes" in err and "missing.sgf: cannot read file" in err
    assert "Traceback" not in err
    out = res.stdout.decode()
    assert "good.sgf" in out and "7 errors" in out, out


def test_replay_refuses_special_files(tmp_path, good):
    os.mkfifo(tmp_path / "fifo.sgf")
    res = replay(good, "/dev/zero", tmp_path / "fifo.sgf", timeout=60)
    assert res.returncode == 1
    err = res.stderr.decode()
    assert "/dev/zero: not a regular file" in err and "fifo.sgf: not a regular file" in err


# ---------------------------------------------------- hash checking inside reading
def corrupted_position():
    """A 9x9 position whose word 0 is wrong: every check sees a mismatch."""
    pos = Position(9, check_hashing=True)
    apply_game(parse_game(b"(;SZ[9];B[ee];W[ef];B[fe];W[ff];B[df])"), pos)
    pos.hw[0] ^= np.uint64(1 << 33)
    return pos


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("check, checked", [("moves", False), (None, False), ("all", True)])
def test_check_hashing_all_checks_inside_reading_and_moves_does_not(check, checked, threads):
    """With threads too: ``all`` reads the strings one by one (a mismatch
    names its query), the others through the threads."""
    pos = corrupted_position()
    pos.check_hashing = check is not None
    out, trace = {}, []
    reader = ReadSettings(cache_mb=0, threads=threads).reader(9)
    step = _reading_step(out, pos, reader, check, trace)
    step(5)
    step.finish()
    # each query that plays a move while checking reports once; a query
    # whose candidates are all decided unplayed (E5 here) sees nothing
    found = len(out["reading_mismatch_at"])
    assert out["reading_mismatches"] == found
    assert (1 <= found <= 3) if checked else found == 0
    if checked:
        assert out["reading_mismatch_at"][0] == [5, "D4", "attack"]
    assert len(trace) == 3 and out["results"] == 3  # the queries were still answered
    assert pos.check_hashing == (check is not None)  # the game moves' setting is back
