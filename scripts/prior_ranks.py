#!/usr/bin/env python3
"""Where a player's moves stand in the tree's prior order: what progressive
widening would admit.

Contract
--------
``python scripts/prior_ranks.py GAME.sgf... [--player "GNU Go"] [--json]``
replays each game and, before every move by the player whose name
starts with ``--player``, gives the position's tree children the way a
new node gets them with widening on (``kernel.playout.expand`` with the
3x3 pattern priors, in ``prior_order`` after the move before), then finds
the move played among them.  Prints the moves counted, the median rank
(1 = first) and children, and the share of moves among the first 5, 8,
12 and 22 (``widened`` at 0, 85, 300 and 4,000 real visits), or one JSON
object.  Root priors (tactics, opening) are left out, as at every node
below the root.  Passes, and moves that are not tree children (own eyes),
are not counted.
"""

import argparse
import json
import statistics

import sgfmill.sgf as sgf

from gogame.core.position import Position
from gogame.core.sgfio import parse_game, read_sgf_bytes
from gogame.kernel import playout as kp
from gogame.kernel.layout import BLACK, PASS, WHITE
from gogame.play import patterns
from gogame.play.player import PATTERN_PRIOR_VISITS

FIRST = (5, 8, 12, 22)


def children(position: Position, color: int, last: int) -> list[int]:
    """The kernel points of a new node's children, in prior order."""
    links, stats, meta = kp.new_tree(position.size**2 + 1)
    meta[kp.M_NODES] = 1
    meta[kp.M_PAT_PRIOR] = PATTERN_PRIOR_VISITS
    meta[kp.M_WIDEN] = 1
    kp.expand(position.s, links, stats, meta, 0, color, patterns.table(), last)
    first, k = int(links[0, 1]), int(links[0, 2])
    return links[first : first + k, 0].tolist()


def movers(data: bytes, player: str) -> set[int]:
    """The colours whose player's name (PB, PW) starts with ``player``."""
    root = sgf.Sgf_game.from_bytes(data)
    return {
        BLACK if c == "b" else WHITE
        for c in "bw"
        if (root.get_player_name(c) or "").startswith(player)
    }


def ranks(path: str, player: str) -> list[tuple[int, int]]:
    """(rank from 0, children) of each counted move of ``player`` in one
    game, its main line replayed as ``loadsgf`` does (``core.sgfio``: setup
    stones and handicap too)."""
    data = read_sgf_bytes(path)
    mover, game = movers(data, player), parse_game(data, path)
    position = Position(game.size)
    last, out = PASS, []
    for event in game.events:
        if event[0] == "setup":
            position.setup(event[1])
        if event[0] != "move":
            continue
        _, move, color, _ = event
        if move is not None and color in mover:
            order = children(position, color, last)
            if position.pos(move) in order:
                out.append((order.index(position.pos(move)), len(order)))
        position.play(move, color)
        last = position.pos(move) if move is not None else PASS
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("games", nargs="+")
    ap.add_argument("--player", default="GNU Go")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    found = [r for path in args.games for r in ranks(path, args.player)]
    if not found:
        raise SystemExit(f"prior_ranks: no move by a player named {args.player!r}")
    out = {
        "moves": len(found),
        "median_rank": statistics.median(r + 1 for r, _ in found),
        "median_children": statistics.median(k for _, k in found),
        "share_among_first": {str(n): sum(r < n for r, _ in found) / len(found) for n in FIRST},
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['moves']} moves, median rank {out['median_rank']} of {out['median_children']}")
    for n, share in out["share_among_first"].items():
        print(f"  among the first {n}: {100 * share:.1f} %")


if __name__ == "__main__":
    main()
