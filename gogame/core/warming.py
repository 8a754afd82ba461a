"""Child processes that compile a group of kernels into numba's cache.

numba compiles on one core.  ``start(step)`` runs ``python -m gogame warmup
--step STEP`` (``tools/warmup.py`` says what each step compiles) so that a
group compiles on another core, into the same cache folder (the child
inherits ``NUMBA_CACHE_DIR`` from ``gogame.kernel``); the caller loads the
group from the cache once the child has exited with status 0.  numba
writes its cache files atomically, so two processes compiling the same
function only waste the time, and a child killed mid-compile leaves
nothing half written.  ``finish`` waits for a child; the caller decides
what a failure means (the group then compiles in the caller).
"""

from __future__ import annotations

import os
import subprocess
import sys

PARENT_ENV = "GOGAME_WARMUP_PARENT"  # the pid the child ends with
STEPS = ("board", "reading", "replay", "playouts")  # the ``--step`` names
TIMEOUT = 600.0  # seconds a caller waits for a child before killing it


def start(step: str) -> subprocess.Popen | None:
    """The child compiling ``step`` (a ``gogame warmup --step`` name), its
    output discarded, told this process's pid (it ends when this process
    has gone, even before it could look); None when it cannot be started."""
    env = dict(os.environ, **{PARENT_ENV: str(os.getpid())})
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "gogame", "warmup", "--step", step],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            env=env,
        )
    except OSError:
        return None


def finish(proc: subprocess.Popen, timeout: float = TIMEOUT) -> bool:
    """Wait for a child of ``start``: True when it exited with status 0.
    One still running after ``timeout`` seconds is killed (False)."""
    try:
        return proc.wait(timeout) == 0
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        return False
