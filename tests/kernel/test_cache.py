"""The reading cache's table (gogame.kernel.cache): the byte budget, the
question word, store and probe, what each key scheme verifies, torn and
half-written entries read as misses, and replacement.  The cache under the
reader ("same answers") is tested in tests/core/test_reading_cache.py."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gogame.core.reading_cache import ReadingCache
from gogame.kernel import cache as kc
from gogame.kernel.layout import BLACK
from tests.helpers import diagrams
from tests.helpers.shapes import KO_POSITION, LADDER

SIZES = (9, 13, 19)


# ----------------------------------------------------------- byte budget
@settings(max_examples=200, deadline=None)
@given(
    budget=st.integers(0, 1 << 22),
    scheme=st.sampled_from(sorted(kc.SCHEMES.values())),
    size=st.sampled_from(SIZES),
)
def test_budget_bytes_never_exceeded(budget, scheme, size):
    table, meta = kc.new_cache(budget, scheme, size)
    bpe = 8 * kc.words_per_entry(scheme, size)
    assert table.nbytes <= budget
    assert table.nbytes == meta[kc.M_CAPACITY] * bpe
    assert meta[kc.M_CAPACITY] % 2 == 0
    assert budget // bpe - 1 <= meta[kc.M_CAPACITY] <= budget // bpe


# ------------------------------------------- kernel-level: keys, verification
def _probe(cache, p, q, hw=None):
    stats = np.zeros(5, np.int64)
    pk = np.zeros(32, np.int64)
    r = kc.probe(cache.table, cache.meta, stats, p.s, p.hw if hw is None else hw, q, pk)
    return int(r), stats


def _store(cache, p, q, result, work=10, hw=None):
    stats = np.zeros(5, np.int64)
    pk = np.zeros(32, np.int64)
    kc.store(cache.table, cache.meta, stats, p.s, p.hw if hw is None else hw, q, pk, result, work)
    return stats


def _entry(cache, p, q, result=None):
    """Start index of the entry holding question ``q`` (stored with
    ``result``, default RESULT)."""
    b = _bucket_of(cache, p, q) * 2
    wpe = int(cache.meta[kc.M_WPE])
    for way in range(2):
        e = (b + way) * wpe
        data = int(cache.table[e + (1 if cache.scheme == "single" else 2)])
        if data & 0xFFFFFFFF == (RESULT if result is None else result):
            return e
    raise AssertionError("entry not found")


RESULT = 5 * 4096 + 123
Q = int(kc.question_word(1, 60, 0, 0, 0, 777))


@settings(max_examples=300, deadline=None)
@given(
    routine=st.integers(0, 7),
    target=st.integers(0, 1023),
    komaster=st.integers(0, 7),
    kom_pos=st.integers(0, 1023),
    stackp=st.integers(0, 1023),
    settings_id=st.integers(0, (1 << 17) - 1),
)
def test_question_word_fields_do_not_overlap(
    routine, target, komaster, kom_pos, stackp, settings_id
):
    q = int(kc.question_word(routine, target, komaster, kom_pos, stackp, settings_id))
    assert (q & 7, q >> 3 & 1023, q >> 13 & 7, q >> 16 & 1023, q >> 26 & 1023, q >> 36) == (
        routine,
        target,
        komaster,
        kom_pos,
        stackp,
        settings_id,
    )
    assert 0 <= q < 1 << 53  # room for the ko point in ``full``


@pytest.mark.parametrize("scheme,kept", [("double", True), ("single", True), ("full", False)])
def test_size_change_keeps_entries_unless_they_hold_the_board(scheme, kept):
    """``double`` and ``single`` entries do not depend on the board size, so
    a size change keeps the table and what it holds; ``full`` re-lays it."""
    p = diagrams.position(LADDER)
    c = ReadingCache(0.01, scheme, size=9)
    _store(c, p, Q, RESULT)
    table = c.table
    c.for_size(19)
    assert (c.table is table) == kept
    assert c.stats()["entries_in_use"] == (1 if kept else 0)
    assert c.bytes_allocated <= 0.01 * 2**20


@pytest.mark.parametrize("scheme", ["double", "full", "single"])
def test_store_then_probe(scheme):
    p = diagrams.position(LADDER)
    c = ReadingCache(0.01, scheme, size=9)
    assert _probe(c, p, Q)[0] == -1
    _store(c, p, Q, RESULT)
    r, stats = _probe(c, p, Q)
    assert r == RESULT and list(stats) == [1, 1, 0, 0, 0]
    assert _probe(c, p, Q + 1)[0] == -1  # another question
    assert c.stats()["entries_in_use"] == 1
    c.clear()
    assert _probe(c, p, Q)[0] == -1 and c.stats()["entries_in_use"] == 0


def _colliding_hw(p, q, q2):
    """Hash words that give question ``q2`` exactly the keys ``q`` has on
    ``p``: a full 128-bit key collision, which only ``full`` can detect."""
    hw = p.hw.copy()
    for word, salt in enumerate((kc.SALT0, kc.SALT1)):
        hw[word] ^= kc._mix(np.uint64(q) ^ salt) ^ kc._mix(np.uint64(q2) ^ salt)
    return hw


@pytest.mark.parametrize(
    "change", ["board", "ko", "routine", "target", "komaster", "kom_pos", "stackp", "settings"]
)
def test_full_verifies_board_ko_and_question(change):
    p = diagrams.position(KO_POSITION)
    fields = dict(routine=1, target=p.pos((3, 2)), komaster=0, kom_pos=0, stackp=0, settings=777)
    q = int(kc.question_word(*fields.values()))
    caches = {s: ReadingCache(0.01, s, size=7) for s in ("double", "full")}
    for c in caches.values():
        _store(c, p, q, RESULT)
        assert _probe(c, p, q)[0] == RESULT
    p2, q2 = p, q
    if change == "board":
        p2 = diagrams.position(KO_POSITION)
        p2.setup({(0, 0): BLACK})
    elif change == "ko":
        p2 = diagrams.position(KO_POSITION, ko=(3, 3))
    else:
        fields[change] += 1
        q2 = int(kc.question_word(*fields.values()))
    hw = _colliding_hw(p, q, q2) if q2 != q else p.hw.copy()
    if p2 is not p:
        hw[:2] = p.hw[:2]  # same hash words, other position
    r, stats = _probe(caches["full"], p2, q2, hw)
    assert r == -1 and stats[4] == 1, "full must detect the collision"
    r, stats = _probe(caches["double"], p2, q2, hw)
    assert r == RESULT, "double trusts its two words (that is the experiment)"


@pytest.mark.parametrize("scheme", ["double", "full", "single"])
def test_torn_entry_reads_as_miss(scheme):
    p = diagrams.position(LADDER)
    c = ReadingCache(0.01, scheme, size=9)
    _store(c, p, Q, RESULT)
    e = _entry(c, p, Q)
    wpe = int(c.meta[kc.M_WPE])
    for word in range(wpe):
        for flip in (1, 1 << 17, 1 << 40, 1 << 62, -1):
            if scheme == "full" and word == 0:
                flip |= 1  # the sequence word: odd = being written
            saved = int(c.table[e + word])
            c.table[e + word] ^= flip
            r, stats = _probe(c, p, Q)
            assert r == -1, f"word {word} flipped by {flip:#x} must read as a miss"
            assert stats[0] == 1 and stats[1] == 0
            c.table[e + word] = saved
            assert _probe(c, p, Q)[0] == RESULT


# Write order of each layout: a concurrent reader may see any prefix.
WRITE_ORDER = {"double": [2, 0, 1], "single": [1, 0]}


@pytest.mark.parametrize("scheme", ["double", "full", "single"])
def test_half_written_entry_reads_as_miss(scheme):
    """Overwrite question A's entry with question B's, word by word in the
    order ``store`` writes them; every state before the last answers
    neither question (a concurrent reader sees a miss, never a wrong hit)."""
    p = diagrams.position(LADDER)
    c = ReadingCache(0.001, scheme, size=9)  # a few buckets
    wpe = int(c.meta[kc.M_WPE])
    qa = Q
    qb = next(q for q in range(Q + 1, Q + 100000) if _bucket_of(c, p, q) == _bucket_of(c, p, qa))
    _store(c, p, qb, RESULT + 1)
    e = _entry(c, p, qb, RESULT + 1)
    new = c.table[e : e + wpe].copy()
    c.clear()
    _store(c, p, qa, RESULT)
    assert _entry(c, p, qa) == e  # way 0 of the same bucket
    old = c.table[e : e + wpe].copy()
    if scheme == "full":
        seq = int(old[0]) | 1  # odd while being written
        new[0] = seq + 1
        states = [{0: seq}]
        for w in range(1, wpe):
            states.append({**states[-1], w: int(new[w])})
    else:
        states = [
            {w: int(new[w]) for w in WRITE_ORDER[scheme][:k]}
            for k in range(1, len(WRITE_ORDER[scheme]))
        ]
    for state in states:
        c.table[e : e + wpe] = old
        for w, v in state.items():
            c.table[e + w] = v
        assert _probe(c, p, qa)[0] == -1, state
        assert _probe(c, p, qb)[0] == -1, state
    c.table[e : e + wpe] = new
    assert _probe(c, p, qb)[0] == RESULT + 1
    assert _probe(c, p, qa)[0] == -1


def _bucket_of(c, p, q):
    k0, _ = kc.question_keys(p.hw, np.int64(q), c.meta[kc.M_MASK])
    return int(kc._bucket(c.meta, k0)) // 2


# ----------------------------------------------------------- replacement
def test_replacement_policy_keeps_deep_entries():
    """depth-age: a cheap entry does not evict the expensive one in way 0;
    way0: it does.  Old generations count as empty."""
    p = diagrams.position(LADDER)
    for policy, kept in (("depth-age", True), ("way0", False)):
        c = ReadingCache(0.001, "double", size=9, hash_bits=1, policy=policy)
        stats = _store(c, p, Q, RESULT, work=5000)
        same_bucket = [
            q
            for q in range(Q + 1, Q + 200)
            if int(kc.question_keys(p.hw, np.int64(q), c.meta[kc.M_MASK])[0])
            == int(kc.question_keys(p.hw, np.int64(Q), c.meta[kc.M_MASK])[0])
        ]
        # only ``hash_bits`` = 1: same tag, so these all share the bucket
        for q in same_bucket[:3]:
            stats += _store(c, p, q, 7, work=3)
        assert (_probe(c, p, Q)[0] == RESULT) == kept, policy
        assert stats[2] == 4 and stats[3] >= 2
    c = ReadingCache(0.001, "double", size=9, hash_bits=1)
    _store(c, p, Q, RESULT, work=5000)
    c.meta[kc.M_GEN] += 1  # a new root query
    _store(c, p, same_bucket[0], 7, work=1)
    assert _probe(c, p, Q)[0] == -1 and _probe(c, p, same_bucket[0])[0] == 7
