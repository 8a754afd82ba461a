"""The ``gogame`` command line (gogame.cli): --version; bad options of
replay and compare refused with exit status 2 and one line on stderr
(argparse's convention); parsed values reach the tools.  ``gogame gtp``'s
options are tested with the server (tests/gtp/test_server.py)."""

import subprocess
import sys

import pytest

from gogame import cli
from gogame.core import options
from gogame.tools.replay import ReadSettings
from tests.helpers.paths import ROOT


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "gogame", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_cli_version_and_bad_options():
    res = run_cli("--version")
    assert res.returncode == 0 and res.stdout.startswith("gogame ")
    res = run_cli("replay")
    assert res.returncode == 2


@pytest.mark.parametrize(
    "option",
    [["--cache-mb", "-1"], ["--cache-mb", "lots"], ["--hash", "triple"], ["--hash-bits", "65"]],
)
def test_bad_cache_options_are_refused_with_one_line(option):
    res = run_cli("replay", "--read", *option, "x.sgf")
    assert res.returncode == 2
    assert res.stderr.strip().splitlines()[-1].startswith("gogame replay: error: argument")


@pytest.mark.parametrize(
    "option",
    [
        ["--hash", "full,triple"],
        ["--hash", "full,"],
        ["--cache-mb", "1,lots"],
        ["--cache-mb", "0.25,-1"],
        ["--hash-bits", "65"],
    ],
)
def test_bad_compare_options_exit_2_with_one_line(option):
    res = run_cli("compare", *option, "x.sgf")
    assert res.returncode == 2
    last = res.stderr.strip().splitlines()[-1]
    assert last.startswith("gogame compare: error: argument " + option[0])


@pytest.mark.parametrize(
    "option",
    [
        ["--workers", "0"],
        ["--workers", "two"],
        ["--threads", "0"],
        ["--threads", "-3"],
        ["--threads", "1.5"],
        ["--moves", "0"],
        ["--workers", "2", "--dask", "tcp://h:1"],
        ["--check-hashing=some"],
    ],
)
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
    assert ReadSettings(threads=1).reader(9).threads == 1
    # more threads than cores are not run: as many as the cores
    assert ReadSettings(threads=3).reader(9).threads == min(3, options.cores())
    seen = {}

    def fake(paths, **kw):
        seen.update(kw)
        return {
            "games": [],
            "total": {
                "errors": 0,
                "mismatches": 0,
                "games": 0,
                "moves": 0,
                "seconds": 0,
                "parse_seconds": 0,
                "moves_per_second": 0,
            },
        }

    monkeypatch.setattr("gogame.tools.replay.replay_games", fake)
    assert cli.main(["replay", "--read", "--threads", "4", "--json", "x.sgf"]) == 0
    assert seen["read"].threads == 4 and seen["workers"] == 1
