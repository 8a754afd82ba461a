"""scripts/bench_end_to_end.py: a .tst file piped through fresh engines,
the time split into the start, the rest and the ``loadsgf`` round trips."""

import json
import os
import sys

import pytest

from gogame.tools.startup import PROBLEM_SGF
from tests.helpers.paths import load_script

bench = load_script("bench_end_to_end")

# a GTP engine that answers every command at once, and leaves on quit
STUB = """import sys
for line in sys.stdin:
    sys.stdout.write("= \\n\\n")
    sys.stdout.flush()
    if line.strip() == "quit":
        break
"""

# one that answers the first command, then leaves
ONE_ANSWER = """import sys
sys.stdin.readline()
sys.stdout.write("= \\n\\n")
"""


def _files(tmp_path):
    (tmp_path / "ladder.sgf").write_text(PROBLEM_SGF)
    (tmp_path / "stub.py").write_text(STUB)
    tst = tmp_path / "t.tst"
    tst.write_text("loadsgf ladder.sgf\n1 attack D4\n#? [0]\nloadsgf ladder.sgf\n2 defend D4\n")
    return tst


def test_the_commands_are_the_files_lines_then_quit(tmp_path):
    lines = bench.commands(str(_files(tmp_path)))
    sgf = os.path.join(str(tmp_path), "ladder.sgf")
    assert lines == [f"loadsgf {sgf}", "attack D4", f"loadsgf {sgf}", "defend D4", "quit"]


def test_each_engine_timed_in_parts(monkeypatch, capsys, tmp_path):
    """gogame and a stub engine, one run each: the parts add up, and only
    the second ``loadsgf`` counts as a loadsgf round trip."""
    tst = _files(tmp_path)
    other = f"{sys.executable} {tmp_path / 'stub.py'}"
    status = bench.main([str(tst), "--runs", "1", "--engine", other, "--json"])
    assert status == 0
    report = json.loads(capsys.readouterr().out)
    assert report["commands"] == 5 and set(report["runs"]) == {"gogame", other}
    for runs in report["runs"].values():
        first, rest, loads, total = (runs[k][0] for k in bench.KEYS)
        assert 0 < first and 0 <= loads <= rest
        assert first + rest <= total + 1e-3  # rounded to 0.1 ms
    assert report["medians"]["gogame"]["first"] == report["runs"]["gogame"]["first"][0]


def test_an_engine_that_dies_is_one_line(tmp_path):
    tst = _files(tmp_path)
    (tmp_path / "stub.py").write_text(ONE_ANSWER)
    argv = [sys.executable, str(tmp_path / "stub.py")]
    with pytest.raises(SystemExit, match="ended at 'attack D4'") as e:
        bench.one_run(argv, bench.commands(str(tst)))
    assert "\n" not in str(e.value)


def test_a_missing_file_is_one_line_and_status_2(capsys, tmp_path):
    assert bench.main([str(tmp_path / "none.tst")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "none.tst" in err


def test_the_floor_times_bare_starts_beside_the_engines(monkeypatch, capsys, tmp_path):
    """``--floor``: each bare process of FLOOR timed once a run, in the
    same loop as the engines; the text lines give its ratio to the other
    engine's whole run."""
    tst = _files(tmp_path)
    other = f"{sys.executable} {tmp_path / 'stub.py'}"
    monkeypatch.setattr(bench, "FLOOR", {"bare": [sys.executable, "-S", "-c", "pass"]})
    assert bench.main([str(tst), "--runs", "2", "--engine", other, "--floor", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert list(report["floor"]) == ["bare"] and len(report["floor"]["bare"]) == 2
    totals = report["runs"]["gogame"]["total"]
    assert all(0 < t < totals[i] for i, t in enumerate(report["floor"]["bare"]))
    assert bench.floor_lines({"bare": [0.1, 0.3, 0.2]}, 0.1) == [
        "bare: 0.200 s (0.100-0.300), 2.00x the other engine's whole run"
    ]


def test_without_floor_no_bare_process_runs(monkeypatch, capsys, tmp_path):
    tst = _files(tmp_path)
    other = f"{sys.executable} {tmp_path / 'stub.py'}"
    monkeypatch.setattr(bench, "floor_run", lambda argv: pytest.fail("a bare process ran"))
    assert bench.main([str(tst), "--runs", "1", "--engine", other, "--json"]) == 0
    assert "floor" not in json.loads(capsys.readouterr().out)
