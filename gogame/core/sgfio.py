"""SGF in: the one loader behind ``gogame replay`` and GTP ``loadsgf``.

``load_game(path)`` (or ``parse_game(data, path)``) reads a game's main line
into a ``Game``; ``apply_game(game, position, until)`` plays it on a
``Position`` and returns the colour to move.  The semantics are GNU Go 3.8's
(``gameinfo_play_sgftree_rot``):

* the main line's properties are actioned in file order, a node's too
  (sgfmill keeps them in the order read); a node's ``AB``/``AW``/``AE`` are
  placed together where the first of them stands;
* the colour to move starts as black (white with ``HA`` > 1), ``PL[]`` sets
  it, and each move sets it to the other colour;
* every ``IL[p]`` value is a ``ko`` event; ``apply_game`` makes ``p`` the ko
  point only where ``il_is_ko`` holds on the position reached: a stone of the
  colour opposite to p's upper neighbour (lower on the top edge) would
  capture exactly one stone there;
* ``until`` is ``None`` (the whole line), a move number N >= 1 (the position
  before move N), or a vertex (stop before the first move played there;
  ``'pass'`` stops before the first pass).  Stopped before a move, the colour
  to move is that move's colour; nothing after the move is applied;
* ``KM`` sets ``Game.komi`` (``None`` when absent or malformed), ``HA``
  ``Game.handicap``.

Deviations, all on records GNU Go only warns about: an illegal move in the
record is an error (GNU Go stops loading there), ``AE`` is honoured (GNU Go
ignores it), a setup stone replaces one already there, ``HA`` without setup
stones places no handicap stones, and a bad property anywhere in the main
line is an error even where ``until`` stops before it.  Only the main line
is read; variations, comments and markup are ignored.

Everything wrong raises ``SgfError`` (a ``ValueError``) whose message starts
with the file name and, for a property or a move, names the move number:
a missing, unreadable or corrupt file, a size outside 2..25, a bad point
(off the board or malformed), a bad ``until``, setup stones that leave a
string without liberties, an illegal move.  Nothing is returned half-read.

Parsing: ``main_line`` reads the first game's main line in one pass over
sgfmill's own tokens, skipping the variations, and gives way (None) on
anything not plainly well-formed; sgfmill then parses the file, so a file
is read as sgfmill reads it and its errors are sgfmill's.  sgfmill still
interprets the properties (points, point lists, komi, text).

Limits (hostile files): ``load_game`` refuses, with a message and before
parsing, anything that is not a regular file (a FIFO, ``/dev/zero``,
``/dev/stdin``, a directory), a file over ``MAX_SGF_BYTES`` (10 MiB), and
a file holding more than ``MAX_SGF_NODES`` (250,000) ``;`` bytes -- an
upper bound on its nodes, counted in variations and comments too -- since
a parser keeps every node (sgfmill about 650 bytes a node).  Deep variation
nesting and giant property values within these limits parse (neither
parser is recursive).  ``parse_game`` applies the node limit, not the size
limit.
"""

from __future__ import annotations

import math
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
from sgfmill import sgf, sgf_grammar, sgf_properties

from ..kernel.layout import BLACK, EMPTY, MAXSIZE, MINSIZE, WHITE
from .coords import Point, format_gtp, parse_gtp, parse_sgf, to_pos
from .position import HashMismatchError, IllegalMoveError, Position, color_name

MAX_SGF_BYTES = 10 * 2**20
MAX_SGF_NODES = 250_000
_PL_WHITE = (b"w", b"W", b"2")
_NUMBER = re.compile(r"[1-9][0-9]*\Z")


class SgfError(ValueError):
    """A game file that cannot be used; the message names the file."""


@dataclass
class Game:
    """One game's main line.

    ``events`` are, in file order, ``("setup", {pt: color or EMPTY})``,
    ``("ko", pt)`` (one per ``IL[]`` value, a candidate: see ``il_is_ko``) and
    ``("move", pt or None, color, number)`` with ``number`` counting moves
    from 1.  ``to_move`` is the colour to move after the whole line (from
    ``HA``, ``PL[]`` and the moves, in file order); ``komi`` is ``None`` when
    the file sets none.
    """

    path: str
    size: int
    komi: float | None = None
    handicap: int = 0
    result: str = ""
    to_move: int = BLACK
    events: list = field(default_factory=list)

    @property
    def moves(self) -> list[tuple]:
        """The ``("move", pt or None, color, number)`` events, in order."""
        return [e for e in self.events if e[0] == "move"]

    @cached_property
    def steps(self) -> list[tuple]:
        """The events grouped for ``apply_game`` (computed once):
        ``("setup", stones, number of the next move)``, ``("ko", pt)`` and
        ``("moves", kernel points, colours, numbers)``, three int32 arrays
        for each run of consecutive moves."""
        steps, pts, colors, numbers = [], [], [], []

        def flush() -> None:
            if pts:
                steps.append(
                    (
                        "moves",
                        np.array(pts, np.int32),
                        np.array(colors, np.int32),
                        np.array(numbers, np.int32),
                    )
                )
                pts.clear(), colors.clear(), numbers.clear()

        number = 0
        for ev in self.events:
            if ev[0] == "move":
                number = ev[3]
                pts.append(to_pos(ev[1], self.size))
                colors.append(ev[2])
                numbers.append(number)
                continue
            flush()
            steps.append(("setup", ev[1], number + 1) if ev[0] == "setup" else ev)
        flush()
        return steps


# ------------------------------------------------------------------ reading
def load_game(path: str | os.PathLike) -> Game:
    """Read ``path`` and return its main line as a ``Game``."""
    path = os.fspath(path)
    return parse_game(read_sgf_bytes(path), path)


def read_sgf_bytes(path: str | os.PathLike) -> bytes:
    """The bytes of ``path``, or SgfError: not a regular file (never opened,
    so a FIFO cannot block), unreadable, or over ``MAX_SGF_BYTES`` (at most
    that many bytes plus one are read)."""
    path = os.fspath(path)
    try:
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise SgfError(f"{path}: not a regular file")
        with open(path, "rb") as f:
            data = f.read(MAX_SGF_BYTES + 1)
    except OSError as e:
        raise SgfError(f"{path}: cannot read file: {e.strerror or e}") from None
    if len(data) > MAX_SGF_BYTES:
        raise SgfError(f"{path}: file larger than {MAX_SGF_BYTES} bytes, the limit")
    return data


def parse_game(data: bytes, path: str = "<sgf>") -> Game:
    """Parse SGF bytes (see ``load_game``)."""
    if data.count(b";") > MAX_SGF_NODES:
        raise SgfError(
            f"{path}: more than {MAX_SGF_NODES} nodes (';' counted); the limit keeps memory bounded"
        )
    line = main_line(data)
    try:
        if line is None:  # sgfmill parses it, or says what is wrong
            game = sgf.Sgf_game.from_bytes(data)
            nodes = game.get_main_sequence()
        else:
            game = sgf.Sgf_game.from_coarse_game_tree(_coarse(line[:1]))
            nodes = [game.get_root()] + [sgf.Node(p, game.presenter) for p in line[1:]]
    except ValueError as e:
        raise SgfError(f"{path}: not a valid SGF file: {e}") from None
    size = game.get_size()
    if not MINSIZE <= size <= MAXSIZE:
        raise SgfError(f"{path}: board size {size} not supported (2..{MAXSIZE})")
    root = game.get_root()
    out = Game(path=path, size=size)
    if root.has_property("KM"):
        try:
            out.komi = float(game.get_komi())
        except ValueError:
            pass
        if out.komi is not None and not math.isfinite(out.komi):
            out.komi = None
    if root.has_property("HA"):
        try:
            out.handicap = int(root.get("HA"))
        except ValueError:
            pass
    if out.handicap > 1:
        out.to_move = WHITE
    if root.has_property("RE"):
        try:
            out.result = root.get("RE")
        except ValueError:
            pass
    number = 0
    for node in nodes:
        number = _read_node(node, number, out)
    return out


# sgfmill's tokens (sgf_grammar._tokenise_re): a value, an identifier
# (lower-case letters allowed, then dropped), or one of ( ; ), after blanks
_TOKEN = rb"\s*(?:\[([^\\\]]*(?:\\.[^\\\]]*)*)\]|([A-Za-z]{1,64})|([;()]))"
_TOKENS = re.compile(_TOKEN, re.DOTALL)
_RUN = re.compile(rb"(?:" + _TOKEN + rb")*", re.DOTALL)  # where sgfmill's tokens stop
_START = sgf_grammar._find_start_re
_LOWER = sgf_grammar._lcbytes


def main_line(data: bytes) -> list[dict[str, list[bytes]]] | None:
    """The first game's main line as sgfmill's property maps (identifier ->
    raw values), read in one pass over sgfmill's own tokens without
    building the variations, which sgfmill's parser keeps.  None for
    anything not plainly well-formed (no game, a value or identifier out of
    place, an empty sequence, a node after variations, data ending inside
    the game): the caller then lets sgfmill parse it, so every file is read
    as sgfmill reads it, and errors are sgfmill's."""
    start = _START.search(data)
    if start is None:
        return None
    end = _RUN.match(data, start.start()).end()
    # per open game tree: [on the main line, nodes read, children opened]
    trees, line, props, ident, values, in_node = [], [], None, None, 0, False
    for value, name, delimiter in _TOKENS.findall(data, start.start(), end):
        if not (name or delimiter):
            if ident is None:
                return None  # a value without an identifier
            values += 1
            if props is not None:
                props[ident].append(value)
            continue
        if ident is not None and values == 0:
            return None  # an identifier without a value
        ident = None
        if name:
            ident, values = name.translate(None, _LOWER).decode("ascii"), 0
            if not in_node or not ident:
                return None  # a property outside a node
            if props is not None:
                props.setdefault(ident, [])
        elif delimiter == b";":
            if not trees or trees[-1][2]:
                return None  # a node after the variations
            trees[-1][1] += 1
            in_node, props = True, ({} if trees[-1][0] else None)
            if props is not None:
                line.append(props)
        else:
            if trees and trees[-1][1] == 0:
                return None  # an empty sequence
            in_node, props = False, None
            if delimiter == b"(":
                main = not trees or (trees[-1][0] and trees[-1][2] == 0)
                if trees:
                    trees[-1][2] += 1
                trees.append([main, 0, 0])
                continue
            trees.pop()
            if not trees:
                return line
    return None  # the tokens ended inside the game: sgfmill's "unexpected end"


def _coarse(sequence: list[dict]) -> sgf_grammar.Coarse_game_tree:
    tree = sgf_grammar.Coarse_game_tree()
    tree.sequence = sequence
    return tree


def _read_node(node, number, game):
    """Append one node's events in file order; return the move number reached."""
    path, size, events = game.path, game.size, game.events
    setup_done = False
    for ident in node.properties():
        if ident in ("AB", "AW", "AE"):
            if setup_done:
                continue
            setup_done = True
            try:
                black, white, empty = node.get_setup_stones()
            except ValueError as e:
                raise SgfError(
                    f"{path}: setup before move {number + 1}: bad point in "
                    f"AB/AW/AE for a {size}x{size} board{_detail(e)}"
                ) from None
            stones = {pt: EMPTY for pt in empty}
            stones.update({pt: BLACK for pt in black})
            stones.update({pt: WHITE for pt in white})
            events.append(("setup", stones))
        elif ident == "PL":
            game.to_move = WHITE if node.get_raw("PL")[:1] in _PL_WHITE else BLACK
        elif ident in ("B", "W"):
            color = BLACK if ident == "B" else WHITE
            raw = node.get_raw(ident)
            try:
                pt = sgf_properties.interpret_go_point(raw, size)
            except ValueError:
                raise SgfError(
                    f"{path}: move {number + 1}: bad point {ident}[{_shown(raw)}] "
                    f"for a {size}x{size} board"
                ) from None
            number += 1
            events.append(("move", pt, color, number))
            game.to_move = WHITE if color == BLACK else BLACK
        elif ident == "IL":
            for raw in node.get_raw_list("IL"):
                try:
                    pt = parse_sgf(raw.decode("ascii"), size)
                except (ValueError, UnicodeDecodeError) as e:
                    raise SgfError(f"{path}: IL[] at move {number + 1}: {e}") from None
                if pt is not None:
                    events.append(("ko", pt))
    return number


def _detail(e):
    return f": {e}" if str(e) else ""


def _shown(raw, limit=20):
    """A property value for a message: decoded, cut to ``limit`` characters."""
    text = "".join(c if c.isprintable() else "?" for c in raw.decode("utf-8", "replace"))
    return text if len(text) <= limit else text[:limit] + "..."


# ----------------------------------------------------------------- playing
def parse_until(until: int | str | Point | None, size: int) -> tuple[int, int | None]:
    """``until`` -> (move number or 0, kernel point to stop at or None).

    ``until``: None, an int >= 1 or a string of digits (a move number), a GTP
    vertex or ``'pass'``, or a (row, col) point.  ValueError otherwise."""
    if until is None:
        return 0, None
    if isinstance(until, bool):
        raise ValueError(f"bad move number or vertex: {until!r}")
    if isinstance(until, (int, np.integer)):
        if until < 1:
            raise ValueError(f"move number {until} < 1")
        return int(until), None
    if isinstance(until, str):
        if _NUMBER.match(until.strip()):
            return int(until), None
        return 0, to_pos(parse_gtp(until, size), size)
    try:
        return 0, to_pos(tuple(until), size)
    except TypeError:
        raise ValueError(f"bad move number or vertex: {until!r}") from None


def apply_game(
    game: Game,
    position: Position,
    until: int | str | Point | None = None,
    on_mismatch: Callable[[int], object] | None = None,
    after_move: Callable[[int], object] | None = None,
) -> int:
    """Play ``game``'s events on ``position`` up to ``until``; return the
    colour to move (see the module's docstring for the semantics).

    ``position`` is normally a fresh ``Position`` of ``game.size``.  Raises
    ``SgfError`` naming the file and the move; the position is then partly
    loaded, so build a new one for an all-or-nothing load.  With the
    position's ``check_hashing``, a hash mismatch is an ``SgfError`` too,
    unless ``on_mismatch`` is given: it is then called with the move number,
    the words are resynchronised and play goes on (the later moves checked).
    ``after_move``, if given, is called with each move's number after it is
    played (moves then go to the kernel one at a time).
    """
    try:
        stop_number, stop_pos = parse_until(until, game.size)
    except ValueError as e:
        raise SgfError(f"{game.path}: {e}") from None
    for step in game.steps:
        kind = step[0]
        if kind == "moves":
            _, pts, colors, numbers = step
            end = _stop_index(pts, numbers, stop_number, stop_pos)
            if after_move is None:
                _play_moves(
                    position, game.path, pts[:end], colors[:end], numbers[:end], on_mismatch
                )
            else:
                for k in range(len(pts) if end is None else end):
                    _play_moves(
                        position,
                        game.path,
                        pts[k : k + 1],
                        colors[k : k + 1],
                        numbers[k : k + 1],
                        on_mismatch,
                    )
                    after_move(int(numbers[k]))
            if end is not None:
                return int(colors[end])
        elif kind == "setup":
            try:
                position.setup(step[1])
            except ValueError as e:
                raise SgfError(f"{game.path}: setup before move {step[2]}: {e}") from None
        elif il_is_ko(position, step[1]):
            position.set_ko(step[1])
    return game.to_move


def _stop_index(pts, numbers, stop_number, stop_pos):
    """Index of the move of this run that ``until`` stops before, or None."""
    hits = []
    if numbers[0] <= stop_number <= numbers[-1]:
        hits.append(stop_number - int(numbers[0]))
    if stop_pos is not None:
        at = np.flatnonzero(pts == stop_pos)
        if at.size:
            hits.append(int(at[0]))
    return min(hits) if hits else None


def _play_moves(position, path, pts, colors, numbers, on_mismatch):
    """Play a run of moves with the kernel's batch call."""
    start = 0
    while start < len(pts):
        try:
            position.play_many(pts[start:], colors[start:])
            return
        except HashMismatchError as e:
            k = start + e.index
            if on_mismatch is None:
                raise SgfError(f"{path}: move {numbers[k]}: {e}") from None
            on_mismatch(int(numbers[k]))
            position.resync_hash()
            start = k + 1
        except IllegalMoveError as e:
            if not hasattr(e, "index"):
                raise SgfError(f"{path}: {e}") from None
            k = start + e.index
            move = f"{color_name(colors[k])} {format_gtp(position.pt(pts[k]))}"
            raise SgfError(f"{path}: move {numbers[k]}: illegal move {move}") from None


def il_is_ko(position: Position, pt: Point) -> bool:
    """GNU Go's IL[] test: would the colour opposite to the stone above ``pt``
    (below, on the top edge) capture exactly one stone by playing there?"""
    size = position.size
    row, col = pt
    if position.color_at(pt) != EMPTY:
        return False
    ref = (row + 1, col) if row + 1 < size else (row - 1, col)
    opponent = position.color_at(ref)  # the stones the ko capture would take
    if opponent == EMPTY:
        return False
    captured = 0
    for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
        if not (0 <= r < size and 0 <= c < size):
            continue
        if position.color_at((r, c)) != opponent:
            return False
        if position.countlib((r, c)) == 1:
            captured += len(position.string_stones((r, c)))
    return captured == 1
