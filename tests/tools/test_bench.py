"""``gogame bench`` (gogame.tools.bench): benchmarks, not tests; here only
the shape of their JSON and the figures that hold anywhere (the cache's
entries per MB, its hit rate)."""

import io
import json
import os

import pytest

from gogame.cli import main


def test_bench_cache_json(capsys):
    assert main(["bench", "cache", "--json", "--seconds", "0.01"]) == 0
    out = json.loads(capsys.readouterr().out)
    for size in ("9", "13", "19"):
        row = out["boards"][size]
        for scheme in ("double", "full", "single"):
            cell = row[scheme]
            assert cell["bytes_per_entry"] * cell["entries_per_mb"] <= 2**20
            assert cell["stores_per_second"] > 0 and cell["probes_per_second"] > 0
            assert 0.3 < cell["probe_hit_rate"] <= 0.5
        assert row["ratio_double_full"] == pytest.approx(
            row["double"]["entries_per_mb"] / row["full"]["entries_per_mb"], rel=1e-3
        )
    big = out["boards"]["19"]
    assert big["double"]["entries_per_mb"] >= 4.5 * big["full"]["entries_per_mb"]
    assert out["goal_19x19_double_vs_full"]["met"]


def test_bench_playouts_reports_every_board_size():
    from gogame.tools.bench import playouts_bench

    result = playouts_bench(seconds=0.05, runs=1, threads=(2,))
    assert set(result["boards"]) == {"9", "13", "19"}
    for figures in result["boards"].values():
        assert figures["playouts_per_second"] > 0
        assert figures["plain_playouts_per_second"] > 0
        assert set(figures["threads"]) == {"1", "2"}  # one thread always, as the base
        assert figures["threads"]["1"] == figures["playouts_per_second"]
        assert figures["threads"]["2"] > 0


def test_startup_times_processes_that_keep_their_bytecode(monkeypatch, tmp_path):
    """Without bytecode every start compiles gogame's sources again: the
    timed processes keep it as a user's Python does, in their own cache."""
    from gogame.tools import startup

    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    env = startup.child_env(str(tmp_path))
    assert "PYTHONDONTWRITEBYTECODE" not in env
    assert env["NUMBA_CACHE_DIR"] == str(tmp_path)
    assert os.environ["PYTHONDONTWRITEBYTECODE"] == "1"  # this process unchanged


def test_startup_reports_each_run_as_it_ends(monkeypatch):
    """A run takes about a minute (a cold start, a warm-up, a warm start):
    each writes its line to ``progress`` as it ends, and the figures are
    the medians of the runs."""
    from gogame.tools import startup

    times = iter([[3.0], [0.5], [5.0], [0.25], [4.0], [0.75]])  # cold, warm, ...
    completed = []
    monkeypatch.setattr(startup, "_run", lambda commands, cache, options=(): next(times))
    monkeypatch.setattr(startup, "_complete", completed.append)
    out = io.StringIO()
    result = startup.startup_bench(3, ["name"], progress=out)
    lines = out.getvalue().splitlines()
    assert lines == [
        "startup: name run 1/3: last answer after 3.00 s cold, 0.50 s warm",
        "startup: name run 2/3: last answer after 5.00 s cold, 0.25 s warm",
        "startup: name run 3/3: last answer after 4.00 s cold, 0.75 s warm",
    ]
    assert len(completed) == 3
    assert result["name"] == {"commands": ["name"], "cold_seconds": [4.0], "warm_seconds": [0.5]}
