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


def play_out(clock, color, moves, board, overhead, start_empty=None):
    """Simulated moves of one colour: each takes its budget plus
    ``overhead`` seconds (spent and learnt), the board filling by two
    points a move.  -> (budgets, whether the main time ever ran out)."""
    budgets, out_of_time = [], False
    empty = start_empty if start_empty is not None else board
    for _ in range(moves):
        b = clock.budget(color, max(empty, 0), board)
        budgets.append(b)
        out_of_time |= clock.left[color].main + 1e-9 < b + overhead
        clock.spend(color, b + overhead, b)
        empty -= 2
    return budgets, out_of_time


def test_sudden_death_never_runs_out_and_favours_the_middle_game():
    """Two minutes for a 19x19 game of 180 moves a side, each move taking
    0.1 s beyond its budget: the clock never runs out (unlike the plain
    share of the main time, without learning the overhead), and a move of
    the middle game gets more than one of the opening or the endgame."""
    c = Clock()
    c.set_absolute(120)
    budgets, out = play_out(c, 1, 180, 361, overhead=0.1)
    assert not out and c.left[1].main > 0
    opening, middle, endgame = budgets[2], budgets[70], budgets[165]
    assert middle > opening and middle > endgame
    assert c.overhead > 0.09  # learnt


def test_byo_yomi_leaves_room_for_the_overhead():
    """Canadian byo-yomi, 10 s for 5 stones, each move taking 0.3 s beyond
    its budget: every period's five moves fit in its 10 s."""
    c = Clock()
    c.set_canadian(0, 10, 5)
    for _ in range(4):  # four periods
        used = 0.0
        for _ in range(5):
            b = c.budget(1, 200, 361)
            used += b + 0.3
            c.spend(1, b + 0.3, b)
        assert used <= 10.0


def test_stage_weight_peaks_in_the_middle_game():
    from gogame.play.clock import stage_weight

    assert stage_weight(1.0) < stage_weight(0.5) > stage_weight(0.1)
    assert stage_weight(0.5) == 1.4 and stage_weight(0.95) == 0.6
