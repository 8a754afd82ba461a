"""The execution modes of replay and compare (gogame.tools.jobs: serial,
--workers, --dask), the progress bar, workers ending with their parent, and
the documented JSON keys.  Reading is slow, so the games are the first 10
moves of two games."""

import json
import re
import subprocess
import sys

import pytest

from gogame import cli
from gogame.tools import compare, jobs
from gogame.tools.replay import ReadSettings, replay_games
from tests.helpers.paths import ROOT

TIMINGS = {"seconds", "parse_seconds", "moves_per_second", "wall_seconds"}
UNTIL = 11  # the first 10 moves of each game


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
    return [
        ROOT / "sgf" / "gnugo-l1-9x9-s102.sgf",
        illegal,
        ROOT / "sgf" / "gnugo-l1-13x13-s201.sgf",
        big,
        folder / "missing.sgf",
    ]


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "gogame", *args], capture_output=True, text=True, cwd=ROOT
    )


def replay(games, **mode):
    trace = []
    report = replay_games(
        games,
        check_hashing="all",
        read=ReadSettings("double", 0.05),
        trace=trace,
        until=UNTIL,
        **mode,
    )
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
    with distributed.LocalCluster(
        processes=False, n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        report, trace = replay(games, dask=cluster.scheduler_address)
    assert trace == serial[1]
    assert untimed(report) == untimed(serial[0])


@pytest.mark.slow
def test_compare_is_the_same_serially_with_workers_and_on_dask(games):
    distributed = pytest.importorskip("distributed")
    args = [
        "compare",
        *map(str, games[:3]),
        "--hash",
        "full,double",
        "--cache-mb",
        "0.01,1",
        "--moves",
        "6",
        "--json",
    ]
    serial = run_cli(*args)
    assert serial.returncode == 1  # illegal.sgf
    first = json.loads(serial.stdout)
    assert first["identical"] and len(first["errors"]) == 1
    assert first["moves_limit"] == 6
    two = run_cli(*args, "--workers", "2")
    assert untimed(json.loads(two.stdout)) == untimed(first)
    with distributed.LocalCluster(
        processes=False, protocol="tcp", n_workers=1, threads_per_worker=2, dashboard_address=None
    ) as cluster:
        on_dask = run_cli(*args, "--dask", cluster.scheduler_address)
    assert on_dask.returncode == 1, on_dask.stderr
    assert untimed(json.loads(on_dask.stdout)) == untimed(first)


def test_run_jobs_keeps_the_job_order_in_every_mode():
    values = [-5, 3, -1, 0, 7, -2]
    assert jobs.run_jobs(abs, values) == [5, 3, 1, 0, 7, 2]
    assert jobs.run_jobs(abs, values, workers=3) == [5, 3, 1, 0, 7, 2]
    assert jobs.run_jobs(abs, [], workers=3) == []


# ------------------------------------------------------------- dask errors
@pytest.mark.slow
def test_dask_unreachable_or_missing_is_one_line_and_status_2(monkeypatch, tmp_path):
    pytest.importorskip("distributed")
    with pytest.raises(jobs.ExecutionError, match="cannot reach the Dask scheduler"):
        jobs.connect("tcp://127.0.0.1:1", timeout=1)
    game = ROOT / "sgf" / "gnugo-l1-9x9-s102.sgf"
    res = run_cli("replay", "--dask", "no-such-scheme://x:::", str(game))
    assert res.returncode == 2
    assert res.stderr.strip().splitlines() == [res.stderr.strip()]
    assert res.stderr.startswith("gogame replay: error: cannot reach the Dask scheduler")
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if not installed
    with pytest.raises(jobs.ExecutionError, match=r"pip install 'gogame\[dask\]'"):
        jobs.connect("tcp://127.0.0.1:8786")


# ---------------------------------------------------- hash checking inside reading


# ------------------------------------------------------------ progress and plot
def test_progress_bar_goes_to_stderr_and_never_with_json(capsys):
    pytest.importorskip("tqdm")
    assert jobs.run_jobs(abs, [-1, -2, -3], progress=True) == [1, 2, 3]
    err = capsys.readouterr().err
    assert "3/3" in err
    args = cli.build_parser().parse_args(["replay", "--json", "a.sgf", "b.sgf"])
    assert jobs.want_progress(args, 2) is False


# ------------------------------------------------------- JSON keys in the docs
def json_section(command):
    """The ``### `COMMAND --json``` section of docs/cli.md, the reference
    the README points to."""
    text = (ROOT / "docs" / "cli.md").read_text()
    start = text.index(f"### `{command} --json`")
    end = text.find("\n## ", start)
    return text[start : end if end > 0 else len(text)]


def documented(command):
    return set(re.findall(r"`([a-z_]+)`", json_section(command)))


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
    report = serial[0]
    assert all_keys(report) - documented("replay") == set()
    result = compare.run_compare([str(games[0])], ["double"], [0.01], until=3)
    assert {"identical", "runs", "first_difference", "equivalence", "errors"} <= set(result)
    keys = all_keys(result, skip=("by_size", "sizes", "first_difference"))
    assert keys - documented("compare") == set()


@pytest.mark.slow
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
                pass  # the process ended while we looked
        return out

    code = (
        "import time; from gogame.tools import jobs; "
        "jobs.run_jobs(time.sleep, [120, 120], workers=2)"
    )
    p = subprocess.Popen(
        [sys.executable, "-c", code], env=dict(os.environ, **{mark: "1"}), stderr=subprocess.DEVNULL
    )
    deadline = time.time() + 60
    while len(marked()) < 4 and time.time() < deadline:  # parent, server, two workers
        time.sleep(0.2)
    assert len(marked()) >= 4
    p.kill()
    p.wait()
    deadline = time.time() + 20
    while marked() and time.time() < deadline:
        time.sleep(0.5)
    assert marked() == [], "workers outlived the killed parent"
