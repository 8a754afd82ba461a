"""Tactical reading for Python callers: attack, defend, ladders, with ko codes.

``Reader`` holds the reading settings (depths, node limit), the counters and
scratch arrays; every query takes the ``Position`` to read and a string given
by any of its stones.  Answers use GNU Go's GTP codes: 0 fails, 1 WIN, 2 KO_A
(wins a ko this side takes first), 3 KO_B (wins only a ko that needs a
threat); moves are (row, col), or None for a success that needs no move
(printed PASS).  The position is unchanged after every query.

Depths are GNU Go's level-10 values shifted by ``depth_offset``
(increase_depths / decrease_depths); each ``level`` below 10 lowers them all
by one more (GNU Go's own level table differs slightly).  The node limit
counts per root question; a search that hits it answers a guess
(``aborted``) and stores nothing in the cache.
"""

from __future__ import annotations

import functools
import queue
import threading
import weakref
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np

from ..kernel import abdada as kab
from ..kernel import cache as kc
from ..kernel import reading as kr
from ..kernel.layout import (
    H_HASHERR,
    H_HASHWHERE,
    H_SP,
    H_STACKP,
    PASS,
    STACK,
    new_state,
)
from .coords import Point
from .reading_cache import ReadingCache

if TYPE_CHECKING:
    from .position import Position, Vertex

Answer = tuple[int, Point | None]  # (GTP code 0..3, the move or None)
Question = tuple[str, "Vertex"]  # ("attack" or "defend", a stone of the string)

GTP_CODE = {0: 0, kr.WIN: 1, kr.KO_A: 2, kr.KO_B: 3}
PARALLEL_MODES = ("abdada", "shared-cache")
DEFAULT_SHARE_PLIES = 8
DEFAULT_SERIAL_FIRST = 3000  # nodes a threaded reader reads alone before the helpers start


def _helper_loop(t, jobs, done):
    """Helper thread ``t``: run each job (a callable: one question's
    ``read_rows``: a question's or a batch's share), put (t, its result or the
    exception) in ``done``; ``None`` ends the thread."""
    while True:
        job = jobs.get()
        if job is None:
            return
        try:
            done.put((t, job()))
        except BaseException as e:  # handed to the caller, who re-raises
            done.put((t, e))
        job = None  # hold nothing of the Reader while waiting


def _stop_helpers(job_queues):
    for jobs in job_queues:
        jobs.put(None)


def used_extent(s) -> tuple[int, int]:
    """(state entries, hash words) a board uses: the header to the
    change-stack pointer, and the current words with those each trymove
    saved.  Copying these brings another board to this position."""
    return STACK + int(s[H_SP]), 2 + 2 * int(s[H_STACKP])


class BoardCopy:
    """A position of the game being read, kept for a later batch
    (``Reader.examine_copies``): the used part of its state and hash
    words, and the strings to examine (their kernel points, and the stones
    that named them).  Positions inside a trymove are not kept."""

    def __init__(self, position: Position, stones: Sequence[Vertex]) -> None:
        if int(position.s[H_STACKP]):
            raise ValueError("a board copy is taken outside trymove")
        self.stones = list(stones)
        self.targets = [position.string_pos(pt, "vertex must not be empty") for pt in self.stones]
        used, words = used_extent(position.s)
        self.s, self.hw = position.s[:used].copy(), position.hw[:words].copy()


# the board copies of ``read_rows`` when a batch has none
NO_COPIES = (
    np.zeros(0, np.int32),
    np.zeros(1, np.int64),
    np.zeros(0, np.uint64),
    np.zeros(1, np.int64),
)


def pack_copies(copies: Sequence[BoardCopy]) -> tuple[np.ndarray, ...]:
    """The board copies as ``read_rows`` takes them: the states end to end
    with their offsets, and the hash words likewise."""
    if not copies:
        return NO_COPIES
    states = [c.s for c in copies]
    words = [c.hw for c in copies]
    return (
        np.concatenate(states).astype(np.int32, copy=False),
        np.cumsum([0] + [len(a) for a in states], dtype=np.int64),
        np.concatenate(words).astype(np.uint64, copy=False),
        np.cumsum([0] + [len(a) for a in words], dtype=np.int64),
    )


class _Helpers:
    """The reading threads 1..n-1 of one Reader, started once and kept for
    its life, each with a board of its own (state and hash words); thread 0
    is the caller's.  The threads end when the Reader goes."""

    def __init__(self, owner, n):
        self.boards = [None] + [new_state() for _ in range(1, n)]  # thread 0 reads in place
        self.own0 = None  # thread 0's board for batches over copies, made when first needed
        self.jobs = [queue.SimpleQueue() for _ in range(n)]
        self.done = queue.SimpleQueue()
        for t in range(1, n):
            threading.Thread(
                target=_helper_loop,
                args=(t, self.jobs[t], self.done),
                name=f"gogame-read-{t}",
                daemon=True,
            ).start()
        weakref.finalize(owner, _stop_helpers, self.jobs[1:])

    def hand_off(self, position):
        """Bring every helper's board to ``position``: only the used part of
        the state (header to the change-stack pointer) and of the hash words
        (the current ones and those saved by each trymove)."""
        s, hw = position.s, position.hw
        used, words = used_extent(s)
        for bs, bhw in self.boards[1:]:
            bs[:used] = s[:used]
            bhw[:words] = hw[:words]

    def wait(self):
        """Wait for one job of each helper; -> the exceptions they raised."""
        results = [self.done.get()[1] for _ in range(1, len(self.jobs))]
        return [r for r in results if isinstance(r, BaseException)]


class _Batch:
    """A batch of question rows the helpers are reading
    (``Reader._start_batch``); ``finish`` reads thread 0's share."""

    def __init__(self, reader, position, helpers, own, rows):
        self.reader, self.position, self.helpers = reader, position, helpers
        self.own, self.rows = own, rows

    def finish(self) -> np.ndarray:
        """Read what the helpers leave, wait for them, and return the rows
        (answers filled in); a helper's exception or a hash error is raised
        here."""
        reader, helpers = self.reader, self.helpers
        try:
            kr.read_rows(*self.own)
        finally:
            failed = helpers.wait()
            reader._hash_errors_to(self.position, helpers)
        if failed:
            raise failed[0]
        rows = self.rows
        reader.ctx[kr.C_ABORTED] = int(rows[:, kr.Q_ABORTED].any())
        self.position.raise_if_hash_error("reading")
        return rows


class PendingCopies:
    """A batch of board copies being read (``Reader.start_copies``)."""

    def __init__(self, reader, position, copies, batch):
        self.reader, self.position, self.copies, self.batch = reader, position, copies, batch

    def result(self) -> list[list[tuple[Answer, Answer | None]]]:
        """What ``Reader.examine_copies`` answers; call it once."""
        rows = self.batch.finish() if self.batch else np.zeros((0, kr.Q_LEN), np.int64)
        answers = self.reader._pairs(self.position, rows)
        out, k = [], 0
        for copy in self.copies:
            out.append(answers[k : k + len(copy.targets)])
            k += len(copy.targets)
        return out


def _one_row():
    """A thread's row for one question alone (on the caller's board, no
    follow-up: only ``Q_ATTACK`` and ``Q_TARGET`` change between questions),
    and its counter."""
    row = np.zeros((1, kr.Q_LEN), np.int64)
    row[0, kr.Q_BOARD] = -1
    return row, np.zeros(1, np.int64)


class Reader:
    """Reading settings, counters and per-thread scratch space.

    ``threads`` > 1 reads each attack / defence question (``attack``,
    ``find_defense``, ``ladder_attack``) alone for up to ``serial_first``
    nodes (0: never alone); only a question still unanswered then goes to
    all the threads, sharing the cache: ``parallel="abdada"`` defers moves
    another thread is searching (see ``kernel/reading.py``),
    ``"shared-cache"`` is the baseline that never defers.  The helper
    threads are started at the first such question and kept, each with its
    own board, brought to the position by copying only its used part.
    Answers equal the serial ones; node and cache counters are summed over
    the threads, ``thread_stats`` gives them per thread, ``parallel_reads``
    counts the questions the helpers joined.  ``does_attack``/``does_defend``
    read the move's reply serially.  A Reader is not itself safe to share
    between threads.
    """

    def __init__(
        self,
        level: int = 10,
        node_limit: int = 0,
        cache: ReadingCache | None = None,
        threads: int = 1,
        parallel: str = "abdada",
        share_plies: int = DEFAULT_SHARE_PLIES,
        serial_first: int = DEFAULT_SERIAL_FIRST,
    ) -> None:
        if not isinstance(threads, int) or threads < 1:
            raise ValueError(f"threads must be a positive integer, not {threads!r}")
        if parallel not in PARALLEL_MODES:
            raise ValueError(f"unknown parallel mode {parallel!r}")
        self.threads = threads
        self.parallel = parallel
        self.share_plies = share_plies
        self.level = level
        self.depth_offset = 0
        self.node_limit = node_limit
        self.cache = cache if cache is not None else ReadingCache(0)
        # thread 0 reads on the caller's thread; each thread has its own context
        self._contexts = [kr.new_context() for _ in range(threads)]
        self._rows = [_one_row() for _ in range(threads)]  # each thread's question row
        self.ctx, self.mv = self._contexts[0]
        self.busy, self.flag = kr.new_shared()
        self._helpers = None
        self.serial_first = serial_first
        self.parallel_reads = 0  # questions the helper threads joined
        self.stopped_searches = [0] * threads
        self._prepared = None  # the settings last written into the contexts

    # -------------------------------------------------------- settings
    def _depth_shift(self):
        """How far all depths move from level 10's, clipped to -32..63 (below
        -32 every depth is 0 already)."""
        return min(63, max(-32, self.depth_offset - max(0, 10 - self.level)))

    @property
    def depths(self) -> tuple[int, ...]:
        """(depth, branch, backfill, backfill2, break_chain, superstring,
        fourlib, ko) in effect."""
        shift = self._depth_shift()
        return tuple(max(0, d + shift) for d in kr.DEFAULT_DEPTHS)

    def _prepare(self, position, ladder=False):
        """Settings into every context; a new cache generation (a root question)."""
        shift = self._depth_shift()
        key = (shift, position.size, self.node_limit, self.cache)  # the object: ids recur
        if key != self._prepared:
            # the depths follow from the shift; the size tells apart entries
            # of other board sizes, which a double or single table keeps
            depths = self.depths
            settings = (shift + 32) | (position.size << 7)
            for ctx, _ in self._contexts:
                ctx[kr.C_DEPTH : kr.C_KODEPTH + 1] = depths
                ctx[kr.C_NODELIMIT] = self.node_limit
                ctx[kr.C_SETTINGS] = settings
            self.cache.for_size(position.size)
            self._prepared = key
        if ladder:  # 0 between questions (``_run`` clears it)
            for ctx, _ in self._contexts:
                ctx[kr.C_LADDER] = 1
        self.cache.meta[kc.M_GEN] += 1

    def _sum(self, lo, hi=None):
        hi = lo + 1 if hi is None else hi
        return sum(ctx[lo:hi] for ctx, _ in self._contexts)

    @property
    def cache_counters(self) -> tuple[int, ...]:
        """(probes, hits, stores, replacements, collisions) counted by this reader."""
        return tuple(int(x) for x in self._sum(kr.C_STATS, kr.C_STATS + 5))

    def reset_cache_counters(self) -> None:
        """Zero the cache counters of every thread."""
        for ctx, _ in self._contexts:
            ctx[kr.C_STATS : kr.C_STATS + 5] = 0

    def cache_stats(self) -> dict:
        """The cache's ``stats`` with this reader's counters."""
        return self.cache.stats(self.cache_counters)

    @property
    def nodes(self) -> int:
        """Reading nodes, summed over the threads."""
        return int(self._sum(kr.C_NODES)[0])

    @nodes.setter
    def nodes(self, value: int) -> None:
        self._set_count(kr.C_NODES, value)

    @property
    def trymoves(self) -> int:
        """Moves tried by reading, summed over the threads."""
        return int(self._sum(kr.C_TRYMOVES)[0])

    @trymoves.setter
    def trymoves(self, value: int) -> None:
        self._set_count(kr.C_TRYMOVES, value)

    def _set_count(self, index: int, value: int) -> None:
        """A summed counter set to ``value``: thread 0 holds it, the others 0."""
        for ctx, _ in self._contexts:
            ctx[index] = 0
        self.ctx[index] = value

    def thread_stats(self) -> list[dict]:
        """Per thread, counted since the reader was made: nodes, deferred
        moves, busy marks made, re-searches after a failed null-window probe,
        nodes cut by a cache re-probe, searches stopped by another thread
        finishing first, and cache hits."""
        return [
            {
                "nodes": int(ctx[kr.C_NODES]),
                "deferred": int(ctx[kr.C_DEFERRED]),
                "marks": int(ctx[kr.C_MARKS]),
                "researches": int(ctx[kr.C_RESEARCHES]),
                "reprobe_cuts": int(ctx[kr.C_REPROBES]),
                "stopped": self.stopped_searches[t],
                "hits": int(ctx[kr.C_STATS + 1]),
            }
            for t, (ctx, _) in enumerate(self._contexts)
        ]

    @property
    def aborted(self) -> bool:
        """True when the last query hit the node limit (its answer is a guess)."""
        return bool(self.ctx[kr.C_ABORTED])

    # --------------------------------------------------------- queries
    def _target(self, position, pt):
        return position.string_pos(pt, "vertex must not be empty")

    def _kernel_args(self, t, s, hw, keys):
        """The arguments every reading kernel starts with, for thread ``t``
        on board (s, hw): board, context, move rows, then the shared tables."""
        ctx, mv = self._contexts[t]
        return (
            s,
            hw,
            keys,
            ctx,
            mv,
            self.cache.table,
            self.cache.meta,
            self.busy,
            self.flag,
        )

    def kernel_tables(self, position: Position) -> tuple:
        """Thread 0's context, rows, cache and ABDADA tables (``read_rows``'
        arguments after the board), set for a root question on ``position``
        (depths, board size, a new cache generation): for a kernel that asks
        the reader questions of its own (the prover's ``guide``)."""
        self._prepare(position)
        return self._kernel_args(0, position.s, position.hw, position.keys)[3:]

    def _answer(self, position, packed):
        code, move = divmod(int(packed), kr.MOVE_SPAN)
        return GTP_CODE[code], (position.pt(move) if code and move != PASS else None)

    def _run(self, position, pt, attack, ladder=False):
        target = self._target(position, pt)
        self._prepare(position, ladder)
        packed = None
        try:
            if self.threads == 1 or 0 < self.node_limit <= self.serial_first:
                packed = self._serial(position, attack, target)
            elif self.serial_first > 0:
                packed = self._alone_first(position, attack, target)
            if packed is None:
                packed = self._run_threads(position, target, attack)
        finally:
            if ladder:
                for ctx, _ in self._contexts:
                    ctx[kr.C_LADDER] = 0
        position.raise_if_hash_error("reading")
        return self._answer(position, packed)

    def _serial(self, position, attack, target):
        args = self._row_args(0, position.s, position.hw, position.keys, attack, target)
        kr.read_rows(*args)
        return int(self._rows[0][0][0, kr.Q_PACKED])

    def _row_args(self, t, s, hw, keys, attack, target):
        """The arguments of ``read_rows`` for one question alone on thread
        ``t``'s row, on board (s, hw)."""
        row, taken = self._rows[t]
        row[0, kr.Q_ATTACK] = attack
        row[0, kr.Q_TARGET] = target
        taken[0] = 0
        return (*self._kernel_args(t, s, hw, keys), row, taken, *NO_COPIES)

    def _alone_first(self, position, attack, target):
        """Most questions take a few hundred nodes at most: read alone up to
        ``serial_first`` nodes; the answer, or None when that did not
        suffice (the cache keeps what it found for the threads)."""
        self.ctx[kr.C_NODELIMIT] = self.serial_first
        packed = self._serial(position, attack, target)
        self.ctx[kr.C_NODELIMIT] = self.node_limit
        return None if self.ctx[kr.C_ABORTED] else packed

    def _thread_job(self, t, s, hw, position, attack, target, share, limit):
        """The arguments of ``read_rows`` for thread ``t`` on board (s, hw)."""
        ctx = self._contexts[t][0]
        ctx[kr.C_PARALLEL], ctx[kr.C_THREAD], ctx[kr.C_SHARE] = 1, t, share
        ctx[kr.C_NODELIMIT] = limit
        return self._row_args(t, s, hw, position.keys, attack, target)

    def _run_threads(self, position, target, attack):
        """Thread 0 reads the question on the caller's board, every helper
        from the root on its own board brought to the position; the first to
        finish answers, the others stop.  The node limit, if any, is what
        the serial start left of it."""
        helpers = self._start_helpers()
        kab.next_question(self.busy, self.flag)
        helpers.hand_off(position)
        share = self.share_plies if self.parallel == "abdada" else 0
        limit = self.node_limit
        if limit > 0 and self.serial_first > 0:
            limit = max(1, limit - self.serial_first)
        for t in range(1, self.threads):
            s, hw = helpers.boards[t]
            job = self._thread_job(t, s, hw, position, attack, target, share, limit)
            helpers.jobs[t].put(functools.partial(kr.read_rows, *job))
        job = self._thread_job(0, position.s, position.hw, position, attack, target, share, limit)
        try:
            kr.read_rows(*job)
        finally:
            self.flag[kab.F_STOP] = 1  # (raised already, unless thread 0 failed)
            failed = helpers.wait()
            self._after_threads(position, helpers)
        if failed:
            raise failed[0]
        winner = int(self.flag[kab.F_WINNER])
        self.ctx[kr.C_ABORTED] = self._contexts[winner][0][kr.C_ABORTED]
        return int(self._rows[winner][0][0, kr.Q_PACKED])

    def _start_helpers(self):
        """The helper threads, started at the first call that needs them."""
        if self._helpers is None:
            self.busy = kab.new_table()
            self._helpers = _Helpers(self, self.threads)
        return self._helpers

    def _after_threads(self, position, helpers):
        """Counters and settings back to serial; a hash error found on a
        helper's board goes to the caller's."""
        self.parallel_reads += 1
        for t, (ctx, _) in enumerate(self._contexts):
            self.stopped_searches[t] += int(ctx[kr.C_STOPPED])
            ctx[kr.C_PARALLEL] = ctx[kr.C_SHARE] = ctx[kr.C_LADDER] = 0
            ctx[kr.C_NODELIMIT] = self.node_limit
        self._hash_errors_to(position, helpers)

    @staticmethod
    def _hash_errors_to(position, helpers):
        """A hash error found on a helper's board goes to the caller's."""
        for s, _ in [*helpers.boards[1:], *([helpers.own0] if helpers.own0 else [])]:
            if s[H_HASHERR]:
                position.s[H_HASHERR], position.s[H_HASHWHERE] = s[H_HASHERR], s[H_HASHWHERE]

    def attack(self, position: Position, pt: Vertex) -> Answer:
        """-> (code, move): can the string at ``pt`` be captured, attacker first?"""
        return self._run(position, pt, True)

    def find_defense(self, position: Position, pt: Vertex) -> Answer:
        """-> (code, move): can the string at ``pt`` be saved, owner first?"""
        return self._run(position, pt, False)

    def ladder_attack(self, position: Position, pt: Vertex) -> Answer:
        """-> (code, move): can the string be captured by a chase of ataris?"""
        return self._run(position, pt, True, ladder=True)

    def read_many(self, position: Position, questions: Sequence[Question]) -> list[Answer]:
        """-> the answers to ``questions`` ((kind, stone): "attack" as
        ``attack``, "defend" as ``find_defense``), in their order.

        One thread reads them one by one (the plain loop).  With ``threads``
        > 1 the threads take different questions: each takes the next one
        not yet taken and reads it alone, on its own board (thread 0 on the
        caller's), all of them sharing the cache; no question is split
        between threads (so ``serial_first`` plays no part).  Answers are the
        serial ones: the cache changes node counts, never an answer.  With
        a node limit, a question that hits it answers a guess, as alone;
        ``aborted`` is then true if any did.  The position is unchanged."""
        questions = list(questions)
        asked = [(self._is_attack(k), self._target(position, pt), 0, -1) for k, pt in questions]
        if self.threads == 1 or len(asked) < 2:
            return [
                self._run(position, pt, a)
                for (a, _, _, _), (_, pt) in zip(asked, questions, strict=True)
            ]
        rows = self._batch(position, asked)
        return [self._answer(position, p) for p in rows[:, kr.Q_PACKED].tolist()]

    def examine_strings(
        self, position: Position, stones: Sequence[Vertex]
    ) -> list[tuple[Answer, Answer | None]]:
        """-> for each string (given by a stone): (its ``attack``, and its
        ``find_defense`` when the attack succeeds, else None), as
        ``read_many`` reads: with threads, each string's two questions on
        one thread, the strings on all of them."""
        stones = list(stones)
        if self.threads == 1 or len(stones) < 2:
            out = []
            for pt in stones:
                attack = self.attack(position, pt)
                out.append((attack, self.find_defense(position, pt) if attack[0] else None))
            return out
        rows = self._batch(position, [(1, self._target(position, pt), 1, -1) for pt in stones])
        return self._pairs(position, rows)

    def _pairs(self, position, rows):
        """Each row's (attack, defence or None) of ``examine_strings``."""
        return [
            (self._answer(position, a), self._answer(position, d) if a >= kr.MOVE_SPAN else None)
            for a, d in rows[:, [kr.Q_PACKED, kr.Q_THEN]].tolist()
        ]

    def examine_copies(
        self, position: Position, copies: Sequence[BoardCopy]
    ) -> list[list[tuple[Answer, Answer | None]]]:
        """-> for each board copy, what ``examine_strings`` answers for its
        strings: one batch over the positions of one game (``position``, any
        of them, gives the size and keys; it is unchanged).  With threads,
        each takes the next string not yet taken, of whichever position,
        and brings its own board there, so that work spans positions; one
        thread reads them in order.  Answers are the serial ones."""
        return self.start_copies(position, copies).result()

    def start_copies(self, position: Position, copies: Sequence[BoardCopy]) -> PendingCopies:
        """``examine_copies`` begun: the helper threads start on the batch
        at once, and ``result()`` reads the caller's share and answers.  In
        between the caller may play on ``position`` and take more copies,
        but must not use this Reader."""
        copies = list(copies)
        asked = [(1, t, 1, b) for b, copy in enumerate(copies) for t in copy.targets]
        batch = self._start_batch(position, asked, copies) if asked else None
        return PendingCopies(self, position, copies, batch)

    def _batch(self, position, asked, boards=None):
        """The questions ``asked`` ((attack, target, follow, board): a
        question row, see ``kr.Q_ATTACK``) on all the threads -> the rows."""
        return self._start_batch(position, asked, boards).finish()

    def _start_batch(self, position, asked, boards=None):
        """Hand the rows ``asked`` to the helpers, who start at once, and
        return the ``_Batch``; its ``finish`` reads the caller's share.
        Without ``boards`` every question is about ``position`` (thread 0
        reads on it, and it must not change until ``finish``); with them
        (``BoardCopy`` list), every thread reads on a board of its own and
        ``position`` only gives the keys.  The Reader must not be used
        again before ``finish``."""
        self._prepare(position)
        helpers = self._start_helpers()
        if boards is None:
            helpers.hand_off(position)
            own0 = (position.s, position.hw)
        else:
            if helpers.own0 is None:
                helpers.own0 = new_state()
            own0 = helpers.own0
        rows = np.zeros((len(asked), kr.Q_LEN), np.int64)
        if asked:
            rows[:, : kr.Q_GEN] = asked
        rows[:, kr.Q_GEN] = 1
        batch = (rows, np.zeros(1, np.int64), *pack_copies(boards or ()))
        for t in range(1, self.threads):
            s, hw = helpers.boards[t]
            job = (*self._kernel_args(t, s, hw, position.keys), *batch)
            helpers.jobs[t].put(functools.partial(kr.read_rows, *job))
        own = (*self._kernel_args(0, *own0, position.keys), *batch)
        return _Batch(self, position, helpers, own, rows)

    @staticmethod
    def _is_attack(kind):
        if kind not in ("attack", "defend"):
            raise ValueError(f"a question is attack or defend, not {kind!r}")
        return kind == "attack"

    def _after(self, position, pt, move, attack):
        target = self._target(position, pt)
        self._prepare(position)
        args = self._kernel_args(0, position.s, position.hw, position.keys)
        code = kr.read_after(*args, attack, target, position.pos(move))
        position.raise_if_hash_error("reading")
        return GTP_CODE[int(code)]

    def does_attack(self, position: Position, pt: Vertex, move: Vertex) -> int:
        """-> code: does the attacker's ``move`` capture the string?  0 when the
        string is dead already (no defence), as GNU Go answers."""
        if self.find_defense(position, pt)[0] == 0:
            return 0
        return self._after(position, pt, move, True)

    def does_defend(self, position: Position, pt: Vertex, move: Vertex) -> int:
        """-> code: does the owner's ``move`` save the string?  0 when the
        string needs no defence (it cannot be attacked), as GNU Go answers."""
        if self.attack(position, pt)[0] == 0:
            return 0
        return self._after(position, pt, move, False)


def _warm_position():
    """A 9x9 board of the warm-ups' own: Black's E5 with two liberties."""
    from .position import Position

    position = Position(9)
    for move, color in (("E5", "b"), ("E6", "w"), ("D5", "w")):
        position.play(move, color)
    return position


def warm_up(moves: bool = True) -> None:
    """Load the compiled reading kernels (compile them the first time) with
    one question of each kind, attack, find_defense, ladder_attack and,
    unless ``moves`` is false, does_attack (``warm_up_moves``), on a 9x9
    board of their own."""
    position = _warm_position()
    reader = Reader(cache=ReadingCache(1))
    reader.attack(position, (4, 4))
    reader.find_defense(position, (4, 4))
    reader.ladder_attack(position, (4, 4))
    if moves:
        warm_up_moves()


def warm_up_moves() -> None:
    """Load (or compile) the kernel behind does_attack and does_defend."""
    Reader(cache=ReadingCache(1)).does_attack(_warm_position(), (4, 4), (4, 5))
