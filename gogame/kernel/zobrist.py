"""Two independent 64-bit Zobrist key tables and from-scratch hashing.

``keys[w, k, pos]``: word ``w`` (0 or 1), kind ``k`` (BLACK, WHITE for a
stone, ``KO_KEY`` for the ko point), kernel point ``pos``.  The tables come
from fixed seeds, so hash words are the same in every process and run.
Side to move is not hashed: a reading routine implies it (as in GNU Go).
"""

import numpy as np
from numba import njit

from . import loading  # noqa: F401  (installed before the first @njit)
from .layout import BLACK, COLOR, H_KO, H_SIZE, H_W, MAXPOS, WHITE, ix

KO_KEY = 3
SEEDS = (0x60_6A_3E_01, 0x60_6A_3E_02)


def make_keys():
    """The key tables, word 0 and word 1 from independent seeded streams."""
    keys = np.zeros((2, 4, MAXPOS), np.uint64)
    for word, seed in enumerate(SEEDS):
        rng = np.random.Generator(np.random.PCG64(seed))
        keys[word, 1:] = rng.integers(0, 2**64, size=(3, MAXPOS), dtype=np.uint64)
    return keys


KEYS = make_keys()


@njit(cache=True, _nrt=False, nogil=True)
def compute_hash(s, keys):
    """Both words from scratch: every stone's key, then the ko point's."""
    w = s[H_W]
    size = s[H_SIZE]
    h0 = np.uint64(0)
    h1 = np.uint64(0)
    for row in range(size):
        for col in range(size):
            pos = (row + 1) * w + col + 1
            c = s[ix(COLOR + pos)]
            if c == BLACK or c == WHITE:
                h0 ^= keys[0, ix(c), ix(pos)]
                h1 ^= keys[1, ix(c), ix(pos)]
    ko = s[H_KO]
    if ko != 0:
        h0 ^= keys[0, KO_KEY, ix(ko)]
        h1 ^= keys[1, KO_KEY, ix(ko)]
    return h0, h1
