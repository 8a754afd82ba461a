"""Scoring from playout ownership: final_score, final_status_list, estimates.

``Ownership(position, black, white)`` holds, per kernel point, the share of
playouts that ended with the point black / white (``Player.ownership`` or a
search's counts).  From it: the owner of a point (the colour owning it in
more than half the playouts, else none), dead stones (owned by the other
colour), seki stones (alive, next to an empty point neither side owns that
also touches an alive opponent string), and the area margin by majority
owner minus komi (``margin``, Chinese counting), or territory plus
prisoners minus komi (``territory_margin``, Japanese counting).
``format_score`` writes it as GTP does (``B+3.5``, ``W+0.5``, ``0``).
Not done: the reading of life and death beyond what random playouts find.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import numpy as np

from ..core.coords import Point
from ..kernel.layout import BLACK, EMPTY, WHITE

if TYPE_CHECKING:
    from ..core.position import Position, Vertex

SETTLED = 0.9  # share of playouts that makes a point's end settled
SCORE_PLAYOUTS = {9: 3000, 13: 2000, 19: 1000}


def score_playouts(size: int) -> int:
    """Playouts used for final_score / final_status_list at ``size``."""
    for n in sorted(SCORE_PLAYOUTS):
        if size <= n:
            return SCORE_PLAYOUTS[n]
    return SCORE_PLAYOUTS[19]


def format_score(margin: float) -> str:
    """Black's margin -> ``B+m`` / ``W+m`` / ``0`` (GTP final_score)."""
    if margin == 0:
        return "0"
    text = f"{abs(margin):.1f}".rstrip("0").rstrip(".")
    return ("B+" if margin > 0 else "W+") + text


class Ownership:
    """Per-point shares of playouts owned by each colour, and what follows:
    owners (majority), dead and seki stones, the area margin."""

    def __init__(self, position: Position, black: np.ndarray, white: np.ndarray) -> None:
        self.position = position
        self.black = black
        self.white = white

    def share(self, pt: Vertex, color: int) -> float:
        """The share of playouts that ended with ``pt`` owned by ``color``."""
        p = self.position.pos(pt)
        return float(self.black[p] if color == BLACK else self.white[p])

    def owner(self, pt: Vertex) -> int:
        """BLACK/WHITE for the colour owning ``pt`` in most playouts, else EMPTY."""
        if pt is None:
            return EMPTY
        p = self.position.pos(pt)
        if self.black[p] > 0.5:
            return BLACK
        if self.white[p] > 0.5:
            return WHITE
        return EMPTY

    def points(self) -> list[Point]:
        """Every (row, col) of the board."""
        n = self.position.size
        return [(r, c) for r in range(n) for c in range(n)]

    def margin(self, komi: float, color: int = BLACK) -> float:
        """Area by majority owner, minus komi, from ``color``'s side."""
        b = w = 0
        for pt in self.points():
            o = self.owner(pt)
            b += o == BLACK
            w += o == WHITE
        m = b - w - komi
        return m if color == BLACK else -m

    def territory_margin(self, komi: float, color: int = BLACK) -> float:
        """Japanese counting, from ``color``'s side: empty points owned,
        plus the points of dead opponent stones, plus prisoners (the stones
        captured in the game, and the dead ones), minus komi.  An empty
        point no side owns (dame, seki) counts for neither."""
        pos = self.position
        score = {BLACK: pos.captures(WHITE), WHITE: pos.captures(BLACK)}
        for pt in self.points():
            c, o = pos.color_at(pt), self.owner(pt)
            if c == EMPTY and o != EMPTY:
                score[o] += 1
            elif c != EMPTY and o == 3 - c:  # dead: territory, and a prisoner
                score[o] += 2
        m = score[BLACK] - score[WHITE] - komi
        return m if color == BLACK else -m

    def score(self, rules: str, komi: float) -> float:
        """Black's margin under ``rules``: "japanese" territory, else area."""
        if rules == "japanese":
            return self.territory_margin(komi)
        return self.margin(komi)

    def dead_stones(self, color: int | None = None) -> list[Point]:
        """Stones (of ``color``, or both) the other side owns in most playouts."""
        pos = self.position
        out = []
        for pt in self.points():
            c = pos.color_at(pt)
            if c != EMPTY and (color is None or c == color) and self.owner(pt) == 3 - c:
                out.append(pt)
        return out

    def statuses(self) -> dict[Point, str]:
        """{point: 'alive' | 'dead' | 'seki'} for every stone."""
        pos = self.position
        out = {}
        for pt in self.points():
            c = pos.color_at(pt)
            if c != EMPTY:
                out[pt] = "dead" if self.owner(pt) == 3 - c else "alive"
        for pt, status in list(out.items()):
            if status == "alive" and self._in_seki(pt, out):
                out[pt] = "seki"
        return out

    def _in_seki(self, pt, status):
        """A neutral liberty of ``pt``'s string touching an alive opponent."""
        pos = self.position
        color = pos.color_at(pt)
        for lib in pos.findlib(pt):
            if self.owner(lib) != EMPTY:
                continue
            for nb in _neighbours(lib, pos.size):
                if pos.color_at(nb) == 3 - color and status.get(nb) != "dead":
                    return True
        return False

    def status_list(self, status: str) -> list[list[Point]]:
        """Stones with ``status``, one list per string, strings in board order."""
        pos = self.position
        statuses = self.statuses()
        seen, out = set(), []
        for row in range(pos.size - 1, -1, -1):
            for col in range(pos.size):
                pt = (row, col)
                if pt in seen or statuses.get(pt) != status:
                    continue
                stones = sorted(pos.string_stones(pt), key=lambda q: (-q[0], q[1]))
                seen.update(stones)
                out.append(stones)
        return out

    def unsettled(self) -> list[Point]:
        """The points, stones included, whose end -- owned by Black, by
        White, or by neither (dame, seki) -- is not the same in at least
        SETTLED of the playouts."""
        out = []
        for pt in self.points():
            b, w = self.share(pt, BLACK), self.share(pt, WHITE)
            if max(b, w, 1.0 - b - w) < SETTLED:
                out.append(pt)
        return out

    def settled(self) -> bool:
        """No point is ``unsettled``."""
        return not self.unsettled()


def _neighbours(pt: Point, size: int) -> Iterator[Point]:
    row, col = pt
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if 0 <= r < size and 0 <= c < size:
            yield r, c
