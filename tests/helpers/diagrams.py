"""ASCII Go diagrams: the one parser every test that draws a position uses.

A diagram is one line a row, top row first, points separated by spaces::

    . X O .
    X O a O
    . X O .
    . . . .

``X`` is black, ``O`` white, ``.`` empty; a lower-case letter other than
``o`` and ``x`` is an empty point the test names (``Diagram.marks``).
Blank lines and indentation are ignored; the board must be square.  Points
are ``(row, col)`` with row 0 at the BOTTOM (GTP ``A1`` is ``(0, 0)``), as
in ``gogame.core.coords``.

``position`` turns a diagram into a ``gogame.core.position.Position`` (setup
stones, then an optional ko point and real moves); ``sgf_setup`` and
``sgf_record`` write it as SGF for the engines that load files (ours and GNU
Go); ``render`` draws a position back, to compare with a diagram.
"""

from dataclasses import dataclass, field

from gogame.core.position import Position
from gogame.kernel.layout import BLACK, EMPTY, WHITE

SGF_COLUMNS = "abcdefghijklmnopqrstuvwxy"
_STONES = {"X": BLACK, "O": WHITE}


@dataclass
class Diagram:
    size: int
    stones: dict = field(default_factory=dict)  # (row, col) -> BLACK/WHITE, top row first
    marks: dict = field(default_factory=dict)  # letter -> (row, col), an empty point

    def points(self, color):
        """The points of ``color`` (BLACK or WHITE), sorted."""
        return sorted(pt for pt, c in self.stones.items() if c == color)


def rows(text):
    """The rows of a diagram, top row first, each a list of marks."""
    return [line.split() for line in text.strip("\n").splitlines() if line.strip()]


def parse(text):
    """A ``Diagram`` from ASCII text (ValueError on a bad diagram)."""
    grid = rows(text)
    size = len(grid)
    if not grid or any(len(row) != size for row in grid):
        raise ValueError(f"a diagram must be square:\n{text}")
    out = Diagram(size)
    for i, row in enumerate(grid):
        r = size - 1 - i
        for c, mark in enumerate(row):
            if mark in _STONES:
                out.stones[(r, c)] = _STONES[mark]
            elif mark == ".":
                continue
            elif len(mark) == 1 and mark.islower() and mark not in "ox":
                if mark in out.marks:
                    raise ValueError(f"point {mark!r} marked twice:\n{text}")
                out.marks[mark] = (r, c)
            else:
                raise ValueError(f"bad diagram mark {mark!r}:\n{text}")
    return out


def position(text, moves=(), ko=None, check_hashing=False):
    """A Position: the diagram's stones set up (SGF AB/AW style), then the
    ko point ``ko`` if given (SGF IL), then ``moves``, (colour, vertex)
    pairs played for real (that is how a ko point gets set by a capture)."""
    d = parse(text)
    p = Position(d.size, check_hashing=check_hashing)
    p.setup(d.stones)
    if ko is not None:
        p.set_ko(ko)
    for color, vertex in moves:
        p.play(vertex, color)
    return p


def sgf_point(pt, size):
    row, col = pt
    return SGF_COLUMNS[col] + SGF_COLUMNS[size - 1 - row]


def sgf_setup(text):
    """The diagram as SGF root properties: ``SZ[n]AB[..]AW[..]``."""
    d = parse(text)
    out = f"SZ[{d.size}]"
    for color, tag in ((BLACK, "AB"), (WHITE, "AW")):
        pts = d.points(color)
        if pts:
            out += tag + "".join(f"[{sgf_point(pt, d.size)}]" for pt in pts)
    return out


def sgf_record(text, moves=()):
    """A whole SGF record: the diagram as setup, then ``moves`` as nodes."""
    p = Position(parse(text).size)
    nodes = "".join(
        f";{color.upper()}[{sgf_point(p.pt(p.pos(vertex)), p.size)}]" for color, vertex in moves
    )
    return f"(;GM[1]FF[4]{sgf_setup(text)}{nodes})"


def render(pos):
    """A position drawn as a diagram (X, O and '.', top row first)."""
    return "\n".join(
        " ".join(".XO"[pos.color_at((row, col))] for col in range(pos.size))
        for row in range(pos.size - 1, -1, -1)
    )


def canonical(text):
    """A diagram as ``render`` draws it: one space between points, no
    indentation; marked points drawn empty."""
    d = parse(text)
    return "\n".join(
        " ".join("XO"[d.stones[(r, c)] - 1] if (r, c) in d.stones else "." for c in range(d.size))
        for r in range(d.size - 1, -1, -1)
    )


def swap_colors(text):
    """The same diagram with black and white exchanged."""
    return text.translate(str.maketrans("XO", "OX"))


__all__ = [
    "BLACK",
    "EMPTY",
    "WHITE",
    "Diagram",
    "canonical",
    "parse",
    "position",
    "render",
    "rows",
    "sgf_point",
    "sgf_record",
    "sgf_setup",
    "swap_colors",
]
