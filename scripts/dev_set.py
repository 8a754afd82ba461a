#!/usr/bin/env python3
"""Judge a change to the reader on the development set: mined problems.

Contract
--------
Every problem of each folder's ``index.json`` (written by ``gogame mine
--out``) is asked again of this version's reader: a fresh reader and a
1 MB cache a problem (``mine.ask_again``, as ``gogame mine --report
--reask`` asks), but the unproven problems too.  For each folder the
script prints the proven problems, how many answers the proof allows
(``mine.consistent``), the nodes (proven and all) and the seconds of
reading.  With ``--save FILE`` it writes every answer (code, move,
nodes); with ``--against FILE`` it lists the problems whose code changed
since that file was saved, with GNU Go's recorded code and the proof's.
With ``--cache-mb 0`` every problem is read without a cache: against a
run saved with the cache, the codes listed are answers that depend on it
(none should).  With ``--gnugo`` GNU Go (``/usr/games/gnugo``, one
process a folder) is asked every problem too, after a ``loadsgf`` and a
``clear_cache`` (as gogame's reader starts each problem with an empty
cache; without it GNU Go's persistent reading cache answers a position
asked before at no node), and the summary adds its nodes
(``reset_reading_node_counter``, ``get_reading_node_counter``) and how
many proven problems its answers allow; ``--save`` keeps its answers too,
under ``NAME (GNU Go)``, so that the two readers' trees compare problem by
problem.  Nothing else is written, but one line on stderr that names the
``gogame`` package judged: the one Python imports (an editable install
may point at another checkout; put this one first with
``PYTHONPATH=$PWD``).

A folder written ``@NAME`` is a committed development set:
``tests/data/devsets/NAME.json.gz`` holds the index of a mined folder
(the problems, their proofs, the answers at mining time) and no SGF;
its problems are rebuilt from their source games (``mine.materialize``,
paths relative to the repository, ``../shared`` beside it) into a
temporary folder, byte for byte the files mining wrote.  So the sets
that took an hour to mine and referee are there in seconds.

This is where a rule of the reader is judged (#19): the committed corpus
``tests/data/problems`` and the committed sets (``@gnugo-selfplay``,
``@gogame-vs-gnugo``, ``@tournament``, ``@gnugo-selfplay-2`` to ``-6``,
``@gogame-vs-gnugo-2`` to ``-7``, the 9x9 ``@gnugo-selfplay-9x9``,
``@gogame-vs-gnugo-9x9`` and their ``-2`` and ``-3``, the 13x13
``@gnugo-selfplay-13x13`` and ``@gogame-vs-gnugo-13x13``), all of them
named by ``@all``, and any folder mined for a report.  reading.tst is measured
after, never used to choose.

``--check-moves N`` (with ``--against``) judges each changed answer's
move with the prover (N nodes a proof): ``holds``, ``refuted`` (the
other side's success after it proven) or ``unknown``, since the proven
count compares codes only and a right code may come with a false move.

Usage: ``python3 scripts/dev_set.py [FOLDER | @NAME | @all ...] [--save F]
[--against F [--check-moves N]] [--gnugo] [--cache-mb MB]``
"""

import argparse
import gzip
import json
import os
import sys
import tempfile

import gogame
from gogame.core import options
from gogame.core.coords import parse_gtp
from gogame.core.sgfio import SgfError
from gogame.gtp.client import GtpClient, GtpError
from gogame.tools.jobs import int_in
from gogame.tools.mine import (
    GNUGO,
    ask_again,
    consistent,
    materialize,
    parse_answer,
    problem_position,
    prove_named,
)
from gogame.tools.regress import ask_counted

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CORPUS = os.path.join(ROOT, "tests", "data", "problems")
DEVSETS = os.path.join(ROOT, "tests", "data", "devsets")


def committed_sets():
    """The names of the committed sets in ``DEVSETS``, sorted."""
    return sorted(f[: -len(".json.gz")] for f in os.listdir(DEVSETS) if f.endswith(".json.gz"))


def expand_all(folders):
    """``folders`` with ``@all`` replaced by the corpus and every committed
    set, by name (the judge of a rule: #19); the others as given."""
    out = []
    for arg in folders:
        if arg != "@all":
            out.append(arg)
            continue
        out += [CORPUS] + [f"@{name}" for name in committed_sets()]
    return out


def devset_folder(arg, tmp):
    """``arg`` itself, or for ``@NAME`` the committed set NAME rebuilt
    into ``tmp/NAME``; SystemExit with a one-line reason when there is no
    such set or one of its games cannot be read."""
    if not arg.startswith("@"):
        return arg
    name = arg[1:]
    path = os.path.join(DEVSETS, f"{name}.json.gz")
    if not os.path.exists(path):
        known = ", ".join(committed_sets())
        raise SystemExit(f"dev_set: no set {arg} (there are: {known})")
    with gzip.open(path, "rt") as f:
        index = json.load(f)
    out = os.path.join(tmp, name)
    try:
        materialize(index, ROOT, out)
    except SgfError as e:  # a game missing: ../shared absent, say
        raise SystemExit(f"dev_set: cannot rebuild {arg}: {str(e).splitlines()[0]}") from None
    return out


def judge_folder(folder, cache_mb=1.0):
    """(summary, {file: [code, move, nodes]}, index) for one folder, each
    problem read with a fresh cache of ``cache_mb`` (0: none)."""
    with open(os.path.join(folder, "index.json")) as f:
        index = json.load(f)
    total = {"problems": 0, "proven": 0, "allowed": 0, "nodes_proven": 0, "nodes": 0}
    total["seconds"], total["wrong"], answers = 0.0, [], {}
    for entry in index:
        answer = ask_again(folder, entry, cache_mb)
        code, nodes = answer["code"], answer["nodes"]
        answers[entry["file"]] = [code, answer["move"], nodes]
        total["problems"] += 1
        total["nodes"] += nodes
        total["seconds"] += answer["seconds"]
        proven = entry["proven"]
        if proven["status"] == "proven":
            total["proven"] += 1
            total["nodes_proven"] += nodes
            if consistent(entry["question"], proven["code"], code):
                total["allowed"] += 1
            else:
                total["wrong"].append(entry["file"])
    total["seconds"] = round(total["seconds"], 2)
    return total, answers, index


def gnugo_folder(folder, index, total, path=GNUGO, answers=None):
    """Add GNU Go's ``gnugo_nodes`` and ``gnugo_allowed`` (its answers to
    the proven problems that the proofs allow) to ``total``; with
    ``answers`` (a dict), each of its answers too: file -> [code, move,
    nodes]."""
    total["gnugo_nodes"] = total["gnugo_allowed"] = 0
    with GtpClient([path, "--mode", "gtp"]) as engine:
        for entry in index:
            engine.ask("loadsgf " + os.path.abspath(os.path.join(folder, entry["file"])))
            engine.ask("clear_cache")  # no answer carried from a problem before
            verb = "attack" if entry["question"] == "attack" else "defend"
            command = f"{verb} {entry['vertex']}"
            _, answer, error, nodes, _ = ask_counted(engine, command)
            if error:
                raise GtpError(answer, command)
            parsed = parse_answer(answer)
            code = parsed["code"]
            if answers is not None:
                answers[entry["file"]] = [code, parsed["move"], nodes]
            total["gnugo_nodes"] += nodes
            proven = entry["proven"]
            if proven["status"] == "proven" and consistent(entry["question"], proven["code"], code):
                total["gnugo_allowed"] += 1
    return total


def changes(index, answers, before, check=None):
    """Lines for the problems whose code differs from ``before``; with
    ``check`` (entry, code, move -> a word), the new answer's move judged
    too, where it names one."""
    lines = []
    for entry in index:
        old = before.get(entry["file"])
        new = answers[entry["file"]]
        if old is None or old[0] == new[0]:
            continue
        gnugo = (entry.get("gnugo") or {}).get("code")
        proven = entry["proven"]["code"] if entry["proven"]["status"] == "proven" else "?"
        line = f"  {entry['file']}: {old[0]} -> {new[0]} (GNU Go {gnugo}, proof {proven})"
        if check and new[0] and new[1]:
            line += f"; {new[1]} {check(entry, new[0], new[1])}"
        lines.append(line)
    return lines


def move_verdict(prover, position, entry, code, move):
    """The prover's word on an answer's move (code 1-3, a GTP vertex or
    PASS): "holds" when it proves the move works (``prove_named``, every
    ko model up to the code), "refuted" when after the move it proves the
    other side's success beyond what the code allows (an outright save
    or capture, or any against code 1), else "unknown".  Not: refuting a
    named PASS.  The position is left as it was."""
    question, vertex = entry["question"], entry["vertex"]
    if prove_named(prover, position, vertex, [{"code": code, "move": move}], question):
        return "holds"
    pt = parse_gtp(vertex, position.size)
    owner = position.color_at(pt)
    mover = owner if question == "defend" else 3 - owner
    if move == "PASS" or not position.trymove(parse_gtp(move, position.size), mover):
        return "unknown"
    try:
        if not position.color_at(pt):
            return "holds"  # captured outright
        other = prover.attack if question == "defend" else prover.defend
        proof = other(position, pt)
    finally:
        position.popgo()
    if proof.proven and proof.code and (proof.code == 1 or code == 1):
        return "refuted"
    return "unknown"


def _checker(folder, nodes):
    """``changes``' check for a folder: each move judged by a prover of
    ``nodes`` a proof, on the problem's position."""
    from gogame.core.prover import Prover

    prover = Prover(max_nodes=nodes)

    def check(entry, code, move):
        return move_verdict(prover, problem_position(folder, entry), entry, code, move)

    return check


def _judge(folder, args, before, saved):
    """One folder: its summary line and changed codes printed, its answers
    kept in ``saved`` under the folder's name."""
    name = os.path.basename(os.path.normpath(folder))
    total, answers, index = judge_folder(folder, args.cache_mb)
    if args.gnugo:
        saved[f"{name} (GNU Go)"] = {}
        gnugo_folder(folder, index, total, answers=saved[f"{name} (GNU Go)"])
    saved[name] = answers
    print(f"{name}: {json.dumps(total)}")
    check = _checker(folder, args.check_moves) if args.check_moves else None
    for line in changes(index, answers, before.get(name, {}), check):
        print(line)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "folders",
        nargs="*",
        default=[CORPUS],
        metavar="FOLDER",
        help="a folder, @NAME, or @all (the corpus and every committed set)",
    )
    parser.add_argument("--save", metavar="FILE", help="write every answer as JSON")
    parser.add_argument("--against", metavar="FILE", help="list the codes changed since FILE")
    parser.add_argument("--gnugo", action="store_true", help="ask GNU Go too: its nodes")
    parser.add_argument(
        "--cache-mb",
        type=options.argtype(options.cache_mb),
        default=1.0,
        metavar="MB",
        help="each problem's cache (default 1; 0: none, to check against a saved run "
        "that the answers do not depend on the cache)",
    )
    parser.add_argument(
        "--check-moves",
        type=int_in(1, 10**9, "check moves"),
        metavar="N",
        help="with --against: judge each changed answer's move with the prover, "
        "N nodes a proof (holds, refuted or unknown)",
    )
    args = parser.parse_args(argv)
    if args.check_moves and not args.against:
        parser.error("--check-moves needs --against")
    judged = os.path.dirname(os.path.dirname(gogame.__file__))
    print(f"dev_set: the reader of {judged}", file=sys.stderr)
    before = {}
    if args.against:
        try:
            with open(args.against) as f:
                before = json.load(f)
        except (OSError, ValueError) as e:
            reason = str(e).splitlines()[0]
            raise SystemExit(f"dev_set: cannot read {args.against}: {reason}") from None
    saved = {}
    with tempfile.TemporaryDirectory() as tmp:
        folders = [devset_folder(folder, tmp) for folder in expand_all(args.folders)]
        for folder in folders:
            _judge(folder, args, before, saved)
    if args.save:
        with open(args.save, "w") as f:
            json.dump(saved, f)
    return 0


if __name__ == "__main__":
    sys.exit(main())
