"""Execution modes for per-game jobs: here, in worker processes, on a Dask cluster.

``run_jobs(fn, jobs, workers=1, dask=None, progress=False)`` calls
``fn(job)`` for every job and returns the results **in job order**, whatever
the mode, so a caller that merges them gets the same merged result from a
serial run, ``--workers N`` and ``--dask ADDRESS``.  ``fn`` must be a
module-level function and the jobs picklable (plain dicts here); each job
must depend on nothing but its own arguments (``replay.game_job`` builds a
fresh position, reader and cache for every game) or the modes would differ.

* serial (``workers=1``, no ``dask``): in this process, in order;
* ``workers=N > 1``: a ``ProcessPoolExecutor`` of at most N processes
  started with ``forkserver`` (``spawn`` where that is missing), never
  ``fork``, which is unsafe with numba's and Dask's threads;
* ``dask=ADDRESS``: ``distributed.Client(ADDRESS)`` on an existing cluster;
  the workers must be able to import gogame (and numba).  The games travel
  as bytes (see ``replay.make_jobs``), so workers need not share the files.

``warm`` (``replay.warm``, passed by the front-ends) runs one tiny job here
before jobs leave this process: numba's disk cache is then written once, by this process, before
worker processes load it, instead of several first compiles racing to write
the same cache files.

Progress: with ``progress=True`` a tqdm bar on stderr counts finished jobs.
tqdm is the optional extra ``progress``, not a dependency: the bar is a
convenience and the engine and GTP front-end do not need it; without tqdm
there is simply no bar.  The front-ends ask for a bar only when stderr is a
terminal, there is more than one job and ``--json`` is off.

Worker processes watch the process that started them and end within about
a second once it is gone (killed), instead of finishing their game alone.

Not done: retrying failed jobs (a job that raises stops the run and the
exception propagates), cancelling running jobs on Ctrl-C beyond what the
executors do, and balancing by expected cost (jobs are handed out in order).

This module is light to import: ``cli`` builds its parser from it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

_J = TypeVar("_J")
_R = TypeVar("_R")

MAX_WORKERS = 256
MAX_THREADS = 1024
DASK_CONNECT_SECONDS = 10


class ExecutionError(RuntimeError):
    """A run that cannot start: Dask missing or its scheduler unreachable.
    The front-ends print it as one line and exit with status 2."""


# ----------------------------------------------------------------- options
def int_in(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: an integer in ``low..high``, else a one-line error."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{what} must be an integer, not {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be {low}..{high}, not {value}")
        return value

    return parse


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The options shared by ``replay`` and ``compare``: hash checking,
    ``--moves``, ``--threads``, and the execution mode (``--workers`` or
    ``--dask``, not both)."""
    p.add_argument(
        "--check-hashing",
        dest="check_hashing",
        action="store_const",
        const="moves",
        default=None,
        help="recompute both hash words after every game move",
    )
    p.add_argument(
        "--check-hashing=all",
        dest="check_hashing",
        action="store_const",
        const="all",
        help="... and after every trymove/popgo inside reading too",
    )
    p.add_argument(
        "--moves",
        type=int_in(1, 100000, "moves"),
        default=None,
        metavar="N",
        help="replay (and read) only the first N moves of each game",
    )
    p.add_argument(
        "--threads",
        type=int_in(1, MAX_THREADS, "thread count"),
        default=None,
        metavar="N",
        help="reading threads per game (replay: the cores when games run one at a time, "
        "else 1; compare: 1)",
    )
    mode = p.add_mutually_exclusive_group()
    mode.add_argument(
        "--workers",
        type=int_in(1, MAX_WORKERS, "worker count"),
        default=1,
        metavar="N",
        help="games in parallel in N processes here (default 1)",
    )
    mode.add_argument(
        "--dask",
        metavar="ADDRESS",
        help="run the games on an existing Dask cluster (scheduler address)",
    )


def want_progress(args: argparse.Namespace, count: int) -> bool:
    """A bar only for a person watching: stderr a terminal, no --json, and
    more than one of the ``count`` jobs."""
    return not args.json and count > 1 and sys.stderr.isatty()


# ----------------------------------------------------------------- running
def run_jobs(
    fn: Callable[[_J], _R],
    jobs: Iterable[_J],
    workers: int = 1,
    dask: str | None = None,
    progress: bool = False,
    desc: str = "games",
    warm: Callable[[], object] | None = None,
) -> list[_R]:
    """``[fn(job) for job in jobs]``, computed in the chosen mode (see the
    module docstring); raises ``ExecutionError`` when Dask cannot be used.
    ``warm()``, if given, runs here before any job leaves this process (after
    the Dask scheduler answered, so that a bad address fails at once)."""
    jobs = list(jobs)
    bar = _bar(len(jobs), desc) if progress else None
    try:
        if dask is not None:
            return _run_dask(fn, jobs, dask, bar, warm)
        if workers > 1 and len(jobs) > 1:
            if warm is not None:
                warm()
            return _run_processes(fn, jobs, min(workers, len(jobs)), bar)
        out = []
        for job in jobs:
            out.append(fn(job))
            _tick(bar)
        return out
    finally:
        if bar is not None:
            bar.close()


def _bar(total, desc):
    """A tqdm bar on stderr, or None when tqdm is not installed."""
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit="job", file=sys.stderr)


def _tick(bar):
    if bar is not None:
        bar.update(1)


def _context():
    import multiprocessing  # not at import: ``cli`` builds its parser from here

    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def _watch_parent(pid, period=1.0):
    """Worker initializer: end this worker soon after process ``pid`` (the
    one that made the pool) is gone, so that a killed ``replay --workers``
    leaves no worker reading on its own."""
    import os
    import threading
    import time

    def watch() -> None:
        while True:
            time.sleep(period)
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                os._exit(1)
            except OSError:
                pass

    threading.Thread(target=watch, name="gogame-watch-parent", daemon=True).start()


def _run_processes(fn, jobs, workers, bar):
    import os
    from concurrent.futures import ProcessPoolExecutor, as_completed

    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=_context(),
        initializer=_watch_parent,
        initargs=(os.getpid(),),
    ) as pool:
        futures = [pool.submit(fn, job) for job in jobs]
        for _ in as_completed(futures):
            _tick(bar)
        return [f.result() for f in futures]


def connect(address: str, timeout: float = DASK_CONNECT_SECONDS) -> Any:
    """A ``distributed.Client`` on ``address``; ``ExecutionError`` (one line)
    when dask.distributed is not installed or the scheduler cannot be reached."""
    try:
        from distributed import Client
    except ImportError:
        raise ExecutionError("--dask needs dask.distributed: pip install 'gogame[dask]'") from None
    try:
        return Client(address, timeout=f"{timeout}s")
    except (OSError, ValueError, TypeError) as e:
        first = str(e).splitlines()[0] if str(e) else type(e).__name__
        raise ExecutionError(f"cannot reach the Dask scheduler at {address!r}: {first}") from None


def _run_dask(fn, jobs, address, bar, warm):
    from distributed import as_completed

    client = connect(address)
    try:
        if warm is not None:
            warm()
        futures = client.map(fn, jobs, pure=False)
        for _ in as_completed(futures):
            _tick(bar)
        return client.gather(futures)
    finally:
        client.close()
