"""Colours, points and board sizes: the part of the board layout that needs
no numpy, so that the command line and GTP's first answers (``name``,
``version``) load without it.  ``layout.py`` re-exports all of it.

A board of ``size`` is padded 1-D with a stride ``W = size + 2``: point
``(row, col)`` (row 0 at the bottom) is ``(row + 1) * W + col + 1``.
"""

import os

EMPTY, BLACK, WHITE, BORDER = 0, 1, 2, 3
PASS = 0
MINSIZE, MAXSIZE = 2, 25


def interpreted() -> bool:
    """True in a process whose kernels run as plain Python
    (``NUMBA_DISABLE_JIT`` set, as numba reads it when imported)."""
    return os.environ.get("NUMBA_DISABLE_JIT", "0").strip() not in ("", "0")


def stride(size):
    """The padded row length for a board of ``size``."""
    return size + 2


def point(size, row, col):
    """Kernel index of (row, col); row 0 is the bottom row."""
    return (row + 1) * (size + 2) + col + 1


def row_col(size, pos):
    """Inverse of ``point``."""
    w = size + 2
    return pos // w - 1, pos % w - 1
