"""Execution modes of replay and compare (serial, --workers, --dask), the
progress bar, --plot, --threads, --check-hashing=all and the documented JSON
keys.  Reading is slow, so the games are the first 10 moves of two games."""
import json
import re
import subprocess
import sys

import numpy as np
import pytest

from conftest import ROOT
from gogame import cli, compare, jobs
from gogame.position import Position
from gogame.replay import ReadSettings, _reading_step, replay_games
from gogame.sgfio import apply_game, parse_game

TIMINGS = {"seconds", "parse_seconds", "moves_per_second", "wall_seconds"}
UNTIL = 11                         # the first 10 moves of each game


def untimed(value):
    """``value`` without its timing keys (at any depth): what must not vary."""
    if isinstance(value, dict):
        return {k: untimed(v) for k, v in value.items() if k not in TIMINGS}
    if isinstance(value, list):
        return [untimed(v) for v in value]
    return value


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """Two real games (9x9, 13x13), an illegal move, a bad size, a missing file."""
    folder = tmp_path_factory.mktemp("games")
    illegal = folder / "illegal.sgf"
    illegal.write_bytes(b"(;SZ[9];B[ee];W[cc];B[ee])")
    big = folder / "big.sgf"
    big.write_bytes(b"(;SZ[26];B[aa])")
    return [ROOT / "sgf" / "gnugo-l1-9x9-s102.sgf", illegal,
            ROOT / "sgf" / "gnugo-l1-13x13-s201.sgf", big, folder / "missing.sgf"]


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "gogame", *args],
                          capture_output=True, text=True, cwd=ROOT)


def replay(games, **mode):
    trace = []
    report = replay_games(games, check_hashing="all", read=ReadSettings("double", 0.05),
                          trace=trace, until=UNTIL, **mode)
    return report, trace


@pytest.fixture(scope="module")
def serial(games):
    return replay(games)


# ----------------------------------------------------- the same whatever the mode
def test_serial_runs_give_the_same_traces_and_counts_and_name_bad_games(games, serial):
    report, trace = serial
    again, trace2 = replay(games)
    assert trace2 == trace and len(trace) > 20
    assert untimed(again) == untimed(report)
    t = report["total"]
    assert t["games"] == 5 and t["errors"] == 3 and t["mismatches"] == 0
    assert t["reading_mismatches"] == 0 and t["check_hashing"] == "all"
    errors = [g["error"] for g in report["games"]]
    assert errors[0] is None and errors[2] is None
    assert "illegal.sgf: move 3" in errors[1]
    assert "big.sgf" in errors[3] and "size 26" in errors[3]
    assert "missing.sgf" in errors[4]
    assert [g["moves"] for g in report["games"]] == [10, 2, 10, 0, 0]
    c = t["cache"]
    assert c["probes"] == c["hits"] + c["misses"] > 0
    assert set(t["cache"]["by_size"]) == {"9", "13"}


def test_two_workers_merge_to_the_serial_result(games, serial):
    report, trace = replay(games, workers=2)
    assert trace == serial[1]
    assert untimed(report) == untimed(serial[0])


def test_a_dask_local_cluster_merges_to_the_serial_result(games, serial):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(processes=False, n_workers=1, threads_per_worker=2,
                                  dashboard_address=None) as cluster:
        report, trace = replay(games, dask=cluster.scheduler_address)
    assert trace == serial[1]
    assert untimed(report) == untimed(serial[0])


def test_compare_is_the_same_serially_with_workers_and_on_dask(games):
    distributed = pytest.importorskip("distributed")
    args = ["compare", *map(str, games[:3]), "--hash", "full,double", "--cache-mb", "0.01,1",
            "--moves", "6", "--json"]
    serial = run_cli(*args)
    assert serial.returncode == 1                   # illegal.sgf
    first = json.loads(serial.stdout)
    assert first["identical"] and len(first["errors"]) == 1
    assert first["moves_limit"] == 6
    two = run_cli(*args, "--workers", "2")
    assert untimed(json.loads(two.stdout)) == untimed(first)
    with distributed.LocalCluster(processes=False, protocol="tcp", n_workers=1,
                                  threads_per_worker=2, dashboard_address=None) as cluster:
        on_dask = run_cli(*args, "--dask", cluster.scheduler_address)
    assert on_dask.returncode == 1, on_dask.stderr
    assert untimed(json.loads(on_dask.stdout)) == untimed(first)


def test_run_jobs_keeps_the_job_order_in_every_mode():
    values = [-5, 3, -1, 0, 7, -2]
    assert jobs.run_jobs(abs, values) == [5, 3, 1, 0, 7, 2]
    assert jobs.run_jobs(abs, values, workers=3) == [5, 3, 1, 0, 7, 2]
    assert jobs.run_jobs(abs, [], workers=3) == []


# ------------------------------------------------------------- dask errors
def test_dask_unreachable_or_missing_is_one_line_and_status_2(monkeypatch, tmp_path):
    pytest.importorskip("distributed")
    with pytest.raises(jobs.ExecutionError, match="cannot reach the Dask scheduler"):
        jobs.connect("tcp://127.0.0.1:1", timeout=1)
    res = run_cli("replay", "--dask", "no-such-scheme://x:::", str(ROOT / "sgf" / "gnugo-l1-9x9-s102.sgf"))
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [res.stderr.strip()]
    assert res.stderr.startswith("gogame replay: error: cannot reach the Dask scheduler")
    monkeypatch.setitem(sys.modules, "distributed", None)      # as if not installed
    with pytest.raises(jobs.ExecutionError, match=r"pip install 'gogame\[dask\]'"):
        jobs.connect("tcp://127.0.0.1:8786")


@pytest.mark.parametrize("option", [["--workers", "0"], ["--workers", "two"],
                                    ["--threads", "0"], ["--threads", "-3"],
                                    ["--threads", "1.5"], ["--moves", "0"],
                                    ["--workers", "2", "--dask", "tcp://h:1"],
                                    ["--check-hashing=some"]])
@pytest.mark.parametrize("command", ["replay", "compare"])
def test_bad_execution_options_exit_2_with_one_line(command, option, capsys):
    with pytest.raises(SystemExit) as e:
        cli.build_parser().parse_args([command, *option, "x.sgf"])
    assert e.value.code == 2
    last = capsys.readouterr().err.strip().splitlines()[-1]
    assert last.startswith(f"gogame {command}: error: argument --")


def test_check_hashing_modes_and_threads_parse():
    p = cli.build_parser()
    for command in ("replay", "compare"):
        assert p.parse_args([command, "x.sgf"]).check_hashing is None
        assert p.parse_args([command, "--check-hashing", "x.sgf"]).check_hashing == "moves"
        assert p.parse_args([command, "x.sgf", "--check-hashing=all"]).check_hashing == "all"
        args = p.parse_args([command, "--threads", "3", "--workers", "2", "x.sgf"])
        assert (args.threads, args.workers, args.dask) == (3, 2, None)


def test_threads_reach_the_reader(monkeypatch):
    assert ReadSettings(threads=3).reader(9).threads == 3
    seen = {}

    def fake(paths, **kw):
        seen.update(kw)
        return {"games": [], "total": {"errors": 0, "mismatches": 0, "games": 0, "moves": 0,
                                       "seconds": 0, "parse_seconds": 0,
                                       "moves_per_second": 0}}
    monkeypatch.setattr("gogame.replay.replay_games", fake)
    assert cli.main(["replay", "--read", "--threads", "4", "--json", "x.sgf"]) == 0
    assert seen["read"].threads == 4 and seen["workers"] == 1


# ---------------------------------------------------- hash checking inside reading
def corrupted_position():
    """A 9x9 position whose word 0 is wrong: every check sees a mismatch."""
    pos = Position(9, check_hashing=True)
    apply_game(parse_game(b"(;SZ[9];B[ee];W[ef];B[fe];W[ff];B[df])"), pos)
    pos.hw[0] ^= np.uint64(1 << 33)
    return pos


@pytest.mark.parametrize("check, checked", [("moves", False), (None, False), ("all", True)])
def test_check_hashing_all_checks_inside_reading_and_moves_does_not(check, checked):
    pos = corrupted_position()
    pos.check_hashing = check is not None
    out, trace = {}, []
    step = _reading_step(out, pos, ReadSettings(cache_mb=0).reader(9), check, trace)
    step(5)
    step.finish()
    # each query that plays a move while checking reports once; a query
    # whose candidates are all decided unplayed (E5 here) sees nothing
    found = len(out["reading_mismatch_at"])
    assert out["reading_mismatches"] == found
    assert (1 <= found <= 3) if checked else found == 0
    if checked:
        assert out["reading_mismatch_at"][0] == [5, "D4", "attack"]
    assert len(trace) == 3 and out["results"] == 3       # the queries were still answered
    assert pos.check_hashing == (check is not None)        # the game moves' setting is back


# ------------------------------------------------------------ progress and plot
def test_progress_bar_goes_to_stderr_and_never_with_json(capsys):
    pytest.importorskip("tqdm")
    assert jobs.run_jobs(abs, [-1, -2, -3], progress=True) == [1, 2, 3]
    err = capsys.readouterr().err
    assert "3/3" in err
    args = cli.build_parser().parse_args(["replay", "--json", "a.sgf", "b.sgf"])
    assert jobs.want_progress(args, 2) is False


def test_plot_writes_a_png_and_missing_matplotlib_is_status_2(games, tmp_path, monkeypatch,
                                                               capsys):
    pytest.importorskip("matplotlib")
    png = tmp_path / "cmp.png"
    res = run_cli("compare", str(games[0]), "--hash", "full,double", "--cache-mb", "0,0.01,1",
                  "--moves", "4", "--plot", str(png))
    assert res.returncode == 0, res.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert cli.main(["compare", str(games[0]), "--plot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == "gogame compare: error: --plot needs matplotlib: pip install 'gogame[plot]'"
    assert not (tmp_path / "x.png").exists()


# ------------------------------------------------------- JSON keys in the README
def readme_json_paragraph():
    text = (ROOT / "README.md").read_text()
    start = text.index("`--json` prints one object.")
    return text[start:text.index("\n\n", start)]


def all_keys(value, skip=("by_size",)):
    """Every dict key in ``value`` (not below ``skip``), as a set."""
    keys = set()
    if isinstance(value, dict):
        for k, v in value.items():
            keys.add(k)
            if k not in skip:
                keys |= all_keys(v, skip)
    elif isinstance(value, list):
        for v in value:
            keys |= all_keys(v, skip)
    return keys


def test_every_json_key_of_replay_and_compare_is_documented(games, serial):
    documented = set(re.findall(r"`([a-z_]+)`", readme_json_paragraph()))
    report = serial[0]
    assert all_keys(report) - documented == set()
    result = compare.run_compare([str(games[0])], ["double"], [0.01], until=3)
    assert {"identical", "runs", "first_difference", "equivalence", "errors"} <= set(result)
    assert all_keys(result, skip=("by_size", "sizes", "first_difference")) - documented == set()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_end_when_the_process_that_started_them_is_killed():
    import os
    import time
    import uuid
    mark = "GOGAME_TEST_" + uuid.uuid4().hex

    def marked():
        out = []
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/environ", "rb") as f:
                    if mark.encode() in f.read():
                        out.append(int(pid))
            except OSError:
                pass
        return out

    code = "import time; from gogame import jobs; jobs.run_jobs(time.sleep, [120, 120], workers=2)"
    p = subprocess.Popen([sys.executable, "-c", code], env=dict(os.environ, **{mark: "1"}),
                         stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while len(marked()) < 4 and time.time() < deadline:   # parent, server, two workers
        time.sleep(0.2)
    assert len(marked()) >= 4
    p.kill()
    p.wait()
    deadline = time.time() + 20
    while marked() and time.time() < deadline:
        time.sleep(0.5)
    assert marked() == [], "workers outlived the killed parent"
