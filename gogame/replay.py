"""Replay SGF games through the board kernel, optionally checking the hash.

``replay_game`` plays one game's main line (setup stones, IL[] ko points,
moves and passes) on a ``Position`` and returns a per-game dict;
``replay_games`` adds totals.  With ``check_hashing`` both words are
recomputed after every move; a mismatch is counted, reported with its move
number, and the words are resynchronised so that later moves are checked
too.  ``seconds`` times the kernel replay alone; reading the SGF is
``parse_seconds``.  Not done here: reading (a later ``--read``).
"""
import time

import numpy as np

from .coords import format_gtp, to_pos
from .position import HashMismatchError, IllegalMoveError, Position, color_name
from .sgfio import SgfError, load_game


def replay_game(path, check_hashing=False):
    """Replay one file; never raises for a bad file or move: see ``error``."""
    out = {"file": str(path), "size": None, "moves": 0, "mismatches": 0,
           "hash": None, "seconds": 0.0, "parse_seconds": 0.0,
           "moves_per_second": 0.0, "error": None, "mismatch_moves": []}
    t0 = time.perf_counter()
    try:
        game = load_game(path)
    except SgfError as e:
        out["error"] = str(e)
        return out
    out["size"] = game.size
    steps = _prepare(game)
    out["parse_seconds"] = time.perf_counter() - t0
    pos = Position(game.size, check_hashing=check_hashing)
    t1 = time.perf_counter()
    try:
        for kind, arg in steps:
            if kind == "moves":
                _play_batch(pos, arg, out)
            elif kind == "setup":
                pos.setup(arg)
            else:
                pos.set_ko(arg)
    except (ValueError, IllegalMoveError) as e:
        out["error"] = f"{path}: {e}"
    out["seconds"] = time.perf_counter() - t1
    out["moves"] = len(pos.moves())
    out["hash"] = [f"{w:#018x}" for w in pos.hash]
    if out["seconds"] > 0:
        out["moves_per_second"] = out["moves"] / out["seconds"]
    return out


def _prepare(game):
    """Group the events into setup / ko steps and arrays of moves."""
    steps, pos, colors, numbers = [], [], [], []

    def flush():
        if pos:
            steps.append(("moves", (np.array(pos, np.int32), np.array(colors, np.int32),
                                    list(numbers))))
            pos.clear(), colors.clear(), numbers.clear()

    for ev in game.events:
        if ev[0] == "move":
            pos.append(to_pos(ev[1], game.size))
            colors.append(ev[2])
            numbers.append(ev[3])
        else:
            flush()
            steps.append(ev)
    flush()
    return steps


def _play_batch(position, batch, out):
    pos, colors, numbers = batch
    start = 0
    while start < len(pos):
        try:
            position.play_many(pos[start:], colors[start:])
            return
        except HashMismatchError as e:
            k = start + e.index
            out["mismatches"] += 1
            out["mismatch_moves"].append(numbers[k])
            position.resync_hash()
            start = k + 1
        except IllegalMoveError as e:
            k = start + e.index
            move = f"{color_name(colors[k])} {format_gtp(position.pt(pos[k]))}"
            raise IllegalMoveError(f"move {numbers[k]}: illegal move {move}") from None


def replay_games(paths, check_hashing=False):
    """Replay every file; ``{"games": [...], "total": {...}}``."""
    games = [replay_game(p, check_hashing) for p in paths]
    total = {"games": len(games),
             "moves": sum(g["moves"] for g in games),
             "mismatches": sum(g["mismatches"] for g in games),
             "errors": sum(1 for g in games if g["error"]),
             "seconds": sum(g["seconds"] for g in games),
             "parse_seconds": sum(g["parse_seconds"] for g in games)}
    total["moves_per_second"] = (total["moves"] / total["seconds"]
                                 if total["seconds"] else 0.0)
    return {"games": games, "total": total}


def format_report(report):
    """A table, one game a line, then totals and the errors."""
    lines = [f"{'file':40} {'size':>4} {'moves':>5} {'mism':>4} {'seconds':>8} "
             f"{'moves/s':>10}  hash words"]
    for g in report["games"]:
        name = g["file"] if len(g["file"]) <= 40 else "..." + g["file"][-37:]
        words = " ".join(g["hash"]) if g["hash"] else "-"
        lines.append(f"{name:40} {g['size'] or '-':>4} {g['moves']:5d} {g['mismatches']:4d} "
                     f"{g['seconds']:8.4f} {g['moves_per_second']:10.0f}  {words}")
    t = report["total"]
    lines.append(f"total: {t['games']} games, {t['moves']} moves, {t['mismatches']} mismatches, "
                 f"{t['errors']} errors, {t['seconds']:.4f} s replay "
                 f"({t['moves_per_second']:.0f} moves/s), {t['parse_seconds']:.3f} s parsing")
    for g in report["games"]:
        if g["error"]:
            lines.append(f"error: {g['error']}")
        for m in g["mismatch_moves"]:
            lines.append(f"mismatch: {g['file']}: hash words differ after move {m}")
    return "\n".join(lines)
