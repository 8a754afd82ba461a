"""The move generator: UCT-RAVE Monte-Carlo search guarded by the tactical reader.

``Player.search(position, color, komi, last, seconds)`` grows a tree from
the position (``kernel.playout``), on ``Player.threads`` threads sharing
it, in chunks of playouts until the time is up,
``should_stop()`` says so, or the best move can no longer be overtaken; it
returns a ``SearchResult`` with the root moves (real visits and win rates,
prior visits excluded), the principal variations and the ownership counts.
``Player.genmove`` turns that into a decision:

* tactics first (``tactical_priors``): a few reader calls with a node limit
  bias the root: capture strings that can be captured, save own strings
  that can be saved, and do not extend strings that cannot be saved;
* the opening (``opening_priors``, 13x13 and up): in an empty area, moves
  on the first and second lines are discouraged, on the third and fourth
  encouraged, and in an empty corner the 4-4 and 3-4 points most, then
  the 3-3, 5-3 and 5-4 points;
* 3x3 patterns (``patterns``, on unless ``Player.patterns`` is False):
  weights learned from the project's recorded games (``play.patterns``)
  give every new tree node's moves ``PATTERN_PRIOR_VISITS`` prior visits
  at a win rate from their pattern, and the playouts answer the last move
  by pattern ``PATTERN_PLAYOUT_RATE`` per mille of the time (see
  ``kernel.playout``);
* after the search the most visited moves are checked in order
  (``guard``): a move that leaves a string of two or more stones in atari,
  or with two liberties and capturable by the reader, is skipped;
* pass when there is no move that is not an own eye, or, once every point
  (stones too) is settled in the ownership estimate, when the opponent has
  just passed and we win, or when the best move lies in our own area (no
  move gains); while a point is unsettled, never pass;
  in ``cleanup`` mode never pass while opponent stones we own remain;
* positional superko: ``forbid(pt)``, given by the session, names the moves
  that would repeat an earlier board; they are left out of the root (the
  tree below may still play them) and so are never chosen;
* resign only when the best win rate is below ``resign_rate`` after at least
  ``resign_playouts`` playouts, and not while the session's extra komi
  (a handicap game's ``dynamic_komi``, an even game's ``raise_bar``) is
  in force;
* progressive widening (``widening``, off by default): each node's
  children are sorted by prior win rate and a node chooses among the
  first ``kernel.playout.widened(n)`` of them after n real visits.

The tree is kept from search to search: when the position follows the
last search's root by one or two moves the tree holds (same komi, patterns
and widening), that node's subtree becomes the new tree (``_reroot``), its
visits counting in the new search's statistics.

Points are (row, col); a pass is None and a resignation the string
``"resign"``.  Not done: superko inside the tree.
(Pondering is the session's: ``Engine.ponder`` searches on the kept tree.)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from ..core.coords import Point
from ..kernel import board as kb
from ..kernel import playout as kp
from ..kernel.layout import COLOR, EMPTY, H_W, MAXPOS, NLIB, NSTONES, ORIGIN, PASS
from . import patterns as pat
from .scoring import Ownership

if TYPE_CHECKING:
    from ..core.position import Position, Vertex
    from ..core.reader import Reader

Priors = dict[int, tuple[float, float]]  # kernel point -> (visits, win rate)

DEFAULT_MOVE_SECONDS = 1.0
RESIGN_RATE = 0.05
KOMI_PER_STONE = 7.0  # dynamic komi: points a handicap stone is worth at first
KOMI_MOVES_19 = 200  # ... falling to none by this move on 19x19 (by area elsewhere)
BAR_HIGH, BAR_LOW = 0.6, 0.5  # situational komi: raise the bar above, lower it below
BAR_MAX_19 = 12.0  # ... up to this many points on 19x19 (by area elsewhere)
TACTIC_CALLS = 8  # reader questions per move at most
TACTIC_NODES = 3000  # node limit of each
URGENT_MARGIN = 0.05  # win rate an urgent capture or save may give up
PATTERN_PRIOR_VISITS = 10  # prior visits of a new child from its 3x3 pattern
PATTERN_PLAYOUT_RATE = 800  # per mille of playout moves first tried by pattern
FULL = 0.85  # share of the tree's capacity that makes room (``_make_room``)


_NO_PATTERNS = np.ones(1, np.float32)


@dataclass
class RootMove:
    """One root move: real visits, win rate and principal variation."""

    move: Point | None
    visits: int
    winrate: float  # for the colour to move at the root
    pv: list[Point | None] = field(default_factory=list)
    weight: float = 0.0  # visits with the prior's: the order of choice


@dataclass
class SearchResult:
    """What one search found (see ``Player.search``)."""

    color: int
    playouts: int
    seconds: float
    moves: list[RootMove]  # most visited (prior visits included) first
    own_black: np.ndarray  # share of playouts each kernel point ended black
    own_white: np.ndarray
    size: int

    @property
    def best(self) -> RootMove | None:
        """The first root move, None without moves."""
        return self.moves[0] if self.moves else None

    @property
    def winrate(self) -> float:
        """The best move's win rate (0.5 without moves)."""
        return self.moves[0].winrate if self.moves else 0.5


@dataclass
class Decision:
    """A move chosen by ``Player.genmove``, why, and the search behind it."""

    move: Point | str | None  # (row, col), None for pass, or "resign"
    reason: str
    result: SearchResult | None = None


class Player:
    """The search tree and each thread's work arrays, kept from move to move."""

    def __init__(
        self,
        capacity: int = 600_000,
        seed: int | None = None,
        patterns: bool = True,
        threads: int = 1,
        widening: bool = False,
    ) -> None:
        self.patterns = patterns  # 3x3 pattern priors and playout moves
        self.widening = widening  # progressive widening (``kernel.playout.widened``)
        self.links, self.stats, self.meta = kp.new_tree(capacity)
        self._workers = [_Worker()]
        self._pool: ThreadPoolExecutor | None = None
        self.threads = threads
        self.reuse = True  # grow on the kept subtree of the moves played (``_reroot``)
        self._kept: tuple | None = None
        self.seed = seed
        self.resign_rate = RESIGN_RATE
        if seed is not None:
            kp.seed(int(seed))

    # ---------------------------------------------------------- search
    def _reset(self, size, color, last, tree):
        """A new tree (just the root) for ``color`` to move after ``last``."""
        self._kept = None
        self.links[0] = (PASS, -1, 0)
        self.stats[0] = 0
        self.meta[kp.M_NODES] = 1
        self._start(size, color, last, tree)

    def _start(self, size, color, last, tree):
        """The search's scalars, on a new tree or a kept one."""
        nodes = self.meta[kp.M_NODES]
        self.meta[:] = 0
        self.meta[kp.M_NODES] = nodes
        self.meta[kp.M_COLOR] = color
        self.meta[kp.M_LAST] = last
        self.meta[kp.M_EXPAND] = (2 if size <= 13 else 3) if tree else 1 << 40
        self.meta[kp.M_MAXMOVES] = 3 * size * size
        self.meta[kp.M_PAT_PRIOR] = PATTERN_PRIOR_VISITS if self.patterns else 0
        self.meta[kp.M_PAT_PLAYOUT] = PATTERN_PLAYOUT_RATE if self.patterns else 0
        self.meta[kp.M_WIDEN] = 1 if self.widening else 0
        for worker in self._workers:
            worker.own[:] = 0

    def _keep(self, position, komi):
        """Remember the root of the tree just grown (``_reroot`` reads it)."""
        self._kept = (position.size, list(position.history), float(komi), self._shape())

    def _shape(self):
        """What a kept tree must share with the next search: its priors and order."""
        return (self.patterns, self.widening)

    def _reroot(self, position, color, komi, last):
        """Make the kept tree's node for ``position`` the root, when the
        position follows the kept root by one or two moves that the tree
        holds, with the same komi, patterns and widening; False (nothing
        changed) otherwise.  The root itself is not reused: it got root priors."""
        if self._kept is None or not self.reuse:
            return False
        size, history, kept_komi, shape = self._kept
        extra = position.history[len(history) :]
        if (
            (size, kept_komi, shape) != (position.size, float(komi), self._shape())
            or not 1 <= len(extra) <= 2
            or position.history[: len(history)] != history
        ):
            return False
        node, mover = 0, int(self.meta[kp.M_COLOR])
        for ev in extra:
            if ev[0] != "move" or ev[2] != mover:
                return False
            node = self._child(node, int(ev[1]))
            if node < 0:
                return False
            mover = 3 - mover
        if mover != color:
            return False
        self._graft(node)
        self._start(size, color, last, True)
        self._keep(position, komi)
        return True

    def _child(self, node, move):
        """The child of ``node`` for ``move``, or -1."""
        for c in self._children(node):
            if int(self.links[c, 0]) == move:
                return c
        return -1

    def _graft(self, node, min_visits=0.0):
        """Move ``node``'s subtree to the front of the arrays, as the root,
        dropping the children of nodes below it with fewer than
        ``min_visits`` visits (``kernel.playout.copy_subtree``)."""
        used = int(self.meta[kp.M_NODES])
        stack = np.empty(used, np.int32)
        n = kp.subtree_size(self.links, self.stats, node, stack, min_visits)
        links, stats = np.empty((n, 3), np.int32), np.empty((n, 6), np.float64)
        kp.copy_subtree(self.links, self.stats, node, links, stats, stack, min_visits)
        self.links[:n] = links
        self.stats[:n] = stats
        self.links[0, 0] = PASS
        self.meta[kp.M_NODES] = n

    def _make_room(self):
        """When the tree is over ``FULL`` of its capacity, drop the children
        of the least visited nodes until it is at most half full: their
        statistics are lost and they grow again when visited.  The root's
        children are always kept."""
        cap = self.links.shape[0]
        if self.meta[kp.M_NODES] <= FULL * cap:
            return
        used = int(self.meta[kp.M_NODES])
        stack = np.empty(used, np.int32)
        t = float(self.meta[kp.M_EXPAND]) + 1.0
        while kp.subtree_size(self.links, self.stats, 0, stack, t) > cap // 2:
            t *= 2.0
        self._graft(0, t)

    @property
    def threads(self) -> int:
        """Search threads: one tree, shared (``kernel.playout.search``)."""
        return len(self._workers)

    @threads.setter
    def threads(self, n: int) -> None:
        n = max(1, int(n))
        if n == len(self._workers):
            return
        del self._workers[n:]
        self._workers += [_Worker() for _ in range(n - len(self._workers))]
        if self._pool is not None:
            self._pool.shutdown(wait=False)
            self._pool = None

    @property
    def own(self) -> np.ndarray:
        """Owner counts of the playouts so far, summed over the threads."""
        own = self._workers[0].own
        for worker in self._workers[1:]:
            own = own + worker.own
        return own

    def _run(self, position, komi, n):
        """``n`` iterations on each thread, on the one shared tree; the
        first thread is the caller's (so ``seed`` holds with one thread)."""
        args = (position, float(komi), int(n), self._pattern_table())
        if self.threads == 1:
            self._workers[0].run(self, *args)
            return
        if self._pool is None:
            self._pool = ThreadPoolExecutor(self.threads - 1, thread_name_prefix="gogame-search")
        jobs = [self._pool.submit(w.run, self, *args) for w in self._workers[1:]]
        self._workers[0].run(self, *args)
        for job in jobs:
            job.result()

    def _pattern_table(self):
        """The kernel's pattern weights (``play.patterns.table``), or a
        one-entry stand-in the kernel never reads with patterns off."""
        return pat.table() if self.patterns else _NO_PATTERNS

    def search(
        self,
        position: Position,
        color: int,
        komi: float,
        last: Vertex = None,
        seconds: float = DEFAULT_MOVE_SECONDS,
        should_stop: Callable[[], bool] | None = None,
        priors: Priors | None = None,
        max_playouts: int | None = None,
        progress: Callable[[SearchResult], object] | None = None,
        progress_every: float | None = None,
        decide: bool = True,
        forbid: Callable[[Point], bool] | None = None,
    ) -> SearchResult:
        """Grow a tree for ``color`` to move; see the module docstring.

        ``forbid(pt)`` True leaves the root move ``pt`` out (superko);
        ``priors``: {kernel point: (visits, win rate)} added to root moves;
        ``progress(result)`` is called every ``progress_every`` seconds;
        ``decide`` stops early once the best move cannot be overtaken."""
        size = position.size
        last_pos = position.pos(last) if last is not None else PASS
        if not self._reroot(position, color, komi, last_pos):  # it keeps the new root
            self._reset(size, color, last_pos, True)
            self._keep(position, komi)
        if self.links[0, 1] < 0:
            kp.expand(
                position.s,
                self.links,
                self.stats,
                self.meta,
                0,
                color,
                self._pattern_table(),
                last_pos,
            )
        if forbid is not None:
            self._prune_root(position, forbid)
        self._add_priors(priors or {})
        if self.widening:
            self._prior_order_root(position, last_pos)
        chunk = 256 if size <= 9 else 96 if size <= 13 else 48
        start = time.perf_counter()
        next_progress = start + (progress_every or 0)
        while self.links[0, 2] > 0:
            self._run(position, komi, chunk)
            self._make_room()
            now = time.perf_counter()
            done = int(self.meta[kp.M_ITER])
            if max_playouts is not None and done >= max_playouts:
                break
            if now - start >= seconds or (should_stop is not None and should_stop()):
                break
            if progress is not None and now >= next_progress:
                progress(self.result(position, now - start))
                next_progress = now + (progress_every or 0)
            if decide and max_playouts is None and self._decided(done, (now - start) / seconds):
                break
        return self.result(position, time.perf_counter() - start)

    def _decided(self, done, used):
        """True when the most visited move cannot be overtaken in the time left."""
        if used < 0.25:
            return False
        n = self._real_visits()
        if n.size < 2:
            return n.size == 1 and used > 0.05
        top = np.partition(n, -2)[-2:]
        left = done * (1.0 - used) / max(used, 1e-9)
        return top[1] - top[0] > left

    def _children(self, node=0):
        first, k = int(self.links[node, 1]), int(self.links[node, 2])
        return range(first, first + k) if first >= 0 else range(0)

    def _real_visits(self, node=0):
        kids = self._children(node)
        if not kids:
            return np.zeros(0)
        st = self.stats[kids.start : kids.stop]
        return st[:, kp.S_N] - st[:, kp.S_PN]

    def _prune_root(self, position, forbid):
        """Drop the root's children whose move ``forbid`` rejects.  The kept
        ones move up (their subtrees stay where they are); the rows freed at
        the end are not reused."""
        kids = self._children(0)
        keep = [c for c in kids if not forbid(position.pt(int(self.links[c, 0])))]
        if len(keep) == len(kids):
            return
        first = kids.start
        self.links[first : first + len(keep)] = self.links[keep]
        self.stats[first : first + len(keep)] = self.stats[keep]
        self.links[0, 2] = len(keep)

    def _add_priors(self, priors):
        for c in self._children(0):
            extra = priors.get(int(self.links[c, 0]))
            if extra is not None:
                n, q = extra
                self.stats[c, kp.S_N] += n
                self.stats[c, kp.S_W] += n * q
                self.stats[c, kp.S_PN] += n
                self.stats[c, kp.S_PW] += n * q

    def _prior_order_root(self, position, last):
        """Sort the root's children into ``kernel.playout.prior_order`` once
        the root priors are in (their rows move, their subtrees stay)."""
        kids = self._children(0)
        if len(kids) > 1:
            w = int(position.s[H_W])
            kp.prior_order(self.links, self.stats, kids.start, len(kids), last, w)

    def result(self, position: Position, seconds: float) -> SearchResult:
        """The root moves (most real visits first), PVs and ownership."""
        moves = []
        for c in self._children(0):
            st = self.stats[c]
            n = st[kp.S_N] - st[kp.S_PN]
            if n <= 0:
                continue
            wins = st[kp.S_W] - st[kp.S_PW]
            moves.append(
                RootMove(
                    position.pt(int(self.links[c, 0])),
                    int(n),
                    wins / n,
                    self._pv(position, c),
                    float(st[kp.S_N]),
                )
            )
        moves.sort(key=lambda m: (-m.weight, -m.winrate))
        done = max(1, int(self.meta[kp.M_ITER]))
        own = self.own
        return SearchResult(
            int(self.meta[kp.M_COLOR]),
            int(self.meta[kp.M_ITER]),
            seconds,
            moves,
            own[0] / done,
            own[1] / done,
            position.size,
        )

    def _pv(self, position, node, longest=12):
        pv = [position.pt(int(self.links[node, 0]))]
        while len(pv) < longest:
            kids = self._children(node)
            if not kids:
                break
            real = self._real_visits(node)
            k = int(np.argmax(real))
            if real[k] < 2:
                break
            node = kids.start + k
            pv.append(position.pt(int(self.links[node, 0])))
        return pv

    def ownership(
        self,
        position: Position,
        color: int,
        komi: float,
        playouts: int,
        seconds: float | None = None,
    ) -> tuple[np.ndarray, np.ndarray]:
        """Plain playouts (no tree) from the position, ``playouts`` of them
        or as many as ``seconds`` allow: (black share, white share) per
        kernel point."""
        self._reset(position.size, color, PASS, False)
        start = time.perf_counter()
        while self.meta[kp.M_ITER] < playouts:
            self._run(position, komi, min(64, playouts - int(self.meta[kp.M_ITER])))
            if seconds is not None and time.perf_counter() - start >= seconds:
                break
        done = max(1, int(self.meta[kp.M_ITER]))
        own = self.own
        return own[0] / done, own[1] / done

    # ---------------------------------------------------------- decide
    def genmove(
        self,
        position: Position,
        color: int,
        komi: float,
        seconds: float = DEFAULT_MOVE_SECONDS,
        reader: Reader | None = None,
        should_stop: Callable[[], bool] | None = None,
        cleanup: bool = False,
        opponent_passed: bool = False,
        last: Vertex = None,
        max_playouts: int | None = None,
        forbid: Callable[[Point], bool] | None = None,
        progress: Callable[[SearchResult], object] | None = None,
        progress_every: float | None = None,
        extra_komi: float = 0.0,
    ) -> Decision:
        """A ``Decision`` for ``color`` (see the module docstring);
        ``forbid``: the moves that superko forbids, ``progress`` and
        ``progress_every``: as for ``search``; ``extra_komi``: added to
        ``komi`` for the search only (``dynamic_komi``), and no resignation
        while it is not 0."""
        if not any_move(position, color):
            return Decision(None, "no move but own eyes")
        urgent = []
        priors = tactical_priors(position, color, reader, urgent=urgent) if reader else {}
        for p, prior in opening_priors(position).items():
            priors.setdefault(p, prior)  # the tactics' come first
        res = self.search(
            position,
            color,
            komi + extra_komi,
            last,
            seconds,
            should_stop,
            priors,
            max_playouts,
            forbid=forbid,
            progress=progress,
            progress_every=progress_every,
        )
        if not res.moves:
            return Decision(None, "no move", res)
        min_playouts = 1500 if position.size <= 9 else 800
        if (
            not cleanup
            and extra_komi == 0.0
            and res.winrate < self.resign_rate
            and res.playouts >= min_playouts
            and len(position.moves()) >= position.size
        ):
            return Decision("resign", f"win rate {res.winrate:.3f}", res)
        own = Ownership(position, res.own_black, res.own_white)
        dead_opponents = own.dead_stones(3 - color)
        if not (cleanup and dead_opponents) and own.settled():
            if opponent_passed and own.margin(komi, color) > 0:
                return Decision(None, "opponent passed and we lead", res)
            if own.owner(res.best.move) == color:
                return Decision(None, "no move gains", res)
        move = self._guarded_choice(position, color, res, reader, urgent)
        return Decision(move, "search", res)

    def _guarded_choice(self, position, color, res, reader, urgent=()):
        """The first of the most visited moves that passes ``guard``; an
        urgent tactical move (a capture or save of 2+ stones the reader
        found) is preferred while its win rate is within URGENT_MARGIN of
        the best's, plus two standard errors of its own (few visits measure
        a win rate loosely: a capture in a won game was dropped for one)."""
        by_move = {m.move: m for m in res.moves}
        for pt in urgent:
            m = by_move.get(position.pt(pt))
            if (
                m is not None
                and m.visits >= 10
                and m.winrate >= res.winrate - URGENT_MARGIN - 2 * _std_error(m)
                and guard(position, color, m.move, reader)
            ):
                return m.move
        for m in res.moves[:4]:
            if guard(position, color, m.move, reader):
                return m.move
        return res.moves[0].move


class _Worker:
    """One searching thread's own arrays: the work state, the playout's
    sequences and lists, its path through the tree and its owner counts."""

    def __init__(self) -> None:
        self.scratch = kp.new_scratch()
        self.path = np.zeros(1024, np.int32)
        self.own = np.zeros((3, MAXPOS), np.int64)

    def run(self, player: Player, position: Position, komi: float, n: int, pat) -> None:
        sc = self.scratch
        kp.search(
            position.s,
            position.hw,
            position.keys,
            player.links,
            player.stats,
            player.meta,
            komi,
            n,
            self.own,
            sc[0],
            sc[1],
            sc[2],
            sc[3],
            sc[4],
            sc[5],
            sc[6],
            self.path,
            pat,
        )


def dynamic_komi(size: int, handicap: int, moves: int) -> float:
    """Komi to add for the search in a handicap game (Pachi's linear dynamic
    komi, Baudis 2011): ``KOMI_PER_STONE`` a handicap stone at the first
    move, falling linearly to 0 by move ``KOMI_MOVES_19`` on 19x19 (in
    proportion to the area on other sizes); 0 without handicap.  In White's
    favour whoever plays: White, behind by the stones, is not driven to
    despair by win rates near 0, and Black, ahead, not to slack moves by
    win rates near 1.  Whole points, so that the kept tree (same komi
    only) survives most moves.  The result and the pass decisions keep the
    real komi."""
    if handicap < 2:
        return 0.0
    horizon = KOMI_MOVES_19 * size * size / 361
    return float(math.floor(KOMI_PER_STONE * handicap * max(0.0, 1.0 - moves / horizon)))


def raise_bar(bar: float, winrate: float, size: int) -> float:
    """The points an even game's search next asks of its own side
    (situational dynamic komi, after Baudis 2011): one more after a search
    whose win rate was above ``BAR_HIGH``, one less below ``BAR_LOW``,
    within 0 .. ``BAR_MAX_19`` (by area below 19x19).  Never below 0: the
    search never gives itself points the real komi does not.  A player
    that thinks itself ahead by noise plays for a real lead instead of
    coasting; the result, the passes and the resignation keep the real
    komi."""
    top = math.floor(BAR_MAX_19 * size * size / 361)
    if winrate > BAR_HIGH:
        return float(min(bar + 1.0, top))
    if winrate < BAR_LOW:
        return float(max(bar - 1.0, 0.0))
    return float(bar)


def _std_error(m: RootMove) -> float:
    """The standard error of a root move's win rate over its visits."""
    q = min(max(m.winrate, 0.0), 1.0)
    return math.sqrt(q * (1.0 - q) / max(m.visits, 1))


# ---------------------------------------------------------------- tactics
def any_move(position: Position, color: int) -> bool:
    """Is there a legal move for ``color`` that does not fill an own eye?"""
    s = position.s
    for row in range(position.size):
        for col in range(position.size):
            p = position.pos((row, col))
            if s[COLOR + p] == EMPTY and kb.is_legal(s, p, color) and not kp.is_eye(s, p, color):
                return True
    return False


def _strings(position, maxlibs):
    """(origin, colour, stones, liberties) of strings with <= maxlibs liberties."""
    s = position.s
    res = []
    for p in position.weak_strings(maxlibs):
        o = int(s[ORIGIN + p])
        res.append((p, int(s[COLOR + p]), int(s[NSTONES + o]), int(s[NLIB + o])))
    return res


def tactical_priors(
    position: Position,
    color: int,
    reader: Reader,
    calls: int = TACTIC_CALLS,
    nodes: int = TACTIC_NODES,
    urgent: list[int] | None = None,
) -> Priors:
    """{kernel point: (visits, win rate)} from a few reading questions:
    own strings in atari or with two liberties that can be captured (save
    them, or stop extending them when they cannot be saved), and opponent
    strings with one or two liberties that can be captured.  ``urgent``, a
    list, gets the captures of opponent strings of 2+ stones in atari and
    the saves of own strings of 2+ stones in atari.  Strings are taken
    fewest liberties, then most stones first, while the questions stay
    within ``calls`` (two for an own string: its attack and its defence);
    their attacks are one batch (``Reader.read_many``: on all the reader's
    threads), then the defences of the own ones that can be captured."""
    strings = sorted(_strings(position, 2), key=lambda t: (t[3], -t[2]))
    # own strings worth saving, and every opponent string: attacked first,
    # as one batch; then the own ones that can be captured, defended
    asked, cost = [], 0
    for t in strings:
        if t[1] == color and t[3] > 1 and t[2] < 2:
            continue  # a lone own stone with two liberties: not worth a question
        if cost >= calls:
            break
        asked.append(t)
        cost += 2 if t[1] == color else 1  # an own string may need its defence too
    old_limit = reader.node_limit
    reader.node_limit = nodes
    try:
        attacks = reader.read_many(position, [("attack", position.pt(t[0])) for t in asked])
        weak = [t for t, a in zip(asked, attacks, strict=True) if t[1] == color and a[0]]
        defences = reader.read_many(position, [("defend", position.pt(t[0])) for t in weak])
    finally:
        reader.node_limit = old_limit
    priors = {}
    saved = dict(zip((t[0] for t in weak), defences, strict=True))
    for (p, c, stones, libs), (code, move) in zip(asked, attacks, strict=True):
        if c == color and p in saved:
            dcode, dmove = saved[p]
            if dcode and dmove is not None:
                priors[position.pos(dmove)] = (20.0 + 5 * stones, 0.8)
                if urgent is not None and libs == 1 and stones >= 2:
                    urgent.append(position.pos(dmove))
            elif libs == 1:
                for lib in position.findlib(position.pt(p)):
                    priors.setdefault(position.pos(lib), (30.0, 0.1))
        elif c != color and code == 1 and move is not None:
            priors[position.pos(move)] = (
                (40.0 + 10 * stones, 0.85) if libs == 1 else (15.0 + 5 * stones, 0.75)
            )
            if urgent is not None and libs == 1 and stones >= 2:
                urgent.append(position.pos(move))
    return priors


OPENING_MIN_SIZE = 13  # smaller boards have no open corners to speak of
OPENING_RADIUS = 3  # a point is in an empty area with no stone this near (Chebyshev)
# (visits, win rate) for a move in an empty area, by line (1: the edge)
OPENING_PRIORS = {1: (30.0, 0.1), 2: (20.0, 0.2), 3: (10.0, 0.65), 4: (10.0, 0.65)}
# (visits, win rate) for the points of an empty corner, by their two lines
# (from the nearer edge first): the 4-4 and 3-4 points, then the 3-3 and
# the 5-3 and 5-4 points; a corner is empty while its square of
# ``corner_span`` lines holds no stone
CORNER_PRIORS = {
    (4, 4): (40.0, 0.75),
    (3, 4): (40.0, 0.75),
    (3, 3): (20.0, 0.7),
    (3, 5): (20.0, 0.7),
    (4, 5): (15.0, 0.7),
}


def opening_priors(position: Position) -> Priors:
    """{kernel point: (visits, win rate)} for the empty points of an empty
    area (no stone within ``OPENING_RADIUS``) on boards of 13 or more: the
    first and second lines discouraged, the third and fourth (the 3-4 and
    4-4 points and the extensions between them) encouraged.  Nothing on
    smaller boards or near stones, where the tactics and the playouts
    decide."""
    n = position.size
    if n < OPENING_MIN_SIZE:
        return {}
    grid = np.array(
        [[position.color_at((r, c)) != 0 for c in range(n)] for r in range(n)], dtype=np.int32
    )
    k = OPENING_RADIUS
    padded = np.pad(grid, k)
    near = sum(
        padded[dr : dr + n, dc : dc + n] for dr in range(2 * k + 1) for dc in range(2 * k + 1)
    )
    out = {}
    for r in range(n):
        for c in range(n):
            line = min(edge_lines(n, (r, c)))
            if near[r, c] == 0 and line in OPENING_PRIORS:
                out[position.pos((r, c))] = OPENING_PRIORS[line]
    out.update(_corner_priors(position, grid))
    return out


def edge_lines(size: int, pt: Point) -> tuple[int, int]:
    """The lines of ``pt`` counted from the nearer edge of its row and of
    its column (1 on the edge): (3, 4) for a 3-4 point."""
    row, col = pt
    return min(row, size - 1 - row) + 1, min(col, size - 1 - col) + 1


def corner_span(size: int) -> int:
    """The lines of a corner's square: 6 on 19x19 and up, 5 below."""
    return 6 if size >= 19 else 5


def _corner_priors(position: Position, grid: np.ndarray) -> Priors:
    """``CORNER_PRIORS`` for the points of each corner whose square holds
    no stone (``grid``: 1 where a stone is): the corners are taken first,
    as players do.  Says nothing of which corner point is best."""
    n, k = position.size, corner_span(position.size)
    out = {}
    for rows in (range(k), range(n - k, n)):
        for cols in (range(k), range(n - k, n)):
            if grid[rows.start : rows.stop, cols.start : cols.stop].any():
                continue
            for r in rows:
                for c in cols:
                    prior = CORNER_PRIORS.get(tuple(sorted(edge_lines(n, (r, c)))))
                    if prior is not None:
                        out[position.pos((r, c))] = prior
    return out


def guard(
    position: Position,
    color: int,
    pt: Point | None,
    reader: Reader | None = None,
    nodes: int = TACTIC_NODES,
) -> bool:
    """False for a move that puts its own string of two or more stones in
    atari, or leaves it with two liberties where the reader captures it."""
    if pt is None:
        return True
    s = position.s
    p = position.pos(pt)
    if not kp.has_friend(s, p, color):
        return True
    captures = kp.captures_any(s, p, color)
    libs = kp.libs_after(s, p, color)
    if libs >= 3 or captures:
        return True
    if libs <= 1:
        return False
    if reader is None:
        return True
    if not position.trymove(pt, color):
        return False
    old_limit = reader.node_limit
    reader.node_limit = nodes
    try:
        code, _ = reader.attack(position, pt)
    finally:
        reader.node_limit = old_limit
        position.popgo()
    return code != 1


def warm_up() -> None:
    """Load every compiled kernel a genmove uses but the reader's (compile
    them the first time): a tiny genmove on a 9x9 board of its own, a
    second one on the tree kept from it, the guard's checks beside an own
    stone, and the superko check's trymove.
    The reader has its own (``core.reader.warm_up``).  A cold ``gogame
    gtp`` that loads the reader behind a genmove relies on it: a kernel
    first called then would wait for the reader's compile."""
    from ..core.position import Position

    position = Position(9)
    position.play("E5", "b")
    position.play("E6", "w")
    player = Player(capacity=2000)
    player.genmove(position, 1, 7.0, seconds=0.0, max_playouts=1)
    player._graft(0)  # subtree_size and copy_subtree
    guard(position, 1, (4, 3), None)  # D5, beside E5
    if position.trymove((3, 3), 1):
        position.popgo()
