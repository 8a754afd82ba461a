#!/usr/bin/env python3
"""Time ``replay --read`` at several thread counts, side by side in one process.

Contract
--------
For each of ``--runs`` rounds, the games are replayed with reading at 1
thread, then at each other count of ``--threads`` (default 2 and 4) for
each ``--window`` (positions a batch,
``gogame.tools.replay.WINDOW``), interleaved run by run.  Every trace is
compared with the serial one and the script stops with status 1 if one
differs.  One line a setting: the median and minimum of the replay
seconds, and the speed-up over 1 thread on each.  A warm-up replay runs
first, so no figure holds the compiler.  Nothing is written.

Usage: ``python3 scripts/bench_replay_threads.py sgf/gnugo-l1-19x19-s30[123].sgf
[--moves 60] [--window 16,32,64] [--runs 5]``
"""

import argparse
import statistics
import sys

from gogame.core import options
from gogame.tools import replay


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("games", nargs="+")
    p.add_argument("--moves", type=int, default=None, help="first N moves only")
    p.add_argument("--window", default=str(replay.WINDOW), help="comma list of window sizes")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--threads", default="1,2,4", help="comma list; 1 is always run first")
    args = p.parse_args(argv)
    until = None if args.moves is None else args.moves + 1
    windows = [int(w) for w in args.window.split(",")]
    counts = sorted({int(t) for t in args.threads.split(",")} - {1})
    settings = [(1, windows[0])] + [(t, w) for t in counts for w in windows]
    times = {k: [] for k in settings}
    replay.replay_games(args.games, read=replay.ReadSettings(threads=2), until=until)
    serial = None
    for _ in range(args.runs):
        for threads, window in settings:
            replay.WINDOW, trace = window, []
            report = replay.replay_games(
                args.games, read=replay.ReadSettings(threads=threads), trace=trace, until=until
            )
            times[(threads, window)].append(report["total"]["seconds"])
            serial = trace if serial is None else serial
            if trace != serial:
                print(f"trace differs at {threads} threads, window {window}", file=sys.stderr)
                return 1
    one = times[settings[0]]
    for (threads, window), v in times.items():
        ran = options.searchers(threads)  # replay runs no more threads than cores
        label = f"threads {threads}" + (f" (runs {ran}: the cores)" if ran != threads else "")
        print(
            f"{label} window {window:3d}: median {statistics.median(v):.3f} s "
            f"({statistics.median(one) / statistics.median(v):.2f}x), "
            f"min {min(v):.3f} s ({min(one) / min(v):.2f}x)"
        )
    print(f"trace lines: {len(serial)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
