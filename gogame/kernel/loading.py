"""Loading the kernels from numba's disk cache without numba's compiler.

Before every load from its cache numba refreshes its CPU context: it
imports and installs all of its typing and lowering registries (numpy's
array math, typed containers, random generators, linalg...).  A compiler
needs them; a load does not: a cached kernel is object code, linked
against the symbols numba's CPU context installs when it is created (its
C helpers and C math) and, for kernels that allocate, the NRT's.  The
refresh was 0.25-0.35 s of a warm start's 0.6-1.0 s to the first answer.

``install`` makes loads of gogame's own kernels initialise only the NRT,
and only for kernels compiled with it (the playouts');
numba's compile path still refreshes everything before it compiles
anything, so a kernel that is not cached compiles as before.  Functions
of other packages load the usual way.  Not done: nothing is installed when
numba's cache class lacks the two methods used here (a numba whose cache
changed), so loads then simply cost what they cost.
"""

from numba.core import caching
from numba.core.runtime import rtsys

_PACKAGE = __name__.rpartition(".")[0]  # gogame.kernel
_numba_load = caching.Cache.load_overload


def _load_overload(self, sig, target_context):
    """``Cache.load_overload`` without the registry refresh, for gogame's
    kernels; every other function loads through numba's own."""
    module = getattr(self._py_func, "__module__", "")
    if not module.startswith(_PACKAGE):
        return _numba_load(self, sig, target_context)
    if _uses_nrt(module):
        rtsys.initialize(target_context)  # the NRT's symbols: playouts allocate
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


# the kernel modules compiled with the NRT (they allocate); every other
# kernel is compiled with ``_nrt=False`` and imports none of these
# (``tests/kernel/test_loading.py`` checks both)
NRT_MODULES = frozenset(f"{_PACKAGE}.{m}" for m in ("pattern", "playout", "policy"))


def _uses_nrt(module):
    """May the kernel's code call the NRT?  Only the playouts' modules'.
    The NRT's set-up (it compiles a module of its own, about 25 ms) is
    left to the first of those loaded."""
    return module in NRT_MODULES


def install() -> bool:
    """Load gogame's kernels without the refresh from now on; True when
    installed (idempotent)."""
    cls = caching.Cache
    if not all(hasattr(cls, m) for m in ("_load_overload", "_guard_against_spurious_io_errors")):
        return False
    cls.load_overload = _load_overload
    return True


INSTALLED = install()
