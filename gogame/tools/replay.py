"""Replay SGF games through the board kernel, optionally checking the hash.

``replay_game`` plays one game's main line on a ``Position`` with the loader
GTP ``loadsgf`` uses (``sgfio.load_game`` / ``apply_game``: setup stones,
``PL[]``, ``IL[]`` ko points where they are a ko, moves and passes, in file
order) and returns a per-game dict (``to_move`` is the colour to move after
the line, as ``loadsgf`` answers it); ``replay_games`` runs one job a game
(``game_job``) in any execution mode of ``gogame.jobs`` and adds totals.
``until`` (``--moves N`` gives N + 1) stops before that move, as ``loadsgf``
does.  ``seconds`` times the kernel replay alone; reading the SGF (and
grouping its moves for the kernel) is ``parse_seconds``.

Hash checking (``check_hashing``): ``"moves"`` (or True) recomputes both
words after every game move; a mismatch is counted, reported with its move
number, and the words are resynchronised so that later moves are checked
too.  ``"all"`` also keeps the kernel's ``H_CHECK`` flag on while reading, so
that every trymove and popgo inside the search is checked (the kernel's
``push_move``/``popgo`` honour the flag); with ``"moves"`` the flag is off
while reading.  A mismatch inside a query is counted in
``reading_mismatches`` (at most one a query: the kernel flags the first),
named in ``reading_mismatch_at`` as ``[move, string, routine]``, and the
query is asked again unchecked so that the trace line is still written.

With reading settings (``ReadSettings``, ``--read``) every position of the
main line is examined as GNU Go's examine step does: each string with at
most four liberties is attacked, and a defence is looked for when the attack
succeeds.  Strings are named by their lowest point and read in point order,
so the trace (one line a result: move number, string, routine, code, move;
the games' lines one game after another in the order given) is the same
whatever the cache scheme, budget, run or execution mode.  Every game gets a
fresh ``Reader`` and cache: a game's node count then does not depend on
which games ran before it in the same process, which is what makes the
merged result independent of the execution mode.  ``seconds`` then includes
the reading.  ``threads`` goes to ``Reader(threads=N)`` (None: the cores
when the games run one at a time, else 1).  With N > 1 the threads take
different strings of a window of up to ``WINDOW`` positions, read as one
batch (``Reader.examine_copies``), so that no thread waits at the end
of each position; with ``check_hashing="all"`` they take the strings of
one position at a time (``Reader.examine_strings``, one by one).
Answers, and so traces, never depend on it; node and cache counts do,
and vary between runs (the threads race).

Bad input never stops a run: an unreadable or corrupt file, an unsupported
size or an illegal move sets the game's ``error`` (naming file and move) and
``total["errors"]`` counts them; the other games go on.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from ..core import options
from ..core.coords import Point, format_gtp
from ..core.position import HashMismatchError, Position
from ..core.sgfio import SgfError, apply_game, load_game, parse_game, read_sgf_bytes
from ..kernel.layout import BLACK

if TYPE_CHECKING:
    from ..core.reader import Reader
    from ..core.sgfio import Game

CHECK_MODES = (None, "moves", "all")
WINDOW = 32  # positions a threaded reading replay reads as one batch
COUNTERS = ("probes", "hits", "misses", "stores", "replacements", "collisions")


@dataclass(frozen=True)
class ReadSettings:
    """What ``--read`` reads with; every game gets ``reader(size)``, fresh."""

    scheme: str = "double"
    cache_mb: float = 8.0
    hash_bits: int = 64
    threads: int | None = 1  # None: see ``replay_games``

    def reader(self, size: int) -> Reader:
        from ..core.reader import Reader
        from ..core.reading_cache import ReadingCache

        return Reader(
            cache=ReadingCache(self.cache_mb, self.scheme, self.hash_bits, size),
            threads=options.searchers(self.threads),  # never more than the cores
        )


def check_mode(check_hashing: bool | str | None) -> str | None:
    """False/None -> None, True -> "moves", "moves"/"all" kept; else ValueError."""
    if check_hashing is True:
        return "moves"
    if check_hashing is False:
        return None
    if check_hashing not in CHECK_MODES:
        raise ValueError(f"check_hashing must be one of {CHECK_MODES}, not {check_hashing!r}")
    return check_hashing


# ------------------------------------------------------------- reading
def _ask(reader, position, routine, pt, number, failures):
    """One query; with ``failures`` (check "all") a hash mismatch inside the
    search is recorded and the query asked again with checking off."""
    ask = reader.attack if routine == "attack" else reader.find_defense
    try:
        return ask(position, pt)
    except HashMismatchError:
        if failures is None:
            raise
        failures.append([number, format_gtp(pt), routine])
    position.check_hashing = False
    try:
        return ask(position, pt)
    finally:
        position.check_hashing = True


def examine(
    reader: Reader,
    position: Position,
    number: int,
    trace: list[str],
    failures: list[list] | None = None,
) -> int:
    """Read every string with <= 4 liberties; append trace lines; return the
    number of strings read.  Without ``failures`` (see ``_ask``) the
    position's strings are one batch for ``Reader.examine_strings``: with
    threads, the threads take different strings, each string's attack and
    then (if it succeeds) its defence on one thread; the lines are those of
    the serial loop, in its order."""
    pts = weak_stones(position)
    n = len(pts)
    if failures is not None:
        for pt in pts:
            _examine_one(reader, position, number, pt, trace, failures)
        return n
    _trace_position(trace, number, pts, reader.examine_strings(position, pts))
    return n


def weak_stones(position: Position) -> list[Point]:
    """A stone of each string with at most four liberties, in point order."""
    return [position.pt(pos) for pos in position.weak_strings(4)]


def _write_batch(kept, rows, trace):
    """Append the lines of the read positions ``kept`` ([(move number,
    BoardCopy)]) in order, from ``rows`` (``PendingCopies.result``);
    return the strings read."""
    n = 0
    for (number, copy), row in zip(kept, rows, strict=True):
        _trace_position(trace, number, copy.stones, row)
        n += len(copy.stones)
    return n


def _trace_position(trace, number, stones, answers):
    """The lines of one position's strings: each attack, and its defence
    when there is one (``examine_strings``' answers)."""
    for pt, (attack, defence) in zip(stones, answers, strict=True):
        trace.append(_line(number, pt, "attack", attack))
        if defence is not None:
            trace.append(_line(number, pt, "defend", defence))


def _examine_one(reader, position, number, pt, trace, failures):
    """The serial step: attack the string at ``pt``, defend it if that succeeds."""
    answer = _ask(reader, position, "attack", pt, number, failures)
    trace.append(_line(number, pt, "attack", answer))
    if answer[0]:
        answer = _ask(reader, position, "defend", pt, number, failures)
        trace.append(_line(number, pt, "defend", answer))


def _line(number, pt, routine, answer):
    code, move = answer
    return f"{number} {format_gtp(pt)} {routine} {code} {format_gtp(move) if code else '-'}"


# --------------------------------------------------------------- one game
def load_job_game(path: str | os.PathLike, data: bytes | None) -> Game:
    """A job's game: parsed from the bytes read beforehand, or loaded from
    ``path`` when there are none (so ``load_game`` names the problem)."""
    if data is None:
        return load_game(path)
    return parse_game(data, os.fspath(path))


def replay_game(
    path: str | os.PathLike,
    check_hashing: bool | str | None = False,
    read: ReadSettings | None = None,
    trace: list[str] | None = None,
    until: int | str | Point | None = None,
    data: bytes | None = None,
) -> dict[str, Any]:
    """Replay one file (or its bytes ``data``); never raises for a bad file
    or move: see ``error``.  With ``read`` (a ``ReadSettings``), examine
    every position with a fresh reader; trace lines go to ``trace``."""
    check = check_mode(check_hashing)
    out = {
        "file": str(path),
        "size": None,
        "moves": 0,
        "mismatches": 0,
        "to_move": None,
        "hash": None,
        "seconds": 0.0,
        "parse_seconds": 0.0,
        "moves_per_second": 0.0,
        "error": None,
        "mismatch_moves": [],
    }
    t0 = time.perf_counter()
    try:
        game = load_job_game(path, data)
        _ = game.steps  # group the moves now: parsing, not replay
    except SgfError as e:
        out["error"] = str(e)
        return out
    out["size"] = game.size
    out["parse_seconds"] = time.perf_counter() - t0

    def mismatch(number: int) -> None:
        out["mismatches"] += 1
        out["mismatch_moves"].append(number)

    pos = Position(game.size, check_hashing=check is not None)
    after = None
    if read is not None:
        after = _reading_step(out, pos, read.reader(game.size), check, trace)
    t1 = time.perf_counter()
    try:
        to_move = apply_game(game, pos, until, on_mismatch=mismatch, after_move=after)
        out["to_move"] = "black" if to_move == BLACK else "white"
    except ValueError as e:
        out["error"] = str(e)
    if after is not None:
        after.flush()
    out["seconds"] = time.perf_counter() - t1
    if after is not None:
        after.finish()
    out["moves"] = len(pos.moves())
    out["hash"] = [f"{w:#018x}" for w in pos.hash]
    if out["seconds"] > 0:
        out["moves_per_second"] = out["moves"] / out["seconds"]
    return out


def _reading_step(out, pos, reader, check, trace):
    """The ``after_move`` callback of a reading replay: examines the position
    with hash checking as ``check`` asks.  With threads (and without check
    "all") it keeps up to ``WINDOW`` positions and hands them to the
    threads as one batch (``Reader.start_copies``), so that the threads'
    work spans positions; while the helpers read it, this thread replays
    the next moves and keeps their positions, then reads its share, and
    writes the batch's lines while the helpers read the next.  ``flush()``
    reads what is kept; ``finish()`` flushes, then fills ``nodes`` and
    ``cache`` into ``out``."""
    from ..core.reader import BoardCopy

    lines = trace if trace is not None else []
    failures = [] if check == "all" else None
    batched = reader.threads > 1 and failures is None
    pending, flying = [], []  # positions kept; the batch being read
    out.update(nodes=0, results=0, reading_mismatches=0, reading_mismatch_at=[])

    def after(number: int) -> None:
        pos.check_hashing = check == "all"
        try:
            if not batched:
                out["results"] += examine(reader, pos, number, lines, failures)
                return
            pending.append((number, BoardCopy(pos, weak_stones(pos))))
            if len(pending) >= WINDOW:
                launch()
        finally:
            pos.check_hashing = check is not None

    def launch() -> None:
        """Finish the batch being read, start the kept positions, then
        write the finished batch's lines."""
        done = [(kept, batch.result()) for kept, batch in flying]
        flying.clear()
        if pending:
            kept = pending[:]
            pending.clear()
            flying.append((kept, reader.start_copies(pos, [c for _, c in kept])))
        for kept, rows in done:
            out["results"] += _write_batch(kept, rows, lines)

    def flush() -> None:
        launch()
        launch()  # the last batch: nothing is kept, so nothing starts

    def finish() -> None:
        flush()
        out["nodes"] = reader.nodes
        out["cache"] = reader.cache_stats()
        if failures:
            out["reading_mismatches"] = len(failures)
            out["reading_mismatch_at"] = failures

    after.flush, after.finish = flush, finish
    return after


# ------------------------------------------------------------------- jobs
def game_job(job: dict[str, Any]) -> dict[str, Any]:
    """One game as a picklable job (see ``make_jobs``): the game dict plus
    ``trace``, its lines (an empty list without reading)."""
    read = ReadSettings(**job["read"]) if job["read"] is not None else None
    trace = []
    g = replay_game(job["path"], job["check"], read, trace, job["until"], job["data"])
    g["trace"] = trace
    return g


def read_game_bytes(path: str | os.PathLike) -> bytes | None:
    """The file's bytes (through sgfio's limits), or None when it cannot be
    used: ``load_game`` then names the problem in the job."""
    try:
        return read_sgf_bytes(path)
    except SgfError:
        return None


def make_jobs(
    paths: Iterable[str | os.PathLike],
    check_hashing: bool | str | None = None,
    read: ReadSettings | None = None,
    until: int | str | Point | None = None,
) -> list[dict[str, Any]]:
    """One job (a dict of plain values) a game; the files are read here so
    that workers elsewhere need not see them."""
    check = check_mode(check_hashing)
    settings = asdict(read) if read is not None else None
    return [
        {
            "path": str(p),
            "data": read_game_bytes(p),
            "check": check,
            "read": settings,
            "until": until,
        }
        for p in paths
    ]


WARM_GAME = b"(;SZ[5]AB[bb]AW[cb][bc];B[cc];W[dc];B[bd];W[cd])"


def warm(read: ReadSettings | None = None) -> None:
    """Run a tiny game here, with the checks and the reading that ``read``
    asks for, so that the kernels a replay uses are compiled before any
    game is timed and before worker processes load numba's disk cache."""
    job = {
        "path": "<warm-up>",
        "data": WARM_GAME,
        "check": "all" if read else "moves",
        "read": asdict(read) if read else None,
        "until": None,
    }
    game_job(job)
    Position(5).recompute_hash()


# ----------------------------------------------------------------- merging
def merge_cache(stats: list[dict[str, Any]]) -> dict[str, Any]:
    """Cache statistics of several games (each with a fresh table) as one:
    counters summed; table facts (capacity, bytes per entry, bytes
    allocated) of the largest board read, ``entries_in_use`` the most any
    game's table held, and ``by_size`` the table facts for each size."""
    if not stats:
        return {}
    big = max(stats, key=lambda c: c["bytes_per_entry"])
    out = {
        k: big[k]
        for k in (
            "scheme",
            "cache_mb",
            "hash_bits",
            "policy",
            "capacity",
            "bytes_per_entry",
            "bytes_allocated",
        )
    }
    out["entries_in_use"] = max(c["entries_in_use"] for c in stats)
    out.update({k: sum(c[k] for c in stats) for k in COUNTERS})
    out["by_size"] = {
        str(c["size"]): {"capacity": c["capacity"], "bytes_per_entry": c["bytes_per_entry"]}
        for c in sorted(stats, key=lambda c: c["size"])
    }
    return out


def merge(
    results: Iterable[dict[str, Any]],
    check: str | None = None,
    read: bool = False,
    trace: list[str] | None = None,
) -> dict[str, Any]:
    """``{"games": [...], "total": {...}}`` from ``game_job`` results in game
    order; the traces are appended to ``trace`` (a list) in that order."""
    games = []
    for g in results:
        lines = g.pop("trace", [])
        if trace is not None:
            trace.extend(lines)
        games.append(g)
    total = {
        "games": len(games),
        "moves": sum(g["moves"] for g in games),
        "mismatches": sum(g["mismatches"] for g in games),
        "errors": sum(1 for g in games if g["error"]),
        "seconds": sum(g["seconds"] for g in games),
        "parse_seconds": sum(g["parse_seconds"] for g in games),
        "check_hashing": check,
    }
    total["moves_per_second"] = total["moves"] / total["seconds"] if total["seconds"] else 0.0
    if read:
        total["nodes"] = sum(g.get("nodes", 0) for g in games)
        total["results"] = sum(g.get("results", 0) for g in games)
        total["reading_mismatches"] = sum(g.get("reading_mismatches", 0) for g in games)
        stats = []
        for g in games:
            if "cache" in g:
                stats.append(dict(g.pop("cache"), size=g["size"]))
        total["cache"] = merge_cache(stats)
    return {"games": games, "total": total}


def replay_games(
    paths: Iterable[str | os.PathLike],
    check_hashing: bool | str | None = False,
    read: ReadSettings | None = None,
    trace: list[str] | None = None,
    until: int | str | Point | None = None,
    workers: int = 1,
    dask: str | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Replay every file, one job a game in the chosen execution mode (see
    ``gogame.jobs``); the merged report is the same in every mode but for
    the timings.  ``total["wall_seconds"]`` is the whole run's wall time."""
    from .jobs import run_jobs

    t0 = time.perf_counter()
    check = check_mode(check_hashing)
    if read is not None and read.threads is None:
        # threads pay off when the games run one at a time, in this process
        one_at_a_time = workers == 1 and dask is None
        read = replace(read, threads=options.cores() if one_at_a_time else 1)
    jobs = make_jobs(paths, check, read, until)
    if dask is None:
        announce_compile()
        warm(read)  # here, so that no game's time holds the compiler's
    results = run_jobs(
        game_job,
        jobs,
        workers,
        dask,
        progress,
        warm=(lambda: warm(read)) if dask is not None else None,
    )
    report = merge(results, check, read is not None, trace)
    report["total"]["wall_seconds"] = time.perf_counter() - t0
    return report


def announce_compile() -> None:
    """One line on stderr when the kernels are about to be compiled."""
    from .. import kernel

    if kernel.cache_is_cold():
        import sys

        print(
            "gogame: compiling the kernels once (about a minute; `gogame warmup` does it ahead)",
            file=sys.stderr,
            flush=True,
        )


def format_report(report: dict[str, Any]) -> str:
    """A table, one game a line, then totals and the errors."""
    lines = [
        f"{'file':40} {'size':>4} {'moves':>5} {'mism':>4} {'seconds':>8} "
        f"{'moves/s':>10}  hash words"
    ]
    t = report["total"]
    for g in report["games"]:
        name = g["file"] if len(g["file"]) <= 40 else "..." + g["file"][-37:]
        words = " ".join(g["hash"]) if g["hash"] else "-"
        mism = f"{g['mismatches']:4d}" if t.get("check_hashing") else "   -"
        lines.append(
            f"{name:40} {g['size'] or '-':>4} {g['moves']:5d} {mism} "
            f"{g['seconds']:8.4f} {g['moves_per_second']:10.0f}  {words}"
        )
    checked = (
        f"{t['mismatches']} mismatches"
        if t.get("check_hashing")
        else "hash words not checked (--check-hashing)"
    )
    lines.append(
        f"total: {t['games']} games, {t['moves']} moves, {checked}, "
        f"{t['errors']} errors, {t['seconds']:.4f} s replay "
        f"({t['moves_per_second']:.0f} moves/s), {t['parse_seconds']:.3f} s parsing"
        + (f", {t['wall_seconds']:.2f} s wall" if "wall_seconds" in t else "")
    )
    if "cache" in t:
        inside = (
            f"{t['reading_mismatches']} mismatches inside reading"
            if t.get("check_hashing") == "all"
            else "not checked inside reading (--check-hashing=all)"
        )
        lines.append(f"reading: {t['results']} strings examined, {t['nodes']} nodes, {inside}")
        lines.append(
            "cache: " + ", ".join(f"{k} {v}" for k, v in t["cache"].items() if k != "by_size")
        )
    for g in report["games"]:
        if g["error"]:
            lines.append(f"error: {g['error']}")
        for m in g["mismatch_moves"]:
            lines.append(f"mismatch: {g['file']}: hash words differ after move {m}")
        for m, string, routine in g.get("reading_mismatch_at", []):
            lines.append(f"mismatch: {g['file']}: inside reading at move {m} ({routine} {string})")
    return "\n".join(lines)
