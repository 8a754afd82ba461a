#!/usr/bin/env python3
"""Where the player's first moves go on an empty board: a look at the opening.

Contract
--------
``python scripts/opening_moves.py [--games 4] [--moves 10] [--seconds 1]
[--size 19] [--json]`` plays ``games`` self-play openings of ``moves``
moves from an empty board (komi 6.5, ``seconds`` a move, a fresh
``play.session.Engine`` each) and counts the first four moves that land
in a corner's square (``player.corner_span`` lines from both edges) and
the moves on the first two lines.  Prints the counts and each game's
moves (GTP vertices), or one JSON object.  It describes the opening; it
does not measure strength (``scripts/match.py`` does).
"""

import argparse
import json

from gogame.core.coords import format_gtp
from gogame.play.player import corner_span, edge_lines
from gogame.play.session import Engine


def opening(size: int, moves: int, seconds: float) -> list:
    """One self-play opening: its moves, (row, col), until a pass."""
    session = Engine(size)
    session.komi = 6.5
    session.clock.default = seconds
    played = []
    for k in range(moves):
        decision = session.genmove("bw"[k % 2])
        if not isinstance(decision.move, tuple):
            break
        played.append(decision.move)
    return played


lines = edge_lines  # a point's lines from the two nearer edges, 1 on the edge


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=4)
    p.add_argument("--moves", type=int, default=10)
    p.add_argument("--seconds", type=float, default=1.0)
    p.add_argument("--size", type=int, default=19)
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    games = [opening(args.size, args.moves, args.seconds) for _ in range(args.games)]
    span = corner_span(args.size)
    first = [pt for game in games for pt in game[:4]]
    report = {
        "first_four_in_a_corner": sum(max(lines(args.size, pt)) <= span for pt in first),
        "first_four": len(first),
        "on_lines_1_2": sum(min(lines(args.size, pt)) <= 2 for game in games for pt in game),
        "moves": sum(len(game) for game in games),
        "games": [[format_gtp(pt) for pt in game] for game in games],
    }
    if args.json:
        print(json.dumps(report))
        return 0
    print(
        f"first four moves in a corner: {report['first_four_in_a_corner']} of "
        f"{report['first_four']}; on lines 1-2: {report['on_lines_1_2']} of {report['moves']}"
    )
    for game in report["games"]:
        print("  " + " ".join(game))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
