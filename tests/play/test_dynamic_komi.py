"""Linear dynamic komi in handicap games (gogame.play.player.dynamic_komi,
Engine.extra_komi): how much, for how long, what it changes in genmove
(the search's komi, no resignation) and what it leaves alone."""

import pytest

from gogame.kernel.layout import BLACK, WHITE
from gogame.play import player as pl
from gogame.play.player import Player, RootMove, SearchResult, dynamic_komi
from gogame.play.session import Engine


@pytest.mark.parametrize(
    "size, handicap, moves, extra",
    [
        (19, 0, 0, 0.0),
        (19, 1, 0, 0.0),  # one stone is no handicap: black moves first, no komi
        (19, 4, 0, 28.0),
        (19, 4, 100, 14.0),
        (19, 4, 199, 0.0),
        (19, 4, 250, 0.0),
        (19, 9, 50, 47.0),  # 63 * 0.75 = 47.25
        (9, 2, 0, 14.0),
        (9, 2, 22, 7.0),  # 81 / 361 * 200 = 44.9 moves: 14 * (1 - 22 / 44.9) = 7.14
        (9, 2, 45, 0.0),
    ],
)
def test_dynamic_komi_falls_linearly_in_whole_points(size, handicap, moves, extra):
    assert dynamic_komi(size, handicap, moves) == extra


def test_it_never_rises_and_ends():
    values = [dynamic_komi(19, 5, m) for m in range(0, 300)]
    assert all(a >= b for a, b in zip(values, values[1:], strict=False))
    assert values[0] == 35.0 and values[-1] == 0.0


class Recorder(Player):
    """A player whose search records its komi and reports a lost game."""

    def search(self, position, color, komi, *args, **kw):
        self.komis.append(komi)
        move = RootMove((3, 3), 5000, 0.01)
        unsettled = pl.np.full(pl.MAXPOS, 0.5)
        return SearchResult(color, 5000, 0.1, [move], unsettled, unsettled, position.size)


def engine_with(handicap):
    """A 19x19 session, komi 0.5, ``handicap`` stones, then 40 passes (so
    resigning is allowed), whose player is a ``Recorder``."""
    e = Engine(size=19, komi=0.5)
    if handicap:
        e.fixed_handicap(handicap)
    for _ in range(20):
        e.play(BLACK, None)
        e.play(WHITE, None)
    rec = Recorder(capacity=1000)
    rec.komis = []
    e._player = rec
    return e, rec


def test_the_session_searches_a_handicap_game_with_more_komi_and_does_not_resign():
    e, rec = engine_with(4)
    decision = e.genmove(WHITE, seconds=0.01, commit=False)
    assert rec.komis == [0.5 + dynamic_komi(19, 4, 40)] and rec.komis[0] > 20
    assert decision.move != "resign"
    e.dynamic_komi = False
    decision = e.genmove(WHITE, seconds=0.01, commit=False)
    assert rec.komis[-1] == 0.5 and decision.move == "resign"


def test_an_even_game_keeps_its_komi():
    e, rec = engine_with(0)
    decision = e.genmove(BLACK, seconds=0.01, commit=False)
    assert rec.komis == [0.5] and decision.move == "resign"
