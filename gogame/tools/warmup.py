"""``gogame warmup``: compile every numba kernel once, ahead of use.

numba compiles a kernel the first time it runs and keeps the result in
its disk cache (``gogame.kernel.CACHE_DIR``); from then on a kernel loads
in well under a second.  Without a warm-up the first command that needs
a kernel waits for the compiler (over a minute on a 2-core machine), and
a GUI shows a frozen engine.  ``warmup`` runs each group of kernels on a
tiny position, in the order a session needs them, with a progress bar on
stderr, and returns the seconds each group took (a warm cache: loading
only).  ``compiles`` records what numba compiled meanwhile: each
function's compile time, with and without the callees it compiled (an
entry point's callees are compiled inside it).  ``prune_old_caches``
(run by ``warmup``) removes the cache folders of other kernel sources
(``gogame-<key>`` beside ``CACHE_DIR``) that nothing has used for
``KEEP_DAYS`` days: each edit or upgrade of the kernel leaves one behind.

With a cold cache and two cores or more, the heaviest groups (``AWAY``:
the reader, then the playouts) compile in child processes (``gogame
warmup --step NAME``, ``core.warming``) beside the rest, into the same
cache: numba's compile is single-threaded, so one process leaves the
other cores idle.  A child that fails is not trusted: its group is run
again here; a child whose parent has gone ends too.  Not done: a split
inside a group (each child compiles the board kernel it needs again).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

from ..core import warming

KEEP_DAYS = 30  # an unused cache folder of other sources is removed after this


def _board() -> None:
    """The board kernel and the hash words: play, capture, undo, checks."""
    from ..core.position import Position

    position = Position(5, check_hashing=True)
    for vertex, color in (("B2", "b"), ("C2", "w"), ("C1", "b"), ("D2", "b"), ("C3", "b")):
        position.play(vertex, color)
    position.undo()
    position.recompute_hash()


def _replay() -> None:
    """The SGF loader and the replay with hash checks inside reading."""
    from .replay import ReadSettings, warm

    warm(ReadSettings(cache_mb=0.01))


def _reading() -> None:
    """The reader and the cache: attack, defend, ladders, does_attack."""
    from ..core.reader import warm_up

    warm_up()


def _playouts() -> None:
    """The player: playouts and the search tree."""
    from ..play.player import warm_up

    warm_up()


STEPS: tuple[tuple[str, Callable[[], None]], ...] = (
    ("board kernel", _board),
    ("reading", _reading),
    ("replay checks", _replay),
    ("playouts", _playouts),
)
# ``--step NAME`` (``warming.STEPS``) -> the step's label
STEP_NAMES = dict(zip(warming.STEPS, (label for label, _ in STEPS), strict=True))
AWAY = ("reading", "playouts")  # the groups sent to children first, heaviest first
AFTER = ("replay checks",)  # groups that use the reader's kernels: run after it
NICE = 10  # a child's priority below its parent's: the stand-in's answers come first


def prune_old_caches(keep_days: float = KEEP_DAYS, now: float | None = None) -> list[str]:
    """Remove the ``gogame-*`` folders beside ``CACHE_DIR`` (other kernel
    sources) whose newest file is older than ``keep_days``; return them.
    The folder in use is never removed; one that cannot be is left."""
    from .. import kernel

    here = Path(kernel.CACHE_DIR)
    limit = (time.time() if now is None else now) - keep_days * 86400
    removed = []
    for folder in sorted(here.parent.glob("gogame-*")):
        if folder == here or not folder.is_dir():
            continue
        stamps = [p.stat().st_mtime for p in folder.rglob("*") if p.is_file()]
        if max(stamps, default=folder.stat().st_mtime) < limit:
            shutil.rmtree(folder, ignore_errors=True)
            if not os.path.exists(folder):
                removed.append(str(folder))
    return removed


def _show(stream, done: int, total: int, label: str, seconds: float, final: bool) -> None:
    width = 20
    filled = width * done // total
    line = f"gogame warmup [{'#' * filled}{'.' * (width - filled)}] {done}/{total} {label}"
    if seconds:
        line += f" {seconds:.1f} s"
    tty = stream.isatty()
    end = "\n" if final or not tty else ""
    stream.write(("\r\x1b[K" if tty else "") + line + end)
    stream.flush()


def run_step(name: str, with_parent: bool = False) -> None:
    """Run the one step ``name`` (a key of ``STEP_NAMES``; ValueError else).
    ``with_parent``: a child's step, run at a lower priority (``NICE``) and
    ended when its parent ends."""
    if name not in STEP_NAMES:
        raise ValueError(f"unknown warmup step {name!r} ({', '.join(STEP_NAMES)})")
    if with_parent:
        _end_with_parent()
        if hasattr(os, "nice"):  # background work: the parent's commands come first
            os.nice(NICE)
    dict(STEPS)[STEP_NAMES[name]]()


def _end_with_parent(poll: float = 0.5) -> threading.Thread:
    """End this process (status 1) once its parent has gone (``warmup`` or
    ``gogame gtp`` ended, by ``quit`` or a kill): nobody waits for its group
    any more, and a compile left behind would slow the next start down.
    numba writes its cache files atomically, so nothing half written stays."""
    parent = int(os.environ.get(warming.PARENT_ENV) or os.getppid())

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(poll)
        os._exit(1)

    thread = threading.Thread(target=watch, name="gogame-parent-watch", daemon=True)
    thread.start()
    return thread


def _start_away(jobs: int) -> dict[str, tuple[subprocess.Popen, float]]:
    """Children compiling the heaviest groups, ``jobs`` - 1 of them at most:
    {label: (process, start time)}; none that cannot start."""
    away = {}
    for name in AWAY[: max(0, jobs - 1)]:
        proc = warming.start(name)
        if proc is not None:
            away[STEP_NAMES[name]] = (proc, time.perf_counter())
    return away


def warmup(
    stream: TextIO | None = None, quiet: bool = False, jobs: int | None = None
) -> dict[str, float]:
    """Compile (or load) every kernel group; ``{group: seconds}`` (wall
    time; a group compiled in a child counts from the child's start).
    Progress goes to ``stream`` (stderr by default), none when ``quiet``.
    ``jobs``: processes compiling at once when the cache is cold (None: the
    cores, at most ``len(AWAY) + 1``).  The groups this process compiles
    come first, then the children's (waited for), then ``AFTER``."""
    from .. import kernel
    from ..core import options

    stream = None if quiet else (stream or sys.stderr)
    cold = kernel.cache_is_cold()
    if stream and cold:
        stream.write(
            f"gogame warmup: compiling the kernels into {kernel.CACHE_DIR} (once; under a minute)\n"
        )
    away = _start_away(options.cores() if jobs is None else jobs) if cold else {}
    times: dict[str, float] = {}
    here = [s for s in STEPS if s[0] not in away and s[0] not in AFTER]
    order = here + [s for s in STEPS if s[0] in away] + [s for s in STEPS if s[0] in AFTER]
    start = time.perf_counter()
    for k, (label, step) in enumerate(order):
        if stream:
            _show(stream, k, len(STEPS), label + " ...", 0.0, False)
        t0 = time.perf_counter()
        if label in away:
            proc, t0 = away[label]
            if not warming.finish(proc):  # not trusted: compiled (or loaded) here
                step()
        else:
            step()
        times[label] = time.perf_counter() - t0
        if stream:
            _show(stream, k + 1, len(STEPS), label, times[label], not stream.isatty())
    removed = prune_old_caches()
    if stream:
        total = time.perf_counter() - start
        _show(stream, len(STEPS), len(STEPS), f"done in {total:.1f} s", 0.0, True)
        if removed:
            stream.write(f"gogame warmup: removed {len(removed)} unused kernel cache folder(s)\n")
    return {label: times[label] for label, _ in STEPS}


@contextmanager
def compiles() -> Iterator[list[dict]]:
    """Record numba's compiles inside the block: a list (filled at the end)
    of ``{"function", "module", "depth", "signature", "seconds",
    "own_seconds"}``, one
    per compiled signature, in the order they finished; ``depth`` 0 is an
    entry point, ``own_seconds`` leaves out the callees compiled inside."""
    from numba.core import event

    listener = event.RecordingListener()
    rows: list[dict] = []
    with event.install_listener("numba:compile", listener):
        yield rows
    stack = []
    for stamp, ev in listener.buffer:
        if ev.is_start:
            stack.append([stamp, 0.0])
            continue
        start, inner = stack.pop()
        seconds = stamp - start
        if stack:
            stack[-1][1] += seconds
        fn = ev.data["dispatcher"].py_func
        rows.append(
            {
                "function": fn.__qualname__,
                "module": fn.__module__,
                "depth": len(stack),
                "signature": ", ".join(str(a) for a in ev.data["args"]),
                "seconds": round(seconds, 3),
                "own_seconds": round(seconds - inner, 3),
            }
        )


def by_module(rows: list[dict]) -> dict[str, float]:
    """Own compile seconds summed per module, largest first."""
    out: dict[str, float] = {}
    for row in rows:
        out[row["module"]] = out.get(row["module"], 0.0) + row["own_seconds"]
    return {k: round(v, 3) for k, v in sorted(out.items(), key=lambda kv: -kv[1])}
