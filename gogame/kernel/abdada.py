"""The currently-searching table of simplified ABDADA (Tom Kerrigan).

Threads that read the same question share one flat int64 array of
``BUCKETS x WAYS`` keys, without locks: a key marks "some thread is
searching this move at this node now".  A key is the node's question key
(position and question, 64 bits) XOR the move scrambled with Kerrigan's
``m * 1664525 + 1013904223``, cut to its low ``GEN_SHIFT`` bits, with the
question's generation (``flag[F_GEN]``, 1..``GEN_MAX``) in the bits above.
A way holding 0 or a key of another generation is empty: ``next_question``
bumps the generation instead of clearing the 1 MB table (it clears it only
when the generation wraps), so handing a question to the threads costs
nothing here.

* ``mark``: does nothing when the key is there already; otherwise takes an
  empty way (0 or another generation's key), or overwrites way 0 when all
  are taken;
* ``unmark``: clears every way holding the key (two threads may both have
  written it);
* ``is_busy``: is the key in its bucket?

Races only cost time: a stale mark reorders a move, a lost mark duplicates
work; every move is still searched, so results do not depend on them.  Not
done here: counting how many threads search a move (Weill's original
ABDADA keeps that count in the transposition table).

``flag`` is the shared control array of a parallel read: ``flag[F_STOP]``
is raised by the first thread to finish the root, ``flag[F_WINNER]``
names it, ``flag[F_GEN]`` is the generation of the busy table's keys.
"""

import numpy as np
from numba import njit

from . import loading  # noqa: F401  (installed before the first @njit)
from .atomics import atomic_cas, atomic_load, atomic_store

BUCKETS = 32768
WAYS = 4
F_STOP, F_WINNER, F_GEN = 0, 1, 2
FLAG_LEN = 3
GEN_SHIFT = 48  # a key's low bits; its generation sits above them
GEN_MAX = (1 << 15) - 1  # generations 1..GEN_MAX, so a key is positive and never 0
_LOW = (1 << GEN_SHIFT) - 1


def new_table():
    """An empty currently-searching table (1 MB)."""
    return np.zeros(BUCKETS * WAYS, np.int64)


def new_flag():
    return np.zeros(FLAG_LEN, np.int64)


def next_question(table, flag):
    """Ready ``table`` and ``flag`` for a new root question: lower the stop
    flag and bump the generation, so every key already in the table counts
    as empty.  The table is zeroed only when the generation wraps."""
    gen = int(flag[F_GEN]) % GEN_MAX + 1
    if gen == 1:
        table[:] = 0
    flag[F_STOP] = flag[F_WINNER] = 0
    flag[F_GEN] = gen


@njit(cache=True, _nrt=False, inline="always")
def move_key(node_key, m, flag):
    """The table key of move ``m`` at the node whose question key is
    ``node_key``, in the generation ``flag[F_GEN]`` (never 0 when that is
    1..GEN_MAX)."""
    k = node_key ^ (np.int64(m) * 1664525 + 1013904223)
    return (k & _LOW) | (flag[F_GEN] << GEN_SHIFT)


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
        old = atomic_load(table, b + w)
        if old == 0 or (old >> GEN_SHIFT) != (key >> GEN_SHIFT):
            if atomic_cas(table, b + w, old, key) == old:
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
