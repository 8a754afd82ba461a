"""3x3 patterns around a point, as a 20-bit code, in numba.

``code3x3(s, pos, color)`` describes the eight neighbours of the empty
point ``pos`` as seen by ``color``, the side about to play there:

* bits ``2i, 2i + 1`` (i = 0..7): the neighbour's state, ``P_EMPTY``,
  ``P_OWN`` (a ``color`` stone), ``P_OPP`` or ``P_OFF`` (off the board);
  the neighbours in the order ``NEIGHBOURS``: N, E, S, W (the orthogonal
  ones), then NE, SE, SW, NW (N is the next row up);
* bit ``16 + i`` (i = 0..3): the orthogonal neighbour i is a stone whose
  string has one liberty (``pos`` itself, then): an own string that a move
  there extends, or an opponent string that it captures.

The symmetries of the square (``gogame.play.patterns``) permute the
neighbours and so the fields of the code; colours are already relative to
the mover.  ``PATTERN_CODES`` codes exist (a table indexed by code holds
every one, most never seen).
"""

from numba import njit

from . import loading  # noqa: F401  (installed before the first @njit)
from .layout import BORDER, COLOR, EMPTY, H_W, NLIB, ORIGIN, ix

P_EMPTY, P_OWN, P_OPP, P_OFF = 0, 1, 2, 3
NEIGHBOURS = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")
ATARI_SHIFT = 16
PATTERN_BITS = 20
PATTERN_CODES = 1 << PATTERN_BITS


@njit(cache=True, inline="always")
def _state(s, q, color):
    c = s[ix(COLOR + q)]
    if c == EMPTY:
        return P_EMPTY
    if c == BORDER:
        return P_OFF
    return P_OWN if c == color else P_OPP


@njit(cache=True, nogil=True)
def code3x3(s, pos, color):
    """The pattern code of the point ``pos`` for ``color`` to play there
    (see the module docstring)."""
    w = s[H_W]
    code = 0
    i = 0
    for q in (pos + w, pos + 1, pos - w, pos - 1):
        st = _state(s, q, color)
        code |= st << (2 * i)
        if (st == P_OWN or st == P_OPP) and s[ix(NLIB + s[ix(ORIGIN + q)])] == 1:
            code |= 1 << (ATARI_SHIFT + i)
        i += 1
    for q in (pos + w + 1, pos - w + 1, pos - w - 1, pos + w - 1):
        code |= _state(s, q, color) << (2 * i)
        i += 1
    return code
