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
entry point's callees are compiled inside it).  Not done: it does not
remove the caches of older sources.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TextIO


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


def warmup(stream: TextIO | None = None, quiet: bool = False) -> dict[str, float]:
    """Compile (or load) every kernel group; ``{group: seconds}``.  Progress
    goes to ``stream`` (stderr by default), none when ``quiet``."""
    from .. import kernel

    stream = None if quiet else (stream or sys.stderr)
    cold = kernel.cache_is_cold()
    if stream and cold:
        stream.write(
            f"gogame warmup: compiling the kernels into {kernel.CACHE_DIR} (once; about a minute)\n"
        )
    times = {}
    for k, (label, step) in enumerate(STEPS):
        if stream:
            _show(stream, k, len(STEPS), label + " ...", 0.0, False)
        t0 = time.perf_counter()
        step()
        times[label] = time.perf_counter() - t0
        if stream:
            _show(stream, k + 1, len(STEPS), label, times[label], not stream.isatty())
    if stream:
        total = sum(times.values())
        _show(stream, len(STEPS), len(STEPS), f"done in {total:.1f} s", 0.0, True)
    return times


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
