"""The stand-in reader (gogame.gtp.standin): the kernels run as plain
Python in a child ``gogame gtp`` answer as the compiled reader does, node
for node; the engine hands questions to it only while the compiled reader
is not ready, and closes it once it is, or once the reading settings
change.  The cold start itself is measured by ``gogame bench startup``,
not timed here."""

import pytest

from gogame.core import options
from gogame.gtp import engine as gtp_engine
from gogame.gtp.engine import GtpEngine
from gogame.gtp.standin import StandIn
from gogame.kernel.points import interpreted
from gogame.play.session import Engine as Session
from gogame.play.session import Settings
from tests.core.test_reader import SHAPES
from tests.helpers import diagrams

# the reading questions of the drawn shapes, each asked the same way
READING = ("attack", "defend", "ladder_attack", "does_attack", "does_defend")
QUESTIONS = [
    (shape, q.command) for shape in SHAPES for q in shape.queries if q.command.split()[0] in READING
]


def _compiled(shape, command):
    """(answer, nodes) of the compiled reader, one thread, a fresh cache."""
    e = GtpEngine(session=Session(settings=Settings(threads=1)))
    e.session.position = shape.position()
    e.send("reset_reading_node_counter")
    answer = e.send(command)[2:].strip()
    return answer, int(e.send("get_reading_node_counter")[2:])


@pytest.fixture(scope="module")
def stand_in():
    child = StandIn.start()
    yield child
    child.close()


def test_the_interpreted_reader_reads_the_same_tree(stand_in):
    """Every reading question of the drawn shapes: the same
    answer and the same nodes as the compiled reader.  A fresh child per
    shape would cost a second each; one child with its cache cleared
    between questions reads as a fresh compiled reader does."""
    assert len(QUESTIONS) >= 20 and {c.split()[0] for _, c in QUESTIONS} == set(READING)
    read = 0
    for shape, command in QUESTIONS:
        sgf = diagrams.sgf_record(shape.diagram, shape.moves).encode()
        assert stand_in.ask(b"(;SZ[5])", "clear_cache", lambda: False) == (True, "", 0)
        got = stand_in.ask(sgf, command, lambda: False)
        assert got is not None, (shape.name, command)
        ok, answer, nodes = got
        assert ok, (shape.name, command, got)
        assert (answer, nodes) == _compiled(shape, command), (shape.name, command)
        read += nodes
    assert read > 1000  # the child did read


def test_a_reader_ready_first_closes_the_child():
    """``ready()`` turning true while the child reads: no answer, the child
    killed, and later questions answered None at once."""
    child = StandIn.start()
    calls = []

    def ready():
        calls.append(1)
        return len(calls) > 1  # false when asked, true at the first poll

    sgf = diagrams.sgf_record(SHAPES[0].diagram, SHAPES[0].moves).encode()
    assert child.ask(sgf, QUESTIONS[0][1], ready) is None
    assert not child.alive and child.answered == 0
    assert child.ask(sgf, QUESTIONS[0][1], lambda: False) is None
    child.close()  # again: nothing left to do


def test_interpreted_reads_numba_s_switch(monkeypatch):
    for value, expected in (("1", True), ("0", False), ("", False), ("yes", True)):
        monkeypatch.setenv("NUMBA_DISABLE_JIT", value)
        assert interpreted() is expected
    monkeypatch.delenv("NUMBA_DISABLE_JIT")
    assert not interpreted()


class FakeStandIn:
    """Answers every question "1 Z9" with 7 nodes; records them."""

    alive = True

    def __init__(self):
        self.asked = []
        self.closed = False

    def ask(self, sgf, command, ready):
        self.asked.append(command)
        return (True, "1 Z9", 7)

    def close(self):
        self.closed = True


LADDER = SHAPES[0]


def _engine_with(stand_in, ready):
    e = GtpEngine(session=Session(settings=Settings(threads=1)))
    e.session.position = LADDER.position()
    e.session.reader_ready = ready
    e.stand_in = stand_in
    return e


def test_the_engine_asks_the_stand_in_only_while_the_reader_is_not_ready():
    fake, state = FakeStandIn(), {"ready": False}
    e = _engine_with(fake, lambda: state["ready"])
    stone = LADDER.queries[0].command.split()[1]
    e.send("reset_reading_node_counter")
    assert e.send(f"attack {stone}") == "= 1 Z9\n\n"
    assert e.send(f"defend {stone}") == "= 1 Z9\n\n"
    assert e.send(f"does_attack A1 {stone}") == "= 1 Z9\n\n"
    assert e.send("get_reading_node_counter") == "= 21\n\n"
    asked = [f"attack {stone}", f"defend {stone}", f"does_attack A1 {stone}"]
    assert fake.asked == asked
    # bad input is refused here, before the child is asked
    assert e.send("attack Z99").startswith("? invalid coordinate")
    # trymoves are not in the SGF the child loads: the compiled reader answers
    e.send("trymove b A1")
    assert e.send(f"attack {stone}") != "= 1 Z9\n\n"
    e.send("popgo")
    assert fake.asked == asked
    # the reader ready: the next command closes the child
    state["ready"] = True
    e.send("name")
    assert fake.closed and e.stand_in is None
    assert e.send(f"attack {stone}") != "= 1 Z9\n\n"


@pytest.mark.parametrize("command", sorted(gtp_engine.READING_SETTINGS))
def test_changed_reading_settings_close_the_stand_in(command):
    fake = FakeStandIn()
    e = _engine_with(fake, lambda: False)
    e.send(command)
    assert fake.closed and e.stand_in is None


def test_a_cold_start_starts_the_stand_in_before_the_session(monkeypatch):
    """Only when the reader is not in numba's cache, with two cores or
    more, and ``stand_in`` options given."""
    started = []
    monkeypatch.setattr(gtp_engine, "_warm_kernels", lambda *a: None)
    monkeypatch.setattr(gtp_engine, "_reader_helper", lambda behind: None)
    monkeypatch.setattr(gtp_engine, "_skip_optional_probes", lambda: None)
    monkeypatch.setattr(StandIn, "start", classmethod(lambda cls, o: started.append(o)))
    monkeypatch.setattr(options, "cores", lambda: 2)
    for cached, argv, expected in (
        (set(), ["--level", "8"], [("--level", "8")]),
        (set(gtp_engine.KERNELS), ["--level", "8"], []),
        (set(), None, []),
    ):
        started.clear()
        monkeypatch.setattr(gtp_engine, "_cached_groups", lambda c=cached: c)
        e = GtpEngine(factory=lambda: Session(9), stand_in=argv)
        e.prewarm()
        e.finish_prewarm()
        assert started == expected
    monkeypatch.setattr(options, "cores", lambda: 1)
    monkeypatch.setattr(gtp_engine, "_cached_groups", lambda: set())
    e = GtpEngine(factory=lambda: Session(9), stand_in=[])
    e.prewarm()
    e.finish_prewarm()
    assert started == []


def test_a_stand_in_process_compiles_nothing(monkeypatch):
    """In the child (NUMBA_DISABLE_JIT) the start-up thread only makes the
    session: no kernel warm-up, no stand-in of its own."""
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    warmed = []
    monkeypatch.setattr(gtp_engine, "_warm_kernels", lambda *a: warmed.append(a))
    monkeypatch.setattr(gtp_engine, "_cached_groups", lambda: set())
    e = GtpEngine(factory=lambda: Session(9), stand_in=[])
    e.prewarm()
    e.finish_prewarm()
    assert warmed == [] and e.stand_in is None and e.session.size == 9
