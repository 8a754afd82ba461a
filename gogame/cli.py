"""The ``gogame`` command: warmup | replay | compare | regress | gtp | bench | mine.

Subcommand modules are imported only when used, so ``gogame --version``
starts without loading numba.  Exit status: 0 on success, 1 when a game or
check failed, 2 for bad options (argparse's convention) and for an execution
mode that cannot be used (``--dask`` without dask or scheduler), one line.
A reader that goes away (``gogame replay ... | head``) ends the command
quietly with status 1, as Python's documentation advises.
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections.abc import Sequence

from . import __version__
from .core import options


def _replay(args):
    from .tools.jobs import ExecutionError, want_progress
    from .tools.replay import ReadSettings, format_report, replay_games

    read = (
        ReadSettings(args.hash, args.cache_mb, args.hash_bits, args.threads) if args.read else None
    )
    trace = [] if args.trace else None
    try:
        report = replay_games(
            args.games,
            check_hashing=args.check_hashing,
            read=read,
            trace=trace,
            until=None if args.moves is None else args.moves + 1,
            workers=args.workers,
            dask=args.dask,
            progress=want_progress(args, len(args.games)),
        )
    except ExecutionError as e:
        print(f"gogame replay: error: {e}", file=sys.stderr)
        return 2
    if args.trace:
        with open(args.trace, "w") as f:
            f.write("".join(line + "\n" for line in trace))
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(format_report(report))
    t = report["total"]
    for g in report["games"]:
        if g["error"]:
            print(f"gogame replay: {g['error']}", file=sys.stderr)
    ok = t["errors"] == 0 and t["mismatches"] == 0 and t.get("reading_mismatches", 0) == 0
    return 0 if ok else 1


def _flat(result, prefix=""):
    """(dotted key, value) pairs of a nested dict, for the text output."""
    for key, value in result.items():
        if isinstance(value, dict):
            yield from _flat(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}", value


def _bench(args):
    from .tools.bench import run_bench

    result = run_bench(
        args.what,
        seconds=args.seconds,
        games=args.games,
        threads=args.threads,
        modes=args.parallel,
        runs=args.runs,
        cache_mb=args.cache_mb,
    )
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for key, value in _flat(result):
            print(f"{key:32} {value}")
    return 0


def _warmup(args):
    from . import kernel
    from .tools.warmup import by_module, compiles, run_step, warmup

    if args.step:  # one group, for a parent warmup's child
        run_step(args.step, with_parent=True)
        return 0
    with compiles() as rows:
        times = warmup(quiet=args.json, jobs=args.jobs)
    if args.json:
        print(
            json.dumps(
                {
                    "cache_dir": kernel.CACHE_DIR,
                    "seconds": times,
                    "compile_seconds_by_module": by_module(rows),
                    "compiled": rows,
                },
                indent=1,
            )
        )
    return 0


def _regress(args):
    from .tools.regress import main as regress_main

    return regress_main(args)


def _positive(text, what="a positive integer", top=1024):
    if not text.isdigit() or not 1 <= int(text) <= top:
        raise argparse.ArgumentTypeError(f"expected {what} (1..{top}), not {text!r}")
    return int(text)


def _thread_list(text):
    """``1,2,4`` -> [1, 2, 4]: thread counts, each 1..1024, in order given."""
    out = [options.argtype(options.threads)(part) for part in text.split(",")]
    return sorted(set(out), key=out.index)


def _mode_list(text):
    from .core.reader import PARALLEL_MODES

    out = [part.strip() for part in text.split(",")]
    for mode in out:
        if mode not in PARALLEL_MODES:
            raise argparse.ArgumentTypeError(
                f"unknown parallel mode {mode!r} (choose from {', '.join(PARALLEL_MODES)})"
            )
    return sorted(set(out), key=out.index)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gogame", description="Go tactical reading engine (numba)."
    )
    parser.add_argument("--version", action="version", version=f"gogame {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_replay(sub)
    _add_warmup(sub)
    _add_bench(sub)
    _add_regress(sub)
    _add_mine(sub)

    from .gtp import server as gtp_front  # light: numba loads when a command needs the board

    p = sub.add_parser("gtp", help="GTP engine on stdin/stdout (GoGui, Sabaki, regress)")
    gtp_front.add_arguments(p)
    p.set_defaults(run=gtp_front.run)

    from .tools import compare as compare_front  # light, like gtp

    p = sub.add_parser("compare", help="read games with every scheme x budget; traces must agree")
    compare_front.add_arguments(p)
    p.set_defaults(run=compare_front.run)
    return parser


def _add_replay(sub):
    p = sub.add_parser("replay", help="replay SGF games through the board kernel")
    p.add_argument("games", nargs="+", metavar="GAME.sgf")
    p.add_argument(
        "--read",
        action="store_true",
        help="examine every position: attack (and defend) each string",
    )
    p.add_argument("--trace", metavar="FILE", help="with --read: one line per result")
    options.add_cache_arguments(p)
    from .tools import jobs  # light: options of the execution modes

    jobs.add_arguments(p)
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(run=_replay)


def _add_warmup(sub):
    from .core import warming  # light: not the warm-up's own imports

    p = sub.add_parser("warmup", help="compile every numba kernel once (progress on stderr)")
    p.add_argument("--json", action="store_true", help="seconds per kernel group as JSON")
    p.add_argument(
        "--jobs",
        type=options.argtype(options.jobs),
        default=None,
        help="processes compiling at once with a cold cache (default: the cores, at most 3;"
        " 1 for the compile-time table of --json, which sees this process only)",
    )
    p.add_argument("--step", choices=warming.STEPS, help=argparse.SUPPRESS)
    p.set_defaults(run=_warmup)


def _add_bench(sub):
    p = sub.add_parser(
        "bench", help="benchmarks (not tests): board, cache, threads, playouts, startup"
    )
    p.add_argument("what", choices=["board", "cache", "threads", "playouts", "startup"])
    p.add_argument(
        "--threads",
        type=_thread_list,
        default=[1, 2],
        metavar="1,2,4",
        help="threads, playouts: thread counts to time (default 1,2)",
    )
    p.add_argument(
        "--parallel",
        type=_mode_list,
        default=["abdada", "shared-cache"],
        metavar="MODES",
        help="threads: abdada and/or shared-cache (default both)",
    )
    p.add_argument(
        "--runs",
        type=_positive,
        default=1,
        help="threads, playouts, startup: runs per figure, the median kept (default 1)",
    )
    p.add_argument(
        "--cache-mb",
        type=options.argtype(options.cache_mb),
        default=64.0,
        metavar="MB",
        help="threads: cache budget (default 64)",
    )
    p.add_argument("--seconds", type=float, default=1.0, help="time per measurement (default 1)")
    p.add_argument(
        "--games",
        nargs="*",
        default=None,
        metavar="GAME.sgf",
        help="games for the replay figures (default: sgf/*.sgf)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(run=_bench)


def _add_regress(sub):
    p = sub.add_parser("regress", help="run GNU Go .tst regression files, judged as GNU Go does")
    p.add_argument("files", nargs="+", metavar="FILE.tst")
    p.add_argument(
        "--engine",
        metavar="CMD",
        help="also run another GTP engine (a shell-like command), side by side",
    )
    p.add_argument("--only", metavar="1,5,20", help="run only these test numbers")
    p.add_argument(
        "--threads",
        type=options.argtype(options.threads),
        default=None,
        help="gogame's reading threads (default 1, so that node counts are reproducible)",
    )
    p.add_argument(
        "--prove",
        action="store_true",
        help="ask the prover (in-process, no GTP engine) every attack/defend test",
    )
    from .tools import jobs  # light: the integer option type

    p.add_argument(
        "--prove-nodes",
        type=jobs.int_in(1, 10**9, "prove nodes"),
        default=None,
        metavar="N",
        help="with --prove: the node budget a question (default 500000)",
    )
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.set_defaults(run=_regress)


def _mine_report(args):
    from .tools.mine import ReportError, format_report, load_index, reask, report

    try:
        index = load_index(args.report)
        if args.reask:
            index = reask(index, args.report)
        rep = report(index)
    except ReportError as e:
        print(f"gogame mine: error: {e}", file=sys.stderr)
        return 2
    print(json.dumps(rep, indent=1) if args.json else format_report(rep, args.report))
    return 0


def _mine_referee(args):
    from .tools.mine import ReportError, load_index, referee, write_index

    try:
        index, counts = referee(
            load_index(args.referee), args.referee, args.prove_nodes, again=args.all
        )
        write_index(index, args.referee)
    except ReportError as e:
        print(f"gogame mine: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        where = f"cannot write {args.referee!r}: {e.strerror or e}"
        print(f"gogame mine: error: {where}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(counts))
        return 0
    line = f"{counts['tried']} unknown problems asked again, {counts['proven']} proven"
    if args.all:
        line += (
            f"; {counts['again']} proven problems asked again: {counts['kept']} proven again,"
            f" {counts['changed']} with another code, {counts['lost']} not within the budget"
        )
    print(line)
    return 0


def _mine(args, parser=None):
    import os

    if args.reask and args.report is None:
        parser.error("--reask goes with --report")
    if args.all and args.referee is None:
        parser.error("--all goes with --referee")
    if args.report is not None or args.referee is not None:
        if args.games:
            parser.error("--report and --referee read a corpus: give no games")
        return _mine_report(args) if args.report is not None else _mine_referee(args)
    if not args.games:
        parser.error("the following arguments are required: GAME.sgf")
    from .tools.jobs import ExecutionError, want_progress
    from .tools.mine import MineSettings, format_summary, gnugo_installed, mine_games

    if os.path.exists(args.out) and not os.path.isdir(args.out):
        print(f"gogame mine: error: --out {args.out!r} is not a folder", file=sys.stderr)
        return 2
    settings = MineSettings(
        every=args.every,
        offset=args.offset,
        prove_nodes=args.prove_nodes,
        gnugo=not args.no_gnugo and gnugo_installed(),
        moves=args.moves,
    )
    try:
        summary = mine_games(
            args.games,
            args.out,
            settings,
            workers=args.workers,
            dask=args.dask,
            progress=want_progress(args, len(args.games)),
        )
    except ExecutionError as e:
        print(f"gogame mine: error: {e}", file=sys.stderr)
        return 2
    except OSError as e:
        print(f"gogame mine: error: cannot write {args.out!r}: {e.strerror or e}", file=sys.stderr)
        return 2
    print(json.dumps(summary, indent=1) if args.json else format_summary(summary))
    for line in summary["errors"] + summary["gnugo_errors"]:
        print(f"gogame mine: {line}", file=sys.stderr)
    return 1 if summary["errors"] or summary["gnugo_errors"] else 0


def _add_mine(sub):
    from .tools import jobs  # light: options of the execution modes

    p = sub.add_parser("mine", help="mine games for problems the oracles disagree on (SGF corpus)")
    p.add_argument("games", nargs="*", metavar="GAME.sgf")
    where = p.add_mutually_exclusive_group(required=True)
    where.add_argument("--out", metavar="DIR", help="folder for the SGFs and index.json")
    where.add_argument(
        "--report",
        metavar="DIR",
        help="no mining: how often gogame and GNU Go agree with the proofs of DIR/index.json",
    )
    where.add_argument(
        "--referee",
        metavar="DIR",
        help="no mining: prove the captures gogame or GNU Go name on DIR's unknown "
        "attack problems, and write the proofs into DIR/index.json",
    )
    p.add_argument(
        "--reask",
        action="store_true",
        help="with --report: ask this version's reader again instead of the recorded answers",
    )
    p.add_argument(
        "--all",
        action="store_true",
        help="with --referee: ask the proven problems again too, and count those proven "
        "again, with another code, or no longer within the budget (the index keeps them)",
    )
    # which positions: (option, least value, default, metavar, help)
    for flag, least, default, metavar, text in (
        ("every", 1, 10, "N", "examine the position after every N-th move (default 10)"),
        ("offset", 0, 0, "K", "with --every N: after moves K, K+N, K+2N ... (default 0)"),
        ("moves", 1, None, "N", "mine only the first N moves of each game"),
    ):
        kind = jobs.int_in(least, 100000, flag)
        p.add_argument(f"--{flag}", type=kind, default=default, metavar=metavar, help=text)
    p.add_argument(
        "--prove-nodes",
        type=jobs.int_in(1, 10**9, "prove nodes"),
        default=200_000,
        metavar="N",
        help="the prover's node budget per question (default 200000)",
    )
    p.add_argument("--no-gnugo", action="store_true", help="do not ask GNU Go")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--workers",
        type=jobs.int_in(1, jobs.MAX_WORKERS, "worker count"),
        default=1,
        metavar="N",
        help="games in parallel in N processes here (default 1)",
    )
    mode.add_argument("--dask", metavar="ADDRESS", help="run the games on an existing Dask cluster")
    p.add_argument("--json", action="store_true", help="the summary as one JSON object")
    p.set_defaults(run=functools.partial(_mine, parser=p))


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        status = args.run(args)
        sys.stdout.flush()
    except BrokenPipeError:
        _quiet_stdout()
        return 1
    return status


def _quiet_stdout():
    """stdout's reader has gone: point stdout at /dev/null, so that the
    interpreter's last flush at exit cannot fail again."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


if __name__ == "__main__":
    sys.exit(main())
