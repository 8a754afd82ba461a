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

from typing import TYPE_CHECKING

from ..kernel import abdada as kab
from ..kernel import cache as kc
from ..kernel import reading as kr
from ..kernel.layout import BLACK, COLOR, H_HASHERR, H_HASHWHERE, PASS, WHITE
from .coords import Point
from .reading_cache import ReadingCache

if TYPE_CHECKING:
    from .position import Position, Vertex

Answer = tuple[int, Point | None]  # (GTP code 0..3, the move or None)

GTP_CODE = {0: 0, kr.WIN: 1, kr.KO_A: 2, kr.KO_B: 3}
PARALLEL_MODES = ("abdada", "shared-cache")
DEFAULT_SHARE_PLIES = 8


class Reader:
    """Reading settings, counters and per-thread scratch space.

    ``threads`` > 1 reads each attack / defence question (``attack``,
    ``find_defense``, ``ladder_attack``) with that many threads on copies of
    the board, sharing the cache: ``parallel="abdada"`` defers moves another
    thread is searching (see ``kernel/reading.py``), ``"shared-cache"`` is
    the baseline that never defers.  Answers equal the serial ones; node
    and cache counters are summed over the threads, ``thread_stats`` gives
    them per thread.  ``does_attack``/``does_defend`` read the move's
    reply serially.  A Reader is not itself safe to share between threads.
    """

    def __init__(
        self,
        level: int = 10,
        node_limit: int = 0,
        cache: ReadingCache | None = None,
        threads: int = 1,
        parallel: str = "abdada",
        share_plies: int = DEFAULT_SHARE_PLIES,
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
        self.ctx, self.mv, self.sc, self.pk = self._contexts[0]
        self.busy, self.flag = kr.new_shared()
        self._pool = None
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
            for ctx, _, _, _ in self._contexts:
                ctx[kr.C_DEPTH : kr.C_KODEPTH + 1] = depths
                ctx[kr.C_NODELIMIT] = self.node_limit
                ctx[kr.C_SETTINGS] = settings
            self.cache.for_size(position.size)
            self._prepared = key
        for ctx, _, _, _ in self._contexts:
            ctx[kr.C_LADDER] = 1 if ladder else 0
        self.cache.meta[kc.M_GEN] += 1

    def _sum(self, lo, hi=None):
        hi = lo + 1 if hi is None else hi
        return sum(ctx[lo:hi] for ctx, _, _, _ in self._contexts)

    @property
    def cache_counters(self) -> tuple[int, ...]:
        """(probes, hits, stores, replacements, collisions) counted by this reader."""
        return tuple(int(x) for x in self._sum(kr.C_STATS, kr.C_STATS + 5))

    def reset_cache_counters(self) -> None:
        """Zero the cache counters of every thread."""
        for ctx, _, _, _ in self._contexts:
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
        for ctx, _, _, _ in self._contexts:
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
            for t, (ctx, _, _, _) in enumerate(self._contexts)
        ]

    @property
    def aborted(self) -> bool:
        """True when the last query hit the node limit (its answer is a guess)."""
        return bool(self.ctx[kr.C_ABORTED])

    # --------------------------------------------------------- queries
    def _target(self, position, pt):
        pos = position.pos(pt)
        if pos == PASS or position.s[COLOR + pos] not in (BLACK, WHITE):
            raise ValueError("vertex must not be empty")
        return pos

    def _answer(self, position, packed):
        code, move = divmod(int(packed), kr.MOVE_SPAN)
        return GTP_CODE[code], (position.pt(move) if code and move != PASS else None)

    def _run(self, position, pt, attack, ladder=False):
        target = self._target(position, pt)
        self._prepare(position, ladder)
        if self.threads == 1:
            packed = kr.read_string(
                position.s,
                position.hw,
                position.keys,
                self.ctx,
                self.mv,
                self.sc,
                self.pk,
                self.cache.table,
                self.cache.meta,
                self.busy,
                self.flag,
                attack,
                target,
            )
            self.ctx[kr.C_LADDER] = 0
        else:
            packed = self._run_threads(position, target, attack)
        position._raise_if_hash_error("reading")
        return self._answer(position, packed)

    def _run_threads(self, position, target, attack):
        """Every thread reads the question from the root on its own copy of
        the board; the first to finish answers, the others stop."""
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self.busy = kab.new_table()
            self._pool = ThreadPoolExecutor(self.threads - 1, thread_name_prefix="gogame-read")
        self.busy[:] = 0
        self.flag[:] = 0
        share = self.share_plies if self.parallel == "abdada" else 0
        boards = [(position.s.copy(), position.hw.copy()) for _ in range(self.threads)]

        def one(t):
            ctx, mv, sc, pk = self._contexts[t]
            ctx[kr.C_PARALLEL], ctx[kr.C_THREAD], ctx[kr.C_SHARE] = 1, t, share
            s, hw = boards[t]
            return kr.read_string(
                s,
                hw,
                position.keys,
                ctx,
                mv,
                sc,
                pk,
                self.cache.table,
                self.cache.meta,
                self.busy,
                self.flag,
                attack,
                target,
            )

        futures = [self._pool.submit(one, t) for t in range(1, self.threads)]
        results = [one(0)] + [f.result() for f in futures]
        for t, (ctx, _, _, _) in enumerate(self._contexts):
            self.stopped_searches[t] += int(ctx[kr.C_STOPPED])
            ctx[kr.C_PARALLEL] = ctx[kr.C_SHARE] = ctx[kr.C_LADDER] = 0
        for s, _ in boards:
            if s[H_HASHERR]:
                position.s[H_HASHERR], position.s[H_HASHWHERE] = s[H_HASHERR], s[H_HASHWHERE]
        winner = int(self.flag[kab.F_WINNER])
        self.ctx[kr.C_ABORTED] = self._contexts[winner][0][kr.C_ABORTED]
        return results[winner]

    def attack(self, position: Position, pt: Vertex) -> Answer:
        """-> (code, move): can the string at ``pt`` be captured, attacker first?"""
        return self._run(position, pt, True)

    def find_defense(self, position: Position, pt: Vertex) -> Answer:
        """-> (code, move): can the string at ``pt`` be saved, owner first?"""
        return self._run(position, pt, False)

    def ladder_attack(self, position: Position, pt: Vertex) -> Answer:
        """-> (code, move): can the string be captured by a chase of ataris?"""
        return self._run(position, pt, True, ladder=True)

    def _after(self, position, pt, move, attack):
        target = self._target(position, pt)
        self._prepare(position)
        code = kr.read_after(
            position.s,
            position.hw,
            position.keys,
            self.ctx,
            self.mv,
            self.sc,
            self.pk,
            self.cache.table,
            self.cache.meta,
            self.busy,
            self.flag,
            attack,
            target,
            position.pos(move),
        )
        position._raise_if_hash_error("reading")
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
