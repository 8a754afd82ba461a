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


def test_numba_symbols_are_named_module_dot_function():
    mangled = "_ZN6gogame6kernel7reading5_readB3v16B40c8tJTIeFIjxB2IKSgI4CrvSCKg1E5ArrayIiLi1E"
    assert profile_reading.short_name(mangled) == "reading._read"
    assert profile_reading.short_name("_ZN7cpython6gogame6kernel5board9push_moveB4v2") == (
        "board.push_move"
    )
    assert profile_reading.short_name("_PyEval_EvalFrameDefault") == "_PyEval_EvalFrameDefault"


def test_samples_are_counted_by_innermost_frame(monkeypatch, tmp_path):
    """Two objects loaded at 0x1000 and 0x9000: a sample outside both is not
    the kernel's; each inside one counts for its innermost (inlined) frame."""
    index = [[0x1000, 0x2000, "a.o"], [0x9000, 0x9100, "b.o"]]
    (tmp_path / "index.json").write_text(json.dumps(index))
    asked = []

    def frames(path, offsets):
        asked.append((path, offsets))
        inner = ("board.libs_after", "/x/gogame/kernel/board.py:648")
        outer = ("reading._order", "/x/gogame/kernel/reading.py:1398")
        return [[inner, outer] if path == "a.o" else [outer] for _ in offsets]

    monkeypatch.setattr(profile_reading, "frames", frames)
    total, functions, lines = profile_reading.attribute([0x1004, 0x1008, 0x9010, 0x5000], tmp_path)
    assert sorted(asked) == [("a.o", [4, 8]), ("b.o", [0x10])]
    assert total == 3
    assert functions == {"board.libs_after": 2, "reading._order": 1}
    assert lines == {"kernel/board.py:648": 2, "kernel/reading.py:1398": 1}


def test_lines_without_objects_is_one_line_and_status_2(monkeypatch, capsys, tmp_path):
    (tmp_path / "ips").write_text("0x1000\n")
    status, out = _run(monkeypatch, capsys, "--lines", str(tmp_path / "ips"))
    assert status == 2 and out.out == ""
    assert out.err.count("\n") == 1 and "--objects" in out.err
