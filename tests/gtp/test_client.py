"""gogame.gtp.client: the one GTP client, against ``gogame gtp`` in a
subprocess and a small fake engine that answers as told."""

import sys
import textwrap
import time

import pytest

from gogame.gtp.client import EngineError, GtpClient, GtpError

GOGAME = [sys.executable, "-m", "gogame", "gtp"]

# A GTP engine in a few lines.  Commands: "multi" (three lines), "bad" (a ?
# answer), "junk" (a line that is no answer, then one), "blank" (blank lines
# before the answer), "die" (a stderr line, then exit 3), "hang" (never
# answers); anything else is echoed.  Ids are echoed.  argv[1] == "deaf":
# quit is ignored and the engine hangs.
FAKE = textwrap.dedent("""
    import sys, time
    deaf = sys.argv[1:] == ["deaf"]
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        ident = words.pop(0) if words[0].isdigit() else ""
        cmd = " ".join(words)
        if cmd == "die":
            print("dying on purpose", file=sys.stderr, flush=True)
            sys.exit(3)
        if cmd == "hang" or cmd == "quit" and deaf:
            time.sleep(60)
        answer = {"multi": "= one\\ntwo\\nthree", "bad": "? no such thing",
                  "junk": "hello there\\n= after junk", "blank": "\\n\\n= after blanks",
                  "quit": "="}.get(cmd, "= " + cmd)
        sys.stdout.write(answer[0] + ident + answer[1:] + "\\n\\n")
        sys.stdout.flush()
        if cmd == "quit":
            break
""")


def fake(*args, **kwargs):
    return GtpClient([sys.executable, "-c", FAKE, *args], **kwargs)


def test_gogame_answers():
    with GtpClient(GOGAME, timeout=120) as engine:
        assert engine.send("name") == (True, "gogame")
        assert engine.ask("protocol_version", cmd_id=7) == "2"
        assert engine.send("no_such_command") == (False, "unknown command")
        commands = engine.ask("list_commands").split("\n")
        assert {"name", "play", "genmove", "quit"} <= set(commands)
    assert engine.returncode == 0
    assert engine.close() == 0  # closing twice is harmless


def test_normal_question_and_multi_line_answers():
    with fake() as engine:
        assert engine.send("hello world") == (True, "hello world")
        assert engine.send("bad") == (False, "no such thing")
        assert engine.send("multi") == (True, "one\ntwo\nthree")
        assert engine.send("blank") == (True, "after blanks")
        assert engine.send("echo", cmd_id=42) == (True, "echo")
        with pytest.raises(GtpError, match="no such thing") as err:
            engine.ask("bad")
        assert err.value.command == "bad"
        with pytest.raises(ValueError):
            engine.send("name\nversion")
        assert engine.ask("still fine") == "still fine"
    assert engine.returncode == 0


def test_raw_level_keeps_the_bytes():
    with fake() as engine:
        engine.write(b"1 multi\nbad\n")
        assert engine.read_raw() == b"=1 one\ntwo\nthree\n\n"
        assert engine.read_raw() == b"? no such thing\n\n"


def test_strict_rejects_junk_and_wrong_ids_lenient_skips_junk():
    with fake() as engine:
        with pytest.raises(EngineError, match="malformed response to 'junk': 'hello there'"):
            engine.send("junk")
        with pytest.raises(EngineError, match="malformed"):  # out of step from now on
            engine.send("name")
    with fake(strict=False) as engine:
        assert engine.send("junk") == (True, "after junk")
        assert engine.send("name") == (True, "name")


def test_engine_exits_mid_command():
    engine = fake()
    assert engine.ask("name") == "name"
    with pytest.raises(EngineError) as err:
        engine.send("die")
    message = str(err.value)
    assert "exited with status 3 during 'die': dying on purpose" in message
    assert "\n" not in message
    with pytest.raises(EngineError, match="exited with status 3"):
        engine.send("name")
    assert engine.close() == 3


def test_engine_that_cannot_start(tmp_path):
    with pytest.raises(EngineError, match="cannot start") as err:
        GtpClient([str(tmp_path / "no-such-engine"), "--mode", "gtp"])
    assert "\n" not in str(err.value)
    engine = GtpClient([sys.executable, "-c", "import sys; sys.exit(5)"])
    with pytest.raises(EngineError, match="exited with status 5 during 'name'"):
        engine.send("name")
    assert engine.close() == 5


def test_timeout_then_close_kills():
    engine = fake()
    start = time.monotonic()
    with pytest.raises(EngineError, match="no answer to 'hang' in 0.5 s"):
        engine.send("hang", timeout=0.5)
    with pytest.raises(EngineError, match="no answer"):
        engine.send("name")
    assert engine.close(timeout=0.5) is None  # killed
    assert time.monotonic() - start < 10


def test_close_on_an_engine_that_ignores_quit():
    engine = fake("deaf", timeout=30)
    assert engine.ask("name") == "name"
    start = time.monotonic()
    assert engine.close(timeout=1) is None
    assert 0.9 < time.monotonic() - start < 10
    assert engine.proc.poll() is not None
    with pytest.raises(EngineError, match="closed"):
        engine.send("name")
