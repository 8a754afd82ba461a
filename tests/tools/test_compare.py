"""gogame compare (gogame.tools.compare): traces identical across schemes
and budgets, the JSON keys,
the memory equivalence, exit statuses.  Reading is slow, so the games are the
first 20 moves of a short 9x9 game; and --plot."""

import json
import subprocess
import sys

import pytest
from sgfmill import sgf

from gogame import cli
from gogame.tools import compare
from gogame.tools.compare import first_difference, memory_equivalence
from tests.helpers.paths import ROOT

RUN_KEYS = {
    "hash",
    "cache_mb",
    "capacity",
    "bytes_per_entry",
    "nodes",
    "hits",
    "collisions",
    "seconds",
}


def truncated(src, dst, moves):
    """``dst``: the first ``moves`` moves of SGF ``src`` (size and komi kept)."""
    game = sgf.Sgf_game.from_bytes(src.read_bytes())
    out = sgf.Sgf_game(size=game.get_size())
    out.get_root().set("KM", game.get_komi())
    for node in game.get_main_sequence()[1 : moves + 1]:
        colour, move = node.get_move()
        out.extend_main_sequence().set_move(colour, move)
    dst.write_bytes(out.serialise())
    return dst


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return truncated(
        ROOT / "sgf" / "gnugo-l1-9x9-s102.sgf",
        tmp_path_factory.mktemp("compare") / "s102-20.sgf",
        20,
    )


def run_cli(*args):
    return subprocess.run(
        [sys.executable, "-m", "gogame", *args], capture_output=True, text=True, cwd=ROOT
    )


def test_json_keys_and_identical_traces_across_schemes_and_budgets(tiny):
    res = run_cli(
        "compare",
        str(tiny),
        "--hash",
        "full,double",
        "--cache-mb",
        "0,0.01,1",
        "--moves",
        "14",
        "--json",
    )
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert data["identical"] is True and data["first_difference"] is None
    assert data["errors"] == [] and data["mismatches"] == []
    assert data["moves_limit"] == 14 and data["runs"][0]["moves"] == 14
    assert [(r["hash"], r["cache_mb"]) for r in data["runs"]] == [
        ("full", 0),
        ("full", 0.01),
        ("full", 1),
        ("double", 0),
        ("double", 0.01),
        ("double", 1),
    ]
    for r in data["runs"]:
        assert RUN_KEYS <= set(r)
        assert r["trace_lines"] == data["runs"][0]["trace_lines"] > 20
        assert r["hits"] <= r["probes"]
        assert r["capacity"] * r["bytes_per_entry"] <= r["cache_mb"] * 2**20
    by = {(r["hash"], r["cache_mb"]): r for r in data["runs"]}
    assert by["full", 0]["capacity"] == by["double", 0]["capacity"] == 0
    assert by["full", 1]["bytes_per_entry"] > by["double", 1]["bytes_per_entry"]
    assert by["double", 1]["nodes"] < by["double", 0]["nodes"]  # the cache saves reading
    assert [e["full_mb"] for e in data["equivalence"]] == [0, 0.01, 1]
    assert data["equivalence"] == memory_equivalence(data["runs"])


def test_text_report_says_no_differences(tiny):
    res = run_cli("compare", str(tiny), "--hash", "double,full", "--cache-mb", "0.01")
    assert res.returncode == 0, res.stderr
    assert "no differences" in res.stdout
    assert "memory equivalence" in res.stdout
    assert len([l for l in res.stdout.splitlines() if l.startswith(("full ", "double "))]) == 2


def test_a_bad_game_is_named_and_the_status_is_1(tiny, tmp_path):
    missing = tmp_path / "missing.sgf"
    res = run_cli(
        "compare", str(missing), str(tiny), "--hash", "double", "--cache-mb", "0.01", "--json"
    )
    assert res.returncode == 1
    data = json.loads(res.stdout)
    assert data["identical"] is True
    assert [e["file"] for e in data["errors"]] == [str(missing)]
    assert str(missing) in res.stderr
    assert data["runs"][0]["trace_lines"] > 20  # the good game was still read


def test_differing_traces_give_status_1(monkeypatch, capsys):
    fake = {
        "games": 1,
        "hash_bits": 64,
        "errors": [],
        "identical": False,
        "runs": [],
        "first_difference": {
            "line": 3,
            "runs": [
                {"run": "full/1MB", "line": "5 C3 attack 1 D3"},
                {"run": "double/1MB", "line": None},
            ],
        },
        "equivalence": [],
    }
    monkeypatch.setattr(compare, "run_compare", lambda *a: fake)
    args = cli.build_parser().parse_args(["compare", "g.sgf", "--cache-mb", "1"])
    assert compare.run(args) == 1
    out = capsys.readouterr().out
    assert "DIFFER, first at line 3" in out and "(end of trace)" in out


def runs(*rows):
    return [{"hash": h, "cache_mb": mb, "nodes": n} for h, mb, n in rows]


def test_memory_equivalence_smallest_double_budget_reaching_each_full_run():
    got = memory_equivalence(
        runs(
            ("full", 16, 900),
            ("full", 0.25, 2000),
            ("full", 1, 1500),
            ("full", 4, 1000),
            ("double", 16, 880),
            ("double", 0.25, 1400),
            ("double", 1, 1000),
            ("double", 4, 950),
        )
    )
    assert [(e["full_mb"], e["double_mb"], e["ratio"]) for e in got] == [
        (0.25, 0.25, 1.0),
        (1, 0.25, 0.25),
        (4, 1, 0.25),
        (16, 16, 1.0),
    ]
    assert got[1]["full_nodes"] == 1500 and got[1]["double_nodes"] == 1400
    assert [e["smallest_tried"] for e in got] == [True, True, False, False]


def test_memory_equivalence_none_reached_zero_budget_and_no_doubles():
    got = memory_equivalence(
        runs(("full", 0, 5000), ("full", 4, 100), ("double", 0, 5000), ("double", 1, 200))
    )
    assert got[0] == {
        "full_mb": 0,
        "full_nodes": 5000,
        "double_mb": 0,
        "double_nodes": 5000,
        "ratio": None,
        "smallest_tried": True,
    }
    assert got[1]["double_mb"] is None and got[1]["ratio"] is None
    assert memory_equivalence(runs(("full", 1, 10))) == [
        {
            "full_mb": 1,
            "full_nodes": 10,
            "double_mb": None,
            "double_nodes": None,
            "ratio": None,
            "smallest_tried": False,
        }
    ]
    assert memory_equivalence(runs(("double", 1, 10))) == []


def test_first_difference():
    a = ["1 A1 attack 0 -", "2 B2 attack 1 C2", "2 B2 defend 1 D2"]
    assert first_difference([("x", a), ("y", list(a)), ("z", list(a))]) is None
    b = a[:1] + ["2 B2 attack 1 C3"] + a[2:]
    d = first_difference([("x", a), ("y", list(a)), ("z", b)])
    assert d == {"line": 2, "runs": [{"run": "x", "line": a[1]}, {"run": "z", "line": b[1]}]}
    d = first_difference([("x", a), ("short", a[:2]), ("z", b)])
    assert d["line"] == 2  # the earliest difference wins
    d = first_difference([("x", a), ("short", a[:2])])
    assert d == {"line": 3, "runs": [{"run": "x", "line": a[2]}, {"run": "short", "line": None}]}


@pytest.mark.slow
def test_plot_writes_a_png_and_missing_matplotlib_is_status_2(tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")
    game = ROOT / "sgf" / "gnugo-l1-9x9-s102.sgf"
    png = tmp_path / "cmp.png"
    res = run_cli(
        "compare",
        str(game),
        "--hash",
        "full,double",
        "--cache-mb",
        "0,0.01,1",
        "--moves",
        "4",
        "--plot",
        str(png),
    )
    assert res.returncode == 0, res.stderr
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert cli.main(["compare", str(game), "--plot", str(tmp_path / "x.png")]) == 2
    err = capsys.readouterr().err
    assert err.strip() == (
        "gogame compare: error: --plot needs matplotlib: pip install 'gogame[plot]'"
    )
    assert not (tmp_path / "x.png").exists()
