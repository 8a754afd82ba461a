"""The player's search on several threads sharing one tree
(gogame.kernel.playout.search, gogame.play.player.Player(threads=N)): the
tree stays well formed, every iteration is counted, visits are taken on
the way down (the virtual loss), and the threads agree on an obvious move."""

import numpy as np
import pytest

from gogame.core.coords import parse_gtp
from gogame.kernel import playout as kp
from gogame.kernel.layout import BLACK, COLOR, EMPTY, WHITE
from gogame.play.player import Player
from gogame.play.session import Engine, Settings
from tests.helpers import diagrams

# Black to move captures the five white stones in atari at E5 (then wins).
CAPTURE = """
    . . . . . . . . .
    . . . . . . . . .
    . . X X X X X . .
    . X O O O O O X .
    . X O X . X O X .
    . X X X X X X X .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def well_formed(player, position):
    """Every expanded node's children lie inside the used nodes, no node
    has two parents, and each node's child moves are distinct empty points."""
    links, used = player.links, int(player.meta[kp.M_NODES])
    owner = np.full(used, -1)
    owner[0] = 0
    stack = [0]
    while stack:
        node = stack.pop()
        first, k = int(links[node, 1]), int(links[node, 2])
        if first < 0:
            continue
        assert 1 <= first and first + k <= used
        assert (owner[first : first + k] == -1).all(), "a node with two parents"
        owner[first : first + k] = node
        moves = links[first : first + k, 0]
        assert len(set(moves.tolist())) == k
        if node == 0:
            assert all(position.s[COLOR + int(m)] == EMPTY for m in moves)
        stack.extend(range(first, first + k))


@pytest.mark.parametrize("threads", [1, 2, 3])
def test_a_shared_tree_stays_well_formed_and_counts_every_iteration(threads):
    position = diagrams.position(CAPTURE)
    player = Player(capacity=200_000, seed=5, threads=threads)
    res = player.search(position, BLACK, 7.5, max_playouts=3000, decide=False)
    iterations = int(player.meta[kp.M_ITER])
    assert res.playouts == iterations >= 3000
    assert iterations % threads == 0  # each thread ran whole chunks
    assert int(player.meta[kp.M_LOCK]) == 0
    well_formed(player, position)
    # a visit lost to a race is rare: the root keeps nearly all of them
    assert 0.98 * iterations <= player.stats[0, kp.S_N] <= iterations
    real = sum(m.visits for m in res.moves)
    assert real <= iterations
    # each thread's owners: no point owned by both colours more often than played
    own = player.own
    assert (own[0] + own[1] <= iterations).all()
    assert res.best.move == parse_gtp("E5", 9)


def test_visits_are_taken_on_the_way_down_and_wins_added_on_the_way_up():
    """One iteration: the root and the child it chose each get one visit;
    wins are added only for the colour that won the playout."""
    position = diagrams.position(CAPTURE)
    player = Player(capacity=10_000, seed=1)
    player.search(position, BLACK, 7.5, max_playouts=1, decide=False)
    chunk = int(player.meta[kp.M_ITER])
    before = player.stats.copy()
    ws, whw, seq, seqc, *_ = player._workers[0].scratch
    path = player._workers[0].path
    kp._load(position.s, position.hw, ws, whw)
    depth = kp._descend(
        ws, whw, position.keys, player.links, player.stats, player.meta, seq, seqc, path
    )
    assert depth >= 1
    for d in range(depth + 1):
        node = path[d]
        assert player.stats[node, kp.S_N] == before[node, kp.S_N] + 1
        assert player.stats[node, kp.S_W] == before[node, kp.S_W]
    assert chunk == int(player.meta[kp.M_ITER])  # descending counts no iteration


def test_two_threads_find_what_one_finds():
    """The capture is the most visited move on one thread and on two."""
    position = diagrams.position(CAPTURE)
    best = set()
    for threads in (1, 2):
        res = Player(capacity=200_000, seed=3, threads=threads).search(
            position, BLACK, 7.5, max_playouts=2000, decide=False
        )
        best.add(res.best.move)
        assert res.winrate > 0.5
    assert best == {parse_gtp("E5", 9)}


def test_the_session_searches_on_its_reading_threads_at_most_the_cores(monkeypatch):
    from gogame.core import options

    monkeypatch.setattr(options, "cores", lambda: 2)
    engine = Engine(settings=Settings(threads=4))
    player = engine.player
    assert player.threads == 2
    engine.settings.threads = 1
    assert engine.player is player and player.threads == 1
    player.resign_rate = 0.2
    engine.settings.threads = 2
    assert engine.player.threads == 2 and engine.player.resign_rate == 0.2


def test_changing_threads_keeps_searching():
    position = diagrams.position(CAPTURE)
    player = Player(capacity=100_000, seed=2, threads=2)
    for n in (2, 1, 3):
        player.threads = n
        res = player.search(position, WHITE, 7.5, max_playouts=200, decide=False)
        assert res.playouts >= 200 and res.playouts % n == 0
    assert player.threads == 3
