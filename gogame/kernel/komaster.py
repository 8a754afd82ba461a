"""The komaster: who may take which ko during reading (GNU Go 3.8's scheme).

A read that lets both sides retake a ko forever never ends, and one that
forbids every retake misreads each ko.  GNU Go's answer is the komaster:
a side that takes a ko the rules forbid just now (a *conditional* ko
capture, as if a ko threat had been answered) becomes the komaster of that
ko, and the scheme below says which later ko captures each side may make.
A code ``KO_A`` / ``KO_B`` read under it means "wins if it wins the ko".

The state is one int64, ``kind + (kom_pos << 3)``:

====================  ========================================================
kind                  meaning (O to move, X the other side)
====================  ========================================================
``EMPTY``             1a: a legal ko capture is allowed; after a ko capture
                      that answered a ko capture it becomes ``WEAK`` (kom_pos:
                      the earlier ko point).  1b: a conditional ko capture
                      makes O komaster, kom_pos the stone it took.
O (``BLACK``/...)     2a: O may take a legal ko capture anywhere, but a
                      conditional one only when nested (diagonal to kom_pos);
                      either moves kom_pos (GNU Go's O takes nested kos only,
                      below); 2b: filled, the ko is resolved.
X                     3: O may not play at kom_pos; O taking another ko makes
                      the state ``GRAY_X``.
``GRAY_*``            4: no ko captures at all, until the ko at kom_pos is
                      resolved.
``WEAK``              5a: a move that takes no ko ends it (``EMPTY``); 5b: a
                      legal ko capture only when nested; 5c: conditional ko
                      captures as under ``EMPTY``.
====================  ========================================================

A ko is *resolved* for the komaster (kinds X and ``GRAY_X``) when kom_pos
holds a stone, or when X's opponent may no longer take there (no ko, and
suicide): the state falls back to ``EMPTY`` before the move is judged.

One change from GNU Go's scheme, 2a: its komaster may take no ko but a
nested one, not even by the first, legal capture of another ko, so a
side that holds one ko can never start a second (``docs/reading.md``,
the komaster's legal captures).

Not done: superko; the scheme judges one ko at a time, as GNU Go's does.
"""

import numpy as np
from numba import njit

from . import board as kb
from . import loading  # noqa: F401  (installed before the first @njit)
from .layout import BLACK, COLOR, EMPTY, H_KO, H_W, NLIB, NSTONES, ORIGIN, PASS, WHITE, ix

GRAY_WHITE = 4  # White was komaster, Black took another ko
GRAY_BLACK = 5  # Black was komaster, White took another ko
WEAK = 6  # a ko capture answered a ko capture
KIND_MASK = 7
POS_SHIFT = 3

NONE = np.int64(EMPTY)  # no komaster: the state of a root question


@njit(cache=True, _nrt=False, inline="always")
def pack(kind, kom_pos):
    return np.int64(kind) + (np.int64(kom_pos) << POS_SHIFT)


@njit(cache=True, _nrt=False, inline="always")
def kind(kom):
    """EMPTY, BLACK, WHITE, GRAY_WHITE, GRAY_BLACK or WEAK."""
    return kom & KIND_MASK


@njit(cache=True, _nrt=False, inline="always")
def kom_pos(kom):
    """The ko the state is about (PASS when none)."""
    return kom >> POS_SHIFT


@njit(cache=True, _nrt=False)
def ko_capture(s, pos, color):
    """The stone a ``color`` move at empty ``pos`` would take as a ko capture
    (a single stone, ``pos`` surrounded by the other side or the edge), or
    PASS when the move is no ko capture.  Legality is not checked."""
    w = s[H_W]
    other = 3 - color
    taken = PASS
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        c = s[ix(COLOR + q)]
        if c == other:
            o = s[ix(ORIGIN + q)]
            if s[ix(NLIB + o)] == 1:
                if taken != PASS or s[ix(NSTONES + o)] > 1:
                    return PASS  # more than one stone taken
                taken = q
        elif c == EMPTY or c == color:
            return PASS
    return taken


@njit(cache=True, _nrt=False)
def _resolved(s, kom):
    """``kom`` with the komaster's ko dropped when it is resolved: kom_pos
    filled, or no longer a ko that the komaster's opponent may take."""
    k = kind(kom)
    if k == WHITE or k == GRAY_WHITE:
        master = WHITE
    elif k == BLACK or k == GRAY_BLACK:
        master = BLACK
    else:
        return kom
    p = kom_pos(kom)
    taker = 3 - master
    if s[ix(COLOR + p)] != EMPTY:
        return NONE
    if ko_capture(s, p, taker) == PASS and not kb.legal(s, p, taker, True):
        return NONE
    return kom


@njit(cache=True, _nrt=False)
def admits(s, kom, pos, color, taken):
    """May ``color`` take the ko at ``pos`` (taking stone ``taken``) under
    ``kom`` (already checked for resolution)?"""
    k = kind(kom)
    kp = kom_pos(kom)
    w = s[H_W]
    if k == 3 - color and pos == kp:
        return False  # 3: the opponent's ko
    if k == GRAY_WHITE or k == GRAY_BLACK:
        return False  # 4
    conditional = pos == s[H_KO]  # legal only as if after a threat
    if k == color and conditional and not kb.diagonal(taken, kp, w):
        return False  # 2a: a conditional capture only when nested
    if k == WEAK and not conditional and not kb.diagonal(taken, kp, w):
        return False  # 5b: a legal capture only when nested
    return True


@njit(cache=True, _nrt=False)
def _after_ko(kom, color, taken, previous_ko):
    """The state after ``color`` took a ko (stone ``taken``) under ``kom``."""
    k = kind(kom)
    if k == 3 - color:
        return pack(GRAY_BLACK if color == WHITE else GRAY_WHITE, kom_pos(kom))
    if k == color:
        return pack(k, taken)  # a nested capture moves kom_pos
    if previous_ko != PASS:
        return pack(WEAK, previous_ko)  # a ko capture answering one
    return kom


@njit(cache=True, _nrt=False)
def trymove(s, hw, keys, kom, pos, color, conditional):
    """GNU Go's komaster_trymove: (played, new state).  played 1: played
    (legal); 2: played as a conditional ko capture (only when
    ``conditional``); 0: not played, nothing changed."""
    kom = _resolved(s, kom)
    taken = ko_capture(s, pos, color)
    previous_ko = s[H_KO]
    if taken == PASS:
        new = NONE if kind(kom) == WEAK else kom
    elif not admits(s, kom, pos, color, taken):
        return np.int64(0), kom
    else:
        new = kom
    if kb.push_move(s, hw, keys, pos, color, False):
        if taken == PASS:
            return np.int64(1), new
        return np.int64(1), _after_ko(kom, color, taken, previous_ko)
    if not conditional or not kb.push_move(s, hw, keys, pos, color, True):
        return np.int64(0), kom
    if kind(kom) == EMPTY or kind(kom) == WEAK:
        return np.int64(2), pack(color, taken)  # 1b, 5c: the new komaster
    return np.int64(2), _after_ko(kom, color, taken, previous_ko)
