"""Mine game records for tactical problems on which the answers disagree.

``gogame mine`` (see ``docs/mine.md``).  For every sampled position of each
game (after every ``every``-th move, from move ``offset``; a record that
sets stones up before its first move, a problem, has that position as move
0) and every string with at most four liberties, two questions are asked, ``attack``
and ``defend``, of three oracles:

* gogame's fast ``Reader`` (code, move and the nodes it read; one reader and
  cache per game, so a count may be lowered by what earlier questions of the
  same game stored);
* GNU Go over GTP (``loadsgf FILE N`` then ``attack``/``defend``), one
  process per game, when it is installed and not switched off;
* the ``Prover`` (``proven`` with a code, or ``unknown``: no opinion).

A question is *kept* when two answers disagree (``judge``) or the reader
needed at least ``BIG_NODES`` nodes.  Each kept question becomes a small SGF
(setup stones, ``PL``, ``IL`` for a ko point, the question in ``C[]``) and an
entry of ``index.json``.  Every question also gets a category
(``categorize``), and agreement with the proven answers is tallied per
category for the summary.

Jobs: one a game (``mine_job``), run by ``jobs.run_jobs`` in any execution
mode; a job depends only on its arguments and the files are written by the
caller (``mine_games``) in game order, so the index is the same in every
mode.  Bad input never stops a run: a game that cannot be read, or holds an
illegal move, sets that game's ``error`` (problems found before an illegal
move are kept); a GNU Go failure sets ``gnugo_error`` and the game goes on
without GNU Go.

``--report DIR`` (``load_index``, ``report``, ``format_report``) mines
nothing: it reads ``DIR/index.json`` and, over the problems with a proven
answer, grades gogame's and GNU Go's answers (``grade``): the code is
judged by ``consistent``; a move counts only when it is the proof's move.
With ``--reask`` (``reask``) gogame's answers are asked again of this
version's reader instead of read from the index.

``--referee DIR`` (``referee``, ``reprove``, ``write_index``) mines nothing
either: it asks the prover again every problem it left unknown (a newer
prover may prove more), then, for an ``attack`` still unknown, proves the
capturing moves gogame and GNU Go name (``prove_named_capture``, which
mining also calls), for a ``defend`` the saving moves they name
(``prove_named_defence``, likewise), and writes the proofs into the index.
With ``--all`` it asks the proven problems again as well and counts those
it proves again, with the recorded code or another, and those it no longer
proves within the budget; their recorded proofs stay in the index.

``materialize`` rebuilds a mined folder from its index alone: each
problem's SGF from its source game (``_after_move``), byte for byte what
mining wrote.  The development sets committed as indices
(``tests/data/devsets/``) are read this way by ``scripts/dev_set.py``.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from typing import Any

from ..core.coords import Point, format_gtp, format_sgf, parse_gtp
from ..core.position import Position
from ..core.sgfio import SgfError, apply_game, load_game
from ..kernel.layout import BLACK, WHITE
from .replay import ReadSettings, announce_compile, load_job_game, read_game_bytes

GNUGO = "/usr/games/gnugo"
BIG_NODES = 5000
PROOF_NODES = 100  # a proof this big is a reading problem, not a one-move capture
MAX_LIBS = 4
QUESTIONS = ("attack", "defend")
CATEGORIES = ("ko", "snapback", "ladder", "net", "semeai", "edge", "other")
TALLY_KEYS = (
    "questions",
    "kept",
    "proven",
    "gogame_agrees",
    "gogame_exact",
    "gnugo_asked",
    "gnugo_proven",
    "gnugo_agrees",
    "gnugo_exact",
    "gogame_gnugo_same",
)
WARM_GAME = b"(;SZ[5]AB[bb]AW[cb][bc];B[cc];W[dc];B[bd];W[cd])"


@dataclass(frozen=True)
class MineSettings:
    """What a mining job asks: every ``every``-th position from move
    ``offset`` on, the prover's node budget, GNU Go or not, the first
    ``moves`` moves only (None: all)."""

    every: int = 10
    offset: int = 0
    prove_nodes: int = 200_000
    gnugo: bool = True
    moves: int | None = None
    cache_mb: float = 8.0


def gnugo_installed() -> bool:
    return os.access(GNUGO, os.X_OK)


# ----------------------------------------------------------------- answers
def _vertex(code: int | None, move: Point | None) -> str | None:
    """The move of an answer as GTP text: None for a failure (code 0 or
    none), ``PASS`` for a success that needs no move."""
    if not code:
        return None
    return format_gtp(move)


def parse_answer(text: str) -> dict[str, Any]:
    """GNU Go's ``attack``/``defend`` answer (``0``, ``1 D4``, ``1 PASS``)."""
    parts = text.split()
    code = int(parts[0])
    move = parts[1].upper() if code and len(parts) > 1 else None
    return {"code": code, "move": move}


def consistent(question: str, proven: int, code: int) -> bool:
    """Whether an answer ``code`` (0..3) agrees with a proven code, for
    either ``question``: proven 0 (never captured; or lost) wants 0; proven
    c > 0 (captured, or saved, under c's ko model; a stronger code is not
    ruled out) wants 1..c."""
    return code == 0 if proven == 0 else 0 < code <= proven


def judge(
    question: str, gogame: dict, gnugo: dict | None, proven: dict, proof_nodes: int = 0
) -> list[str]:
    """Why a question is kept (empty: not kept): ``gogame-gnugo`` (codes
    differ), ``gogame-proven``/``gnugo-proven`` (contradicts the proof),
    ``nodes`` (the reader needed ``BIG_NODES`` or more), ``proof`` (proven,
    by a search of ``PROOF_NODES`` prover nodes or more)."""
    reasons = []
    if gnugo is not None and gnugo["code"] != gogame["code"]:
        reasons.append("gogame-gnugo")
    if proven["status"] == "proven":
        if not consistent(question, proven["code"], gogame["code"]):
            reasons.append("gogame-proven")
        if gnugo is not None and not consistent(question, proven["code"], gnugo["code"]):
            reasons.append("gnugo-proven")
    if gogame["nodes"] >= BIG_NODES:
        reasons.append("nodes")
    if proven["status"] == "proven" and proof_nodes >= PROOF_NODES:
        reasons.append("proof")
    return reasons


def prove_named_capture(
    prover: Any, position: Position, vertex: str, answers: Iterable[dict | None]
) -> dict | None:
    """A proof that a capture the oracles name works, for an ``attack``
    question the prover's own search left ``unknown``: each named move (an
    answer of code 1-3 with a move) in turn, checked by
    ``Prover.prove_move`` under every ko model (the code proven may be
    weaker than the one named: a lower bound that still judges it).
    Returns the ``proven`` record of the first proof (``via: "move"``, with
    the ``nodes`` of all tries), else None; the position is left as it was."""
    return prove_named(prover, position, vertex, answers, "attack")


def prove_named_defence(
    prover: Any, position: Position, vertex: str, answers: Iterable[dict | None]
) -> dict | None:
    """``prove_named_capture`` for a ``defend`` question: each named answer
    of code 1-3 in turn, its move (``PASS``: none) checked by
    ``Prover.prove_defence`` under every ko model."""
    return prove_named(prover, position, vertex, answers, "defend")


def prove_named(prover, position, vertex, answers, question):
    """The two above for ``question``: each named move once, in order,
    until one is proven."""
    pt = parse_gtp(vertex, position.size)
    tried, nodes = set(), 0
    for answer in answers:
        name = (answer["move"] or "PASS") if answer and answer["code"] else None
        if name is None or name in tried or (question == "attack" and name == "PASS"):
            continue
        tried.add(name)
        move = None if name == "PASS" else parse_gtp(name, position.size)
        if question == "attack":
            proof = prover.prove_move(position, pt, move, 3)
        else:
            proof = prover.prove_defence(position, pt, move)
        nodes += proof.nodes
        if proof.proven:
            record = {"status": "proven", "code": proof.code, "move": name}
            return {**record, "via": "move", "nodes": nodes}
    return None


# ------------------------------------------------------------------ GNU Go
class GnuGo:
    """One GNU Go process for a job, reused across positions; the game is
    written to a temporary file for ``loadsgf``."""

    def __init__(self, data: bytes, path: str = GNUGO, timeout: float = 120.0) -> None:
        from ..gtp.client import GtpClient

        fd, self.file = tempfile.mkstemp(suffix=".sgf", prefix="gogame-mine-")
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        try:
            self.client = GtpClient([path, "--mode", "gtp"], timeout=timeout)
        except Exception:
            os.unlink(self.file)
            raise

    def load(self, move: int) -> None:
        """The position after move ``move`` (GNU Go stops before ``move + 1``)."""
        self.client.ask(f"loadsgf {self.file} {move + 1}")

    def ask(self, question: str, vertex: str) -> dict[str, Any]:
        return parse_answer(self.client.ask(f"{question} {vertex}"))

    def close(self) -> None:
        self.client.close()
        os.unlink(self.file)


# --------------------------------------------------------------- categories
def _neighbour_strings(position: Position, pt: Point) -> list[Point]:
    """One stone of each string of the other colour touching the string at ``pt``."""
    other = WHITE if position.color_at(pt) == BLACK else BLACK
    seen, out = set(), []
    for row, col in position.string_stones(pt):
        for q in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if 0 <= q[0] < position.size and 0 <= q[1] < position.size:
                if position.color_at(q) == other and q not in seen:
                    stones = position.string_stones(q)
                    seen.update(stones)
                    out.append(stones[0])
    return out


def is_snapback(line: list[Point | None]) -> bool:
    """The attack proof's line (attacker first) holds a snapback: the
    attacker plays again on the point where it played two plies before, so
    the owner's move in between captured that stone and the attacker
    recaptures there."""
    return any(line[i] is not None and line[i] == line[i - 2] for i in range(2, len(line), 2))


def _net(position: Position, pt: Point, proof: dict | None) -> bool:
    """A proven capture whose first move is not a liberty of the target."""
    if proof is None or not proof["code"] or proof["move"] in (None, "PASS"):
        return False
    move = parse_gtp(proof["move"], position.size)
    return move not in position.findlib(pt)


def categorize(position: Position, reader: Any, pt: Point, answers: list[dict], line: list) -> str:
    """The first rule that holds, in this order: ``ko`` (any answer code is
    2 or 3), ``snapback`` (the attack proof's line, see ``is_snapback``),
    ``ladder`` (the reader's ladder_attack captures), ``net`` (a proven
    capture starting away from the target's liberties), ``semeai`` (a
    neighbour string of the other colour with at most as many liberties as
    the target, and at most 4), ``edge`` (a stone on the first line), else
    ``other``.  ``answers``: the attack and defend question records."""
    codes = []
    for a in answers:
        codes += [a["gogame"]["code"], a["proven"]["code"]]
        codes.append(a["gnugo"]["code"] if a["gnugo"] else None)
    if any(c in (2, 3) for c in codes):
        return "ko"
    attack_proof = answers[0]["proven"] if answers[0]["proven"]["status"] == "proven" else None
    if attack_proof and attack_proof["code"] and is_snapback(line):
        return "snapback"
    if reader.ladder_attack(position, pt)[0]:
        return "ladder"
    if _net(position, pt, attack_proof):
        return "net"
    libs = position.countlib(pt)
    if any(position.countlib(q) <= min(libs, MAX_LIBS) for q in _neighbour_strings(position, pt)):
        return "semeai"
    last = position.size - 1
    if any(r in (0, last) or c in (0, last) for r, c in position.string_stones(pt)):
        return "edge"
    return "other"


# ------------------------------------------------------------------- SGF out
def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def position_sgf(position: Position, to_move: int, comment: str) -> str:
    """The position as setup stones (``AB``/``AW``), ``PL`` the colour to
    move, ``IL`` the ko point if any, and ``comment`` in ``C[]``."""
    size = position.size
    stones = sorted(position.stones().items())
    parts = [f"(;GM[1]FF[4]SZ[{size}]PL[{'B' if to_move == BLACK else 'W'}]"]
    for prop, color in (("AB", BLACK), ("AW", WHITE)):
        points = [format_sgf(p, size) for p, c in stones if c == color]
        if points:
            parts.append(prop + "".join(f"[{p}]" for p in points))
    if position.ko is not None:
        parts.append(f"IL[{format_sgf(position.ko, size)}]")
    parts.append(f"C[{_escape(comment)}])\n")
    return "".join(parts)


# -------------------------------------------------------------- one game
class _Miner:
    """The oracles of one game and the ``after_move`` step that asks them."""

    def __init__(self, game: Any, settings: MineSettings, data: bytes | None, out: dict) -> None:
        from ..core.prover import Prover

        self.settings, self.out, self.path = settings, out, game.path
        self.seen = set()  # what ``_repeat`` compares
        self.position = Position(game.size)
        self.reader = ReadSettings(cache_mb=settings.cache_mb).reader(game.size)
        self.prover = Prover(max_nodes=settings.prove_nodes)
        # the colour to move after move n: move n + 1's, else the other one
        moves = game.moves
        self.to_move = {m[3]: 3 - m[2] for m in moves}
        self.to_move.update({a[3]: b[2] for a, b in zip(moves, moves[1:], strict=False)})
        self.gnugo = None
        if settings.gnugo and data is not None:
            try:
                self.gnugo = GnuGo(data)
            except Exception as e:  # EngineError, OSError: go on without it
                out["gnugo_error"] = f"{game.path}: GNU Go: {e}"

    def _gnugo_failed(self, e: Exception) -> None:
        self.out["gnugo_error"] = f"{self.path}: GNU Go: {e}"
        self.close()

    def close(self) -> None:
        if self.gnugo is not None:
            gnugo, self.gnugo = self.gnugo, None
            try:
                gnugo.close()
            except Exception:
                pass

    def after(self, number: int) -> None:
        offset = self.settings.offset
        if number < offset or (number - offset) % self.settings.every:
            return
        self.out["positions"] += 1
        if self.gnugo is not None:
            try:
                self.gnugo.load(number)
            except Exception as e:
                self._gnugo_failed(e)
        to_move = self.to_move.get(number, BLACK)
        for p in self.position.weak_strings(MAX_LIBS):
            pt = self.position.pt(p)
            for r in self._string(number, pt):
                if r["reasons"] and not self._repeat(pt, r):
                    question = f"{r['question']} {r['vertex']}"
                    r["sgf"] = position_sgf(self.position, to_move, question)
                    self.out["problems"].append(r)

    def _repeat(self, pt: Point, r: dict) -> bool:
        """Whether this game kept the problem already at an earlier sampled
        position: the same question on the same stones with the same
        liberties, answered alike by all three (the codes: a proof may name
        another winning move, as the prover's table has changed).  Counted
        in ``repeats``."""
        key = (
            r["question"],
            frozenset(self.position.string_stones(pt)),
            frozenset(self.position.findlib(pt)),
            r["proven"]["status"],
            r["proven"]["code"],
            r["gogame"]["code"],
            None if r["gnugo"] is None else r["gnugo"]["code"],
        )
        if key in self.seen:
            self.out["repeats"] += 1
            self.out["tally"][r["category"]]["kept"] -= 1
            return True
        self.seen.add(key)
        return False

    def _ask(self, question: str, pt: Point, number: int) -> dict:
        """The three answers to one question, as an index record (no file yet)."""
        vertex = format_gtp(pt)
        before = self.reader.nodes
        ask = self.reader.attack if question == "attack" else self.reader.find_defense
        code, move = ask(self.position, pt)
        gogame = {"code": code, "move": _vertex(code, move), "nodes": self.reader.nodes - before}
        gnugo = None
        if self.gnugo is not None:
            try:
                gnugo = self.gnugo.ask(question, vertex)
            except Exception as e:
                self._gnugo_failed(e)
        proof = getattr(self.prover, question)(self.position, pt)
        proven = {
            "status": proof.status,
            "code": proof.code,
            "move": _vertex(proof.code, proof.move),
        }
        if not proof.proven:
            named = prove_named(self.prover, self.position, vertex, [gogame, gnugo], question)
            proven = named or proven
        return {
            "source": {"game": self.path, "move": number},
            "vertex": vertex,
            "question": question,
            "proven": proven,
            "gogame": gogame,
            "gnugo": gnugo,
            "nodes": proof.nodes,
            "line": [format_gtp(p) for p in proof.line],
        }

    def _string(self, number: int, pt: Point) -> list[dict]:
        """Both questions on the string at ``pt``, judged, categorized, tallied."""
        records = [self._ask(q, pt, number) for q in QUESTIONS]
        line = [parse_gtp(v, self.position.size) for v in records[0]["line"]]
        category = categorize(self.position, self.reader, pt, records, line)
        tally = self.out["tally"].setdefault(category, dict.fromkeys(TALLY_KEYS, 0))
        for r in records:
            r["category"] = category
            r["reasons"] = judge(r["question"], r["gogame"], r["gnugo"], r["proven"], r["nodes"])
            _count(tally, r)
            del r["line"]
        self.out["questions"] += len(records)
        return records


def _count(tally: dict, r: dict) -> None:
    """Add one question to a category's tally."""
    proven, gnugo, question = r["proven"], r["gnugo"], r["question"]
    tally["questions"] += 1
    tally["kept"] += bool(r["reasons"])
    if proven["status"] == "proven":
        tally["proven"] += 1
        tally["gogame_agrees"] += consistent(question, proven["code"], r["gogame"]["code"])
        tally["gogame_exact"] += proven["code"] == r["gogame"]["code"]
    if gnugo is not None:
        tally["gnugo_asked"] += 1
        tally["gogame_gnugo_same"] += gnugo["code"] == r["gogame"]["code"]
        if proven["status"] == "proven":
            tally["gnugo_proven"] += 1
            tally["gnugo_agrees"] += consistent(question, proven["code"], gnugo["code"])
            tally["gnugo_exact"] += proven["code"] == gnugo["code"]


def mine_job(job: dict[str, Any]) -> dict[str, Any]:
    """One game as a picklable job (see ``make_jobs``): counts, the kept
    problems (each with its SGF text) and the per-category tallies."""
    settings = MineSettings(**job["settings"])
    out = {
        "file": job["path"],
        "size": None,
        "moves": 0,
        "positions": 0,
        "questions": 0,
        "repeats": 0,
        "problems": [],
        "tally": {},
        "error": None,
        "gnugo_error": None,
        "seconds": 0.0,
    }
    t0 = time.perf_counter()
    try:
        game = load_job_game(job["path"], job["data"])
    except SgfError as e:
        out["error"] = str(e)
        return out
    out["size"] = game.size
    miner = _Miner(game, settings, job["data"], out)
    until = None if settings.moves is None else settings.moves + 1
    try:
        if _sets_up_a_problem(game):  # the position before move 1 is move 0
            miner.to_move[0] = apply_game(game, miner.position, 1)
            miner.after(0)
            miner.position = Position(game.size)
        apply_game(game, miner.position, until, after_move=miner.after)
    except ValueError as e:  # SgfError: an illegal move; what came before is kept
        out["error"] = str(e)
    finally:
        miner.close()
    out["moves"] = len(miner.position.moves())
    out["seconds"] = time.perf_counter() - t0
    return out


def _sets_up_a_problem(game: Any) -> bool:
    """Whether the record places stones before its first move."""
    for event in game.events:
        if event[0] == "move":
            return False
        if event[0] == "setup" and any(event[1].values()):
            return True
    return False


def make_jobs(paths: Iterable[str | os.PathLike], settings: MineSettings) -> list[dict[str, Any]]:
    """One job a game; the files are read here (see ``replay.make_jobs``)."""
    return [
        {"path": str(p), "data": read_game_bytes(p), "settings": asdict(settings)} for p in paths
    ]


def warm() -> None:
    """Mine a tiny game here, so that the kernels are compiled (or loaded)
    once before any game is timed or worker processes start."""
    settings = MineSettings(every=1, prove_nodes=1000, gnugo=False)
    mine_job({"path": "<warm-up>", "data": WARM_GAME, "settings": asdict(settings)})


# ----------------------------------------------------------------- merging
def _file_name(record: dict, used: set[str]) -> str:
    """``<game>-m<move>-<vertex>-<question>.sgf``, made unique in ``used``."""
    stem = os.path.splitext(os.path.basename(record["source"]["game"]))[0]
    base = f"{stem}-m{record['source']['move']:03d}-{record['vertex']}-{record['question']}"
    name, k = f"{base}.sgf", 1
    while name in used:
        k += 1
        name = f"{base}-{k}.sgf"
    used.add(name)
    return name


def _empty_tally() -> dict[str, int]:
    return dict.fromkeys(TALLY_KEYS, 0)


def merge(results: Iterable[dict[str, Any]]) -> tuple[list[dict], dict[str, Any]]:
    """(index, summary) from ``mine_job`` results in game order.  Each index
    entry keeps its ``sgf`` text (``mine_games`` writes and drops it)."""
    results = list(results)
    index, used = [], set()
    agreement = {"all": _empty_tally(), **{c: _empty_tally() for c in CATEGORIES}}
    for g in results:
        for r in g["problems"]:
            index.append({"file": _file_name(r, used), **r})
        for category, tally in g["tally"].items():
            for key, value in tally.items():
                agreement[category][key] += value
                agreement["all"][key] += value
    summary = {
        "games": len(results),
        "positions": sum(g["positions"] for g in results),
        "questions": sum(g["questions"] for g in results),
        "kept": len(index),
        "repeats": sum(g.get("repeats", 0) for g in results),
        "by_category": {c: agreement[c]["kept"] for c in CATEGORIES},
        "agreement": agreement,
        "errors": [g["error"] for g in results if g["error"]],
        "gnugo_errors": [g["gnugo_error"] for g in results if g["gnugo_error"]],
        "seconds": sum(g["seconds"] for g in results),
    }
    return index, summary


def write_corpus(index: list[dict], out_dir: str | os.PathLike) -> None:
    """Each entry's SGF under ``out_dir`` (its ``sgf`` text removed from the
    entry), then ``out_dir/index.json``.  Files already there are kept
    unless overwritten."""
    os.makedirs(out_dir, exist_ok=True)
    for entry in index:
        with open(os.path.join(out_dir, entry["file"]), "w") as f:
            f.write(entry.pop("sgf"))
    write_index(index, out_dir)


def _after_move(game: Any, number: int) -> tuple[Position, int]:
    """The position after move ``number`` of ``game`` and the colour to move."""
    position = Position(game.size)
    setup = number == 0 and _sets_up_a_problem(game)
    return position, apply_game(game, position, 1 if setup else number + 1)


def materialize(index: list[dict], root: str | os.PathLike, out_dir: str | os.PathLike) -> int:
    """Write the problems of ``index`` (entries of an ``index.json``) into
    ``out_dir`` from their source games (``source.game``, relative to
    ``root``), then ``out_dir/index.json``: a folder that ``--report`` and
    ``scripts/dev_set.py`` read as if it had been mined there.  Each game
    is read, and each sampled position replayed, once.  Returns the
    count.  ``SgfError`` when a game cannot be read or replayed.  Not
    done: checking that the games are those the index was mined from."""
    os.makedirs(out_dir, exist_ok=True)
    games, positions = {}, {}
    for entry in index:
        path, number = entry["source"]["game"], entry["source"]["move"]
        if path not in games:
            games[path] = load_game(os.path.join(root, path))
        if (path, number) not in positions:
            positions[path, number] = _after_move(games[path], number)
        text = position_sgf(*positions[path, number], f"{entry['question']} {entry['vertex']}")
        with open(os.path.join(out_dir, entry["file"]), "w") as f:
            f.write(text)
    write_index(index, out_dir)
    return len(index)


def mine_games(
    paths: Iterable[str | os.PathLike],
    out_dir: str | os.PathLike,
    settings: MineSettings = MineSettings(),
    workers: int = 1,
    dask: str | None = None,
    progress: bool = False,
) -> dict[str, Any]:
    """Mine every game, one job a game in the chosen execution mode, write
    the corpus and return the summary (the same in every mode but the
    timings).  ``jobs.ExecutionError`` when Dask cannot be used."""
    from .jobs import run_jobs

    t0 = time.perf_counter()
    jobs = make_jobs(paths, settings)
    if dask is None:
        announce_compile()
        warm()
    results = run_jobs(
        mine_job, jobs, workers, dask, progress, warm=warm if dask is not None else None
    )
    index, summary = merge(results)
    write_corpus(index, out_dir)
    summary.update(
        out=str(out_dir),
        gnugo=settings.gnugo,
        every=settings.every,
        offset=settings.offset,
        prove_nodes=settings.prove_nodes,
        wall_seconds=time.perf_counter() - t0,
    )
    return summary


def _share(agree: int, total: int) -> str:
    return f"{agree}/{total} ({100 * agree / total:.0f} %)" if total else "-"


def format_summary(summary: dict[str, Any]) -> str:
    """A few lines: totals, then one line a category with what was kept and
    how often gogame and GNU Go agree with the proven answers."""
    s = summary
    lines = [
        f"mined {s['games']} games: {s['positions']} positions, {s['questions']} questions, "
        f"{s['kept']} kept ({s['repeats']} repeats left out) in {s['out']} "
        f"({s['wall_seconds']:.1f} s wall)",
        f"{'category':9} {'questions':>9} {'kept':>5} {'proven':>6}  "
        f"{'gogame = proof':>16}  {'GNU Go = proof':>16}  {'gogame = GNU Go':>16}",
    ]
    for category in ("all", *CATEGORIES):
        t = s["agreement"][category]
        lines.append(
            f"{category:9} {t['questions']:9d} {t['kept']:5d} {t['proven']:6d}  "
            f"{_share(t['gogame_agrees'], t['proven']):>16}  "
            f"{_share(t['gnugo_agrees'], t['gnugo_proven']):>16}  "
            f"{_share(t['gogame_gnugo_same'], t['gnugo_asked']):>16}"
        )
    return "\n".join(lines)


# ----------------------------------------------------------------- --report
REPORT_KEYS = (
    "proven",
    "gogame_correct",
    "gogame_proven_move",
    "gnugo_asked",
    "gnugo_correct",
    "gnugo_proven_move",
)
ORACLES = ("gogame", "gnugo")


class ReportError(ValueError):
    """A corpus folder that cannot be reported on; the message is one line."""


def _entry_ok(e: Any) -> bool:
    """Whether ``e`` has the fields the report reads, of the right types."""
    try:
        proven = e["proven"]
        ok = e["question"] in QUESTIONS and isinstance(e["file"], str)
        ok = ok and isinstance(e["category"], str) and proven["status"] in ("proven", "unknown")
        ok = ok and (proven["status"] == "unknown" or proven["code"] in (0, 1, 2, 3))
        return ok and all(
            e[k] is None or (e[k]["code"] in (0, 1, 2, 3) and "move" in e[k]) for k in ORACLES
        )
    except (KeyError, TypeError):
        return False


def load_index(folder: str | os.PathLike) -> list[dict]:
    """``folder/index.json`` as a list of problems; ``ReportError`` when the
    folder or file is missing or the file is not a mine index."""
    path = os.path.join(folder, "index.json")
    if not os.path.isdir(folder):
        raise ReportError(f"no such folder: {folder}")
    if not os.path.isfile(path):
        raise ReportError(f"no index.json in {folder}")
    try:
        with open(path, encoding="utf-8") as f:
            index = json.load(f)
    except (OSError, ValueError) as e:
        raise ReportError(f"cannot read {path}: {str(e).splitlines()[0]}") from None
    if not isinstance(index, list):
        raise ReportError(f"{path} is not a list of problems")
    for k, e in enumerate(index):
        if not _entry_ok(e):
            raise ReportError(
                f"{path}: problem {k} lacks question, proven, gogame, gnugo or category"
            )
    return index


def problem_position(folder: str | os.PathLike, entry: dict) -> Position:
    """The position of one problem of ``folder``, loaded from its SGF;
    OSError, SgfError or ValueError when it cannot be."""
    game = load_game(os.path.join(folder, entry["file"]))
    position = Position(game.size)
    apply_game(game, position)
    return position


def _first_line(err: Exception) -> str:
    """An exception's message for a one-line error."""
    return str(err).splitlines()[0] if str(err) else type(err).__name__


def ask_again(folder: str | os.PathLike, entry: dict, cache_mb: float = 1.0) -> dict:
    """This version's reader on one problem of ``folder``: a fresh reader
    and cache, as tests/core/test_reader_corpus.py asks.  Returns
    ``{"code", "move", "nodes", "seconds"}`` (seconds of reading only);
    OSError, SgfError or ValueError when the problem cannot be asked."""
    from ..core.reader import Reader
    from ..core.reading_cache import ReadingCache

    reader = Reader(cache=ReadingCache(cache_mb))
    ask = reader.attack if entry["question"] == "attack" else reader.find_defense
    position = problem_position(folder, entry)
    t0 = time.perf_counter()
    code, move = ask(position, entry["vertex"])
    seconds = time.perf_counter() - t0
    return {"code": code, "move": _vertex(code, move), "nodes": reader.nodes, "seconds": seconds}


def reprove(prover: Any, position: Position, entry: dict) -> dict | None:
    """A proof for a problem the referee left ``unknown``: the prover's own
    search (captures, the escape game) asked again (``via: "search"``);
    still unknown, the moves the oracles name (``prove_named_capture``,
    ``prove_named_defence``).  The ``proven`` record, or None."""
    pt = parse_gtp(entry["vertex"], position.size)
    proof = getattr(prover, entry["question"])(position, pt)
    if proof.proven:
        record = {"status": "proven", "code": proof.code, "move": _vertex(proof.code, proof.move)}
        return {**record, "via": "search", "nodes": proof.nodes}
    answers = [entry[k] for k in ORACLES]
    return prove_named(prover, position, entry["vertex"], answers, entry["question"])


def referee(
    index: list[dict],
    folder: str | os.PathLike,
    prove_nodes: int = 200_000,
    again: bool = False,
) -> tuple[list[dict], dict[str, int]]:
    """The index with every ``unknown`` problem proven where ``reprove``
    proves it, within ``prove_nodes`` a search; and ``{"tried",
    "proven"}``.  With ``again``, the proven problems are asked too, so
    that a change to the prover is judged on what it loses as well as on
    what it gains: the counts add ``again`` (proven problems asked),
    ``kept`` (proven again with their code), ``changed`` (with another
    code) and ``lost`` (not within the budget).  Proven problems are
    unchanged in the index either way: a recorded proof stays one.
    ``ReportError`` when a problem cannot be set up."""
    from ..core.prover import Prover

    prover = Prover(max_nodes=prove_nodes)
    out, counts = [], {"tried": 0, "proven": 0}
    if again:
        counts.update(again=0, kept=0, changed=0, lost=0)
    for e in index:
        known = e["proven"]["status"] != "unknown"
        if known and not again:
            out.append(e)
            continue
        proof = reprove(prover, _set_up(folder, e), e)
        if known:
            counts["again"] += 1
            same = proof is not None and proof["code"] == e["proven"]["code"]
            counts["lost" if proof is None else "kept" if same else "changed"] += 1
        else:
            counts["tried"] += 1
            if proof is not None:
                counts["proven"] += 1
                e = {**e, "proven": proof}
        out.append(e)
    return out, counts


def _set_up(folder: str | os.PathLike, entry: dict) -> Position:
    """The problem's position; ``ReportError`` when it cannot be set up."""
    try:
        return problem_position(folder, entry)
    except (OSError, SgfError, ValueError) as err:
        raise ReportError(f"cannot set up {entry['file']}: {_first_line(err)}") from None


def write_index(index: list[dict], folder: str | os.PathLike) -> None:
    """``folder/index.json`` (one entry a problem, indented), through a
    temporary file renamed over it."""
    path = os.path.join(folder, "index.json")
    with open(path + ".tmp", "w") as f:  # the user's file mode, as open makes it
        json.dump(index, f, indent=1)
        f.write("\n")
    os.replace(path + ".tmp", path)


def reask(index: list[dict], folder: str | os.PathLike, cache_mb: float = 1.0) -> list[dict]:
    """The index with gogame's answer to every proven problem asked again of
    this version's reader (``ask_again``), so that the report judges the
    reader of today, not the one that mined the corpus.  Unproven problems
    keep their recorded answers; GNU Go's are never asked again."""
    out = []
    for e in index:
        if e["proven"]["status"] == "proven":
            try:
                answer = ask_again(folder, e, cache_mb)
            except (OSError, SgfError, ValueError) as err:
                raise ReportError(f"cannot ask {e['file']} again: {_first_line(err)}") from None
            del answer["seconds"]
            e = {**e, "gogame": answer}
        out.append(e)
    return out


def grade(question: str, proven: dict, answer: dict | None) -> str | None:
    """One oracle's answer against a proven one (None: no answer, or no
    proof): ``wrong`` when its code is not ``consistent`` with the proven
    code; ``proven_move`` when it is and the answer needs no move (code 0)
    or names the proof's move (``PASS`` included); else ``code`` (the code
    is right, the move is another one, not checked)."""
    if answer is None or proven["status"] != "proven":
        return None
    if not consistent(question, proven["code"], answer["code"]):
        return "wrong"
    if answer["code"] == 0 or answer["move"] == proven["move"]:
        return "proven_move"
    return "code"


def _answer_text(a: dict | None) -> str | None:
    """``0``, ``CODE MOVE`` (``PASS`` when none is named), or None."""
    if a is None:
        return None
    return f"{a['code']} {a['move'] or 'PASS'}" if a["code"] else "0"


def report(index: list[dict]) -> dict[str, Any]:
    """The --report dict: ``problems``, ``proven``; ``categories``, for
    ``all`` and each category (those of ``CATEGORIES``, then any other
    found), the counts of ``REPORT_KEYS`` over the proven problems and the
    files where gogame's or GNU Go's answer is wrong (``gogame_wrong``,
    ``gnugo_wrong``); ``wrong``, one record a problem with a wrong answer."""
    names = list(CATEGORIES) + sorted({e["category"] for e in index} - set(CATEGORIES))
    cats = {
        c: {**dict.fromkeys(REPORT_KEYS, 0), "gogame_wrong": [], "gnugo_wrong": []}
        for c in ("all", *names)
    }
    wrong = []
    proven = [e for e in index if e["proven"]["status"] == "proven"]
    for e in proven:
        grades = {k: grade(e["question"], e["proven"], e[k]) for k in ORACLES}
        for t in (cats["all"], cats[e["category"]]):
            t["proven"] += 1
            t["gnugo_asked"] += e["gnugo"] is not None
            for k, g in grades.items():
                t[f"{k}_correct"] += g in ("proven_move", "code")
                t[f"{k}_proven_move"] += g == "proven_move"
                if g == "wrong":
                    t[f"{k}_wrong"].append(e["file"])
        if "wrong" in grades.values():
            wrong.append(
                {
                    "file": e["file"],
                    "category": e["category"],
                    "question": e["question"],
                    "vertex": e.get("vertex"),
                    "proven": _answer_text(e["proven"]),
                    **{k: _answer_text(e[k]) for k in ORACLES},
                    "wrong": [k for k in ORACLES if grades[k] == "wrong"],
                }
            )
    return {"problems": len(index), "proven": len(proven), "categories": cats, "wrong": wrong}


def format_report(rep: dict[str, Any], folder: str | os.PathLike = "") -> str:
    """The --report table: one row a category (``all`` first), then the
    problems with a wrong answer."""
    lines = [
        f"mine report on {folder or 'the index'}: {rep['problems']} problems, "
        f"{rep['proven']} with a proven answer",
        f"{'category':9} {'proven':>6}  {'gogame correct':>15} {'proven move':>12}  "
        f"{'GNU Go asked':>12} {'GNU Go correct':>15} {'proven move':>12}",
    ]
    for name, t in rep["categories"].items():
        lines.append(
            f"{name:9} {t['proven']:6d}  {_share(t['gogame_correct'], t['proven']):>15} "
            f"{t['gogame_proven_move']:12d}  {t['gnugo_asked']:12d} "
            f"{_share(t['gnugo_correct'], t['gnugo_asked']):>15} {t['gnugo_proven_move']:12d}"
        )
    if rep["wrong"]:
        lines.append("wrong answers (the code contradicts the proof):")
    for w in rep["wrong"]:
        lines.append(
            f"  {w['file']} [{w['category']}] {w['question']}: proven {w['proven']}, "
            f"gogame {w['gogame']}, GNU Go {w['gnugo'] or '-'} (wrong: {', '.join(w['wrong'])})"
        )
    return "\n".join(lines)
