"""Vertex conversion between GTP (``D4``), SGF (``dd``), (row, col) and kernel points.

(row, col) follows sgfmill: row 0 is the bottom row, col 0 the left column,
so GTP ``A1`` is (0, 0).  ``None`` stands for a pass.  Functions raise
``ValueError`` with a short reason on anything off the board.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from ..kernel.points import MAXSIZE, PASS, point, row_col

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # no I, as GTP and GNU Go write it

Point = tuple[int, int]  # (row, col); None stands for a pass


@lru_cache(maxsize=4096)  # a GTP session names the same few vertices again and again
def parse_gtp(text: str, size: int) -> Point | None:
    """``'D4'`` -> (3, 3); ``'pass'`` -> None.  Any case."""
    t = text.strip().upper()
    if t == "PASS":
        return None
    if len(t) < 2 or t[0] not in GTP_COLUMNS or not t[1:].isdigit():
        raise ValueError(f"not a vertex: {text!r}")
    col = GTP_COLUMNS.index(t[0])
    row = int(t[1:]) - 1
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"vertex off the {size}x{size} board: {text!r}")
    return row, col


def format_gtp(pt: Point | None) -> str:
    """(3, 3) -> ``'D4'``; None -> ``'PASS'`` (GNU Go's spelling)."""
    if pt is None:
        return "PASS"
    row, col = pt
    return f"{GTP_COLUMNS[col]}{row + 1}"


def format_vertices(points: Iterable[Point | None]) -> str:
    """GTP vertices joined by single spaces, in the order given (no trailing space)."""
    return " ".join(format_gtp(p) for p in points)


def parse_sgf(text: str, size: int) -> Point | None:
    """SGF ``'dd'`` -> (row, col); ``''`` (and ``'tt'`` up to 19x19) -> None."""
    if text == "" or (text == "tt" and size <= 19):
        return None
    if len(text) != 2 or not text.isalpha() or not text.islower():
        raise ValueError(f"not an SGF point: {text!r}")
    col = ord(text[0]) - ord("a")
    row = size - 1 - (ord(text[1]) - ord("a"))
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"SGF point off the {size}x{size} board: {text!r}")
    return row, col


def format_sgf(pt: Point | None, size: int) -> str:
    """(row, col) -> SGF letters; None -> ``''``."""
    if pt is None:
        return ""
    row, col = pt
    return chr(ord("a") + col) + chr(ord("a") + size - 1 - row)


def to_pos(pt: Point | None, size: int) -> int:
    """(row, col) or None -> kernel point (PASS for None)."""
    if pt is None:
        return PASS
    row, col = pt
    if not (0 <= row < size and 0 <= col < size):
        raise ValueError(f"point off the {size}x{size} board: {pt!r}")
    return point(size, row, col)


def from_pos(pos: int, size: int) -> Point | None:
    """Kernel point -> (row, col), or None for PASS."""
    return None if pos == PASS else row_col(size, pos)


def check_size(size: int) -> None:
    """Raise ValueError unless 2 <= size <= MAXSIZE."""
    if not (2 <= size <= MAXSIZE):
        raise ValueError(f"board size {size} not in 2..{MAXSIZE}")
