#!/usr/bin/env python3
"""Time a whole .tst file piped through a fresh engine, split where it goes.

Contract
--------
Every command of the file (``loadsgf`` paths made absolute, test numbers
and ``#?`` lines dropped), then ``quit``, is sent to a fresh process of
each engine through ``gogame.gtp.client.GtpClient``, one command at a
time: each answer is awaited before the next command goes, so the clock
shows where the time goes.  Per run and
engine: ``first`` (start to the first answer: the process start, its
imports and the first command), ``rest`` (the first answer to the last),
``loadsgf`` (the round trips of the ``loadsgf`` commands after the
first) and ``total`` (start to exit).  The engines alternate run by run
(``--runs``, default 7); one line an engine gives the medians and
ranges, and the ratio of gogame's medians to the other engine's.

``--floor`` adds, in the same alternated runs, the whole wall time of
bare processes that only start Python and import what gogame needs
before its first answer (``FLOOR``: ``python3 -S -c pass``, ``import
numpy``, ``import numba``), with their ratio to the other engine's
whole run: what no ``gogame`` start can go below.

This is the README's end-to-end row (#20).  Not done: a warm numba cache
is assumed (run ``gogame warmup`` first), and nothing is checked in the
answers (``gogame regress`` judges them).  Nothing is written.

Usage: ``python3 scripts/bench_end_to_end.py [TST] [--runs 7]
[--engine "/usr/games/gnugo --mode gtp"] [--floor] [--json]``
"""

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time

from gogame.gtp.client import EngineError, GtpClient
from gogame.tools.regress import _resolve, parse_tst

TST = os.path.join(
    os.path.dirname(__file__), "..", "..", "shared", "regress", "gnugo", "reading.tst"
)
GOGAME = [sys.executable, "-m", "gogame", "gtp"]
KEYS = ("first", "rest", "loadsgf", "total")
# bare processes: Python alone, then each import gogame's start needs
FLOOR = {
    "python -S": [sys.executable, "-S", "-c", "pass"],
    "import numpy": [sys.executable, "-c", "import numpy"],
    "import numba": [sys.executable, "-c", "import numba"],
}


def commands(path):
    """The file's commands in order, then ``quit``."""
    folder = os.path.dirname(os.path.abspath(path))
    with open(path, encoding="utf-8", errors="replace") as f:
        items = parse_tst(f.read())
    lines = [_resolve(it[2] if it[0] == "setup" else it[3], folder) for it in items]
    return lines + ["quit"]


def one_run(argv, lines):
    """{first, rest, loadsgf, total} seconds of one fresh process."""
    t0 = time.perf_counter()
    marks, loads, line = [], 0.0, "its start"
    try:
        with GtpClient(argv) as engine:
            for i, line in enumerate(lines):
                engine.send(line)
                marks.append(time.perf_counter() - t0)
                if i and line.startswith("loadsgf"):
                    loads += marks[-1] - marks[-2]
    except EngineError:
        raise SystemExit(f"bench_end_to_end: {argv[0]} ended at {line!r}") from None
    total = time.perf_counter() - t0
    return {"first": marks[0], "rest": marks[-1] - marks[0], "loadsgf": loads, "total": total}


def floor_run(argv):
    """Wall seconds of one bare process, start to exit."""
    t0 = time.perf_counter()
    subprocess.run(argv, check=True, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    return time.perf_counter() - t0


def floor_lines(floors, other_total):
    """One line a bare process: its median, range and ratio to ``other_total``."""
    return [
        f"{name}: {statistics.median(v):.3f} s ({min(v):.3f}-{max(v):.3f}), "
        f"{statistics.median(v) / other_total:.2f}x the other engine's whole run"
        for name, v in floors.items()
    ]


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tst", nargs="?", default=TST)
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--engine", default="/usr/games/gnugo --mode gtp", help="the other engine")
    p.add_argument("--floor", action="store_true", help="time bare Python starts too")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if not os.path.exists(args.tst):
        print(f"bench_end_to_end: no such file: {args.tst}", file=sys.stderr)
        return 2
    lines = commands(args.tst)
    engines = {"gogame": GOGAME, args.engine: shlex.split(args.engine)}
    runs = {name: [] for name in engines}
    floors = {name: [] for name in (FLOOR if args.floor else {})}
    for _ in range(args.runs):
        for name, engine_argv in engines.items():
            runs[name].append(one_run(engine_argv, lines))
        for name in floors:
            floors[name].append(round(floor_run(FLOOR[name]), 4))
    report = {name: {k: [round(r[k], 4) for r in rs] for k in KEYS} for name, rs in runs.items()}
    medians = {n: {k: statistics.median(v[k]) for k in KEYS} for n, v in report.items()}
    if args.json:
        out = {"commands": len(lines), "runs": report, "medians": medians}
        print(json.dumps(out | ({"floor": floors} if floors else {})))
        return 0
    other = medians[args.engine]
    for name, med in medians.items():
        cells = [
            f"{k} {med[k]:.3f} s ({min(report[name][k]):.3f}-{max(report[name][k]):.3f}"
            + (f", {med[k] / other[k]:.2f}x)" if name == "gogame" and other[k] else ")")
            for k in KEYS
        ]
        print(f"{name}: " + "; ".join(cells))
    for line in floor_lines(floors, other["total"]):
        print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
