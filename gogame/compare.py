"""``gogame compare``: reading traces and cost across cache schemes and budgets.

Every (scheme, MB) combination replays the games with a fresh ``Reader`` and
``ReadingCache`` (``replay.replay_games`` with a reader and a trace).  The
traces must be identical: a cache may only change how much is read, never
the answers.  The report gives, per run, the table's capacity and entry size,
reading nodes, cache hits, detected collisions and seconds, and the memory
equivalence: for each ``full`` budget, the smallest ``double`` budget whose
node count is at most that full run's (the 2002 patch found about a quarter).

This module is light to import (``cli`` builds its parser from it); the
kernel loads when ``run_compare`` runs.  Exit status: 0 when the traces are
identical and every game was replayed, 1 otherwise.
"""
import argparse
import json
import sys

# ----------------------------------------------------------------- options
def comma_list(item):
    """An argparse type: a comma-separated list of ``item`` values, in the
    order given, duplicates dropped; an empty item is refused."""
    def parse(text):
        out = []
        for part in text.split(","):
            part = part.strip()
            if not part:
                raise argparse.ArgumentTypeError(f"empty item in list {text!r}")
            value = item(part)
            if value not in out:
                out.append(value)
        return out
    return parse


def scheme(text):
    from .cache import SCHEME_NAMES
    if text not in SCHEME_NAMES:
        raise argparse.ArgumentTypeError(
            f"unknown hash scheme {text!r} (choose from {', '.join(SCHEME_NAMES)})")
    return text


def add_arguments(p, budget, bits):
    """The ``compare`` options; ``budget`` and ``bits`` are cli's validators."""
    p.add_argument("games", nargs="+", metavar="GAME.sgf")
    p.add_argument("--hash", type=comma_list(scheme), default="full,double",
                   metavar="S1,S2", help="cache key schemes (default full,double)")
    p.add_argument("--cache-mb", type=comma_list(budget), default="0.25,1,4,16",
                   metavar="MB1,MB2", help="cache budgets in MB (default 0.25,1,4,16)")
    p.add_argument("--hash-bits", type=bits, default=64, metavar="K",
                   help="use only K bits of hash word 0 (collision experiment)")
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")


# ------------------------------------------------------------ pure parts
def label(scheme, mb):
    return f"{scheme}/{mb:g}MB"


def first_difference(traces):
    """``traces``: [(label, lines)].  None when all are identical, else the
    first line number (from 1) where some run differs from the first run,
    with that line (None past the end) of the first run and of each run
    that differs there."""
    if not traces:
        return None
    base_label, base = traces[0]
    best = None
    for name, lines in traces[1:]:
        if lines == base:
            continue
        i = next((k for k, (a, b) in enumerate(zip(base, lines)) if a != b),
                 min(len(base), len(lines)))
        if best is None or i < best:
            best = i
    if best is None:
        return None

    def at(lines):
        return lines[best] if best < len(lines) else None
    runs = [{"run": base_label, "line": at(base)}]
    runs += [{"run": name, "line": at(lines)} for name, lines in traces[1:]
             if at(lines) != at(base)]
    return {"line": best + 1, "runs": runs}


def memory_equivalence(runs):
    """For each ``full`` run (by budget): the smallest ``double`` budget whose
    node count is <= the full run's, and double MB / full MB (None where the
    full budget is 0).  ``double_mb`` None: none of the budgets tried;
    ``smallest_tried``: it is the smallest double budget tried, so the ratio
    is only an upper bound."""
    doubles = sorted((r for r in runs if r["hash"] == "double"), key=lambda r: r["cache_mb"])
    out = []
    for f in sorted((r for r in runs if r["hash"] == "full"), key=lambda r: r["cache_mb"]):
        d = next((r for r in doubles if r["nodes"] <= f["nodes"]), None)
        out.append({"full_mb": f["cache_mb"], "full_nodes": f["nodes"],
                    "double_mb": d["cache_mb"] if d else None,
                    "double_nodes": d["nodes"] if d else None,
                    "ratio": (d["cache_mb"] / f["cache_mb"]
                              if d is not None and f["cache_mb"] > 0 else None),
                    "smallest_tried": d is not None and d is doubles[0]})
    return out


# --------------------------------------------------------------- running
def run_compare(games, schemes, budgets, hash_bits=64):
    """Every (scheme, MB) over ``games``, in that order; the result dict."""
    from .cache import ReadingCache
    from .reading import Reader
    from .replay import replay_games
    runs, traces, errors = [], [], None
    for s in schemes:
        for mb in budgets:
            reader = Reader(cache=ReadingCache(mb, s, hash_bits))
            trace = []
            report = replay_games(games, reader=reader, trace=trace)
            t, c = report["total"], report["total"]["cache"]
            runs.append({"hash": s, "cache_mb": mb, "capacity": c["capacity"],
                         "bytes_per_entry": c["bytes_per_entry"], "nodes": t["nodes"],
                         "hits": c["hits"], "probes": c["probes"],
                         "collisions": c["collisions"], "seconds": t["seconds"],
                         "trace_lines": len(trace)})
            traces.append((label(s, mb), trace))
            if errors is None:
                errors = [{"file": g["file"], "error": g["error"]}
                          for g in report["games"] if g["error"]]
    diff = first_difference(traces)
    return {"games": len(games), "hash_bits": hash_bits, "errors": errors or [],
            "identical": diff is None, "first_difference": diff, "runs": runs,
            "equivalence": memory_equivalence(runs)}


def _mb(x):
    return "-" if x is None else f"{x:g}"


def format_compare(result):
    lines = []
    diff = result["first_difference"]
    if diff is None:
        lines.append(f"traces: no differences across {len(result['runs'])} runs "
                     f"({result['runs'][0]['trace_lines'] if result['runs'] else 0} lines each)")
    else:
        lines.append(f"traces: DIFFER, first at line {diff['line']}:")
        for r in diff["runs"]:
            lines.append(f"  {r['run']:>16}: {r['line'] if r['line'] is not None else '(end of trace)'}")
    lines.append(f"{'scheme':8} {'MB':>8} {'capacity':>10} {'B/entry':>7} {'nodes':>11} "
                 f"{'hits':>10} {'collisions':>10} {'seconds':>8}")
    for r in result["runs"]:
        lines.append(f"{r['hash']:8} {r['cache_mb']:8g} {r['capacity']:10d} "
                     f"{r['bytes_per_entry']:7d} {r['nodes']:11d} {r['hits']:10d} "
                     f"{r['collisions']:10d} {r['seconds']:8.2f}")
    if result["equivalence"]:
        lines.append("memory equivalence (smallest double budget with nodes <= full's):")
    for e in result["equivalence"]:
        if e["double_mb"] is None:
            lines.append(f"  full {_mb(e['full_mb'])} MB ({e['full_nodes']} nodes): "
                         f"none of the budgets tried")
        else:
            ratio = "-" if e["ratio"] is None else f"{e['ratio']:.3g}x"
            if e["smallest_tried"] and e["ratio"] is not None:
                ratio = f"<= {ratio} (no smaller double budget tried)"
            lines.append(f"  full {_mb(e['full_mb'])} MB ({e['full_nodes']} nodes): "
                         f"double {_mb(e['double_mb'])} MB ({e['double_nodes']} nodes), "
                         f"ratio {ratio}")
    for e in result["errors"]:
        lines.append(f"error: {e['error']}")
    return "\n".join(lines)


def run(args):
    result = run_compare(args.games, args.hash, args.cache_mb, args.hash_bits)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(format_compare(result))
    for e in result["errors"]:
        print(f"gogame compare: {e['error']}", file=sys.stderr)
    return 0 if result["identical"] and not result["errors"] else 1
