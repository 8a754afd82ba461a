"""Slow, obviously-correct reference Go board for testing the numba kernel.

Contract
--------
* Points are ``(row, col)`` tuples, row 0 at the BOTTOM (sgfmill's convention:
  GTP "A1" is ``(0, 0)``).  A pass is ``None``.  Board sizes 2..25.
* Colours are ints: ``EMPTY = 0``, ``BLACK = 1``, ``WHITE = 2``.
* ``play(pt, color)`` places a stone, removes every opponent string left
  without liberties, and raises ``IllegalMove`` (a ``ValueError``) -- leaving
  the board untouched -- when the point is occupied, when the move is suicide
  (the mover's own string has no liberty after the captures), or when it
  retakes a simple ko.
* Simple ko: when a move captures exactly one stone and the moving stone is a
  one-stone string with exactly one liberty, the ko point becomes the captured
  stone's point.  On the very next move a play there that would capture is
  illegal.  ANY move, including a pass, clears (or replaces) the ko point.
  Colours need not alternate: the same colour may move twice in a row.
* ``captures[color]`` counts the stones OF THAT COLOUR that were captured.
* Strings and liberties are recomputed by flood fill on every query; there is
  no incremental state besides the stones, the ko point and the capture counts.

What it does NOT do: no superko or positional repetition check, no scoring,
no move history or undo, no side-to-move bookkeeping, no hashing, no handling
of any rule variant beyond the above.  It is deliberately slow.
"""

EMPTY, BLACK, WHITE = 0, 1, 2


class IllegalMove(ValueError):
    """The move breaks a rule (occupied point, suicide, ko retake)."""


def other(color):
    return WHITE if color == BLACK else BLACK


class RefBoard:
    def __init__(self, size):
        if not 2 <= size <= 25:
            raise ValueError(f"board size must be in 2..25, got {size!r}")
        self.size = size
        self._stones = {}  # pt -> BLACK/WHITE; empty points absent
        self.ko = None
        self.captures = [0, 0, 0]  # indexed by colour

    # ----------------------------------------------------------- geometry
    def points(self):
        """All points, row-major from (0, 0)."""
        return [(r, c) for r in range(self.size) for c in range(self.size)]

    def on_board(self, pt):
        return (
            isinstance(pt, tuple)
            and len(pt) == 2
            and 0 <= pt[0] < self.size
            and 0 <= pt[1] < self.size
        )

    def _check_point(self, pt):
        if not self.on_board(pt):
            raise ValueError(f"not a point on a {self.size}x{self.size} board: {pt!r}")

    def neighbours(self, pt):
        r, c = pt
        return [
            (r + dr, c + dc)
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
            if 0 <= r + dr < self.size and 0 <= c + dc < self.size
        ]

    # ----------------------------------------------------------- queries
    def color(self, pt):
        self._check_point(pt)
        return self._stones.get(pt, EMPTY)

    def stones(self):
        return dict(self._stones)

    def copy(self):
        b = RefBoard(self.size)
        b._stones = dict(self._stones)
        b.ko = self.ko
        b.captures = list(self.captures)
        return b

    @staticmethod
    def _flood(stones, size, pt):
        color = stones[pt]
        seen = {pt}
        todo = [pt]
        while todo:
            r, c = todo.pop()
            for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if (
                    0 <= q[0] < size
                    and 0 <= q[1] < size
                    and q not in seen
                    and stones.get(q) == color
                ):
                    seen.add(q)
                    todo.append(q)
        return frozenset(seen)

    @staticmethod
    def _libs(stones, size, string):
        libs = set()
        for r, c in string:
            for q in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if 0 <= q[0] < size and 0 <= q[1] < size and q not in stones:
                    libs.add(q)
        return frozenset(libs)

    def string(self, pt):
        """The stones of the string through pt (ValueError on an empty point)."""
        self._check_point(pt)
        if pt not in self._stones:
            raise ValueError(f"no stone at {pt!r}")
        return self._flood(self._stones, self.size, pt)

    def liberties(self, pt):
        """The liberties of the string through pt."""
        return self._libs(self._stones, self.size, self.string(pt))

    # ----------------------------------------------------------- moves
    def play(self, pt, color):
        """Play a move; return the frozenset of captured points.

        Raises IllegalMove (a ValueError) and changes nothing when illegal.
        """
        if color not in (BLACK, WHITE):
            raise ValueError(f"bad colour {color!r}")
        if pt is None:
            self.ko = None
            return frozenset()
        self._check_point(pt)
        if pt in self._stones:
            raise IllegalMove(f"{pt!r} is occupied")

        stones = dict(self._stones)
        stones[pt] = color
        captured = set()
        for q in self.neighbours(pt):
            if stones.get(q) == other(color) and q not in captured:
                s = self._flood(stones, self.size, q)
                if not self._libs(stones, self.size, s):
                    captured |= s
        for q in captured:
            del stones[q]
        own = self._flood(stones, self.size, pt)
        own_libs = self._libs(stones, self.size, own)
        if not own_libs:
            raise IllegalMove(f"{pt!r} is suicide for {color}")
        if pt == self.ko and captured:
            raise IllegalMove(f"{pt!r} retakes the ko")

        # Commit.
        self._stones = stones
        self.captures[other(color)] += len(captured)
        if len(captured) == 1 and len(own) == 1 and len(own_libs) == 1:
            (self.ko,) = captured
        else:
            self.ko = None
        return frozenset(captured)

    def is_legal(self, pt, color):
        """Whether play(pt, color) would succeed (tried on a copy)."""
        if pt is not None:
            self._check_point(pt)
        try:
            self.copy().play(pt, color)
        except IllegalMove:
            return False
        return True

    def legal_moves(self, color):
        """Sorted list of the legal (non-pass) points for color.

        Shortcut, for speed only: an empty point other than the ko point with
        an empty neighbour is legal (the new stone keeps that liberty whatever
        it captures); every other point is tried with is_legal.
        """
        out = []
        for pt in self.points():
            if pt in self._stones:
                continue
            if pt != self.ko and any(q not in self._stones for q in self.neighbours(pt)):
                out.append(pt)
            elif self.is_legal(pt, color):
                out.append(pt)
        return out

    # ----------------------------------------------------------- display
    def diagram(self):
        """Top row first; X = black, O = white, '.' = empty, '*' = ko point."""
        chars = {BLACK: "X", WHITE: "O"}
        lines = []
        for r in reversed(range(self.size)):
            row = []
            for c in range(self.size):
                if (r, c) == self.ko:
                    row.append("*")
                else:
                    row.append(chars.get(self._stones.get((r, c)), "."))
            lines.append(" ".join(row))
        return "\n".join(lines)

    __str__ = diagram
