"""The stand-in reader: a pure-Python copy of the engine that answers reading
questions while numba compiles the real reader.

With an empty numba cache (a first start, or the first after an upgrade)
the compiled reader takes 30-45 s to build on a 2-core machine, and a
``gogame gtp`` asked ``attack`` meanwhile would freeze that long.  The same
kernel sources run by the Python interpreter (``NUMBA_DISABLE_JIT=1``)
read exactly the same tree: the same answers and node counts (a test
compares them), about 100-300 times slower, which is a few seconds at most
for most questions and no compile at all.  So a cold engine starts a child
``gogame gtp`` in that mode at once, beside the compile, and hands it each
reading question (``attack``, ``defend``, ``ladder_attack``,
``does_attack``, ``does_defend``) until the reader is ready.

Contract
--------
* ``StandIn.start(options)`` starts the child (``--threads 1`` and the
  reading ``options``: level, cache and hash settings); it returns at once.
* ``ask(sgf, command, ready)`` loads ``sgf`` (the position as ``printsgf``
  writes it) in the child, sends ``command`` and returns ``(ok, text,
  nodes)``, the child's answer and the nodes it read.  It returns None, and
  closes the child for good, when ``ready()`` turns true first (the
  compiled reader, faster from then on, answers instead), when the child
  fails, or when ``ask`` is called after ``close``.
* ``close()`` ends the child; it may be called again.

Not done: positions with trymoves on the stack, and commands other than
the plain reading questions, wait for the compiled reader (``engine``
decides which).
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
import threading
from collections.abc import Callable, Sequence

from .client import EngineError, GtpClient

POLL_SECONDS = 0.02  # how often a waiting question checks whether the reader is ready


class StandIn:
    """A child ``gogame gtp`` that runs the kernels as plain Python."""

    def __init__(self, client: GtpClient, folder: str) -> None:
        self._client: GtpClient | None = client
        self._folder = folder
        self._sgf = os.path.join(folder, "position.sgf")
        self.answered = 0  # questions the child answered

    @classmethod
    def start(cls, options: Sequence[str] = ()) -> StandIn:
        """Start the child with ``gogame gtp`` ``options``; EngineError when it cannot."""
        env = dict(os.environ, NUMBA_DISABLE_JIT="1", PYTHONWARNINGS="ignore::RuntimeWarning")
        argv = [sys.executable, "-m", "gogame", "gtp", "--threads", "1", *options]
        folder = tempfile.mkdtemp(prefix="gogame-standin-")
        try:
            client = GtpClient(argv, env=env, stderr=None)
        except EngineError:
            shutil.rmtree(folder, ignore_errors=True)
            raise
        return cls(client, folder)

    @property
    def alive(self) -> bool:
        return self._client is not None

    def ask(
        self, sgf: bytes, command: str, ready: Callable[[], bool]
    ) -> tuple[bool, str, int] | None:
        """The child's ``(ok, text, nodes)`` for ``command`` on the position
        ``sgf``, or None (see the module contract)."""
        client = self._client
        if client is None or ready():
            self.close()
            return None
        try:
            with open(self._sgf, "wb") as f:
                f.write(sgf)
        except OSError:
            self.close()
            return None
        box: dict = {}
        done = threading.Event()

        def work() -> None:
            try:
                if not client.send(f"loadsgf {self._sgf}")[0]:
                    raise EngineError("the stand-in could not load the position")
                client.send("reset_reading_node_counter")
                ok, text = client.send(command)
                nodes = client.send("get_reading_node_counter")[1]
                box["answer"] = (ok, text, int(nodes) if nodes.isdigit() else 0)
            except (EngineError, ValueError) as exc:
                box["error"] = exc
            finally:
                done.set()

        threading.Thread(target=work, name="gogame-standin", daemon=True).start()
        while not done.wait(POLL_SECONDS):
            if ready():
                break
        if "answer" not in box:
            self.close()  # the reader is ready, or the child failed
            return None
        self.answered += 1
        return box["answer"]

    def close(self) -> None:
        """End the child (killed when it is reading) and remove its files."""
        client, self._client = self._client, None
        if client is None:
            return
        client.proc.kill()
        client.close(timeout=2)
        shutil.rmtree(self._folder, ignore_errors=True)
