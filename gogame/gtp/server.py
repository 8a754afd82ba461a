"""``gogame gtp``: its options and the loop that serves GTP on stdin/stdout.

``run`` makes a ``GtpEngine`` whose session is created on a background
thread (``prewarm``), so ``name``, ``protocol_version`` and
``list_commands`` are answered before numba loads; ``serve`` answers
commands in order, one flushed response each, until ``quit`` or the end
of input; between them the engine may ponder (``--ponder on``).  A client
that goes away silences stdout; the process ends at once after ``quit``
(``_exit_now``).
"""

from __future__ import annotations

import argparse
import os
import sys
import traceback
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING

from ..core import options
from .engine import GtpEngine, default_factory
from .protocol import InputReader, format_response

if TYPE_CHECKING:
    from ..play.session import Engine


def serve(
    engine: GtpEngine, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None
) -> int:
    """Answer GTP commands from ``stdin`` (bytes) until ``quit`` or end of
    input.  stdin is read by an ``InputReader`` (on its own thread once a
    search polls for input); responses are answered in order and flushed
    one by one."""
    stdin = stdin or _private_stdin()
    stdout = stdout or sys.stdout.buffer
    gone = []

    def write(text: str) -> None:
        if gone:
            return
        try:
            stdout.write(text.encode("utf-8", errors="replace"))
            stdout.flush()
        except (BrokenPipeError, ValueError, OSError):
            _silence_stdout()  # the client has gone
            gone.append(True)

    source = InputReader(stdin)
    engine.input, engine.out = source, write
    try:
        while not engine.disconnect and not gone:
            engine.idle()  # pondering, after a genmove, until input waits
            item = source.get()
            if item is None:
                break
            text, too_long, blank = item
            if blank:
                continue
            if source.interrupt.is_set():
                source.interrupt.clear()
            try:
                if too_long:
                    response = engine.reject(text, "line too long")
                else:
                    response = engine.send(text)
            except Exception:  # send catches command errors; belt and braces
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


def _silence_stdout():
    try:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, sys.stdout.fileno())
        os.close(fd)
    except (OSError, ValueError):
        pass


# --------------------------------------------------------- command line
def add_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """The options of ``gogame gtp`` (``--threads``: reading threads, ABDADA)."""
    options.add_cache_arguments(parser, default_mb=None)
    parser.add_argument(
        "--threads",
        type=options.argtype(options.threads),
        default=None,
        metavar="N",
        help=f"reading threads (default: the cores, {options.cores()} here)",
    )
    parser.add_argument(
        "--level",
        type=options.argtype(options.level),
        default=10,
        metavar="N",
        help="reading depths as GNU Go's --level (default 10)",
    )
    parser.add_argument(
        "--check-hashing", action="store_true", help="recompute both hash words after every move"
    )
    parser.add_argument(
        "--sgf-autosave",
        metavar="FILE",
        default=None,
        help="rewrite the game to FILE (atomically) after every change",
    )
    parser.add_argument(
        "--rules",
        type=options.argtype(options.rules),
        default="chinese",
        help="final_score's counting: chinese (area, default) or japanese (territory)",
    )
    parser.add_argument(
        "--move-seconds",
        type=options.argtype(options.seconds),
        default=None,
        metavar="S",
        help="thinking time per move without time settings (default 1)",
    )
    _on_off(parser, "--patterns", True, "the player's 3x3 patterns from recorded games")
    _on_off(
        parser,
        "--widening",
        False,
        "progressive widening: each tree node chooses among its moves with the "
        "best priors first, more as it is visited (see docs/player.md)",
    )
    _on_off(
        parser,
        "--situational-komi",
        False,
        "in even games on 13x13 and up, the search asks a point more of its "
        "own side after each move it thought won (see docs/player.md)",
    )
    _on_off(
        parser,
        "--ponder",
        False,
        "after its move, think on the opponent's time until the next command",
    )
    _on_off(
        parser,
        "--stand-in",
        True,
        "while numba compiles the reader, answer the reading questions with the "
        "same reader run by the Python interpreter in a child process",
    )
    return parser


def _on_off(parser: argparse.ArgumentParser, flag: str, default: bool, what: str) -> None:
    """An ``on|off`` option; its help ends with the default."""
    parser.add_argument(
        flag,
        type=options.argtype(options.on_off),
        default=default,
        metavar="on|off",
        help=f"{what} (default {'on' if default else 'off'})",
    )


def run(
    args: argparse.Namespace, stdin: IO[bytes] | None = None, stdout: IO[bytes] | None = None
) -> int:
    """Run the GTP loop with parsed ``gogame gtp`` options; exit status 0."""
    make = default_factory(
        check_hashing=args.check_hashing,
        level=args.level,
        cache_mb=args.cache_mb,
        hash=args.hash,
        hash_bits=args.hash_bits,
        threads=args.threads or options.cores(),
    )

    def factory() -> Engine:
        session = make()
        session.autosave = getattr(args, "sgf_autosave", None)
        session.rules = getattr(args, "rules", "chinese")
        session.patterns = getattr(args, "patterns", True)
        session.widening = getattr(args, "widening", False)
        session.pondering = getattr(args, "ponder", False)
        session.situational_komi = getattr(args, "situational_komi", False)
        seconds = getattr(args, "move_seconds", None)
        if seconds:
            session.clock.default = seconds
        return session

    engine = GtpEngine(factory=factory, stand_in=_stand_in_options(args))
    engine.prewarm()
    status = serve(engine, stdin, stdout)
    if stdin is None and stdout is None:
        _exit_now(status)
    engine.finish_prewarm(timeout=60)  # in-process: never return while it is importing
    return status


def _stand_in_options(args: argparse.Namespace) -> list[str] | None:
    """The stand-in reader's options (those that change what it reads), or
    None with ``--stand-in off``."""
    if not getattr(args, "stand_in", False):
        return None
    argv = ["--level", str(args.level), "--hash", args.hash, "--hash-bits", str(args.hash_bits)]
    if args.cache_mb is not None:
        argv += ["--cache-mb", str(args.cache_mb)]
    return argv


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


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m gogame.gtp.server [options]``: the GTP loop on stdin/stdout."""
    parser = add_arguments(
        argparse.ArgumentParser(prog="gogame gtp", description="GTP engine on stdin/stdout")
    )
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
