"""Huge-page-aligned tables (``gogame.kernel.pages``): zeroed, writable,
exactly the size asked for, aligned on Linux, released with the array."""

import gc
import sys

import numpy as np
import pytest

from gogame.kernel import pages

LINUX = sys.platform.startswith("linux")


def _mapped(addr):
    """Is ``addr`` inside some mapping of this process?"""
    for line in open("/proc/self/maps"):
        start, end = (int(x, 16) for x in line.split()[0].split("-"))
        if start <= addr < end:
            return True
    return False


@pytest.mark.parametrize("n", [1, 1000, (4 << 20) // 8 + 5, (8 << 20) // 8 - 3])
def test_zeros_are_zero_writable_and_of_the_size_asked(n):
    a = pages.zeros(n)
    assert a.dtype == np.int64 and a.shape == (n,) and a.flags["C_CONTIGUOUS"]
    assert not a.any()
    a[:] = 7
    assert int(a[0]) == 7 and int(a[-1]) == 7


@pytest.mark.skipif(not LINUX, reason="huge-page alignment is done on Linux only")
def test_large_tables_start_on_a_huge_page_and_go_with_their_array():
    n = (8 << 20) // 8 - 3
    a = pages.zeros(n)
    addr = a.ctypes.data
    assert addr % pages.HUGE == 0
    assert _mapped(addr) and _mapped(addr + n * 8 - 1)
    del a
    gc.collect()
    assert not _mapped(addr) and not _mapped(addr + n * 8 - 1), "the mapping outlived its array"


def test_small_tables_are_plain_numpy_arrays():
    a = pages.zeros(100)
    assert a.base is None or not isinstance(a.base, memoryview)
