"""The player's opening priors (gogame.play.player.opening_priors): in an
empty area of a big board, the third and fourth lines over the first two."""

from gogame.core.position import Position
from gogame.play.player import OPENING_PRIORS, opening_priors
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
    assert all(v == OPENING_PRIORS[line(19, pt)] for pt, v in points.items())
    assert points[(0, 0)][1] < points[(1, 1)][1] < points[(3, 3)][1] == points[(2, 3)][1]
    position.play("D4", "b")
    near = {position.pt(p) for p in opening_priors(position)}
    assert (3, 3) not in near and (2, 5) not in near and (3, 10) in near
    assert opening_priors(Position(9)) == {}


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
