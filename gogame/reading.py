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
from .cache import ReadingCache
from .kernel import reading as kr
from .kernel.layout import BLACK, COLOR, PASS, WHITE

GTP_CODE = {0: 0, kr.WIN: 1, kr.KO_A: 2, kr.KO_B: 3}


class Reader:
    """Reading settings, counters and scratch space for one thread."""

    def __init__(self, level=10, node_limit=0, cache=None):
        self.ctx, self.mv, self.sc, self.pk = kr.new_context()
        self.level = level
        self.depth_offset = 0
        self.node_limit = node_limit
        self.cache = cache if cache is not None else ReadingCache(0)

    # -------------------------------------------------------- settings
    def _depth_shift(self):
        """How far all depths move from level 10's, clipped to -32..63 (below
        -32 every depth is 0 already)."""
        return min(63, max(-32, self.depth_offset - max(0, 10 - self.level)))

    @property
    def depths(self):
        """(depth, branch, backfill, backfill2, break_chain, superstring,
        fourlib, ko) in effect."""
        shift = self._depth_shift()
        return tuple(max(0, d + shift) for d in kr.DEFAULT_DEPTHS)

    def _prepare(self, position):
        self.ctx[kr.C_DEPTH:kr.C_KODEPTH + 1] = self.depths
        self.ctx[kr.C_NODELIMIT] = self.node_limit
        self.ctx[kr.C_SETTINGS] = self._depth_shift() + 32   # the depths follow from it
        self.cache.for_size(position.size)

    @property
    def cache_counters(self):
        """(probes, hits, stores, replacements, collisions) counted by this reader."""
        return tuple(int(x) for x in self.ctx[kr.C_STATS:kr.C_STATS + 5])

    def reset_cache_counters(self):
        self.ctx[kr.C_STATS:kr.C_STATS + 5] = 0

    def cache_stats(self):
        return self.cache.stats(self.cache_counters)

    @property
    def nodes(self):
        return int(self.ctx[kr.C_NODES])

    @nodes.setter
    def nodes(self, value):
        self.ctx[kr.C_NODES] = value

    @property
    def trymoves(self):
        return int(self.ctx[kr.C_TRYMOVES])

    @trymoves.setter
    def trymoves(self, value):
        self.ctx[kr.C_TRYMOVES] = value

    @property
    def aborted(self):
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
        self._prepare(position)
        self.ctx[kr.C_LADDER] = 1 if ladder else 0
        packed = kr.read_string(position.s, position.hw, position.keys, self.ctx, self.mv,
                                self.sc, self.pk, self.cache.table, self.cache.meta,
                                attack, target)
        self.ctx[kr.C_LADDER] = 0
        position._raise_if_hash_error("reading")
        return self._answer(position, packed)

    def attack(self, position, pt):
        """-> (code, move): can the string at ``pt`` be captured, attacker first?"""
        return self._run(position, pt, True)

    def find_defense(self, position, pt):
        """-> (code, move): can the string at ``pt`` be saved, owner first?"""
        return self._run(position, pt, False)

    def ladder_attack(self, position, pt):
        """-> (code, move): can the string be captured by a chase of ataris?"""
        return self._run(position, pt, True, ladder=True)

    def _after(self, position, pt, move, attack):
        target = self._target(position, pt)
        self._prepare(position)
        code = kr.read_after(position.s, position.hw, position.keys, self.ctx, self.mv,
                             self.sc, self.pk, self.cache.table, self.cache.meta,
                             attack, target, position.pos(move))
        position._raise_if_hash_error("reading")
        return GTP_CODE[int(code)]

    def does_attack(self, position, pt, move):
        """-> code: does the attacker's ``move`` capture the string?  0 when the
        string is dead already (no defence), as GNU Go answers."""
        if self.find_defense(position, pt)[0] == 0:
            return 0
        return self._after(position, pt, move, True)

    def does_defend(self, position, pt, move):
        """-> code: does the owner's ``move`` save the string?  0 when the
        string needs no defence (it cannot be attacked), as GNU Go answers."""
        if self.attack(position, pt)[0] == 0:
            return 0
        return self._after(position, pt, move, False)
