"""The numba kernel: arrays in, codes out, no Python objects.

Modules: ``layout`` (the state array and the padded 1-D geometry),
``zobrist`` (the two key tables and from-scratch hashing), ``board``
(strings, captures, ko, trymove/popgo through the change stack), ``cache``
(the reading cache; ``pages`` allocates its table on huge-page
boundaries), ``komaster`` (who may take which ko while reading),
``reading`` (attack and defence), ``abdada`` (the currently-searching
table of parallel reading), ``pattern`` (3x3 pattern codes) and
``playout`` (the player); ``loading`` makes their cached code load
without numba's compiler registries.

The board, cache, reading and ABDADA functions are compiled with
``_nrt=False``: they allocate nothing, and without numba's reference
counting every array argument and slice no longer costs an atomic
increment and decrement of the array's meminfo -- 28 % of the reading time
before (perf on reading.tst), 1.3-1.4x faster after.  ``playout``
allocates, so it keeps the runtime.

numba's disk cache goes to a folder of its own outside the package
(``cache_dir``), named after a hash of these sources: a reinstall leaves no
compiled files inside site-packages, a read-only install works, and a
kernel edited anywhere (numba itself misses a changed callee in another
file) gets a fresh folder instead of a stale cache.  Set here, before any
kernel module is decorated; numba is not imported by this file.
"""

import hashlib
import os
import sys
import tempfile
from pathlib import Path

_HERE = Path(__file__).resolve().parent


def source_key() -> str:
    """16 hex digits of the SHA-256 of the kernel's sources (file names and
    bytes): every module but this one, which compiles nothing."""
    digest = hashlib.sha256()
    for path in sorted(_HERE.glob("*.py")):
        if path.name == "__init__.py":
            continue
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def _writable(path: str) -> bool:
    try:
        os.makedirs(path, exist_ok=True)
        tempfile.TemporaryFile(dir=path).close()
        return True
    except OSError:
        return False


def cache_dir() -> str:
    """The folder of numba's cache for these sources: under ``NUMBA_CACHE_DIR``
    when it is set, else ``$XDG_CACHE_HOME/gogame/numba`` (``~/.cache``), else
    the temporary folder; ``gogame-<source_key>`` inside it."""
    name = "gogame-" + source_key()
    user = os.environ.get("NUMBA_CACHE_DIR")
    if user and os.path.basename(os.path.normpath(user)) == name:
        return user  # a child process: the parent set it already
    xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    bases = [user] if user else [os.path.join(xdg, "gogame", "numba")]
    bases.append(os.path.join(tempfile.gettempdir(), f"gogame-{os.getuid()}", "numba"))
    for base in bases:
        if _writable(os.path.join(base, name)):
            return os.path.join(base, name)
    return os.path.join(bases[0], name)


def cache_is_cold() -> bool:
    """True when no kernel has been compiled into ``CACHE_DIR`` yet."""
    return not any(Path(CACHE_DIR).rglob("*.nbi"))


def cached(*functions: str) -> bool:
    """True when every ``"module.function"`` (e.g. ``"reading.read_rows"``)
    has an index file in ``CACHE_DIR``: it loads instead of compiling."""
    return all(any(Path(CACHE_DIR).rglob(f"{name}-*.nbi")) for name in functions)


def _use_cache_dir() -> str:
    path = cache_dir()
    os.environ["NUMBA_CACHE_DIR"] = path  # read when numba is imported, and by child processes
    if "numba" in sys.modules:  # numba came first: its config is read already
        sys.modules["numba"].config.CACHE_DIR = path
    return path


CACHE_DIR = _use_cache_dir()

# optional imports numba's registries probe: scipy's BLAS (for np.dot and
# linalg) and cffi (for cffi functions); the kernels use neither
_PROBES = ("scipy.linalg.cython_blas", "cffi")


def skip_optional_probes() -> None:
    """Load numba's CPU registries now, without their optional probes: for
    a process that runs only gogame (``gogame gtp``), called before the
    first kernel compiles (``loading`` makes loads skip the registries).
    numba's array-math registry imports scipy.linalg, when it is
    installed, only to learn whether np.dot and linalg can work
    (0.2 s of a 0.65 s start on the project machine), and its typing
    registry imports cffi (25 ms with pycparser).  Each import fails fast
    while the registries load and works again after.  Not for library use:
    other jitted code in the process then finds no BLAS and no cffi
    support.  Does nothing once numba's registries are loaded."""
    if "numba.np.arraymath" in sys.modules:
        return
    from numba.core.compiler_lock import global_compiler_lock
    from numba.core.registry import cpu_target

    blocked = [m for m in _PROBES if m not in sys.modules]
    for name in blocked:
        sys.modules[name] = None  # an import of it raises ImportError
    try:
        with global_compiler_lock:  # numba refreshes under it when it compiles or loads
            cpu_target.target_context.refresh()
    finally:
        for name in blocked:
            if sys.modules.get(name, 0) is None:
                del sys.modules[name]
