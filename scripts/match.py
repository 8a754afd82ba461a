#!/usr/bin/env python3
"""Play N games between two GTP engines and report the result.

    python scripts/match.py --engine-a "gogame gtp" \\
        --engine-b "/usr/games/gnugo --mode gtp --level 1" \\
        --games 40 --size 9 --komi 7 --seconds 1 --out matches/9x9

Contract:

* Engines are command lines (split with shlex), started once per game on
  subprocess pipes; A plays black in the even games (0, 2, ...) and white
  in the odd ones (``--a-color black`` or ``white``: that colour in every
  game).  Each game sends ``boardsize``, ``clear_board``,
  ``komi`` and ``time_settings 0 S 1`` (S seconds for every move, Canadian
  byo-yomi of one stone) to both, then ``genmove`` to the side to move and
  ``play`` to the other.
* A referee (default GNU Go with Chinese rules, ``--referee ''`` for none)
  gets every move: a move it rejects is an illegal move, and its
  ``final_score`` after two passes is the result (without a referee the
  black engine's).  A resignation gives ``B+R`` / ``W+R``; ``--max-moves``
  ends a game and scores it as it stands.
* Protocol errors: a response not starting with ``= `` / ``? `` (the space
  included), an unexpected ``?``, a genmove answer that is not a vertex,
  pass or resign, a dead engine or one silent for ``--timeout`` seconds.
  A game with an error stops there and counts for nobody.
* Each game is written with sgfmill to ``OUT/<prefix>-<n>.sgf`` (temporary
  file, then rename): SZ, KM, PB, PW, RE, the moves, and C with the
  engines' average seconds per move.
* The report: games, A's wins, win rate with its 95% Wilson interval,
  average seconds per move of each engine, protocol errors, illegal moves;
  ``--json`` prints it as one object.  Exit status 0 when there were no
  protocol errors and no illegal moves, else 1.

``--parallel K`` runs K games at once (threads waiting on pipes).
The standard library, sgfmill and gogame.gtp.client (no engine code).
"""

import argparse
import json
import math
import os
import queue
import shlex
import sys
import tempfile
import threading
import time

from sgfmill import common, sgf

from gogame.gtp.client import EngineError, GtpClient, GtpError

REFEREE = "/usr/games/gnugo --mode gtp --chinese-rules"


def open_engine(command, timeout):
    """One engine on pipes; ``ask`` answers the text after ``= `` and raises
    GtpError on ``?``, EngineError (a protocol error) on anything else,
    silence for ``timeout`` seconds included."""
    return GtpClient(shlex.split(command), timeout=timeout)


def engine_name(engine):
    """``name`` and ``version`` answers, or the command line when refused."""
    try:
        return f"{engine.ask('name')} {engine.ask('version')}".strip()
    except GtpError:
        return engine.name


def wilson(wins, n, z=1.96):
    """95% Wilson score interval of a win rate (0, 0 for no games)."""
    if n == 0:
        return 0.0, 0.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def setup(engine, size, komi, seconds):
    for command in (
        f"boardsize {size}",
        "clear_board",
        f"komi {komi}",
        f"time_settings 0 {seconds:g} 1",
    ):
        try:
            engine.ask(command)
        except GtpError as e:
            if not command.startswith("time_settings"):
                raise EngineError(f"{engine.name}: {command!r} rejected: {e}") from None


def play_game(index, args):
    """One game; returns a dict with the moves, result and any error."""
    a_black = {"black": True, "white": False}.get(args.a_color, index % 2 == 0)
    cmd = {
        "b": args.engine_a if a_black else args.engine_b,
        "w": args.engine_b if a_black else args.engine_a,
    }
    game = {
        "index": index,
        "a_black": a_black,
        "moves": [],
        "result": None,
        "error": None,
        "illegal": 0,
        "seconds": {"b": [], "w": []},
        "names": {},
    }
    engines = {}
    referee = None
    try:
        for c in "bw":
            engines[c] = open_engine(cmd[c], args.timeout)
            game["names"][c] = engine_name(engines[c])
            setup(engines[c], args.size, args.komi, args.seconds)
        if args.referee:
            referee = open_engine(args.referee, args.timeout)
            setup(referee, args.size, args.komi, args.seconds)
        _play_moves(game, engines, referee, args)
    except EngineError as e:
        game["error"] = str(e)
    finally:
        for e in list(engines.values()) + ([referee] if referee else []):
            e.close()
    return game


def _play_moves(game, engines, referee, args):
    color, passes = "b", 0
    while passes < 2 and len(game["moves"]) < args.max_moves:
        other = "w" if color == "b" else "b"
        start = time.perf_counter()
        try:
            vertex = engines[color].ask(f"genmove {color}")
        except GtpError as e:
            raise EngineError(f"genmove {color} rejected: {e}") from None
        game["seconds"][color].append(time.perf_counter() - start)
        if vertex.lower() == "resign":
            game["result"] = f"{other.upper()}+R"
            return
        try:
            move = common.move_from_vertex(vertex, args.size)
        except ValueError:
            raise EngineError(f"genmove {color} answered {vertex!r}") from None
        for judge in ([referee] if referee else []) + [engines[other]]:
            try:
                judge.ask(f"play {color} {vertex}")
            except GtpError:
                game["illegal"] += 1
                game["result"] = f"{other.upper()}+F"
                game["error"] = f"illegal move {color} {vertex} at move {len(game['moves']) + 1}"
                return
        game["moves"].append((color, move))
        passes = passes + 1 if move is None else 0
        color = other
    scorer = referee or engines["b"]
    try:
        game["result"] = scorer.ask("final_score")
    except GtpError as e:
        raise EngineError(f"final_score rejected: {e}") from None


def write_sgf(path, game, args):
    g = sgf.Sgf_game(args.size)
    root = g.get_root()
    root.set("KM", float(args.komi))
    root.set("PB", game["names"].get("b", "?"))
    root.set("PW", game["names"].get("w", "?"))
    if game["result"]:
        root.set("RE", game["result"])
    avg = {c: _mean(game["seconds"][c]) for c in "bw"}
    root.set(
        "C",
        f"scripts/match.py, game {game['index']}, {args.seconds:g} s a move; "
        f"average seconds per move: black {avg['b']:.2f}, white {avg['w']:.2f}"
        + (f"; error: {game['error']}" if game["error"] else ""),
    )
    for color, move in game["moves"]:
        g.extend_main_sequence().set_move(color, move)
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, suffix=".tmp")
    with os.fdopen(fd, "wb") as f:
        f.write(g.serialise())
    os.replace(tmp, path)


def _mean(xs):
    return sum(xs) / len(xs) if xs else 0.0


def a_won(game):
    """True/False for a finished game, None when it had an error or no winner."""
    result = (game["result"] or "").upper()
    if game["error"] and game["illegal"] == 0 or result[:2] not in ("B+", "W+"):
        return None
    black_won = result.startswith("B+")
    return black_won == game["a_black"]


def summarize(games, args, wall):
    finished = [g for g in games if a_won(g) is not None]
    wins = sum(1 for g in finished if a_won(g))
    low, high = wilson(wins, len(finished))
    a_secs = [s for g in games for c in "bw" for s in g["seconds"][c] if (c == "b") == g["a_black"]]
    b_secs = [s for g in games for c in "bw" for s in g["seconds"][c] if (c == "b") != g["a_black"]]
    return {
        "engine_a": args.engine_a,
        "engine_b": args.engine_b,
        "size": args.size,
        "komi": args.komi,
        "seconds_per_move_setting": args.seconds,
        "games": len(games),
        "finished": len(finished),
        "a_wins": wins,
        "a_win_rate": wins / len(finished) if finished else 0.0,
        "a_win_rate_95": [low, high],
        "a_wins_as_black": sum(1 for g in finished if a_won(g) and g["a_black"]),
        "a_wins_as_white": sum(1 for g in finished if a_won(g) and not g["a_black"]),
        "a_seconds_per_move": _mean(a_secs),
        "b_seconds_per_move": _mean(b_secs),
        "moves_per_game": _mean([len(g["moves"]) for g in games]),
        "protocol_errors": sum(1 for g in games if g["error"] and not g["illegal"]),
        "illegal_moves": sum(g["illegal"] for g in games),
        "errors": [g["error"] for g in games if g["error"]],
        "wall_seconds": wall,
    }


def format_report(r):
    low, high = r["a_win_rate_95"]
    return "\n".join(
        [
            f"A: {r['engine_a']}",
            f"B: {r['engine_b']}",
            f"{r['size']}x{r['size']}, komi {r['komi']}, "
            f"{r['seconds_per_move_setting']:g} s a move: "
            f"{r['games']} games, {r['finished']} finished",
            f"A won {r['a_wins']} ({r['a_wins_as_black']} as black, {r['a_wins_as_white']} as "
            f"white): win rate {100 * r['a_win_rate']:.1f}% "
            f"(95% interval {100 * low:.1f}-{100 * high:.1f}%)",
            f"seconds per move: A {r['a_seconds_per_move']:.2f}, B {r['b_seconds_per_move']:.2f}; "
            f"{r['moves_per_game']:.1f} moves a game; wall {r['wall_seconds']:.0f} s",
            f"protocol errors {r['protocol_errors']}, illegal moves {r['illegal_moves']}",
        ]
        + [f"  error: {e}" for e in r["errors"]]
    )


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--engine-a", default=f"{sys.executable} -m gogame gtp")
    p.add_argument("--engine-b", default="/usr/games/gnugo --mode gtp --level 1")
    p.add_argument("--referee", default=REFEREE if os.access("/usr/games/gnugo", os.X_OK) else "")
    p.add_argument("--games", type=int, default=10)
    p.add_argument("--a-color", choices=("alternate", "black", "white"), default="alternate")
    p.add_argument("--size", type=int, default=9)
    p.add_argument("--komi", type=float, default=7.5)
    p.add_argument("--seconds", type=float, default=1.0, help="time per move")
    p.add_argument("--max-moves", type=int, default=None)
    p.add_argument("--timeout", type=float, default=120.0)
    p.add_argument("--parallel", type=int, default=1)
    p.add_argument("--out", default=None, help="directory for the SGF files")
    p.add_argument("--prefix", default=None)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    args.max_moves = args.max_moves or 3 * args.size * args.size
    prefix = args.prefix or f"match-{args.size}x{args.size}"
    if args.out:
        os.makedirs(args.out, exist_ok=True)
    games, lock = [], threading.Lock()
    todo = queue.Queue()
    for i in range(args.games):
        todo.put(i)
    start = time.perf_counter()

    def worker():
        while True:
            try:
                i = todo.get_nowait()
            except queue.Empty:
                return
            game = play_game(i, args)
            if args.out:
                write_sgf(os.path.join(args.out, f"{prefix}-{i + 1:03d}.sgf"), game, args)
            with lock:
                games.append(game)
                winner = {True: "A", False: "B", None: "-"}[a_won(game)]
                print(
                    f"game {i + 1}: A {'black' if game['a_black'] else 'white'}, "
                    f"{len(game['moves'])} moves, {game['result']} -> {winner}"
                    + (f" ({game['error']})" if game["error"] else ""),
                    file=sys.stderr,
                    flush=True,
                )

    threads = [threading.Thread(target=worker) for _ in range(max(1, args.parallel))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    report = summarize(sorted(games, key=lambda g: g["index"]), args, time.perf_counter() - start)
    print(json.dumps(report, indent=1) if args.json else format_report(report))
    return 0 if report["protocol_errors"] == 0 and report["illegal_moves"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
