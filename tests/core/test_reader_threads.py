"""Parallel reading (``Reader(threads=n)``: ABDADA or the shared-cache
baseline, gogame.core.reader).

The central property: threads change node counts and time, never an answer.
Every question read with 2, 4 or 8 threads must get the serial answer, code
and move: a ladder, the hard problems of ``gogame bench threads``, the
reading.tst questions (../shared, skipped when absent) and a thousand
questions from the repo's games.
"""

import gc
import threading
import time

import pytest

from gogame.core.coords import parse_gtp
from gogame.core.reader import BoardCopy, Reader
from gogame.core.reading_cache import ReadingCache
from gogame.tools.bench import load_problems, problem_position
from tests.helpers import diagrams
from tests.helpers.paths import project_games
from tests.helpers.questions import (
    drop_aborted,
    position_at,
    run_script,
    sgf_script,
    tst_script,
    weak_strings,
)

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
        r = Reader(threads=n, cache=ReadingCache(1), serial_first=0)
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
        # serial_first=0: every thread joins each question (the smallest of
        # these take fewer nodes than the default serial start now)
        reader = Reader(threads=n, parallel=mode, cache=ReadingCache(16), serial_first=0)
        assert [ask(reader, q, p) for q, p in problems] == serial
        stats = reader.thread_stats()
        assert len(stats) == n
        assert sum(st["nodes"] for st in stats) == reader.nodes
        # one thread finishes each question first, every other stops
        assert reader.parallel_reads == len(problems)
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
    reader = Reader(threads=8, cache=ReadingCache(4), serial_first=0)  # all on the threads
    answers = run_script(script, reader)
    assert len(answers) == 1000
    assert answers == {k: base[k] for k in answers}
    assert reader.parallel_reads == 1000
    assert sum(st["stopped"] for st in reader.thread_stats()) == 7 * 1000


# ------------------------------------------- one reader, many positions
def mixed_games():
    """A game of each size from sgf/, and a second 19x19 one."""
    games = project_games()
    by_size = {}
    for path in games:
        by_size.setdefault(path.name.split("-")[2], []).append(path)
    return [by_size["19x19"][0], by_size["9x9"][0], by_size["13x13"][0], by_size["19x19"][1]]


def session(reader, cases, strings=8):
    """One reader asked in turn about positions of different games, sizes
    and moves, at stackp 0 and one trymove deeper (the serial attacker's
    move), and back: every answer, and the position's hash after each."""
    out = []
    for path, move in cases:
        p = position_at(path, move)
        for pt in weak_strings(p)[:strings]:
            attack = reader.attack(p, pt)
            out.append((pt, "attack", attack, reader.find_defense(p, pt), p.hash, p.stackp))
            if attack[0] and attack[1] is not None:
                attacker = 3 - p.color_at(pt)
                assert p.trymove(attack[1], attacker)
                if p.color_at(pt):
                    out.append((pt, "after", reader.find_defense(p, pt), reader.attack(p, pt)))
                    out.append((pt, "ladder", reader.ladder_attack(p, pt), p.hash, p.stackp))
                p.popgo()
    return out


CASES = [(g, m) for m in (35, 70, 110) for g in mixed_games()]


@pytest.mark.parametrize(
    "threads, serial_first, mode",
    [(2, 0, "abdada"), (2, 1000, "abdada"), (3, 40, "abdada"), (2, 0, "shared-cache")],
)
def test_one_reader_many_positions_answers_like_the_serial_one(threads, serial_first, mode):
    """The helpers' boards live as long as the reader and get only the used
    part of each new position: a stale board (another position, size,
    stackp or hash words) would read another question and answer it."""
    serial = session(Reader(cache=ReadingCache(8)), CASES)
    reader = Reader(
        threads=threads, serial_first=serial_first, parallel=mode, cache=ReadingCache(8)
    )
    assert session(reader, CASES) == serial
    assert len(serial) > 80
    assert reader.parallel_reads > 0
    if serial_first == 0:
        asked = sum(1 if x[1] == "ladder" else 2 for x in serial)  # every question
        assert reader.parallel_reads == asked
    stats = reader.thread_stats()
    assert sum(st["stopped"] for st in stats) == (threads - 1) * reader.parallel_reads


def test_easy_questions_are_read_alone():
    """A question answered within ``serial_first`` nodes never wakes the
    helpers: same answers, nodes and cache counters as the serial reader."""
    cases = CASES[:4]
    serial = Reader(cache=ReadingCache(8))
    reader = Reader(threads=2, serial_first=10**9, cache=ReadingCache(8))
    assert session(reader, cases) == session(serial, cases)
    assert reader.parallel_reads == 0 and reader._helpers is None
    assert reader.nodes == serial.nodes
    assert reader.cache_counters == serial.cache_counters


def test_node_limit_at_most_serial_first_reads_serially():
    problems = small_problems(2)
    serial = Reader(node_limit=500, cache=ReadingCache(16))
    reader = Reader(threads=2, node_limit=500, serial_first=1000, cache=ReadingCache(16))
    for q, p in problems:
        assert ask(reader, q, p) == ask(serial, q, p)
        assert reader.aborted == serial.aborted
    assert reader.parallel_reads == 0 and reader.nodes == serial.nodes


def helpers():
    """The reading helper threads alive now."""
    return [t for t in threading.enumerate() if t.name.startswith("gogame-read-")]


def new_helpers(before):
    """The helper threads alive now that were not in ``before`` (a set):
    helpers of earlier tests' readers may still be ending meanwhile."""
    return [t for t in helpers() if t not in before]


def ended(threads):
    """Whether ``threads`` have all ended within 10 s of the last reference
    to their reader going."""
    gc.collect()
    deadline = time.monotonic() + 10
    while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
        time.sleep(0.01)
    return not any(t.is_alive() for t in threads)


def test_helper_threads_start_once_and_end_with_the_reader():
    before = set(helpers())
    problems = small_problems(2)
    reader = Reader(threads=3, serial_first=0, cache=ReadingCache(4))
    assert new_helpers(before) == []  # none until a question needs them
    for q, p in problems:
        ask(reader, q, p)
    mine = new_helpers(before)
    assert len(mine) == 2 and reader.parallel_reads == 2
    del reader
    assert ended(mine)


# ------------------------------- a position's questions on the threads
def batch_cases():
    """Positions of games of every size, at several moves (and one trymove
    deeper for a few), each with its strings of at most four liberties."""
    out = []
    for path, move in CASES:
        p = position_at(path, move)
        out.append((p, weak_strings(p, 4)))
    return out


def questions_of(stones):
    return [(kind, pt) for pt in stones for kind in ("attack", "defend")]


@pytest.mark.parametrize("threads", [2, 3, 4])
def test_read_many_answers_like_a_serial_loop(threads):
    """The threads take different questions of one position, each on its
    own board: the answers are the serial loop's, in order, and the
    position is as it was."""
    cases = batch_cases()
    serial = Reader(cache=ReadingCache(8))
    reader = Reader(threads=threads, cache=ReadingCache(8))
    asked = 0
    for p, stones in cases:
        qs = questions_of(stones)
        before = (p.hash, p.stackp)
        loop = [
            serial.attack(p, pt) if kind == "attack" else serial.find_defense(p, pt)
            for kind, pt in qs
        ]
        assert reader.read_many(p, qs) == loop
        assert (p.hash, p.stackp) == before
        assert reader.examine_strings(p, stones) == [
            (loop[2 * i], loop[2 * i + 1] if loop[2 * i][0] else None) for i in range(len(stones))
        ]
        asked += len(qs)
    assert asked > 300
    stats = reader.thread_stats()
    assert all(st["nodes"] > 0 for st in stats), "every thread took questions"
    assert reader.parallel_reads == 0  # no question was split
    assert sum(st["marks"] + st["stopped"] for st in stats) == 0


def game_copies(path, moves):
    """Copies of one game's positions after each of ``moves``, with the
    answers ``examine_strings`` gives on each position alone."""
    copies, alone = [], []
    for move in moves:
        p = position_at(path, move)
        stones = weak_strings(p, 4)
        copies.append(BoardCopy(p, stones))
        alone.append(Reader(cache=ReadingCache(8)).examine_strings(p, stones))
    return p, copies, alone


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_examine_copies_spans_positions_with_the_answers_of_each(threads):
    """One batch over several positions of a game: every position's answers
    are what it gives alone, whichever thread read them, and the position
    handed in is unchanged."""
    path = mixed_games()[0]
    last, copies, alone = game_copies(path, (20, 35, 36, 70, 110))
    before = (last.hash, last.stackp, last.moves())
    reader = Reader(threads=threads, cache=ReadingCache(8))
    assert reader.examine_copies(last, copies) == alone
    assert sum(len(row) for row in alone) > 60
    assert (last.hash, last.stackp, last.moves()) == before
    if threads > 1:
        assert sum(st["nodes"] for st in reader.thread_stats()[1:]) > 0, "the helpers read"
    assert reader.examine_copies(last, []) == []


@pytest.mark.parametrize("threads", [1, 2])
def test_started_copies_answer_as_before_while_the_game_goes_on(threads):
    """``start_copies`` hands a batch to the helpers and returns; the
    caller may then play on the position it gave, and ``result()`` still
    answers for the copies, as ``examine_copies`` does."""
    path = mixed_games()[0]
    last, copies, alone = game_copies(path, (20, 35, 36, 70))
    reader = Reader(threads=threads, cache=ReadingCache(8))
    pending = reader.start_copies(last, copies)
    empty = [(r, c) for r in range(19) for c in range(19) if not last.color_at((r, c))]
    for pt, color in zip(empty[:6], (1, 2) * 3, strict=True):
        last.play(pt, color)  # the game goes on meanwhile
    assert pending.result() == alone
    assert reader.examine_copies(last, copies) == alone


def test_a_board_copy_is_refused_inside_a_trymove():
    p, stones = batch_cases()[0]
    empty = next((r, c) for r in range(19) for c in range(19) if not p.color_at((r, c)))
    assert p.trymove(empty, 1)
    with pytest.raises(ValueError, match="outside trymove"):
        BoardCopy(p, stones)
    p.popgo()


def test_read_many_one_trymove_deep_and_on_a_fresh_reader():
    """Helpers brought to a position inside a trymove (stackp 1) read that
    position, and a first call starts the helpers."""
    path, move = CASES[0]
    p = position_at(path, move)
    stones = weak_strings(p, 4)
    mover = None
    for pt in stones:
        attack = Reader().attack(p, pt)
        if attack[0] and attack[1] is not None:
            mover = (attack[1], 3 - p.color_at(pt))
            break
    assert mover is not None
    assert p.trymove(*mover)
    stones = [pt for pt in stones if p.color_at(pt)]
    serial = Reader().read_many(p, questions_of(stones))
    assert Reader(threads=2).read_many(p, questions_of(stones)) == serial
    assert p.stackp == 1
    p.popgo()


def test_read_many_with_one_thread_is_the_plain_loop():
    p, stones = batch_cases()[0]
    qs = questions_of(stones)
    loop, batch = Reader(cache=ReadingCache(8)), Reader(cache=ReadingCache(8))
    answers = [loop.attack(p, pt) if k == "attack" else loop.find_defense(p, pt) for k, pt in qs]
    assert batch.read_many(p, qs) == answers
    assert batch.nodes == loop.nodes and batch.cache_counters == loop.cache_counters
    assert batch.read_many(p, []) == [] and Reader(threads=2).read_many(p, []) == []


def test_read_many_refuses_bad_questions_before_reading():
    p, stones = batch_cases()[0]
    reader = Reader(threads=2)
    with pytest.raises(ValueError, match="attack or defend"):
        reader.read_many(p, [("attack", stones[0]), ("ladder", stones[0])])
    empty = next(pt for pt in ((r, c) for r in range(19) for c in range(19)) if not p.color_at(pt))
    with pytest.raises(ValueError, match="empty"):
        reader.read_many(p, [("attack", stones[0]), ("defend", empty)])
    assert reader.nodes == 0 and reader._helpers is None


def test_read_many_with_a_node_limit_reports_aborted():
    for q, p in small_problems(4):
        pt = parse_gtp(q["target"], q["size"])
        serial = Reader(node_limit=50, cache=ReadingCache(0))
        alone = serial.attack(p, pt) if q["question"] == "attack" else serial.find_defense(p, pt)
        assert serial.aborted
        reader = Reader(threads=2, node_limit=50, cache=ReadingCache(0))  # no cache: same guess
        qs = [(q["question"], pt), (q["question"], pt)]
        assert reader.read_many(p, qs) == [alone, alone]
        assert reader.aborted


def test_helpers_of_a_batch_reader_end_with_it():
    before = set(helpers())
    p, stones = batch_cases()[0]
    reader = Reader(threads=3, cache=ReadingCache(4))
    reader.examine_strings(p, stones)
    mine = new_helpers(before)
    assert len(mine) == 2
    del reader
    assert ended(mine)
