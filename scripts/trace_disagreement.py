#!/usr/bin/env python3
"""Walk the line where gogame's reader and GNU Go's disagree, ply by ply.

Contract
--------
``python3 scripts/trace_disagreement.py GAME MOVE VERTEX attack|defend
[--plies 16] [--prefer gnugo|gogame] [--prove NODES] [--gnugo PATH]``
sets up the position after move MOVE of the SGF file GAME in both
engines (``loadsgf GAME MOVE+1``) and asks each the question about the
string at VERTEX.  Then it plays, with ``trymove`` in both engines (so
the depths count from the first question, as inside a search), the move
of the engine that claims success for the side to move, or of the
``--prefer`` one (default GNU Go) when both do, and asks the other
question one ply down; one line a ply.  It stops when both engines give
the same answer code, when neither claims success, or after ``--plies``.

``--prove NODES``: then, from the deepest ply up, the prover judges the
move of each ply where the engines disagreed (``mine.prove_named``, the
claimant's code and move, NODES a proof), until one stays unknown: a
disagreement decided deep in the line, where the positions are small,
often says which reader missed what.  This is how the caps of
2026-12-07 were found (docs/reading.md).

Exit status 0; 2 with a one-line reason on bad arguments or an engine
that cannot start.  Not done: several strings, other engines than
these two, a line that leaves the engines' boards different (both play
every move, so a move one of them refuses stops the walk).
"""

import argparse
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

from gogame.core.coords import parse_gtp  # noqa: E402
from gogame.core.position import Position  # noqa: E402
from gogame.core.prover import Prover  # noqa: E402
from gogame.core.sgfio import SgfError, apply_game, load_game  # noqa: E402
from gogame.gtp.client import EngineError, GtpClient, GtpError  # noqa: E402
from gogame.tools.mine import GNUGO, parse_answer, prove_named  # noqa: E402


def parse_args(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("move", type=int, help="the position after this move")
    ap.add_argument("vertex")
    ap.add_argument("question", choices=("attack", "defend"))
    ap.add_argument("--plies", type=int, default=16)
    ap.add_argument("--prefer", choices=("gnugo", "gogame"), default="gnugo")
    ap.add_argument("--prove", type=int, default=0, metavar="NODES")
    ap.add_argument("--gnugo", default=GNUGO, metavar="PATH")
    return ap.parse_args(argv)


def claim(answer):
    """(code, move) of a GTP attack/defend answer (``mine.parse_answer``);
    code 0, or an empty answer, has no move."""
    if not answer.strip():
        return 0, None
    parsed = parse_answer(answer)
    return parsed["code"], parsed["move"]


def walk(engines, args):
    """The disputed line: a list of (question, answers, move played)."""
    owner = engines["gnugo"].ask(f"color {args.vertex}")
    if owner not in ("black", "white"):
        raise GtpError(f"no stone at {args.vertex}")
    other = "white" if owner == "black" else "black"
    question, plies = args.question, []
    for _ in range(args.plies):
        sent = {name: e.send(f"{question} {args.vertex}") for name, e in engines.items()}
        if not all(ok for ok, _ in sent.values()):  # the string was captured, say
            print(f"ply {len(plies)} {question}: {sent['gnugo'][1] or sent['gogame'][1]}: stop")
            break
        answers = {name: text for name, (_, text) in sent.items()}
        claims = {name: claim(text) for name, text in answers.items()}
        codes = {code for code, _ in claims.values()}
        claimants = [n for n in (args.prefer, "gogame", "gnugo") if claims[n][0]]
        move = claims[claimants[0]][1] if claimants and len(codes) > 1 else None
        plies.append((question, answers, move))
        print(
            f"ply {len(plies) - 1} {question}: gogame [{answers['gogame']}]  "
            f"GNU Go [{answers['gnugo']}]" + (f"  -> {move}" if move else ""),
            flush=True,
        )
        if move is None or move == "PASS":
            break
        color = owner if question == "defend" else other
        if not all(e.send(f"trymove {color} {move}")[0] for e in engines.values()):
            print(f"{move} refused by an engine: stop")
            break
        question = "attack" if question == "defend" else "defend"
    return plies


def prove_upward(plies, args):
    """Judge, deepest first, the claimant's move of each disputed ply: a
    move that the proof one ply down refutes is said so; any other is
    asked of the prover, and the walk stops at the first unknown.  The
    line is tried once on one position and taken back ply by ply."""
    game = load_game(args.game)
    position = Position(game.size)
    apply_game(game, position, args.move + 1)
    owner = position.color_at(parse_gtp(args.vertex, position.size))
    color = owner if args.question == "defend" else 3 - owner
    line = [move for _, _, move in plies if move is not None]
    for m in line[:-1]:  # the position before the deepest disputed move
        position.trymove(parse_gtp(m, position.size), color)
        color = 3 - color
    prover = Prover(max_nodes=args.prove)
    below = False  # the ply below was proven: the mover's move there works
    for depth in range(len(line) - 1, -1, -1):
        question, answers, move = plies[depth]
        if below:
            print(f"ply {depth} {question} {move}: refuted by ply {depth + 1}", flush=True)
            below = False
        else:
            code = max(claim(text)[0] for text in answers.values())
            answer = [{"code": code, "move": move}]
            proof = prove_named(prover, position, args.vertex, answer, question)
            verdict = f"proven {proof['code']}" if proof else "unknown"
            print(f"ply {depth} {question} {move}: {verdict}", flush=True)
            if not proof:
                break
            below = True
        if depth:
            position.popgo()  # back to the position before ply depth - 1


def main(argv=None):
    args = parse_args(argv)
    game = os.path.abspath(args.game)
    if not os.path.exists(game):
        print(f"trace_disagreement: no such file: {args.game}", file=sys.stderr)
        return 2
    engines = {}
    try:
        engines["gogame"] = GtpClient([sys.executable, "-m", "gogame", "gtp"], cwd=ROOT)
        engines["gnugo"] = GtpClient([args.gnugo, "--mode", "gtp"])
        for e in engines.values():
            e.ask(f"loadsgf {game} {args.move + 1}")
        plies = walk(engines, args)
    except (EngineError, GtpError, OSError) as e:
        print(f"trace_disagreement: {str(e).splitlines()[0]}", file=sys.stderr)
        return 2
    finally:
        for e in engines.values():
            e.close()
    if args.prove:
        try:
            prove_upward(plies, args)
        except SgfError as e:
            print(f"trace_disagreement: {str(e).splitlines()[0]}", file=sys.stderr)
            return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
