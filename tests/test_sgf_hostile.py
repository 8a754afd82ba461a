"""Corrupt, truncated, huge and hostile SGF files through GTP ``loadsgf``,
``sgfio.load_game`` and ``gogame replay``: a clear error naming the file,
nothing half-loaded, the size and node limits, no hang on special files."""
import io
import os
import subprocess
import sys
import time

import pytest

from gogame.engine import Engine
from gogame.gtp import GtpEngine
from gogame.sgfio import MAX_SGF_BYTES, MAX_SGF_NODES, SgfError, load_game

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name -> (file bytes, words the error message must hold)
HOSTILE = {
    "empty.sgf": (b"", "no SGF data"),
    "garbage.sgf": (b"\x00\xff\xfe binary \x80\x81", "not a valid SGF file"),
    "truncated.sgf": (b"(;SZ[9]KM[7];B[ee];W[dd];B[", "unexpected end"),
    "unclosed.sgf": (b"(;SZ[9];B[ee]", "unexpected end"),
    "sz0.sgf": (b"(;SZ[0];B[aa])", "size"),
    "sz1.sgf": (b"(;SZ[1])", "board size 1 not supported"),
    "sz26.sgf": (b"(;SZ[26];B[aa])", "board size 26 not supported"),
    "sz_negative.sgf": (b"(;SZ[-9])", "size"),
    "sz_text.sgf": (b"(;SZ[nine])", "bad SZ"),
    "sz_rect.sgf": (b"(;SZ[9:13])", "bad SZ"),
    "sz_digits.sgf": (b"(;SZ[" + b"9" * 5000 + b"])", "SZ"),
    "off_board.sgf": (b"(;SZ[9];B[ee];W[zz])", "move 2: bad point W[zz] for a 9x9 board"),
    "edge_off.sgf": (b"(;SZ[9];B[ee];W[jj])", "move 2: bad point W[jj]"),
    "short_point.sgf": (b"(;SZ[9];B[e])", "move 1: bad point B[e]"),
    "setup_off.sgf": (b"(;SZ[9]AB[aa][zz])", "setup before move 1: bad point"),
    "il_off.sgf": (b"(;SZ[9];B[ee]IL[zz])", "IL[] at move 2"),
    "occupied.sgf": (b"(;SZ[9];B[ee];W[dd];B[ee])", "move 3: illegal move B E5"),
    "suicide_setup.sgf": (b"(;SZ[9]AB[ba][ab]AW[aa])", "without liberties"),
    "bad_ca.sgf": (b"(;CA[no-such-charset]SZ[9];B[ee])", "unknown encoding"),
    "binary_ca.sgf": (b"(;CA[\xff\xfe]SZ[9];B[ee])", "encoding"),
}


def write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def gtp_engine():
    log = io.StringIO()
    e = GtpEngine(session=Engine(9), log=log)
    return e, log


def state(e):
    return (e.send("showboard"), e.send("gogame-hash"), e.session.to_move, e.session.komi,
            len(e.session.position.history))


def loaded(e, path):
    """A good game is loaded first, so that 'unchanged' means something."""
    assert e.send(f"loadsgf {path}") == "= black\n\n"
    return state(e)


@pytest.fixture
def good(tmp_path):
    return write(tmp_path, "good.sgf", b"(;SZ[9]KM[5.5]AB[cc]AW[gg];B[ee];W[dd])")


# ------------------------------------------------------- GTP loadsgf
@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_file_through_loadsgf(tmp_path, good, name):
    data, words = HOSTILE[name]
    path = write(tmp_path, name, data)
    e, log = gtp_engine()
    before = loaded(e, good)
    assert e.send(f"7 loadsgf {path}") == "?7 cannot load file\n\n"
    assert state(e) == before                           # nothing half-loaded
    message = log.getvalue()
    assert str(path) in message and words in message, message
    assert len(message.strip().splitlines()) == 1       # one clear line, no traceback


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


@pytest.mark.parametrize("special", ["/dev/zero", "/dev/stdin", "/dev/null", "dir", "fifo",
                                     "missing"])
def test_special_files_are_refused_without_hanging(tmp_path, good, special):
    if special == "dir":
        special = str(tmp_path)
    elif special == "fifo":
        special = str(tmp_path / "fifo.sgf")
        os.mkfifo(special)
    elif special == "missing":
        special = str(tmp_path / "no-such.sgf")
    e, log = gtp_engine()
    before = loaded(e, good)
    t0 = time.perf_counter()
    assert e.send(f"loadsgf {special}") == "? cannot load file\n\n"
    assert time.perf_counter() - t0 < 5
    assert state(e) == before
    assert special in log.getvalue()


def test_bad_until_arguments(tmp_path, good):
    e, _ = gtp_engine()
    before = loaded(e, good)
    for until in ("0", "-1", "x", "1.5", "Z99"):
        assert e.send(f"loadsgf {good} {until}").startswith("? "), until
        assert state(e) == before
    assert e.send(f"loadsgf {good} {'9' * 5000}") == "= black\n\n"   # past the end: all


# ------------------------------------------------------------- limits
def test_file_over_the_size_limit_is_refused(tmp_path):
    body = b"(;SZ[9]C[" + b"x" * MAX_SGF_BYTES + b"];B[ee])"
    path = write(tmp_path, "huge.sgf", body)
    with pytest.raises(SgfError, match=r"larger than 10485760 bytes, the limit"):
        load_game(path)


def test_giant_property_value_under_the_limit_loads(tmp_path):
    path = write(tmp_path, "bigvalue.sgf",
                 b"(;SZ[9]C[" + b"\\]x" * (3 << 20) + b"];B[ee];W[dd])")
    assert [m[1] for m in load_game(path).moves] == [(4, 4), (5, 3)]


def test_million_node_file_is_refused_quickly(tmp_path):
    path = write(tmp_path, "million.sgf", b"(;SZ[19]" + b";B[]" * 1_000_000 + b")")
    t0 = time.perf_counter()
    with pytest.raises(SgfError, match=f"more than {MAX_SGF_NODES} nodes"):
        load_game(path)
    assert time.perf_counter() - t0 < 2


def test_deep_variation_nesting_loads_its_main_line(tmp_path):
    """20,000 levels, each with a second variation after the main one."""
    depth = 20000
    deep = b"(;SZ[9]" + b"(;B[]" * depth + b")" + b"(;W[aa]))" * (depth - 1) + b")"
    game = load_game(write(tmp_path, "deep.sgf", deep))
    assert len(game.moves) == depth and game.moves[-1][1:] == (None, 1, depth)


def test_non_utf8_text_in_a_declared_charset_loads(tmp_path):
    path = write(tmp_path, "latin1.sgf",
                 b"(;CA[ISO-8859-1]SZ[9]PB[J\xe9r\xf4me]C[\xff\xfe];B[ee]C[\x80\x81])")
    assert len(load_game(path).moves) == 1


# ------------------------------------------------------- gogame replay
def replay(*paths, timeout=120):
    """``gogame replay`` in a process limited to 4 GB of address space, so
    that a file read without bound fails there, not on the machine."""
    def limit():
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))
    return subprocess.run([sys.executable, "-m", "gogame", "replay", *map(str, paths)],
                          capture_output=True, cwd=ROOT, timeout=timeout, preexec_fn=limit)


def test_replay_names_each_bad_file_and_still_replays_the_good_one(tmp_path, good):
    names = ["truncated.sgf", "off_board.sgf", "sz26.sgf", "bad_ca.sgf", "occupied.sgf"]
    paths = [write(tmp_path, n, HOSTILE[n][0]) for n in names]
    huge = write(tmp_path, "million.sgf", b"(;SZ[19]" + b";B[]" * 300_000 + b")")
    res = replay(good, *paths, huge, tmp_path / "missing.sgf")
    assert res.returncode == 1
    err = res.stderr.decode()
    for path, name in zip(paths, names):
        assert f"{path}: " in err and HOSTILE[name][1] in err, (name, err)
    assert "more than 250000 nodes" in err and "missing.sgf: cannot read file" in err
    assert "Traceback" not in err
    out = res.stdout.decode()
    assert "good.sgf" in out and "7 errors" in out, out


def test_replay_refuses_special_files(tmp_path, good):
    os.mkfifo(tmp_path / "fifo.sgf")
    res = replay(good, "/dev/zero", tmp_path / "fifo.sgf", timeout=60)
    assert res.returncode == 1
    err = res.stderr.decode()
    assert "/dev/zero: not a regular file" in err and "fifo.sgf: not a regular file" in err


@pytest.mark.parametrize("km", [b"nan", b"inf", b"-1e999", b"9" * 5000, b"\xff"])
def test_a_komi_that_is_not_a_finite_number_is_ignored(tmp_path, good, km):
    path = write(tmp_path, "km.sgf", b"(;SZ[9]KM[" + km + b"];B[ee])")
    assert load_game(path).komi is None
    e, _ = gtp_engine()
    loaded(e, good)
    assert e.send(f"loadsgf {path}") == "= white\n\n" and e.session.komi == 5.5
