"""Reading questions in bulk, for the tests whose property is "same answers":
the reading cache (any scheme, budget, policy) and threads (ABDADA or a
shared cache) change node counts and time, never an answer.

A script is a list of steps run in order on one Reader::

    ("load", path, until) | ("trymove"|"tryko", color, vertex) | ("popgo",)
    | ("play", color, vertex) | ("depth", delta) | ("ask", key, kind, vertex)

Running it gives ``{key: (code, move)}`` for the "ask" steps (None for a
question that hit the reader's node limit).  The questions come from the
repo's games (``sgf_script``: every string with at most 3 liberties,
attacked and defended) or from a GNU Go .tst file (``tst_script``).
"""

import functools

from gogame.core.position import Position
from gogame.core.sgfio import load_game

from .paths import project_games


@functools.cache
def _game(path):
    return load_game(str(path))


def position_at(path, until=None):
    """The game at ``path`` before move number ``until`` (int), before the
    move at vertex ``until`` (GTP string), or at its end (None)."""
    g = _game(path)
    p = Position(g.size)
    for ev in g.events:
        if ev[0] == "setup":
            p.setup(ev[1])
        elif ev[0] == "ko":
            p.set_ko(ev[1])
        else:
            _, pt, color, number = ev
            if isinstance(until, int) and number >= until:
                break
            if isinstance(until, str) and pt is not None and p.pos(until) == p.pos(pt):
                break
            if pt is not None:
                p.play(pt, color)
    return p


def weak_strings(p, maxlibs=3):
    """One stone of every string with at most ``maxlibs`` liberties."""
    seen, out = set(), []
    for pt in sorted(p.stones()):
        if pt not in seen:
            seen.update(p.string_stones(pt))
            if p.countlib(pt) <= maxlibs:
                out.append(pt)
    return out


def run_script(script, reader):
    answers = {}
    pos = None
    for step in script:
        op = step[0]
        if op == "load":
            pos = position_at(step[1], step[2])
        elif op == "trymove":
            assert pos.trymove(step[2], step[1])
        elif op == "tryko":
            assert pos.tryko(step[2], step[1])
        elif op == "popgo":
            pos.popgo()
        elif op == "play":
            pos.play(step[2], step[1])
        elif op == "depth":
            reader.depth_offset += step[1]
        else:
            _, key, kind, vertex = step
            if reader.node_limit:
                reader.nodes = 0  # the node limit counts from here
            answers[key] = getattr(reader, kind)(pos, vertex)
            if reader.node_limit and reader.aborted:
                answers[key] = None
    return answers


def drop_aborted(script, answers):
    """``script`` without the questions ``answers`` has as None (aborted)."""
    return [s for s in script if s[0] != "ask" or answers[s[1]] is not None]


def sgf_script(games=None, moves=(40, 80, 120)):
    script = []
    for path in games or project_games():
        for move in moves:
            script.append(("load", path, move))
            p = position_at(path, move)
            for pt in weak_strings(p):
                for kind in ("attack", "find_defense"):
                    script.append(("ask", (path.name, move, pt, kind), kind, pt))
    return script


def tst_script(path):
    """The attack/defend questions of a GNU Go .tst file, with its set-up."""
    base = path.parent
    script = []
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        parts = line.split()
        if parts[0].isdigit():
            if parts[1] in ("attack", "defend"):
                kind = "attack" if parts[1] == "attack" else "find_defense"
                script.append(("ask", int(parts[0]), kind, parts[2]))
        elif parts[0] == "loadsgf":
            script.append(("load", base / parts[1], _until(parts[2]) if len(parts) > 2 else None))
        elif parts[0] in ("trymove", "tryko", "play"):
            script.append((parts[0], parts[1], parts[2]))
        elif parts[0] == "popgo":
            script.append(("popgo",))
        elif parts[0] in ("increase_depths", "decrease_depths"):
            script.append(("depth", 1 if parts[0][0] == "i" else -1))
    return script


def _until(arg):
    return int(arg) if arg.isdigit() else arg
