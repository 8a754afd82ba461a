"""The game clock (gogame.play.clock): the thinking time it allows a move
under no limit, Canadian byo-yomi, and absolute time."""

from gogame.play.clock import Clock


def test_clock_budgets():
    c = Clock(default=1.5)
    assert c.budget(1, 81) == 1.5  # no limit
    c.set_canadian(0, 10, 5)  # 2 s a stone
    assert 1.5 < c.budget(1, 81) < 2.0
    c.time_left(1, 1.0, 1)  # 1 s for the last stone
    assert c.budget(1, 81) < 1.0
    c.set_canadian(60, 0, 0)  # absolute
    assert 0 < c.budget(2, 81) <= 60 / 27 + 1e-9
    c.spend(2, 59.99)
    assert c.budget(2, 81) <= 0.05
    c.set_canadian(10, 5, 0)  # byo time, no stones: no limit
    assert c.budget(1, 81) == 1.5
