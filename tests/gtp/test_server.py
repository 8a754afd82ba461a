"""``gogame gtp`` as a process on pipes (gogame.gtp.server): pipelined
commands, hostile bytes, the end of input, stdout for responses only, bad
options; ``name`` answered while the kernel is still loading; and the
process driven as real clients drive it: GoGui's attach and sync sequence,
``# interrupt`` during a long genmove, lz-analyze stopped by the next
command, and ``--sgf-autosave`` surviving a SIGKILL mid-game."""

import queue
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

from tests.helpers.gtp import RESPONSE
from tests.helpers.paths import ROOT

HEAD = re.compile(r"\A[=?][0-9]* ")


# ------------------------------------------------------ one-shot runs
def gogame_gtp(*args, input_bytes=b"", timeout=120):
    return subprocess.run(
        [sys.executable, "-m", "gogame", "gtp", *args],
        input=input_bytes,
        capture_output=True,
        cwd=ROOT,
        timeout=timeout,
    )


def split_responses(out):
    text = out.decode("utf-8")
    assert text.endswith("\n\n") or text == ""
    parts = text[:-2].split("\n\n") if text else []
    for p in parts:
        assert RESPONSE.match(p + "\n\n"), repr(p)
    return parts


def test_pipelined_commands_through_the_process():
    commands = (
        b"1 name\n2 protocol_version\n\n# a comment\n3 boardsize 9\n4 clear_board\n"
        b"5 play b e5\n6 play w e5\n7 komi 6.5\n8 showboard\n9 countlib e5\n"
        b"10 undo\n11 undo\n12 gogame-hash\n13 quit\n14 name\n"
    )
    res = gogame_gtp(input_bytes=commands)
    assert res.returncode == 0
    parts = split_responses(res.stdout)
    assert [p.split(" ", 1)[0] for p in parts] == [f"={i}" for i in range(1, 6)] + [
        "?6",
        "=7",
        "=8",
        "=9",
        "=10",
        "?11",
        "=12",
        "=13",
    ]
    assert parts[0] == "=1 gogame" and parts[5] == "?6 illegal move"
    assert parts[8] == "=9 4" and parts[10] == "?11 cannot undo"
    assert parts[7].startswith("=8 \n   A B C D E F G H J\n 9 .")


def test_hostile_bytes_through_the_process():
    long_line = b"2 play b " + b"x" * (3 << 20) + b"\n"
    lines = [
        b"1 name\n",
        b"\xff\xfe\x80 garbage \xc3\x28\n",  # not UTF-8
        b"\x00\x01\x02\x1b\x7f\x0b\x0c\n",  # control bytes only: no answer
        long_line,  # 3 MB: answered, not held in memory
        b"3 boardsize 9\r\n",
        b"4 pl\x00ay b e5\n",  # a NUL inside a word is dropped
        b"\t\t   \n",
        b"# just a comment\n",
        b"5 play w e5   # occupied\n",
        b"6 " + b"a" * 100000 + b"\n",  # long but under the limit
        b"7 loadsgf /no/such/\xe9\xff.sgf\n",
        b"8 showboard\n",
        b"9 name",  # no final newline
    ]
    res = gogame_gtp(input_bytes=b"".join(lines))
    assert res.returncode == 0
    parts = split_responses(res.stdout)
    ids = [re.match(r"[=?]([0-9]*)", p).group(1) for p in parts]
    assert ids == ["1", "", "2", "3", "4", "5", "6", "7", "8", "9"]
    assert parts[1] == "? unknown command"
    assert parts[2] == "?2 line too long"
    assert parts[4] == "=4 " and parts[5] == "?5 illegal move"
    assert parts[6] == "?6 unknown command"
    assert parts[7] == "?7 cannot load file"
    assert " 5 . . . . X . . . . 5" in parts[8]
    assert parts[9] == "=9 gogame"


def test_end_of_input_without_quit_exits_cleanly():
    res = gogame_gtp(input_bytes=b"1 name\n")
    assert res.returncode == 0 and res.stdout == b"=1 gogame\n\n"
    res = gogame_gtp(input_bytes=b"")
    assert res.returncode == 0 and res.stdout == b""


def test_analysis_stops_at_the_end_of_input():
    """A client that closes stdin during lz-analyze: the search stops and
    the process exits (it used to analyse on, for up to 1e9 seconds)."""
    res = gogame_gtp(input_bytes=b"boardsize 9\nclear_board\nlz-analyze b 50\n", timeout=90)
    assert res.returncode == 0
    parts = res.stdout.decode().split("\n")
    assert parts[:4] == ["= ", "", "= ", ""] and parts[4] == "= "


def test_stdout_carries_responses_only_and_logs_go_to_stderr(tmp_path):
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;SZ[9];B[ee];W[ee])")
    res = gogame_gtp(
        "--check-hashing",
        "--level",
        "5",
        "--threads",
        "2",
        "--hash",
        "full",
        "--cache-mb",
        "16",
        input_bytes=f"loadsgf {bad}\ngogame-check_hashing\nquit\n".encode(),
    )
    assert res.returncode == 0
    assert split_responses(res.stdout) == ["? cannot load file", "= on", "= "]
    assert b"move 2" in res.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["--threads", "0"],
        ["--threads", "x"],
        ["--threads", "100000"],
        ["--hash", "triple"],
        ["--cache-mb", "-1"],
        ["--cache-mb", "nan"],
        ["--cache-mb", "inf"],
        ["--cache-mb", "1e15"],
        ["--level", "-1"],
        ["--level", "ten"],
        ["--bogus"],
    ],
)
def test_bad_options_exit_2_with_a_one_line_error(args):
    res = gogame_gtp(*args, input_bytes=b"name\n")
    assert res.returncode == 2 and res.stdout == b""
    assert re.match(r"gogame( gtp)?: error: ", res.stderr.decode().strip().splitlines()[-1])


# ---------------------------------------------------------------- a client
class Client:
    """A ``gogame gtp`` process; responses are read on a thread."""

    def __init__(self, *args, command=None):
        command = command or [sys.executable, "-m", "gogame", "gtp", *args]
        self.proc = subprocess.Popen(
            command,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            cwd=ROOT,
        )
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()

    def _pump(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8"))
        self.lines.put(None)

    def write(self, text):
        self.proc.stdin.write(text.encode())
        self.proc.stdin.flush()

    def line(self, timeout=120):
        line = self.lines.get(timeout=timeout)
        assert line is not None, "engine exited"
        return line

    def response(self, timeout=120):
        """One whole response: its lines up to the blank line."""
        first = self.line(timeout)
        assert HEAD.match(first), repr(first)
        lines = [first.rstrip("\n")]
        while True:
            line = self.line(timeout)
            if line == "\n":
                return "\n".join(lines)
            lines.append(line.rstrip("\n"))

    def ask(self, command, timeout=120):
        self.write(command + "\n")
        response = self.response(timeout)
        assert response.startswith("= "), (command, response)
        return response[2:]

    def close(self):
        try:
            self.write("quit\n")
            self.proc.wait(timeout=20)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()
            self.proc.wait()


# ------------------------------------------------------------ start-up
# ``gogame gtp`` with every import of numba held at a gate that never opens
# (the first attempt touches the file argv[1]): what it answers, it answers
# without numba and without waiting for the session.
GATED = r"""
import pathlib, sys, threading

held = pathlib.Path(sys.argv[1])
gate = threading.Event()


class NumbaGate:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "numba":
            held.touch()
            gate.wait()
        return None


sys.meta_path.insert(0, NumbaGate())
from gogame.cli import main
sys.exit(main(["gtp"]))
"""


def test_name_is_answered_before_numba_is_imported(tmp_path):
    """The kernel loads on a thread: ``name`` and the other attach commands
    are answered while numba cannot load at all; the load was under way."""
    held = tmp_path / "numba-import-held"
    c = Client(command=[sys.executable, "-c", GATED, str(held)])
    try:
        c.write("1 name\n2 version\n3 protocol_version\n4 list_commands\n5 known_command play\n")
        answers = [c.response(timeout=120) for _ in range(5)]
        assert answers[0] == "=1 gogame"
        assert answers[1].startswith("=2 ") and answers[2] == "=3 2"
        assert answers[3].startswith("=4 ") and "genmove" in answers[3].split("\n")
        assert answers[4] == "=5 true"
        deadline = time.monotonic() + 120
        while not held.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert held.exists(), "the session never started to import numba"
        assert c.proc.poll() is None
    finally:
        c.close()


# ------------------------------------------------------ clients on pipes
@pytest.fixture
def client():
    c = Client("--move-seconds", "0.3")
    yield c
    c.close()


@pytest.mark.slow
def test_gogui_attach_and_sync(client):
    ask = client.ask
    assert ask("name") == "gogame"
    assert ask("protocol_version") == "2"
    ask("version")
    listed = ask("list_commands").split("\n")
    for name in (
        "gogui-interrupt",
        "gogui-analyze_commands",
        "gg-undo",
        "gogui-play_sequence",
        "kgs-genmove_cleanup",
        "final_status_list",
        "time_left",
        "genmove",
        "set_free_handicap",
    ):
        assert name in listed
    ask("gogui-interrupt")
    ask("name")
    ask("protocol_version")
    assert "param/Settings/gogame-param" in ask("gogui-analyze_commands").split("\n")
    ask("boardsize 9")
    ask("clear_board")
    ask("komi 6.5")
    ask("gogui-play_sequence b E5 w C3 b G3 w G7")
    ask("gg-undo 1")
    assert ask("color G7") == "empty"
    ask("play w C7")
    ask("time_left b 30 0")
    move = ask("genmove b")
    assert ask(f"color {move}") == "black"
    ask("time_left w 30 0")
    move = ask("kgs-genmove_cleanup w")
    assert move == "PASS" or ask(f"color {move}") == "white"
    ask("final_status_list dead")
    ask("boardsize 9")
    ask("clear_board")
    ask("set_free_handicap C3 G7")
    assert ask("color G7") == "black"
    ask("komi 0.5")
    assert ask("get_komi").strip() == "0.5"


def test_pipelined_commands_are_answered_in_order(client):
    client.write(
        "".join(
            (cmd if cmd.startswith("#") else f"{i} {cmd}") + "\n"
            for i, cmd in enumerate(
                [
                    "boardsize 9",
                    "clear_board",
                    "komi 7",
                    "play b E5",
                    "play b E5",
                    "# comment",
                    "genmove w",
                    "undo",
                    "undo",
                    "undo",
                    "protocol_version",
                ]
            )
        )
    )
    answers = [client.response() for _ in range(10)]
    assert [a.split(" ")[0] for a in answers] == [
        "=0",
        "=1",
        "=2",
        "=3",
        "?4",
        "=6",
        "=7",
        "=8",
        "?9",
        "=10",
    ]
    assert answers[-1] == "=10 2"


@pytest.mark.slow
def test_interrupt_stops_a_long_genmove():
    """A genmove with an hour to think answers soon after ``# interrupt``
    (the wait for its answer is only a guard against a hang), with a move
    the search found."""
    c = Client("--move-seconds", "3600")
    try:
        c.ask("boardsize 9")
        c.ask("name")
        c.ask("list_commands")  # the kernel is loaded once genmove starts
        c.write("genmove b\n")
        time.sleep(3.0)
        assert c.lines.empty(), "genmove answered before the interrupt"
        c.write("# interrupt\n")
        move = c.response(timeout=120)
        assert move.startswith("= ") and move[2:] not in ("PASS", "resign")
    finally:
        c.close()


@pytest.mark.slow
def test_lz_analyze_streams_until_the_next_command(client):
    client.ask("boardsize 9")
    client.ask("clear_board")
    client.ask("play b E5")
    client.write("lz-analyze w 10\n")
    assert client.line(timeout=60) == "= \n"
    info = client.line(timeout=60)
    assert info.startswith("info move ") and " winrate " in info and " visits " in info
    client.write("protocol_version\n")
    while True:  # more info lines may come first
        line = client.line(timeout=30)
        if line == "\n":
            break
        assert line.startswith("info move ")
    assert client.response() == "= 2"


@pytest.mark.slow
def test_autosave_survives_a_kill(tmp_path):
    path = tmp_path / "autosave.sgf"
    c = Client("--sgf-autosave", str(path), "--move-seconds", "0.2")
    try:
        c.ask("boardsize 9")
        c.ask("komi 5.5")
        c.ask("clear_board")
        c.ask("fixed_handicap 2")
        for move in ("w E5", "b D5", "w pass", "b F4"):
            c.ask(f"play {move}")
        c.ask("genmove w")
        c.ask("play b H8")
        c.ask("undo")
        words = c.ask("gogame-hash")
    finally:
        c.proc.send_signal(signal.SIGKILL)
        c.proc.wait()
    assert not list(tmp_path.glob("*.tmp"))
    fresh = Client()
    try:
        assert fresh.ask(f"loadsgf {path}") == "black"
        assert fresh.ask("gogame-hash") == words
        assert fresh.ask("get_komi").strip() == "5.5"
    finally:
        fresh.close()
