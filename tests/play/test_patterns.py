"""3x3 pattern weights (gogame.play.patterns) and scripts/learn_patterns.py:
the shipped file ranks good shape over bad, the table holds each weight at
all eight symmetries, the learning is deterministic, and the switch."""

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np

from gogame.kernel import playout as kp
from gogame.kernel.layout import BLACK
from gogame.kernel.pattern import PATTERN_CODES, code3x3
from gogame.play import patterns
from gogame.play.player import Player
from tests.helpers import diagrams
from tests.helpers.gtp import ok, setup_board

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "scripts" / "learn_patterns.py"

# Black to play at a.  Good shape: a hane (diagonal to an own stone, in
# front of the opponent's contact stone) and a cut (between two opponent
# stones diagonal to each other).  Bad: an empty triangle (own stones N and
# E, NE empty) and a first-line move with nothing near.
SHAPES = {
    "hane": """
        . . . . . . .
        . . . . . . .
        . . . a . . .
        . . X O . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .""",
    "cut": """
        . . . . . . .
        . . . . . . .
        . . O X . . .
        . . a O . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .""",
    "empty triangle": """
        . . . . . . .
        . . . . . . .
        . . X . . . .
        . . a X . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .""",
    "first line": """
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . . a . . .""",
}


def code_of(text, color=BLACK):
    d = diagrams.parse(text)
    p = diagrams.position(text)
    return code3x3(p.s, p.pos(d.marks["a"]), color)


def test_shipped_weights_rank_good_shape_over_bad():
    table = patterns.table()
    w = {name: float(table[code_of(text)]) for name, text in SHAPES.items()}
    assert min(w["hane"], w["cut"]) > 1.0 > max(w["empty triangle"], w["first line"]), w
    assert min(w["hane"], w["cut"]) > 10 * max(w["empty triangle"], w["first line"]), w


def test_the_shipped_file_is_small_package_data_with_its_provenance():
    text = patterns.DATA_FILE.read_text()
    assert len(text.encode()) < 64 * 1024
    head = [line for line in text.splitlines() if line.startswith("#")]
    assert any("scripts/learn_patterns.py" in line for line in head)
    assert any("sgf/corpus/*.sgf" in line for line in head)
    weights = patterns.read_weights()
    assert len(weights) >= 100
    assert all(patterns.canonical(c) == c for c in weights)
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    globs = data["tool"]["setuptools"]["package-data"]["gogame"]
    rel = patterns.DATA_FILE.relative_to(ROOT / "gogame")
    assert any(rel.match(g) for g in globs), globs


def test_table_spreads_each_weight_over_its_symmetries():
    code = code_of(SHAPES["hane"])
    table = patterns.table_of({patterns.canonical(code): 7.5})
    images = {patterns.transform(code, perm) for perm in patterns.SYMMETRIES}
    assert len(images) == 8  # the hane has no symmetry of its own
    assert all(table[c] == 7.5 for c in images)
    assert np.count_nonzero(table != patterns.NEUTRAL) == 8
    assert table.shape == (PATTERN_CODES,) and table.dtype == np.float32


def _learn(root, out):
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--root", str(root), "--out", str(out), "--min-seen", "1"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    return out.read_text()


def test_learning_is_deterministic_and_counts_add_up(tmp_path):
    """Two 9x9 games (one in sgf/, one in sgf/corpus/) learned twice: the
    same bytes; every pattern played no more often than seen; the plays
    add up to the positions the header names (one a learned move)."""
    (tmp_path / "sgf" / "corpus").mkdir(parents=True)
    games = sorted((ROOT / "sgf").glob("gnugo-l1-9x9-*.sgf"))[:2]
    shutil.copy(games[0], tmp_path / "sgf")
    shutil.copy(games[1], tmp_path / "sgf" / "corpus")
    first = _learn(tmp_path, tmp_path / "a.txt")
    assert _learn(tmp_path, tmp_path / "b.txt") == first
    rows = [line.split() for line in first.splitlines() if not line.startswith("#")]
    assert rows
    played = [int(r[1]) for r in rows]
    seen = [int(r[2]) for r in rows]
    assert all(p <= s for p, s in zip(played, seen, strict=True))
    positions = int(next(line for line in first.splitlines() if "positions" in line).split()[-2])
    assert "# games: 2 files" in first
    assert sum(played) == positions > 50
    codes = [int(r[0], 16) for r in rows]
    assert codes == sorted(codes) and all(patterns.canonical(c) == c for c in codes)


def test_pattern_priors_favour_the_hane_at_the_root():
    """The root's prior win rate (prior wins / prior visits) of the hane is
    above the empty triangle's with patterns on; off, the two are equal."""
    text = """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . X . .
        . . . . . . t X .
        . . . . . . . . .
        . . . h . . . . .
        . . X O . . . . .
        . . . . . . . . .
        . . . . . . . . ."""
    marks = diagrams.parse(text).marks
    position = diagrams.position(text)
    hane, triangle = position.pos(marks["h"]), position.pos(marks["t"])
    rates = {}
    for on in (True, False):
        player = Player(capacity=5000, patterns=on)
        player.search(position, BLACK, 7.5, max_playouts=1, decide=False)
        kids = player._children(0)
        prior = {
            int(player.links[c, 0]): player.stats[c, kp.S_PW] / player.stats[c, kp.S_PN]
            for c in kids
        }
        rates[on] = (prior[hane], prior[triangle])
    assert rates[True][0] > rates[True][1] + 0.2
    assert rates[False][0] == rates[False][1]


def test_gtp_switch_turns_patterns_off_and_on():
    e = setup_board("""
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        . . . . .""")
    assert "patterns on" in ok(e, "gogame-param")
    ok(e, "gogame-param patterns off")
    assert "patterns off" in ok(e, "gogame-param")
    ok(e, "genmove b")
    assert e.session.player.patterns is False
    ok(e, "gogame-param patterns on")
    assert e.session.player.patterns is True
