"""A GTP client: one engine in a subprocess, spoken to over pipes, one
command at a time.  It knows nothing of gogame's engine (standard library
and ``protocol.GtpError`` only), so it drives GNU Go or any GTP program.

Contract
--------
* ``GtpClient(argv, cwd=, env=, stderr=, strict=, timeout=)`` starts the
  engine; one that cannot be started raises ``EngineError`` with a one-line
  reason.  ``stderr`` None captures the engine's stderr in a temporary file
  (its last line goes into EngineError messages); anything else is passed to
  ``subprocess.Popen``.  ``timeout`` is the default for every answer.
* ``send(command, cmd_id=None, timeout=None) -> (ok, text)``: ``ok`` is False for
  a ``?`` answer; ``text`` is the answer after ``=id `` / ``?id ``, the lines
  of a multi-line answer joined by ``\\n``, stripped.  ``ask`` is the same but
  returns the text and raises ``GtpError`` on ``?``.
* ``EngineError`` (one line: the engine, what happened, the last line it wrote
  on stderr when that is captured) when the engine exits or closes its output,
  gives no whole answer within ``timeout`` seconds (the call's, else the
  client's; None: wait for ever), or,
  with ``strict`` (the default), answers with a first line that is not
  ``=id`` / ``?id`` (the id sent, none for none) followed by a space or the end
  of the line.  Without ``strict``, lines before one starting with ``=`` or
  ``?`` are skipped and the id is not checked.  Blank lines before an answer
  are always skipped.  After an EngineError every call raises it again: the
  answers are out of step.
* ``write(data)`` and ``read_raw(timeout)`` are the byte level, for callers
  that check the framing themselves: ``read_raw`` returns the lines up to and
  including the next empty one, exactly as they came.
* ``close(timeout=5)`` sends ``quit``, closes stdin and waits for the exit;
  an engine still running after ``timeout`` seconds is killed.  It returns the
  exit status (None when killed) and may be called again.  The client is a
  context manager that closes on exit.

Not done: pipelining several commands (use ``write``/``read_raw``),
restarting a dead engine, checking what an answer says.
"""

from __future__ import annotations

import os
import queue
import re
import shlex
import subprocess
import tempfile
import threading
import time
from collections.abc import Mapping, Sequence
from typing import IO, Any, NoReturn, Self

from .protocol import GtpError as _ProtocolGtpError

_HEAD = re.compile(r"([=?])([0-9]*)( ?)(.*)", re.DOTALL)


class EngineError(Exception):
    """The engine could not be started, died, went silent or broke the framing."""


class GtpError(_ProtocolGtpError):
    """The engine answered ``?``: the message is its text, ``command`` what was sent."""

    def __init__(self, message: str, command: str = "") -> None:
        super().__init__(message)
        self.command = command


class GtpClient:
    """A GTP engine in a subprocess, spoken to over pipes (see the module contract)."""

    def __init__(
        self,
        argv: Sequence[str],
        cwd: str | os.PathLike | None = None,
        env: Mapping[str, str] | None = None,
        stderr: Any = None,
        strict: bool = True,
        timeout: float | None = None,
    ) -> None:
        self.argv = [str(a) for a in argv]
        self.timeout = timeout
        name = " ".join(shlex.join(self.argv).split())  # one line, for messages
        self.name = name if len(name) <= 120 else name[:117] + "..."
        self.strict = strict
        self.returncode: int | None = None
        self._broken: str | None = None
        self._closed = False
        self._begin(None, "")
        self._stderr: IO[str] | None = None
        if stderr is None:  # closed by close()
            self._stderr = tempfile.TemporaryFile(mode="w+")  # noqa: SIM115
        try:
            self.proc = subprocess.Popen(
                self.argv,
                cwd=cwd,
                env=env,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=self._stderr if stderr is None else stderr,
            )
        except (OSError, ValueError) as exc:
            self._close_stderr()
            raise EngineError(f"cannot start {self.name}: {exc}") from None
        self._lines: queue.Queue[bytes | None] = queue.Queue()
        threading.Thread(target=self._pump, name="gtp-client", daemon=True).start()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _pump(self) -> None:
        """Move the engine's output lines into the queue; None at its end."""
        out = self.proc.stdout
        try:
            for line in iter(out.readline, b""):
                self._lines.put(line)
        except (OSError, ValueError):
            pass
        finally:
            self._lines.put(None)
            out.close()

    # ------------------------------------------------------------ bytes
    def write(self, data: bytes) -> None:
        """Write bytes to the engine's stdin and flush.  Raises EngineError."""
        self._write(data, repr(data[:60]))

    def _write(self, data: bytes, doing: str) -> None:
        self._check()
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (OSError, ValueError):
            self._fail(self._died(f"while sending {doing}"))

    def _begin(self, timeout: float | None, doing: str) -> None:
        """Start waiting for one answer: its deadline and what it answers."""
        timeout = self.timeout if timeout is None else timeout
        self._timeout = timeout
        self._deadline = None if timeout is None else time.monotonic() + timeout
        self._doing = doing

    def _line(self) -> bytes:
        """The next output line (with its newline); EngineError at the end
        of the output or past the deadline."""
        wait = None if self._deadline is None else max(0.0, self._deadline - time.monotonic())
        try:
            line = self._lines.get(timeout=wait)
        except queue.Empty:
            self._fail(f"engine {self.name}: no answer to {self._doing} in {self._timeout:g} s")
        if line is None:
            self._lines.put(None)  # the end stays the end
            self._fail(self._died(f"during {self._doing}"))
        return line

    def read_raw(self, timeout: float | None = None) -> bytes:
        """The next response as it came: lines up to and including the next
        empty line.  Raises EngineError (died, or nothing whole in ``timeout`` s)."""
        self._check()
        self._begin(timeout, "a response")
        lines = [self._line()]
        while lines[-1] != b"\n":
            lines.append(self._line())
        return b"".join(lines)

    # ------------------------------------------------------------- text
    def send(
        self, command: str, cmd_id: int | None = None, timeout: float | None = None
    ) -> tuple[bool, str]:
        """Send one command (with ``cmd_id`` as its id); return (ok, text), ok
        False for a ``?`` answer.  Raises EngineError (see the module
        contract), ValueError for a command holding a line break."""
        if "\n" in command or "\r" in command:
            raise ValueError(f"a GTP command is one line: {command!r}")
        line = command if cmd_id is None else f"{cmd_id} {command}"
        self._write(line.encode("utf-8") + b"\n", repr(line))
        self._begin(timeout, repr(line))
        want = "" if cmd_id is None else str(cmd_id)
        while True:
            head = self._line().decode("utf-8", "replace").rstrip("\r\n")
            m = _HEAD.match(head)
            if m and (not self.strict or (m.group(2) == want and (m.group(3) or not m.group(4)))):
                break
            if head and self.strict:
                self._fail(f"engine {self.name}: malformed response to {line!r}: {head!r}")
        lines = [m.group(4)]
        while True:
            text = self._line().decode("utf-8", "replace").rstrip("\r\n")
            if not text:
                break
            lines.append(text)
        return m.group(1) == "=", "\n".join(lines).strip()

    def ask(self, command: str, cmd_id: int | None = None, timeout: float | None = None) -> str:
        """``send`` that returns the text and raises GtpError on a ``?`` answer."""
        ok, text = self.send(command, cmd_id, timeout)
        if not ok:
            raise GtpError(text, command)
        return text

    # ------------------------------------------------------------ state
    def _check(self) -> None:
        if self._broken is not None:
            raise EngineError(self._broken)
        if self._closed:
            raise EngineError(f"engine {self.name} is closed")

    def _fail(self, reason: str) -> NoReturn:
        """Remember why the engine is unusable and raise EngineError."""
        self._broken = reason
        raise EngineError(reason)

    def _died(self, doing: str) -> str:
        """One line: how the engine ended, and its last stderr line when captured."""
        try:
            code = self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = None
        why = f"exited with status {code}" if code is not None else "closed its output"
        tail = ""
        if self._stderr is not None:
            try:
                self._stderr.seek(0)
                tail = (self._stderr.read().strip().splitlines() or [""])[-1].strip()
            except (OSError, ValueError):
                pass
        return f"engine {self.name} {why} {doing}" + (f": {tail}" if tail else "")

    def close(self, timeout: float = 5.0) -> int | None:
        """Send ``quit``, close stdin, wait up to ``timeout`` s, then kill.
        Returns the exit status, None when the engine had to be killed."""
        if self._closed:
            return self.returncode
        self._closed = True
        if self._broken is None and self.proc.poll() is None:
            try:
                self.proc.stdin.write(b"quit\n")
                self.proc.stdin.flush()
            except (OSError, ValueError):
                pass
        try:
            self.proc.stdin.close()
        except (OSError, ValueError):
            pass
        try:
            self.returncode = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            self.returncode = None
        self._close_stderr()
        return self.returncode

    def _close_stderr(self) -> None:
        if self._stderr is not None:
            self._stderr.close()
            self._stderr = None
