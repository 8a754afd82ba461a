"""GTP v2 front-end: ``gogame gtp`` speaks the Go Text Protocol on stdin/stdout.

``GtpEngine`` subclasses pygtp's ``gtp.Engine`` (its ``send(line) -> response``
interface, ``known_commands``, ``disconnect`` and ``cmd_*`` handlers) and
fixes what pygtp gets wrong for real clients:

* preprocessing as GTP v2 §3.1 says: control characters other than HT and LF
  are dropped (CR too), the line is cut at ``#``, HT becomes a space, and a
  blank or comment-only line gets **no** response (pygtp answers it, and
  also drops every non-ASCII character);
* ids: only ASCII digits, echoed as GNU Go echoes them (``=0`` too; pygtp
  loses id 0); a line holding only an id gets ``?id syntax error``;
* responses are always ``=id result`` / ``?id message`` with the space after
  ``=``/``?``, end with one blank line and never hold an empty line inside;
* any exception in a command becomes a ``?`` response (its traceback goes to
  stderr) and the position is restored: the process never dies on input.

Answers are formatted as GNU Go 3.8 formats them (``showboard`` starts with a
newline and draws GNU Go's board; ``attack`` answers ``0`` or ``CODE VERTEX``
with ``PASS`` for a success without a move; vertex lists run top row first).
Spec commands fail with the spec's wording (``syntax error``, ``illegal move``,
``unacceptable size``, ``cannot undo``, ``cannot load file``, ``unknown
command``); GNU Go's own commands (``attack``, ``countlib``, ``trymove``...)
fail with GNU Go's wording (``invalid coordinate``, ``vertex must not be
empty``...).  ``does_attack``/``does_defend`` take ``MOVE STRING``, GNU Go's
order.  Deviations from GNU Go: vertex lists carry no trailing space, and
``loadsgf`` rejects an until-argument that is neither a move number >= 1 nor
a vertex (GNU Go then loads up to the first pass).

The session (``engine.Engine``, which loads numba) is created lazily; ``main``
starts it on a background thread so that ``name``, ``protocol_version`` and
``list_commands`` are answered before the kernel is loaded; that thread
also loads the reading and playout kernels before it hands the session
over, so no command pays for them.  When they must be compiled instead,
the reading questions are answered meanwhile by the stand-in reader
(``standin``: the same reader run by the Python interpreter in a child
process), and with two cores the reader compiles in another child
(``core.warming``) beside the other kernels.  Extensions:
``gogame-hash`` (both hash words in hex) and ``gogame-check_hashing [on|off]``.
"""

from __future__ import annotations

import math
import subprocess
import sys
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import gtp as pygtp

from .. import __version__
from ..core import coords, options, warming
from ..core.coords import Point, format_gtp, format_vertices
from ..kernel.points import interpreted
from .analyze import AnalyzeCommands
from .client import EngineError
from .play import PlayCommands
from .protocol import (
    FLOAT_RE,
    ID_RE,
    INT_RE,
    UNTIL_VERTEX_RE,
    GtpError,
    clean,
    format_response,
    parse_command,
    preprocess,
)
from .prove import ProveCommands
from .standin import StandIn

if TYPE_CHECKING:
    from ..play.session import Engine, Settings


# commands answered before the session exists (the kernels need not load)
SESSION_FREE = frozenset(
    ("name", "version", "protocol_version", "list_commands", "known_command", "quit")
)

# commands that change how the reader reads: the stand-in reader, started
# with the command line's settings, is closed by any of them
READING_SETTINGS = frozenset(("increase_depths", "decrease_depths", "gogame-param"))

# commands of a game, not of analysis: when one of them waits for the first
# session of a cold start, the playouts compile before the reader
PLAYING = frozenset(
    (
        "boardsize clear_board komi play genmove reg_genmove kgs-genmove_cleanup "
        "lz-analyze kata-analyze lz-genmove_analyze kata-genmove_analyze "
        "fixed_handicap place_free_handicap set_free_handicap time_settings kgs-time_settings"
    ).split()
)


# ------------------------------------------------------------------ engine
class GtpEngine(PlayCommands, AnalyzeCommands, ProveCommands, pygtp.Engine):
    """The gogame GTP engine: ``send(line)`` returns the response ('' when
    the line gets none); ``disconnect`` turns true after ``quit``.

    pygtp's ``__init__`` wants a ready game object; the session here is made
    on first use (or by ``prewarm`` on a thread), so its fields are set here.
    """

    # command name prefixes whose first underscore is a dash in GTP
    DASHED = ("gogame_", "gogui_", "kgs_", "gg_", "lz_", "kata_")

    def __init__(
        self,
        session=None,
        factory=None,
        name="gogame",
        version=__version__,
        log=None,
        stand_in: Sequence[str] | None = None,
    ):
        self._name = name
        self._version = version
        self.disconnect = False
        self._session = session
        self._factory = factory or default_factory()
        self._warm = None  # the start-up thread's box until the session is handed over
        self._warm_thread = None
        self.asking = None  # the command being run
        self._log = log
        # the stand-in reader's ``gogame gtp`` options; None: never started
        self._stand_in_options = None if stand_in is None else tuple(stand_in)
        self.stand_in: StandIn | None = None
        self._stand_in_nodes = 0  # read by the stand-in since the counter's reset
        # while a child compiles the reader: set once it is ready (or the
        # start-up thread ended); reading commands wait for it
        self._reader_helped: threading.Event | None = None
        self.commands = {}
        self.streaming = set()  # commands answered as a stream (lz-analyze)
        for attr in dir(self):
            if attr.startswith(("cmd_", "stream_")) and getattr(self, attr) is not None:
                name_ = attr.split("_", 1)[1]
                if name_.startswith(self.DASHED):
                    name_ = name_.replace("_", "-", 1)
                self.commands[name_] = getattr(self, attr)
                if attr.startswith("stream_"):
                    self.streaming.add(name_)
        self.known_commands = sorted(self.commands)

    # --------------------------------------------------------- session
    def prewarm(self) -> None:
        """Create the session on a background thread (loads numba and the
        board kernel), and there load or compile the kernel groups
        (``warm_plan``): those in numba's cache that the waiting command
        needs are loaded before the session is handed over (well under a
        second), the other cached ones load when first used, and those not
        cached compile behind the session, in the order the waiting command
        needs them: the playouts first when it plays (``PLAYING``), the
        reader first otherwise.  Until the reader is ready, genmove plays
        without the reader's priors and checks rather than wait for its
        compile, and the reading questions (``attack``, ``defend``,
        ``ladder_attack``, ``does_attack``, ``does_defend``) go to the
        stand-in reader (``standin``), started first when the reader must
        compile.  With two cores the reader's groups compile in a child
        process meanwhile (``_reader_helper``), beside the other groups
        here; it ends with this process."""
        if self._session is not None or self._warm_thread is not None:
            return
        box = {"ready": threading.Event()}
        reading = threading.Event()

        def work() -> None:
            behind: tuple[str, ...] = ()
            helper = None
            try:
                if interpreted():  # a stand-in itself: nothing to compile or load
                    box["session"] = self._factory()
                    return
                cached = _cached_groups()
                if "reader" not in cached:
                    self._start_stand_in()
                if len(cached) < len(KERNELS):  # numba compiles: its registries load now
                    _skip_optional_probes()
                session = box["session"] = self._factory()
                before, behind = warm_plan(cached, self.asking in PLAYING)
                if "reader" in behind:
                    session.reader_ready = reading.is_set
                    helper = _reader_helper(behind)
                    if helper is not None:
                        self._reader_helped = reading
                _warm_kernels(before)
                if "reader" in before:
                    _ready_reader(session)
            except BaseException as e:  # reported on first use
                box["error"] = e
                return
            finally:
                box["ready"].set()
            try:
                _warm_kernels(behind, reading, helper)
            finally:
                reading.set()  # nothing is left to wait for

        thread = threading.Thread(target=work, name="gogame-prewarm", daemon=True)
        self._warm, self._warm_thread = box, thread
        thread.start()

    def _start_stand_in(self) -> None:
        """Start the stand-in reader (``standin``) when it was asked for;
        without it reading questions wait for the compile."""
        if self._stand_in_options is None or options.cores() < 2:
            return  # on one core the child would only slow the compile down
        try:
            self.stand_in = StandIn.start(self._stand_in_options)
        except EngineError as e:
            self.log(f"gogame: no stand-in reader: {e}")

    def close_stand_in(self) -> None:
        stand_in, self.stand_in = self.stand_in, None
        if stand_in is not None:
            stand_in.close()

    def _reader_ready(self) -> bool:
        """True once the session is handed over with a compiled reader."""
        session = self._session
        return session is not None and (session.reader_ready is None or session.reader_ready())

    def _stand_in_answer(self, texts: list[str]) -> str | None:
        """The stand-in's answer to the reading question being run (its
        argument ``texts``) while the compiled reader is not ready, else
        None: the compiled reader answers.  ``_run`` has closed the stand-in
        once the reader is ready; ``ask`` sees it turn ready meanwhile."""
        stand_in, session = self.stand_in, self.session
        if stand_in is None or session.position.stackp:  # trymoves are not in the SGF
            return None
        got = stand_in.ask(
            session.printsgf(), " ".join([self.asking, *texts]), session.reader_ready
        )
        if got is None:
            self.close_stand_in()
            return None
        ok, text, nodes = got
        self._stand_in_nodes += nodes
        if not ok:
            raise GtpError(text)
        return text

    def _read(
        self, texts: list[str], fmt: Callable[[Any], str], method: Callable[..., Any], *points: Any
    ) -> str:
        """A reading question's answer: the stand-in's text while it stands
        in, else ``fmt`` of ``method(*points)`` through ``read_checked``."""
        answer = self._stand_in_answer(texts)
        return answer if answer is not None else fmt(self.read_checked(method, *points))

    def finish_prewarm(self, timeout: float | None = None) -> None:
        """Wait for the start-up thread (session and kernels) to end."""
        if self._warm_thread is not None:
            self._warm_thread.join(timeout)

    @property
    def session(self) -> Engine:
        if self._session is None:
            if self._warm is not None:
                box = self._warm
                box["ready"].wait()
                self._warm = None
                if "error" in box:
                    self.log(
                        "gogame: session start-up failed:\n"
                        + "".join(traceback.format_exception(box["error"]))
                    )
                else:
                    self._session = box["session"]
            if self._session is None:
                self._session = self._factory()
        return self._session

    def log(self, text: str) -> None:
        stream = self._log or sys.stderr
        try:
            stream.write(text if text.endswith("\n") else text + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass

    # -------------------------------------------------------- dispatch
    def send(self, message: str) -> str:
        """One line in, the response out ('' for a blank or comment line)."""
        parsed = parse_command(preprocess(message))
        if parsed is None:
            return ""
        cmd_id, name, args = parsed
        if name is None:
            return format_response(False, cmd_id, "syntax error")
        handler = self.commands.get(name)
        if handler is None:
            return format_response(False, cmd_id, "unknown command")
        if name in self.streaming:
            return self._stream(cmd_id, name, handler, args)
        return self._run(cmd_id, name, handler, args)

    def _stream(self, cmd_id, name, handler, args):
        """A streamed response: ``=id`` and a newline, then the lines the
        handler emits, then the blank line.  Written to ``self.out`` as they
        come when serving; returned whole otherwise.  An error before the
        first line is an ordinary ``?`` response."""
        written = []
        out = self.out

        def emit(line: str) -> None:
            line = clean(line).strip()
            if not line:
                return
            if not written:
                written.append(("=" if cmd_id is None else f"={cmd_id}") + " \n")
                if out is not None:
                    out(written[-1])
            if line:
                written.append(line + "\n")
                if out is not None:
                    out(written[-1])

        response = self._run(cmd_id, name, lambda args_: handler(args_, emit), args)
        if not written:
            return response
        if response.startswith("?"):
            self.log(f"gogame: {name} stopped: {response.strip()}")
        return ("" if out is not None else "".join(written)) + "\n"

    def reject(self, message: str, reason: str) -> str:
        """Answer a line that cannot be run (e.g. too long) with its id."""
        parsed = parse_command(preprocess(message))
        if parsed is None:
            return ""
        return format_response(False, parsed[0], reason)

    def _run(self, cmd_id, name, handler, args):
        self.asking = name  # read by the start-up thread (see prewarm)
        if self._warm is not None and name not in SESSION_FREE:
            # wait for the start-up thread's session before the command
            # imports anything: two threads importing numba at once can
            # deadlock in its circular imports
            self.session  # noqa: B018
        if self.stand_in is not None and (name in READING_SETTINGS or self._reader_ready()):
            self.close_stand_in()  # it would read with the old settings, or is not needed
        session = self._session
        before = (session.position, session.position.stackp) if session is not None else (None, 0)
        try:
            return format_response(True, cmd_id, handler(args))
        except GtpError as e:
            return format_response(False, cmd_id, str(e))
        except NotImplementedError as e:
            self._restore(before)
            return format_response(False, cmd_id, f"{name} not implemented yet{_detail(e)}")
        except Exception as e:
            self.log(f"gogame: command {name!r} failed:\n" + traceback.format_exc())
            self._restore(before)
            first = (str(e).splitlines() or [""])[0]
            return format_response(
                False,
                cmd_id,
                f"internal error: {type(e).__name__}" + (f": {first}" if first else ""),
            )

    def _restore(self, before):
        """After an unexpected exception: unwind trymoves it left behind."""
        if self._session is None:
            return
        position, stackp = before
        if position is None:  # the command made the session
            position = self._session.position
        try:
            while position is self._session.position and position.stackp > stackp:
                position.popgo()
        except Exception:
            self.log("gogame: could not restore the position:\n" + traceback.format_exc())

    # ---------------------------------------------------- arguments
    def parse_vertex(
        self, text: str | None, allow_pass: bool = False, error: str = "invalid coordinate"
    ) -> Point | None:
        if text is None:
            raise GtpError(error)
        try:
            pt = coords.parse_gtp(text, self.session.size)
        except ValueError:
            raise GtpError(error) from None
        if pt is None and not allow_pass:
            raise GtpError(error)
        return pt

    def parse_color(self, text: str | None, error: str = "invalid color") -> int:
        from ..core.position import parse_color

        try:
            return parse_color(text)
        except ValueError:
            raise GtpError(error) from None

    def parse_move(
        self, args: list[str], error: str = "invalid color or coordinate", allow_pass: bool = True
    ) -> tuple[int, Point | None]:
        if len(args) < 2:
            raise GtpError(error)
        return (
            self.parse_color(args[0], error),
            self.parse_vertex(args[1], allow_pass=allow_pass, error=error),
        )

    def parse_stone(self, args: list[str], empty_error: str = "vertex must not be empty") -> Point:
        pt = self.parse_vertex(args[0] if args else None)
        if self.session.color_at(pt) == 0:
            raise GtpError(empty_error)
        return pt

    # ------------------------------------------------- administrative
    def cmd_protocol_version(self, args: list[str]) -> str:
        return "2"

    def cmd_name(self, args: list[str]) -> str:
        return self._name

    def cmd_version(self, args: list[str]) -> str:
        return self._version

    def cmd_known_command(self, args: list[str]) -> str:
        return pygtp.gtp_boolean(bool(args) and args[0] in self.commands)

    def cmd_list_commands(self, args: list[str]) -> str:
        return pygtp.gtp_list(self.known_commands)

    def cmd_quit(self, args: list[str]) -> str:
        self.disconnect = True
        self.close_stand_in()
        return ""

    # ----------------------------------------------------- board setup
    def cmd_boardsize(self, args: list[str]) -> str:
        if not args or not INT_RE.match(args[0]):
            raise GtpError("syntax error")
        try:
            self.session.boardsize(int(args[0]))
        except ValueError:
            raise GtpError("unacceptable size") from None
        return ""

    def cmd_query_boardsize(self, args: list[str]) -> str:
        return str(self.session.size)

    def cmd_clear_board(self, args: list[str]) -> str:
        self.session.clear_board()
        return ""

    def cmd_komi(self, args: list[str]) -> str:
        if not args or not FLOAT_RE.match(args[0]) or not math.isfinite(float(args[0])):
            raise GtpError("syntax error")
        self.session.komi = float(args[0])
        return ""

    def cmd_get_komi(self, args: list[str]) -> str:
        return f"{self.session.komi:4.1f}"

    def cmd_play(self, args: list[str]) -> str:
        from ..core.position import IllegalMoveError

        color, pt = self.parse_move(args, error="syntax error")
        try:
            self.session.play(color, pt)
        except IllegalMoveError:
            raise GtpError("illegal move") from None
        return ""

    def cmd_undo(self, args: list[str]) -> str:
        from ..core.position import CannotUndoError

        try:
            self.session.undo()
        except CannotUndoError:
            raise GtpError("cannot undo") from None
        return ""

    def cmd_loadsgf(self, args: list[str]) -> str:
        from ..play.session import LoadError, color_word

        if not args:
            raise GtpError("syntax error")
        until = None
        if len(args) > 1:
            text = args[1]
            if ID_RE.match(text):
                digits = text.lstrip("0") or "0"
                until = int(digits) if len(digits) <= 9 else 10**9  # past any game's end
                if until < 1:
                    raise GtpError("syntax error")
            elif UNTIL_VERTEX_RE.match(text):
                until = text
            else:
                raise GtpError("syntax error")
        try:
            color = self.session.loadsgf(args[0], until)
        except (LoadError, ValueError) as e:
            self.log(f"gogame: {e}")
            raise GtpError("cannot load file") from None
        return color_word(color)

    def cmd_showboard(self, args: list[str]) -> str:
        return "\n" + self.session.showboard()

    # --------------------------------------------------- board queries
    def cmd_color(self, args: list[str]) -> str:
        from ..play.session import color_word

        pt = self.parse_vertex(args[0] if args else None)
        return color_word(self.session.color_at(pt))

    def cmd_countlib(self, args: list[str]) -> str:
        return str(self.session.countlib(self.parse_stone(args)))

    def cmd_findlib(self, args: list[str]) -> str:
        return format_vertices(self.session.findlib(self.parse_stone(args)))

    def cmd_worm_stones(self, args: list[str]) -> str:
        pt = color = None
        if args:
            try:
                pt = self.parse_vertex(args[0])
            except GtpError:
                color = self.parse_color(args[0], error="invalid coordinate")
            if pt is not None and self.session.color_at(pt) == 0:
                raise GtpError("worm_stones called on an empty vertex")
        return "\n".join(format_vertices(w) for w in self.session.worm_stones(pt, color))

    def cmd_is_legal(self, args: list[str]) -> str:
        color, pt = self.parse_move(args)
        return "1" if self.session.is_legal(color, pt) else "0"

    def cmd_all_legal(self, args: list[str]) -> str:
        color = self.parse_color(args[0] if args else None)
        return format_vertices(self.session.all_legal(color))

    # ------------------------------------------------------ trymove
    def cmd_trymove(self, args: list[str]) -> str:
        color, pt = self.parse_move(args)
        if not self.session.trymove(color, pt):
            raise GtpError("illegal move")
        return ""

    def cmd_tryko(self, args: list[str]) -> str:
        color, pt = self.parse_move(args, allow_pass=False)
        if not self.session.tryko(color, pt):
            raise GtpError("illegal move")
        return ""

    def cmd_popgo(self, args: list[str]) -> str:
        if self.session.position.stackp == 0:
            raise GtpError("Stack empty.")
        self.session.popgo()
        return ""

    # ------------------------------------------------------ reading
    def read_checked(self, method: Callable[..., Any], *args: Any) -> Any:
        """Call a reading method and check that it left the position as it
        was.  While a child compiles the reader (``prewarm``) it waits for
        it rather than compile the reader a second time."""
        if self._reader_helped is not None:
            self._reader_helped.wait()
        position = self.session.position
        before = (position.stackp, position.hash)
        answer = method(*args)
        if (position.stackp, position.hash) != before:
            self.log(
                f"gogame: {method.__name__} left the position changed "
                f"(stackp, hash) {before} -> {(position.stackp, position.hash)}"
            )
            self._restore((position, before[0]))
            raise GtpError(f"internal error: {method.__name__} changed the position")
        return answer

    def cmd_attack(self, args: list[str]) -> str:
        return self._read(args[:1], _result, self.session.attack, self.parse_stone(args))

    def cmd_defend(self, args: list[str]) -> str:
        return self._read(args[:1], _result, self.session.find_defense, self.parse_stone(args))

    def cmd_ladder_attack(self, args: list[str]) -> str:
        pt = self.parse_stone(args)
        if self.session.countlib(pt) != 2:
            raise GtpError("string must have exactly 2 liberties")
        return self._read(args[:1], _result, self.session.ladder_attack, pt)

    def _move_and_string(self, args):
        move = self.parse_vertex(args[0] if args else None)
        if self.session.color_at(move) != 0:
            raise GtpError("move vertex must be empty")
        pt = self.parse_vertex(args[1] if len(args) > 1 else None)
        if self.session.color_at(pt) == 0:
            raise GtpError("string vertex must not be empty")
        return move, pt

    def cmd_does_attack(self, args: list[str]) -> str:
        move, pt = self._move_and_string(args)
        return self._read(args[:2], _flag, self.session.does_attack, pt, move)

    def cmd_does_defend(self, args: list[str]) -> str:
        move, pt = self._move_and_string(args)
        return self._read(args[:2], _flag, self.session.does_defend, pt, move)

    def cmd_increase_depths(self, args: list[str]) -> str:
        self.session.increase_depths()
        return ""

    def cmd_decrease_depths(self, args: list[str]) -> str:
        self.session.decrease_depths()
        return ""

    def cmd_reset_reading_node_counter(self, args: list[str]) -> str:
        self.session.reader.nodes = 0
        self._stand_in_nodes = 0
        return ""

    def cmd_get_reading_node_counter(self, args: list[str]) -> str:
        return str(int(self.session.reader.nodes) + self._stand_in_nodes)

    def cmd_reset_trymove_counter(self, args: list[str]) -> str:
        self.session.reader.trymoves = 0
        return ""

    def cmd_get_trymove_counter(self, args: list[str]) -> str:
        return str(int(self.session.reader.trymoves))

    def cmd_cputime(self, args: list[str]) -> str:
        return f"{time.process_time():.3f}"

    def cmd_cache_stats(self, args: list[str]) -> str:
        """The reading cache: scheme, budget, capacity, use and counters, one per line."""
        stats = self.session.reader.cache_stats()
        return "\n".join(f"{key} {value}" for key, value in stats.items())

    def cmd_clear_cache(self, args: list[str]) -> str:
        self.session.reader.cache.clear()
        return ""

    # --------------------------------------------------- extensions
    def cmd_gogame_thread_stats(self, args: list[str]) -> str:
        """Per reading thread, one line: ``thread N`` then its counters
        (nodes, deferred, marks, researches, reprobe_cuts, stopped, hits)."""
        stats = self.session.reader.thread_stats()
        return "\n".join(
            f"thread {t} " + " ".join(f"{k} {v}" for k, v in st.items())
            for t, st in enumerate(stats)
        )

    def cmd_gogame_hash(self, args: list[str]) -> str:
        return " ".join(f"{w:016x}" for w in self.session.hash)

    def cmd_gogame_check_hashing(self, args: list[str]) -> str:
        if not args:
            return "on" if self.session.check_hashing else "off"
        word = args[0].lower()
        if word not in ("on", "off"):
            raise GtpError("syntax error")
        self.session.check_hashing = word == "on"
        return ""


def _result(answer):
    """GNU Go's answer to attack/defend: ``0`` or ``CODE VERTEX`` (PASS if none)."""
    code, move = answer
    code = int(code)
    if not 0 <= code <= 3:
        raise ValueError(f"reading code {code} not in 0..3")
    if not code:
        return "0"
    return f"{code} {format_gtp(move)}"


def _flag(answer):
    """does_attack/does_defend: ``1`` or ``0``."""
    return str(int(answer))


def _detail(e):
    return f": {e}" if str(e) else ""


def _skip_optional_probes() -> None:
    """A GTP process runs only gogame: numba's registries load without
    their scipy and cffi probes (``kernel.skip_optional_probes``)."""
    from .. import kernel

    kernel.skip_optional_probes()


# the kernel groups the start-up thread loads, each with its entry point:
# the group is in numba's cache when its entry point is
GROUP_ENTRY = {
    "loading": "board.play_sequence",  # loadsgf, play, undo
    "reader": "reading.read_rows",
    "moves": "reading.read_after",  # does_attack, does_defend
    "playouts": "playout.search",
}
KERNELS = tuple(GROUP_ENTRY)
READER_GROUPS = ("reader", "moves")  # what ``gogame warmup --step reading`` compiles


def _cached_groups() -> set[str]:
    """The kernel groups whose entry point numba's cache holds."""
    from .. import kernel

    return {group for group, entry in GROUP_ENTRY.items() if kernel.cached(entry)}


def warm_plan(cached: set[str], playing: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(loaded before the session is handed over, compiled behind it): the
    cached groups the waiting command needs first (the reader; the
    playouts too when it plays), and every group not cached: the loading
    kernels (``loadsgf``, ``undo``) first, or the playouts then the loading
    kernels when it plays.  Cached groups left out load when first used
    (``read_after`` in 25 ms, the playouts in 50 ms): loaded behind, they
    would slow the first commands down, as the loading thread takes the
    GIL too."""
    order = ("playouts", "loading", "reader", "moves") if playing else KERNELS
    first = {"reader", "playouts"} if playing else {"reader"}
    before = tuple(g for g in order if g in first and g in cached)
    behind = tuple(g for g in order if g not in cached)
    return before, behind


def _ready_reader(session: Engine) -> None:
    """Make the session's reader and map its cache table's memory now, on
    the start-up thread, rather than at the first question: a huge page's
    first write can wait for the operating system to compact memory (the
    first ``attack`` of reading.tst took 7 to 23 ms in 4 of 12 starts, and
    0.7 to 0.9 ms in 12 of 12 with this; docs/startup.md).  A failure
    here is left to the first question, which makes the reader again and
    reports it."""
    try:
        session.reader.cache.touch()
    except Exception:  # the first question reports it
        pass


def _reader_helper(behind: tuple[str, ...]) -> subprocess.Popen | None:
    """With two cores or more and another group to compile here, a child
    compiling the reader's groups (``core.warming``), else None."""
    if options.cores() < 2 or not set(behind) - set(READER_GROUPS):
        return None
    return warming.start("reading")


def _warm_kernels(
    groups: tuple[str, ...],
    reading: threading.Event | None = None,
    helper: subprocess.Popen | None = None,
) -> None:
    """Load (or compile) the kernel ``groups`` (of ``KERNELS``), in order, on
    the start-up thread; ``reading`` is set once the reader is ready.  A
    command that needs one of them meanwhile waits for numba's compiler
    lock, so for no longer than it would have; commands that need neither
    run beside it.  With a ``helper`` compiling the reader's groups, the
    others come first, then the reader's once the helper has exited (from
    the cache; compiled here if it failed)."""
    if helper is not None:
        groups = tuple(g for g in groups if g not in READER_GROUPS) + tuple(
            g for g in groups if g in READER_GROUPS
        )
    try:
        from ..core import reader
        from ..play import session

        for group in groups:
            if group in READER_GROUPS and helper is not None:
                warming.finish(helper)  # failed or hung: compiled here
                helper = None
            if group == "loading":
                session.warm_up_loading()
            elif group == "reader":
                reader.warm_up(moves=False)
            elif group == "moves":
                reader.warm_up_moves()
            else:
                from ..play import player  # the playouts: not imported to read

                player.warm_up()
            if group == "reader" and reading is not None:
                reading.set()
    except Exception:
        traceback.print_exc()


def default_factory(settings: Settings | None = None, **kw: Any) -> Callable[[], Engine]:
    """A function that makes a fresh session (imports the numba kernel)."""

    def make() -> Engine:
        from ..play.session import Engine, Settings

        return Engine(settings=settings or Settings(**kw))

    return make
