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

from ..gtp.client import EngineError, GtpClient

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
                    counters, answer, error, nodes, seconds = _ask(
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


def _ask(engine: GtpClient, command: str, number: int, counters: bool) -> tuple:
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
    """``gogame regress`` on parsed options (files, engine, only, json, threads)."""
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
    gogame = list(GOGAME_CMD)
    if args.threads is not None:
        gogame += ["--threads", str(args.threads)]
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
