"""ABDADA's tables (gogame.kernel.abdada): the currently-searching table
(mark, unmark, busy; a full bucket overwrites way 0; generations instead of
clearing), move keys, and the stop flag the first thread to finish sets.
The answers of the threaded search are checked in tests/core/test_reader_threads.py."""

import numpy as np

from gogame.kernel import abdada as kab


# --------------------------------------------------------- the busy table
def keys_in_one_bucket(n):
    """``n`` distinct keys that fall in the same bucket."""
    return [np.int64(1 + i * kab.BUCKETS) for i in range(n)]


def test_mark_unmark_and_busy():
    table, flag = kab.new_table(), kab.new_flag()
    kab.next_question(table, flag)
    k = kab.move_key(np.int64(0x1234567), 60, flag)
    assert not kab.is_busy(table, k)
    kab.mark(table, k)
    kab.mark(table, k)  # already there: nothing more
    assert kab.is_busy(table, k)
    assert np.count_nonzero(table) == 1
    kab.unmark(table, k)
    assert not kab.is_busy(table, k) and not table.any()


def test_full_bucket_overwrites_way_zero_and_unmark_clears_all_copies():
    table = kab.new_table()
    keys = keys_in_one_bucket(kab.WAYS + 1)
    for k in keys:
        kab.mark(table, k)
    assert kab.is_busy(table, keys[-1])
    assert not kab.is_busy(table, keys[0])  # way 0 was overwritten
    b = int(keys[1] & (kab.BUCKETS - 1)) * kab.WAYS
    table[b + 1] = table[b + 2] = keys[1]  # two threads wrote the same key
    kab.unmark(table, keys[1])
    assert not kab.is_busy(table, keys[1])
    assert kab.is_busy(table, keys[3])


def test_move_keys_differ_by_move_and_are_never_empty():
    flag = kab.new_flag()
    kab.next_question(kab.new_table(), flag)
    node = np.int64(0x5DEECE66D)
    assert len({int(kab.move_key(node, m, flag)) for m in range(400)}) == 400
    assert kab.move_key(np.int64(1013904223), 0, flag) != 0


def test_a_new_generation_empties_the_table_without_clearing_it():
    table, flag = kab.new_table(), kab.new_flag()
    kab.next_question(table, flag)
    node = np.int64(0x1234567)
    old = [kab.move_key(node ^ np.int64(i * kab.BUCKETS), 7, flag) for i in range(kab.WAYS)]
    for k in old:
        kab.mark(table, k)  # left behind, as a lost unmark would
    assert all(kab.is_busy(table, k) for k in old)
    kab.next_question(table, flag)
    assert np.count_nonzero(table) == kab.WAYS  # not cleared, but stale:
    # the same move at the same node is another key now, not busy
    new = [kab.move_key(node ^ np.int64(i * kab.BUCKETS), 7, flag) for i in range(kab.WAYS)]
    assert set(map(int, new)).isdisjoint(map(int, old))
    assert not any(kab.is_busy(table, k) for k in new)
    # stale ways count as empty: marking fills them and overwrites nothing current
    for k in new:
        kab.mark(table, k)
    assert all(kab.is_busy(table, k) for k in new)


def test_generations_wrap_and_the_table_is_cleared_then():
    table, flag = kab.new_table(), kab.new_flag()
    kab.next_question(table, flag)
    assert flag[kab.F_GEN] == 1
    flag[kab.F_GEN] = kab.GEN_MAX
    kab.mark(table, kab.move_key(np.int64(99), 3, flag))
    flag[kab.F_STOP] = flag[kab.F_WINNER] = 1
    kab.next_question(table, flag)
    assert flag[kab.F_GEN] == 1 and not table.any()
    assert flag[kab.F_STOP] == flag[kab.F_WINNER] == 0
    k = kab.move_key(np.int64(-1), 5, flag)  # the largest generation's keys stay positive
    flag[kab.F_GEN] = kab.GEN_MAX
    assert 0 < k and 0 < kab.move_key(np.int64(-1), 5, flag)


def test_stop_flag_first_finisher_wins():
    flag = kab.new_flag()
    assert not kab.stopped(flag)
    assert kab.finish(flag, 3)
    assert not kab.finish(flag, 5)
    assert kab.stopped(flag) and flag[kab.F_WINNER] == 3
