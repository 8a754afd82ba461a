"""The player's tactical priors (gogame.play.player.tactical_priors): a few
reading questions about the weak strings, asked as batches."""

from gogame.core.position import Position
from gogame.core.reader import Reader
from gogame.core.reading_cache import ReadingCache
from gogame.kernel.layout import BLACK
from gogame.play.player import tactical_priors
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
