"""Pondering (``gogame gtp --ponder on``, ``gogame-param ponder``): after a
genmove that played, the engine searches the opponent's position until a
command waits, leaves the position as it was, and the next genmove, after
the opponent's move, grows the subtree that pondering grew."""

from gogame.kernel import playout as kp
from gogame.kernel.layout import WHITE
from tests.gtp.test_server import gogame_gtp
from tests.helpers.gtp import ok, setup_board, state

EMPTY9 = "\n".join([". " * 9] * 9)


class Input:
    """An InputReader stand-in: a command waits after ``calls`` polls."""

    def __init__(self, calls):
        self.calls = calls

    def waiting(self):
        self.calls -= 1
        return self.calls < 0

    def interrupted(self):
        return False


def test_pondering_searches_the_opponents_position_and_the_next_genmove_keeps_it():
    e = setup_board(EMPTY9, komi=7.5)
    ok(e, "gogame-param ponder on")
    e.input = Input(calls=40)
    ok(e, "genmove b")
    before = state(e)
    e.idle()
    assert state(e) == before
    player = e.session.player
    pondered = int(player.meta[kp.M_ITER])
    assert pondered > 0 and int(player.meta[kp.M_COLOR]) == WHITE
    kids = [c for c in player._children(0) if player.links[c, 1] >= 0]
    reply = max(kids, key=lambda c: player.stats[c, kp.S_N])
    kept = player.stats[reply, kp.S_N]
    e.input = None  # genmove stops by time, not by input
    ok(e, f"play w {_vertex(e, int(player.links[reply, 0]))}")
    ok(e, "genmove b")
    assert player.stats[0, kp.S_N] > int(player.meta[kp.M_ITER])  # the pondered visits
    assert player.stats[0, kp.S_N] >= kept
    e.idle()  # no input: no pondering
    assert int(player.meta[kp.M_ITER]) > 0


def _vertex(e, pos):
    from gogame.core.coords import format_gtp

    return format_gtp(e.session.position.pt(pos))


def test_no_pondering_when_off_or_after_other_commands():
    e = setup_board(EMPTY9, komi=7.5)
    e.input = Input(calls=40)
    black = ok(e, "genmove b")
    e.idle()  # pondering is off by default
    player = e.session.player
    after_genmove = int(player.meta[kp.M_ITER])
    ok(e, "gogame-param ponder on")
    e.idle()  # the last command was not a genmove
    assert int(player.meta[kp.M_ITER]) == after_genmove
    ok(e, "play w " + ("D4" if black.upper() == "E5" else "E5"))  # Black may take E5
    e.idle()
    assert int(player.meta[kp.M_ITER]) == after_genmove


def test_pondering_stops_at_the_next_command_and_at_the_end_of_input():
    """Through the process: the pondering after the genmove ends when
    ``name`` arrives, then again at the end of input; the process exits."""
    res = gogame_gtp(
        "--ponder",
        "on",
        input_bytes=b"boardsize 9\nclear_board\ngenmove b\nname\ngenmove w\n",
        timeout=120,
    )
    assert res.returncode == 0
    parts = res.stdout.decode().split("\n\n")
    assert parts[3] == "= gogame" and parts[4].startswith("= ")
    assert res.stderr.decode().count("gogame: pondered") == 2
