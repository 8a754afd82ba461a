"""Parallel reading (``Reader(threads=n)``: ABDADA or the shared-cache
baseline, gogame.core.reader).

The central property: threads change node counts and time, never an answer.
Every question read with 2, 4 or 8 threads must get the serial answer, code
and move: a ladder, the hard problems of ``gogame bench threads``, the
reading.tst questions (../shared, skipped when absent) and a thousand
questions from the repo's games.
"""

import pytest

from gogame.core.coords import parse_gtp
from gogame.core.reader import Reader
from gogame.core.reading_cache import ReadingCache
from gogame.tools.bench import load_problems, problem_position
from tests.helpers import diagrams
from tests.helpers.questions import drop_aborted, run_script, sgf_script, tst_script

NODE_LIMIT = 20000


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
    p = diagrams.position(LADDER)
    target = parse_gtp("E4", 9)
    serial = Reader().attack(p, target)
    assert serial[0] == 1
    for n in (2, 4):
        r = Reader(threads=n, cache=ReadingCache(1))
        assert r.attack(p, target) == serial
        assert r.find_defense(p, target) == Reader().find_defense(p, target)
        assert p.stackp == 0 and p.hash == diagrams.position(LADDER).hash


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
def tst_base(reading_tst):
    script = tst_script(reading_tst)
    base = run_script(script, Reader(node_limit=NODE_LIMIT))
    return drop_aborted(script, base), base


@pytest.mark.parametrize("threads", [2, 4])
def test_reading_tst_verdicts_with_threads(tst_base, threads):
    script, base = tst_base
    answers = run_script(script, Reader(threads=threads, cache=ReadingCache(8)))
    assert {k: v for k, v in answers.items()} == {k: base[k] for k in answers}


@pytest.mark.slow
def test_stress_eight_threads_thousand_questions():
    """8 threads x 1000 questions from the repo's games: no crash, serial answers."""
    script = sgf_script(moves=(30, 60, 90, 120))
    base = run_script(script, Reader(node_limit=NODE_LIMIT))
    script = drop_aborted(script, base)
    asks = [i for i, s in enumerate(script) if s[0] == "ask"]
    assert len(asks) >= 1000, "the games must give 1000 questions"
    script = script[: asks[999] + 1]
    reader = Reader(threads=8, cache=ReadingCache(4))
    answers = run_script(script, reader)
    assert len(answers) == 1000
    assert answers == {k: base[k] for k in answers}
    assert sum(st["stopped"] for st in reader.thread_stats()) == 7 * 1000
