"""Child processes that compile a group of kernels into numba's cache.

numba compiles on one core.  ``start(step)`` runs ``python -m gogame warmup
--step STEP`` (``tools/warmup.py`` says what each step compiles) so that a
group compiles on another core, into the same cache folder (the child
inherits ``NUMBA_CACHE_DIR`` from ``gogame.kernel``); the caller loads the
group from the cache once the child has exited with status 0.  numba
writes its cache files atomically, so two processes compiling the same
function only waste the time, and a child killed mid-compile leaves
nothing half written.  Not done: anything but starting it (the
caller waits, and decides what a failure means).
"""

from __future__ import annotations

import os
import subprocess
import sys

PARENT_ENV = "GOGAME_WARMUP_PARENT"  # the pid the child ends with


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
