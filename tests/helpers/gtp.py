"""GTP as the tests speak it: the response format, and an in-process engine
set up from a diagram with the helpers that ask it."""

import re

from gogame.gtp.engine import GtpEngine
from gogame.play.session import Engine

from . import diagrams

SECONDS = 0.5  # thinking time per move of ``setup_board`` engines

# One whole response: '=' or '?', an optional id, a space, lines without an
# empty one among them, and the blank line that ends it.
RESPONSE = re.compile(r"\A[=?][0-9]* [^\n]*(\n[^\n]*\S[^\n]*)*\n\n\Z")


def setup_board(diagram, komi=0.0, to_move="b"):
    """A GTP engine whose board is ``diagram`` (setup stones)."""
    d = diagrams.parse(diagram)
    engine = Engine(d.size, komi=komi)
    engine.position.setup(d.stones)
    engine.to_move = 1 if to_move == "b" else 2
    engine.clock.default = SECONDS
    return GtpEngine(session=engine)


def ok(engine, line):
    response = engine.send(line)
    assert response.startswith("= "), (line, response)
    return response[2:].rstrip("\n")


def fails(engine, line, message):
    before = state(engine)
    response = engine.send(line)
    assert response == f"? {message}\n\n", (line, response)
    assert state(engine) == before, line


def state(engine):
    s = engine.session
    return (s.showboard(), s.hash, s.to_move, s.komi, s.handicap, len(s.position.history))
