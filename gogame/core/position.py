"""A Go position for Python callers: owns the kernel arrays, speaks vertices.

``Position`` wraps the numba board kernel.  Points are (row, col) with row 0
at the bottom (sgfmill's convention), GTP vertex strings such as ``'D4'``, or
``None`` for a pass; colours are ``BLACK``/``WHITE`` or ``'b'``/``'w'``.

Real moves (``play``) go on a history so that ``undo`` works: it rebuilds
the position by replaying the history, as GNU Go does.  ``trymove`` /
``popgo`` go through the kernel's change stack instead and are exact.
With ``check_hashing`` on, both hash words are recomputed from scratch after
every play, undo, trymove and popgo, and any difference raises
``HashMismatchError`` naming the move.  Not done here: superko, scoring.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from ..kernel import board as kb
from ..kernel.layout import (
    BLACK,
    COLOR,
    EMPTY,
    H_CAPT,
    H_CHECK,
    H_HASHERR,
    H_HASHWHERE,
    H_KO,
    H_MARKGEN,
    H_STACKP,
    MARK,
    MAXPOS,
    PASS,
    PLYMARK,
    WHITE,
    new_state,
)
from ..kernel.zobrist import KEYS, KO_KEY, compute_hash
from . import coords

Vertex = coords.Point | str | None  # (row, col), a GTP vertex such as 'D4', None: pass
Color = int | str  # BLACK / WHITE, or 'b', 'black', 'w', 'white'


class IllegalMoveError(ValueError):
    """A move on an occupied point, a suicide or a ko retake."""


class CannotUndoError(IndexError):
    """``undo`` with no move to take back (or only setup stones)."""


class HashMismatchError(AssertionError):
    """check_hashing found an incremental word that differs from a recomputation."""


def parse_color(color: Color) -> int:
    """BLACK/WHITE, or 'b', 'black', 'w', 'white' in any case -> 1 or 2."""
    if color in (BLACK, WHITE):
        return int(color)
    if isinstance(color, str):
        c = color.strip().lower()
        if c in ("b", "black"):
            return BLACK
        if c in ("w", "white"):
            return WHITE
    raise ValueError(f"not a colour: {color!r}")


def color_name(color: int) -> str:
    """'B' for BLACK, 'W' for anything else."""
    return "B" if color == BLACK else "W"


class Position:
    """A board of ``size`` (2..25) with history, kernel arrays and hash words."""

    def __init__(self, size: int = 19, check_hashing: bool = False) -> None:
        coords.check_size(size)
        self.size = size
        self.s, self.hw = new_state()
        self.keys = KEYS
        self._buf = np.zeros(MAXPOS, np.int32)
        self.history: list[
            tuple
        ] = []  # ('move', pos, color) | ('setup', [(pos, color)]) | ('ko', pos)
        kb.clear(self.s, self.hw, size)
        self.check_hashing = check_hashing

    # ------------------------------------------------------------ helpers
    @property
    def check_hashing(self) -> bool:
        """Whether every move is checked against a recomputed hash."""
        return bool(self.s[H_CHECK])

    @check_hashing.setter
    def check_hashing(self, on: bool) -> None:
        self.s[H_CHECK] = 1 if on else 0

    def pos(self, pt: Vertex) -> int:
        """A point, GTP vertex or None -> kernel index (PASS for a pass)."""
        if isinstance(pt, str):
            pt = coords.parse_gtp(pt, self.size)
        return coords.to_pos(pt, self.size)

    def pt(self, pos: int) -> coords.Point | None:
        """Kernel index -> (row, col), None for PASS."""
        return coords.from_pos(int(pos), self.size)

    def raise_if_hash_error(self, what: str) -> None:
        """Raise ``HashMismatchError`` (with both words and the board) when
        the kernel flagged a mismatch while ``check_hashing`` was on, and
        clear the flag; ``what`` names the move for the message."""
        err = int(self.s[H_HASHERR])
        if err == 0:
            return
        where = "popgo" if self.s[H_HASHWHERE] == 2 else f"move {what}"
        self.s[H_HASHERR] = 0
        inc = self.hash
        new = self.recompute_hash()
        raise HashMismatchError(
            f"hash mismatch after {where}: incremental "
            f"({inc[0]:#018x}, {inc[1]:#018x}) != recomputed "
            f"({new[0]:#018x}, {new[1]:#018x})\n{self.diagram()}"
        )

    def _move_name(self, pos, color):
        return f"{color_name(color)} {coords.format_gtp(self.pt(pos))}"

    # -------------------------------------------------------------- moves
    def is_legal(self, pt: Vertex, color: Color) -> bool:
        """Whether ``color`` may play at ``pt`` now (ko and suicide included)."""
        return bool(kb.is_legal(self.s, self.pos(pt), parse_color(color)))

    def play(self, pt: Vertex, color: Color) -> None:
        """A real move; raises IllegalMoveError (position unchanged)."""
        pos, color = self.pos(pt), parse_color(color)
        if self.stackp:
            raise IllegalMoveError("play while trymove is active")
        if not kb.play(self.s, self.hw, self.keys, pos, color):
            raise IllegalMoveError(f"illegal move: {self._move_name(pos, color)}")
        self.history.append(("move", pos, color))
        self.raise_if_hash_error(f"{len(self.moves())} ({self._move_name(pos, color)})")

    def play_many(self, pos: np.ndarray, colors: np.ndarray) -> None:
        """Play kernel points ``pos[i]`` for ``colors[i]`` (int arrays) fast.

        Raises IllegalMoveError or HashMismatchError with ``.index``, the
        number of moves of the batch played before the bad one (a move whose
        hash check failed has been played).
        """
        if self.stackp:
            raise IllegalMoveError("play while trymove is active")
        pos = np.ascontiguousarray(pos, np.int32)
        colors = np.ascontiguousarray(colors, np.int32)
        n = int(kb.play_sequence(self.s, self.hw, self.keys, pos, colors))
        self.history.extend(
            ("move", int(p), int(c)) for p, c in zip(pos[:n], colors[:n], strict=True)
        )
        if self.s[H_HASHERR]:
            try:
                self.raise_if_hash_error(str(len(self.moves())))
            except HashMismatchError as e:
                e.index = n - 1
                raise
        if n < len(pos):
            err = IllegalMoveError(f"illegal move: {self._move_name(pos[n], colors[n])}")
            err.index = n
            raise err

    def resync_hash(self) -> None:
        """Replace the incremental words by a recomputation (after a reported mismatch)."""
        self.hw[0], self.hw[1] = compute_hash(self.s, self.keys)

    def trymove(self, pt: Vertex, color: Color) -> bool:
        """Play one ply deeper on the change stack; False if illegal."""
        return self._push(pt, color, False)

    def tryko(self, pt: Vertex, color: Color) -> bool:
        """``trymove`` that may retake a ko (as after a ko threat); False if illegal."""
        return self._push(pt, color, True)

    def _push(self, pt, color, ignore_ko):
        pos, color = self.pos(pt), parse_color(color)
        ok = bool(kb.push_move(self.s, self.hw, self.keys, pos, color, ignore_ko))
        if ok:
            what = "tryko" if ignore_ko else "trymove"
            self.raise_if_hash_error(f"{what} {self._move_name(pos, color)}")
        return ok

    def popgo(self) -> None:
        """Undo the last trymove exactly."""
        if not kb.popgo(self.s, self.hw, self.keys):
            raise IndexError("popgo without trymove")
        self.raise_if_hash_error("popgo")

    @property
    def stackp(self) -> int:
        """How many trymoves are on the change stack."""
        return int(self.s[H_STACKP])

    def moves(self) -> list[tuple[int, int]]:
        """The real moves played, as (pos, color) pairs."""
        return [(e[1], e[2]) for e in self.history if e[0] == "move"]

    def undo(self) -> None:
        """Take back the last real move by replaying the rest of the history."""
        last = len(self.history)
        while last and self.history[last - 1][0] == "ko":
            last -= 1  # an IL[] ko point goes with the move before it
        if self.stackp or not last or self.history[last - 1][0] != "move":
            raise CannotUndoError("cannot undo")
        del self.history[last - 1 :]
        self._rebuild()
        if self.check_hashing and self.hash != self.recompute_hash():
            self.s[H_HASHERR] = 1
            self.raise_if_hash_error("undo")

    def _rebuild(self):
        check = self.check_hashing
        kb.clear(self.s, self.hw, self.size)
        events, self.history = self.history, []
        for ev in events:
            self._apply(ev)
        self.history = events
        self.check_hashing = check

    def _apply(self, ev):
        """One history event on the arrays (no check, no history entry)."""
        if ev[0] == "move":
            kb.play(self.s, self.hw, self.keys, ev[1], ev[2])
        elif ev[0] == "setup":
            self._setup_stones(ev[1])
        else:
            kb.set_ko(self.s, self.hw, self.keys, ev[1])

    @property
    def board_key(self) -> tuple[int, int]:
        """The whole-board key for positional superko: the two hash words
        with the ko point's key XORed back out, so only the stones count
        (the side to move is never hashed)."""
        h0, h1 = self.hash
        ko = int(self.s[H_KO])
        if ko != PASS:
            h0 ^= int(self.keys[0, KO_KEY, ko])
            h1 ^= int(self.keys[1, KO_KEY, ko])
        return h0, h1

    def board_keys(self) -> list[tuple[int, int]]:
        """``board_key`` of the empty board and after each history event,
        replayed on a scratch Position (the events, as ``undo`` replays
        them)."""
        scratch = Position(self.size)
        keys = [scratch.board_key]
        for ev in self.history:
            scratch._apply(ev)
            keys.append(scratch.board_key)
        return keys

    # -------------------------------------------------------------- setup
    def setup(self, stones: Mapping[Vertex, Color]) -> None:
        """Place setup stones (SGF AB/AW/AE): ``{pt: color or EMPTY}``.

        Clears the ko point.  Raises ValueError, changing nothing, if a
        string would be left without liberties.
        """
        if self.stackp:
            raise ValueError("setup while trymove is active")
        batch = [
            (self.pos(pt), EMPTY if c == EMPTY else parse_color(c)) for pt, c in stones.items()
        ]
        if any(p == PASS for p, _ in batch):
            raise ValueError("setup stone on pass")
        if self._setup_stones(batch):
            self._rebuild()
            raise ValueError("setup leaves a string without liberties")
        self.history.append(("setup", batch))

    def _setup_stones(self, batch):
        kb.clear_ko(self.s, self.hw, self.keys)
        for pos, c in batch:
            kb.set_color(self.s, self.hw, self.keys, pos, c)
        return kb.rebuild_strings(self.s)

    def set_ko(self, pt: Vertex) -> None:
        """Mark ``pt`` as the ko point (SGF ``IL[]``), as a history event."""
        pos = self.pos(pt)
        if self.stackp or self.s[COLOR + pos] != EMPTY:
            raise ValueError("ko point must be empty, at depth 0")
        kb.set_ko(self.s, self.hw, self.keys, pos)
        self.history.append(("ko", pos))

    # ------------------------------------------------------------ queries
    def color_at(self, pt: Vertex) -> int:
        """EMPTY, BLACK or WHITE at ``pt``."""
        return int(self.s[COLOR + self.pos(pt)])

    @property
    def ko(self) -> coords.Point | None:
        """The ko point (the point a ko capture forbids), None when there is none."""
        ko = int(self.s[H_KO])
        return None if ko == PASS else self.pt(ko)

    def captures(self, color: Color) -> int:
        """Stones of ``color`` captured so far."""
        return int(self.s[H_CAPT + parse_color(color)])

    def string_pos(self, pt: Vertex, error: str | None = None) -> int:
        """The kernel point of the stone at ``pt``; ValueError (``error``, or
        "no stone at ...") when there is none."""
        pos = self.pos(pt)
        if pos == PASS or self.s[COLOR + pos] not in (BLACK, WHITE):
            raise ValueError(error or f"no stone at {pt!r}")
        return pos

    def weak_strings(self, max_libs: int = 4) -> list[int]:
        """One kernel point of each string with at most ``max_libs``
        liberties, in the kernel's order (``list_strings``)."""
        n = kb.list_strings(self.s, max_libs, self._buf)
        return [int(p) for p in self._buf[:n]]

    def countlib(self, pt: Vertex) -> int:
        """Liberties of the string at ``pt``; ValueError when no stone is there."""
        return int(kb.countlib(self.s, self.string_pos(pt)))

    def findlib(self, pt: Vertex) -> list[coords.Point]:
        """The liberties of the string at ``pt``, sorted."""
        n = kb.findlib(self.s, self.string_pos(pt), self._buf)
        return sorted(self.pt(p) for p in self._buf[:n])

    def string_stones(self, pt: Vertex) -> list[coords.Point]:
        """The stones of the string at ``pt``, sorted."""
        n = kb.string_stones(self.s, self.string_pos(pt), self._buf)
        return sorted(self.pt(p) for p in self._buf[:n])

    @property
    def hash(self) -> tuple[int, int]:
        """The two incremental Zobrist words."""
        return int(self.hw[0]), int(self.hw[1])

    def recompute_hash(self) -> tuple[int, int]:
        """The two Zobrist words computed from scratch."""
        h0, h1 = compute_hash(self.s, self.keys)
        return int(h0), int(h1)

    def snapshot(self) -> bytes:
        """The whole position as bytes: header, ply marks in use, board data."""
        s = self.s
        return (
            s[:H_MARKGEN].tobytes()
            + s[H_CHECK : PLYMARK + self.stackp].tobytes()
            + s[COLOR:MARK].tobytes()
            + self.hw[:2].tobytes()
        )

    def stones(self) -> dict[coords.Point, int]:
        """{(row, col): color} for every stone."""
        out = {}
        for row in range(self.size):
            for col in range(self.size):
                c = self.color_at((row, col))
                if c != EMPTY:
                    out[(row, col)] = c
        return out

    def diagram(self) -> str:
        """ASCII board as GNU Go's showboard draws it: X black, O white."""
        cols = coords.GTP_COLUMNS[: self.size]
        head = "   " + " ".join(cols)
        lines = [head]
        for row in range(self.size - 1, -1, -1):
            marks = [".XO"[self.color_at((row, col))] for col in range(self.size)]
            lines.append(f"{row + 1:2d} " + " ".join(marks) + f" {row + 1}")
        lines.append(head)
        return "\n".join(lines)
