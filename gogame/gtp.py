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
over, so no command pays for them.  Extensions:
``gogame-hash`` (both hash words in hex) and ``gogame-check_hashing [on|off]``.
"""
import argparse
import math
import os
import queue
import re
import sys
import threading
import time
import traceback

import gtp as pygtp

from . import __version__
from .analyze import AnalyzeCommands
from .gtp_play import PlayCommands

MAX_LINE = 1 << 20                         # longer lines are answered "line too long"
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")    # keeps HT (09) and LF (0a)
_ID = re.compile(r"[0-9]+\Z")
_INT = re.compile(r"[+-]?[0-9]+\Z")
_FLOAT = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")
_UNTIL_VERTEX = re.compile(r"([A-Za-z][0-9]+|[Pp][Aa][Ss][Ss])\Z")


class GtpError(Exception):
    """A command failure: the message is the text after ``?``."""


def preprocess(line):
    """GTP v2 §3.1 on one line: drop control characters except HT and LF
    (CR too), cut at ``#``, HT -> space.  The result may be blank."""
    line = _CONTROL.sub("", line)
    line = line.split("#", 1)[0]
    return line.replace("\t", " ").replace("\n", " ")


def parse_command(line):
    """A preprocessed line -> (id or None, name or None, [args]);
    None for a blank line, which gets no response."""
    tokens = [t for t in line.split(" ") if t]      # only spaces separate (HT became one)
    if not tokens:
        return None
    cmd_id = None
    if _ID.match(tokens[0]):
        cmd_id = _id_value(tokens.pop(0))
    if not tokens:
        return cmd_id, None, []
    return cmd_id, tokens[0], tokens[1:]


def _id_value(digits):
    """An id's ASCII digits -> int; past int()'s 4300-digit limit the digits
    themselves, leading zeros dropped (printed the same either way)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 4000 else digits


def format_response(ok, cmd_id, text=""):
    """``=id text`` / ``?id text`` plus the blank line; never an empty line
    inside (a multi-line text keeps its first line, even an empty one, as
    GNU Go's ``showboard`` does)."""
    head = ("=" if ok else "?") + ("" if cmd_id is None else str(cmd_id))
    text = "" if text is None else str(text)
    text = _CONTROL.sub("", text.replace("\t", " "))
    lines = text.split("\n")
    if not ok:
        lines = [lines[0]]
    body = "\n".join([lines[0].rstrip()] + [ln.rstrip() for ln in lines[1:] if ln.strip()])
    return f"{head} {body}\n\n"


# ------------------------------------------------------------------ engine
class GtpEngine(PlayCommands, AnalyzeCommands, pygtp.Engine):
    """The gogame GTP engine: ``send(line)`` returns the response ('' when
    the line gets none); ``disconnect`` turns true after ``quit``.

    pygtp's ``__init__`` wants a ready game object; the session here is made
    on first use (or by ``prewarm`` on a thread), so its fields are set here.
    """

    # command name prefixes whose first underscore is a dash in GTP
    DASHED = ("gogame_", "gogui_", "kgs_", "gg_", "lz_")

    def __init__(self, session=None, factory=None, name="gogame", version=__version__,
                 log=None):
        self._name = name
        self._version = version
        self.disconnect = False
        self._session = session
        self._factory = factory or default_factory()
        self._warm = None               # (thread, box) while a prewarm runs
        self._log = log
        self.commands = {}
        self.streaming = set()          # commands answered as a stream (lz-analyze)
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
    def prewarm(self):
        """Create the session on a background thread (loads numba and the
        compiled kernels)."""
        if self._session is not None or self._warm is not None:
            return
        box = {}

        def work():
            try:
                session = self._factory()
            except BaseException as e:       # reported on first use
                box["error"] = e
                return
            _warm_kernels()                 # before the first command, not during it
            box["session"] = session

        thread = threading.Thread(target=work, name="gogame-prewarm", daemon=True)
        self._warm = (thread, box)
        thread.start()

    def finish_prewarm(self, timeout=None):
        if self._warm is not None:
            self._warm[0].join(timeout)

    @property
    def session(self):
        if self._session is None:
            if self._warm is not None:
                thread, box = self._warm
                thread.join()
                self._warm = None
                if "error" in box:
                    self._log_text("gogame: session start-up failed:\n" + "".join(
                        traceback.format_exception(box["error"])))
                else:
                    self._session = box["session"]
            if self._session is None:
                self._session = self._factory()
        return self._session

    def _log_text(self, text):
        stream = self._log or sys.stderr
        try:
            stream.write(text if text.endswith("\n") else text + "\n")
            stream.flush()
        except (OSError, ValueError):
            pass

    # -------------------------------------------------------- dispatch
    def send(self, message):
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

        def emit(line):
            line = _CONTROL.sub("", line.replace("\t", " ")).strip()
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
            self._log_text(f"gogame: {name} stopped: {response.strip()}")
        return ("" if out is not None else "".join(written)) + "\n"

    def reject(self, message, reason):
        """Answer a line that cannot be run (e.g. too long) with its id."""
        parsed = parse_command(preprocess(message))
        if parsed is None:
            return ""
        return format_response(False, parsed[0], reason)

    def _run(self, cmd_id, name, handler, args):
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
            self._log_text(f"gogame: command {name!r} failed:\n" + traceback.format_exc())
            self._restore(before)
            first = (str(e).splitlines() or [""])[0]
            return format_response(False, cmd_id, f"internal error: {type(e).__name__}"
                                   + (f": {first}" if first else ""))

    def _restore(self, before):
        """After an unexpected exception: unwind trymoves it left behind."""
        if self._session is None:
            return
        position, stackp = before
        if position is None:                 # the command made the session
            position = self._session.position
        try:
            while position is self._session.position and position.stackp > stackp:
                position.popgo()
        except Exception:
            self._log_text("gogame: could not restore the position:\n" + traceback.format_exc())

    # ---------------------------------------------------- arguments
    def _vertex(self, text, allow_pass=False, error="invalid coordinate"):
        from . import coords
        if text is None:
            raise GtpError(error)
        try:
            pt = coords.parse_gtp(text, self.session.size)
        except ValueError:
            raise GtpError(error) from None
        if pt is None and not allow_pass:
            raise GtpError(error)
        return pt

    def _color(self, text, error="invalid color"):
        from .position import parse_color
        try:
            return parse_color(text)
        except ValueError:
            raise GtpError(error) from None

    def _move(self, args, error="invalid color or coordinate", allow_pass=True):
        if len(args) < 2:
            raise GtpError(error)
        return (self._color(args[0], error),
                self._vertex(args[1], allow_pass=allow_pass, error=error))

    def _stone(self, args, empty_error="vertex must not be empty"):
        pt = self._vertex(args[0] if args else None)
        if self.session.color_at(pt) == 0:
            raise GtpError(empty_error)
        return pt

    # ------------------------------------------------- administrative
    def cmd_protocol_version(self, args):
        return "2"

    def cmd_name(self, args):
        return self._name

    def cmd_version(self, args):
        return self._version

    def cmd_known_command(self, args):
        return pygtp.gtp_boolean(bool(args) and args[0] in self.commands)

    def cmd_list_commands(self, args):
        return pygtp.gtp_list(self.known_commands)

    def cmd_quit(self, args):
        self.disconnect = True
        return ""

    # ----------------------------------------------------- board setup
    def cmd_boardsize(self, args):
        if not args or not _INT.match(args[0]):
            raise GtpError("syntax error")
        try:
            self.session.boardsize(int(args[0]))
        except ValueError:
            raise GtpError("unacceptable size") from None
        return ""

    def cmd_query_boardsize(self, args):
        return str(self.session.size)

    def cmd_clear_board(self, args):
        self.session.clear_board()
        return ""

    def cmd_komi(self, args):
        if not args or not _FLOAT.match(args[0]) or not math.isfinite(float(args[0])):
            raise GtpError("syntax error")
        self.session.komi = float(args[0])
        return ""

    def cmd_get_komi(self, args):
        return f"{self.session.komi:4.1f}"

    def cmd_play(self, args):
        from .position import IllegalMoveError
        color, pt = self._move(args, error="syntax error")
        try:
            self.session.play(color, pt)
        except IllegalMoveError:
            raise GtpError("illegal move") from None
        return ""

    def cmd_undo(self, args):
        from .position import CannotUndoError
        try:
            self.session.undo()
        except CannotUndoError:
            raise GtpError("cannot undo") from None
        return ""

    def cmd_loadsgf(self, args):
        from .engine import LoadError, color_word
        if not args:
            raise GtpError("syntax error")
        until = None
        if len(args) > 1:
            text = args[1]
            if _ID.match(text):
                digits = text.lstrip("0") or "0"
                until = int(digits) if len(digits) <= 9 else 10**9     # past any game's end
                if until < 1:
                    raise GtpError("syntax error")
            elif _UNTIL_VERTEX.match(text):
                until = text
            else:
                raise GtpError("syntax error")
        try:
            color = self.session.loadsgf(args[0], until)
        except (LoadError, ValueError) as e:
            self._log_text(f"gogame: {e}")
            raise GtpError("cannot load file") from None
        return color_word(color)

    def cmd_showboard(self, args):
        return "\n" + self.session.showboard()

    # --------------------------------------------------- board queries
    def cmd_color(self, args):
        from .engine import color_word
        pt = self._vertex(args[0] if args else None)
        return color_word(self.session.color_at(pt))

    def cmd_countlib(self, args):
        return str(self.session.countlib(self._stone(args)))

    def cmd_findlib(self, args):
        return _vertices(self.session.findlib(self._stone(args)))

    def cmd_worm_stones(self, args):
        pt = color = None
        if args:
            try:
                pt = self._vertex(args[0])
            except GtpError:
                color = self._color(args[0], error="invalid coordinate")
            if pt is not None and self.session.color_at(pt) == 0:
                raise GtpError("worm_stones called on an empty vertex")
        return "\n".join(_vertices(w) for w in self.session.worm_stones(pt, color))

    def cmd_is_legal(self, args):
        color, pt = self._move(args)
        return "1" if self.session.is_legal(color, pt) else "0"

    def cmd_all_legal(self, args):
        color = self._color(args[0] if args else None)
        return _vertices(self.session.all_legal(color))

    # ------------------------------------------------------ trymove
    def cmd_trymove(self, args):
        color, pt = self._move(args)
        if not self.session.trymove(color, pt):
            raise GtpError("illegal move")
        return ""

    def cmd_tryko(self, args):
        color, pt = self._move(args, allow_pass=False)
        if not self.session.tryko(color, pt):
            raise GtpError("illegal move")
        return ""

    def cmd_popgo(self, args):
        if self.session.position.stackp == 0:
            raise GtpError("Stack empty.")
        self.session.popgo()
        return ""

    # ------------------------------------------------------ reading
    def _read(self, method, *args):
        """Call a reading method and check that it left the position as it was."""
        position = self.session.position
        before = (position.stackp, position.hash)
        answer = method(*args)
        if (position.stackp, position.hash) != before:
            self._log_text(f"gogame: {method.__name__} left the position changed "
                           f"(stackp, hash) {before} -> {(position.stackp, position.hash)}")
            self._restore((position, before[0]))
            raise GtpError(f"internal error: {method.__name__} changed the position")
        return answer

    def cmd_attack(self, args):
        return _result(*self._read(self.session.attack, self._stone(args)))

    def cmd_defend(self, args):
        return _result(*self._read(self.session.find_defense, self._stone(args)))

    def cmd_ladder_attack(self, args):
        pt = self._stone(args)
        if self.session.countlib(pt) != 2:
            raise GtpError("string must have exactly 2 liberties")
        return _result(*self._read(self.session.ladder_attack, pt))

    def _move_and_string(self, args):
        move = self._vertex(args[0] if args else None)
        if self.session.color_at(move) != 0:
            raise GtpError("move vertex must be empty")
        pt = self._vertex(args[1] if len(args) > 1 else None)
        if self.session.color_at(pt) == 0:
            raise GtpError("string vertex must not be empty")
        return move, pt

    def cmd_does_attack(self, args):
        move, pt = self._move_and_string(args)
        return str(int(self._read(self.session.does_attack, pt, move)))

    def cmd_does_defend(self, args):
        move, pt = self._move_and_string(args)
        return str(int(self._read(self.session.does_defend, pt, move)))

    def cmd_increase_depths(self, args):
        self.session.increase_depths()
        return ""

    def cmd_decrease_depths(self, args):
        self.session.decrease_depths()
        return ""

    def cmd_reset_reading_node_counter(self, args):
        self.session.reader.nodes = 0
        return ""

    def cmd_get_reading_node_counter(self, args):
        return str(int(self.session.reader.nodes))

    def cmd_reset_trymove_counter(self, args):
        self.session.reader.trymoves = 0
        return ""

    def cmd_get_trymove_counter(self, args):
        return str(int(self.session.reader.trymoves))

    def cmd_cputime(self, args):
        return f"{time.process_time():.3f}"

    def cmd_cache_stats(self, args):
        """The reading cache: scheme, budget, capacity, use and counters, one per line."""
        stats = self.session.reader.cache_stats()
        return "\n".join(f"{key} {value}" for key, value in stats.items())

    def cmd_clear_cache(self, args):
        self.session.reader.cache.clear()
        return ""

    # --------------------------------------------------- extensions
    def cmd_gogame_thread_stats(self, args):
        """Per reading thread, one line: ``thread N`` then its counters
        (nodes, deferred, marks, researches, reprobe_cuts, stopped, hits)."""
        stats = self.session.reader.thread_stats()
        return "\n".join(f"thread {t} " + " ".join(f"{k} {v}" for k, v in st.items())
                         for t, st in enumerate(stats))

    def cmd_gogame_hash(self, args):
        return " ".join(f"{w:016x}" for w in self.session.hash)

    def cmd_gogame_check_hashing(self, args):
        if not args:
            return "on" if self.session.check_hashing else "off"
        word = args[0].lower()
        if word not in ("on", "off"):
            raise GtpError("syntax error")
        self.session.check_hashing = word == "on"
        return ""


def _vertices(points):
    from .coords import format_gtp
    return " ".join(format_gtp(p) for p in points)


def _result(code, move):
    """GNU Go's answer to attack/defend: ``0`` or ``CODE VERTEX`` (PASS if none)."""
    code = int(code)
    if not 0 <= code <= 3:
        raise ValueError(f"reading code {code} not in 0..3")
    if not code:
        return "0"
    from .coords import format_gtp
    return f"{code} {format_gtp(move)}"


def _detail(e):
    return f": {e}" if str(e) else ""


def default_factory(settings=None, **kw):
    """A function that makes a fresh session (imports the numba kernel)."""
    def make():
        from .engine import Engine, Settings
        return Engine(settings=settings or Settings(**kw))
    return make


# -------------------------------------------------------------------- loop
def read_line(stream, limit=MAX_LINE):
    """-> (bytes, too_long) or (None, False) at end of input.  A line over
    ``limit`` bytes is cut there and the rest of it is read and dropped."""
    line = stream.readline(limit + 1)
    if not line:
        return None, False
    if len(line) > limit and not line.endswith(b"\n"):
        while True:
            chunk = stream.readline(1 << 16)
            if not chunk or chunk.endswith(b"\n"):
                break
        return line[:limit], True
    return line, False


class InputReader:
    """Reads GTP lines for ``serve``: on the caller's thread while no
    command has asked about input, then on a thread of its own, so that a
    running search sees input.

    Lines come as (text, too_long, blank); ``None`` marks the end of input.
    The first call of ``waiting`` or ``interrupted`` (a search polling)
    starts the thread, which reads from then on: a blocked read cannot be
    taken back, so it never stops.  Until then each line costs no thread
    hand-over.  On the thread, GoGui's ``# interrupt`` (a comment line) sets
    ``interrupt``, and ``waiting()`` is true while a line that is not blank
    waits.
    """

    def __init__(self, stream, limit=MAX_LINE):
        self.stream = stream
        self.limit = limit
        self.lines = queue.Queue()
        self.interrupt = threading.Event()
        self._pending = 0
        self._lock = threading.Lock()
        self.thread = None

    def _next(self):
        """Read and classify one line; None at the end of input."""
        try:
            raw, too_long = read_line(self.stream, self.limit)
        except (OSError, ValueError):
            raw = None
        if raw is None:
            return None
        text = raw.decode("utf-8", errors="replace")
        blank = not too_long and parse_command(preprocess(text)) is None
        return text, too_long, blank

    def _read(self):
        while True:
            item = self._next()
            if item is None:
                self.lines.put(None)
                return
            text, _, blank = item
            if blank and "interrupt" in text.split("#", 1)[-1].lower():
                self.interrupt.set()
            if not blank:
                with self._lock:
                    self._pending += 1
            self.lines.put(item)

    def watch(self):
        """Read on a thread from now on."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._read, name="gogame-stdin", daemon=True)
            self.thread.start()

    def get(self):
        if self.thread is None:
            return self._next()
        item = self.lines.get()
        if item is not None and not item[2]:
            with self._lock:
                self._pending -= 1
        return item

    def waiting(self):
        self.watch()
        return self._pending > 0

    def interrupted(self):
        self.watch()
        return self.interrupt.is_set()


def serve(engine, stdin=None, stdout=None):
    """Answer GTP commands from ``stdin`` (bytes) until ``quit`` or end of
    input.  stdin is read by an ``InputReader`` (on its own thread once a
    search polls for input); responses are answered in order and flushed
    one by one."""
    stdin = stdin or _private_stdin()
    stdout = stdout or sys.stdout.buffer
    gone = []

    def write(text):
        if gone:
            return
        try:
            stdout.write(text.encode("utf-8", errors="replace"))
            stdout.flush()
        except (BrokenPipeError, ValueError, OSError):
            _silence_stdout()            # the client has gone
            gone.append(True)

    source = InputReader(stdin)
    engine.input, engine.out = source, write
    try:
        while not engine.disconnect and not gone:
            item = source.get()
            if item is None:
                break
            text, too_long, blank = item
            if blank:
                continue
            source.interrupt.clear()
            try:
                if too_long:
                    response = engine.reject(text, "line too long")
                else:
                    response = engine.send(text)
            except Exception:                # send catches command errors; belt and braces
                traceback.print_exc()
                response = format_response(False, None, "internal error")
            if response:
                write(response)
    finally:
        engine.input = engine.out = None
    return 0


def _private_stdin():
    """A reader of its own on a copy of fd 0: the reading thread may stay
    blocked in it at exit without holding ``sys.stdin``'s lock, which the
    interpreter takes while shutting down."""
    try:
        return open(os.dup(sys.stdin.fileno()), "rb")
    except (OSError, ValueError, AttributeError):
        return sys.stdin.buffer


def _warm_kernels():
    """Load (or compile) the reading and playout kernels.  Done on the
    prewarm thread before the session is handed over: loading them during a
    command would slow that command, and a load on another thread would
    hold the interpreter lock while the first commands run."""
    try:
        from .player import warm_up
        warm_up()
    except Exception:
        traceback.print_exc()


def _silence_stdout():
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError):
        pass


# --------------------------------------------------------- command line
def _physical_mb():
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    except (ValueError, OSError, AttributeError):
        return 2.0**20


def _cache_mb(text):
    try:
        mb = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of MB: {text!r}") from None
    if not math.isfinite(mb) or mb < 0:
        raise argparse.ArgumentTypeError(f"impossible cache budget: {text!r} MB")
    if mb > _physical_mb():
        raise argparse.ArgumentTypeError(
            f"impossible cache budget: {text} MB is more than this machine's memory")
    return mb


def _int_in(low, high, what):
    def parse(text):
        if not _INT.match(text.strip()):
            raise argparse.ArgumentTypeError(f"not an integer {what}: {text!r}")
        n = int(text)
        if not low <= n <= high:
            raise argparse.ArgumentTypeError(f"impossible {what}: {n} (not in {low}..{high})")
        return n
    return parse


def add_arguments(parser):
    """The options of ``gogame gtp`` (``--threads``: reading threads, ABDADA)."""
    parser.add_argument("--cache-mb", type=_cache_mb, default=None, metavar="MB",
                        help="reading cache budget in MB (0: no cache)")
    parser.add_argument("--hash", choices=["double", "full", "single"], default="double",
                        help="cache key scheme (default double; single: the unverified control)")
    parser.add_argument("--hash-bits", type=_int_in(1, 64, "hash bits"), default=64,
                        metavar="K", help="use only K bits of hash word 0 (collision experiment)")
    parser.add_argument("--threads", type=_int_in(1, 1024, "thread count"), default=1,
                        metavar="N", help="reading threads (default 1)")
    parser.add_argument("--level", type=_int_in(0, 20, "level"), default=10, metavar="N",
                        help="reading depths as GNU Go's --level (default 10)")
    parser.add_argument("--check-hashing", action="store_true",
                        help="recompute both hash words after every move")
    parser.add_argument("--sgf-autosave", metavar="FILE", default=None,
                        help="rewrite the game to FILE (atomically) after every change")
    parser.add_argument("--move-seconds", type=_seconds_arg, default=None, metavar="S",
                        help="thinking time per move without time settings (default 1)")
    return parser


def _seconds_arg(text):
    try:
        x = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(x) and x > 0):
        raise argparse.ArgumentTypeError(f"impossible time per move: {text!r}")
    return x


def run(args, stdin=None, stdout=None):
    """Run the GTP loop with parsed ``gogame gtp`` options; exit status 0."""
    make = default_factory(check_hashing=args.check_hashing, level=args.level,
                           cache_mb=args.cache_mb, hash=args.hash,
                           hash_bits=args.hash_bits, threads=args.threads)

    def factory():
        session = make()
        session.autosave = getattr(args, "sgf_autosave", None)
        seconds = getattr(args, "move_seconds", None)
        if seconds:
            session.clock.default = seconds
        return session

    engine = GtpEngine(factory=factory)
    engine.prewarm()
    status = serve(engine, stdin, stdout)
    if stdin is None and stdout is None:
        _exit_now(status)
    engine.finish_prewarm(timeout=60)    # in-process: never return while it is importing
    return status


def _exit_now(status):
    """End the process at once after ``quit``: the prewarm and stdin threads
    may still be loading numba or blocked in a read, and the interpreter's
    shutdown would wait for the one and can abort on the other.  Nothing is
    lost: responses are flushed, autosaves are written at every change, and
    numba writes its cache files atomically."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(status)


def main(argv=None):
    """``python -m gogame.gtp [options]``: the GTP loop on stdin/stdout."""
    parser = add_arguments(argparse.ArgumentParser(
        prog="gogame gtp", description="GTP engine on stdin/stdout"))
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
