#!/usr/bin/env python3
"""The reading kernel's cost a node on reading.tst's questions, and a perf map.

Contract
--------
``python scripts/profile_reading.py [TST] [--runs 5] [--perf SECONDS]
[--json]`` sets up each position of GNU Go's reading.tst (default
``../shared/regress/gnugo/reading.tst``) through an in-process GTP
engine and asks its ``attack`` and ``defend`` questions of the reader
directly, each with an empty 0.5 MB cache: the kernel's time without the
GTP path and without what earlier questions cached.  ``--runs N``: the
best of N passes over the file (after one that loads the kernels), its
nodes and microseconds a node.  Nodes are the same in every pass, so two
versions compare by time alone.

``--perf SECONDS``: loop over the questions for that long instead, after
writing ``/tmp/perf-PID.map`` (perf's map of JIT code: every compiled
function of numba's cache, its address and size) and printing the pid on
stderr, so that ``perf record -p PID`` then ``perf report --sort symbol``
name the kernel's functions.  numba loads cached kernels as object code
and keeps no symbol table; this script reads the object code as numba
loads it (with ``nm``, from binutils).  Not done: call graphs (numba's
code keeps no frame pointers).
"""

import argparse
import io
import json
import os
import subprocess
import sys
import tempfile
import time

from numba.core import codegen

_OBJECTS = []  # (library, object code) of every library loaded from the cache
_numba_set = codegen.CPUCodeLibrary._set_compiled_object


def _keep(library, value):
    _OBJECTS.append((library, bytes(value)))
    return _numba_set(library, value)


def keep_object_code():
    """From now on keep the object code of each library numba loads (for
    ``write_perf_map``); before the first kernel loads."""
    codegen.CPUCodeLibrary._set_compiled_object = _keep


def _symbols(data):
    """(offset, size, name) of the functions of one object file."""
    with tempfile.NamedTemporaryFile(suffix=".o") as f:
        f.write(data)
        f.flush()
        out = subprocess.run(
            ["nm", "-S", "--defined-only", f.name], capture_output=True, text=True, check=True
        ).stdout
    rows = [line.split() for line in out.splitlines()]
    return [(int(r[0], 16), int(r[1], 16), r[3]) for r in rows if len(r) == 4 and r[2] in "TtWw"]


def write_perf_map():
    """Write /tmp/perf-PID.map for the libraries loaded so far; the count."""
    seen = {}
    for library, data in _OBJECTS:
        engine = library._codegen._engine._ee
        symbols = _symbols(data)
        base = None
        for offset, _, name in symbols:  # one exported symbol locates the section
            address = engine.get_function_address(name)
            if address:
                base = address - offset
                break
        for offset, size, name in symbols if base is not None else ():
            seen[base + offset] = (size, name)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for address, (size, name) in sorted(seen.items()):
            f.write(f"{address:x} {size:x} {name}\n")
    return len(seen)


def questions(path):
    """An engine and, per position, its setup commands and questions."""
    from gogame.gtp.engine import GtpEngine
    from gogame.tools.regress import _resolve, parse_tst

    folder = os.path.dirname(os.path.abspath(path))
    groups = []
    with open(path, encoding="utf-8", errors="replace") as f:
        for item in parse_tst(f.read()):
            if item[0] == "setup":
                if not groups or groups[-1][1]:
                    groups.append(([], []))
                groups[-1][0].append(_resolve(item[2], folder))
            elif item[3].split()[0] in ("attack", "defend"):
                groups[-1][1].append(item[3].split())
    return GtpEngine(log=io.StringIO()), groups


def one_pass(engine, groups, repeat=1):
    """(kernel seconds, nodes) of every question ``repeat`` times in a row
    (the position set up once), each with an empty cache."""
    from gogame.core.reading_cache import ReadingCache

    reader = engine.session.reader
    reader.cache = ReadingCache(0.5)
    seconds, nodes = 0.0, reader.nodes
    for setup, asked in groups:
        for command in setup:
            engine.send(command)
        position = engine.session.position
        for words in asked * repeat:
            pt = engine.parse_stone(words[1:2])
            reader.cache.clear()
            t0 = time.perf_counter()
            (reader.attack if words[0] == "attack" else reader.find_defense)(position, pt)
            seconds += time.perf_counter() - t0
    return seconds, reader.nodes - nodes


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("tst", nargs="?", default="../shared/regress/gnugo/reading.tst")
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--perf", type=float, metavar="SECONDS")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if not os.path.exists(args.tst):
        print(f"profile_reading: no such file: {args.tst}", file=sys.stderr)
        return 2
    if args.perf:
        keep_object_code()
    engine, groups = questions(args.tst)
    one_pass(engine, groups)  # loads (or compiles) the kernels
    if args.perf:
        mapped = write_perf_map()
        print(f"pid {os.getpid()}: {mapped} functions mapped", file=sys.stderr, flush=True)
        end = time.perf_counter() + args.perf
        while time.perf_counter() < end:
            one_pass(engine, groups, repeat=5)  # less of the setup's Python
        return 0
    best, nodes = min(one_pass(engine, groups) for _ in range(args.runs))
    report = {"seconds": best, "nodes": nodes, "us_per_node": best / nodes * 1e6}
    if args.json:
        print(json.dumps(report))
    else:
        per = report["us_per_node"]
        print(f"best of {args.runs}: {best:.4f} s, {nodes} nodes, {per:.3f} us a node")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
