"""SGF in, through sgfmill: a game's main line as setup and move events.

``load_game(path)`` reads one file and returns a ``Game``; anything wrong
(missing, unreadable, too large, corrupt, a size outside 2..25, a bad point)
raises ``SgfError`` whose message names the file.  Illegal moves are not
checked here: replaying the events on a ``Position`` finds them.  Only the
main line is read; variations, comments and markup are ignored.  ``IL[]``
(GNU Go's illegal-ko-retake point) is kept as a ``ko`` event.
"""
import os
from dataclasses import dataclass, field

from sgfmill import sgf

from .coords import parse_sgf
from .kernel.layout import BLACK, EMPTY, MAXSIZE, MINSIZE, WHITE

MAX_SGF_BYTES = 4 * 1024 * 1024
COLOR = {"b": BLACK, "w": WHITE}


class SgfError(ValueError):
    """A game file that cannot be used; the message names the file."""


@dataclass
class Game:
    """One game's main line: ``events`` are, in order,
    ``("setup", {pt: color or EMPTY})``, ``("ko", pt)`` and
    ``("move", pt or None, color, number)`` with ``number`` counting moves from 1."""
    path: str
    size: int
    komi: float = 0.0
    handicap: int = 0
    result: str = ""
    events: list = field(default_factory=list)

    @property
    def moves(self):
        return [e for e in self.events if e[0] == "move"]


def load_game(path):
    """Read ``path`` and return its main line as a ``Game``."""
    try:
        if os.path.getsize(path) > MAX_SGF_BYTES:
            raise SgfError(f"{path}: file larger than {MAX_SGF_BYTES} bytes")
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise SgfError(f"{path}: cannot read file: {e.strerror or e}") from None
    return parse_game(data, path)


def parse_game(data, path="<sgf>"):
    """Parse SGF bytes (see ``load_game``)."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
    except ValueError as e:
        raise SgfError(f"{path}: not a valid SGF file: {e}") from None
    size = game.get_size()
    if not MINSIZE <= size <= MAXSIZE:
        raise SgfError(f"{path}: board size {size} not supported (2..{MAXSIZE})")
    root = game.get_root()
    out = Game(path=path, size=size)
    try:
        out.komi = float(game.get_komi())
        out.handicap = game.get_handicap() or 0
    except ValueError:
        pass
    if root.has_property("RE"):
        out.result = root.get("RE")
    number = 0
    try:
        for node in game.get_main_sequence():
            number = _node_events(node, number, size, out.events)
    except ValueError as e:
        raise SgfError(f"{path}: move {number + 1}: bad property: {e}") from None
    return out


def _node_events(node, number, size, events):
    """Append the events of one node; return the move number reached."""
    if node.has_setup_stones():
        black, white, empty = node.get_setup_stones()
        stones = {pt: BLACK for pt in black}
        stones.update({pt: WHITE for pt in white})
        stones.update({pt: EMPTY for pt in empty})
        events.append(("setup", stones))
    colour, pt = node.get_move()
    if colour is not None:
        number += 1
        events.append(("move", pt, COLOR[colour], number))
    if node.has_property("IL"):
        events.append(("ko", parse_sgf(node.get_raw("IL").decode("ascii"), size)))
    return number
