"""Benchmarks (figures for README, never timed tests).

``board``: trymove+popgo pairs per second on random legal 19x19 positions,
replay moves per second with and without hash checking, and the warm start
of ``gogame --version``.
``cache``: bytes per entry and entries per MB of each reading-cache scheme at
9x9, 13x13 and 19x19, and probe and store throughput (a numba loop over
random question words on a real position).  Each figure is the median of several runs made in
this one process, so ratios between them are fair on a noisy machine.
``threads``: time to solution of the hard reading problems in
``gogame/data/hard_problems.json`` (positions from the project's games where
the serial search needs >= 20 k nodes; ``scripts/find_hard_problems.py``
made them) at each thread count, with ABDADA and with the shared-cache
baseline (threads that share the cache but never defer): seconds, nodes,
speed-up, node overhead, the ABDADA counters, and whether every answer
equals the serial one.  The cache is cleared before each problem.
``playouts``: playouts a second on one thread on empty 9x9, 13x13 and
19x19 boards: the player's search (tree, RAVE, playouts) and plain
playouts without a tree, median of ``runs`` runs of ``seconds`` each.
``startup``: seconds to the first answers of a fresh ``gogame gtp``, with an
empty numba cache and a warm one (``tools/startup.py``).
"""

from __future__ import annotations

import glob
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numba import njit

from ..core.position import Position
from ..kernel import board as kb
from ..kernel import cache as kc
from ..kernel import playout as kp
from ..kernel.layout import BLACK, COLOR, EMPTY, H_W

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # gogame/


@njit(cache=True)
def _random_moves(s, hw, keys, size, nmoves, seed):
    """Play up to ``nmoves`` random legal moves, alternating colours."""
    np.random.seed(seed)
    w = size + 2
    color = 1
    played = 0
    for _ in range(nmoves * 4):
        if played == nmoves:
            break
        pos = (np.random.randint(size) + 1) * w + np.random.randint(size) + 1
        if kb.play(s, hw, keys, pos, color):
            played += 1
            color = 3 - color
    return played


@njit(cache=True)
def _pairs(s, hw, keys, cand, reps):
    """trymove+popgo over every candidate, ``reps`` times; count the pairs."""
    n = 0
    for _ in range(reps):
        for i in range(cand.shape[0]):
            if kb.trymove(s, hw, keys, cand[i], 1 + (i & 1)):
                kb.popgo(s, hw, keys)
                n += 1
    return n


def trymove_rate(seconds: float = 1.0, positions: int = 20, size: int = 19) -> tuple[float, int]:
    """Median trymove+popgo pairs per second over random positions, and the
    number of candidate points tried per pass over them."""
    setups = []
    for k in range(positions):
        p = Position(size)
        _random_moves(p.s, p.hw, p.keys, size, 60 + 10 * k, k)
        w = int(p.s[H_W])
        cand = np.array(
            [
                (r + 1) * w + c + 1
                for r in range(size)
                for c in range(size)
                if p.s[COLOR + (r + 1) * w + c + 1] == EMPTY
            ],
            np.int32,
        )
        setups.append((p, cand))

    def run() -> int:
        return sum(_pairs(p.s, p.hw, p.keys, c, 10) for p, c in setups)

    return _timed_rate(run, seconds), sum(len(c) for _, c in setups)


def replay_rate(
    games: Sequence[str], check_hashing: bool | str | None, runs: int = 3
) -> tuple[float, int, int]:
    """Median replay moves per second (kernel time, parsing excluded)."""
    from .replay import replay_games

    rates = []
    for _ in range(runs):
        t = replay_games(games, check_hashing)["total"]
        rates.append(t["moves_per_second"])
    return statistics.median(rates), t["moves"], t["mismatches"]


def warm_start(runs: int = 5, argv: Sequence[str] = ("--version",)) -> float:
    """Median seconds for ``gogame ARGV`` to finish, after one warm-up."""
    exe = shutil.which("gogame")
    cmd = [exe] if exe else [sys.executable, "-m", "gogame"]
    times = []
    for i in range(runs + 1):
        t0 = time.perf_counter()
        subprocess.run(cmd + list(argv), capture_output=True, check=True)
        if i:
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


QMASK = (1 << 53) - 1


@njit(cache=True, inline="always")
def _question(j):
    """The ``j``-th random-looking question word (distinct for distinct j)."""
    return (np.int64(j) * np.int64(0x5851F42D4C957F2D)) & QMASK


@njit(cache=True)
def _cache_stores(table, meta, stats, s, hw, pk, first, n):
    """Store a result for questions ``first`` .. ``first + n - 1``."""
    for j in range(first, first + n):
        kc.store(table, meta, stats, s, hw, _question(j), pk, j & 0xFFFF, 1 + (j & 1023))
    return n


@njit(cache=True)
def _cache_probes(table, meta, stats, s, hw, pk, n):
    """Probe questions 0 .. 2n-1 interleaved (0, n, 1, n+1, ...); return the hits."""
    hits = 0
    for i in range(2 * n):
        j = (i >> 1) + (i & 1) * n
        if kc.probe(table, meta, stats, s, hw, _question(j), pk) >= 0:
            hits += 1
    return hits


def _bench_position(size, games):
    """A real position of ``size``: the first game of that size at move 100
    (random legal moves when there is none)."""
    from ..core.sgfio import load_game

    for path in games or ():
        try:
            g = load_game(path)
        except ValueError:
            continue
        if g.size != size:
            continue
        p = Position(size)
        try:
            for ev in g.events:
                if ev[0] == "setup":
                    p.setup(ev[1])
                elif ev[0] == "move" and ev[3] <= 100 and ev[1] is not None:
                    p.play(ev[1], ev[2])
        except ValueError:
            continue
        return p, os.path.basename(path)
    p = Position(size)
    _random_moves(p.s, p.hw, p.keys, size, size * size // 3, size)
    return p, "random"


def _timed_rate(fn, seconds, runs=5):
    """Median calls of ``fn`` (returning operations) per second, each run
    repeated to last about ``seconds / 10``."""
    t0 = time.perf_counter()
    fn()
    reps = max(1, int(seconds / 10 / max(time.perf_counter() - t0, 1e-6)))
    rates = []
    for _ in range(runs):
        t0 = time.perf_counter()
        count = sum(fn() for _ in range(reps))
        rates.append(count / (time.perf_counter() - t0))
    return statistics.median(rates)


def cache_rates(
    scheme: str, size: int, position: Position, seconds: float, budget_mb: float = 4.0
) -> tuple[float, float, float]:
    """(stores/s, probes/s, probe hit rate) of ``scheme`` on ``position``:
    stores of new questions into a full table (the steady state of reading:
    mostly replacements), probes of half stored, half unknown questions."""
    table, meta = kc.new_cache(int(budget_mb * 2**20), kc.SCHEMES[scheme], size)
    stats = np.zeros(5, np.int64)
    pk = np.zeros(32, np.int64)
    n = int(min(meta[kc.M_CAPACITY] // 4, 1 << 16))
    s, hw = position.s, position.hw
    first = [0]

    def stores() -> int:
        first[0] += n
        return _cache_stores(table, meta, stats, s, hw, pk, first[0], n)

    def probes() -> int:
        _cache_probes(table, meta, stats, s, hw, pk, n)
        return 2 * n

    _cache_stores(table, meta, stats, s, hw, pk, 0, 4 * n)  # fill the table
    store_rate = _timed_rate(stores, seconds)
    table[:] = 0
    _cache_stores(table, meta, stats, s, hw, pk, 0, n)
    hits = _cache_probes(table, meta, stats, s, hw, pk, n)
    probe_rate = _timed_rate(probes, seconds)
    return store_rate, probe_rate, hits / (2 * n)


def cache_bench(
    seconds: float = 1.0, games: Sequence[str] | None = None, sizes: Iterable[int] = (9, 13, 19)
) -> dict[str, Any]:
    """Per board size and scheme: bytes per entry, entries per MB (the
    capacity of a 1 MB budget), stores/s and probes/s; and how many times
    the entries of ``full`` ``double`` holds per MB."""
    boards = {}
    for size in sizes:
        position, source = _bench_position(size, games)
        row = {"position": source}
        for name, scheme in kc.SCHEMES.items():
            table, meta = kc.new_cache(2**20, scheme, size)
            store_rate, probe_rate, hit_rate = cache_rates(name, size, position, seconds)
            row[name] = {
                "bytes_per_entry": 8 * int(meta[kc.M_WPE]),
                "entries_per_mb": int(meta[kc.M_CAPACITY]),
                "stores_per_second": round(store_rate),
                "probes_per_second": round(probe_rate),
                "probe_hit_rate": round(hit_rate, 3),
            }
        row["ratio_double_full"] = round(
            row["double"]["entries_per_mb"] / row["full"]["entries_per_mb"], 3
        )
        boards[str(size)] = row
    out = {"boards": boards}
    if "19" in boards:
        ratio = boards["19"]["ratio_double_full"]
        out["goal_19x19_double_vs_full"] = {"ratio": ratio, "target": 4.5, "met": ratio >= 4.5}
    return out


# ------------------------------------------------------------- threads
def load_problems(path: str | os.PathLike | None = None) -> list[dict[str, Any]]:
    """The hard reading problems (a list of dicts; see the module doc)."""
    import json

    if path is None:
        path = os.path.join(PACKAGE, "data", "hard_problems.json")
    with open(path) as f:
        return json.load(f)


def problem_position(problem: dict[str, Any]) -> Position:
    """The problem's board as a ``Position`` (setup stones and ko point)."""
    from ..core.coords import parse_gtp

    size = problem["size"]
    position = Position(size)
    rows = problem["board"]
    stones = {
        (size - 1 - r, c): "bw"["XO".index(ch)]
        for r, row in enumerate(rows)
        for c, ch in enumerate(row)
        if ch in "XO"
    }
    position.setup(stones)
    if problem.get("ko"):
        position.set_ko(parse_gtp(problem["ko"], size))
    return position


def _solve_all(reader, problems):
    """(seconds, nodes, answers) over the problems, the cache cleared before each."""
    from ..core.coords import parse_gtp

    seconds, nodes, answers = 0.0, 0, []
    for problem, position in problems:
        target = parse_gtp(problem["target"], problem["size"])
        ask = reader.attack if problem["question"] == "attack" else reader.find_defense
        reader.cache.clear()
        before = reader.nodes
        t0 = time.perf_counter()
        answers.append(ask(position, target))
        seconds += time.perf_counter() - t0
        nodes += reader.nodes - before
    return seconds, nodes, answers


def _thread_counters(reader):
    keys = ("deferred", "marks", "researches", "reprobe_cuts", "stopped", "hits")
    stats = reader.thread_stats()
    out = {k: sum(st[k] for st in stats) for k in keys}
    out["nodes_per_thread"] = [st["nodes"] for st in stats]
    return out


def threads_bench(
    threads: Sequence[int] = (1, 2),
    modes: Sequence[str] = ("abdada", "shared-cache"),
    cache_mb: float = 64.0,
    runs: int = 1,
    problems_path: str | os.PathLike | None = None,
) -> dict[str, Any]:
    """Time to solution of the hard problems at each thread count and mode;
    seconds are the median of ``runs`` runs (nodes and counters from the
    last).  Thread count 1 is the serial search, shared by both modes."""
    from ..core.reader import Reader
    from ..core.reading_cache import ReadingCache

    problems = [(p, problem_position(p)) for p in load_problems(problems_path)]
    out = {"problems": len(problems), "cache_mb": cache_mb, "runs": runs, "cpus": os.cpu_count()}
    serial = None
    for mode in modes:
        table = {}
        for n in threads:
            if n == 1 and serial is not None:
                table["1"] = serial
                continue
            times = []
            for _ in range(runs):
                reader = Reader(cache=ReadingCache(cache_mb), threads=n, parallel=mode)
                sec, nodes, answers = _solve_all(reader, problems)
                times.append(sec)
            row = {
                "seconds": round(statistics.median(times), 4),
                "nodes": nodes,
                "answers": answers,
            }
            row.update(_thread_counters(reader))
            table[str(n)] = row
            if n == 1:
                serial = row
        out[mode] = table
    base = serial or next(iter(out[modes[0]].values()))
    for mode in modes:
        for row in out[mode].values():
            row["speedup"] = round(base["seconds"] / row["seconds"], 3)
            row["node_overhead"] = round(row["nodes"] / base["nodes"] - 1, 4)
            row["identical"] = row["answers"] == base["answers"]
    for mode in modes:
        for row in out[mode].values():
            row.pop("answers", None)
    out["threads"] = out[modes[0]]
    return out


def playouts_bench(
    seconds: float = 1.0, runs: int = 1, threads: Sequence[int] = (1,)
) -> dict[str, Any]:
    """``{"boards": {"9"|"13"|"19": {"playouts_per_second",
    "plain_playouts_per_second", "threads": {"N": playouts_per_second}}},
    "seconds", "runs"}``: komi 7.5, black to move on an empty board, after
    a warm-up search.  The first two figures are one thread's; ``threads``
    times the search with each count asked (one shared tree), the counts
    taking turns within each run so that their ratios are fair."""
    from ..play.player import Player

    counts = sorted({1, *threads})
    out: dict[str, Any] = {"seconds": seconds, "runs": runs, "boards": {}}
    for size in (9, 13, 19):
        position = Position(size)
        players = {n: Player(threads=n) for n in counts}
        for player in players.values():
            player.search(position, BLACK, 7.5, seconds=0.05, decide=False)  # compiled, warm
        tree: dict[int, list[float]] = {n: [] for n in counts}
        plain = []
        for _ in range(runs):
            for n, player in players.items():
                t0 = time.perf_counter()
                res = player.search(position, BLACK, 7.5, seconds=seconds, decide=False)
                tree[n].append(res.playouts / (time.perf_counter() - t0))
            player = players[1]
            t0 = time.perf_counter()
            player.ownership(position, BLACK, 7.5, playouts=10**9, seconds=seconds)
            plain.append(int(player.meta[kp.M_ITER]) / (time.perf_counter() - t0))
        out["boards"][str(size)] = {
            "playouts_per_second": round(statistics.median(tree[1])),
            "plain_playouts_per_second": round(statistics.median(plain)),
            "threads": {str(n): round(statistics.median(tree[n])) for n in counts},
        }
    return out


def _bundled_games():
    """The games in the clone's ``sgf/`` (or ``./sgf`` for an installed package)."""
    here = os.path.dirname(PACKAGE)
    return sorted(glob.glob(os.path.join(here, "sgf", "*.sgf"))) or sorted(glob.glob("sgf/*.sgf"))


def run_bench(
    what: str,
    seconds: float = 1.0,
    games: Sequence[str] | None = None,
    threads: Sequence[int] = (1, 2),
    modes: Sequence[str] = ("abdada", "shared-cache"),
    runs: int = 1,
    cache_mb: float = 64.0,
) -> dict[str, Any]:
    if what == "threads":
        return threads_bench(threads, modes, cache_mb, runs)
    if what == "playouts":
        return playouts_bench(seconds, runs, threads)
    if what == "startup":
        from .startup import startup_bench

        return startup_bench(runs, progress=sys.stderr)
    if what == "cache":
        return cache_bench(seconds, games or _bundled_games())
    if what != "board":
        raise ValueError(what)
    games = games or _bundled_games()
    rate, cands = trymove_rate(seconds)
    out = {"trymove_popgo_per_second": round(rate), "candidates_per_pass": cands}
    if games:
        plain, moves, _ = replay_rate(games, False)
        checked, _, mism = replay_rate(games, True)
        out.update(
            {
                "replay_games": len(games),
                "replay_moves": moves,
                "replay_moves_per_second": round(plain),
                "replay_checked_moves_per_second": round(checked),
                "replay_checked_mismatches": mism,
            }
        )
    out["warm_start_version_seconds"] = round(warm_start(), 4)
    return out
