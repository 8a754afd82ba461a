#!/usr/bin/env python3
"""Play complete games between two GTP engines and save each one as SGF.

Contract
--------
For every board size given with ``--size`` and every game index, this script
starts one fresh process per colour, plays one game and writes it to
``OUT/<tag>-<N>x<N>-s<seed>.sgf`` (atomically: temp file, then os.replace).

* Engines: ``--black`` / ``--white`` command lines (split with shlex), in
  which ``{level}`` and ``{seed}`` stand for the game's level and seed.  The
  default for both is ``/usr/games/gnugo --mode gtp --level {level} --seed
  {seed}``.  ``--swap`` exchanges the two command lines in every second game.
* Seeds and levels: game number k (1-based, counted over the whole run, sizes
  in the order given) uses seed ``S + k`` and the level ``LEVELS[(k-1) % n]``
  of ``--levels`` (default 1), so games differ and a run is reproducible.
* Openings: ``--opening N`` first plays N moves drawn (from the game's seed)
  among the 3-4 and 4-4 points of distinct corners, on both engines.
* Resuming: a game whose file already exists is skipped, so the same command
  run again continues where an interrupted run stopped.  Nothing else is
  kept between runs.
* Protocol: ``boardsize``, ``clear_board``, ``komi`` on both engines, then
  ``genmove`` for the side to move and ``play`` of that move on the other.
  The game ends on two consecutive passes (RE = ``final_score`` from the black
  engine) or on a resignation (RE = ``B+R`` / ``W+R``).
* Errors: a GTP ``?`` reply, an illegal/unparsable move, an engine crash or
  reaching ``--max-moves`` aborts that game (message on stderr, no file); the
  script continues and exits with status 1 at the end.
* Output: one line per recorded game on stdout
  (``file size moves result seconds``); progress lines on stderr.
* SGF root: SZ, KM, PB, PW (engine ``name`` + ``version``), RE, DT, GC and C
  (provenance and seed); passes are stored as empty moves.

Dependencies: the standard library, sgfmill and gogame.gtp.client (no engine code).
"""

import argparse
import datetime
import os
import random
import shlex
import sys
import tempfile
import time

from sgfmill import common, sgf

from gogame.gtp.client import EngineError, GtpClient, GtpError

DEFAULT_ENGINE = "/usr/games/gnugo --mode gtp --level {level} --seed {seed}"


class GameError(Exception):
    """An engine replied with '?' or produced something unusable."""


def ask(engine, command):
    """Send one command; return the reply text or raise GameError on '?'."""
    try:
        return engine.ask(command)
    except GtpError as exc:
        raise GameError(f"{engine.argv[0]}: {command!r} failed: {exc}") from None


def opening_moves(size, count, seed):
    """``count`` moves on the 3-4 and 4-4 points of distinct corners, drawn from seed."""
    if size < 9 or count <= 0:
        return []
    rng = random.Random(seed)
    lo, hi = (2, 3), (size - 4, size - 3)  # rows/cols of the 3rd and 4th lines
    corners = [(r, c) for r in (lo, hi) for c in (lo, hi)]
    rng.shuffle(corners)
    moves = []
    for k, (rows, cols) in enumerate(corners[: min(count, 4)]):
        point = (rng.choice(rows), rng.choice(cols))
        moves.append(("b" if k % 2 == 0 else "w", point))
    return moves


def play_game(black, white, size, komi, max_moves, opening=()):
    """Play one game; return (moves, result). moves: [(colour, (row, col) | None)]."""
    engines = {"b": black, "w": white}
    for eng in engines.values():
        ask(eng, f"boardsize {size}")
        ask(eng, "clear_board")
        ask(eng, f"komi {komi}")
    moves, colour, passes = [], "b", 0
    for colour, move in opening:
        vertex = common.format_vertex(move)
        for eng in engines.values():
            ask(eng, f"play {colour} {vertex}")
        moves.append((colour, move))
    colour = "w" if len(moves) % 2 else "b"
    while passes < 2:
        if len(moves) >= max_moves:
            raise GameError(f"no result after {max_moves} moves (--max-moves)")
        other = "w" if colour == "b" else "b"
        vertex = ask(engines[colour], f"genmove {colour}")
        if vertex.lower() == "resign":
            return moves, f"{other.upper()}+R"
        try:
            move = common.move_from_vertex(vertex, size)
        except ValueError:
            raise GameError(f"{colour.upper()} engine generated bad move {vertex!r}") from None
        try:
            ask(engines[other], f"play {colour} {vertex}")
        except GameError as exc:
            raise GameError(
                f"illegal move {colour.upper()} {vertex} at move {len(moves) + 1}: {exc}"
            ) from exc
        moves.append((colour, move))
        passes = passes + 1 if move is None else 0
        colour = other
    return moves, ask(black, "final_score")


def write_sgf(path, size, komi, names, result, moves, seed, level):
    """Serialise the game with sgfmill and write it atomically to path."""
    game = sgf.Sgf_game(size=size)
    root = game.get_root()
    root.set("KM", komi)
    root.set("PB", names["b"])
    root.set("PW", names["w"])
    root.set("RE", result)
    root.set("DT", datetime.date.today().isoformat())
    note = f"Recorded by gogame's scripts/record_games.py, seed {seed}, level {level}"
    root.set("GC", note)
    root.set("C", note)
    for colour, move in moves:
        node = game.extend_main_sequence()
        if move is None:  # sgfmill would write [tt]; use FF[4] []
            node.set_raw(colour.upper(), b"")
        else:
            node.set_move(colour, move)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(path) or ".", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(game.serialise())
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def engine_name(engine):
    return f"{ask(engine, 'name')} {ask(engine, 'version')}".strip()


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--black", default=DEFAULT_ENGINE, help="black engine command")
    p.add_argument("--white", default=DEFAULT_ENGINE, help="white engine command")
    p.add_argument(
        "--size",
        "--sizes",
        dest="sizes",
        action="append",
        help="board size(s); repeatable or comma list (default 9)",
    )
    p.add_argument("--games", type=int, default=1, help="games per size")
    p.add_argument("--levels", default="1", help="comma list of levels, cycled over the games")
    p.add_argument("--opening", type=int, default=0, help="random corner moves to start with")
    p.add_argument("--swap", action="store_true", help="swap the engines every second game")
    p.add_argument("--komi", type=float, default=6.5)
    p.add_argument("--seed", type=int, default=100, help="game k uses seed S+k")
    p.add_argument("--out", default="sgf", help="output directory")
    p.add_argument(
        "--max-moves",
        type=int,
        default=None,
        help="abort a game after this many moves (default 3*size*size)",
    )
    p.add_argument(
        "--tag",
        default=None,
        help="file name prefix, may hold {level} (default gnugo-l{level} for the default "
        "engines, else 'engines')",
    )
    args = p.parse_args(argv)
    args.sizes = [int(s) for item in (args.sizes or ["9"]) for s in item.split(",") if s.strip()]
    try:
        args.levels = [int(v) for v in args.levels.split(",") if v.strip()]
    except ValueError:
        p.error(f"--levels: not a comma list of integers: {args.levels!r}")
    if not args.levels:
        p.error("--levels: give at least one level")
    if args.tag is None:
        default = args.black == DEFAULT_ENGINE and args.white == DEFAULT_ENGINE
        args.tag = "gnugo-l{level}" if default else "engines"
    return args


def engine_argv(command, seed, level):
    """The command line with its ``{seed}`` and ``{level}`` filled in."""
    return [word.format(seed=seed, level=level) for word in shlex.split(command)]


def main(argv=None):
    args = parse_args(argv)
    os.makedirs(args.out, exist_ok=True)
    total, failures, k = len(args.sizes) * args.games, 0, 0
    for size in args.sizes:
        for _ in range(args.games):
            k += 1
            seed, level = args.seed + k, args.levels[(k - 1) % len(args.levels)]
            tag = args.tag.format(level=level)
            path = os.path.join(args.out, f"{tag}-{size}x{size}-s{seed}.sgf")
            if os.path.exists(path):
                print(f"[{k}/{total}] {path} exists, kept", file=sys.stderr, flush=True)
                continue
            print(f"[{k}/{total}] {size}x{size} seed {seed} ...", file=sys.stderr, flush=True)
            start, black, white = time.monotonic(), None, None
            commands = (
                (args.white, args.black) if args.swap and k % 2 == 0 else (args.black, args.white)
            )
            try:
                black = GtpClient(engine_argv(commands[0], seed, level))
                white = GtpClient(engine_argv(commands[1], seed, level))
                names = {"b": engine_name(black), "w": engine_name(white)}
                opening = opening_moves(size, args.opening, seed)
                moves, result = play_game(
                    black, white, size, args.komi, args.max_moves or 3 * size * size, opening
                )
                write_sgf(path, size, args.komi, names, result, moves, seed, level)
            except (GameError, EngineError, OSError) as exc:
                failures += 1
                print(
                    f"error: game {k} ({size}x{size}, seed {seed}) aborted: {exc}",
                    file=sys.stderr,
                    flush=True,
                )
                continue
            finally:
                for eng in (black, white):
                    if eng is not None:
                        eng.close()
            print(
                f"{path} {size}x{size} moves={len(moves)} result={result} "
                f"{time.monotonic() - start:.1f}s",
                flush=True,
            )
    if failures:
        print(f"{failures} of {total} games failed", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
