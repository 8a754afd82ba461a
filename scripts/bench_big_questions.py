#!/usr/bin/env python3
"""One big reading question on 1, 2 and 4 threads: speed-up by problem size.

Contract
--------
The hard problems of ``gogame/data/hard_problems.json`` are read at the
level-10 depths raised by ``--depth-offset`` (default 6, as GNU Go's
``increase_depths`` six times), which makes most of them need 100 k to
1 M serial nodes.  A problem is kept when its serial search needs at
least ``--min-nodes`` (default 100,000).  Each kept problem is then read
``--runs`` times at every thread count, the counts interleaved run by
run, with the cache cleared before each read (64 MB, ``double``).  Per
problem the median seconds are taken; per size class (100 k-300 k,
300 k-1 M, >= 1 M serial nodes) the script prints the summed medians,
the speed-up over one thread and the node overhead.  An answer that
differs from the serial one stops the script with status 1.  Nothing
is written.

Usage: ``python3 scripts/bench_big_questions.py [--threads 1,2,4] [--runs 3]``
"""

import argparse
import statistics
import sys
import time

from gogame.core.coords import parse_gtp
from gogame.core.reader import Reader
from gogame.core.reading_cache import ReadingCache
from gogame.tools.bench import load_problems, problem_position

CLASSES = ((100_000, "100k-300k"), (300_000, "300k-1M"), (1_000_000, ">=1M"))


def read(problem, position, threads, offset):
    """(seconds, nodes, answer) of one read on a fresh cache."""
    reader = Reader(cache=ReadingCache(64), threads=threads)
    reader.depth_offset = offset
    ask = reader.attack if problem["question"] == "attack" else reader.find_defense
    t0 = time.perf_counter()
    answer = ask(position, parse_gtp(problem["target"], problem["size"]))
    return time.perf_counter() - t0, reader.nodes, answer


def size_class(nodes):
    name = None
    for low, label in CLASSES:
        if nodes >= low:
            name = label
    return name


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", default="1,2,4")
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--depth-offset", type=int, default=6)
    p.add_argument("--min-nodes", type=int, default=100_000)
    args = p.parse_args(argv)
    counts = [int(t) for t in args.threads.split(",")]
    kept = []
    for problem in load_problems():
        position = problem_position(problem)
        _, nodes, answer = read(problem, position, 1, args.depth_offset)
        if nodes >= args.min_nodes:
            kept.append((problem, position, nodes, answer))
    table = {}  # (class, threads) -> [seconds medians, nodes]
    for problem, position, serial_nodes, answer in kept:
        times = {n: [] for n in counts}
        nodes = dict.fromkeys(counts, 0)
        for _ in range(args.runs):
            for n in counts:
                sec, nodes[n], got = read(problem, position, n, args.depth_offset)
                if got != answer:
                    print(f"{problem['source']}: {got} at {n} threads, {answer} alone")
                    return 1
                times[n].append(sec)
        for key in (size_class(serial_nodes), "all"):
            for n in counts:
                row = table.setdefault((key, n), [0.0, 0, 0])
                row[0] += statistics.median(times[n])
                row[1] += nodes[n]
                row[2] += 1
    print(f"{len(kept)} problems, depth offset {args.depth_offset}, {args.runs} runs, medians")
    for label in [c for _, c in CLASSES] + ["all"]:
        if (label, counts[0]) not in table:
            continue
        base = table[(label, counts[0])]
        cells = []
        for n in counts:
            sec, nodes, k = table[(label, n)]
            cells.append(f"{n}t {sec:.3f}s {base[0] / sec:.2f}x +{nodes / base[1] - 1:.0%} nodes")
        head = f"{label:>9} ({base[2]:2d} problems, {base[1] / 1e6:.1f} M nodes): "
        print(head + " | ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
