"""Child processes that compile a group of kernels into numba's cache.

numba compiles on one core.  ``start(step)`` runs ``python -m gogame warmup
--step STEP`` (``tools/warmup.py`` says what each step compiles) so that a
group compiles on another core, into the same cache folder (the child
inherits ``NUMBA_CACHE_DIR`` from ``gogame.kernel``); the caller loads the
group from the cache once the child has exited with status 0.  numba
writes its cache files atomically, so two processes compiling the same
function only waste the time.  Not done: anything but starting it (the
caller waits, and decides what a failure means).
"""

from __future__ import annotations

import subprocess
import sys


def start(step: str) -> subprocess.Popen | None:
    """The child compiling ``step`` (a ``gogame warmup --step`` name), its
    output discarded; None when it cannot be started."""
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "gogame", "warmup", "--step", step],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return None
