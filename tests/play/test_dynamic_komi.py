"""Linear dynamic komi in handicap games (gogame.play.player.dynamic_komi,
Engine.extra_komi): how much, for how long, what it changes in genmove
(the search's komi, no resignation) and what it leaves alone; and the
situational bar of even games (player.raise_bar, ``situational_komi``)."""

import pytest

from gogame.kernel.layout import BLACK, WHITE
from gogame.play import player as pl
from gogame.play.player import BAR_MAX_19, Player, RootMove, SearchResult, dynamic_komi, raise_bar
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
        move = RootMove((3, 3), 5000, getattr(self, "winrate", 0.01))
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


@pytest.mark.parametrize(
    "bar, winrate, size, after",
    [
        (0.0, 0.7, 19, 1.0),  # thought won: a point more asked of itself
        (3.0, 0.55, 19, 3.0),  # between the two: kept
        (3.0, 0.4, 19, 2.0),  # behind: a point back
        (0.0, 0.1, 19, 0.0),  # never below the real komi
        (BAR_MAX_19, 0.9, 19, BAR_MAX_19),  # nor above its cap
        (5.0, 0.9, 13, 5.0),  # 13x13: the cap by area, 12 * 169 / 361 -> 5
    ],
)
def test_the_bar_moves_a_point_a_search(bar, winrate, size, after):
    assert raise_bar(bar, winrate, size) == after


def test_an_even_game_raises_the_bar_of_the_side_that_thinks_it_wins():
    e, rec = engine_with(0)
    e.situational_komi = True
    rec.winrate = 0.8
    for _ in range(3):
        e.genmove(BLACK, seconds=0.01, commit=False)
    for _ in range(2):
        e.genmove(WHITE, seconds=0.01, commit=False)
    # black's searches give white more komi, white's give it less
    assert rec.komis == [0.5, 1.5, 2.5, 0.5, -0.5]
    rec.winrate = 0.01  # lost: the bar comes down first, no resignation while it is up
    assert e.genmove(BLACK, seconds=0.01, commit=False).move != "resign"
    assert rec.komis[-1] == 3.5 and e.extra_komi(BLACK) == 2.0
    e.clear_board()
    assert e.extra_komi(BLACK) == 0.0 and e.extra_komi(WHITE) == 0.0


def test_the_bar_is_off_by_default_and_below_13x13():
    e, rec = engine_with(0)
    rec.winrate = 0.8
    e.genmove(BLACK, seconds=0.01, commit=False)
    e.genmove(BLACK, seconds=0.01, commit=False)
    assert rec.komis == [0.5, 0.5]
    small = Engine(size=9, komi=7.0)
    small.situational_komi = True
    small._player = rec
    small.genmove(BLACK, seconds=0.01, commit=False)
    small.genmove(BLACK, seconds=0.01, commit=False)
    assert rec.komis[-2:] == [7.0, 7.0]
