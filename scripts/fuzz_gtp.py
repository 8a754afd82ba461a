#!/usr/bin/env python3
"""GTP fuzzer: hostile lines to ``gogame gtp`` on pipes and to the in-process engine.

Contract
--------
``python scripts/fuzz_gtp.py [--lines N] [--seed S] [--mode process|inprocess|both]``
sends N random lines (bytes) to a ``gogame gtp`` subprocess over pipes
and/or to an in-process ``GtpEngine`` through ``gtp.serve`` on byte
streams.  The lines are: known commands with right and wrong arguments,
random tokens, random bytes (control and non-UTF-8), ids (0, leading zeros,
5000 digits), empty and comment-only lines, and lines of about 1 MB (over
and under the engine's limit).  After every line the fuzzer sends
``showboard`` and ``gogame-hash`` (with ids of their own) and checks:

* a line that is blank after GTP §3.1 preprocessing (worked out here, not
  with gogame's code) gets no response, any other exactly one;
* each response is ``=id text`` / ``?id text`` with the line's id echoed
  (as a number: ``007`` -> ``7``), no empty line inside, one blank line after;
* after a ``?`` response the board and both hash words are unchanged;
* the engine never dies and, at the end, answers ``name`` and exits 0 on
  ``quit``.

``? internal error`` responses are well formed but are counted as findings.
Prints one summary line per mode (lines, answered, errors, findings,
seconds); exits 1 if any check failed or any internal error was seen.

Not sent (they would end the run or take seconds each): ``quit``, move
generation (``genmove`` and kin) and the streaming ``analyze`` commands;
reading commands (``attack``, ``defend``, ``final_score``, the
``gogame-gfx_`` commands...) go only to boards up to 9x9, half as often,
and ``increase_depths`` is kept to at most two steps up.  Runs in a
temporary directory, where hostile SGF files and copies of a few games
from ``sgf/`` are written for ``loadsgf`` (``printsgf`` may be sent any of
these paths, so no path outside that directory is ever given).
"""

import argparse
import io
import os
import pathlib
import random
import re
import sys
import tempfile
import time

from gogame.gtp.client import EngineError, GtpClient

ROOT = pathlib.Path(__file__).resolve().parent.parent
MAX_LINE = 1 << 20  # the engine's documented line limit (bytes)
CHECK_ID = 10**12  # the fuzzer's own commands count up from here
EXCLUDED = re.compile(r"quit\Z|.*genmove.*|.*analyze\Z|gogui-interrupt\Z")
WRITERS = re.compile(r"printsgf\Z|.*save.*")  # commands that write the file named
READING = re.compile(
    r"attack\Z|defend\Z|ladder_attack\Z|does_attack\Z|does_defend\Z"
    r"|final_s.*|gogame-gfx_.*"
)  # they read: kept to small boards
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_FIRST = re.compile(r"([=?])([0-9]*) ")

COLORS = ["b", "w", "B", "W", "black", "White", "WHITE", "x", "empty", "bw", "0"]
WORDS = [
    "on",
    "off",
    "OFF",
    "true",
    "-",
    "=",
    "?",
    "\u00e9",
    "\u00a0",
    "\u3000",
    "\ufffd",
    "\U0001f600",
    "\u202e",
    "e\u0301",
    "\u2028",
    "NaN",
    "inf",
    "-inf",
    "1e400",
    "0x10",
    "+7",
    "-0",
    "2.5",
    "1.",
    ".5",
    "9" * 5000,
    "-1",
    "0",
    "1",
    "26",
    "1000",
]
SIZES = ["2", "5", "7", "9", "9", "9", "13", "19", "25", "1", "0", "26", "-9", "9.0", "09"]
LETTERS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"


# ------------------------------------------------------------- reference
def expected_id(line):
    """What the engine must do with one input line (bytes, no LF):
    None for no response, else the id string to echo ('' for none)."""
    text = line[:MAX_LINE].decode("utf-8", "replace")
    text = _CONTROL.sub("", text).split("#", 1)[0].replace("\t", " ")
    tokens = [t for t in text.split(" ") if t]
    if not tokens:
        return None
    if tokens[0].isascii() and tokens[0].isdigit():
        return tokens[0].lstrip("0") or "0"
    return ""


def command_name(line):
    """The command name a line holds after preprocessing, or None."""
    text = _CONTROL.sub("", line[:MAX_LINE].decode("utf-8", "replace"))
    tokens = [t for t in text.split("#", 1)[0].replace("\t", " ").split(" ") if t]
    if tokens and tokens[0].isascii() and tokens[0].isdigit():
        tokens = tokens[1:]
    return tokens[0] if tokens else None


def response_problem(resp, want_id):
    """Why ``resp`` (bytes, one response with its final blank line) is not
    a well-formed answer echoing ``want_id``; None if it is."""
    if not resp.endswith(b"\n\n"):
        return "does not end with a blank line"
    try:
        lines = resp[:-2].decode("utf-8").split("\n")
    except UnicodeDecodeError:
        return "not UTF-8"
    m = _FIRST.match(lines[0])
    if not m:
        return "first line is not '=id ' or '?id '"
    if m.group(2) != want_id:
        return f"id {m.group(2)!r}, expected {want_id!r}"
    if any(not ln.strip() for ln in lines[1:]):
        return "blank line inside the response"
    return None


# ------------------------------------------------------------- generator
class Generator:
    """Random hostile lines; keeps reading commands to small boards."""

    def __init__(self, rng, commands, files):
        self.rng = rng
        self.commands = [c for c in commands if not EXCLUDED.match(c)]
        self.files = files
        self.size = 19
        self.depth = 0

    def vertex(self):
        r = self.rng
        if r.random() < 0.85:
            n = min(self.size, 25) if r.random() < 0.9 else 25
            v = f"{r.choice(LETTERS[:n])}{r.randint(1, n)}"
            return v.lower() if r.random() < 0.3 else v
        return r.choice(
            [
                "pass",
                "PASS",
                "resign",
                "I5",
                "A0",
                "A26",
                "Z99",
                "a-1",
                "aa",
                "A",
                "1",
                "A1A",
                "\u00c51",
                "j\x009",
            ]
        )

    def token(self):
        r = self.rng
        pool = r.randrange(5)
        if pool == 0:
            return r.choice(COLORS)
        if pool == 1:
            return self.vertex()
        if pool == 2:
            return r.choice(WORDS)
        if pool == 3:
            return r.choice(self.files)
        return r.choice(self.commands)

    def args(self, name):
        r = self.rng
        if r.random() < 0.25:  # anything at all
            return [self.token() for _ in range(r.randrange(5))]
        if name == "boardsize":
            return [r.choice(SIZES)]
        if name == "loadsgf":
            return [r.choice(self.files)] + r.choice(
                [[], [str(r.randint(0, 80))], [self.vertex()], ["9" * 30], ["9" * 5000]]
            )
        if name in ("komi", "fixed_handicap", "place_free_handicap"):
            return [r.choice(WORDS + SIZES)]
        if name in ("does_attack", "does_defend"):
            return [self.vertex(), self.vertex()]
        if READING.match(name) or name in ("countlib", "findlib", "color", "worm_stones"):
            return [self.vertex()]
        return [r.choice(COLORS), self.vertex()] + [self.token() for _ in range(r.randrange(2))]

    def command(self):
        r = self.rng
        weights = {"play": 25, "trymove": 4, "popgo": 4, "undo": 4, "boardsize": 2}
        names = self.commands
        name = r.choices(names, [weights.get(n, 1) for n in names])[0]
        if READING.match(name) and (self.size > 9 or r.random() < 0.5):
            name = "countlib"
        if name == "increase_depths":
            if self.depth >= 2:
                name = "decrease_depths"
            self.depth += 1 if name == "increase_depths" else -1
        elif name == "decrease_depths":
            self.depth -= 1
        words = [name] + self.args(name)
        if r.random() < 0.05:
            words[0] = words[0].upper()
        return " ".join(words).encode("utf-8")

    def mutate(self, line):
        r = self.rng
        junk = [
            b"\x00",
            b"\r",
            b"\t",
            b"\x1b",
            b"\x7f",
            b"\xff",
            b"\xc3",
            b"\xc2\x85",
            b"#",
            b" ",
            b"\x0b",
            b"\x0c",
            b"\xe2\x80\xa8",
            b"\xed\xa0\x80",
        ]
        for _ in range(r.randint(1, 3)):
            at = r.randint(0, len(line))
            line = line[:at] + r.choice(junk) + line[at:]
        return line

    def huge(self):
        r = self.rng
        n = r.choice([MAX_LINE - 200, MAX_LINE - 1, MAX_LINE, MAX_LINE + 1, MAX_LINE + 5000])
        head = self.command() + b" "
        fill = r.choice([b"x", b" ", b"9", b"\x00", b"\xff", b"#"])
        return (head + fill * n)[:n]

    def raw_line(self):
        r = self.rng
        kind = r.random()
        if kind < 0.0007:
            return self.huge()
        if kind < 0.05:
            return r.choice(
                [
                    b"",
                    b" ",
                    b"\t \t",
                    b"# interrupt",
                    b"  # x y",
                    b"\r",
                    b"\x00\x01\x02",
                    b"#",
                    b"\x7f\r\t",
                ]
            )
        if kind < 0.10:
            return bytes(r.choice(range(256)) for _ in range(r.randrange(60))).replace(b"\n", b"")
        if kind < 0.17:
            return " ".join(self.token() for _ in range(r.randint(1, 6))).encode("utf-8")
        return self.command()

    def line(self):
        """One line (bytes, no LF) whose command is not excluded."""
        r = self.rng
        while True:
            line = self.raw_line()
            if r.random() < 0.3:
                line = (
                    r.choice([b"1", b"0", b"007", b"42", b"1" * 30, b"9" * 5000])
                    + r.choice([b" ", b"\t", b""])
                    + line
                )
            if r.random() < 0.1:
                line = self.mutate(line)
            name = command_name(line)
            if name is None or not (EXCLUDED.match(name) or self.writes_outside(line, name)):
                return line

    def writes_outside(self, line, name):
        """Would ``line`` make the engine write a path outside the run's folder
        (``printsgf /dev/null`` as root would replace the device)?"""
        if not WRITERS.match(name):
            return False
        folder = os.path.dirname(self.files[0]) + os.sep
        words = line.decode("utf-8", "replace").replace("\t", " ").split(" ")
        return any("/" in w and not w.startswith(folder) or w.startswith(".") for w in words)


# ------------------------------------------------------------ transports
class Process:
    """``gogame gtp`` on pipes, through ``GtpClient``'s byte level."""

    def __init__(self, cwd, timeout, extra=()):
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.err = open(os.path.join(cwd, "stderr.log"), "wb")
        self.engine = GtpClient(
            [sys.executable, "-m", "gogame", "gtp", *extra],
            cwd=cwd,
            env=env,
            stderr=self.err,
            timeout=timeout,
        )

    def exchange(self, data, count):
        """Write ``data``; return the next ``count`` responses (None: died or hung)."""
        out = []
        try:
            self.engine.write(data)
            while len(out) < count:
                out.append(self.engine.read_raw())
        except EngineError:
            pass
        return out + [None] * (count - len(out))

    def close(self):
        """Send quit; the exit status (None if it had to be killed)."""
        rc = self.engine.close(timeout=60)
        self.err.close()
        return rc


class InProcess:
    """A ``GtpEngine`` with the real session, driven through ``gtp.serve``."""

    def __init__(self, cwd, timeout, extra=()):
        sys.path.insert(0, str(ROOT))
        from gogame.gtp import server as gtp

        self.gtp = gtp
        self.log = open(os.path.join(cwd, "stderr.log"), "w")
        self.engine = gtp.GtpEngine(factory=gtp.default_factory(), log=self.log)

    def exchange(self, data, count):
        out = io.BytesIO()
        self.gtp.serve(self.engine, io.BytesIO(data), out)
        parts = [p + b"\n\n" for p in out.getvalue()[:-2].split(b"\n\n")] if out.getvalue() else []
        return (parts + [None] * count)[:count] if len(parts) <= count else parts

    def close(self):
        self.log.close()
        return 0 if self.engine.send("quit") == "= \n\n" and self.engine.disconnect else 1


# -------------------------------------------------------------- the run
class Fuzz:
    """Sends batches of lines, each followed by the state check, and checks."""

    def __init__(self, transport, gen, log=None):
        self.t = transport
        self.gen = gen
        self.log = log
        self.check_id = CHECK_ID
        self.stats = dict(lines=0, answered=0, errors=0, internal=0, failures=0)
        self.kinds = {}
        self.state = None
        self.dead = False

    def fail(self, line, why):
        """Count a failed check; print the first three of each kind."""
        self.stats["failures"] += 1
        kind = re.sub(r"[0-9]+", "N", why)[:50]
        self.kinds[kind] = self.kinds.get(kind, 0) + 1
        if self.kinds[kind] <= 3:
            why = why if len(why) <= 300 else why[:300] + " ..."
            print(
                f"FAIL {why}: line {line[:120]!r}{' ...' if len(line) > 120 else ''}",
                file=self.log or sys.stderr,
            )

    def checks(self):
        ids = (self.check_id + 1, self.check_id + 2)
        self.check_id += 2
        return f"{ids[0]} showboard\n{ids[1]} gogame-hash\n".encode(), [str(i) for i in ids]

    def batch(self, lines):
        data, plan = [], []
        for line in lines:
            want = expected_id(line)
            check, ids = self.checks()
            data += [line, b"\n", check]
            plan.append((line, want, ids))
        count = sum(1 + (want is not None) for _, want, _ in plan) + len(plan)
        responses = iter(self.t.exchange(b"".join(data), count))
        for line, want, ids in plan:
            if not self.one(line, want, ids, responses):
                return False
        return True

    def one(self, line, want, ids, responses):
        self.stats["lines"] += 1
        resp = next(responses) if want is not None else b""
        board, words = next(responses), next(responses)
        if None in (resp, board, words):
            self.dead = True
            self.fail(line, "no response: the engine died or hung")
            return False
        for r, i in ((board, ids[0]), (words, ids[1])):
            why = response_problem(r, i)
            if why:
                self.fail(line, f"state check: {why} (got {r[:80]!r}; answered {resp[:80]!r})")
                return False
        if want is not None:
            self.stats["answered"] += 1
            why = response_problem(resp, want)
            if why:
                self.fail(line, f"{why}: {resp[:120]!r}")
            if resp.startswith(b"?"):
                self.stats["errors"] += 1
                if b" internal error" in resp.split(b"\n", 1)[0]:
                    self.stats["internal"] += 1
                    self.fail(line, f"internal error: {resp[:200]!r}")
                state = (board.split(b" ", 1)[1], words.split(b" ", 1)[1])
                if self.state is not None and state != self.state:
                    self.fail(line, "the position changed after an error")
        self.state = (board.split(b" ", 1)[1], words.split(b" ", 1)[1])
        self.gen.size = max(2, board.count(b"\n") - 4)
        return True

    def run(self, total, batch=50):
        t0 = time.perf_counter()
        while self.stats["lines"] < total and not self.dead:
            n = min(batch, total - self.stats["lines"])
            if not self.batch([self.gen.line() for _ in range(n)]):
                break
        final = self.t.exchange(b"name\n", 1)[0] if not self.dead else None
        if final is None or not final.startswith(b"= "):
            self.fail(b"name", f"no answer to name at the end: {final!r}")
        rc = self.t.close()
        if rc != 0:
            self.fail(b"quit", f"exit status {rc}")
        self.stats["seconds"] = round(time.perf_counter() - t0, 1)
        return self.stats


def hostile_files(folder):
    """Paths for loadsgf: real games, hostile files, odd paths."""
    folder = pathlib.Path(folder)
    files = {
        "garbage.sgf": b"\xff\xfe(;;;",
        "truncated.sgf": b"(;SZ[9];B[ee];W[",
        "bigsz.sgf": b"(;SZ[99];B[aa])",
        "offboard.sgf": b"(;SZ[9];B[zz])",
        "occupied.sgf": b"(;SZ[9];B[ee];W[ee])",
        "empty.sgf": b"",
        "deep.sgf": b"(;SZ[9]" + b"(;B[aa]" * 5000 + b")" * 5001,
        "latin1.sgf": b"(;CA[latin-1]SZ[9]C[\xe9\xff];B[cc])",
        "ok.sgf": b"(;SZ[9]KM[6.5]AB[cc][dd]AW[ee];B[ff];W[gg];B[]IL[hh];W[hh])",
    }
    for name, data in files.items():
        (folder / name).write_bytes(data)
    games = []  # copies: printsgf may overwrite any path it gets
    for game in sorted((ROOT / "sgf").glob("*.sgf"))[::4]:
        (folder / game.name).write_bytes(game.read_bytes())
        games.append(str(folder / game.name))
    odd = [
        "/dev/null",
        "/dev/zero",
        "/dev/stdin",
        "/proc/self/fd/0",
        "/",
        ".",
        "no-such.sgf",
        "",
        "\u00e9\ufffd.sgf",
        str(folder / ("a" * 300)),
    ]
    return [str(folder / n) for n in files] + games + odd


def fuzz(mode, lines, seed, timeout=120, batch=50, log=None):
    """One fuzz run; returns its statistics (see the module docstring)."""
    with tempfile.TemporaryDirectory(prefix="fuzz_gtp") as tmp:
        cwd = os.getcwd()
        os.chdir(tmp)  # in-process file commands write here
        try:
            files = hostile_files(tmp)
            transport = (Process if mode == "process" else InProcess)(tmp, timeout)
            names = _command_names(transport)
            gen = Generator(random.Random(seed), names, files)
            return Fuzz(transport, gen, log).run(lines, batch)
        finally:
            os.chdir(cwd)


def _command_names(transport):
    resp = transport.exchange(b"list_commands\n", 1)[0]
    if resp is None or not resp.startswith(b"= "):
        raise SystemExit(f"fuzz_gtp: list_commands failed: {resp!r}")
    return resp[2:].decode().split()


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--lines", type=int, default=100000, help="lines per mode (default 100000)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--mode", choices=["process", "inprocess", "both"], default="both")
    p.add_argument("--batch", type=int, default=50, help="lines written before reading")
    p.add_argument(
        "--timeout",
        type=float,
        default=120,
        help="seconds to wait for a response before calling the engine hung",
    )
    args = p.parse_args(argv)
    bad = 0
    for mode in ["process", "inprocess"] if args.mode == "both" else [args.mode]:
        s = fuzz(mode, args.lines, args.seed, timeout=args.timeout, batch=args.batch)
        print(
            f"{mode}: {s['lines']} lines, {s['answered']} answered, {s['errors']} errors, "
            f"{s['internal']} internal errors, {s['failures']} failed checks, "
            f"{s['seconds']} s ({s['lines'] / max(s['seconds'], 1e-9):.0f} lines/s)"
        )
        bad += s["failures"]
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
