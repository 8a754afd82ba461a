"""scripts/profile_reading.py: the reading kernel's time a node on a .tst
file's questions, each read with an empty cache."""

import json
import sys

from gogame.tools.startup import PROBLEM_SGF
from tests.helpers.paths import load_script

profile_reading = load_script("profile_reading")


def _run(monkeypatch, capsys, *argv):
    monkeypatch.setattr(sys, "argv", ["profile_reading", *argv])
    status = profile_reading.main()
    return status, capsys.readouterr()


def test_the_same_nodes_each_pass_and_their_cost(monkeypatch, capsys, tmp_path):
    """Black's D4 with two liberties (the bench's ladder problem): the
    attack read twice and the defence once, the time over the nodes."""
    (tmp_path / "ladder.sgf").write_text(PROBLEM_SGF)
    (tmp_path / "t.tst").write_text(
        "loadsgf ladder.sgf\n1 attack D4\n#? [0]\n2 defend D4\n#? [1]\n3 attack D4\n#? [0]\n"
    )
    status, out = _run(monkeypatch, capsys, str(tmp_path / "t.tst"), "--runs", "2", "--json")
    assert status == 0
    report = json.loads(out.out)
    engine, groups = profile_reading.questions(str(tmp_path / "t.tst"))
    assert [len(asked) for _, asked in groups] == [3]
    once = profile_reading.one_pass(engine, groups)[1]
    assert report["nodes"] == once > 0  # each question from an empty cache
    assert profile_reading.one_pass(engine, groups, repeat=2)[1] == 2 * once
    assert report["us_per_node"] == report["seconds"] / report["nodes"] * 1e6


def test_a_missing_file_is_one_line_and_status_2(monkeypatch, capsys, tmp_path):
    status, out = _run(monkeypatch, capsys, str(tmp_path / "none.tst"))
    assert status == 2 and out.out == ""
    assert out.err.count("\n") == 1 and "none.tst" in out.err
