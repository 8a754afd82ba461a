#!/usr/bin/env python3
"""Write the positions a GNU Go regression file loads as problem records.

Contract
--------
Each ``loadsgf PATH [N]`` line of every FILE.tst names a position: the
game at PATH (relative to the .tst file's folder, as GNU Go reads it)
played to its end, or up to move N (the position before move N).  Each
is written once to ``OUT/<PATH, '/' as '__', less .sgf>-m<N>.sgf`` (N 0
for the whole line) as setup stones with the colour to move and a ko
point (``mine.position_sgf``), so that ``gogame mine`` asks exactly that
position (a problem record is examined at its setup, as move 0).  With
``--exclude T.tst`` the paths T loads are left out (reading.tst, which
judges the reader, must never feed its development set).

A game that is missing or cannot be played is named on stderr and
skipped, and the exit status is then 1; a bad argument exits 2.  Only the
main line is read; GNU Go's other ``loadsgf`` options are ignored.

Usage: ``python3 scripts/tst_positions.py FILE.tst [...] --out DIR
[--exclude T.tst ...]``
"""

import argparse
import os
import sys

from gogame.core.position import Position
from gogame.core.sgfio import SgfError, apply_game, load_game
from gogame.tools.mine import position_sgf
from gogame.tools.regress import parse_tst


def loads(tst):
    """The ``loadsgf`` lines of a .tst file (read as ``gogame regress``
    reads it), in order: (path joined to the file's folder, the path as
    written, move 0 when none is given)."""
    folder = os.path.dirname(os.path.abspath(tst))
    with open(tst, encoding="utf-8", errors="replace") as f:
        items = parse_tst(f.read())
    pairs = []
    for item in items:
        words = item[2].split() if item[0] == "setup" else []
        if len(words) >= 2 and words[0] == "loadsgf":
            move = int(words[2]) if len(words) > 2 and words[2].isdigit() else 0
            rel = os.path.normpath(words[1])
            pairs.append((os.path.join(folder, rel), rel, move))
    return pairs


def record_name(rel, move):
    """``<path as written, '/' as '__', less .sgf>-m<N>.sgf``."""
    stem = rel[:-4] if rel.endswith(".sgf") else rel
    return f"{stem.replace(os.sep, '__')}-m{move}.sgf"


def write_position(game, move, out_file):
    """``game``'s position before ``move`` (0: after its last) as a
    problem record; raises SgfError (an illegal move) or OSError."""
    position = Position(game.size)
    to_move = apply_game(game, position, move if move > 0 else None)
    comment = f"loadsgf {os.path.basename(game.path)} {move}"
    with open(out_file, "w") as f:
        f.write(position_sgf(position, to_move, comment))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("tst", nargs="+", metavar="FILE.tst")
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--exclude", action="append", default=[], metavar="T.tst")
    args = p.parse_args(argv)
    try:
        excluded = {path for t in args.exclude for path, _, _ in loads(t)}
        pairs = [pair for t in args.tst for pair in loads(t)]
    except OSError as e:
        p.error(str(e))
    os.makedirs(args.out, exist_ok=True)
    done, games, failed = set(), {}, 0
    for path, rel, move in pairs:
        name = record_name(rel, move)
        if path in excluded or name in done:
            continue
        done.add(name)
        try:
            if path not in games:  # a game many positions load is read once
                games[path] = load_game(path)
            write_position(games[path], move, os.path.join(args.out, name))
        except (SgfError, OSError) as e:
            failed += 1
            done.discard(name)
            print(f"tst_positions: skipped {path}: {e}", file=sys.stderr)
    print(f"{len(done)} positions written to {args.out}, {failed} skipped")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
