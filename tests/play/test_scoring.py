"""The ownership estimate (gogame.play.scoring.Ownership): which points
are settled, from per-point playout shares."""

import numpy as np

from gogame.core.position import Position
from gogame.kernel.layout import MAXPOS
from gogame.play.scoring import SETTLED, Ownership


def estimate(shares):
    """An Ownership of an empty 5x5 board with a black stone at C3 and the
    given {point: (black share, white share)}; other points: Black's."""
    position = Position(5)
    position.play("C3", "b")
    black, white = np.zeros(MAXPOS), np.zeros(MAXPOS)
    for row in range(5):
        for col in range(5):
            b, w = shares.get((row, col), (1.0, 0.0))
            black[position.pos((row, col))], white[position.pos((row, col))] = b, w
    return Ownership(position, black, white)


def test_a_point_is_settled_when_one_end_holds_in_enough_playouts():
    """Owned by either side, or by neither (dame, seki), in >= SETTLED of
    the playouts: settled; a stone counts as any point does."""
    assert estimate({}).settled()
    assert estimate({(0, 0): (0.0, SETTLED), (0, 1): (0.04, 0.05)}).settled()
    mixed = estimate({(0, 0): (0.5, 0.45), (2, 2): (0.3, 0.7), (4, 4): (0.0, 0.95)})
    assert mixed.unsettled() == [(0, 0), (2, 2)]  # the stone on C3 too
    assert not mixed.settled()
