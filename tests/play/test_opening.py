"""The player's opening priors (gogame.play.player.opening_priors): in an
empty area of a big board, the third and fourth lines over the first two."""

from gogame.core.coords import parse_gtp
from gogame.core.position import Position
from gogame.play.player import CORNER_PRIORS, OPENING_PRIORS, corner_span, opening_priors
from gogame.play.session import Engine


def line(size, pt):
    row, col = pt
    return min(row, col, size - 1 - row, size - 1 - col) + 1


def test_empty_areas_favour_the_third_and_fourth_lines():
    """On an empty 19x19 board every point of lines 1-4 gets its line's
    prior; next to a stone (D4) the area is not empty and gets none; a
    9x9 board gets none at all."""
    position = Position(19)
    priors = opening_priors(position)
    points = {position.pt(p): v for p, v in priors.items()}
    assert len(points) == 19 * 19 - 11 * 11
    sides = {pt: v for pt, v in points.items() if corner_lines(19, pt) not in CORNER_PRIORS}
    assert all(v == OPENING_PRIORS[line(19, pt)] for pt, v in sides.items())
    assert points[(0, 0)][1] < points[(1, 1)][1] < points[(3, 3)][1] == points[(2, 3)][1]
    position.play("D4", "b")
    near = {position.pt(p) for p in opening_priors(position)}
    assert (3, 3) not in near and (2, 5) not in near and (3, 10) in near
    assert opening_priors(Position(9)) == {}


def corner_lines(size, pt):
    """The lines of a point in a corner's square, the nearer edge's first;
    None away from the corners."""
    row, col = pt
    lines = sorted((min(row, size - 1 - row) + 1, min(col, size - 1 - col) + 1))
    return tuple(lines) if lines[1] <= corner_span(size) else None


def test_empty_corners_come_first():
    """In an empty corner the 4-4 and 3-4 points get the strongest prior
    of the board, then the 3-3, 5-3 and 5-4 points.  A stone anywhere in
    a corner's square (here S17, a 2-3 point) leaves that corner to the
    line priors; the other three keep theirs.

        19 . . . . . .        the upper right corner of 19x19: its
        18 . . . . . .        6x6 square, O14 to T19; the 4-4 point
        17 . . + . X .        (Q16) and its 3-4 points (R16, Q17),
        16 . . + + . .        marked +, lose their priors
        15 . . . . . .
        14 . . . . . .
           O P Q R S T"""
    position = Position(19)
    priors = {position.pt(p): v for p, v in opening_priors(position).items()}
    top = max(v for v in priors.values())
    best = {pt for pt, v in priors.items() if v == top}
    assert {corner_lines(19, pt) for pt in best} == {(3, 4), (4, 4)}
    assert len(best) == 12  # four 4-4 points, eight 3-4 points
    assert priors[(2, 2)] == CORNER_PRIORS[(3, 3)] < top
    assert all(v < top for pt, v in priors.items() if pt not in best)
    position.play("S17", "b")
    after = {position.pt(p): v for p, v in opening_priors(position).items()}
    upper_right = {pt for pt in best if pt[0] > 9 and pt[1] > 9}
    assert len(upper_right) == 3 and not upper_right & set(after)
    assert all(after[pt] == top for pt in best - upper_right)
    for size in (13, 15):  # a smaller square: the 5-4 point still in it
        small = Position(size)
        corner = {small.pt(p) for p, v in opening_priors(small).items() if v == top}
        assert len(corner) == 12 and all(corner_lines(size, pt) for pt in corner)


def test_the_first_move_on_19x19_stays_off_the_first_two_lines():
    """On an empty board (every point in an empty area), half a second: not
    on the first or second line (144 of the 361 points).  Without the
    priors, 40 % of random first moves would be there."""
    for color in "bw":
        session = Engine(19)
        session.clock.default = 0.5
        decision = session.genmove(color)
        assert decision.move not in (None, "resign")
        assert line(19, decision.move) >= 3, decision.move


def test_the_opening_script_counts_corners_and_low_lines(monkeypatch, capsys):
    """scripts/opening_moves.py: each game's moves, the first four that
    fall in a corner's square and the moves on lines 1-2, counted from
    the moves it printed."""
    import json
    import sys

    from tests.helpers.paths import load_script

    script = load_script("opening_moves")
    argv = ["opening_moves", "--games", "2", "--moves", "5", "--seconds", "0.05", "--json"]
    monkeypatch.setattr(sys, "argv", argv)
    assert script.main() == 0
    report = json.loads(capsys.readouterr().out)
    games = [[parse_gtp(v, 19) for v in game] for game in report["games"]]
    assert [len(game) for game in games] == [5, 5] and report["moves"] == 10
    first = [pt for game in games for pt in game[:4]]
    assert report["first_four"] == 8
    assert report["first_four_in_a_corner"] == sum(corner_lines(19, pt) is not None for pt in first)
    assert report["on_lines_1_2"] == sum(line(19, pt) <= 2 for game in games for pt in game)
    assert script.lines(19, (2, 15)) == (3, 4)
