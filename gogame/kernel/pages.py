"""Zeroed int64 arrays that start on a 2 MB boundary, for huge pages.

The reading cache is probed at random over megabytes: with 4 KB pages most
probes also miss the TLB.  Linux backs an anonymous mapping with 2 MB
("transparent huge") pages only where a whole aligned 2 MB block lies
inside it, and ``numpy.zeros`` returns memory 16 bytes past a page start,
so a quarter of an 8 MB table stayed on small pages (aligning it cut the
reading time on reading.tst by 2 %).

``zeros(n)``: on Linux, for 4 MB or more, map ``n * 8`` bytes plus 2 MB of
address space, unmap the unaligned head and the tail, and advise huge
pages; what stays mapped is the array itself (rounded up to a 4 KB page),
so a byte budget still bounds it.  It is unmapped when the array goes.
Elsewhere, for small arrays, or when a call fails: ``numpy.zeros``.  Not
done: explicit (hugetlbfs) huge pages, which need the system's setup.
"""

import ctypes
import sys
import weakref

import numpy as np

HUGE = 1 << 21
PAGE = 1 << 12
_PROT_READ_WRITE = 0x1 | 0x2
_MAP_PRIVATE_ANONYMOUS = 0x02 | 0x20
_MADV_HUGEPAGE = 14
_FAILED = ctypes.c_void_p(-1).value

_libc = None


def _load_libc():
    """libc with the three calls typed, or None off Linux or on failure."""
    global _libc
    if _libc is None:
        _libc = False
        if sys.platform.startswith("linux"):
            try:
                libc = ctypes.CDLL(None)
                libc.mmap.restype = ctypes.c_void_p
                libc.mmap.argtypes = (
                    ctypes.c_void_p,
                    ctypes.c_size_t,
                    ctypes.c_int,
                    ctypes.c_int,
                    ctypes.c_int,
                    ctypes.c_long,
                )
                libc.munmap.argtypes = (ctypes.c_void_p, ctypes.c_size_t)
                libc.madvise.argtypes = (ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int)
                _libc = libc
            except (OSError, AttributeError):
                pass
    return _libc or None


def zeros(n):
    """A zeroed int64 array of ``n`` items; 2 MB-aligned when large (above)."""
    nbytes = int(n) * 8
    libc = _load_libc() if nbytes >= 2 * HUGE else None
    if libc is None:
        return np.zeros(n, np.int64)
    span = nbytes + HUGE
    addr = libc.mmap(None, span, _PROT_READ_WRITE, _MAP_PRIVATE_ANONYMOUS, -1, 0)
    if addr is None or addr == _FAILED:
        return np.zeros(n, np.int64)
    start = (addr + HUGE - 1) & ~(HUGE - 1)
    end = (start + nbytes + PAGE - 1) & ~(PAGE - 1)
    if start > addr:
        libc.munmap(addr, start - addr)
    if addr + span > end:
        libc.munmap(end, addr + span - end)
    libc.madvise(start, end - start, _MADV_HUGEPAGE)  # a hint: failure is harmless
    buffer = (ctypes.c_int64 * n).from_address(start)
    weakref.finalize(buffer, libc.munmap, start, end - start)
    return np.ctypeslib.as_array(buffer)
