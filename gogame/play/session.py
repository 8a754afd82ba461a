"""A playing session, independent of GTP: position, komi, colour to move, reader.

``Engine`` owns the current ``Position`` and everything that outlives it:
komi (which survives ``boardsize`` / ``clear_board``), the settings every new
Position gets (``check_hashing``), the ``Reader`` with its depth offset and
counters, and the colour to move.  Points are (row, col) with row 0 at the
bottom, GTP vertex strings (``'D4'``) or ``None`` for a pass; colours are
``BLACK``/``WHITE`` or ``'b'``/``'black'``/``'w'``/``'white'``.

Every operation either succeeds or leaves the session as it was:

* ``boardsize`` / ``loadsgf`` build the new Position completely before
  swapping it in; ``loadsgf`` raises ``LoadError`` (a ``ValueError`` whose
  message starts with ``cannot load file``) and keeps the old position;
* ``play`` raises ``IllegalMoveError``, ``undo`` ``CannotUndoError`` (both
  from ``position``), with nothing changed; with ``check_hashing`` a hash
  mismatch takes the move back before ``HashMismatchError`` propagates.

For play (issue 7): ``genmove`` (``player.Player``, loaded on first use),
handicap placement, ``final_score`` / ``final_status_list`` from playout
ownership (``scoring``; ``rules``, "chinese" area counting or "japanese"
territory counting, survives ``clear_board`` as the komi does), the clock
(``clock.Clock``), ``game_sgf`` / ``printsgf`` (``record``) and
``autosave``: when set to a path, the game is rewritten there atomically
after every change of the game (move, undo,
handicap, clear, boardsize, loadsgf).  ``result`` is the known result (set
by a resignation, or by ``final_score`` after two passes; cleared by any
change).

Positional superko, for our own moves only: the session keeps the key
(``Position.board_key``: the stones, neither the ko point nor the side to move) of
every board the game has had, kept in step by ``changed`` after play, undo,
handicap, clear_board, boardsize and loadsgf (``seen_boards``).  ``genmove``
(reg_genmove and kgs-genmove_cleanup too) never returns a move whose board
repeats one of them: the player leaves such moves out of its search's root,
and a choice that still repeats (``superko_checked``) gives way to the next
root move that does not, else to a pass.  ``play`` judges only by the
simple-ko rule: the controller is the referee (as with GNU Go).

``loadsgf`` reads the file with ``sgfio`` (``load_game`` / ``apply_game``,
the loader ``gogame replay`` uses too), which follows GNU Go 3.8's
``loadsgf``: properties in file order, ``until`` as a move number or vertex,
``PL[]``/``HA`` for the colour to move, ``IL[]`` only where it is a ko, ``KM``
for the komi (kept when the file has none); see its docstring.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core import coords, options
from ..core.coords import Point
from ..core.position import (
    CannotUndoError,
    HashMismatchError,
    IllegalMoveError,
    Position,
    parse_color,
)
from ..core.sgfio import SgfError, apply_game, load_game, parse_game
from ..kernel.layout import BLACK, EMPTY, WHITE
from .clock import Clock

if TYPE_CHECKING:
    import os

    from ..core.position import Color, Vertex
    from ..core.reader import Answer, Reader
    from .player import Decision, Player
    from .scoring import Ownership

__all__ = [
    "Engine",
    "Settings",
    "LoadError",
    "IllegalMoveError",
    "CannotUndoError",
    "HashMismatchError",
    "BLACK",
    "WHITE",
    "EMPTY",
    "other",
    "color_word",
    "board_text",
    "fixed_handicap_points",
]

COLOR_WORDS = {EMPTY: "empty", BLACK: "black", WHITE: "white"}


def _no_bars() -> dict[int, float]:
    """A new game's situational bars (``Engine.extra_komi``): none."""
    return {BLACK: 0.0, WHITE: 0.0}


def other(color: int) -> int:
    return WHITE if color == BLACK else BLACK


def color_word(color: int) -> str:
    """BLACK -> 'black', as GNU Go prints a colour (``%C``)."""
    return COLOR_WORDS[color]


class LoadError(ValueError):
    """``loadsgf`` failed; the old position is kept.  The message starts
    with ``cannot load file`` and names the file and the reason."""


@dataclass
class Settings:
    """What every Position and the Reader are made with.

    ``cache_mb`` None means ``DEFAULT_CACHE_MB``; ``threads`` is the number
    of reading threads (simplified ABDADA; see ``reading.Reader``) and of
    the player's search threads (one shared tree; see ``play.player``),
    each at most the cores.
    """

    check_hashing: bool = False
    level: int = 10
    cache_mb: float | None = None
    hash: str = "double"
    hash_bits: int = 64
    threads: int = 1


DEFAULT_CACHE_MB = 8.0
SCORE_SECONDS = 4.0  # time cap of the playouts behind final_score
PONDER_SECONDS = 600.0  # the longest ponder (``Engine.ponder``)


def _player_switch(name: str, what: str) -> property:
    """An on/off setting the session keeps in ``_NAME`` and passes on to
    its player's attribute ``NAME`` (``player.Player``), now if the player
    exists, else when it is made."""
    attr = "_" + name

    def get(self) -> bool:
        return getattr(self, attr)

    def put(self, on: bool) -> None:
        setattr(self, attr, bool(on))
        if self._player is not None:
            setattr(self._player, name, bool(on))

    return property(get, put, doc=f"Whether the player uses {what} (``player.Player.{name}``).")


class Engine:
    """A session: the position and what survives it."""

    def __init__(self, size=19, komi=0.0, settings=None, reader=None, **kw):
        self.settings = settings or Settings(**kw)
        self.komi = float(komi)
        self.rules = "chinese"  # final_score's counting: options.RULES
        self._patterns = True  # the player's 3x3 patterns (``patterns``)
        self._widening = False  # the player's progressive widening (``widening``)
        self.dynamic_komi = True  # in handicap games (``extra_komi``)
        self.situational_komi = False  # the bar in even games (``extra_komi``)
        self._bar = _no_bars()  # points each side's search asks of itself
        self.pondering = False  # think on the opponent's time (``ponder``)
        # None, or whether the reader's kernels are ready: until then genmove
        # plays without them rather than wait for their compile (gogame gtp)
        self.reader_ready: Callable[[], bool] | None = None
        self._reader = reader
        self.position = self._new_position(size)
        self.to_move = BLACK
        self.handicap = 0
        self.result = None
        self.autosave = None
        self.clock = Clock()
        self._player = None
        self._keys: list[tuple[int, int]] = []  # board_key after each history event
        self._keys_of: Position | None = None  # the position they belong to
        self._boards: set[tuple[int, int]] = set()
        self.seen_boards()

    # ----------------------------------------------------------- settings
    patterns = _player_switch("patterns", "its 3x3 patterns")
    widening = _player_switch("widening", "progressive widening")

    def _new_position(self, size):
        return Position(size, check_hashing=self.settings.check_hashing)

    @property
    def check_hashing(self) -> bool:
        return self.settings.check_hashing

    @check_hashing.setter
    def check_hashing(self, on: bool) -> None:
        self.settings.check_hashing = bool(on)
        self.position.check_hashing = bool(on)

    @property
    def reader(self) -> Reader:
        """The ``Reader`` (created on first use, so that start-up stays light)."""
        if self._reader is None:
            from ..core.reader import Reader
            from ..core.reading_cache import ReadingCache

            s = self.settings
            cache = ReadingCache(
                DEFAULT_CACHE_MB if s.cache_mb is None else s.cache_mb,
                s.hash,
                s.hash_bits,
                self.size,
            )
            threads = options.searchers(s.threads)  # never more than the cores
            self._reader = Reader(level=s.level, cache=cache, threads=threads)
        return self._reader

    def new_reader(self) -> Reader:
        """Drop the reader (and its cache) and make one from the settings."""
        self._reader = None
        return self.reader

    @property
    def size(self) -> int:
        return self.position.size

    @property
    def hash(self) -> tuple[int, int]:
        return self.position.hash

    # -------------------------------------------------------------- board
    def boardsize(self, n: int) -> None:
        """A new empty board of ``n`` x ``n``; ValueError outside 2..25."""
        if isinstance(n, bool) or not isinstance(n, int):
            raise ValueError("unacceptable size")
        try:
            coords.check_size(n)
        except ValueError:
            raise ValueError("unacceptable size") from None
        self.position = self._new_position(n)
        self._new_game()

    def clear_board(self) -> None:
        self.position = self._new_position(self.size)
        self._new_game()

    def _new_game(self):
        self.to_move = BLACK
        self.handicap = 0
        self._bar = _no_bars()
        self.changed()

    def changed(self) -> None:
        """The game changed: forget the result, bring the superko set up to
        date, rewrite the autosave file."""
        self.result = None
        if not self.position.stackp:
            self._follow_history()
        self.save()

    def _follow_history(self) -> None:
        """Keep the board keys in step with one new history event (append)
        or an undo (truncate); after anything else (a loadsgf, a new
        position) forget them: ``seen_boards`` replays the history when it
        is next asked, so a loadsgf costs no replay."""
        pos = self.position
        n = len(pos.history) + 1
        keys = self._keys
        if self._keys_of is pos and len(keys) == n - 1:
            keys.append(pos.board_key)
            self._boards.add(keys[-1])
        elif self._keys_of is pos and len(keys) > n:
            del keys[n:]
            self._boards = set(keys)
        elif self._keys_of is pos and len(keys) == n:
            return
        else:
            self._keys_of = None

    def seen_boards(self) -> set[tuple[int, int]]:
        """The ``board_key`` of every board the game has had, the current one
        included (positional superko), kept by ``changed`` or replayed from
        the history (``Position.board_keys``) when they are out of step with it.
        Inside a trymove it answers the set as it was."""
        pos = self.position
        if pos.stackp and self._keys_of is pos:
            return self._boards
        n = len(pos.history) + 1
        keys = self._keys
        if self._keys_of is not pos or len(keys) != n or keys[-1] != pos.board_key:
            self._keys = pos.board_keys()
            self._keys_of = pos
            self._boards = set(self._keys)
        return self._boards

    def superko_ok(self, color: Color, pt: Vertex, boards: set | None = None) -> bool:
        """Whether ``color`` may play ``pt`` under positional superko: a
        pass always; a point when it is legal and its board (after captures)
        is not in ``boards`` (default: ``seen_boards()``).  Depth 0 only."""
        if pt is None:
            return True
        pos = self.position
        if boards is None:
            boards = self.seen_boards()
        if not pos.trymove(pt, parse_color(color)):
            return False
        try:
            return pos.board_key not in boards
        finally:
            pos.popgo()

    def save(self) -> None:
        if self.autosave:
            self.printsgf(self.autosave)

    def clear(self) -> None:
        """pygtp's game-object protocol (``gtp.Engine`` calls it)."""
        self.clear_board()

    def play(self, color: Color, pt: Vertex) -> None:
        """A real move; IllegalMoveError (nothing changed) if not legal."""
        color = parse_color(color)
        pos = self.position
        try:
            pos.play(pt, color)
        except HashMismatchError:
            # the move was played and the words disagree: take it back
            pos.check_hashing = False
            pos.undo()
            pos.resync_hash()
            pos.check_hashing = True
            raise
        self.to_move = other(color)
        self.changed()

    def play_sequence(self, moves: Iterable[tuple[Color, Vertex]]) -> None:
        """Play (color, pt) pairs, all or nothing: IllegalMoveError (with
        ``.index``) and the moves of the batch taken back."""
        played = 0
        try:
            for color, pt in moves:
                self.play(color, pt)
                played += 1
        except IllegalMoveError as e:
            e.index = played
            if played:
                self.undo_many(played)
            raise

    def undoable(self) -> int:
        """How many real moves ``undo`` can take back (not setup stones)."""
        n = 0
        for event in reversed(self.position.history):
            if event[0] == "move":
                n += 1
            elif event[0] == "setup":
                break
        return n

    def undo_many(self, n: int) -> None:
        """Take back ``n`` moves, all or nothing (CannotUndoError)."""
        if n < 0 or n > self.undoable() or self.position.stackp:
            raise CannotUndoError("cannot undo")
        for _ in range(n):
            self.undo()

    def undo(self) -> None:
        """Take back the last real move; CannotUndoError if there is none."""
        pos = self.position
        moves = pos.moves()
        try:
            pos.undo()
        except HashMismatchError:
            pos.resync_hash()  # the move is taken back; the report goes up
            self.to_move = moves[-1][1]
            raise
        self.to_move = moves[-1][1]
        self.changed()

    def last_move(self) -> tuple[Point | None, int] | None:
        """(pt or None, color) of the last real move, or None."""
        moves = self.position.moves()
        if not moves:
            return None
        pos, color = moves[-1]
        return self.position.pt(pos), color

    # ----------------------------------------------------------- handicap
    def board_empty(self) -> bool:
        return not self.position.stones() and not self.position.moves()

    def set_free_handicap(self, points: Iterable[Point]) -> list[Point]:
        """Black stones on ``points`` of an empty board; white to move.
        ValueError('board not empty' / 'bad vertex list')."""
        if not self.board_empty():
            raise ValueError("board not empty")
        pts = list(points)
        if (
            len(pts) < 2
            or len(set(pts)) != len(pts)
            or None in pts
            or len(pts) >= self.size * self.size
        ):
            raise ValueError("bad vertex list")
        self.position.setup({pt: BLACK for pt in pts})
        self.handicap = len(pts)
        self.to_move = WHITE
        self.changed()
        return pts

    def fixed_handicap(self, n: int) -> list[Point]:
        """GTP's fixed placement (ValueError 'invalid number of stones')."""
        pts = fixed_handicap_points(self.size, n)
        if not self.board_empty():
            raise ValueError("board not empty")
        return self.set_free_handicap(pts)

    def place_free_handicap(self, n: int) -> list[Point]:
        """The engine's choice: the fixed points first, then further star-like
        points spread over the board."""
        if not self.board_empty():
            raise ValueError("board not empty")
        if n < 2 or n >= self.size * self.size:
            raise ValueError("invalid number of stones")
        pts = []
        for k in range(min(n, 9), 1, -1):
            try:
                pts = fixed_handicap_points(self.size, k)
                break
            except ValueError:
                continue
        rest = sorted(
            (p for p in board_points(self.size) if p not in pts),
            key=lambda p: _spread_key(p, self.size, pts),
        )
        pts = pts + rest[: n - len(pts)]
        return self.set_free_handicap(pts)

    # ------------------------------------------------------------- genmove
    @property
    def player(self) -> Player:
        """The Monte-Carlo player (numba kernel loaded on first use), with
        as many search threads as the settings' reading threads."""
        threads = options.searchers(self.settings.threads)
        if self._player is None:
            from .player import Player

            self._player = Player(patterns=self._patterns, threads=threads, widening=self._widening)
        self._player.threads = threads
        return self._player

    def genmove(
        self,
        color: Color,
        should_stop: Callable[[], bool] | None = None,
        cleanup: bool = False,
        commit: bool = True,
        seconds: float | None = None,
        progress: Callable[[Any], object] | None = None,
        progress_every: float | None = None,
    ) -> Decision:
        """Decide a move for ``color`` (``player.Decision``) and, with
        ``commit``, play it (a resignation sets ``result``); ``progress``
        gets the search's state every ``progress_every`` seconds."""
        color = parse_color(color)
        start = time.perf_counter()
        budget = seconds
        if budget is None:
            budget = self.clock.budget(color, self._empty_points(), self.size * self.size)
        last = self.last_move()
        boards = self.seen_boards()
        decision = self.player.genmove(
            self.position,
            color,
            self.komi,
            budget,
            reader=self.reader if self.reader_ready is None or self.reader_ready() else None,
            should_stop=should_stop,
            cleanup=cleanup,
            opponent_passed=last is not None and last[0] is None and last[1] != color,
            last=last[0] if last else None,
            forbid=lambda pt: not self.superko_ok(color, pt, boards),
            progress=progress,
            progress_every=progress_every,
            extra_komi=self.extra_komi(color),
        )
        self._move_bar(color, decision)
        decision = self.superko_checked(decision, color, boards)
        if commit:
            self.clock.spend(color, time.perf_counter() - start, budget)
            if decision.move == "resign":
                self.result = "W+R" if color == BLACK else "B+R"
                self.save()
            else:
                self.play(color, decision.move)
        return decision

    def ponder(self, should_stop: Callable[[], bool], seconds: float = PONDER_SECONDS) -> int:
        """Search the position for the side to move until ``should_stop()``
        or ``seconds``, so that the next genmove, after the opponent's
        move, starts from that move's subtree (the player's kept tree).
        Nothing when the game is over or inside trymove.  Returns the
        playouts run; the position is unchanged."""
        from .player import any_move

        if self.position.stackp or self.result or self.game_over():
            return 0
        if not any_move(self.position, self.to_move):
            return 0
        last = self.last_move()
        res = self.player.search(
            self.position,
            self.to_move,
            self.komi + self.extra_komi(other(self.to_move)),  # our next search's komi
            last[0] if last else None,
            seconds=seconds,
            should_stop=should_stop,
            decide=False,
        )
        return res.playouts

    def extra_komi(self, color: Color) -> float:
        """What ``color``'s search adds to the komi: in a handicap game the
        linear dynamic komi (``dynamic_komi`` on; ``player.dynamic_komi``);
        in an even game on 13x13 and up, with ``situational_komi`` on, the
        bar ``color`` sets itself (``player.raise_bar``: more komi for
        White when Black searches, less when White does); else 0."""
        if self.handicap >= 2:
            if not self.dynamic_komi:
                return 0.0
            from .player import dynamic_komi

            return dynamic_komi(self.size, self.handicap, len(self.position.moves()))
        if not self._bars_apply():
            return 0.0
        color = parse_color(color)
        return self._bar[color] if color == BLACK else -self._bar[color]

    def _bars_apply(self) -> bool:
        """Whether the situational bars are in force: ``situational_komi``
        on, an even game, 13x13 and up."""
        return self.situational_komi and self.handicap < 2 and self.size >= 13

    def _move_bar(self, color: int, decision: Decision) -> None:
        """After ``color``'s search: its bar for the next one."""
        res = decision.result
        if not self._bars_apply() or res is None:
            return
        from .player import raise_bar

        self._bar[color] = raise_bar(self._bar[color], res.winrate, self.size)

    def superko_checked(
        self, decision: Decision, color: int, boards: set | None = None
    ) -> Decision:
        """``decision``, or, when its move would repeat a board, the first
        move of its search result (most visited first) that does not, else
        a pass."""
        move = decision.move
        if move == "resign" or self.superko_ok(color, move, boards):
            return decision
        name = coords.format_gtp(move)
        res = decision.result
        for m in res.moves if res is not None else ():
            if m.move is not None and self.superko_ok(color, m.move, boards):
                why = f"positional superko: {name} repeats a board; next best"
                return dataclasses.replace(decision, move=m.move, reason=why)
        why = f"positional superko: {name} repeats a board; no other move"
        return dataclasses.replace(decision, move=None, reason=why)

    def _empty_points(self):
        return self.size * self.size - len(self.position.stones())

    # ------------------------------------------------------------- scoring
    def ownership(self, playouts: int | None = None) -> Ownership:
        """``scoring.Ownership`` of the current position from plain playouts."""
        from .scoring import Ownership, score_playouts

        n = playouts or score_playouts(self.size)
        black, white = self.player.ownership(
            self.position, self.to_move, self.komi, n, seconds=None if playouts else SCORE_SECONDS
        )
        return Ownership(self.position, black, white)

    def game_over(self) -> bool:
        """Whether the last two real moves were passes."""
        moves = self.position.moves()[-2:]
        return len(moves) == 2 and all(self.position.pt(pos) is None for pos, _ in moves)

    def final_score(self, playouts: int | None = None) -> str:
        """GTP final_score text (``B+3.5``).  Kept as ``result`` (the SGF's
        ``RE``) only once the game is over: a score asked in mid-game is an
        estimate, not the game's result."""
        from .scoring import format_score

        text = format_score(self.ownership(playouts).score(self.rules, self.komi))
        if self.game_over():
            self.result = text
            self.save()
        return text

    def final_status_list(self, status: str, playouts: int | None = None) -> list[list[Point]]:
        """Strings (lists of points) whose status is alive, dead or seki."""
        if status not in ("alive", "dead", "seki"):
            raise ValueError(f"unknown status {status!r}")
        return self.ownership(playouts).status_list(status)

    # ---------------------------------------------------------------- sgf
    def game_sgf(self) -> bytes:
        from .record import game_sgf

        return game_sgf(self.position, self.komi, self.handicap, self.result, self.to_move)

    def printsgf(self, path: str | os.PathLike | None = None) -> bytes:
        """The game as SGF bytes; with ``path``, written there atomically."""
        data = self.game_sgf()
        if path:
            from .record import write_atomic

            write_atomic(path, data)
        return data

    # ------------------------------------------------------------ loadsgf
    def loadsgf(self, path: str | os.PathLike, until: int | Vertex = None) -> int:
        """Load the main line of ``path``; return the colour to move.

        ``until``: None, a move number N >= 1 (the position before move N),
        a (row, col) point or GTP vertex string (stop before the first move
        there; ``'pass'`` stops before the first pass).  All or nothing:
        the new Position is built completely before it replaces the old one.
        """
        try:
            game = load_game(path)
            position = self._new_position(game.size)
            to_move = apply_game(game, position, until)
        except SgfError as e:
            raise LoadError(f"cannot load file: {e}") from None
        except (ValueError, OSError) as e:
            raise LoadError(f"cannot load file: {path}: {e}") from None
        self.position = position
        self.to_move = to_move
        self.handicap = game.handicap if game.handicap > 1 else 0
        self._bar = _no_bars()
        if game.komi is not None:
            self.komi = game.komi
        self.changed()
        return to_move

    # ------------------------------------------------------- trymove etc.
    def trymove(self, color: Color, pt: Vertex) -> bool:
        ok = self.position.trymove(pt, parse_color(color))
        if ok:
            self._count_trymove()
        return ok

    def tryko(self, color: Color, pt: Vertex) -> bool:
        ok = self.position.tryko(pt, parse_color(color))
        if ok:
            self._count_trymove()
        return ok

    def _count_trymove(self):
        # GNU Go counts the trymoves made from GTP too
        reader = self.reader
        reader.trymoves += 1

    def popgo(self) -> None:
        """Undo the last trymove/tryko; IndexError when there is none."""
        self.position.popgo()

    # ------------------------------------------------------------ reading
    def _string(self, pt):
        if self.position.color_at(pt) == EMPTY:
            raise ValueError(f"no stone at {pt!r}")
        return pt

    def attack(self, pt: Vertex) -> Answer:
        """(code, move or None): can the string at ``pt`` be captured?"""
        return self.reader.attack(self.position, self._string(pt))

    def find_defense(self, pt: Vertex) -> Answer:
        """(code, move or None): can the string at ``pt`` be saved?"""
        return self.reader.find_defense(self.position, self._string(pt))

    def examine_strings(self, stones: list[Vertex]) -> list[tuple[Answer, Answer | None]]:
        """For each string (a stone of it): its ``attack``, and its
        ``find_defense`` when the attack succeeds, else None; with reading
        threads, the strings are read on all of them (``Reader.examine_strings``)."""
        return self.reader.examine_strings(self.position, [self._string(pt) for pt in stones])

    def ladder_attack(self, pt: Vertex) -> Answer:
        return self.reader.ladder_attack(self.position, self._string(pt))

    def does_attack(self, pt: Vertex, move: Vertex) -> int:
        """Code: does the attacker's ``move`` capture the string at ``pt``?"""
        return self.reader.does_attack(self.position, self._string(pt), move)

    def does_defend(self, pt: Vertex, move: Vertex) -> int:
        return self.reader.does_defend(self.position, self._string(pt), move)

    def increase_depths(self) -> None:
        self.reader.depth_offset += 1

    def decrease_depths(self) -> None:
        self.reader.depth_offset -= 1

    # ------------------------------------------------------------ queries
    def color_at(self, pt: Vertex) -> int:
        return self.position.color_at(pt)

    def is_legal(self, color: Color, pt: Vertex) -> bool:
        return self.position.is_legal(pt, parse_color(color))

    def all_legal(self, color: Color) -> list[Point]:
        """Legal moves (not pass) in GNU Go's order: top row first."""
        color = parse_color(color)
        pos = self.position
        return [
            pt
            for pt in board_points(self.size)
            if pos.color_at(pt) == EMPTY and pos.is_legal(pt, color)
        ]

    def countlib(self, pt: Vertex) -> int:
        return self.position.countlib(pt)

    def findlib(self, pt: Vertex) -> list[Point]:
        return sort_points(self.position.findlib(pt))

    def worm_stones(self, pt: Vertex = None, color: Color | None = None) -> list[list[Point]]:
        """The strings (each a list of points, GNU Go's order): the one at
        ``pt``, or all of ``color``, or all."""
        pos = self.position
        if pt is not None:
            return [sort_points(pos.string_stones(pt))]
        want = None if color is None else parse_color(color)
        seen, out = set(), []
        for p in board_points(self.size):
            c = pos.color_at(p)
            if c == EMPTY or p in seen or (want is not None and c != want):
                continue
            stones = sort_points(pos.string_stones(p))
            seen.update(stones)
            out.append(stones)
        return out

    def showboard(self) -> str:
        """The board as GNU Go's ``showboard`` draws it (no leading newline)."""
        return board_text(self.position)


# ---------------------------------------------------------------- helpers
# a game with setup stones and a capture (``warm_up_loading``)
WARM_SGF = b"(;SZ[5]AB[ee]AW[dd];B[aa];W[ba];B[cc];W[ab])"


def warm_up_loading() -> None:
    """Compile (or load) the kernels behind ``loadsgf``, ``play`` and
    ``undo``: a small game loaded into a scratch position, a move played
    and undone.  Nothing is kept."""
    position = Position(5)
    apply_game(parse_game(WARM_SGF), position)
    position.play("E5", "w")
    position.undo()


def board_points(size: int) -> list[Point]:
    """All points in GNU Go's order: top row first, left to right."""
    return [(row, col) for row in range(size - 1, -1, -1) for col in range(size)]


def fixed_handicap_points(size: int, n: int) -> list[Point]:
    """GTP's fixed handicap vertices for ``n`` stones (ValueError
    'invalid number of stones' where the spec gives none): 3-3 points below
    13x13, 4-4 from there; middle points only on odd boards."""
    if size < 7 or not 2 <= n <= (9 if size % 2 else 4) or (size == 7 and n > 4):
        raise ValueError("invalid number of stones")
    d = 2 if size < 13 else 3
    lo, hi, mid = d, size - 1 - d, size // 2
    corners = [(lo, lo), (hi, hi), (hi, lo), (lo, hi)]  # D4 Q16 D16 Q4 on 19x19
    pts = corners[: min(n, 4)]
    if n == 5 or n == 7 or n == 9:
        extra = {5: [], 7: [(mid, lo), (mid, hi)], 9: [(mid, lo), (mid, hi), (lo, mid), (hi, mid)]}[
            n
        ]
        pts = corners + extra + [(mid, mid)]
    elif n in (6, 8):
        pts = corners + [(mid, lo), (mid, hi)] + ([(lo, mid), (hi, mid)] if n == 8 else [])
    return pts


def _spread_key(pt, size, taken):
    """Free handicap beyond the fixed points: far from stones placed, then
    near the 3-4 lines."""
    row, col = pt
    near = min((abs(row - r) + abs(col - c) for r, c in taken), default=size)
    line = min(row, col, size - 1 - row, size - 1 - col)
    return (-near, abs(line - (2 if size < 13 else 3)), row, col)


def sort_points(points: Iterable[Point]) -> list[Point]:
    """GNU Go's order for vertex lists: top row first, then left to right."""
    return sorted(points, key=lambda p: (-p[0], p[1]))


def is_hoshi(size: int, row: int, col: int) -> bool:
    """GNU Go's star points (``is_hoshi_point``), with row 0 at the bottom."""
    m, n = size - 1 - row, col
    if size in (2, 4):
        return False
    if size == 3:
        return m == 1 and n == 1
    if size == 5:
        return (m, n) in ((1, 1), (1, 3), (2, 2), (3, 1), (3, 3))
    hoshi = 2 if size <= 11 else 3
    middle = size // 2
    if m >= middle:  # mirror into the lower corner
        m = size - 1 - m
    if n >= middle:
        n = size - 1 - n
    if m == hoshi and n == hoshi:
        return True
    if size % 2 == 0:
        return False
    if size < 12:
        return m == middle and n == middle
    return m in (hoshi, middle) and n in (hoshi, middle)


def board_text(position: Position) -> str:
    """GNU Go 3.8's ``showboard`` picture: X black, O white, + star points,
    the captures beside the two rows GNU Go puts them on."""
    size = position.size
    head = "  " + "".join(" " + c for c in coords.GTP_COLUMNS[:size])
    lines = [head]
    white_row = size - 2 if size < 10 else 8  # counted from the top
    black_row = size - 1 if size < 10 else 9
    for i in range(size):
        row = size - 1 - i
        cells = []
        for col in range(size):
            c = position.color_at((row, col))
            if c == EMPTY:
                cells.append("+" if is_hoshi(size, row, col) else ".")
            else:
                cells.append("X" if c == BLACK else "O")
        line = f"{row + 1:2d} " + " ".join(cells) + f" {row + 1}"
        if i == white_row:
            line += f"     WHITE (O) has captured {position.captures(BLACK)} stones"
        if i == black_row:
            line += f"     BLACK (X) has captured {position.captures(WHITE)} stones"
        lines.append(line)
    lines.append(head)
    return "\n".join(lines)
