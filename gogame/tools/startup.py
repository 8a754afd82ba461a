"""``gogame bench startup``: how long a user waits for the first answers.

Each scenario starts a fresh ``gogame gtp`` process and times, from the
moment it was started, the answer to each of its commands: ``name``; a
``loadsgf`` then an ``attack`` (the first reading answer), with the
stand-in reader (the default) and without it (``attack_compiled``); a
19x19 ``genmove`` at one second a move (the first move).  A cold run gives the
process an empty numba cache (a new ``NUMBA_CACHE_DIR``), so it compiles
what it needs; a warm run reuses that cache once ``gogame warmup`` has
completed it, as the Quick start does (the cold process ends as soon as it
answers, before the kernels it had not needed yet are compiled).  Figures
are medians over ``runs``; cold and warm runs alternate, so both see the
same machine.  The processes write Python's bytecode, as a user's do
(``PYTHONDONTWRITEBYTECODE`` is dropped: with it every start compiles
gogame's sources again, about 60 ms of a warm 0.5 s).  Not done: it does
not time GNU Go (its start is 0.02 s).
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable
from typing import Any, TextIO

from ..gtp.client import GtpClient

# Black's D4 stone with two liberties: the attack reads a ladder (it fails: 0).
PROBLEM_SGF = "(;FF[4]SZ[19]AB[dp][pd]AW[ep][do][pp];PL[W])"
FIRST_ATTACK = ("loadsgf {sgf}", "attack D4")
# each scenario: its commands and its ``gogame gtp`` options
SCENARIOS = {
    "name": (("name",), ()),
    "attack": (FIRST_ATTACK, ()),
    "attack_compiled": (FIRST_ATTACK, ("--stand-in", "off")),  # no stand-in reader
    "genmove": (("boardsize 19", "clear_board", "genmove b"), ()),
}


def child_env(cache_dir):
    """The environment of a timed process: numba's cache in ``cache_dir``,
    and Python's bytecode written and read as in a user's."""
    env = dict(os.environ, NUMBA_CACHE_DIR=cache_dir)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def _run(commands, cache_dir, options=()):
    """Seconds from the start of ``gogame gtp`` to each answer."""
    env = child_env(cache_dir)
    t0 = time.perf_counter()
    out = []
    argv = [sys.executable, "-m", "gogame", "gtp", "--move-seconds", "1", *options]
    with GtpClient(argv, env=env, timeout=900) as engine:
        for command in commands:
            engine.ask(command)
            out.append(time.perf_counter() - t0)
    return out


def _complete(cache_dir):
    """``gogame warmup`` into ``cache_dir``: every kernel, as after the Quick start."""
    env = child_env(cache_dir)
    subprocess.run(
        [sys.executable, "-m", "gogame", "warmup"], env=env, check=True, capture_output=True
    )


def startup_bench(
    runs: int = 1, scenarios: Iterable[str] = tuple(SCENARIOS), progress: TextIO | None = None
) -> dict[str, Any]:
    """``{scenario: {"commands", "cold_seconds", "warm_seconds"}}`` with the
    median seconds to each command's answer, and the runs made.  Each
    run (a cold start, a warm-up, a warm start: about a minute with the
    compiles) writes a line to ``progress`` when it ends, if given."""
    folder = tempfile.mkdtemp(prefix="gogame-startup-")
    sgf = os.path.join(folder, "problem.sgf")
    with open(sgf, "w") as f:
        f.write(PROBLEM_SGF)
    result = {"runs": runs}
    try:
        for name in scenarios:
            lines, options = SCENARIOS[name]
            commands = [c.format(sgf=sgf) for c in lines]
            cold, warm = [], []
            for k in range(runs):
                cache = os.path.join(folder, f"cache-{name}-{k}")
                cold.append(_run(commands, cache, options))
                _complete(cache)
                warm.append(_run(commands, cache, options))
                if progress is not None:
                    print(
                        f"startup: {name} run {k + 1}/{runs}: last answer after"
                        f" {cold[-1][-1]:.2f} s cold, {warm[-1][-1]:.2f} s warm",
                        file=progress,
                        flush=True,
                    )
            result[name] = {
                "commands": [c.split()[0] for c in commands],
                "cold_seconds": _medians(cold),
                "warm_seconds": _medians(warm),
            }
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return result


def _medians(rows):
    return [round(statistics.median(col), 3) for col in zip(*rows, strict=True)]
