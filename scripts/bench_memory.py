#!/usr/bin/env python3
"""Peak memory of ``gogame gtp --cache-mb M``: the budget bounds the cache.

Contract
--------
``python scripts/bench_memory.py [--mb 1,4,16,64,256,1024] [--hash double] [--json]``
runs, after one warm-up run (numba compiling would inflate the first
measurement), for M = 0 (the baseline) and each M given, one ``gogame gtp
--cache-mb M --hash H`` process under ``/usr/bin/time -v`` and drives it over
pipes: ``loadsgf`` of a 19x19 game from ``sgf/`` at move 60, ``attack`` on
its first strings (filling the cache), ``clear_cache`` -- which writes every
word of the table, so every page of it is resident (numpy's zeros are mapped
lazily and would otherwise hide the cost) -- the attacks again,
``cache_stats`` and ``quit``.  The peak RSS is GNU time's "Maximum resident
set size".  Prints a table (M, table MB allocated, peak RSS MB, RSS minus the
baseline) and checks, for each M, peak RSS <= M + baseline + slack, where
the slack (default 4 MB) absorbs run-to-run noise.  Exits 1 when a check
fails, 2 when /usr/bin/time is missing (``apt-get install -y time``).

A non-zero exit status after ``quit`` (the whole session answered) is
reported as a warning on stderr; the peak stays valid.  Not measured:
threads, the ``full`` scheme unless asked (``--hash full``),
and ``gogame replay --read`` (the same ReadingCache).  MB are MiB (2**20).
"""

import argparse
import json
import os
import pathlib
import re
import sys
import tempfile
import time

from gogame.core import options
from gogame.gtp.client import GtpClient

ROOT = pathlib.Path(__file__).resolve().parent.parent
TIME = "/usr/bin/time"
GAME = ROOT / "sgf" / "gnugo-l1-19x19-s301.sgf"
ATTACKS = 12


def session(engine):
    """The command sequence; returns cache_stats as a dict.  A ``?`` answer
    raises GtpError."""
    engine.ask(f"loadsgf {GAME} 60")
    strings = [w.split()[0] for w in engine.ask("worm_stones").splitlines() if w.strip()]
    targets = strings[:ATTACKS]
    for v in targets:
        engine.ask(f"attack {v}")
    engine.ask("clear_cache")
    for v in targets:
        engine.ask(f"attack {v}")
    stats = dict(line.split(" ", 1) for line in engine.ask("cache_stats").splitlines())
    engine.ask("quit")
    return stats


def measure(mb, scheme):
    """(peak RSS in MB, cache_stats) of one run with budget ``mb``."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as out:
        cmd = [
            TIME,
            "-v",
            "-o",
            out.name,
            sys.executable,
            "-m",
            "gogame",
            "gtp",
            "--cache-mb",
            str(mb),
            "--hash",
            scheme,
        ]
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        engine = GtpClient(cmd, env=env, cwd=ROOT)
        try:
            stats = session(engine)
        finally:
            returncode = engine.close(timeout=300)
        report = out.read()
    m = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    if not m:
        raise RuntimeError(f"gogame gtp --cache-mb {mb} failed:\n{report}")
    if returncode != 0:  # after a full session: the peak is still valid
        print(
            f"bench_memory: warning: gogame gtp --cache-mb {mb} exited with status "
            f"{returncode} after quit",
            file=sys.stderr,
        )
    return int(m.group(1)) / 1024, stats


def run(budgets, scheme, slack):
    """Rows for the baseline (M = 0) and each budget; see the contract."""
    measure(0, scheme)  # warm-up: fills numba's cache, not counted
    base, _ = measure(0, scheme)
    rows = [
        {
            "mb": 0,
            "table_mb": 0.0,
            "peak_rss_mb": round(base, 1),
            "over_baseline_mb": 0.0,
            "bound_mb": round(base + slack, 1),
            "ok": True,
        }
    ]
    for mb in budgets:
        t0 = time.perf_counter()
        peak, stats = measure(mb, scheme)
        table = int(stats["bytes_allocated"]) / 2**20
        rows.append(
            {
                "mb": mb,
                "table_mb": round(table, 2),
                "peak_rss_mb": round(peak, 1),
                "over_baseline_mb": round(peak - base, 1),
                "bound_mb": round(mb + base + slack, 1),
                "ok": table <= mb and peak <= mb + base + slack,
                "entries_in_use": int(stats["entries_in_use"]),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
    return rows


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--mb", default="1,4,16,64,256,1024", help="budgets in MB, comma-separated")
    p.add_argument("--hash", choices=options.SCHEMES, default="double")
    p.add_argument("--slack", type=float, default=4.0, help="MB of noise allowed (default 4)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if not os.access(TIME, os.X_OK):
        print(f"bench_memory: {TIME} is missing (apt-get install -y time)", file=sys.stderr)
        return 2
    rows = run([float(x) for x in args.mb.split(",")], args.hash, args.slack)
    if args.json:
        print(json.dumps(rows, indent=1))
    else:
        print(
            f"{'M (MB)':>7} {'table MB':>9} {'peak RSS MB':>12} {'RSS - base':>11} {'bound':>8}  ok"
        )
        for r in rows:
            print(
                f"{r['mb']:7g} {r['table_mb']:9.2f} {r['peak_rss_mb']:12.1f} "
                f"{r['over_baseline_mb']:11.1f} {r['bound_mb']:8.1f}  {r['ok']}"
            )
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
