"""The proving capture solver for Python callers: ``Prover``.

Unlike ``Reader``, whose answers are heuristic, every ``proven`` answer of
a ``Prover`` is a proof under the ko model stated in ``docs/prover.md``;
when no proof is found within the node budget the answer is ``unknown``.

Codes (GNU Go's numbers, defined by the model each is proven under):

* ``attack`` (attacker to move): 1 -- captures even if the defender may
  retake any ko at once and the attacker never may; 2 -- captures when
  neither side may retake a ko at once (simple ko rule, no ko threats);
  3 -- captures when the attacker may retake any ko at once and the
  defender may not; 0 -- never captured: pass-alive, or safe in the escape
  game (the attacker, though it may retake every ko at once, can never
  take the string before it has ``escape_libs`` liberties with the
  attacker to move; ``kernel.safety``).  The code given is the strongest
  one proven; a weaker one is not proven false.
* ``defend`` (owner to move): 1 -- a move (or none, PASS) after which the
  string is pass-alive or safe in the escape game; 2 -- safe in it when
  neither side may retake a ko at once; 3 -- safe when the owner may
  retake any ko at once (a one-stone string taken by a ko too) and the
  attacker may not; 0 -- every legal move, a
  pass included, loses the string even if the owner may retake any ko at
  once (``model`` 0; with ``model`` 1 when neither side may, 2 when only
  the attacker may).  As for ``attack``, the code is the strongest proven.

The position is unchanged after every call (the kernel plays through
trymove/popgo); the table (``table_mb``) belongs to the prover alone and is
kept between questions (its entries are keyed by position, question and
ko model, so old entries stay true).
"""

from __future__ import annotations

import functools
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..kernel import benson as kb
from ..kernel import prover as kp
from ..kernel import safety as ks
from .coords import Point
from .reader import Reader
from .reading_cache import ReadingCache

if TYPE_CHECKING:
    from .position import Position, Vertex

PROVEN, UNKNOWN = "proven", "unknown"
# the ko models, in the order their codes are tried by attack
ATTACK_MODELS = ((0, 1), (1, 2), (2, 3))
# the escape game's ko models for defend, in the order their codes are tried
SAFE_MODELS = ((2, 1), (1, 2), (0, 3))
ENTRY_BYTES = 24
GUIDE_NODES = 2_000  # reading nodes for each guide question (0: none)
GUIDE_MB = 4  # the guide reader's cache
# the escape game's defender asks the guide with all GUIDE_NODES this near
# the root, with half as many at each ply deeper (kernel.safety.guide_limit;
# -1: never)
ESCAPE_GUIDE_PLIES = 2


@dataclass
class ProofResult:
    """One answer: ``status`` "proven" or "unknown"; ``code`` 0..3 (None when
    unknown); ``move`` (row, col) or None; ``nodes`` searched; ``line``, the
    principal line from the first move (alternating sides), as far as the
    search recorded it; ``seconds`` of wall time."""

    status: str
    code: int | None = None
    move: Point | None = None
    nodes: int = 0
    line: list[Point | None] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def proven(self) -> bool:
        return self.status == PROVEN


class Prover:
    """Proofs of capture questions within ``max_nodes`` moves played per
    question, lambda orders up to ``max_order``, lines at most ``max_depth``
    plies long, tables of ``table_mb`` megabytes in all, and the escape
    game won at ``escape_libs`` liberties (5: GNU Go's reader attacks
    strings of at most four)."""

    def __init__(
        self,
        table_mb: float = 16,
        max_nodes: int = 500_000,
        max_order: int = 3,
        max_depth: int = 100,
        escape_libs: int = 5,
        guide_nodes: int = GUIDE_NODES,
    ) -> None:
        if not 0 <= max_order <= kp.MAX_ORDER:
            raise ValueError(f"max_order must be 0..{kp.MAX_ORDER}")
        if not 1 <= max_depth <= kp.MAX_CAP:
            raise ValueError(f"max_depth must be 1..{kp.MAX_CAP}")
        if max_nodes < 1:
            raise ValueError("max_nodes must be positive")
        if not 2 <= escape_libs <= kp.MAXLIBS:
            raise ValueError(f"escape_libs must be 2..{kp.MAXLIBS}")
        # a quarter of the bytes each: the capture search's table and the
        # ring of its proofs' zones (MAXPOS bytes each), the escape game's
        # table and the ring of its zones
        entries = 1
        while entries * 2 * 4 * ENTRY_BYTES <= table_mb * 2**20:
            entries *= 2
        zones = max(64, int(table_mb * 2**20 / 4 / kp.MAXPOS))
        self.max_nodes = int(max_nodes)
        self.max_order = int(max_order)
        self.max_depth = int(max_depth)
        self.escape_libs = int(escape_libs)
        context = kp.new_context(entries, zones)
        self.ctx, self.tt, self.mv, self.pv, self.mark, self.sc = context[:6]
        self.zone, self.pool, self.ptag = context[6:]
        self.safety = ks.new_context(entries, zones)
        self.guide_nodes = int(guide_nodes)
        self.escape_guide_plies = ESCAPE_GUIDE_PLIES
        # the fast reader that orders the proofs' first tries (``kp.guide``)
        self._guide = Reader(cache=ReadingCache(GUIDE_MB))

    @property
    def table_entries(self) -> int:
        return int(self.tt.shape[0])

    def clear(self) -> None:
        """Empty the tables."""
        self.tt[:] = 0
        self.ptag[:] = 0
        self.safety[1][:] = 0

    # ------------------------------------------------------------ queries
    def attack(
        self, position: Position, vertex: Vertex, max_nodes: int | None = None
    ) -> ProofResult:
        """Can the string at ``vertex`` be captured, its opponent moving first?"""
        return self._ask(position, vertex, max_nodes, self._attack)

    def defend(
        self,
        position: Position,
        vertex: Vertex,
        max_nodes: int | None = None,
        model: int = 0,
        safety: bool = True,
    ) -> ProofResult:
        """Can the string at ``vertex`` be saved, its owner moving first?  A
        proof that it cannot (0) holds under ko ``model`` (0, 1 or 2, as for
        ``attack``'s codes 1, 2 and 3).  ``safety`` False skips the escape
        game and gives its half of the budget to the proof of a loss."""
        if model not in (0, 1, 2):
            raise ValueError("model must be 0, 1 or 2")
        how = functools.partial(self._defend, model=model, safety=safety)
        return self._ask(position, vertex, max_nodes, how)

    def prove_move(
        self,
        position: Position,
        vertex: Vertex,
        move: Vertex,
        claimed: int = 1,
        max_nodes: int | None = None,
    ) -> ProofResult:
        """Does the attacker's ``move`` capture the string at ``vertex``?  A
        check of a capture named elsewhere (the reader's, GNU Go's, a test
        file's), for a string the search of ``attack`` leaves unknown: its
        attacker tries only moves near the string.  The move is tried, then
        ``defend`` must be proven 0 under ko model 0, 1 ... up to
        ``claimed`` - 1: proven with code model + 1, the move, and the line
        (the move, then the defence proof's).  ``unknown`` otherwise, also
        when the move is illegal, takes the string at once (``attack``'s
        order 0 judges that capture) or lets the owner make it pass-alive.
        ``nodes`` counts every try; the position is left as it was."""
        position.string_pos(vertex, "vertex must not be empty")
        if claimed not in (1, 2, 3):
            raise ValueError("claimed must be 1, 2 or 3")
        if not position.trymove(move, 3 - position.color_at(vertex)):
            return ProofResult(UNKNOWN)
        nodes, start = 0, time.perf_counter()
        try:
            for model in range(claimed if position.color_at(vertex) else 0):
                proof = self.defend(position, vertex, max_nodes, model=model, safety=False)
                nodes += proof.nodes
                if proof.proven:
                    if proof.code:
                        break  # the owner makes it pass-alive
                    pt = position.pt(position.pos(move))
                    seconds = time.perf_counter() - start
                    return ProofResult(PROVEN, model + 1, pt, nodes, [pt, *proof.line], seconds)
        finally:
            position.popgo()
        return ProofResult(UNKNOWN, nodes=nodes, seconds=time.perf_counter() - start)

    def prove_defence(
        self,
        position: Position,
        vertex: Vertex,
        move: Vertex | None,
        claimed: int = 3,
        max_nodes: int | None = None,
    ) -> ProofResult:
        """Does the owner's ``move`` (None: a pass) save the string at
        ``vertex``?  A check of a defence named elsewhere, for a string the
        search of ``defend`` leaves unknown: its root tries every move, so a
        named one may come after the budget is spent.  The move is played,
        then the escape game is read with the attacker to move under ko
        model 2, 1, then 0 (codes 1, 2, 3; up to ``claimed``), ``max_nodes``
        each, on the position after the move (played once; pass-alive there
        is the strongest code tried).  Under model 0 the move may retake a
        ko.  Proven: the code, the move (None for a pass) and the line
        [move].  ``unknown`` otherwise, also when the move is illegal;
        ``nodes`` counts every try; the position is left as it was."""
        position.string_pos(vertex, "vertex must not be empty")
        if claimed not in (1, 2, 3):
            raise ValueError("claimed must be 1, 2 or 3")
        budget = self._budget(max_nodes)
        models = SAFE_MODELS[:claimed]
        start = time.perf_counter()
        if move is not None and not position.trymove(move, position.color_at(vertex)):
            # illegal, or a ko retake: only model 0 lets the owner retake
            models = [(m, c) for m, c in models if m == 0]
            if not models or not position.tryko(move, position.color_at(vertex)):
                return ProofResult(UNKNOWN, seconds=time.perf_counter() - start)
        nodes, code = 0, None
        try:
            target = position.string_pos(vertex)
            if self._alive(position, target):
                code = models[0][1]  # under every model: the strongest tried
            else:
                for model, c in models:
                    r, spent = self._safe(position, target, ks.KIND_A, budget, model)
                    nodes += spent
                    if r == 1:
                        code = c
                        break
        finally:
            if move is not None:
                position.popgo()
        if code is None:
            return ProofResult(UNKNOWN, nodes=nodes, seconds=time.perf_counter() - start)
        pt = None if move is None else position.pt(position.pos(move))
        line = [pt] if pt else []
        return ProofResult(PROVEN, code, pt, nodes, line, time.perf_counter() - start)

    def _budget(self, max_nodes):
        """The node budget of a call: ``max_nodes``, or the prover's."""
        budget = self.max_nodes if max_nodes is None else int(max_nodes)
        if budget < 1:
            raise ValueError("max_nodes must be positive")
        return budget

    def _ask(self, position, vertex, max_nodes, how):
        target = position.string_pos(vertex, "vertex must not be empty")
        budget = self._budget(max_nodes)
        before = (position.stackp, position.hash)
        start = time.perf_counter()
        result = how(position, target, budget)
        result.seconds = time.perf_counter() - start
        if (position.stackp, position.hash) != before:
            raise AssertionError("the prover changed the position")
        position.raise_if_hash_error("proving")
        return result

    def _search_args(self, position, target, model, order=None):
        """The arguments ``prove_win`` and ``prove_lost`` share, before the
        budget (``order`` None: ``max_order``)."""
        return (
            position.s,
            position.hw,
            position.keys,
            self.ctx,
            self.tt,
            self.mv,
            self.pv,
            self.mark,
            self.zone,
            self.pool,
            self.ptag,
            self._guide_tables(position),
            target,
            model,
            self.max_order if order is None else order,
            self.max_depth,
        )

    def _guide_tables(self, position):
        """The guide reader's tables for ``kp.guide`` (``Reader.kernel_tables``),
        with the guide's settings written into both searches' contexts."""
        self.ctx[kp.C_GUIDE] = self.safety[0][kp.C_GUIDE] = self.guide_nodes
        self.safety[0][ks.C_GUIDE_PLIES] = self.escape_guide_plies
        return self._guide.kernel_tables(position)

    def _alive(self, position, target):
        return bool(kb.pass_alive(position.s, self.ctx, self.mark, self.sc, target))

    def _attack(self, position, target, budget):
        """Benson's pass-alive; then the captures (``_captures``) with half
        the budget; then the escape game (``_safe``) with what is left."""
        if self._alive(position, target):
            return ProofResult(PROVEN, 0)
        best, nodes = self._captures(position, target, budget // 2)
        if best is not None:
            best.nodes = nodes
            return best
        r, spent = self._safe(position, target, ks.KIND_A, max(budget - nodes, 1), 2)
        if r == 1:
            return ProofResult(PROVEN, 0, nodes=nodes + spent)
        return ProofResult(UNKNOWN, nodes=nodes + spent)

    def _captures(self, position, target, budget):
        """Orders 1..max_order in turn, each under the models stronger than
        the best proof found so far: a cheap low-order proof is found before
        a higher order spends the budget, and the code kept is the strongest
        proven.  The table makes each order's repeat of the lower ones cheap.
        (best proof or None, nodes)."""
        nodes, best = 0, None
        for order in range(1, self.max_order + 1):
            for model, code in ATTACK_MODELS:
                if best is not None and code >= best.code:
                    break
                args = self._search_args(position, target, model, order)
                r = kp.prove_win(*args, budget - nodes)
                nodes += int(self.ctx[kp.C_NODES])
                if r == 1:
                    best = self._proof(position, code, nodes)
                if r < 0 or nodes >= budget:
                    return best, nodes
            if best is not None and best.code == 1:
                break
        return best, nodes

    def _defend(self, position, target, budget, model=0, safety=True):
        """Benson's pass-alive and saving move; then (``safety``) the escape
        game with half the budget; then the proof that every move loses
        (``prove_lost``) with what is left."""
        if self._alive(position, target):
            return ProofResult(PROVEN, 1)
        move = int(
            kb.saving_move(
                position.s, position.hw, position.keys, self.ctx, self.mark, self.sc, target
            )
        )
        if move >= 0:
            pt = position.pt(move)
            return ProofResult(PROVEN, 1, pt, line=[pt])
        saved, spent = self._saving(position, target, budget // 2) if safety else (None, 0)
        if saved is not None:
            return saved
        r = kp.prove_lost(*self._search_args(position, target, model), budget - spent)
        nodes = spent + int(self.ctx[kp.C_NODES])
        if r == 1:
            result = self._proof(position, 0, nodes)
            result.move = None
            return result
        return ProofResult(UNKNOWN, nodes=nodes)

    def _saving(self, position, target, budget):
        """The escape game with the owner to move, ko model 2, then 1, then
        0 (codes 1, 2, 3), sharing ``budget``: (the proof or None, nodes)."""
        spent = 0
        for model, code in SAFE_MODELS:
            r, nodes = self._safe(position, target, ks.KIND_D, budget - spent, model)
            spent += nodes
            if r == 1:
                move = int(self.safety[0][ks.C_MOVE])
                pt = None if move == kp.PASS else position.pt(move)
                return ProofResult(PROVEN, code, pt, spent, [pt] if pt else []), spent
            if r < 0 or spent >= budget:
                break
        return None, spent

    def _safe(self, position, target, kind, budget, model):
        """The escape game (``kernel.safety``) under ko ``model``: (1 proven
        safe, 0 or -1; nodes spent)."""
        r = ks.prove_safe(
            position.s,
            position.hw,
            position.keys,
            *self.safety,
            self._guide_tables(position),
            target,
            kind,
            self.escape_libs,
            model,
            self.max_depth,
            budget,
        )
        return int(r), int(self.safety[0][ks.C_NODES])

    def _proof(self, position, code, nodes):
        n = int(self.pv[0, 0])
        line = [position.pt(int(p)) for p in self.pv[0, 1 : n + 1]]
        return ProofResult(PROVEN, code, line[0] if line else None, nodes, line)
