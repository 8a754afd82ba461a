"""The currently-searching table of simplified ABDADA (Tom Kerrigan).

Threads that read the same question share one flat int64 array of
``BUCKETS x WAYS`` keys, without locks: a key marks "some thread is
searching this move at this node now".  A key is the node's question key
(position and question, 64 bits) XOR the move scrambled with Kerrigan's
``m * 1664525 + 1013904223``; 0 means an empty way.

* ``mark``: does nothing when the key is there already; otherwise takes an
  empty way, or overwrites way 0 when all are taken;
* ``unmark``: clears every way holding the key (two threads may both have
  written it);
* ``is_busy``: is the key in its bucket?

Races only cost time: a stale mark reorders a move, a lost mark duplicates
work; every move is still searched, so results do not depend on them.  Not
done here: counting how many threads search a move (Weill's original
ABDADA keeps that count in the transposition table).

``flag`` is the shared control array of a parallel read: ``flag[F_STOP]``
is raised by the first thread to finish the root, ``flag[F_WINNER]``
names it.
"""

import numpy as np
from numba import njit

from .atomics import atomic_cas, atomic_load, atomic_store

BUCKETS = 32768
WAYS = 4
F_STOP, F_WINNER = 0, 1
FLAG_LEN = 2


def new_table():
    """An empty currently-searching table (1 MB)."""
    return np.zeros(BUCKETS * WAYS, np.int64)


def new_flag():
    return np.zeros(FLAG_LEN, np.int64)


@njit(cache=True, _nrt=False, inline="always")
def move_key(node_key, m):
    """The table key of move ``m`` at the node whose question key is ``node_key``."""
    k = node_key ^ (np.int64(m) * 1664525 + 1013904223)
    return k if k != 0 else np.int64(1)


@njit(cache=True, _nrt=False, inline="always")
def _bucket(key):
    return (key & (BUCKETS - 1)) * WAYS


@njit(cache=True, _nrt=False)
def is_busy(table, key):
    b = _bucket(key)
    for w in range(WAYS):
        if atomic_load(table, b + w) == key:
            return True
    return False


@njit(cache=True, _nrt=False)
def mark(table, key):
    b = _bucket(key)
    for w in range(WAYS):
        if atomic_load(table, b + w) == key:
            return
    for w in range(WAYS):
        if atomic_cas(table, b + w, 0, key) == 0:
            return
    atomic_store(table, b, key)


@njit(cache=True, _nrt=False)
def unmark(table, key):
    b = _bucket(key)
    for w in range(WAYS):
        atomic_cas(table, b + w, key, 0)


@njit(cache=True, _nrt=False, inline="always")
def stopped(flag):
    """Has the first thread finished the root?"""
    return atomic_load(flag, F_STOP) != 0


@njit(cache=True, _nrt=False)
def finish(flag, thread):
    """Raise the stop flag; True for the first thread to call it."""
    if atomic_cas(flag, F_STOP, 0, 1) == 0:
        atomic_store(flag, F_WINNER, thread)
        return True
    return False
