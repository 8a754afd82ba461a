#!/usr/bin/env python3
"""Learn 3x3 pattern weights from the project's recorded games.

    python3 scripts/learn_patterns.py            # writes gogame/play/data/patterns3x3.txt
    python3 scripts/learn_patterns.py --out /tmp/p.txt --root DIR

Contract:

* Games: ``ROOT/sgf/*.sgf`` and ``ROOT/sgf/corpus/*.sgf`` (ROOT: the
  repository by default), sorted by path, main lines only, read with the
  loader GTP ``loadsgf`` uses (``gogame.core.sgfio``) and replayed on a
  ``Position``.  Nothing else is read.
* Moves learned from: those of a player whose ``PB``/``PW`` name starts with
  ``--player`` (default ``GNU Go``: gogame's own moves in its games lost
  every one of them), or every move with ``--player ''``.  Passes, and
  moves that are not among the candidates, are skipped.
* For each such move: the candidates are the points a tree node would get
  as children (empty, legal, not an own eye: ``kernel.playout.candidate_codes``),
  each with its 3x3 pattern code (``kernel.pattern.code3x3``, the
  neighbours relative to the mover, atari flags on the orthogonal ones)
  made canonical over the eight symmetries (``play.patterns.canonical``).
  Each candidate counts once as seen and 1/n (n candidates) as expected:
  the plays a uniformly random choice would make; the move's pattern
  counts once as played.
* Weights: (played + S) / (expected + S), S = ``--smoothing`` (default 2),
  for the patterns seen at least ``--min-seen`` times (default 60), four
  significant digits.  The file lists code (hex), played, seen, weight, in
  code order, after a header of ``#`` lines naming the games (their count
  and the SHA-256 of their paths and bytes), the positions and the command.
  The same games give the same file, byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import sys
from pathlib import Path

import numpy as np
from sgfmill import sgf

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # this repository's gogame, whatever is installed

from gogame.core.position import Position  # noqa: E402
from gogame.core.sgfio import il_is_ko, load_game, read_sgf_bytes  # noqa: E402
from gogame.kernel import playout as kp  # noqa: E402
from gogame.kernel.layout import MAXPOS  # noqa: E402
from gogame.kernel.pattern import PATTERN_CODES, code3x3  # noqa: E402
from gogame.play import patterns  # noqa: E402


def game_files(root: Path) -> list[Path]:
    """``sgf/*.sgf`` and ``sgf/corpus/*.sgf`` under ``root``, sorted."""
    return sorted([*root.glob("sgf/*.sgf"), *root.glob("sgf/corpus/*.sgf")])


def learned_colors(data: bytes, prefix: str) -> set[int]:
    """The colours (1 black, 2 white) whose player name starts with ``prefix``."""
    if not prefix:
        return {1, 2}
    root = sgf.Sgf_game.from_bytes(data).get_root()
    out = set()
    for color, prop in ((1, "PB"), (2, "PW")):
        if root.has_property(prop) and root.get(prop).startswith(prefix):
            out.add(color)
    return out


def replay(path: Path, colors: set[int], canon: np.ndarray, sink: dict) -> int:
    """Replay one game and add its learned moves to ``sink``; return how many."""
    game = load_game(path)
    position = Position(game.size)
    pts = np.zeros(MAXPOS, np.int32)
    codes = np.zeros(MAXPOS, np.int64)
    learned = 0
    for ev in game.events:
        if ev[0] == "setup":
            position.setup(ev[1])
        elif ev[0] == "ko":
            if il_is_ko(position, ev[1]):
                position.set_ko(ev[1])
        else:
            _, pt, color, _ = ev
            if pt is not None and color in colors:
                learned += _learn(position, pt, color, pts, codes, canon, sink)
            position.play(pt, color)
    return learned


def _learn(position, pt, color, pts, codes, canon, sink):
    pos = position.pos(pt)
    n = kp.candidate_codes(position.s, color, pts, codes)
    if n == 0 or pos not in pts[:n]:
        return 0
    c, share, played = patterns.counts_of_position(
        codes[:n], code3x3(position.s, pos, color), canon
    )
    sink["codes"].append(c)
    sink["shares"].append(share)
    sink["played"].append(played)
    return 1


def learn(files: list[Path], prefix: str) -> tuple[dict, int]:
    """Counts over ``files``: {"played", "seen", "expected"} arrays indexed
    by canonical code, and the number of positions learned from."""
    canon = patterns.canonical_table()
    sink = {"codes": [], "shares": [], "played": []}
    for path in files:
        replay(path, learned_colors(read_sgf_bytes(path), prefix), canon, sink)
    allc = np.concatenate(sink["codes"]) if sink["codes"] else np.zeros(0, np.int64)
    shares = np.concatenate(sink["shares"]) if sink["shares"] else np.zeros(0)
    counts = {
        "played": np.bincount(np.array(sink["played"], np.int64), minlength=PATTERN_CODES),
        "seen": np.bincount(allc, minlength=PATTERN_CODES),
        "expected": np.bincount(allc, weights=shares, minlength=PATTERN_CODES),
    }
    return counts, len(sink["played"])


def digest(files: list[Path], root: Path) -> str:
    """SHA-256 of the games' paths (relative to ``root``) and bytes."""
    h = hashlib.sha256()
    for path in files:
        h.update(path.relative_to(root).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()


def render(rows, files, root, positions, args) -> str:
    """The file's text: header comments, then one line a pattern."""
    who = f"moves of players named {args.player!r}..." if args.player else "every move"
    head = [
        "# 3x3 pattern weights for gogame (gogame/play/patterns.py reads this file)",
        "# made by: python3 scripts/learn_patterns.py"
        + f" --min-seen {args.min_seen} --smoothing {args.smoothing:g}"
        + (f" --player {args.player!r}" if args.player != "GNU Go" else ""),
        f"# games: {len(files)} files, sgf/*.sgf and sgf/corpus/*.sgf of the repository,"
        + f" sha256 {digest(files, root)}",
        f"# learned from {who}: {positions} positions",
        "# weight = (played + S) / (expected + S), expected = the plays of a uniformly",
        "# random choice among each position's candidates; 1.0 for patterns not listed",
        "# code (hex, canonical) played seen weight",
    ]
    body = [f"{code:05x} {p} {s} {w:.4g}" for code, p, s, w in rows]
    return "\n".join(head + body) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", type=Path, default=REPO, help="repository root (default: this one)")
    ap.add_argument("--out", type=Path, default=patterns.DATA_FILE)
    ap.add_argument("--player", default="GNU Go", help="learn moves of this player ('': all)")
    ap.add_argument("--min-seen", type=int, default=60)
    ap.add_argument("--smoothing", type=float, default=2.0)
    args = ap.parse_args(argv)
    root = args.root.resolve()
    files = game_files(root)
    if not files:
        print(f"no games under {root}/sgf", file=sys.stderr)
        return 1
    counts, positions = learn(files, args.player)
    rows = patterns.weights_of_counts(
        counts["played"], counts["seen"], counts["expected"], args.min_seen, args.smoothing
    )
    text = render(rows, files, root, positions, args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_name(args.out.name + ".tmp")
    tmp.write_text(text)
    os.replace(tmp, args.out)
    print(f"{args.out}: {len(rows)} patterns from {positions} positions of {len(files)} games")
    return 0


if __name__ == "__main__":
    sys.exit(main())
