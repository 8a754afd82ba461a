"""3x3 pattern weights: symmetries, the shipped data file, the lookup table.

A pattern is the 20-bit code of ``kernel.pattern.code3x3`` (the eight
neighbours of an empty point relative to the side to play there, and
whether each orthogonal neighbour string is in atari).  The eight
symmetries of the square permute the neighbours; ``canonical(code)`` is
the smallest code of the eight, the name a pattern is learned and stored
under.

``scripts/learn_patterns.py`` writes ``data/patterns3x3.txt`` from the
project's recorded games (its header says which and with which command);
``read_weights`` reads it and ``table()`` spreads each canonical weight to
the codes of its eight symmetries in a float32 array of
``PATTERN_CODES`` entries, ``NEUTRAL`` (1.0) for the patterns the file
lacks: the array the playout kernel indexes.  A weight is a "lift": how
much more often the games played a point of that pattern than a uniformly
random choice among the candidate points would have (1.0 as often, 0.1 a
tenth as often).

``counts_of_position`` and ``weights_of_counts`` are the learning itself,
here so that tests can check it without the script.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from ..kernel.pattern import ATARI_SHIFT, P_EMPTY, P_OFF, P_OPP, P_OWN, PATTERN_CODES

DATA_FILE = Path(__file__).resolve().parent / "data" / "patterns3x3.txt"
NEUTRAL = 1.0  # the weight of a pattern the file lacks

# Where each neighbour slot (N, E, S, W, NE, SE, SW, NW) goes under a
# quarter turn clockwise and under a left-right mirror.
_ROTATE = (1, 2, 3, 0, 5, 6, 7, 4)
_MIRROR = (0, 3, 2, 1, 7, 6, 5, 4)


def _compose(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
    """Slot i goes to b[a[i]]: ``a`` then ``b``."""
    return tuple(b[a[i]] for i in range(8))


def _symmetries() -> tuple[tuple[int, ...], ...]:
    out = []
    perm = tuple(range(8))
    for _ in range(4):
        out.append(perm)
        out.append(_compose(perm, _MIRROR))
        perm = _compose(perm, _ROTATE)
    return tuple(out)


SYMMETRIES = _symmetries()  # the 8 slot permutations, identity first


def transform(code, perm: tuple[int, ...]):
    """The code (an int or an integer numpy array) with slot i's fields
    moved to slot ``perm[i]``."""
    out = code & 0  # the same type and shape
    for i in range(8):
        out = out | (((code >> (2 * i)) & 3) << (2 * perm[i]))
        if i < 4:
            out = out | (((code >> (ATARI_SHIFT + i)) & 1) << (ATARI_SHIFT + perm[i]))
    return out


def canonical(code):
    """The smallest code among the pattern's eight symmetries (int or array)."""
    best = code
    for perm in SYMMETRIES[1:]:
        t = transform(code, perm)
        best = np.minimum(best, t) if isinstance(code, np.ndarray) else min(best, t)
    return best


@lru_cache(maxsize=1)
def canonical_table() -> np.ndarray:
    """``canonical`` of every code, an int32 array of PATTERN_CODES (0.2 s once)."""
    return canonical(np.arange(PATTERN_CODES, dtype=np.int64)).astype(np.int32)


_MARKS = {P_EMPTY: ".", P_OWN: "X", P_OPP: "O", P_OFF: "#"}


def diagram(code: int) -> str:
    """Three rows of the pattern, top first: ``X`` the mover's stones, ``O``
    the opponent's, ``#`` off the board, ``*`` the point; a stone in atari
    is lower case."""
    grid = [["", "", ""] for _ in range(3)]
    at = {0: (0, 1), 1: (1, 2), 2: (2, 1), 3: (1, 0), 4: (0, 2), 5: (2, 2), 6: (2, 0), 7: (0, 0)}
    for i, (r, c) in at.items():
        mark = _MARKS[(code >> (2 * i)) & 3]
        if i < 4 and (code >> (ATARI_SHIFT + i)) & 1:
            mark = mark.lower()
        grid[r][c] = mark
    grid[1][1] = "*"
    return "\n".join(" ".join(row) for row in grid)


# ------------------------------------------------------------------ the file
def read_weights(path: str | Path = DATA_FILE) -> dict[int, float]:
    """{canonical code: weight} from a pattern file (``#`` lines are comments;
    each other line: code in hex, times played, times available, weight)."""
    out = {}
    for line in Path(path).read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        fields = line.split()
        out[int(fields[0], 16)] = float(fields[3])
    return out


def table_of(weights: dict[int, float]) -> np.ndarray:
    """A float32 array of PATTERN_CODES: each canonical code's weight at the
    codes of its eight symmetries, NEUTRAL elsewhere."""
    out = np.full(PATTERN_CODES, NEUTRAL, np.float32)
    if not weights:
        return out
    codes = np.fromiter(weights.keys(), np.int64, len(weights))
    values = np.fromiter(weights.values(), np.float32, len(weights))
    for perm in SYMMETRIES:
        out[transform(codes, perm)] = values
    return out


@lru_cache(maxsize=1)
def table() -> np.ndarray:
    """The shipped weights as the kernel's table (read once; do not write to it)."""
    return table_of(read_weights(DATA_FILE))


# -------------------------------------------------------------- learning
def counts_of_position(
    codes: np.ndarray, played: int, canon: np.ndarray
) -> tuple[np.ndarray, np.ndarray, int]:
    """One position's contribution: (canonical codes of the candidates,
    their share of a random choice 1/n each as a float64 array, canonical
    code of the point played).  ``codes``: the candidates' codes,
    ``played``: the code of the move."""
    c = canon[codes]
    return c, np.full(c.size, 1.0 / c.size), int(canon[played])


def weights_of_counts(
    played: np.ndarray, seen: np.ndarray, expected: np.ndarray, min_seen: int, smoothing: float
) -> list[tuple[int, int, int, float]]:
    """(code, played, seen, weight) for every code seen at least
    ``min_seen`` times, in code order: weight = (played + smoothing) /
    (expected + smoothing), ``expected`` the plays a uniformly random choice
    among each position's candidates would have made, rounded to 4
    significant digits."""
    out = []
    for code in np.flatnonzero(seen >= min_seen):
        w = (played[code] + smoothing) / (expected[code] + smoothing)
        out.append((int(code), int(played[code]), int(seen[code]), float(f"{w:.4g}")))
    return out
