#!/usr/bin/env python3
"""Find hard reading problems in game records, for ``gogame bench threads``.

At every ``--every``-th move of each game, every string with at most three
liberties is attacked (and, when it can be captured, defended) by the serial
reader with a fresh cache; a question that needs at least ``--min-nodes``
reading nodes (and at most ``--max-nodes``, so the benchmark stays short)
becomes a problem.  The output is JSON: a list of problems, each with the
board as rows (top row first, ``X`` black, ``O`` white, ``.`` empty), the
ko point, the question, the target string, the serial node count and the
source (file and move number).  The problems are data this project made.

    python3 scripts/find_hard_problems.py sgf/gnugo-l1-*.sgf -o gogame/data/hard_problems.json
"""

import argparse
import json
import os
import sys

import numpy as np

from gogame.core.coords import format_gtp
from gogame.core.position import Position
from gogame.core.reader import Reader
from gogame.core.reading_cache import ReadingCache
from gogame.core.sgfio import SgfError, apply_game, load_game
from gogame.kernel import board as kb
from gogame.kernel.layout import MAXPOS


def board_rows(position):
    """The board as text rows, top row first."""
    size = position.size
    return [
        "".join(".XO"[position.color_at((row, col))] for col in range(size))
        for row in range(size - 1, -1, -1)
    ]


def hard_questions(position, reader, lo, hi):
    """(routine, pt, nodes) of each question at this position that needs
    ``lo`` <= nodes <= ``hi`` with an empty cache."""
    names = np.zeros(MAXPOS, np.int32)
    n = kb.list_strings(position.s, 3, names)
    for pos in names[:n]:
        pt = position.pt(pos)
        for routine in ("attack", "defend"):
            reader.cache.clear()
            reader.nodes = 0
            ask = reader.attack if routine == "attack" else reader.find_defense
            code, _ = ask(position, pt)
            if lo <= reader.nodes <= hi:
                yield routine, pt, reader.nodes
            if routine == "attack" and code == 0:
                break


def scan(path, every, lo, hi, out):
    game = load_game(path)
    position = Position(game.size)
    reader = Reader(cache=ReadingCache(8.0, size=game.size), node_limit=hi + 1)

    def after(number):
        if number % every:
            return
        for routine, pt, nodes in hard_questions(position, reader, lo, hi):
            ko = position.ko
            out.append(
                {
                    "source": f"{os.path.relpath(path)} move {number}",
                    "size": game.size,
                    "board": board_rows(position),
                    "ko": format_gtp(ko) if ko is not None else None,
                    "question": routine,
                    "target": format_gtp(pt),
                    "serial_nodes": nodes,
                }
            )
            print(f"{path} {number} {routine} {format_gtp(pt)} {nodes}", file=sys.stderr)

    apply_game(game, position, after_move=after)


def spread(problems, per_size):
    """At most ``per_size`` problems of each board size, evenly spaced in
    file order (so every game and stage keeps a share)."""
    out = []
    for size in sorted({p["size"] for p in problems}):
        same = [p for p in problems if p["size"] == size]
        step = max(1.0, len(same) / per_size)
        out += [same[int(i * step)] for i in range(min(per_size, len(same)))]
    return out


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("games", nargs="+")
    p.add_argument("--every", type=int, default=5, help="examine every N-th move (default 5)")
    p.add_argument("--min-nodes", type=int, default=20_000)
    p.add_argument("--max-nodes", type=int, default=1_500_000)
    p.add_argument(
        "--per-size",
        type=int,
        default=40,
        help="keep at most this many problems per board size (default 40)",
    )
    p.add_argument("-o", "--output", required=True)
    args = p.parse_args(argv)
    found = []
    for path in args.games:
        try:
            scan(path, args.every, args.min_nodes, args.max_nodes, found)
        except SgfError as e:
            print(f"skipped: {e}", file=sys.stderr)
    found = spread(found, args.per_size)
    with open(args.output, "w") as f:
        json.dump(found, f, indent=1)
        f.write("\n")
    print(f"{len(found)} problems -> {args.output}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
