"""Progressive widening (``Player(widening=True)``, ``--widening on``):

* ``kernel.playout.widened``: MANGO's schedule, five children, then one
  more each time a node's real visits pass 50 * 1.3**j;
* ``prior_order``: children by prior win rate, then nearness to the move
  before, then point; their child links move with them;
* ``select`` looks only at the admitted children, and a whole search never
  visits a child past what its parent's visits admit;
* the option reaches the player from GTP (``gogame-param widening``; the
  command line's ``--widening`` is tested in tests/gtp/test_analyze.py),
  and a kept tree grown with the other setting is not reused."""

import json
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gogame.core.coords import parse_gtp
from gogame.kernel import playout as kp
from gogame.kernel.layout import BLACK, PASS, WHITE
from gogame.play.player import Player
from tests.helpers import diagrams
from tests.helpers.gtp import fails, ok, setup_board
from tests.helpers.paths import load_script
from tests.play.test_search_tree import CAPTURE, well_formed


@pytest.mark.parametrize(
    "visits, admitted", [(0, 5), (49, 5), (50.5, 6), (64, 6), (66, 7), (84, 7), (85, 8)]
)
def test_widened_admits_five_then_one_more_at_each_step(visits, admitted):
    assert kp.widened(float(visits)) == admitted


def test_widened_grows_by_the_log_of_the_visits():
    assert kp.widened(50.0 * 1.3**20 * 1.01) == 5 + 1 + 20
    counts = [kp.widened(float(n)) for n in range(0, 20_000, 7)]
    assert counts == sorted(counts)
    assert kp.widened(6000.0) == 5 + 1 + int(math.log(6000 / 50) / math.log(1.3))


def _rows(moves, priors):
    """A root with children ``moves`` at prior (visits, win rate) ``priors``;
    each child's first-child link is its own move, to see it travel."""
    links, stats, _ = kp.new_tree(len(moves) + 1)
    links[0] = (PASS, 1, len(moves))
    for i, (m, (n, q)) in enumerate(zip(moves, priors, strict=True), start=1):
        links[i] = (m, 1000 + m, 0)
        stats[i, [kp.S_N, kp.S_W, kp.S_PN, kp.S_PW]] = (n, n * q, n, n * q)
    return links, stats


def test_prior_order_is_win_rate_then_nearness_then_point():
    w = 11  # a 9x9 board's row width
    last = 5 * w + 5
    moves = [1 * w + 1, 5 * w + 6, 9 * w + 9, 5 * w + 4, 4 * w + 4, 2 * w + 7]
    priors = [(6, 0.5), (6, 0.5), (12, 0.75), (16, 0.5), (6, 0.5), (12, 0.15)]
    links, stats = _rows(moves, priors)
    kp.prior_order(links, stats, 1, len(moves), last, w)
    order = links[1:, 0].tolist()
    # 0.75 first; then at 0.5 the two next to ``last`` (by point), the
    # diagonal one, the far corner; 0.15 last
    assert order == [9 * w + 9, 5 * w + 4, 5 * w + 6, 4 * w + 4, 1 * w + 1, 2 * w + 7]
    assert (links[1:, 1] == 1000 + links[1:, 0]).all()
    q = stats[1:, kp.S_PW] / stats[1:, kp.S_PN]
    assert dict(zip(order, q, strict=True))[2 * w + 7] == pytest.approx(0.15)


def test_prior_order_after_a_pass_is_win_rate_then_point():
    w = 11
    moves = [9 * w + 9, 1 * w + 1, 5 * w + 5]
    links, stats = _rows(moves, [(6, 0.5)] * 3)
    kp.prior_order(links, stats, 1, 3, PASS, w)
    assert links[1:, 0].tolist() == sorted(moves)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from([0.15, 0.35, 0.5, 0.5, 0.7, 0.75]), min_size=1, max_size=361),
    st.integers(0, 10_000),
    st.booleans(),
)
def test_prior_order_is_python_sorted(qs, seed, after_pass):
    """Any block of children, ties and all, comes out as Python's sort by
    (-win rate, distance to the move before, point)."""
    w = 21
    rng = np.random.default_rng(seed)
    points = [(r + 1) * w + c + 1 for r in range(19) for c in range(19)]
    moves = rng.permutation(points)[: len(qs)].tolist()
    last = PASS if after_pass else int(rng.choice(points))
    links, stats = _rows(moves, [(6, q) for q in qs])
    kp.prior_order(links, stats, 1, len(moves), last, w)

    def distance(p):
        if last == PASS:
            return 0
        dx, dy = abs(p % w - last % w), abs(p // w - last // w)
        return dx + dy + max(dx, dy)

    q = dict(zip(moves, qs, strict=True))
    assert links[1:, 0].tolist() == sorted(moves, key=lambda p: (-q[p], distance(p), p))
    assert (links[1:, 1] == 1000 + links[1:, 0]).all()


def test_select_with_widening_looks_only_at_the_admitted_children():
    """The best value sits at the sixth child: with 10 real visits only
    five are admitted, with 60 six, without widening always."""
    moves = list(range(20, 28))
    links, stats = _rows(moves, [(6, 0.5)] * 8)
    stats[6, kp.S_W] = 6 * 0.9
    stats[0, kp.S_N] = 10
    assert kp.select(links, stats, 0, 0) == 6
    assert kp.select(links, stats, 0, 1) != 6
    stats[0, kp.S_N] = 60
    assert kp.select(links, stats, 0, 1) == 6


def _real(stats, c):
    return stats[c, kp.S_N] - stats[c, kp.S_PN]


def test_a_widened_search_visits_only_admitted_children_and_finds_the_capture():
    position = diagrams.position(CAPTURE)
    player = Player(capacity=200_000, seed=3, widening=True)
    res = player.search(position, BLACK, 7.5, max_playouts=1500, decide=False, seconds=600)
    well_formed(player, position)
    assert res.best.move == parse_gtp("E5", 9)
    links, stats, used = player.links, player.stats, int(player.meta[kp.M_NODES])
    checked = 0
    for node in range(used):
        first, k = int(links[node, 1]), int(links[node, 2])
        if first < 0 or k == 0:
            continue
        admitted = kp.widened(_real(stats, node))
        assert all(_real(stats, c) == 0 for c in range(first + admitted, first + k))
        checked += k > admitted
    assert checked > 10  # nodes that kept children out
    kids = player._children(0)
    q = stats[kids.start : kids.stop, kp.S_PW] / stats[kids.start : kids.stop, kp.S_PN]
    assert (np.diff(q) <= 1e-12).all()  # the root too, after its priors


def test_the_tree_is_not_kept_across_a_widening_change():
    position = diagrams.position(CAPTURE)
    player = Player(capacity=200_000, seed=7)
    player.search(position, BLACK, 7.5, max_playouts=600, decide=False, seconds=600)
    kids = [c for c in player._children(0) if player.links[c, 1] >= 0]
    mine = max(kids, key=lambda c: player.stats[c, kp.S_N])
    position.play(position.pt(int(player.links[mine, 0])), BLACK)
    player.widening = True
    assert not player._reroot(position, WHITE, 7.5, PASS)
    player.widening = False
    assert player._reroot(position, WHITE, 7.5, PASS)


def test_widening_is_a_gtp_parameter_and_reaches_the_player():
    e = setup_board("""
        . . . . .
        . . . . .
        . . X . .
        . . . . .
        . . . . .""")
    params = dict(line.split(" ", 2)[1:] for line in ok(e, "gogame-param").split("\n"))
    assert params["widening"] == "off" and not e.session.player.widening
    ok(e, "gogame-param widening on")
    assert e.session.widening and e.session.player.widening
    fails(e, "gogame-param widening wide", "bad value for widening")
    assert e.session.player.widening
    assert ok(e, "genmove w") != ""


def test_the_prior_ranks_script_finds_a_capture_first(tmp_path, monkeypatch, capsys):
    """scripts/prior_ranks.py: GNU Go (Black) ends by capturing E6 at F6,
    the only capture, so first in prior order; its other three moves are
    counted too, and a player not in the game is an error."""
    game = tmp_path / "g.sgf"
    game.write_text(
        "(;GM[1]FF[4]SZ[9]KM[7.5]PB[GNU Go 3.8]PW[gogame]"
        ";B[dd];W[ed];B[ee];W[ai];B[ec];W[ah];B[fd])"
    )
    script = load_script("prior_ranks")
    found = script.ranks(str(game), "GNU Go")
    assert len(found) == 4 and found[-1][0] == 0
    assert all(0 <= r < k <= 81 for r, k in found)
    monkeypatch.setattr("sys.argv", ["prior_ranks", str(game), "--json"])
    script.main()
    out = json.loads(capsys.readouterr().out)
    assert out["moves"] == 4 and out["share_among_first"]["5"] >= 0.25
    monkeypatch.setattr("sys.argv", ["prior_ranks", str(game), "--player", "Nobody"])
    with pytest.raises(SystemExit, match="no move by a player named 'Nobody'"):
        script.main()


def test_the_prior_ranks_script_replays_setup_stones(tmp_path):
    """A handicap game: White's E6 goes into atari among Black's three
    setup stones, and Black's capture at F6, its one counted move, is
    first in prior order only with the setup stones on the board."""
    game = tmp_path / "h.sgf"
    game.write_text("(;GM[1]FF[4]SZ[9]HA[3]PB[GNU Go 3.8]PW[gogame]AB[dd][ee][ec];W[ed];B[fd])")
    found = load_script("prior_ranks").ranks(str(game), "GNU Go")
    assert found == [(0, found[0][1])] and found[0][1] <= 81 - 4
