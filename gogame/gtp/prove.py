"""The prover's GTP commands, mixed into ``GtpEngine`` (gtp/engine.py).

* ``gogame-prove attack|defend VERTEX [MAXNODES]`` answers ``proven CODE``
  (then the move, ``PASS`` for a success that needs none) or ``unknown``;
  the codes are those of ``core/prover.py`` (docs/prover.md).  A question
  the search leaves unknown is proven when the move gogame's reader names
  is (``Prover.prove_move`` for a capture, ``Prover.prove_defence`` for a
  saving move; MAXNODES a try);
* ``gogame-gfx_prove_attack %p`` / ``gogame-gfx_prove_defend %p`` (GoGui
  ``gfx``): the proof's principal line as ``VAR b D4 w E5 ...`` and a
  ``TEXT`` line with the answer and the nodes.

Errors: ``syntax error`` (no or bad question word, bad MAXNODES),
``invalid coordinate``, ``vertex must not be empty``.  The position is
unchanged after every answer and every error.  The prover (and its table)
is made on first use and kept; a new board size keeps it too (its entries
are keyed by position).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.coords import format_gtp
from .protocol import INT_RE, GtpError

if TYPE_CHECKING:
    from ..core.prover import Prover

PROVE_TABLE_MB = 16
PROVE_NODES = 500_000
MAX_PROVE_NODES = 10**9
CODE_NAMES = {0: "fails", 1: "WIN", 2: "KO_A", 3: "KO_B"}


class ProveCommands:
    """Handlers; ``self`` is a ``gtp.GtpEngine``."""

    _prover = None

    @property
    def prover(self) -> Prover:
        if self._prover is None:
            from ..core.prover import Prover

            self._prover = Prover(table_mb=PROVE_TABLE_MB, max_nodes=PROVE_NODES)
        return self._prover

    def _prove(self, which, args):
        """Check the arguments, prove, check the position is as it was."""
        if not args or args[0] not in ("attack", "defend"):
            raise GtpError("syntax error")
        if len(args) > 3:
            raise GtpError("syntax error")
        nodes = None
        if len(args) == 3:
            if not INT_RE.match(args[2]) or not 1 <= int(args[2]) <= MAX_PROVE_NODES:
                raise GtpError("syntax error")
            nodes = int(args[2])
        pt = self.parse_stone(args[1:2])
        prover = self.prover
        method = prover.attack if which == "attack" else prover.defend
        result = self.read_checked(method, self.session.position, pt, nodes)
        if not result.proven:
            result = self._prove_readers_move(which, pt, nodes, result)
        return result

    def _prove_readers_move(self, which, pt, nodes, unknown):
        """The search left the question unknown: the move gogame's reader
        names (a capture, or a saving move, PASS included), proven by
        ``Prover.prove_move`` or ``Prover.prove_defence`` (nodes: all
        tries)."""
        ask = self.session.attack if which == "attack" else self.session.find_defense
        code, move = self.read_checked(ask, pt)
        if not code or (move is None and which == "attack"):
            return unknown
        position = self.session.position
        prove = self.prover.prove_move if which == "attack" else self.prover.prove_defence
        # every ko model: the code proven may be weaker than the reader's
        result = self.read_checked(prove, position, pt, move, 3, nodes)
        result.nodes += unknown.nodes
        return result if result.proven else unknown

    def cmd_gogame_prove(self, args: list[str]) -> str:
        result = self._prove(args[0] if args else None, args)
        self.log(
            f"gogame: prove {' '.join(args)}: {result.status} in {result.nodes} nodes, "
            f"{result.seconds:.3f} s"
        )
        return _answer(result)

    def _gfx_prove(self, which, args):
        result = self._prove(which, [which] + list(args[:1]))
        lines = []
        if result.line:
            color = self.session.position.color_at(args[0])
            mover = 3 - color if which == "attack" else color
            moves = []
            for k, pt in enumerate(result.line):
                side = "b" if (mover if k % 2 == 0 else 3 - mover) == 1 else "w"
                moves.append(f"{side} {format_gtp(pt)}")
            lines.append("VAR " + " ".join(moves))
        text = _answer(result)
        if result.proven:
            text += f" ({CODE_NAMES[result.code]})"
        lines.append(f"TEXT prove {which}: {text}, {result.nodes} nodes")
        return "\n".join(lines)

    def cmd_gogame_gfx_prove_attack(self, args: list[str]) -> str:
        return self._gfx_prove("attack", args)

    def cmd_gogame_gfx_prove_defend(self, args: list[str]) -> str:
        return self._gfx_prove("defend", args)


def _answer(result):
    """``proven CODE [MOVE]`` or ``unknown``."""
    if not result.proven:
        return "unknown"
    if result.code == 0:
        return "proven 0"
    return f"proven {result.code} {format_gtp(result.move)}"
