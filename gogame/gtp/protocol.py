"""The GTP v2 wire format: preprocessing, ids, parsing, response framing
and the stdin reader.  It knows nothing of the engine: no Go, no numba.

* preprocessing as GTP v2 §3.1 says: control characters other than HT and LF
  are dropped (CR too), the line is cut at ``#``, HT becomes a space, and a
  blank or comment-only line gets **no** response;
* ids: only ASCII digits, echoed as GNU Go echoes them (``=0`` too);
* responses are always ``=id result`` / ``?id message`` with the space after
  ``=``/``?``, end with one blank line and never hold an empty line inside;
* ``InputReader`` reads lines on the caller's thread until a search polls
  for input, then on a thread of its own (GoGui's ``# interrupt``).
"""

from __future__ import annotations

import queue
import re
import threading
from typing import IO

MAX_LINE = 1 << 20  # longer lines are answered "line too long"
CONTROL_RE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # keeps HT (09) and LF (0a)
ID_RE = re.compile(r"[0-9]+\Z")
INT_RE = re.compile(r"[+-]?[0-9]+\Z")
FLOAT_RE = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]+)?\Z")
UNTIL_VERTEX_RE = re.compile(r"([A-Za-z][0-9]+|[Pp][Aa][Ss][Ss])\Z")


class GtpError(Exception):
    """A command failure: the message is the text after ``?``."""


def preprocess(line: str) -> str:
    """GTP v2 §3.1 on one line: drop control characters except HT and LF
    (CR too), cut at ``#``, HT -> space.  The result may be blank."""
    line = CONTROL_RE.sub("", line)
    line = line.split("#", 1)[0]
    return line.replace("\t", " ").replace("\n", " ")


def parse_command(line: str) -> tuple[int | str | None, str | None, list[str]] | None:
    """A preprocessed line -> (id or None, name or None, [args]);
    None for a blank line, which gets no response."""
    tokens = [t for t in line.split(" ") if t]  # only spaces separate (HT became one)
    if not tokens:
        return None
    cmd_id = None
    if ID_RE.match(tokens[0]):
        cmd_id = _id_value(tokens.pop(0))
    if not tokens:
        return cmd_id, None, []
    return cmd_id, tokens[0], tokens[1:]


def _id_value(digits):
    """An id's ASCII digits -> int; past int()'s 4300-digit limit the digits
    themselves, leading zeros dropped (printed the same either way)."""
    digits = digits.lstrip("0") or "0"
    return int(digits) if len(digits) <= 4000 else digits


def format_response(ok: bool, cmd_id: int | str | None, text: object = "") -> str:
    """``=id text`` / ``?id text`` plus the blank line; never an empty line
    inside (a multi-line text keeps its first line, even an empty one, as
    GNU Go's ``showboard`` does)."""
    head = ("=" if ok else "?") + ("" if cmd_id is None else str(cmd_id))
    text = "" if text is None else str(text)
    text = CONTROL_RE.sub("", text.replace("\t", " "))
    lines = text.split("\n")
    if not ok:
        lines = [lines[0]]
    body = "\n".join([lines[0].rstrip()] + [ln.rstrip() for ln in lines[1:] if ln.strip()])
    return f"{head} {body}\n\n"


def read_line(stream: IO[bytes], limit: int = MAX_LINE) -> tuple[bytes | None, bool]:
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
        self.ended = False  # the end of input was read

    def _next(self):
        """Read and classify one line; None at the end of input."""
        try:
            raw, too_long = read_line(self.stream, self.limit)
        except (OSError, ValueError):
            raw = None
        if raw is None:
            return None
        text = raw.decode("utf-8", errors="replace")
        blank = not too_long and not preprocess(text).strip(" ")  # no token to parse
        return text, too_long, blank

    def _read(self):
        while True:
            item = self._next()
            if item is None:
                self.ended = True
                self.lines.put(None)
                return
            text, _, blank = item
            if blank and "interrupt" in text.split("#", 1)[-1].lower():
                self.interrupt.set()
            if not blank:
                with self._lock:
                    self._pending += 1
            self.lines.put(item)

    def watch(self) -> None:
        """Read on a thread from now on."""
        if self.thread is None:
            self.thread = threading.Thread(target=self._read, name="gogame-stdin", daemon=True)
            self.thread.start()

    def get(self) -> tuple[str, bool, bool] | None:
        if self.thread is None:
            return self._next()
        item = self.lines.get()
        if item is not None and not item[2]:
            with self._lock:
                self._pending -= 1
        return item

    def waiting(self) -> bool:
        self.watch()
        return self._pending > 0 or self.ended

    def interrupted(self) -> bool:
        self.watch()
        return self.interrupt.is_set()


def clean(text: str) -> str:
    """Text made safe inside a response: HT -> space, control characters dropped."""
    return CONTROL_RE.sub("", text.replace("\t", " "))
