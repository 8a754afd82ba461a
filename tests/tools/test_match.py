"""scripts/match.py: who plays which colour, and the report, against two
stand-in engines (a few lines of Python that pass at once)."""

import json
import sys

import pytest

from tests.helpers.paths import load_script

match = load_script("match")

# A GTP engine named by its first argument: it passes, and as the black
# engine it counts every game a win for black.
PASSER = """
import sys
name = sys.argv[1]
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "quit":
        print("= \\n", flush=True)
        break
    answer = {"name": name, "version": "1", "genmove": "pass", "final_score": "B+1"}
    print("= " + answer.get(words[0], "") + "\\n", flush=True)
"""


@pytest.mark.parametrize(
    "a_color, a_black",
    [("alternate", [True, False, True]), ("black", [True] * 3), ("white", [False] * 3)],
)
def test_a_color_sets_who_plays_black(tmp_path, monkeypatch, capsys, a_color, a_black):
    engine = tmp_path / "passer.py"
    engine.write_text(PASSER)
    argv = ["--games", "3", "--size", "5", "--referee", "", "--json", "--a-color", a_color]
    argv += ["--engine-a", f"{sys.executable} {engine} A"]
    argv += ["--engine-b", f"{sys.executable} {engine} B", "--out", str(tmp_path / "out")]
    assert match.main(argv) == 0
    report = json.loads(capsys.readouterr().out)
    for i, black in enumerate(a_black):
        sgf = (tmp_path / "out" / f"match-5x5-{i + 1:03d}.sgf").read_text()
        assert ("PB[A 1]" in sgf) == black and ("PW[A 1]" in sgf) == (not black)
    # black wins every game (the black engine counts): A wins as black only
    assert report["a_wins"] == sum(a_black) == report["a_wins_as_black"]
    assert report["a_wins_as_white"] == 0 and report["protocol_errors"] == 0


def test_a_bad_colour_is_refused(capsys):
    with pytest.raises(SystemExit) as e:
        match.main(["--a-color", "red"])
    assert e.value.code != 0 and "invalid choice" in capsys.readouterr().err
