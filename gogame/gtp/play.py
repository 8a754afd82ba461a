"""GTP commands for playing games, mixed into ``GtpEngine`` (gtp/engine.py).

genmove, reg_genmove, kgs-genmove_cleanup, fixed_handicap,
place_free_handicap, set_free_handicap, time_settings, time_left,
kgs-time_settings, final_score, final_status_list, printsgf, gg-undo,
gogui-play_sequence, gogui-interrupt and lz-analyze.  Errors use the GTP
spec's wording (``syntax error``, ``illegal move``, ``invalid number of
stones``, ``board not empty``, ``bad vertex list``, ``cannot undo``,
``cannot score``) and leave the game as it was.

A search stops early when ``self.input`` (the stdin reader of
``gtp.serve``, on a thread of its own from the search's first poll) has
seen GoGui's ``# interrupt`` line (genmove) or any command line
(lz-analyze).  ``lz-analyze`` streams: a ``=`` line, then one
``info move ... visits ... winrate ... order ... pv ...`` line per interval
(win rates 0..10000 for the colour analysed, from real playouts), and a
blank line once input arrives (or, with no input thread, after a short
fixed time).  ``kata-analyze`` streams the same in KataGo's format (win
rates 0..1) and, with ``ownership true``, the playouts' ownership of every
point for the colour analysed, from the top-left, on each line.
``lz-genmove_analyze`` / ``kata-genmove_analyze`` are genmove with those
lines while the search runs, ending with ``play VERTEX``; input does not
stop them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from ..core.coords import format_vertices
from ..kernel.points import BLACK
from .protocol import GtpError

if TYPE_CHECKING:
    from ..play.player import SearchResult

_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)\Z")
_UINT = re.compile(r"[0-9]+\Z")
ANALYZE_WITHOUT_INPUT = 0.5  # seconds lz-analyze runs when nothing can stop it


def _seconds(text):
    if text is None or not _NUMBER.match(text):
        raise GtpError("syntax error")
    value = float(text)
    if not math.isfinite(value) or value < 0:
        raise GtpError("syntax error")
    return value


def _count(text):
    if text is None or not _UINT.match(text) or len(text) > 9:
        raise GtpError("syntax error")
    return int(text)


class PlayCommands:
    """Handlers; ``self`` is a ``gtp.GtpEngine``."""

    input = None  # gtp.InputReader while serving stdin
    out = None  # write(bytes) for streamed responses

    def _interrupted(self):
        return self.input is not None and self.input.interrupted()

    def _input_waiting(self):
        return self.input is not None and self.input.waiting()

    # ------------------------------------------------------------ genmove
    def _genmove(self, args, cleanup=False, commit=True):
        if len(args) != 1:
            raise GtpError("syntax error")
        color = self.parse_color(args[0], error="syntax error")
        return self._decide(color, cleanup=cleanup, commit=commit)

    def _decide(self, color, **kw) -> str:
        """The session's genmove for ``color`` (stopped by GoGui's interrupt
        only), logged; -> the vertex, ``PASS`` or ``resign``."""
        from ..core.coords import format_gtp

        session = self.session
        if session.position.stackp:
            raise GtpError("cannot generate a move inside trymove")
        decision = session.genmove(color, should_stop=self._interrupted, **kw)
        self._log_decision(decision)
        self._ponder_next = kw.get("commit", True) and decision.move != "resign"
        return "resign" if decision.move == "resign" else format_gtp(decision.move)

    _ponder_next = False  # a genmove played: ponder before the next command

    def idle(self) -> None:
        """Called by ``serve`` before it waits for a command: right after a
        genmove that played, with pondering on, search the position for the
        opponent until a command waits (``Engine.ponder``)."""
        if not self._ponder_next:
            return
        self._ponder_next = False
        if self.input is not None and self.session.pondering:
            n = self.session.ponder(self._input_waiting)
            self.log(f"gogame: pondered {n} playouts")

    def _log_decision(self, decision):
        res = decision.result
        if res is None:
            self.log(f"gogame: {decision.reason}")
            return
        self.log(
            f"gogame: {decision.reason}: {res.playouts} playouts in "
            f"{res.seconds:.2f} s, win rate {res.winrate:.3f}"
        )

    def cmd_genmove(self, args: list[str]) -> str:
        return self._genmove(args)

    def cmd_reg_genmove(self, args: list[str]) -> str:
        return self._genmove(args, commit=False)

    def cmd_kgs_genmove_cleanup(self, args: list[str]) -> str:
        return self._genmove(args, cleanup=True)

    # ------------------------------------------------------------ moves
    def cmd_gg_undo(self, args: list[str]) -> str:
        from ..core.position import CannotUndoError

        if len(args) > 1:
            raise GtpError("syntax error")
        n = _count(args[0]) if args else 1
        try:
            self.session.undo_many(n)
        except CannotUndoError:
            raise GtpError("cannot undo") from None
        return ""

    def cmd_gogui_play_sequence(self, args: list[str]) -> str:
        from ..core.position import IllegalMoveError

        if not args or len(args) % 2:
            raise GtpError("syntax error")
        moves = [
            self.parse_move(args[k : k + 2], error="syntax error") for k in range(0, len(args), 2)
        ]
        try:
            self.session.play_sequence(moves)
        except IllegalMoveError:
            raise GtpError("illegal move") from None
        return ""

    def cmd_gogui_interrupt(self, args: list[str]) -> str:
        return ""

    # ----------------------------------------------------------- handicap
    def _handicap(self, method, args):
        from ..play.session import sort_points

        if len(args) != 1 or not _UINT.match(args[0]):
            raise GtpError("syntax error")
        n = int(args[0]) if len(args[0]) <= 9 else 10**9
        try:
            pts = method(n)
        except ValueError as e:
            raise GtpError(str(e)) from None
        return format_vertices(sort_points(pts))

    def cmd_fixed_handicap(self, args: list[str]) -> str:
        return self._handicap(self.session.fixed_handicap, args)

    def cmd_place_free_handicap(self, args: list[str]) -> str:
        return self._handicap(self.session.place_free_handicap, args)

    def cmd_set_free_handicap(self, args: list[str]) -> str:
        pts = []
        for text in args:
            try:
                pts.append(self.parse_vertex(text, allow_pass=True, error="bad vertex list"))
            except Exception:
                raise GtpError("bad vertex list") from None
        try:
            self.session.set_free_handicap(pts)
        except ValueError as e:
            raise GtpError(str(e)) from None
        return ""

    # --------------------------------------------------------------- time
    def cmd_time_settings(self, args: list[str]) -> str:
        if len(args) != 3:
            raise GtpError("syntax error")
        main, byo = _seconds(args[0]), _seconds(args[1])
        stones = _count(args[2])
        self.session.clock.set_canadian(main, byo, stones)
        return ""

    def cmd_time_left(self, args: list[str]) -> str:
        if len(args) != 3:
            raise GtpError("syntax error")
        color = self.parse_color(args[0], error="syntax error")
        self.session.clock.time_left(color, _seconds(args[1]), _count(args[2]))
        return ""

    def cmd_kgs_time_settings(self, args: list[str]) -> str:
        clock = self.session.clock
        kind = args[0].lower() if args else ""
        need = {"none": 0, "absolute": 1, "canadian": 3, "byoyomi": 3}
        if kind not in need or len(args) != 1 + need[kind]:
            raise GtpError("syntax error")
        if kind == "none":
            clock.set_none()
        elif kind == "absolute":
            clock.set_absolute(_seconds(args[1]))
        elif kind == "canadian":
            main, byo, stones = _seconds(args[1]), _seconds(args[2]), _count(args[3])
            if byo > 0 and stones == 0:
                raise GtpError("syntax error")
            clock.set_canadian(main, byo, stones)
        else:
            clock.set_byoyomi(_seconds(args[1]), _seconds(args[2]), _count(args[3]))
        return ""

    # ------------------------------------------------------------ scoring
    def cmd_kgs_rules(self, args: list[str]) -> str:
        """KGS's rules: japanese counts territory; chinese, aga and
        new_zealand count area (``options.RULES``)."""
        if len(args) != 1:
            raise GtpError("syntax error")
        name = args[0].lower()
        counting = {"japanese": "japanese", "chinese": "chinese", "aga": "chinese"}
        counting["new_zealand"] = "chinese"
        if name not in counting:
            raise GtpError("unknown rules")
        self.session.rules = counting[name]
        return ""

    def cmd_final_score(self, args: list[str]) -> str:
        if self.session.position.stackp:
            raise GtpError("cannot score")
        return self.session.final_score()

    def cmd_final_status_list(self, args: list[str]) -> str:
        if len(args) != 1 or args[0].lower() not in ("alive", "dead", "seki"):
            raise GtpError("syntax error")
        if self.session.position.stackp:
            raise GtpError("cannot score")
        strings = self.session.final_status_list(args[0].lower())
        return "\n".join(format_vertices(s) for s in strings)

    # ---------------------------------------------------------------- sgf
    def cmd_printsgf(self, args: list[str]) -> str:
        if len(args) > 1:
            raise GtpError("syntax error")
        if not args:
            return self.session.printsgf().decode("utf-8").strip()
        try:
            self.session.printsgf(args[0])
        except OSError as e:
            self.log(f"gogame: printsgf {args[0]}: {e}")
            raise GtpError("cannot write file") from None
        return ""

    # ------------------------------------------------------------ analysis
    def stream_lz_analyze(self, args: list[str], emit: Callable[[str], None]) -> str:
        """lz-analyze [color] [interval] [minmoves N]: ``emit`` each info line."""
        color, interval, _ = _analyze_args(self, args)
        return self._analyze(color, interval, emit, info_line)

    def stream_kata_analyze(self, args: list[str], emit: Callable[[str], None]) -> str:
        """kata-analyze [color] [interval] [minmoves N] [ownership true|false]:
        KataGo's format (win rates 0..1), with the ownership of every point
        for the colour analysed when asked."""
        color, interval, ownership = _analyze_args(self, args)
        position = self.session.position

        def line(result: SearchResult) -> str:
            text = info_line(result, floats=True)
            if text and ownership:
                text += " " + ownership_text(position, result, color)
            return text

        return self._analyze(color, interval, emit, line)

    def stream_lz_genmove_analyze(self, args: list[str], emit: Callable[[str], None]) -> str:
        """lz-genmove_analyze [color] [interval] ...: genmove, with lz-analyze's
        lines while it searches, then ``play VERTEX`` (or pass, resign)."""
        return self._genmove_analyze(args, emit, False)

    def stream_kata_genmove_analyze(self, args: list[str], emit: Callable[[str], None]) -> str:
        """kata-genmove_analyze: the same with kata-analyze's lines."""
        return self._genmove_analyze(args, emit, True)

    def _genmove_analyze(self, args, emit, floats) -> str:
        """A genmove that input does not stop (only GoGui's interrupt does),
        emitting ``info_line`` every interval, then ``play VERTEX``."""
        color, interval, _ = _analyze_args(self, args)
        show = _emitter(emit, lambda result: info_line(result, floats=floats))
        move = self._decide(color, progress=show, progress_every=interval)
        emit(f"play {move.lower()}")
        return ""

    def _analyze(self, color, interval, emit, format_line) -> str:
        """Search until input arrives, emitting ``format_line(result)`` every
        ``interval`` seconds and once at the end."""
        session = self.session
        if session.position.stackp:
            raise GtpError("cannot analyze inside trymove")
        last = session.last_move()
        seconds = 1e9 if self.input is not None else ANALYZE_WITHOUT_INPUT
        player = session.player
        show = _emitter(emit, format_line)
        res = player.search(
            session.position,
            color,
            session.komi,
            last[0] if last else None,
            seconds=seconds,
            should_stop=self._input_waiting,
            max_playouts=None,
            progress=show,
            progress_every=interval,
            decide=False,
        )
        show(res)
        return ""


def _analyze_args(engine, args):
    """-> (colour, interval seconds, ownership wanted) from the arguments of
    lz-analyze / kata-analyze."""
    color = engine.session.to_move
    interval, ownership = 1.0, False
    rest = list(args)
    if rest and rest[0].lower() in ("b", "w", "black", "white"):
        color = engine.parse_color(rest.pop(0), error="syntax error")
    if rest and _UINT.match(rest[0]):
        interval = _count(rest.pop(0)) / 100.0
    while rest:
        key = rest.pop(0).lower()
        if key in ("interval", "minmoves") and rest:
            value = _count(rest.pop(0))
            if key == "interval":
                interval = value / 100.0
        elif key == "ownership" and rest and rest[0].lower() in ("true", "false"):
            ownership = rest.pop(0).lower() == "true"
        else:
            raise GtpError("syntax error")
    return color, max(0.05, interval), ownership


def ownership_text(position, result: SearchResult, color: int) -> str:
    """``ownership`` and one float in [-1, 1] a point, from the top-left
    (A19 on 19x19) row by row: the share of playouts ``color`` owned it
    minus the share the other colour did."""
    mine, theirs = (result.own_black, result.own_white)[:: 1 if color == BLACK else -1]
    values = []
    for row in range(position.size - 1, -1, -1):
        for col in range(position.size):
            p = position.pos((row, col))
            values.append(f"{float(mine[p] - theirs[p]):.3f}")
    return "ownership " + " ".join(values)


def info_line(result: SearchResult, most: int = 10, floats: bool = False) -> str:
    """The analysis line of Leela Zero (win rates as integers 0..10000) or,
    with ``floats``, of KataGo (floats 0..1): every candidate on one line,
    for the colour to move.  No score or prior fields: the playouts
    estimate neither per move."""
    from ..core.coords import format_gtp

    parts = []
    for order, m in enumerate(result.moves[:most]):
        winrate = f"{m.winrate:.6f}" if floats else str(int(round(m.winrate * 10000)))
        parts.append(
            f"info move {format_gtp(m.move)} visits {m.visits} winrate {winrate} "
            f"order {order} pv {format_vertices(m.pv)}"
        )
    return " ".join(parts)


def _emitter(emit, format_line):
    """A search's ``progress``: emit ``format_line(result)`` unless empty."""

    def show(result: SearchResult) -> None:
        line = format_line(result)
        if line:
            emit(line)

    return show
