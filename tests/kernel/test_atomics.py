"""The atomics of the parallel search (gogame.kernel.atomics): add, compare
and swap, load and store, exact under contention."""

import threading

import numpy as np
from numba import njit

from gogame.kernel.atomics import atomic_add, atomic_cas, atomic_load, atomic_store


@njit(nogil=True)
def _hammer(a, n):
    for _ in range(n):
        atomic_add(a, 0, 1)
    return atomic_load(a, 0)


def test_atomic_add_is_exact_under_contention():
    a = np.zeros(2, np.int64)
    _hammer(a, 1)
    a[:] = 0
    threads = [threading.Thread(target=_hammer, args=(a, 300_000)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert a[0] == 1_200_000


@njit
def _cas_steps(a):
    first = atomic_cas(a, 1, 0, 7)  # succeeds: old value 0
    second = atomic_cas(a, 1, 0, 9)  # fails: the element is 7
    old = atomic_store(a, 2, 5)
    return first, second, old, atomic_load(a, 1), atomic_load(a, 2)


def test_cas_and_store_semantics():
    a = np.zeros(3, np.int64)
    a[2] = 4
    assert _cas_steps(a) == (0, 7, 4, 7, 5)
