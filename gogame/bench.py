"""Benchmarks (figures for README, never timed tests).

``board``: trymove+popgo pairs per second on random legal 19x19 positions,
replay moves per second with and without hash checking, and the warm start
of ``gogame --version``.  Each figure is the median of several runs made in
this one process, so ratios between them are fair on a noisy machine.
"""
import glob
import os
import shutil
import statistics
import subprocess
import sys
import time

import numpy as np
from numba import njit

from .kernel import board as kb
from .kernel.layout import COLOR, EMPTY, H_W
from .position import Position


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


def _median_rate(fn, seconds, runs=5):
    rates = []
    for _ in range(runs):
        t0 = time.perf_counter()
        count = fn()
        rates.append(count / (time.perf_counter() - t0))
    return statistics.median(rates)


def trymove_rate(seconds=1.0, positions=20, size=19):
    """Median trymove+popgo pairs per second over random positions."""
    setups = []
    for k in range(positions):
        p = Position(size)
        _random_moves(p.s, p.hw, p.keys, size, 60 + 10 * k, k)
        w = int(p.s[H_W])
        cand = np.array([(r + 1) * w + c + 1 for r in range(size) for c in range(size)
                         if p.s[COLOR + (r + 1) * w + c + 1] == EMPTY], np.int32)
        setups.append((p, cand))
    _pairs(setups[0][0].s, setups[0][0].hw, setups[0][0].keys, setups[0][1], 1)
    per_call = sum(len(c) for _, c in setups)
    t0 = time.perf_counter()
    _pairs(setups[0][0].s, setups[0][0].hw, setups[0][0].keys, setups[0][1], 100)
    reps = max(1, int(seconds / 5 / max(time.perf_counter() - t0, 1e-6) * 100 / len(setups)))

    def run():
        return sum(_pairs(p.s, p.hw, p.keys, c, reps) for p, c in setups)
    return _median_rate(run, seconds), per_call


def replay_rate(games, check_hashing, runs=3):
    """Median replay moves per second (kernel time, parsing excluded)."""
    from .replay import replay_games
    rates = []
    for _ in range(runs):
        t = replay_games(games, check_hashing)["total"]
        rates.append(t["moves_per_second"])
    return statistics.median(rates), t["moves"], t["mismatches"]


def warm_start(runs=5, argv=("--version",)):
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


def run_bench(what, seconds=1.0, games=None):
    if what != "board":
        raise ValueError(what)
    if not games:
        here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
        games = sorted(glob.glob(os.path.join(here, "sgf", "*.sgf"))) or sorted(glob.glob("sgf/*.sgf"))
    rate, cands = trymove_rate(seconds)
    out = {"trymove_popgo_per_second": round(rate), "candidates_per_pass": cands}
    if games:
        plain, moves, _ = replay_rate(games, False)
        checked, _, mism = replay_rate(games, True)
        out.update({"replay_games": len(games), "replay_moves": moves,
                    "replay_moves_per_second": round(plain),
                    "replay_checked_moves_per_second": round(checked),
                    "replay_checked_mismatches": mism})
    out["warm_start_version_seconds"] = round(warm_start(), 4)
    return out
