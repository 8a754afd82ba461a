"""Reading cache: a fixed table in one int64 array, sized by a byte budget.

A *question* is (position, routine, target stone, komaster, ko position,
stackp, depth settings).  ``question_keys`` folds the question into the two
board hash words, giving two 64-bit question keys, and packs the question
fields into one word ``q`` for the ``full`` scheme.  Every field that can
change a search result is in the question, so a stored result is exactly
what the search would compute again: the cache changes node counts and time,
never an answer.

Schemes (entry layouts, in int64 words):
* ``double`` (3 words): ``key0 ^ data``, ``key1 ^ data``, ``data`` -- word 0
  gives the bucket and the tag, word 1 verifies;
* ``full`` (4 + board words): ``seq``, ``key0 ^ data``, ``data``, ``q``, then
  the board packed 2 bits a point -- word 0 gives bucket and tag, the packed
  board, ko point and question fields verify;
* ``single`` (2 words): ``key0 ^ data``, ``data`` -- word 0 alone, no
  verification: the control that shows what undetected collisions do.

The XOR of the key into the first word(s) makes a torn write read as a miss;
``full`` also keeps a sequence word that is odd while an entry is written.
A tag match whose verification fails is a *detected collision*: counted, and
treated as a miss.  ``hash_bits`` < 64 keeps only that many low bits of word 0
for bucket and tag, so that collisions become frequent enough to count.

Buckets have two ways: way 0 keeps the entry that cost the most work (nodes
below it) in the current generation, way 1 takes everything else (newest).
An entry of an older generation (an earlier root query) counts as empty for
replacement, never for probing: old results stay exact.

``meta`` (int64, shared): scheme, capacity, words per entry, buckets, the
hash-bits mask, the generation and the board words.  Statistics are counted
in the reader's ``ctx`` (per thread) at ``C_PROBES`` ...
"""
import numpy as np
from numba import njit

from .layout import COLOR, H_KO, H_SIZE, H_W

SCHEME_DOUBLE, SCHEME_FULL, SCHEME_SINGLE = 1, 2, 3
SCHEMES = {"double": SCHEME_DOUBLE, "full": SCHEME_FULL, "single": SCHEME_SINGLE}

M_SCHEME = 0
M_CAPACITY = 1
M_WPE = 2
M_BUCKETS = 3
M_MASK = 4
M_GEN = 5
M_BOARDWORDS = 6
META_LEN = 8

VALID = np.int64(1) << 62
SALT0 = np.uint64(0x9E3779B97F4A7C15)
SALT1 = np.uint64(0xD1B54A32D192ED03)


def board_words(size):
    """int64 words that hold a size x size board at 2 bits a point."""
    return (size * size * 2 + 63) // 64


def words_per_entry(scheme, size):
    if scheme == SCHEME_DOUBLE:
        return 3
    if scheme == SCHEME_SINGLE:
        return 2
    return 4 + board_words(size)


def new_cache(budget_bytes, scheme, size, hash_bits=64):
    """(table, meta) with capacity = budget // bytes per entry, rounded down
    to whole 2-way buckets; allocated bytes never exceed the budget."""
    wpe = words_per_entry(scheme, size)
    buckets = int(budget_bytes) // (8 * wpe * 2)
    table = np.zeros(buckets * 2 * wpe, np.int64)
    meta = np.zeros(META_LEN, np.int64)
    meta[M_SCHEME] = scheme
    meta[M_CAPACITY] = buckets * 2
    meta[M_WPE] = wpe
    meta[M_BUCKETS] = buckets
    meta[M_MASK] = -1 if hash_bits >= 64 else (1 << hash_bits) - 1
    meta[M_BOARDWORDS] = board_words(size)
    return table, meta


@njit(cache=True, inline="always")
def _mix(x):
    """splitmix64's finalizer: a bijective 64-bit scramble."""
    x ^= x >> np.uint64(30)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(27)
    x *= np.uint64(0x94D049BB133111EB)
    x ^= x >> np.uint64(31)
    return x


@njit(cache=True, inline="always")
def question_word(routine, target, komaster, kom_pos, stackp, settings):
    """Pack the question fields (not the position) into one word."""
    return (np.int64(routine) | (np.int64(target) << 3) | (np.int64(komaster) << 13)
            | (np.int64(kom_pos) << 15) | (np.int64(stackp) << 25)
            | (np.int64(settings) << 35))


@njit(cache=True, inline="always")
def question_keys(hw, q, mask):
    """Two question keys: each board word XOR a scramble of the fields."""
    uq = np.uint64(q)
    k0 = np.int64(hw[0] ^ _mix(uq ^ SALT0))
    k1 = np.int64(hw[1] ^ _mix(uq ^ SALT1))
    return k0 & mask, k1


@njit(cache=True)
def pack_board(s, out):
    """The board at 2 bits a point (row-major), plus nothing else, into ``out``."""
    size = s[H_SIZE]
    w = s[H_W]
    out[:] = 0
    i = 0
    for row in range(size):
        for col in range(size):
            c = np.int64(s[COLOR + (row + 1) * w + col + 1])
            out[i >> 5] |= c << (2 * (i & 31))
            i += 1


@njit(cache=True, inline="always")
def _bucket(meta, k0):
    return ((k0 & np.int64(0x7FFFFFFFFFFFFFFF)) % meta[M_BUCKETS]) * 2


@njit(cache=True)
def _verify(table, meta, e, k0, k1, q, s, pk):
    """0 = no tag match, 1 = exact match, 2 = tag matched, verification failed."""
    scheme = meta[M_SCHEME]
    if scheme == SCHEME_DOUBLE:
        data = table[e + 2]
        if (data & VALID) == 0 or (table[e] ^ data) != k0:
            return 0
        return 1 if (table[e + 1] ^ data) == k1 else 2
    if scheme == SCHEME_SINGLE:
        data = table[e + 1]
        if (data & VALID) == 0 or (table[e] ^ data) != k0:
            return 0
        return 1
    seq = table[e]
    data = table[e + 2]
    if (seq & 1) != 0 or (data & VALID) == 0 or (table[e + 1] ^ data) != k0:
        return 0
    same = table[e + 3] == (q | (np.int64(s[H_KO]) << 53))
    if same:
        for j in range(meta[M_BOARDWORDS]):
            if table[e + 4 + j] != pk[j]:
                same = False
                break
    if table[e] != seq:
        return 0                    # rewritten while we read: a miss
    return 1 if same else 2


@njit(cache=True, inline="always")
def _data_of(table, meta, e):
    scheme = meta[M_SCHEME]
    return table[e + 2] if scheme != SCHEME_SINGLE else table[e + 1]


@njit(cache=True)
def probe(table, meta, stats, s, hw, q, pk):
    """Look the question up.  Returns the stored result or -1 on a miss.
    ``stats``: [probes, hits, stores, replacements, collisions]."""
    stats[0] += 1
    k0, k1 = question_keys(hw, q, meta[M_MASK])
    if meta[M_SCHEME] == SCHEME_FULL:
        pack_board(s, pk)
    b = _bucket(meta, k0)
    wpe = meta[M_WPE]
    for way in range(2):
        e = (b + way) * wpe
        v = _verify(table, meta, e, k0, k1, q, s, pk)
        if v == 1:
            stats[1] += 1
            return _data_of(table, meta, e) & 0xFFFFFFFF
        if v == 2:
            stats[4] += 1
    return -1


@njit(cache=True)
def _write(table, meta, e, k0, k1, q, s, pk, data):
    scheme = meta[M_SCHEME]
    if scheme == SCHEME_DOUBLE:
        table[e + 2] = data
        table[e] = k0 ^ data
        table[e + 1] = k1 ^ data
    elif scheme == SCHEME_SINGLE:
        table[e + 1] = data
        table[e] = k0 ^ data
    else:
        seq = table[e] | 1
        table[e] = seq
        table[e + 1] = k0 ^ data
        table[e + 2] = data
        table[e + 3] = q | (np.int64(s[H_KO]) << 53)
        for j in range(meta[M_BOARDWORDS]):
            table[e + 4 + j] = pk[j]
        table[e] = seq + 1


@njit(cache=True, inline="always")
def _work_of(data):
    return (data >> 32) & 0x3F


@njit(cache=True, inline="always")
def _gen_of(data):
    return (data >> 40) & 0xFF


@njit(cache=True)
def store(table, meta, stats, s, hw, q, pk, result, work):
    """Store ``result`` (< 2**32) for the question; ``work`` = nodes below it.
    The board must be the one the question was asked on (``pk`` is reused
    from ``probe`` for ``full``)."""
    stats[2] += 1
    k0, k1 = question_keys(hw, q, meta[M_MASK])
    if meta[M_SCHEME] == SCHEME_FULL:
        pack_board(s, pk)
    lw = 0
    while work > 1 and lw < 63:
        work >>= 1
        lw += 1
    gen = meta[M_GEN] & 0xFF
    data = VALID | (np.int64(gen) << 40) | (np.int64(lw) << 32) | np.int64(result)
    b = _bucket(meta, k0)
    wpe = meta[M_WPE]
    e0 = b * wpe
    e1 = e0 + wpe
    d0 = _data_of(table, meta, e0)
    d1 = _data_of(table, meta, e1)
    if _verify(table, meta, e0, k0, k1, q, s, pk) == 1:
        e = e0
    elif _verify(table, meta, e1, k0, k1, q, s, pk) == 1:
        e = e1
    elif (d0 & VALID) == 0 or _gen_of(d0) != gen or lw >= _work_of(d0):
        e = e0
        if d0 & VALID:
            stats[3] += 1
    else:
        e = e1
        if d1 & VALID:
            stats[3] += 1
    _write(table, meta, e, k0, k1, q, s, pk, data)


@njit(cache=True)
def entries_in_use(table, meta):
    n = 0
    wpe = meta[M_WPE]
    for i in range(meta[M_CAPACITY]):
        if _data_of(table, meta, i * wpe) & VALID:
            n += 1
    return n
