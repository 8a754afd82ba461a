"""Run GNU Go regression files (.tst) against GTP engines and judge the answers.

Contract
--------
* **Files.**  Every non-test line of a .tst file (``loadsgf``, ``trymove``,
  ``popgo``, ``play``, ``increase_depths``, ...) is sent to the engine in file
  order; ``#`` comment lines and blank lines are skipped, and a trailing
  ``# comment`` is cut from command lines.  ``N command args`` is test N; its
  answer is the text after ``=N `` (lines of a multi-line answer joined by
  ``\\n``).  ``loadsgf`` paths are made absolute against the .tst file's folder,
  which is also the engine's working directory.  Each file gets a fresh engine.
* **Judging**, as GNU Go's regress.awk: the ``#? [RE]`` line after a test
  passes when ``re.search('^' + RE + '$', answer, re.DOTALL)`` matches (plain
  concatenation, so ``[1 A1|B2]`` means ``^1 A1`` or ``B2$``); ``[!RE]``
  negates; ``*`` after the ``]`` marks a known failure and ``&`` means
  "don't judge".  An error answer (``?N ...``) or no answer (the engine died)
  always counts as a failure, as gogui-regress counts it.  Outcomes: ``pass``,
  ``fail`` (expected), ``PASS`` (unexpected pass), ``FAIL`` (unexpected fail),
  ``ignored`` (``&``, or a test without a ``#?`` line).
* **Counters and time.**  ``reset_reading_node_counter`` is sent before each
  test and ``get_reading_node_counter`` after it; ``nodes`` is None when the
  engine answers ``?`` to them.  ``seconds`` is the wall clock from sending the
  test command to reading its response (counter commands not included).
* **only**: a set of test numbers; the other tests' commands and ``#?`` lines
  are skipped entirely, while every setup line is still sent.

Python API: ``run_file(path, engine_cmd=None, only=None) -> engine result`` for
one file, ``run(paths, {label: engine_cmd}, only) -> report`` for several
files and engines.  ``engine_cmd`` is an argv list or a shell-like string; None means
gogame itself (``GOGAME_CMD``: ``python -m gogame gtp``).

``--json`` report (one object)::

    {"engines": {LABEL: {                 # "gogame", then the --engine string
        "command": [argv...], "name": str, "version": str,
        "tests": [{"file" (the path as given), "number", "command",
                   "answer" (None when the engine died), "error" (a ? answer),
                   "expected" (the #? text, e.g. "[1 G1]*"), "outcome",
                   "nodes" (int|None), "seconds"}],
        "setup_errors": [{"file", "line", "command", "answer"}],
                                          # ? answers to setup lines, and the
                                          # command the engine died on
        "files": {FILE: TOTALS},
        "totals": TOTALS}},
     "time_ratio": float|None,            # first engine's seconds / second's
     "unexpected": int}                   # PASS + FAIL over all engines

    TOTALS = {"tests", "pass", "fail", "PASS", "FAIL", "ignored",
              "nodes" (sum, None when no test reported nodes),
              "seconds" (per-test time summed),
              "wall_seconds" (engine start to quit, setup lines included)}

Exit status of ``gogame regress``: 0 when no engine had an unexpected FAIL
(an unexpected PASS still exits 0, as gogui-regress), 1 otherwise, 2 for a
missing .tst file, a bad option or an engine that cannot start.

``--prove`` (``prove_file``, ``prove_run``): no GTP engine is started.  The
setup lines drive an in-process ``GtpEngine`` as above, and every
``attack``/``defend`` test is asked of one ``Prover`` (16 MB table, kept for
the whole run) with ``prove_nodes`` nodes a question; other tests are
skipped and counted.  A test its search leaves unknown is proven when a
move named for it is (``named_moves``: gogame's reader's move, then the
file's expected moves; ``mine.prove_named_capture`` for an ``attack``,
``mine.prove_named_defence`` for a ``defend``, ``prove_nodes`` a move);
its record then has ``via: "move"``.  Each
proven answer gets a ``verdict`` against the file's expected answer, by
``mine.consistent``: ``agrees``, ``contradicts``, ``unknown`` (not
proven, or the question could not be asked) or ``unjudged`` (no readable
expected answer).  Exit status: 0, 1 when a test contradicts the file or
a setup line or test could not be run, 2 for bad input.  Report::

    {"prove_nodes": int,
     "tests": [{"file", "number", "command", "question", "vertex",
                "expected", "status" ("proven"|"unknown"|"error"),
                "code" (int|None), "move" (GTP text|None), "answer"
                ("0", "1 D4", "1 PASS", "unknown", or the error text),
                "line" (the proof's principal line, GTP vertices),
                "via" ("move", only for a named move proven),
                "nodes", "seconds", "verdict", "matches" (the proven
                answer matches the #? pattern, * ignored; None otherwise)}],
     "setup_errors": [{"file", "line", "command", "answer"}],
     "files": {FILE: PROVE_TOTALS}, "totals": PROVE_TOTALS}

    PROVE_TOTALS = {"tests", "skipped", "questions", "proven"
                    ({"attack", "defend", "all"}), "codes" ({"attack":
                    {CODE: n}, "defend": {CODE: n}}, proven codes), "unknown",
                    "budget_spent" (unknown after the whole budget),
                    "errors", "agrees", "contradicts", "unjudged",
                    "matches", "contradictions" ([{"file", "number",
                    "command", "expected", "answer"}]), "nodes",
                    "seconds" (proving time summed), "wall_seconds"}
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import sys
import time
from collections.abc import Container, Mapping, Sequence
from typing import TYPE_CHECKING

from ..gtp.client import EngineError, GtpClient

if TYPE_CHECKING:
    from ..core.prover import Prover

GOGAME_CMD = [sys.executable, "-m", "gogame", "gtp"]
OUTCOMES = ("pass", "fail", "PASS", "FAIL", "ignored")

_TEST = re.compile(r"(\d+)\s+(\S.*)")
_EXPECT = re.compile(r"#\?\s*\[(.*)\]\s*([*&]*)\s*$")


def parse_tst(text: str) -> list[tuple]:
    """The items of a .tst text, in order: ("setup", line, command) or
    ("test", line, number, command, expected) with expected the #? text or None."""
    items = []
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("#?"):
            if items and items[-1][0] == "test" and items[-1][4] is None:
                items[-1] = items[-1][:4] + (line[2:].strip(),)
            continue
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        m = _TEST.fullmatch(line)
        if m:
            items.append(("test", lineno, int(m.group(1)), m.group(2), None))
        else:
            items.append(("setup", lineno, line))
    return items


def judge(expected: str | None, answer: str | None) -> str:
    """Outcome of one test: expected is the #? text ("[RE]", "[!RE]*", ...) or
    None; answer is the response text, or None for an error or no answer."""
    m = _EXPECT.match("#? " + expected) if expected is not None else None
    if m is None or "&" in m.group(2):
        return "ignored"
    pattern, known_fail = m.group(1), "*" in m.group(2)
    negate = pattern.startswith("!")
    if negate:
        pattern = pattern[1:]
    if answer is None:
        ok = False
    else:
        ok = bool(re.search("^" + pattern + "$", answer, re.DOTALL)) != negate
    if ok:
        return "PASS" if known_fail else "pass"
    return "fail" if known_fail else "FAIL"


def _resolve(command: str, folder: str) -> str:
    """Make a loadsgf path absolute against the .tst file's folder."""
    words = command.split()
    if words[0] == "loadsgf" and len(words) > 1:
        words[1] = os.path.join(folder, words[1])
    return " ".join(words)


def _argv(engine_cmd: str | Sequence[str] | None) -> list[str]:
    if engine_cmd is None:
        return list(GOGAME_CMD)
    return shlex.split(engine_cmd) if isinstance(engine_cmd, str) else list(engine_cmd)


def totals(tests: list[dict], wall_seconds: float = 0.0) -> dict:
    """Counts of each outcome, nodes and seconds summed, for a list of test records."""
    t = {"tests": len(tests), **{o: 0 for o in OUTCOMES}}
    for r in tests:
        t[r["outcome"]] += 1
    nodes = [r["nodes"] for r in tests if r["nodes"] is not None]
    t["nodes"] = sum(nodes) if nodes else None
    t["seconds"] = sum(r["seconds"] for r in tests)
    t["wall_seconds"] = wall_seconds
    return t


def run_file(
    path: str | os.PathLike,
    engine_cmd: str | Sequence[str] | None = None,
    only: Container[int] | None = None,
) -> dict:
    """Run one .tst file through a fresh engine; return the engine result of the
    module docstring restricted to that file.  Raises EngineError when the
    engine cannot start, FileNotFoundError when the file is missing."""
    name = str(path)  # the file as given names it in reports
    folder = os.path.dirname(os.path.abspath(path))
    with open(path, encoding="utf-8", errors="replace") as f:
        items = parse_tst(f.read())
    argv = _argv(engine_cmd)
    start = time.perf_counter()
    engine = GtpClient(argv, cwd=folder, strict=False)  # junk before an answer is skipped
    try:
        try:
            ident = [engine.send(c)[1] for c in ("name", "version")]
        except EngineError as exc:
            raise EngineError(f"cannot start: {exc}") from None
        tests, setup_errors = [], []
        counters, dead = True, None
        for item in items:
            if item[0] == "setup":
                command = _resolve(item[2], folder)
                if dead:
                    continue
                try:
                    ok, text = engine.send(command)
                except EngineError as exc:
                    dead = {"line": item[1], "command": command, "answer": str(exc)}
                    continue
                if not ok:
                    setup_errors.append(
                        {"file": name, "line": item[1], "command": command, "answer": text}
                    )
                continue
            _, _, number, command, expected = item
            if only is not None and number not in only:
                continue
            command = _resolve(command, folder)
            answer, error, nodes, seconds = None, True, None, 0.0
            if not dead:
                try:
                    counters, answer, error, nodes, seconds = ask_counted(
                        engine, command, number, counters
                    )
                except EngineError as exc:
                    dead = {"line": item[1], "command": command, "answer": str(exc)}
            tests.append(
                {
                    "file": name,
                    "number": number,
                    "command": command,
                    "answer": answer,
                    "error": error,
                    "expected": expected,
                    "outcome": judge(expected, None if error else answer),
                    "nodes": nodes,
                    "seconds": seconds,
                }
            )
        if dead:  # the command the engine died on
            setup_errors.append({"file": name, **dead})
    finally:
        engine.close()
    wall = time.perf_counter() - start
    return {
        "command": argv,
        "name": ident[0],
        "version": ident[1],
        "tests": tests,
        "setup_errors": setup_errors,
        "files": {name: totals(tests, wall)},
        "totals": totals(tests, wall),
    }


def ask_counted(
    engine: GtpClient, command: str, number: int | None = None, counters: bool = True
) -> tuple:
    """One test: (counters still answered, answer, error, nodes, seconds).
    The node counter is reset and read around the command while the engine
    knows those commands (GNU Go and gogame do)."""
    nodes = None
    if counters:
        counters = engine.send("reset_reading_node_counter")[0]
    t0 = time.perf_counter()
    ok, answer = engine.send(command, cmd_id=number)
    seconds = time.perf_counter() - t0
    if counters:
        got, text = engine.send("get_reading_node_counter")
        nodes = int(text) if got and text.isdigit() else None
    return counters, answer, not ok, nodes, seconds


def run(
    paths: Sequence[str | os.PathLike],
    engines: Mapping[str, str | Sequence[str] | None] | None = None,
    only: Container[int] | None = None,
) -> dict:
    """Run every file through every engine ({label: command}, default
    {"gogame": None}); return the --json report."""
    results = {}
    for label, cmd in (engines or {"gogame": None}).items():
        merged = None
        for path in paths:
            result = run_file(path, cmd, only)
            if merged is None:
                merged = result
            else:
                merged["tests"] += result["tests"]
                merged["setup_errors"] += result["setup_errors"]
                merged["files"].update(result["files"])
        wall = sum(t["wall_seconds"] for t in merged["files"].values())
        merged["totals"] = totals(merged["tests"], wall)
        results[label] = merged
    engines = results
    secs = [e["totals"]["seconds"] for e in engines.values()]
    ratio = secs[0] / secs[1] if len(secs) > 1 and secs[1] > 0 else None
    unexpected = sum(e["totals"]["PASS"] + e["totals"]["FAIL"] for e in engines.values())
    return {"engines": engines, "time_ratio": ratio, "unexpected": unexpected}


def _fmt_totals(t: dict) -> str:
    nodes = "-" if t["nodes"] is None else f"{t['nodes']:,}"
    return (
        f"{t['tests']} tests: {t['pass']} pass, {t['fail']} fail, "
        f"{t['PASS']} PASS, {t['FAIL']} FAIL, {t['ignored']} ignored; "
        f"nodes {nodes}, test time {t['seconds']:.3f} s, wall {t['wall_seconds']:.2f} s"
    )


def format_report(report: dict) -> str:
    """The human-readable table: per test one row with each engine's answer,
    outcome, nodes and milliseconds; totals; unexpected outcomes listed last."""
    engines = list(report["engines"].items())
    head = f"{'file':14} {'#':>4} {'command':18} {'expected':16}"
    for _, e in engines:
        head += f" | {e['name'][:22]:22} {'outcome':7} {'nodes':>8} {'ms':>8}"
    lines = [head, "-" * len(head)]
    for row in zip(*(e["tests"] for _, e in engines), strict=True):
        r0 = row[0]
        line = (
            f"{os.path.basename(r0['file'])[:14]:14} {r0['number']:>4} {r0['command'][:18]:18} "
            f"{(r0['expected'] or '')[:16]:16}"
        )
        for r in row:
            ans = "(none)" if r["answer"] is None else ("? " if r["error"] else "") + r["answer"]
            nodes = "-" if r["nodes"] is None else str(r["nodes"])
            line += (
                f" | {ans.splitlines()[0][:22] if ans else '':22} {r['outcome']:7} "
                f"{nodes:>8} {r['seconds'] * 1000:8.1f}"
            )
        lines.append(line)
    lines.append("")
    for label, e in engines:
        lines.append(f"{label} ({e['name']} {e['version']}):")
        if len(e["files"]) > 1:
            for name, t in e["files"].items():
                lines.append(f"  {name}: {_fmt_totals(t)}")
        lines.append(f"  total: {_fmt_totals(e['totals'])}")
        for s in e["setup_errors"]:
            lines.append(f"  error at {s['file']}:{s['line']} {s['command']}: {s['answer']}")
    if report["time_ratio"] is not None:
        (l0, _), (l1, _) = engines[:2]
        lines.append(f"per-test time ratio {l0} / {l1}: {report['time_ratio']:.2f}")
    unexpected = [
        (label, r) for label, e in engines for r in e["tests"] if r["outcome"] in ("PASS", "FAIL")
    ]
    if unexpected:
        lines.append("")
        lines.append("unexpected:")
        for label, r in unexpected:
            lines.append(
                f"  {r['outcome']} {label} {os.path.basename(r['file'])} {r['number']} "
                f"{r['command']}: "
                f"expected {r['expected']}, got {r['answer']!r}"
            )
    return "\n".join(lines)


def parse_only(text: str | None) -> set[int] | None:
    """ "1,5,20" -> {1, 5, 20}; None stays None.  Raises ValueError."""
    if text is None:
        return None
    return {int(x) for x in text.split(",") if x.strip()}


def main(args: argparse.Namespace) -> int:
    """``gogame regress`` on parsed options (files, engine, only, json,
    threads, prove, prove_nodes)."""
    try:
        only = parse_only(args.only)
    except ValueError:
        print(
            f"gogame regress: --only wants numbers like 1,5,20, not {args.only!r}", file=sys.stderr
        )
        return 2
    for path in args.files:
        if not os.path.isfile(path):
            print(f"gogame regress: no such file: {path}", file=sys.stderr)
            return 2
    if getattr(args, "prove", False):
        return _main_prove(args, only)
    if getattr(args, "prove_nodes", None) is not None:
        print("gogame regress: --prove-nodes needs --prove", file=sys.stderr)
        return 2
    gogame = list(GOGAME_CMD)
    # one thread unless asked: node counts then do not depend on the threads
    gogame += ["--threads", str(args.threads or 1)]
    engines = {"gogame": gogame}
    if args.engine:
        engines[args.engine] = args.engine
    try:
        report = run(args.files, engines, only)
    except EngineError as exc:
        print(f"gogame regress: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(format_report(report))
    fails = sum(e["totals"]["FAIL"] for e in report["engines"].values())
    return 1 if fails else 0


# ------------------------------------------------------------------ --prove
PROVE_NODES = 500_000
PROVE_TABLE_MB = 16
PROVE_QUESTIONS = ("attack", "defend")
VERDICTS = ("agrees", "contradicts", "unknown", "unjudged")
_CODES = re.compile(r"\(?([0-3](?:\|[0-3])*)\)?\s*(.*)", re.DOTALL)
_VERTICES = re.compile(r"\b[A-HJ-Z][1-9][0-9]?\b")


def expected_codes(expected: str | None) -> frozenset[int] | None:
    """The answer codes a ``#?`` text accepts, read from its leading code
    (``[1 (A2|C2)]`` -> {1}, ``[(2|3) B4]`` -> {2, 3}, ``[!0]`` -> {1, 2, 3});
    None when there is none to read: no ``#?`` line, ``&``, a pattern not
    starting with a code, or a negated pattern that names moves."""
    m = _EXPECT.match("#? " + expected) if expected is not None else None
    if m is None or "&" in m.group(2):
        return None
    pattern = m.group(1).strip()
    negate = pattern.startswith("!")
    c = _CODES.fullmatch(pattern[1:].strip() if negate else pattern)
    if c is None or (negate and c.group(2).strip()):
        return None
    codes = frozenset(int(x) for x in c.group(1).split("|"))
    return frozenset({0, 1, 2, 3} - codes) if negate else codes


def verdict(question: str, expected: str | None, status: str, code: int | None) -> str:
    """A prover answer against the file's: ``unknown`` unless proven;
    ``unjudged`` when the expected codes cannot be read; ``agrees`` when
    some expected code is consistent with the proven one
    (``mine.consistent``), else ``contradicts``.  Moves are not compared: a
    proven code decides whether the file's move can work."""
    from .mine import consistent

    if status != "proven":
        return "unknown"
    codes = expected_codes(expected)
    if codes is None:
        return "unjudged"
    return "agrees" if any(consistent(question, code, e) for e in codes) else "contradicts"


def _prove_answer(result) -> dict:
    """A ``ProofResult`` as the fields of a test record."""
    from ..core.coords import format_gtp

    if not result.proven:
        return {"status": "unknown", "code": None, "move": None, "answer": "unknown", "line": []}
    move = format_gtp(result.move) if result.code else None
    answer = f"{result.code} {move}" if result.code else "0"
    line = [format_gtp(p) for p in result.line]
    return {"status": "proven", "code": result.code, "move": move, "answer": answer, "line": line}


def named_moves(engine, pt, question: str, expected: str | None) -> list[dict]:
    """The moves named for an ``attack`` (captures) or ``defend`` (saving
    moves, ``PASS`` for none needed) test of the string at ``pt``, as
    answers (``{"code", "move"}``): gogame's reader's (the engine's
    session), then those of the file's expected answer when it expects a
    success."""
    from ..core.coords import format_gtp

    named = []
    ask = engine.session.attack if question == "attack" else engine.session.find_defense
    code, move = ask(pt)
    if code and (move is not None or question == "defend"):
        named.append({"code": code, "move": format_gtp(move)})
    codes = expected_codes(expected)
    if codes and 0 not in codes:
        pattern = expected.split("]")[0]
        moves = _VERTICES.findall(pattern)
        if question == "defend" and "PASS" in pattern.upper():
            moves.append("PASS")
        named += [{"code": max(codes), "move": m} for m in moves]
    return named


def _prove_named(engine, prover, pt, record: dict) -> None:
    """A test the prover's search left unknown: proven when a named move
    is (``mine.prove_named_capture`` or ``mine.prove_named_defence``,
    ``prove_nodes`` a move and ko model)."""
    from .mine import prove_named_capture, prove_named_defence

    question = record["question"]
    named = named_moves(engine, pt, question, record["expected"])
    prove = prove_named_capture if question == "attack" else prove_named_defence
    start = time.perf_counter()
    proof = prove(prover, engine.session.position, record["vertex"], named)
    record["seconds"] += time.perf_counter() - start
    if proof is not None:
        code, move = proof["code"], proof["move"]
        line = [] if move == "PASS" else [move]
        record.update(status="proven", code=code, move=move, answer=f"{code} {move}", line=line)
        record.update(via="move", nodes=record["nodes"] + proof["nodes"])


def _prove_test(engine, prover, item: tuple, name: str) -> dict:
    """One attack/defend test asked of the prover on the engine's position."""
    from ..gtp.protocol import GtpError

    _, _, number, command, expected = item
    words = command.split()
    record = {"file": name, "number": number, "command": command, "question": words[0]}
    record.update(vertex=words[1] if len(words) > 1 else None, expected=expected)
    try:
        pt = engine.parse_stone(words[1:2])
        ask = prover.attack if words[0] == "attack" else prover.defend
        result = ask(engine.session.position, pt)
    except (GtpError, ValueError) as exc:
        record.update(status="error", code=None, move=None, answer=str(exc), line=[])
        record.update(nodes=0, seconds=0.0)
    else:
        record.update(_prove_answer(result), nodes=result.nodes, seconds=result.seconds)
        if not result.proven:
            _prove_named(engine, prover, pt, record)
    record["verdict"] = verdict(words[0], expected, record["status"], record["code"])
    matched = judge(expected, record["answer"]) in ("pass", "PASS")
    record["matches"] = matched if record["status"] == "proven" else None
    return record


def prove_totals(
    tests: list[dict], skipped: int = 0, wall_seconds: float = 0.0, budget: int | None = None
) -> dict:
    """PROVE_TOTALS (module docstring) of a list of --prove test records;
    ``budget_spent`` counts the unknown answers that used ``budget`` nodes."""
    proven = [r for r in tests if r["status"] == "proven"]
    codes = {q: {} for q in PROVE_QUESTIONS}
    for r in sorted(proven, key=lambda r: r["code"]):
        codes[r["question"]][str(r["code"])] = codes[r["question"]].get(str(r["code"]), 0) + 1
    bad = [r for r in tests if r["verdict"] == "contradicts"]
    return {
        "tests": len(tests) + skipped,
        "skipped": skipped,
        "questions": len(tests),
        "proven": {
            **{q: sum(r["question"] == q for r in proven) for q in PROVE_QUESTIONS},
            "all": len(proven),
        },
        "codes": codes,
        "unknown": sum(r["status"] == "unknown" for r in tests),
        "budget_spent": sum(
            r["status"] == "unknown" and budget is not None and r["nodes"] >= budget for r in tests
        ),
        "errors": sum(r["status"] == "error" for r in tests),
        **{v: sum(r["verdict"] == v for r in tests) for v in VERDICTS if v != "unknown"},
        "matches": sum(bool(r["matches"]) for r in tests),
        "contradictions": [
            {k: r[k] for k in ("file", "number", "command", "expected", "answer")} for r in bad
        ],
        "nodes": sum(r["nodes"] for r in tests),
        "seconds": sum(r["seconds"] for r in tests),
        "wall_seconds": wall_seconds,
    }


def prove_file(
    path: str | os.PathLike,
    prove_nodes: int = PROVE_NODES,
    only: Container[int] | None = None,
    prover: Prover | None = None,
) -> dict:
    """Run one .tst file's setup lines through an in-process ``GtpEngine``
    and ask ``prover`` every attack/defend test; return the --prove report
    of that file.  ``prover`` None: a new ``Prover`` with ``prove_nodes``
    (a given one keeps its own budget).  FileNotFoundError when the file is
    missing."""
    import io

    from ..core.prover import Prover
    from ..gtp.engine import GtpEngine

    name, folder = str(path), os.path.dirname(os.path.abspath(path))
    with open(path, encoding="utf-8", errors="replace") as f:
        items = parse_tst(f.read())
    prover = prover or Prover(table_mb=PROVE_TABLE_MB, max_nodes=prove_nodes)
    start = time.perf_counter()
    engine = GtpEngine(log=io.StringIO())  # setup errors are reported, not logged
    tests, setup_errors, skipped = [], [], 0
    for item in items:
        if item[0] == "setup":
            command = _resolve(item[2], folder)
            response = engine.send(command)
            if response.startswith("?"):
                answer = response[1:].strip()
                setup_errors.append(
                    {"file": name, "line": item[1], "command": command, "answer": answer}
                )
        elif only is None or item[2] in only:
            if item[3].split()[0] in PROVE_QUESTIONS:
                tests.append(_prove_test(engine, prover, item, name))
            else:
                skipped += 1
    wall = time.perf_counter() - start
    t = prove_totals(tests, skipped, wall, prover.max_nodes)
    return {
        "prove_nodes": prover.max_nodes,
        "tests": tests,
        "setup_errors": setup_errors,
        "files": {name: t},
        "totals": t,
    }


def prove_run(
    paths: Sequence[str | os.PathLike],
    prove_nodes: int = PROVE_NODES,
    only: Container[int] | None = None,
) -> dict:
    """``prove_file`` on every file with one ``Prover`` (its table kept
    across files); return the --prove report."""
    from ..core.prover import Prover

    prover = Prover(table_mb=PROVE_TABLE_MB, max_nodes=prove_nodes)
    report = {"prove_nodes": prove_nodes, "tests": [], "setup_errors": [], "files": {}}
    for path in paths:
        result = prove_file(path, prove_nodes, only, prover)
        report["tests"] += result["tests"]
        report["setup_errors"] += result["setup_errors"]
        report["files"].update(result["files"])
    files = report["files"].values()
    skipped = sum(t["skipped"] for t in files)
    wall = sum(t["wall_seconds"] for t in files)
    report["totals"] = prove_totals(report["tests"], skipped, wall, prove_nodes)
    return report


def _fmt_prove_totals(t: dict) -> list[str]:
    p, codes = t["proven"], t["codes"]
    by_code = "; ".join(
        f"{q} " + ", ".join(f"{c}: {n}" for c, n in codes[q].items()) for q in codes if codes[q]
    )
    return [
        f"{t['questions']} questions ({t['skipped']} other tests skipped): "
        f"{p['all']} proven ({p['attack']} attack, {p['defend']} defend), "
        f"{t['unknown']} unknown ({t['budget_spent']} spent the budget), {t['errors']} errors",
        f"proven codes: {by_code or '-'}",
        f"against the file: {t['agrees']} agree, {t['contradicts']} contradict, "
        f"{t['unjudged']} unjudged; {t['matches']} match the #? pattern",
        f"nodes {t['nodes']:,}, proving time {t['seconds']:.2f} s, wall {t['wall_seconds']:.2f} s",
    ]


def format_prove_report(report: dict) -> str:
    """The --prove table: one row a question (answer, verdict, nodes,
    milliseconds), the totals, then the contradictions and setup errors."""
    head = f"{'file':14} {'#':>4} {'command':14} {'expected':16} {'prover':14} {'verdict':11}"
    head += f" {'nodes':>8} {'ms':>8}"
    lines = [head, "-" * len(head)]
    for r in report["tests"]:
        lines.append(
            f"{os.path.basename(r['file'])[:14]:14} {r['number']:>4} {r['command'][:14]:14} "
            f"{(r['expected'] or '')[:16]:16} {r['answer'][:14]:14} {r['verdict']:11} "
            f"{r['nodes']:8d} {r['seconds'] * 1000:8.1f}"
        )
    lines.append("")
    lines.append(f"prover, {report['prove_nodes']:,} nodes a question:")
    t = report["totals"]
    lines += ["  " + line for line in _fmt_prove_totals(t)]
    if t["contradictions"]:
        lines.append("contradictions:")
        for c in t["contradictions"]:
            lines.append(
                f"  {os.path.basename(c['file'])} {c['number']} {c['command']}: "
                f"expected {c['expected']}, proven {c['answer']}"
            )
    for s in report["setup_errors"]:
        lines.append(f"error at {s['file']}:{s['line']} {s['command']}: {s['answer']}")
    return "\n".join(lines)


def _main_prove(args: argparse.Namespace, only: set[int] | None) -> int:
    """``gogame regress --prove``: 0, 1 on a contradiction or an error, 2
    for options that --prove cannot use."""
    if args.engine or args.threads is not None:
        print(
            "gogame regress: --prove runs no GTP engine: drop --engine and --threads",
            file=sys.stderr,
        )
        return 2
    nodes = PROVE_NODES if args.prove_nodes is None else args.prove_nodes
    report = prove_run(args.files, nodes, only)
    print(json.dumps(report, indent=1) if args.json else format_prove_report(report))
    t = report["totals"]
    return 1 if t["contradicts"] or t["errors"] or report["setup_errors"] else 0
