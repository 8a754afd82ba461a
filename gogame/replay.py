"""Replay SGF games through the board kernel, optionally checking the hash.

``replay_game`` plays one game's main line on a ``Position`` with the loader
GTP ``loadsgf`` uses (``sgfio.load_game`` / ``apply_game``: setup stones,
``PL[]``, ``IL[]`` ko points where they are a ko, moves and passes, in file
order) and returns a per-game dict (``to_move`` is the colour to move after
the whole line, as ``loadsgf`` answers it); ``replay_games`` adds totals.  With
``check_hashing`` both words are recomputed after every move; a mismatch is
counted, reported with its move number, and the words are resynchronised so
that later moves are checked too.  ``seconds`` times the kernel replay alone;
reading the SGF (and grouping its moves for the kernel) is ``parse_seconds``.

With a ``reader`` (``--read``), every position of the main line is examined
as GNU Go's examine step does: each string with at most four liberties is
attacked, and a defence is looked for when the attack succeeds.  Strings are
named by their lowest point and read in point order, so the trace (one line
a result: move number, string, routine, code, move) is the same whatever the
cache scheme, budget or run.  ``seconds`` then includes the reading.
"""
import time

import numpy as np

from .coords import format_gtp
from .kernel import board as kb
from .kernel.layout import BLACK, MAXPOS
from .position import Position
from .sgfio import SgfError, apply_game, load_game


def examine(reader, position, number, trace):
    """Read every string with <= 4 liberties; append trace lines; return the
    number of results."""
    names = np.zeros(MAXPOS, np.int32)
    n = kb.list_strings(position.s, 4, names)
    for pos in names[:n]:
        pt = position.pt(pos)
        code, move = reader.attack(position, pt)
        trace.append(f"{number} {format_gtp(pt)} attack {code} {format_gtp(move) if code else '-'}")
        if code:
            code, move = reader.find_defense(position, pt)
            trace.append(f"{number} {format_gtp(pt)} defend {code} "
                         f"{format_gtp(move) if code else '-'}")
    return n


def replay_game(path, check_hashing=False, reader=None, trace=None):
    """Replay one file; never raises for a bad file or move: see ``error``.
    With ``reader``, examine every position; trace lines go to ``trace``."""
    out = {"file": str(path), "size": None, "moves": 0, "mismatches": 0,
           "to_move": None, "hash": None, "seconds": 0.0, "parse_seconds": 0.0,
           "moves_per_second": 0.0, "error": None, "mismatch_moves": []}
    t0 = time.perf_counter()
    try:
        game = load_game(path)
        game.steps                  # group the moves now: parsing, not replay
    except SgfError as e:
        out["error"] = str(e)
        return out
    out["size"] = game.size
    out["parse_seconds"] = time.perf_counter() - t0

    def mismatch(number):
        out["mismatches"] += 1
        out["mismatch_moves"].append(number)

    pos = Position(game.size, check_hashing=check_hashing)
    lines = trace if trace is not None else []
    after = None
    if reader is not None:
        nodes0 = reader.nodes
        out["results"] = 0

        def after(number):
            out["results"] += examine(reader, pos, number, lines)
    t1 = time.perf_counter()
    try:
        to_move = apply_game(game, pos, on_mismatch=mismatch, after_move=after)
        out["to_move"] = "black" if to_move == BLACK else "white"
    except ValueError as e:
        out["error"] = str(e)
    out["seconds"] = time.perf_counter() - t1
    if reader is not None:
        out["nodes"] = reader.nodes - nodes0
    out["moves"] = len(pos.moves())
    out["hash"] = [f"{w:#018x}" for w in pos.hash]
    if out["seconds"] > 0:
        out["moves_per_second"] = out["moves"] / out["seconds"]
    return out


def replay_games(paths, check_hashing=False, reader=None, trace=None):
    """Replay every file; ``{"games": [...], "total": {...}}``; with a
    ``reader``, also ``total["nodes"]`` and ``total["cache"]`` (statistics)."""
    games = [replay_game(p, check_hashing, reader, trace) for p in paths]
    total = {"games": len(games),
             "moves": sum(g["moves"] for g in games),
             "mismatches": sum(g["mismatches"] for g in games),
             "errors": sum(1 for g in games if g["error"]),
             "seconds": sum(g["seconds"] for g in games),
             "parse_seconds": sum(g["parse_seconds"] for g in games)}
    total["moves_per_second"] = (total["moves"] / total["seconds"]
                                 if total["seconds"] else 0.0)
    if reader is not None:
        total["nodes"] = sum(g.get("nodes", 0) for g in games)
        total["results"] = sum(g.get("results", 0) for g in games)
        total["cache"] = reader.cache_stats()
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
    if "cache" in t:
        lines.append(f"reading: {t['results']} strings examined, {t['nodes']} nodes")
        lines.append("cache: " + ", ".join(f"{k} {v}" for k, v in t["cache"].items()))
    for g in report["games"]:
        if g["error"]:
            lines.append(f"error: {g['error']}")
        for m in g["mismatch_moves"]:
            lines.append(f"mismatch: {g['file']}: hash words differ after move {m}")
    return "\n".join(lines)
