"""The reading cache (gogame.core.reading_cache) under the reader: exact
reuse, statistics, byte budget, schemes.

The central property: the cache changes node counts and time, never an
answer.  Reading answers (code and move) must be identical with the cache
off, ``double`` and ``full``, at every budget (tiny ones force replacement),
with either replacement policy, and with ``hash_bits`` so small that tags
collide all the time.  ``single`` (no verification) is the control: with few
hash bits its undetected collisions change answers.

Questions (tests/helpers/questions.py): every string with at most 3
liberties, attacked and defended, at moves 40, 80 and 120 of the repo's
games in sgf/ (those the uncached reader answers within a node limit), and
the attack/defend questions of GNU Go's reading.tst (../shared, skipped when
absent).  The table itself (keys, verification, torn entries, replacement)
is tested in tests/kernel/test_cache.py.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gogame.core.position import Position
from gogame.core.reader import Reader
from gogame.core.reading_cache import ReadingCache
from gogame.kernel import reading as kr
from gogame.kernel.layout import BLACK
from tests.helpers import diagrams
from tests.helpers.questions import drop_aborted, run_script, sgf_script, tst_script, weak_strings
from tests.helpers.shapes import KO_POSITION, LADDER

NODE_LIMIT = 20000  # questions the uncached reader answers within this
BUDGETS_MB = (0.001, 0.01, 0.1, 1.0, 16.0)
# The fast run (-m "not slow") keeps the extremes of a sweep: the smallest
# budget (constant replacement) and the largest, the fewest hash bits and
# the most; the full run reads at every value.
BUDGETS = [
    b if b in (BUDGETS_MB[0], BUDGETS_MB[-1]) else pytest.param(b, marks=pytest.mark.slow)
    for b in BUDGETS_MB
]
SIZES = (9, 13, 19)


def answered(script, **cache_args):
    """(answers, reader) for ``script`` with a fresh Reader and cache;
    ``reader.nodes`` is the total over the script."""
    reader = Reader(cache=ReadingCache(**cache_args))
    return run_script(script, reader), reader


@pytest.fixture(scope="module")
def sgf_questions():
    """(script, uncached answers) over the repo's games."""
    script = sgf_script()
    base = run_script(script, Reader(node_limit=NODE_LIMIT))
    script = drop_aborted(script, base)
    return script, {k: v for k, v in base.items() if v is not None}


@pytest.fixture(scope="module")
def tst_questions(reading_tst):
    script = tst_script(reading_tst)
    base = run_script(script, Reader(node_limit=NODE_LIMIT))
    script = drop_aborted(script, base)
    return script, {k: v for k, v in base.items() if v is not None}


def differences(answers, base):
    return {k: (base[k], answers[k]) for k in base if answers[k] != base[k]}


def check_stats(reader):
    """The counters add up; every miss is a node searched and stored."""
    st_ = reader.cache_stats()
    assert st_["hits"] + st_["misses"] == st_["probes"]
    assert 0 <= st_["hits"] <= st_["probes"]
    assert st_["misses"] == reader.nodes, "a probe that misses must count one node"
    assert st_["stores"] == reader.nodes, "every node searched (no node limit) is stored"
    assert st_["stores"] >= st_["replacements"] >= 0
    assert 0 <= st_["collisions"] <= st_["probes"]
    assert 0 <= st_["entries_in_use"] <= st_["capacity"]
    assert st_["bytes_allocated"] == st_["capacity"] * st_["bytes_per_entry"]
    assert st_["bytes_allocated"] <= int(st_["cache_mb"] * 2**20)
    return st_


# ----------------------------------------------------- identical answers
def test_question_set_is_substantial(sgf_questions):
    script, base = sgf_questions
    assert len(base) > 500
    assert any(code for code, _ in base.values()) and any(not code for code, _ in base.values())


@pytest.mark.parametrize("scheme", ["double", "full"])
@pytest.mark.parametrize("budget", BUDGETS)
def test_same_answers_any_budget(sgf_questions, scheme, budget):
    script, base = sgf_questions
    answers, reader = answered(script, budget_mb=budget, scheme=scheme)
    assert differences(answers, base) == {}
    st_ = check_stats(reader)
    assert st_["hits"] > 0 and st_["collisions"] == 0
    if budget <= 0.01:
        assert st_["replacements"] > 0, "a tiny budget must force replacement"


@pytest.mark.parametrize("scheme", ["double", "full"])
@pytest.mark.parametrize("budget", [0.001, 0.05])
def test_same_answers_way0_policy(sgf_questions, scheme, budget):
    script, base = sgf_questions
    answers, reader = answered(script, budget_mb=budget, scheme=scheme, policy="way0")
    assert differences(answers, base) == {}
    check_stats(reader)


def test_cache_saves_nodes(sgf_questions):
    script, base = sgf_questions
    off = Reader()
    run_script(script, off)
    assert off.cache_counters == (0, 0, 0, 0, 0)
    _, on = answered(script, budget_mb=16, scheme="double")
    assert on.nodes < off.nodes / 2


@pytest.mark.parametrize(
    "scheme,budget", [("double", 0.001), ("full", 0.01), ("double", 16.0), ("full", 16.0)]
)
def test_same_answers_reading_tst(tst_questions, scheme, budget):
    script, base = tst_questions
    assert len(base) > 75  # a third of reading.tst at least
    answers, reader = answered(script, budget_mb=budget, scheme=scheme)
    assert differences(answers, base) == {}
    check_stats(reader)


@pytest.mark.parametrize("diagram", [KO_POSITION, LADDER], ids=["ko", "ladder"])
def test_same_answers_hand_positions(diagram):
    p = diagrams.position(diagram)
    targets = weak_strings(p, 4)
    assert targets

    def ask(reader):
        return [
            (f(p, t))
            for t in targets
            for f in (reader.attack, reader.find_defense, reader.ladder_attack)
        ]

    base = ask(Reader())
    for scheme in ("double", "full", "single"):
        for budget in (0.001, 1.0):
            reader = Reader(cache=ReadingCache(budget, scheme, size=p.size))
            assert ask(reader) == base
            assert ask(reader) == base  # again, from a warm cache
            check_stats(reader)


def test_ko_position_reads_a_ko():
    """The hand-built ko position really is one (a capture that makes a ko)."""
    p = diagrams.position(KO_POSITION)
    assert p.countlib((3, 2)) == 1  # white C4 in atari
    assert p.trymove((3, 3), BLACK) and p.ko == (3, 2)
    p.popgo()


# ---------------------------------------------- hash bits and collisions
@pytest.mark.parametrize("scheme", ["double", "full"])
@pytest.mark.parametrize("bits", [1, pytest.param(8, marks=pytest.mark.slow), 12])
def test_few_hash_bits_collisions_detected(sgf_questions, scheme, bits):
    script, base = sgf_questions
    answers, reader = answered(script, budget_mb=1.0, scheme=scheme, hash_bits=bits)
    st_ = check_stats(reader)
    assert st_["collisions"] > 0
    assert differences(answers, base) == {}


def test_single_scheme_undetected_collisions_change_answers(sgf_questions):
    """The control: key word 0 alone, 12 bits of it.  Hash keys come from
    fixed seeds, so this is deterministic; it changes hundreds of answers."""
    script, base = sgf_questions
    answers, reader = answered(script, budget_mb=1.0, scheme="single", hash_bits=12)
    st_ = reader.cache_stats()
    assert st_["collisions"] == 0  # nothing to detect them with
    assert len(differences(answers, base)) > 0


def test_single_scheme_full_bits_is_exact(sgf_questions):
    script, base = sgf_questions
    answers, _ = answered(script, budget_mb=1.0, scheme="single")
    assert differences(answers, base) == {}


# ----------------------------------------------------------- byte budget
@settings(max_examples=100, deadline=None)
@given(
    mb=st.floats(0, 64),
    scheme=st.sampled_from(["double", "full", "single"]),
    size=st.sampled_from(SIZES),
)
def test_budget_mb_never_exceeded(mb, scheme, size):
    c = ReadingCache(mb, scheme, size=size)
    assert c.bytes_allocated <= mb * 2**20
    assert c.capacity * c.bytes_per_entry == c.bytes_allocated
    assert c.capacity >= int(mb * 2**20) // c.bytes_per_entry - 1
    c.for_size(9 if size != 9 else 19)
    assert c.bytes_allocated <= mb * 2**20


def test_entry_sizes():
    for size in SIZES:
        assert ReadingCache(1, "double", size=size).bytes_per_entry == 24
        assert ReadingCache(1, "single", size=size).bytes_per_entry == 16
    assert [ReadingCache(1, "full", size=n).bytes_per_entry for n in SIZES] == [56, 80, 128]
    # the goal: double holds >= 4.5x the entries of full per MB at 19x19
    assert ReadingCache(1, "double").capacity >= 4.5 * ReadingCache(1, "full").capacity


def test_zero_and_tiny_budgets_disable():
    p = diagrams.position(LADDER)
    for mb in (0, 1e-6):
        r = Reader(cache=ReadingCache(mb, "full", size=9))
        assert r.cache.capacity == 0 and r.cache.bytes_allocated == 0
        r.attack(p, (3, 4))
        assert r.cache_stats()["entries_in_use"] == 0


@pytest.mark.parametrize("bad", [-1, -0.001, float("nan"), float("inf"), 1e9, "x", None, "1e6"])
def test_bad_budget_refused(bad):
    with pytest.raises(ValueError):
        ReadingCache(bad)


@pytest.mark.parametrize(
    "kwargs",
    [
        dict(scheme="triple"),
        dict(scheme="DOUBLE"),
        dict(scheme=None),
        dict(hash_bits=0),
        dict(hash_bits=65),
        dict(hash_bits=8.5),
        dict(hash_bits="x"),
        dict(policy="lru"),
    ],
)
def test_bad_scheme_or_bits_refused(kwargs):
    with pytest.raises(ValueError):
        ReadingCache(1.0, **kwargs)


def test_good_arguments_accepted():
    c = ReadingCache("2", "full", hash_bits="10", size=13, policy="way0")
    assert (c.budget_mb, c.hash_bits, c.policy) == (2.0, 10, "way0")


def test_depth_settings_ids_distinct():
    """The reader's settings id (part of every question) must tell apart every
    depth setting that levels and increase/decrease_depths can produce."""
    seen = {}
    r = Reader()
    for level in range(1, 11):
        for offset in range(-12, 13):
            r.level, r.depth_offset = level, offset
            r._prepare(Position(9))
            sid = int(r.ctx[kr.C_SETTINGS])
            assert seen.setdefault(sid, r.depths) == r.depths
    assert len(seen) > 20


def test_board_size_is_part_of_every_question():
    """The same stones on two board sizes hash alike (one stone on the same
    kernel index), so the size is in the settings id of every question."""
    a, b = Position(9), Position(19)
    a.play(a.pt(24), BLACK)  # B2 on 9x9
    b.play(b.pt(24), BLACK)  # C1 on 19x19
    assert (a.pt(24), b.pt(24)) == ((1, 1), (0, 2)) and a.hash == b.hash
    r = Reader()
    ids = set()
    for size in SIZES:
        r._prepare(Position(size))
        ids.add(int(r.ctx[kr.C_SETTINGS]))
    assert len(ids) == len(SIZES)


def test_touch_maps_the_table_and_keeps_every_entry():
    """``touch`` (the GTP start-up maps the table before the first
    question) writes each page with what it holds: a filled table reads
    the same answers from the cache afterwards."""
    import numpy as np

    cache = ReadingCache(4.0)  # 4 MB: the 2 MB-aligned mapping
    rng = np.random.default_rng(5)
    cache.table[:] = rng.integers(-(2**62), 2**62, cache.table.size)
    before = cache.table.copy()
    cache.touch()
    assert np.array_equal(cache.table, before)
    empty = ReadingCache(0.0)
    empty.touch()  # a table of no entries: nothing to map
