"""``gogame compare``: reading traces and cost across cache schemes and budgets.

Every (scheme, MB) combination replays the games with a fresh ``Reader`` and
``ReadingCache`` (``replay.replay_games`` with a reader and a trace).  The
traces must be identical: a cache may only change how much is read, never
the answers.  The report gives, per run, the table's capacity and entry size,
reading nodes, cache hits, detected collisions and seconds, and the memory
equivalence: for each ``full`` budget, the smallest ``double`` budget whose
node count is at most that full run's (the 2002 patch found about a quarter).

Every (run, game) pair is one job of ``replay.game_job`` (a fresh reader
and cache a game), run by ``gogame.jobs`` here, in ``--workers`` processes or
on a ``--dask`` cluster; the result is the same in every mode but for the
seconds, which are the sums of the games' own times (with workers sharing
cores they grow).  A run's ``capacity`` and ``bytes_per_entry`` are those of
the largest board in the games (``full`` entries grow with the board);
``sizes`` gives them per board size.  ``--moves N`` reads only the first N
moves of each game; ``--check-hashing[=all]`` checks as ``replay`` does and
a mismatch fails the run.  ``--plot`` draws nodes and seconds against MB
(matplotlib, the optional extra ``plot``; a clear error when it is missing).

This module is light to import (``cli`` builds its parser from it); the
kernel loads when ``run_compare`` runs.  Exit status: 0 when the traces are
identical, every game was replayed and no hash mismatch was found, 1
otherwise, 2 for bad options and when matplotlib (``--plot``) or the Dask
scheduler (``--dask``) cannot be used.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from ..core import options
from . import jobs

_T = TypeVar("_T")


# ----------------------------------------------------------------- options
def comma_list(item: Callable[[str], _T]) -> Callable[[str], list[_T]]:
    """An argparse type: a comma-separated list of ``item`` values, in the
    order given, duplicates dropped; an empty item is refused."""

    def parse(text: str) -> list[_T]:
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


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The ``compare`` options."""
    p.add_argument("games", nargs="+", metavar="GAME.sgf")
    p.add_argument(
        "--hash",
        type=comma_list(options.argtype(options.scheme)),
        default="full,double",
        metavar="S1,S2",
        help="cache key schemes (default full,double)",
    )
    p.add_argument(
        "--cache-mb",
        type=comma_list(options.argtype(options.cache_mb)),
        default="0.25,1,4,16",
        metavar="MB1,MB2",
        help="cache budgets in MB (default 0.25,1,4,16)",
    )
    options.add_hash_bits(p)
    p.add_argument(
        "--plot", metavar="FILE.png", help="draw nodes and seconds against MB (needs matplotlib)"
    )
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    jobs.add_arguments(p)


# ------------------------------------------------------------ pure parts
def label(scheme: str, mb: float) -> str:
    return f"{scheme}/{mb:g}MB"


def first_difference(traces: Sequence[tuple[str, list[str]]]) -> dict[str, Any] | None:
    """``traces``: [(label, lines)].  None when all are identical, else the
    first line number (from 1) where some run differs from the first run,
    with that line (None past the end) of the first run and of each run
    that differs there."""
    if not traces:
        return None
    base_label, base = traces[0]
    best = None
    for _, lines in traces[1:]:
        if lines == base:
            continue
        i = next(
            (k for k, (a, b) in enumerate(zip(base, lines, strict=False)) if a != b),
            min(len(base), len(lines)),
        )
        if best is None or i < best:
            best = i
    if best is None:
        return None

    def at(lines: list[str]) -> str | None:
        return lines[best] if best < len(lines) else None

    runs = [{"run": base_label, "line": at(base)}]
    runs += [
        {"run": name, "line": at(lines)} for name, lines in traces[1:] if at(lines) != at(base)
    ]
    return {"line": best + 1, "runs": runs}


def memory_equivalence(runs: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """For each ``full`` run (by budget): the smallest ``double`` budget whose
    node count is <= the full run's, and double MB / full MB (None where the
    full budget is 0).  ``double_mb`` None: none of the budgets tried;
    ``smallest_tried``: it is the smallest double budget tried, so the ratio
    is only an upper bound."""
    doubles = sorted((r for r in runs if r["hash"] == "double"), key=lambda r: r["cache_mb"])
    out = []
    for f in sorted((r for r in runs if r["hash"] == "full"), key=lambda r: r["cache_mb"]):
        d = next((r for r in doubles if r["nodes"] <= f["nodes"]), None)
        out.append(
            {
                "full_mb": f["cache_mb"],
                "full_nodes": f["nodes"],
                "double_mb": d["cache_mb"] if d else None,
                "double_nodes": d["nodes"] if d else None,
                "ratio": (
                    d["cache_mb"] / f["cache_mb"] if d is not None and f["cache_mb"] > 0 else None
                ),
                "smallest_tried": d is not None and d is doubles[0],
            }
        )
    return out


# --------------------------------------------------------------- running
def run_compare(
    games: Sequence[str],
    schemes: Sequence[str],
    budgets: Sequence[float],
    hash_bits: int = 64,
    check_hashing: bool | str | None = None,
    until: int | None = None,
    threads: int = 1,
    workers: int = 1,
    dask: str | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Every (scheme, MB) over ``games``, in that order; the result dict.

    All (run, game) jobs go to ``jobs.run_jobs`` as one list, so workers stay
    busy across runs; each run's games are merged in game order, so the
    result (but for the seconds) is the same in every execution mode."""
    from .jobs import run_jobs
    from .replay import ReadSettings, check_mode, game_job, make_jobs, merge, warm

    check_hashing = check_mode(check_hashing)
    combos = [(s, mb) for s in schemes for mb in budgets]
    todo = []
    for s, mb in combos:
        todo += make_jobs(games, check_hashing, ReadSettings(s, mb, hash_bits, threads), until)
    settings = ReadSettings(schemes[0], budgets[0], hash_bits, threads)
    if dask is None:
        warm(settings)  # here, so that no run's time holds the compiler's
    done = run_jobs(
        game_job,
        todo,
        workers,
        dask,
        progress,
        desc="games x runs",
        warm=(lambda: warm(settings)) if dask is not None else None,
    )
    runs, traces, reports = [], [], []
    for k, (s, mb) in enumerate(combos):
        trace = []
        report = merge(done[k * len(games) : (k + 1) * len(games)], check_hashing, True, trace)
        runs.append(run_row(s, mb, report["total"], len(trace)))
        traces.append((label(s, mb), trace))
        reports.append(report)
    diff = first_difference(traces)
    errors = [
        {"file": g["file"], "error": g["error"]}
        for g in (reports[0]["games"] if reports else [])
        if g["error"]
    ]
    mismatches = [
        {
            "run": label(s, mb),
            "file": g["file"],
            "moves": g["mismatch_moves"],
            "reading": g.get("reading_mismatch_at", []),
        }
        for (s, mb), rep in zip(combos, reports, strict=True)
        for g in rep["games"]
        if g["mismatches"] or g.get("reading_mismatches")
    ]
    return {
        "games": len(games),
        "hash_bits": hash_bits,
        "check_hashing": check_hashing,
        "moves_limit": None if until is None else until - 1,
        "errors": errors,
        "mismatches": mismatches,
        "identical": diff is None,
        "first_difference": diff,
        "runs": runs,
        "equivalence": memory_equivalence(runs),
    }


def run_row(scheme: str, mb: float, total: dict[str, Any], trace_lines: int) -> dict[str, Any]:
    """One row of the table from a run's merged totals."""
    c = total["cache"] or {}
    return {
        "hash": scheme,
        "cache_mb": mb,
        "capacity": c.get("capacity", 0),
        "bytes_per_entry": c.get("bytes_per_entry", 0),
        "nodes": total["nodes"],
        "hits": c.get("hits", 0),
        "probes": c.get("probes", 0),
        "collisions": c.get("collisions", 0),
        "seconds": total["seconds"],
        "moves": total["moves"],
        "results": total["results"],
        "mismatches": total["mismatches"] + total["reading_mismatches"],
        "sizes": c.get("by_size", {}),
        "trace_lines": trace_lines,
    }


def _mb(x):
    return "-" if x is None else f"{x:g}"


def format_compare(result: dict[str, Any]) -> str:
    lines = []
    diff = result["first_difference"]
    if diff is None:
        lines.append(
            f"traces: no differences across {len(result['runs'])} runs "
            f"({result['runs'][0]['trace_lines'] if result['runs'] else 0} lines each)"
        )
    else:
        lines.append(f"traces: DIFFER, first at line {diff['line']}:")
        for r in diff["runs"]:
            lines.append(
                f"  {r['run']:>16}: {r['line'] if r['line'] is not None else '(end of trace)'}"
            )
    mode = result.get("check_hashing")
    lines.append(
        f"hash checks ({mode}): {len(result.get('mismatches', []))} runs x games with a mismatch"
        if mode
        else "hash words not checked (--check-hashing)"
    )
    lines.append(
        f"{'scheme':8} {'MB':>8} {'capacity':>10} {'B/entry':>7} {'nodes':>11} "
        f"{'hits':>10} {'collisions':>10} {'seconds':>8}"
    )
    for r in result["runs"]:
        lines.append(
            f"{r['hash']:8} {r['cache_mb']:8g} {r['capacity']:10d} "
            f"{r['bytes_per_entry']:7d} {r['nodes']:11d} {r['hits']:10d} "
            f"{r['collisions']:10d} {r['seconds']:8.2f}"
        )
    if result["equivalence"]:
        lines.append("memory equivalence (smallest double budget with nodes <= full's):")
    for e in result["equivalence"]:
        if e["double_mb"] is None:
            lines.append(
                f"  full {_mb(e['full_mb'])} MB ({e['full_nodes']} nodes): "
                f"none of the budgets tried"
            )
        else:
            ratio = "-" if e["ratio"] is None else f"{e['ratio']:.3g}x"
            if e["smallest_tried"] and e["ratio"] is not None:
                ratio = f"<= {ratio} (no smaller double budget tried)"
            lines.append(
                f"  full {_mb(e['full_mb'])} MB ({e['full_nodes']} nodes): "
                f"double {_mb(e['double_mb'])} MB ({e['double_nodes']} nodes), "
                f"ratio {ratio}"
            )
    for e in result["errors"]:
        lines.append(f"error: {e['error']}")
    for m in result.get("mismatches", []):
        lines.append(
            f"mismatch: {m['run']}: {m['file']}: after moves {m['moves']}, "
            f"inside reading {m['reading']}"
        )
    return "\n".join(lines)


# ------------------------------------------------------------------ plot
def require_matplotlib() -> None:
    """Import matplotlib with a file-only backend; ``ExecutionError`` if missing."""
    from .jobs import ExecutionError

    try:
        import matplotlib
    except ImportError:
        raise ExecutionError("--plot needs matplotlib: pip install 'gogame[plot]'") from None
    matplotlib.use("Agg")


def plot_compare(result: dict[str, Any], path: str) -> None:
    """Nodes and seconds against MB (log x), one line a scheme, to ``path``.
    A budget of 0 MB has no place on a log axis and is left out (said in
    the title)."""
    require_matplotlib()
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    dropped = any(r["cache_mb"] <= 0 for r in result["runs"])
    for scheme in dict.fromkeys(r["hash"] for r in result["runs"]):
        rows = sorted(
            (r for r in result["runs"] if r["hash"] == scheme and r["cache_mb"] > 0),
            key=lambda r: r["cache_mb"],
        )
        mbs = [r["cache_mb"] for r in rows]
        axes[0].plot(mbs, [r["nodes"] for r in rows], marker="o", label=scheme)
        axes[1].plot(mbs, [r["seconds"] for r in rows], marker="o", label=scheme)
    for ax, what in zip(axes, ("reading nodes", "seconds (sum over games)"), strict=True):
        ax.set_xscale("log")
        ax.set_xlabel("cache budget (MB)")
        ax.set_ylabel(what)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(
        f"{result['games']} games, hash bits {result['hash_bits']}"
        + (" (0 MB runs not shown)" if dropped else "")
    )
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def run(args: argparse.Namespace) -> int:
    from .jobs import ExecutionError, want_progress

    try:
        if args.plot:
            require_matplotlib()
        result = run_compare(
            args.games,
            args.hash,
            args.cache_mb,
            args.hash_bits,
            args.check_hashing,
            None if args.moves is None else args.moves + 1,
            args.threads or 1,  # node counts are compared: one thread unless asked
            args.workers,
            args.dask,
            want_progress(args, len(args.games) * len(args.hash) * len(args.cache_mb)),
        )
    except ExecutionError as e:
        print(f"gogame compare: error: {e}", file=sys.stderr)
        return 2
    if args.plot:
        plot_compare(result, args.plot)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        print(format_compare(result))
    for e in result["errors"]:
        print(f"gogame compare: {e['error']}", file=sys.stderr)
    ok = result["identical"] and not result["errors"] and not result["mismatches"]
    return 0 if ok else 1
