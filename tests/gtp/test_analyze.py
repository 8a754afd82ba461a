"""GoGui's analyze commands (gogame.gtp.analyze): the command list, the gfx
commands that draw on the board, and ``gogame-param``."""

import pytest

from tests.gtp.test_server import gogame_gtp
from tests.helpers.gtp import fails, ok, setup_board
from tests.helpers.shapes import WEAK_STRINGS


def test_gogui_gfx_and_param_commands():
    e = setup_board("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . O . . . . .
        . . O X O . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    commands = ok(e, "gogui-analyze_commands").split("\n")
    assert "gfx/Attack string/gogame-gfx_attack %p" in commands
    assert all(len(c.split("/", 2)) == 3 for c in commands)
    attack = ok(e, "gogame-gfx_attack D5").split("\n")
    assert attack[0] == "MARK D4" and attack[1] == "LABEL D4 1"
    colored = ok(e, "gogame-gfx_capturable").split("\n")
    assert colored[0] == "COLOR #ff8c00 D5"
    assert ok(e, "gogame-gfx_liberties").startswith("LABEL D6 3 C5 3 D5 1 E5 3")
    params = dict(line.split(" ", 2)[1:] for line in ok(e, "gogame-param").split("\n"))
    assert params["level"] == "10" and params["hash"] == "double"
    ok(e, "gogame-param depth_offset 2")
    ok(e, "gogame-param cache_mb 1")
    params = dict(line.split(" ", 2)[1:] for line in ok(e, "gogame-param").split("\n"))
    assert params["depth_offset"] == "2" and params["cache_mb"] == "1"
    fails(e, "gogame-param hash md5", "bad value for hash")
    fails(e, "gogame-param colour 3", "unknown parameter colour")
    assert params["situational_komi"] == "off" and not e.session.situational_komi
    ok(e, "gogame-param situational_komi on")
    assert e.session.situational_komi
    fails(e, "gogame-param situational_komi maybe", "bad value for situational_komi")


def test_capturable_strings_are_the_same_on_threads():
    """``gfx_capturable`` reads all the weak strings as one batch; with 2
    threads it colours the serial strings, and the position is unchanged."""
    board = WEAK_STRINGS
    answers = []
    for threads in (1, 2):
        e = setup_board(board)
        ok(e, f"gogame-param threads {threads}")
        before = ok(e, "showboard")
        answers.append(ok(e, "gogame-gfx_capturable"))
        assert ok(e, "showboard") == before
    assert answers[0] == answers[1]
    # three strings whoever plays first wins; B8 a ko: its defence D8 is
    # answered by White's B9, which the reader reads as a ko (unproven)
    assert answers[0].startswith("COLOR #ff8c00 C8 C7 D7 D6 H4\nCOLOR #ffd700 B8\n")


@pytest.mark.parametrize("flag", ["situational-komi", "widening"])
def test_on_off_player_options_from_the_command_line(flag):
    res = gogame_gtp(f"--{flag}", "on", input_bytes=b"gogame-param\n", timeout=120)
    assert res.returncode == 0
    assert f"[list/on/off] {flag.replace('-', '_')} on" in res.stdout.decode()
    res = gogame_gtp(f"--{flag}", "sometimes", timeout=120)
    assert res.returncode != 0 and flag.encode() in res.stderr
