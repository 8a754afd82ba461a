"""``gogame gtp`` as a process on pipes, driven as real clients drive it:
GoGui's attach and sync sequence, pipelined commands, ``# interrupt`` during
a long genmove, lz-analyze stopped by the next command, and
``--sgf-autosave`` surviving a SIGKILL mid-game."""
import os
import queue
import re
import signal
import subprocess
import sys
import threading
import time

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEAD = re.compile(r"\A[=?][0-9]* ")


class Client:
    """A ``gogame gtp`` process; responses are read on a thread."""

    def __init__(self, *args):
        self.proc = subprocess.Popen([sys.executable, "-m", "gogame", "gtp", *args],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=ROOT)
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


@pytest.fixture
def client():
    c = Client("--move-seconds", "0.3")
    yield c
    c.close()


def test_gogui_attach_and_sync(client):
    ask = client.ask
    assert ask("name") == "gogame"
    assert ask("protocol_version") == "2"
    ask("version")
    listed = ask("list_commands").split("\n")
    for name in ("gogui-interrupt", "gogui-analyze_commands", "gg-undo",
                 "gogui-play_sequence", "kgs-genmove_cleanup", "final_status_list",
                 "time_left", "genmove", "set_free_handicap"):
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
    client.write("".join((cmd if cmd.startswith("#") else f"{i} {cmd}") + "\n"
                         for i, cmd in enumerate(
        ["boardsize 9", "clear_board", "komi 7", "play b E5", "play b E5", "# comment",
         "genmove w", "undo", "undo", "undo", "protocol_version"])))
    answers = [client.response() for _ in range(10)]
    assert [a.split(" ")[0] for a in answers] == [
        "=0", "=1", "=2", "=3", "?4", "=6", "=7", "=8", "?9", "=10"]
    assert answers[-1] == "=10 2"


def test_interrupt_stops_a_long_genmove():
    c = Client("--move-seconds", "60")
    try:
        c.ask("boardsize 9")
        c.ask("name")
        c.ask("list_commands")          # the kernel is loaded once genmove starts
        c.write("genmove b\n")
        time.sleep(3.0)
        start = time.time()
        c.write("# interrupt\n")
        move = c.response(timeout=30)
        assert time.time() - start < 10
        assert move.startswith("= ") and move[2:] not in ("PASS", "resign")
    finally:
        c.close()


def test_lz_analyze_streams_until_the_next_command(client):
    client.ask("boardsize 9")
    client.ask("clear_board")
    client.ask("play b E5")
    client.write("lz-analyze w 10\n")
    assert client.line(timeout=60) == "= \n"
    info = client.line(timeout=60)
    assert info.startswith("info move ") and " winrate " in info and " visits " in info
    client.write("protocol_version\n")
    while True:                      # more info lines may come first
        line = client.line(timeout=30)
        if line == "\n":
            break
        assert line.startswith("info move ")
    assert client.response() == "= 2"


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
