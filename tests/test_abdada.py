"""Parallel reading: atomics, the currently-searching table, and ABDADA answers.

The central property: threads change node counts and time, never an answer.
Every question read with 2, 4 or 8 threads (ABDADA or the shared-cache
baseline) must get the serial answer, code and move: the reading.tst
questions (../shared, skipped when absent), the repo's games, and the hard
problems of ``gogame bench threads``.
"""
import threading

import numpy as np
import pytest
from numba import njit

from conftest import shared_path
from test_cache import drop_aborted, from_diagram, run_script, sgf_script, tst_script
from gogame.bench import load_problems, problem_position
from gogame.cache import ReadingCache
from gogame.coords import parse_gtp
from gogame.kernel import abdada as kab
from gogame.kernel.atomics import atomic_add, atomic_cas, atomic_load, atomic_store
from gogame.reading import Reader

NODE_LIMIT = 20000


# ------------------------------------------------------------------ atomics
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
    first = atomic_cas(a, 1, 0, 7)        # succeeds: old value 0
    second = atomic_cas(a, 1, 0, 9)       # fails: the element is 7
    old = atomic_store(a, 2, 5)
    return first, second, old, atomic_load(a, 1), atomic_load(a, 2)


def test_cas_and_store_semantics():
    a = np.zeros(3, np.int64)
    a[2] = 4
    assert _cas_steps(a) == (0, 7, 4, 7, 5)


# --------------------------------------------------------- the busy table
def keys_in_one_bucket(n):
    """``n`` distinct keys that fall in the same bucket."""
    return [np.int64(1 + i * kab.BUCKETS) for i in range(n)]


def test_mark_unmark_and_busy():
    table = kab.new_table()
    k = kab.move_key(np.int64(0x1234567), 60)
    assert not kab.is_busy(table, k)
    kab.mark(table, k)
    kab.mark(table, k)                      # already there: nothing more
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
    assert not kab.is_busy(table, keys[0])   # way 0 was overwritten
    b = int(keys[1] & (kab.BUCKETS - 1)) * kab.WAYS
    table[b + 1] = table[b + 2] = keys[1]  # two threads wrote the same key
    kab.unmark(table, keys[1])
    assert not kab.is_busy(table, keys[1])
    assert kab.is_busy(table, keys[3])


def test_move_keys_differ_by_move_and_are_never_empty():
    node = np.int64(0x5DEECE66D)
    assert len({int(kab.move_key(node, m)) for m in range(400)}) == 400
    assert kab.move_key(np.int64(1013904223), 0) != 0


def test_stop_flag_first_finisher_wins():
    flag = kab.new_flag()
    assert not kab.stopped(flag)
    assert kab.finish(flag, 3)
    assert not kab.finish(flag, 5)
    assert kab.stopped(flag) and flag[kab.F_WINNER] == 3


# ------------------------------------------------------------ same answers
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X O . . . .
. . . X O X . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
"""


def test_threads_answer_a_ladder_like_the_serial_search():
    p = from_diagram(LADDER)
    target = parse_gtp("E4", 9)
    serial = Reader().attack(p, target)
    assert serial[0] == 1
    for n in (2, 4):
        r = Reader(threads=n, cache=ReadingCache(1))
        assert r.attack(p, target) == serial
        assert r.find_defense(p, target) == Reader().find_defense(p, target)
        assert p.stackp == 0 and p.hash == from_diagram(LADDER).hash


def small_problems(k=8):
    problems = sorted(load_problems(), key=lambda q: q["serial_nodes"])[:k]
    return [(q, problem_position(q)) for q in problems]


def ask(reader, problem, position):
    target = parse_gtp(problem["target"], problem["size"])
    reader.cache.clear()
    if problem["question"] == "attack":
        return reader.attack(position, target)
    return reader.find_defense(position, target)


@pytest.mark.parametrize("mode", ["abdada", "shared-cache"])
def test_hard_problems_same_answers_and_stats(mode):
    problems = small_problems()
    serial = [ask(Reader(cache=ReadingCache(16)), q, p) for q, p in problems]
    for n in (2, 4):
        reader = Reader(threads=n, parallel=mode, cache=ReadingCache(16))
        assert [ask(reader, q, p) for q, p in problems] == serial
        stats = reader.thread_stats()
        assert len(stats) == n
        assert sum(st["nodes"] for st in stats) == reader.nodes
        # one thread finishes each root question first; every other stops
        assert sum(st["stopped"] for st in stats) == (n - 1) * len(problems)
        marks = sum(st["marks"] for st in stats)
        assert (marks > 0) == (mode == "abdada")
        if mode == "shared-cache":
            assert sum(st["deferred"] for st in stats) == 0


def test_serial_reader_makes_no_marks():
    reader = Reader(cache=ReadingCache(16))
    for q, p in small_problems(3):
        ask(reader, q, p)
    (st,) = reader.thread_stats()
    assert st["marks"] == st["deferred"] == st["stopped"] == 0
    assert st["nodes"] > 0


@pytest.fixture(scope="module")
def tst_base():
    path = shared_path("regress", "gnugo", "reading.tst")
    script = tst_script(path)
    base = run_script(script, Reader(node_limit=NODE_LIMIT))
    return drop_aborted(script, base), base


@pytest.mark.parametrize("threads", [2, 4])
def test_reading_tst_verdicts_with_threads(tst_base, threads):
    script, base = tst_base
    answers = run_script(script, Reader(threads=threads, cache=ReadingCache(8)))
    assert {k: v for k, v in answers.items()} == {k: base[k] for k in answers}


def test_stress_eight_threads_thousand_questions():
    """8 threads x 1000 questions from the repo's games: no crash, serial answers."""
    script = sgf_script(moves=(30, 60, 90, 120))
    base = run_script(script, Reader(node_limit=NODE_LIMIT))
    script = drop_aborted(script, base)
    asks = [i for i, s in enumerate(script) if s[0] == "ask"]
    assert len(asks) >= 1000, "the games must give 1000 questions"
    script = script[:asks[999] + 1]
    reader = Reader(threads=8, cache=ReadingCache(4))
    answers = run_script(script, reader)
    assert len(answers) == 1000
    assert answers == {k: base[k] for k in answers}
    assert sum(st["stopped"] for st in reader.thread_stats()) == 7 * 1000


def test_gtp_threads_answer_and_report_per_thread_counters():
    from gogame.engine import Engine
    from gogame.gtp import GtpEngine
    e = GtpEngine(session=Engine(9, threads=2))
    for move in ("b d4", "b d5", "w e5", "w e4", "b f4", "b e3"):
        assert e.send(f"play {move}") == "= \n\n"
    assert e.send("attack e4").startswith("= 1 ")
    lines = e.send("gogame-thread_stats")[2:-2].split("\n")
    assert [ln.split()[:2] for ln in lines] == [["thread", "0"], ["thread", "1"]]
    nodes = sum(int(ln.split()[ln.split().index("nodes") + 1]) for ln in lines)
    assert e.send("get_reading_node_counter") == f"= {nodes}\n\n"
