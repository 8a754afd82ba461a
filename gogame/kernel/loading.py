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

Each cache folder is checked once (``_ensure_cache_path``), not once per
decorated function.

``typed(sig)`` is ``njit(sig)`` that makes its signature when first
needed instead of at import (the board's helpers).  On a numba without
the dispatcher methods it replaces, it is plain ``njit(sig)``.
"""

import os

from numba import njit
from numba.core import caching
from numba.core.compiler_lock import global_compiler_lock
from numba.core.runtime import rtsys

_PACKAGE = __name__.rpartition(".")[0]  # gogame.kernel
_numba_load = caching.Cache.load_overload

# the kernel modules compiled with the NRT (they allocate); every other
# kernel is compiled with ``_nrt=False`` and imports none of these
# (``tests/kernel/test_loading.py`` checks both)
NRT_MODULES = frozenset(f"{_PACKAGE}.{m}" for m in ("pattern", "playout", "policy"))


def _load_overload(self, sig, target_context):
    """``Cache.load_overload`` without the registry refresh, for gogame's
    kernels; every other function loads through numba's own."""
    module = getattr(self._py_func, "__module__", "")
    if not module.startswith(_PACKAGE):
        return _numba_load(self, sig, target_context)
    if module in NRT_MODULES:  # the NRT's set-up (about 25 ms) only for these
        rtsys.initialize(target_context)
    with self._guard_against_spurious_io_errors():
        return self._load_overload(sig, target_context)


def typed(sig, **options):
    """``njit(cache=True, **options)`` with the one signature ``sig``, made
    when first needed -- the first call from Python, or the first compile
    of a kernel that calls it -- not when the module is imported.  From
    then on no other signature is compiled: callers' arguments are cast to
    it, as with ``njit(sig)``.  A warm start then loads only what it calls
    (a cached kernel holds its callees' code), not each such helper at
    import."""

    def wrap(py_func):
        dispatcher = njit(cache=True, **options)(py_func)
        if not hasattr(dispatcher, "disable_compile"):  # NUMBA_DISABLE_JIT
            return dispatcher
        if not all(hasattr(dispatcher, a) for a in _SEALED):  # another numba
            return njit(sig, cache=True, **options)(py_func)
        _seal_on_first_use(dispatcher, sig)
        return dispatcher

    return wrap


_SEALED = ("get_call_template", "_compile_for_args", "_can_compile")  # numba's, replaced


def _seal_on_first_use(dispatcher, sig):
    """Compile (or load) ``sig`` and close ``dispatcher`` to other
    signatures before numba first types a call to it (a caller's compile)
    or compiles it for a call from Python."""
    call_template = dispatcher.get_call_template
    compile_for_args = dispatcher._compile_for_args

    def seal():
        if dispatcher._can_compile:
            with global_compiler_lock:
                if dispatcher._can_compile:
                    dispatcher.compile(sig)
                    dispatcher.disable_compile()

    def get_call_template(args, kws):
        seal()
        return call_template(args, kws)

    def _compile_for_args(*args, **kws):
        """numba's: the callable the call goes on to (see numba's
        dispatcher); here the dispatcher itself, sealed, which casts."""
        if not dispatcher._can_compile:  # sealed, and no cast fits: numba's error
            return compile_for_args(*args, **kws)
        seal()
        return dispatcher

    dispatcher.get_call_template = get_call_template
    dispatcher._compile_for_args = _compile_for_args


_LOCATOR = getattr(caching, "_CacheLocator", None)  # the base of numba's cache locators
_numba_ensure = getattr(_LOCATOR, "ensure_cache_path", None)
_checked_paths: set[str] = set()  # cache folders found writable in this process


def _ensure_cache_path(self):
    """``ensure_cache_path`` once per folder: numba makes the folder and
    writes a temporary file there for every function it decorates (about
    0.1 ms each, some 130 at a warm start); a folder that passed stays
    trusted while it exists."""
    path = self.get_cache_path()
    if path in _checked_paths and os.path.isdir(path):
        return
    _numba_ensure(self)
    _checked_paths.add(path)


def install() -> bool:
    """Load gogame's kernels without the refresh, and check each cache
    folder once, from now on; True when installed (idempotent)."""
    cls = caching.Cache
    if not all(hasattr(cls, m) for m in ("_load_overload", "_guard_against_spurious_io_errors")):
        return False
    cls.load_overload = _load_overload
    if _numba_ensure is not None:
        _LOCATOR.ensure_cache_path = _ensure_cache_path
    return True


INSTALLED = install()
