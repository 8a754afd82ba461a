"""The player's tree (gogame.kernel.playout.search, gogame.play.player):

* on several threads sharing it (``Player(threads=N)``), the tree stays
  well formed, every iteration is counted, visits are taken on the way
  down (the virtual loss);
* kept from move to move: the subtree of the moves played becomes the next
  search's tree, with its statistics unchanged, and only then."""

import numpy as np
import pytest

from gogame.core.coords import parse_gtp
from gogame.kernel import playout as kp
from gogame.kernel.layout import BLACK, COLOR, EMPTY, PASS, WHITE
from gogame.play.player import Player
from gogame.play.session import Engine, Settings
from tests.helpers import diagrams

# Black to move; the seven white stones are in atari at E5.
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
    res = player.search(position, BLACK, 7.5, max_playouts=3000, decide=False, seconds=600)
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
        res = player.search(position, WHITE, 7.5, seconds=600, max_playouts=200, decide=False)
        assert res.playouts >= 200 and res.playouts % n == 0
    assert player.threads == 3


def _stats_by_move(player, node):
    """{move: (links row without the child index, stats row)} of ``node``'s children."""
    return {
        int(player.links[c, 0]): (int(player.links[c, 2]), tuple(player.stats[c]))
        for c in player._children(node)
    }


def _stats_only(player_or_rows, node=None):
    """{move: stats row} of ``_stats_by_move(player, node)`` or of its result."""
    rows = player_or_rows if node is None else _stats_by_move(player_or_rows, node)
    return {m: st for m, (_, st) in rows.items()}


def _grow(player, position, color, komi=7.5, playouts=3000):
    return player.search(position, color, komi, seconds=600, max_playouts=playouts, decide=False)


def _reply_in_tree(player, node):
    """The most visited expanded child of ``node``."""
    kids = [c for c in player._children(node) if player.links[c, 1] >= 0]
    return max(kids, key=lambda c: player.stats[c, kp.S_N])


def _two_moves_down(player, position):
    """Play the tree's most visited expanded move and reply on ``position``
    (Black, then White); -> their nodes in the tree."""
    mine = _reply_in_tree(player, 0)
    theirs = _reply_in_tree(player, mine)
    position.play(position.pt(int(player.links[mine, 0])), BLACK)
    position.play(position.pt(int(player.links[theirs, 0])), WHITE)
    return mine, theirs


def test_the_subtree_of_two_moves_becomes_the_next_root_unchanged():
    position = diagrams.position(CAPTURE)
    player = Player(capacity=300_000, seed=4)
    _grow(player, position, BLACK)
    theirs = _reply_in_tree(player, _reply_in_tree(player, 0))
    expect = _stats_by_move(player, theirs)
    visits = player.stats[theirs, kp.S_N]
    _two_moves_down(player, position)
    assert player._reroot(position, BLACK, 7.5, PASS)
    assert _stats_by_move(player, 0) == expect
    assert player.stats[0, kp.S_N] == visits
    assert int(player.meta[kp.M_ITER]) == 0 and int(player.meta[kp.M_COLOR]) == BLACK
    well_formed(player, position)
    assert not player._reroot(position, BLACK, 7.5, PASS)  # a root is not kept twice


def test_a_search_after_two_moves_grows_the_kept_tree():
    position = diagrams.position(CAPTURE)
    player = Player(capacity=300_000, seed=4, threads=2)
    _grow(player, position, BLACK)
    _, theirs = _two_moves_down(player, position)
    kept = player.stats[theirs, kp.S_N]
    res = _grow(player, position, BLACK, playouts=500)
    assert player.stats[0, kp.S_N] >= kept + 0.98 * res.playouts
    assert sum(m.visits for m in res.moves) > res.playouts  # the kept visits count
    well_formed(player, position)


def test_one_move_down_the_opponent_searches_on_the_kept_subtree():
    position = diagrams.position(CAPTURE)
    player = Player(capacity=300_000, seed=6, threads=2)
    _grow(player, position, BLACK)
    mine = _reply_in_tree(player, 0)
    expect = _stats_by_move(player, mine)
    position.play(position.pt(int(player.links[mine, 0])), BLACK)
    assert player._reroot(position, WHITE, 7.5, PASS)
    assert _stats_by_move(player, 0) == expect


@pytest.mark.parametrize(
    "change", ["komi", "pass", "three moves", "other history", "reuse off", "ownership", "colour"]
)
def test_the_tree_is_not_kept_when_the_root_is_not_below(change):
    position = diagrams.position(CAPTURE)
    player = Player(capacity=300_000, seed=7)
    _grow(player, position, BLACK)
    mine = _reply_in_tree(player, 0)
    move = position.pt(int(player.links[mine, 0]))
    komi, color = 7.5, WHITE
    if change == "komi":
        position.play(move, BLACK)
        komi = 6.5
    elif change == "pass":
        position.play(None, BLACK)
    elif change == "three moves":
        position.play(move, BLACK)
        position.play(parse_gtp("A1", 9), WHITE)
        position.play(parse_gtp("J9", 9), BLACK)
    elif change == "other history":
        other = diagrams.position(CAPTURE)
        other.play(parse_gtp("A1", 9), WHITE)
        other.play(move, BLACK)
        position = other
    elif change == "reuse off":
        position.play(move, BLACK)
        player.reuse = False
    elif change == "ownership":
        player.ownership(position, BLACK, 7.5, playouts=10)
        position.play(move, BLACK)
    else:
        position.play(move, BLACK)
        color = BLACK
    nodes = int(player.meta[kp.M_NODES])
    assert not player._reroot(position, color, komi, PASS)
    if change not in ("ownership",):
        assert int(player.meta[kp.M_NODES]) == nodes  # nothing changed
    res = _grow(player, position, color, komi, playouts=200)
    assert sum(m.visits for m in res.moves) <= res.playouts  # a new tree


def test_superko_prunes_a_kept_root_and_keeps_its_subtrees():
    position = diagrams.position(CAPTURE)
    player = Player(capacity=300_000, seed=8)
    _grow(player, position, BLACK)
    _, theirs = _two_moves_down(player, position)
    best = _reply_in_tree(player, theirs)
    banned = position.pt(int(player.links[best, 0]))
    res = player.search(
        position,
        BLACK,
        7.5,
        seconds=600,
        max_playouts=300,
        decide=False,
        forbid=lambda pt: pt == banned,
    )
    assert banned not in [m.move for m in res.moves]
    assert all(int(player.links[c, 0]) != position.pos(banned) for c in player._children(0))
    well_formed(player, position)


def test_a_full_tree_makes_room_and_keeps_the_root_and_busy_nodes():
    """Dropping the children of little-visited nodes: the root's children
    keep their statistics, a node with enough visits keeps its children,
    the tree ends at most half full and stays well formed."""
    position = diagrams.position(CAPTURE)
    player = Player(capacity=40_000, seed=9)
    _grow(player, position, BLACK, playouts=2000)
    assert int(player.meta[kp.M_NODES]) > 0.5 * 40_000
    root_kids = _stats_by_move(player, 0)
    busy = _reply_in_tree(player, 0)
    busy_move, busy_kids = int(player.links[busy, 0]), _stats_by_move(player, busy)
    player._graft(0, 1 + player.stats[busy, kp.S_N])  # everything below busy's visits goes
    assert _stats_only(player, 0) == _stats_only(root_kids)
    again = player._child(0, busy_move)
    assert player.links[again, 1] < 0  # fewer visits than asked: a leaf again
    player2 = Player(capacity=40_000, seed=9)
    _grow(player2, position, BLACK, playouts=2000)
    player2._graft(0, player2.stats[busy, kp.S_N])
    assert _stats_only(player2, player2._child(0, busy_move)) == _stats_only(busy_kids)
    well_formed(player2, position)


@pytest.mark.parametrize("threads", [1, 2])
def test_a_long_search_in_a_small_tree_keeps_growing(threads):
    position = diagrams.position(CAPTURE)
    player = Player(capacity=20_000, seed=10, threads=threads)
    made_room, graft = [], player._graft
    player._graft = lambda node, t=0.0: made_room.append(t) or graft(node, t)
    res = _grow(player, position, BLACK, playouts=6000)
    assert made_room and min(made_room) > 0  # room was made
    assert res.playouts >= 6000
    assert int(player.meta[kp.M_NODES]) <= 20_000
    assert player.stats[0, kp.S_N] >= 0.98 * res.playouts
    well_formed(player, position)
