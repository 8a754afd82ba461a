"""The player's tactical priors (gogame.play.player.tactical_priors): a few
reading questions about the weak strings, asked as batches."""

from gogame.core.position import Position
from gogame.core.reader import Reader
from gogame.core.reading_cache import ReadingCache
from gogame.kernel.layout import BLACK
from gogame.play import player as pl
from gogame.play.player import Player, RootMove, SearchResult, tactical_priors
from tests.helpers import diagrams
from tests.helpers.shapes import WEAK_STRINGS

WEAK = WEAK_STRINGS


def position_of(diagram):
    d = diagrams.parse(diagram)
    position = Position(d.size)
    position.setup(d.stones)
    return position


def test_priors_are_the_same_on_one_and_two_threads():
    """Black to move: save or give up its strings, capture White's; the
    priors do not depend on the reader's threads, and the position is
    unchanged."""
    position = position_of(WEAK)
    before = position.hash
    found = [
        tactical_priors(position, BLACK, Reader(threads=n, cache=ReadingCache(1)), urgent=[])
        for n in (1, 2)
    ]
    assert found[0] == found[1] and found[0]
    assert position.hash == before


def test_the_questions_stay_within_the_calls():
    """Each own string counts two questions (attack, then defence), each
    opponent string one; no more strings are asked than that allows."""
    position = position_of(WEAK)
    asked = []

    class Counting(Reader):
        def read_many(self, pos, questions):
            asked.extend(questions)
            return super().read_many(pos, questions)

    for calls in (1, 2, 3, 8):
        asked.clear()
        tactical_priors(position, BLACK, Counting(cache=ReadingCache(1)), calls=calls)
        assert 1 <= len(asked) <= calls + 1


# ------------------------------------------- the urgent move's allowance
def _choice(urgent_visits, urgent_rate):
    """_guarded_choice between a best move (400 visits at 0.97) and an
    urgent capture with the given visits and win rate, on an empty 9x9."""
    from gogame.core.position import Position

    position = Position(9)
    best = RootMove((2, 2), 400, 0.97)
    urgent = RootMove((6, 6), urgent_visits, urgent_rate)
    own = pl.np.full(pl.MAXPOS, 0.5)
    res = SearchResult(BLACK, 1000, 0.1, [best, urgent], own, own, 9)
    return Player(capacity=1000)._guarded_choice(position, BLACK, res, None, [position.pos((6, 6))])


def test_an_urgent_move_keeps_its_place_within_its_own_noise():
    # 0.90 is 0.07 below the best, but 40 visits measure it within +-0.05
    assert _choice(40, 0.90) == (6, 6)
    # with 400 visits 0.80 is clearly worse: the best move is played
    assert _choice(400, 0.80) == (2, 2)
    assert _choice(9, 0.97) == (2, 2)  # too few visits to judge
