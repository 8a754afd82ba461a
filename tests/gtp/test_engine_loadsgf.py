"""GTP ``loadsgf`` (gogame.gtp.engine over gogame.play.session) on corrupt,
truncated, huge and hostile files: a clear error naming the file, one line
in the log, nothing half-loaded, no hang on special files."""

import io
import os
import stat

import pytest

from gogame.core import sgfio
from gogame.gtp.engine import GtpEngine
from gogame.play.session import Engine
from tests.helpers.hostile_sgf import HOSTILE, good_game, write


@pytest.fixture
def good(tmp_path):
    return good_game(tmp_path)


def gtp_engine():
    log = io.StringIO()
    e = GtpEngine(session=Engine(9), log=log)
    return e, log


def state(e):
    return (
        e.send("showboard"),
        e.send("gogame-hash"),
        e.session.to_move,
        e.session.komi,
        len(e.session.position.history),
    )


def loaded(e, path):
    """A good game is loaded first, so that 'unchanged' means something."""
    assert e.send(f"loadsgf {path}") == "= black\n\n"
    return state(e)


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_file_through_loadsgf(tmp_path, good, name):
    data, words = HOSTILE[name]
    path = write(tmp_path, name, data)
    e, log = gtp_engine()
    before = loaded(e, good)
    assert e.send(f"7 loadsgf {path}") == "?7 cannot load file\n\n"
    assert state(e) == before  # nothing half-loaded
    message = log.getvalue()
    assert str(path) in message and words in message, message
    assert len(message.strip().splitlines()) == 1  # one clear line, no traceback


def test_partly_legal_game_is_not_half_loaded(tmp_path, good):
    """Five legal moves and a KM, then an illegal sixth: the old game stays."""
    path = write(tmp_path, "late.sgf", b"(;SZ[9]KM[99];B[aa];W[bb];B[cc];W[dd];B[ee];W[ee])")
    e, log = gtp_engine()
    before = loaded(e, good)
    assert e.send(f"loadsgf {path}") == "? cannot load file\n\n"
    assert state(e) == before and e.session.komi == 5.5
    assert "move 6: illegal move W E5" in log.getvalue()
    assert e.send(f"loadsgf {path} 6") == "= white\n\n"  # up to move 5 is fine
    assert e.session.komi == 99


@pytest.mark.parametrize(
    "special", ["/dev/zero", "/dev/stdin", "/dev/null", "dir", "fifo", "missing"]
)
def test_special_files_are_refused_without_being_opened(tmp_path, good, special, monkeypatch):
    """Not a regular file: refused from its stat, never opened, so a FIFO
    or /dev/stdin cannot block the engine (the spy on sgfio's ``open``
    sees the good game opened, and fails the load of any special file)."""
    if special == "dir":
        special = str(tmp_path)
    elif special == "fifo":
        special = str(tmp_path / "fifo.sgf")
        os.mkfifo(special)
    elif special == "missing":
        special = str(tmp_path / "no-such.sgf")
    opened = []

    def spy(path, *args, **kwargs):
        opened.append(os.fspath(path))
        if not stat.S_ISREG(os.stat(path).st_mode):
            raise AssertionError(f"{path} opened")
        return open(path, *args, **kwargs)

    monkeypatch.setattr(sgfio, "open", spy, raising=False)
    e, log = gtp_engine()
    before = loaded(e, good)
    assert opened == [str(good)]
    assert e.send(f"loadsgf {special}") == "? cannot load file\n\n"
    assert opened == [str(good)]
    assert state(e) == before
    assert special in log.getvalue()


def test_bad_until_arguments(tmp_path, good):
    e, _ = gtp_engine()
    before = loaded(e, good)
    for until in ("0", "-1", "x", "1.5", "Z99"):
        assert e.send(f"loadsgf {good} {until}").startswith("? "), until
        assert state(e) == before
    assert e.send(f"loadsgf {good} {'9' * 5000}") == "= black\n\n"  # past the end: all


@pytest.mark.parametrize("km", [b"nan", b"inf", b"-1e999", b"9" * 5000, b"\xff"])
def test_a_komi_that_is_not_a_finite_number_keeps_the_komi(tmp_path, good, km):
    path = write(tmp_path, "km.sgf", b"(;SZ[9]KM[" + km + b"];B[ee])")
    e, _ = gtp_engine()
    loaded(e, good)
    assert e.send(f"loadsgf {path}") == "= white\n\n" and e.session.komi == 5.5
