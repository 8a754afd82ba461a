"""Reading cache: a fixed table in one int64 array, sized by a byte budget.

A *question* is (position, routine, target stone, komaster, ko position,
stackp, depth settings and board size: the same stones on two board sizes
hash alike).  ``question_keys`` folds the question into the two
board hash words, giving two 64-bit question keys, and packs the question
fields into one word ``q`` for the ``full`` scheme.  Every field that can
change a search result is in the question, so a stored result is exactly
what the search would compute again: the cache changes node counts and time,
never an answer.

Schemes (entry layouts, in int64 words):
* ``double`` (3 words): ``key0 ^ data``, ``key1 ^ data``, ``data`` -- word 0
  gives the bucket and the tag, word 1 verifies;
* ``full`` (4 + board words): ``seq``, ``key0 ^ data``, ``data``,
  ``q | ko << 53``, then the board packed 2 bits a point -- word 0 gives
  bucket and tag; the packed board, ko point and question fields verify;
* ``single`` (2 words): ``key0 ^ data``, ``data`` -- word 0 alone, no
  verification: the control that shows what undetected collisions do.

``data`` = VALID (bit 62) | generation (bits 40..47) | log2 of the work
below the entry (bits 32..37) | the result (bits 0..31).

Torn writes.  Every check word is XORed with ``data``, so an entry whose
words come from two different writes fails the tag or the verification and
reads as a miss.  ``full`` also keeps a sequence word (a seqlock): odd while
an entry is written, re-read after the verification; a change means a miss.
The data word is read once and the result returned is taken from that same
read.  A tag match whose verification fails is a *detected collision*:
counted (at most once per probe) and treated as a miss.  ``hash_bits`` < 64
keeps only that many low bits of key 0 for bucket and tag, so that
collisions become frequent enough to count.

Replacement (``meta[M_POLICY]``), inside a 2-way bucket; a store for a
question already in the bucket always rewrites that entry in place:
* ``POLICY_DEPTH_AGE`` (0, default): way 0 keeps the entry that cost the most
  work (nodes below it, compared as log2) in the current generation; a new
  entry takes way 0 when way 0 is empty, of an older generation, or cost no
  more work than the new one, and way 1 (newest) otherwise.  An entry of an
  older generation (an earlier root query) counts as empty for replacement,
  never for probing: old results stay exact.
* ``POLICY_WAY0`` (1): always replace way 0 (the control of the experiment).

Budget: ``capacity = budget // bytes_per_entry`` rounded down to whole 2-way
buckets, so the table allocated never exceeds the budget (the 8-word
``meta`` array and the reader's packed-board scratch are not counted).

``meta`` (int64, shared): scheme, capacity, words per entry, buckets, the
hash-bits mask, the generation, the board words and the policy.  Statistics
are counted in ``stats`` (the reader's ``ctx[C_STATS:C_STATS + 5]``, per
thread): probes, hits, stores, replacements, collisions; misses = probes -
hits.
"""

import numpy as np
from numba import njit

from . import atomics as at
from . import loading, pages  # noqa: F401  (loading: installed before the first @njit)
from .layout import COLOR, H_KO, H_SIZE, H_W, ix

SCHEME_DOUBLE, SCHEME_FULL, SCHEME_SINGLE = 1, 2, 3
SCHEMES = {"double": SCHEME_DOUBLE, "full": SCHEME_FULL, "single": SCHEME_SINGLE}
POLICY_DEPTH_AGE, POLICY_WAY0 = 0, 1
POLICIES = {"depth-age": POLICY_DEPTH_AGE, "way0": POLICY_WAY0}

M_SCHEME = 0
M_CAPACITY = 1
M_WPE = 2
M_BUCKETS = 3
M_MASK = 4
M_GEN = 5
M_BOARDWORDS = 6
M_POLICY = 7
META_LEN = 8

S_PROBES, S_HITS, S_STORES, S_REPLACEMENTS, S_COLLISIONS = 0, 1, 2, 3, 4

VALID = np.int64(1) << 62
SALT0 = np.uint64(0x9E3779B97F4A7C15)
SALT1 = np.uint64(0xD1B54A32D192ED03)
NO_TAG = -1  # _match: no entry with this tag
MISMATCH = -2  # _match: tag matched, verification failed (a detected collision)


def board_words(size):
    """int64 words that hold a size x size board at 2 bits a point."""
    return (size * size * 2 + 63) // 64


def words_per_entry(scheme, size):
    if scheme == SCHEME_DOUBLE:
        return 3
    if scheme == SCHEME_SINGLE:
        return 2
    if scheme == SCHEME_FULL:
        return 4 + board_words(size)
    raise ValueError(f"unknown cache scheme {scheme!r}")


def new_cache(budget_bytes, scheme, size, hash_bits=64, policy=POLICY_DEPTH_AGE):
    """(table, meta) with capacity = budget // bytes per entry, rounded down
    to whole 2-way buckets; allocated bytes never exceed the budget."""
    if not budget_bytes >= 0:
        raise ValueError(f"cache budget must be >= 0 bytes, not {budget_bytes!r}")
    if not 1 <= hash_bits <= 64:
        raise ValueError("hash bits must be 1..64")
    if policy not in POLICIES.values():
        raise ValueError(f"unknown replacement policy {policy!r}")
    wpe = words_per_entry(scheme, size)
    buckets = int(budget_bytes) // (8 * wpe * 2)
    table = pages.zeros(buckets * 2 * wpe)  # 2 MB-aligned when large: huge pages
    meta = np.zeros(META_LEN, np.int64)
    meta[M_SCHEME] = scheme
    meta[M_CAPACITY] = buckets * 2
    meta[M_WPE] = wpe
    meta[M_BUCKETS] = buckets
    meta[M_MASK] = -1 if hash_bits >= 64 else (1 << hash_bits) - 1
    meta[M_BOARDWORDS] = board_words(size)
    meta[M_POLICY] = policy
    return table, meta


@njit(cache=True, _nrt=False, inline="always")
def _mix(x):
    """splitmix64's finalizer: a bijective 64-bit scramble."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(cache=True, _nrt=False, inline="always")
def question_word(routine, target, komaster, kom_pos, stackp, settings):
    """Pack the question fields (not the position) into one word: routine 3
    bits, target 10, komaster 3 (its kind), kom_pos 10, stackp 10,
    settings 17 (12 used): below bit 53, where ``full`` keeps the ko point."""
    return (
        np.int64(routine)
        | (np.int64(target) << 3)
        | (np.int64(komaster) << 13)
        | (np.int64(kom_pos) << 16)
        | (np.int64(stackp) << 26)
        | (np.int64(settings) << 36)
    )


@njit(cache=True, _nrt=False, inline="always")
def question_keys(hw, q, mask):
    """Two question keys: each board word XOR a scramble of the fields;
    key 0 keeps only the ``mask`` bits (``--hash-bits``)."""
    uq = np.uint64(q)
    k0 = np.int64(hw[0] ^ _mix(uq ^ SALT0))
    k1 = np.int64(hw[1] ^ _mix(uq ^ SALT1))
    return k0 & mask, k1


@njit(cache=True, _nrt=False)
def pack_board(s, out):
    """The board at 2 bits a point (row-major), plus nothing else, into ``out``."""
    size = s[H_SIZE]
    w = s[H_W]
    out[:] = 0
    i = 0
    for row in range(size):
        for col in range(size):
            c = np.int64(s[ix(COLOR + (row + 1) * w + col + 1)])
            out[ix(i >> 5)] |= c << (2 * (i & 31))
            i += 1


@njit(cache=True, _nrt=False, inline="always")
def _bucket(meta, k0):
    """The first way of the bucket of key ``k0``: its bits scrambled by an
    odd multiplier, the top 32 scaled onto the buckets (no division; past
    2**32 buckets, some are never used)."""
    h = (np.uint64(k0) * SALT0) >> np.uint64(32)
    return np.int64((h * np.uint64(meta[M_BUCKETS])) >> np.uint64(32)) * 2


@njit(cache=True, _nrt=False, inline="always")
def _full_tag(table, e, k0):
    """``full``: does the entry at ``e`` carry tag ``k0`` (cheap pre-check)?"""
    data = table[ix(e + 2)]
    return (data & VALID) != 0 and (table[ix(e + 1)] ^ data) == k0


@njit(cache=True, _nrt=False)
def _match(table, meta, e, k0, k1, qk, pk):
    """The entry at ``e`` against the question: its data word (> 0) on an
    exact match, NO_TAG, or MISMATCH (tag matched, verification failed).
    ``qk`` = q | ko << 53; for ``full``, ``pk`` holds the packed board."""
    scheme = meta[M_SCHEME]
    if scheme == SCHEME_DOUBLE:
        data = table[ix(e + 2)]
        if (data & VALID) == 0 or (table[ix(e)] ^ data) != k0:
            return NO_TAG
        return data if (table[ix(e + 1)] ^ data) == k1 else MISMATCH
    if scheme == SCHEME_SINGLE:
        data = table[ix(e + 1)]
        if (data & VALID) == 0 or (table[ix(e)] ^ data) != k0:
            return NO_TAG
        return data
    seq = table[ix(e)]
    data = table[ix(e + 2)]
    if (seq & 1) != 0 or (data & VALID) == 0 or (table[ix(e + 1)] ^ data) != k0:
        return NO_TAG
    same = table[ix(e + 3)] == qk
    if same:
        for j in range(meta[M_BOARDWORDS]):
            if table[ix(e + 4 + j)] != pk[ix(j)]:
                same = False
                break
    if table[ix(e)] != seq:
        return NO_TAG  # rewritten while we read: a miss
    return data if same else MISMATCH


@njit(cache=True, _nrt=False, inline="always")
def _data_of(table, meta, e):
    return table[ix(e + 2)] if meta[M_SCHEME] != SCHEME_SINGLE else table[ix(e + 1)]


@njit(cache=True, _nrt=False)
def prefetch(table, meta, hw, q):
    """Start loading the bucket of the question ``q`` on this board (a
    hint: a probe soon after finds it in the processor's cache)."""
    if meta[M_BUCKETS] > 0:
        k0, _ = question_keys(hw, q, meta[M_MASK])
        e = _bucket(meta, k0) * meta[M_WPE]
        at.prefetch(table, e)
        at.prefetch(table, e + 2 * meta[M_WPE] - 1)  # a bucket may span two lines


@njit(cache=True, _nrt=False)
def probe(table, meta, stats, s, hw, q, pk):
    """Look the question up.  Returns the stored result or -1 on a miss.
    ``stats``: [probes, hits, stores, replacements, collisions]."""
    stats[S_PROBES] += 1
    if meta[M_BUCKETS] <= 0:
        return -1
    k0, k1 = question_keys(hw, q, meta[M_MASK])
    qk = q | (np.int64(s[H_KO]) << 53)
    b = _bucket(meta, k0)
    wpe = meta[M_WPE]
    if meta[M_SCHEME] == SCHEME_FULL and (
        _full_tag(table, b * wpe, k0) or _full_tag(table, (b + 1) * wpe, k0)
    ):
        pack_board(s, pk)  # only when some tag matches
    collided = False
    for way in range(2):
        d = _match(table, meta, (b + way) * wpe, k0, k1, qk, pk)
        if d > 0:
            stats[S_HITS] += 1
            if collided:
                stats[S_COLLISIONS] += 1
            return d & 0xFFFFFFFF
        if d == MISMATCH:
            collided = True
    if collided:
        stats[S_COLLISIONS] += 1
    return -1


@njit(cache=True, _nrt=False)
def _write(table, meta, e, k0, k1, qk, pk, data):
    scheme = meta[M_SCHEME]
    if scheme == SCHEME_DOUBLE:
        table[ix(e + 2)] = data
        table[ix(e)] = k0 ^ data
        table[ix(e + 1)] = k1 ^ data
    elif scheme == SCHEME_SINGLE:
        table[ix(e + 1)] = data
        table[ix(e)] = k0 ^ data
    else:
        seq = table[ix(e)] | 1
        table[ix(e)] = seq
        table[ix(e + 1)] = k0 ^ data
        table[ix(e + 2)] = data
        table[ix(e + 3)] = qk
        for j in range(meta[M_BOARDWORDS]):
            table[ix(e + 4 + j)] = pk[ix(j)]
        table[ix(e)] = seq + 1


@njit(cache=True, _nrt=False, inline="always")
def _work_of(data):
    return (data >> 32) & 0x3F


@njit(cache=True, _nrt=False, inline="always")
def _gen_of(data):
    return (data >> 40) & 0xFF


@njit(cache=True, _nrt=False)
def store(table, meta, stats, s, hw, q, pk, result, work):
    """Store ``result`` (0 <= result < 2**32) for the question asked on the
    board ``s`` is on now; ``work`` = nodes below it.  ``pk`` is scratch
    (``full`` packs the board into it here)."""
    stats[S_STORES] += 1
    if meta[M_BUCKETS] <= 0:
        return
    k0, k1 = question_keys(hw, q, meta[M_MASK])
    qk = q | (np.int64(s[H_KO]) << 53)
    if meta[M_SCHEME] == SCHEME_FULL:
        pack_board(s, pk)
    lw = 0
    while work > 1 and lw < 63:
        work >>= 1
        lw += 1
    gen = meta[M_GEN] & 0xFF
    data = VALID | (np.int64(gen) << 40) | (np.int64(lw) << 32) | (np.int64(result) & 0xFFFFFFFF)
    b = _bucket(meta, k0)
    wpe = meta[M_WPE]
    e0 = b * wpe
    e1 = e0 + wpe
    d0 = _data_of(table, meta, e0)
    d1 = _data_of(table, meta, e1)
    if _match(table, meta, e0, k0, k1, qk, pk) > 0:
        e = e0  # the same question: rewrite in place
    elif _match(table, meta, e1, k0, k1, qk, pk) > 0:
        e = e1
    elif (
        meta[M_POLICY] == POLICY_WAY0
        or (d0 & VALID) == 0
        or _gen_of(d0) != gen
        or lw >= _work_of(d0)
    ):
        e = e0
        if d0 & VALID:
            stats[S_REPLACEMENTS] += 1
    else:
        e = e1
        if d1 & VALID:
            stats[S_REPLACEMENTS] += 1
    _write(table, meta, e, k0, k1, qk, pk, data)


@njit(cache=True, _nrt=False)
def entries_in_use(table, meta):
    n = 0
    wpe = meta[M_WPE]
    for i in range(meta[M_CAPACITY]):
        if _data_of(table, meta, i * wpe) & VALID:
            n += 1
    return n
