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

``--objects DIR`` (with ``--perf``): also write each loaded library's
object code to DIR (``N.o``) and ``DIR/index.json`` (its load address,
end, file).  ``--lines IPS --objects DIR`` then reads sample addresses
(``perf script -F ip``, one hex a line), maps each into its object file
and prints the share of the kernel's samples per innermost function
(inlining resolved) and per source line, with ``addr2line``.  Lines need
kernels compiled with ``NUMBA_DEBUGINFO=1`` (into their own
``NUMBA_CACHE_DIR``, as they differ); see docs/measuring.md.
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


def _loaded():
    """(index, object code, symbols, load address) of each library loaded
    so far whose functions the JIT engine knows."""
    for i, (library, data) in enumerate(_OBJECTS):
        engine = library._codegen._engine._ee
        symbols = _symbols(data)
        for offset, _, name in symbols:  # one exported symbol locates the section
            address = engine.get_function_address(name)
            if address:
                yield i, data, symbols, address - offset
                break


def write_perf_map():
    """Write /tmp/perf-PID.map for the libraries loaded so far; the count."""
    seen = {}
    for _, _, symbols, base in _loaded():
        for offset, size, name in symbols:
            seen[base + offset] = (size, name)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as f:
        for address, (size, name) in sorted(seen.items()):
            f.write(f"{address:x} {size:x} {name}\n")
    return len(seen)


def write_objects(folder):
    """Write each loaded library's object code to ``folder`` (``N.o``) and
    ``index.json``: [load address, end, file] rows; the count."""
    os.makedirs(folder, exist_ok=True)
    rows = []
    for i, data, symbols, base in _loaded():
        path = os.path.join(folder, f"{i}.o")
        with open(path, "wb") as f:
            f.write(data)
        rows.append([base, base + max(o + size for o, size, _ in symbols), path])
    with open(os.path.join(folder, "index.json"), "w") as f:
        json.dump(sorted(rows), f)
    return len(rows)


def _code_section(path):
    """The name of the object file's code section (numba's large code
    model puts it in ``.ltext``)."""
    out = subprocess.run(["objdump", "-h", path], capture_output=True, text=True).stdout
    sizes = {
        row.split()[1]: int(row.split()[2], 16)
        for row in out.splitlines()
        if row.split()[:1] and row.split()[0].isdigit()
    }
    return max((s for s in sizes if "text" in s), key=lambda s: sizes[s])


def frames(path, offsets):
    """Per offset into ``path``'s code, its inline frames innermost first:
    [(function, file:line), ...] (``addr2line -f -i``)."""
    out = subprocess.run(
        ["addr2line", "-f", "-i", "-a", "-e", path, "-j", _code_section(path)]
        + [hex(o) for o in offsets],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    groups = []  # per address, its lines: function, place, function, place ...
    for line in out:
        if line.startswith("0x"):
            groups.append([])
        elif groups:
            groups[-1].append(line)
    return [
        [(short_name(f), place.split(" (")[0]) for f, place in zip(g[::2], g[1::2], strict=True)]
        for g in groups
    ]


def short_name(symbol):
    """``module.function`` of a numba symbol (``_ZN6gogame6kernel7reading5_readB3v16...``
    gives ``reading._read``); other names as they are."""
    if not symbol.startswith("_ZN"):
        return symbol
    parts, i = [], 3
    while i < len(symbol) and symbol[i].isdigit():
        j = i
        while j < len(symbol) and symbol[j].isdigit():
            j += 1
        n = int(symbol[i:j])
        parts.append(symbol[j : j + n])
        i = j + n
    return ".".join(parts[-2:]) or symbol


def attribute(ips, folder):
    """(kernel samples, {function: samples}, {file:line: samples}) of the
    sample addresses ``ips`` that fall in the objects ``write_objects``
    wrote to ``folder``; innermost frames, inlining resolved."""
    with open(os.path.join(folder, "index.json")) as f:
        rows = json.load(f)
    per = {}
    for ip in ips:
        for start, end, path in rows:
            if start <= ip < end:
                per.setdefault(path, []).append(ip - start)
                break
    functions, lines, total = {}, {}, 0
    for path, offsets in per.items():
        for stack in frames(path, offsets):
            if not stack:
                continue
            total += 1
            function, where = stack[0]
            functions[function] = functions.get(function, 0) + 1
            where = os.path.join(*where.split(os.sep)[-2:])
            lines[where] = lines.get(where, 0) + 1
    return total, functions, lines


def print_attribution(ips_path, folder, top=25):
    """Print ``attribute``'s shares, the ``top`` functions and lines."""
    with open(ips_path) as f:
        ips = [int(word, 16) for word in f.read().split()]
    total, functions, lines = attribute(ips, folder)
    print(f"{len(ips)} samples, {total} in the kernel")
    for title, counts in (("function", functions), ("line", lines)):
        print(f"--- by {title}, % of the kernel's samples")
        for name, c in sorted(counts.items(), key=lambda kv: -kv[1])[:top]:
            print(f"{100 * c / max(total, 1):6.2f} % {name}")


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
    p.add_argument("--objects", metavar="DIR")
    p.add_argument("--lines", metavar="IPS")
    args = p.parse_args()
    if args.lines:
        if not args.objects:
            print("profile_reading: --lines needs --objects DIR", file=sys.stderr)
            return 2
        for need in (args.lines, os.path.join(args.objects, "index.json")):
            if not os.path.exists(need):
                print(f"profile_reading: no such file: {need}", file=sys.stderr)
                return 2
        print_attribution(args.lines, args.objects)
        return 0
    if not os.path.exists(args.tst):
        print(f"profile_reading: no such file: {args.tst}", file=sys.stderr)
        return 2
    if args.perf:
        keep_object_code()
    engine, groups = questions(args.tst)
    one_pass(engine, groups)  # loads (or compiles) the kernels
    if args.perf:
        mapped = write_perf_map()
        if args.objects:
            write_objects(args.objects)
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
