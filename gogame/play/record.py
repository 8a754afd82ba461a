"""The game as SGF (sgfmill), and atomic file writes: printsgf, --sgf-autosave.

``game_sgf(position, komi, handicap, result, to_move)`` writes the whole
history of a ``Position``: SZ, KM, HA, the setup stones placed before the
first move (handicap or loaded AB/AW) in the root, later setup in nodes of
their own, every move (a pass as an empty move), IL[] ko points where the
history holds them, RE when a result is known, and PL[] when the colour to
move is not the one the record implies.  Loading the text with ``loadsgf``
gives back the same position (board, ko point, hash words).

``write_atomic(path, data)`` writes a temporary file in the same directory,
syncs it and renames it over ``path``: a reader (or a crash) sees the old
file or the new one, never half of one (device files and pipes are written
in place, never replaced).  Not done: variations, comments.
"""

from __future__ import annotations

import os
import tempfile
from typing import TYPE_CHECKING

from sgfmill import sgf

from .. import __version__
from ..core.coords import format_sgf
from ..kernel.layout import BLACK, EMPTY, WHITE

if TYPE_CHECKING:
    from ..core.position import Position

_COLOUR = {BLACK: "b", WHITE: "w"}


def game_sgf(
    position: Position,
    komi: float = 0.0,
    handicap: int = 0,
    result: str | None = None,
    to_move: int | None = None,
) -> bytes:
    """The game's SGF text as bytes."""
    size = position.size
    game = sgf.Sgf_game(size)
    root = game.get_root()
    root.set("KM", float(komi))
    root.set("AP", ("gogame", __version__))
    if handicap:
        root.set("HA", int(handicap))
    if result:
        root.set("RE", result)
    node = root
    implied = WHITE if handicap > 1 else BLACK
    moved = False
    for event in position.history:
        kind = event[0]
        if kind == "setup":
            target = node if not moved and node is root else game.extend_main_sequence()
            _setup(target, position, event[1])
            node = target
        elif kind == "move":
            node = game.extend_main_sequence()
            node.set_move(_COLOUR[event[2]], position.pt(event[1]))
            implied = WHITE if event[2] == BLACK else BLACK
            moved = True
        elif kind == "ko":
            pt = position.pt(event[1])
            node.set_raw_list("IL", [format_sgf(pt, size).encode("ascii")])
    if to_move is not None and to_move != implied:
        node.set_raw("PL", b"W" if to_move == WHITE else b"B")
    return game.serialise()


def _setup(node, position, batch):
    """AB/AW/AE on ``node`` (merged with what it holds already)."""
    black, white, empty = (set(x) for x in node.get_setup_stones())
    for pos, color in batch:
        pt = position.pt(pos)
        for group in (black, white, empty):
            group.discard(pt)
        {BLACK: black, WHITE: white, EMPTY: empty}[color].add(pt)
    node.set_setup_stones(black, white, empty)


def write_atomic(path: str | os.PathLike, data: bytes) -> None:
    """Write bytes to ``path`` through a temporary file and a rename.  An
    existing path that is not a regular file (``/dev/null``, a pipe) is
    written in place, never replaced; a directory is an OSError."""
    path = os.fspath(path)
    if os.path.exists(path) and not os.path.isfile(path):
        if os.path.isdir(path):
            raise IsADirectoryError(f"{path} is a directory")
        with open(path, "wb") as f:
            f.write(data)
        return
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".gogame-", suffix=".sgf.tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
