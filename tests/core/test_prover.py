"""The Prover's Python face (gogame.core.prover) on drawn shapes of every
tactic: each asserts the proven code and checks the first move by proving
again after it (the defender to move must then be proven lost), and that
the position is unchanged after every call."""

import pytest

from gogame.core.position import Position
from gogame.core.prover import Prover
from gogame.kernel import prover as kp
from gogame.kernel.layout import BLACK
from tests.helpers.diagrams import position, swap_colors
from tests.helpers.shapes import FRIEND_THREE, FRIEND_THREE_CAPTURE
from tests.kernel.test_prover import Exhaustive

LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . X . . . .
. . . X O . . . .
. . . . . X . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""
# the same with a white stone on each of the ladder's two paths
BROKEN_LADDER = """
. . . . . . . . .
. . . . . . . O .
. . . . . . . . .
. . . . X . . . .
. . . X O . . . .
. . . . . X . . .
. . . . . . . . .
. . O . . . . . .
. . . . . . . . .
"""
NET = """
. O . . . .
. . X X . .
. O O O X X
X O . . O .
X . . . X .
. . O . . .
"""
EYE_KILL = """
. . . . . . .
. . . . . . .
. . . . . . .
O O O O . . .
X X X O . . .
. . X O . . .
. X X O . . .
"""
EDGE = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . X X . . .
. X O O X . .
. . . . . . .
"""
KO = """
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . X O . . .
. X O . O . .
. . X O . . .
"""
SEMEAI = """
. . . . . . .
. . . . . . .
X X X X . . .
O O O X . . .
X X O X . . .
. X O X . . .
. X O . . . .
"""
# White's B2-C2 on the second line (liberties B1, C1, D2) under Black's
# wall: the hane at D2 leaves it two liberties, not one, and every
# crawl along the first line still dies: a loose ladder.
LOOSE_LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. X X X X X X X .
X O O . . . . . .
. . . . . . . . .
"""
KO_SET_UP = """
. . . . . . .
. . . . . . .
. . . . . . .
. . X X . . .
O O X . . . .
X O X . . . .
. . X . . . .
"""
SNAPBACK = """
. X . . O
. . X X X
X O . X O
O X O O .
. X O . .
"""


def pt(pos, vertex):
    return pos.pt(pos.pos(vertex))


def prover(**kw):
    kw.setdefault("max_nodes", 200_000)
    return Prover(table_mb=2, **kw)


def unchanged_after(pos, call):
    before = (pos.stackp, pos.hash, pos.snapshot())
    result = call()
    assert (pos.stackp, pos.hash, pos.snapshot()) == before
    return result


def attack_checked(pos, vertex, code, moves=None, **kw):
    """Prove the attack; check its code, its move, and that after the move
    the defender to move is proven lost."""
    p = prover(**kw)
    result = unchanged_after(pos, lambda: p.attack(pos, vertex))
    assert result.proven and result.code == code, result
    if moves is not None:
        assert result.move in moves, result
    assert result.line and result.line[0] == result.move
    if code == 1:
        color = 3 - pos.color_at(vertex)
        assert pos.trymove(result.move, color)
        if pos.color_at(vertex):
            again = unchanged_after(pos, lambda: prover(**kw).defend(pos, vertex))
            assert again.proven and again.code == 0, again
        else:  # captured at once: the capturing string is not in atari
            assert pos.countlib(result.move) >= 2
        pos.popgo()
    return result


def test_ladder_works():
    pos = position(LADDER)
    attack_checked(pos, "E5", 1, {pt(pos, "E4"), pt(pos, "F5")}, max_order=1)


def test_ladder_swapped_colours():
    pos = position(swap_colors(LADDER))
    attack_checked(pos, "E5", 1, {pt(pos, "E4"), pt(pos, "F5")}, max_order=1)


def on_19(diagram):
    """The diagram in the lower left corner of an empty 19x19 board."""
    grid = [line.split() for line in diagram.strip().splitlines()]
    pad = [" ".join("." * 19)] * (19 - len(grid))
    return "\n".join(pad + [" ".join(row) + " ." * (19 - len(row)) for row in grid])


def test_zones_read_only_the_moves_that_can_matter():
    """After the ladder's first atari on 19x19, the defender to move is
    proven lost without playing each of the board's empty points (every
    one would be a node): the moves outside the zone of the proof after a
    pass are refuted by it."""
    pos = position(on_19(LADDER))
    assert pos.trymove("F5", "b")  # the ladder runs to the lower edge
    p = prover(max_order=1)
    result = unchanged_after(pos, lambda: p.defend(pos, "E5", safety=False))
    assert result.proven and result.code == 0, result
    empty = sum(1 for r in range(19) for c in range(19) if pos.color_at((r, c)) == 0)
    assert result.nodes < empty / 2, (result.nodes, empty)
    pos.popgo()


def test_a_ladder_proof_zone_holds_its_path():
    """The zone of the ladder's proof (``Prover.zone[0]`` after the proof)
    holds every move of its line, which runs to the edge, and not the far
    corners: a defender stone on the path must be read, one in a corner
    need not."""
    pos = position(on_19(LADDER))
    p = prover(max_order=1)
    result = p.attack(pos, "E5")
    assert result.code == 1 and len(result.line) >= 10, result
    zone = p.zone[0]
    assert all(zone[pos.pos(pt)] for pt in result.line)
    assert not zone[pos.pos("A19")] and not zone[pos.pos("T1")]


def test_a_rescue_by_capture_outside_the_zone_is_read():
    """White's B1 has one liberty (A1, where white would have none), but
    the black string next to it is in atari at E1, a point the capture at
    A1 does not look at.  The zone is closed over black's strings (each
    brings a liberty), so E1 is read and white is not proven lost."""
    pos = position("""
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
. . . . . . .
X X O O . . .
. O X X . . .
""")
    p = prover(max_order=1)
    assert p.attack(pos, "B1").code == 1
    result = unchanged_after(pos, lambda: p.defend(pos, "B1", safety=False))
    assert not result.proven, result


def test_ladder_breaker_stops_the_ladder():
    pos = position(BROKEN_LADDER)
    result = prover(max_order=1).attack(pos, "E5")
    assert not result.proven


def test_net_needs_order_two():
    pos = position(NET)
    assert not prover(max_order=1).attack(pos, "A2").proven
    attack_checked(pos, "A2", 1, max_order=2)


def test_loose_ladder_needs_order_two():
    """No capture by ataris alone (order 1); the hane D2 captures at order 2,
    as GNU Go answers too."""
    pos = position(LOOSE_LADDER)
    first = prover(max_order=1, max_nodes=20_000).attack(pos, "B2")
    assert not first.proven
    attack_checked(pos, "B2", 1, {pt(pos, "D2")}, max_order=2)


def test_a_ko_set_up_for_a_lone_stone_is_proven_code_3():
    """The reader's defence of tests/core/test_reader.py's KO_SET_UP (B1,
    then a ko on A2) holds under model 0 only: the owner retakes."""
    pos = position(KO_SET_UP)
    result = unchanged_after(pos, lambda: prover().prove_defence(pos, "A2", pt(pos, "B1")))
    assert result.proven and result.code == 3, result


def test_a_block_of_a_friends_attacker_is_proven():
    """tests/core/test_reader.py's FRIEND_THREE: White's D7 (against
    Black's D9-D8, next to the friend E8) saves F9, and Black's F8 first
    takes it; both proven (code 1)."""
    pos = position(FRIEND_THREE)
    defence = prover(max_nodes=1_000_000)
    result = unchanged_after(pos, lambda: defence.prove_defence(pos, "F9", pt(pos, "D7")))
    assert result.proven and result.code == 1, result
    attack_checked(pos, "F9", 1, {pt(pos, "F8")})


@pytest.mark.slow
def test_a_block_that_takes_a_stone_by_a_ko_is_proven_code_3():
    """tests/core/test_reader.py's FRIEND_THREE_CAPTURE: White's E7 (the
    block that takes D7) saves H6 under model 0 (4 M nodes, about 25 s)."""
    pos = position(FRIEND_THREE_CAPTURE)
    defence = prover(max_nodes=5_000_000)
    result = unchanged_after(pos, lambda: defence.prove_defence(pos, "H6", pt(pos, "E7")))
    assert result.proven and result.code == 3, result


def test_eye_kill_with_a_throw_in():
    pos = position(EYE_KILL)
    attack_checked(pos, "A3", 1, max_order=2)


def test_edge_capture():
    pos = position(EDGE)
    attack_checked(pos, "C2", 1, {pt(pos, "C1")})
    result = prover().defend(pos, "C2")
    assert result.proven and result.code == 0


def test_capturing_race_of_two_strings():
    pos = position(SEMEAI)
    attack_checked(pos, "C4", 1, {pt(pos, "D1")})
    result = prover().defend(pos, "C4")
    assert result.proven and result.code == 0


def test_ko_is_code_two():
    """The capture at D2 is a ko: not a capture while the defender may
    retake at once (model 0), a capture when neither side may (model 1)."""
    pos = position(KO)
    result = attack_checked(pos, "C2", 2, {pt(pos, "D2")})
    assert result.line == [pt(pos, "D2")]


def test_a_capture_into_a_snapback_does_not_count():
    pos = position(SNAPBACK)
    assert pos.countlib("A2") == 1
    assert not prover(max_order=0).attack(pos, "A2").proven
    ex = Exhaustive(pos, pt(pos, "A2"), 0)
    assert ex._play("A1", True)
    assert not ex.after_attack(pt(pos, "A1"), 1)  # white takes back at once
    pos.popgo()


def test_pass_alive_string_is_proven_safe():
    pos = position("""
. X . X .
X X X X X
. . . . .
. . . . .
. . . . .
""")
    result = unchanged_after(pos, lambda: prover().attack(pos, "B4"))
    assert result.proven and result.code == 0
    result = prover().defend(pos, "B4")
    assert result.proven and result.code == 1 and result.move is None


def test_defend_names_a_move_that_makes_the_string_pass_alive():
    pos = position("""
. . . . .
X X X X X
. . . . .
. . . . .
. . . . .
""")
    p = prover()
    assert not p._alive(pos, pos.string_pos("B4", ""))
    result = p.defend(pos, "B4")
    assert result.proven and result.code == 1 and result.move is not None
    assert pos.trymove(result.move, "b")
    assert prover().attack(pos, "B4").code == 0
    pos.popgo()


def test_budget_gives_unknown_and_counts_nodes():
    pos = position(BROKEN_LADDER)
    result = prover(max_order=2, max_nodes=1000).attack(pos, "E5")
    assert result.status == "unknown" and result.code is None
    assert 0 < result.nodes <= 1001 + 10


def test_inside_trymoves_and_errors():
    pos = position(LADDER)
    assert pos.trymove("A1", "b") and pos.trymove("A2", "w")
    result = unchanged_after(pos, lambda: prover(max_order=1).attack(pos, "E5"))
    assert result.proven and result.code == 1
    pos.popgo()
    pos.popgo()
    with pytest.raises(ValueError):
        prover().attack(pos, "A1")
    with pytest.raises(ValueError):
        Prover(max_order=9)
    with pytest.raises(ValueError):
        prover().attack(pos, "E5", max_nodes=0)


def test_table_size_follows_the_budget():
    """A quarter of the bytes for the capture search's table, and a quarter
    for the ring of its zones."""
    assert Prover(table_mb=1).table_entries * 24 * 4 <= 2**20
    assert Prover(table_mb=8).table_entries * 24 * 4 > 2**22
    assert Prover(table_mb=8).pool.nbytes <= 2**21 < 2 * Prover(table_mb=8).pool.nbytes
    assert Position(5).size == 5


def test_prove_move_checks_a_named_capture():
    """``prove_move``: the ladder's first move is proven a capture (its
    line starts with it), a far move is not, and the position is kept."""
    pos = position(LADDER)
    p = prover()
    right = unchanged_after(pos, lambda: p.prove_move(pos, "E5", "E4"))
    assert right.proven and right.code == 1 and right.move == pt(pos, "E4")
    assert right.line[0] == pt(pos, "E4") and right.nodes > 0
    assert not unchanged_after(pos, lambda: p.prove_move(pos, "E5", "A1")).proven
    occupied = p.prove_move(pos, "E5", "E6")  # Black's own stone: no move
    assert not occupied.proven and occupied.nodes == 0
    with pytest.raises(ValueError):
        p.prove_move(pos, "E5", "E4", claimed=4)


def test_prove_move_tries_the_ko_models_up_to_the_claimed_code(monkeypatch):
    """Model 0, then 1, ... while unknown: the code is the first model
    proven + 1; a claim of code 1 tries model 0 only."""
    from gogame.core.prover import ProofResult

    tried = []

    def defend(self, position, vertex, max_nodes=None, model=0, safety=True):
        assert not safety  # a named capture needs a proof of loss only
        tried.append(model)
        return ProofResult("proven", 0, nodes=5) if model >= 1 else ProofResult("unknown", nodes=7)

    monkeypatch.setattr(Prover, "defend", defend)
    pos = position(LADDER)
    result = prover().prove_move(pos, "E5", "A1", claimed=3)
    assert (result.code, result.nodes, tried) == (2, 12, [0, 1])
    tried.clear()
    result = prover().prove_move(pos, "E5", "A1", claimed=1)
    assert not result.proven and (result.nodes, tried) == (7, [0])


# White's C2 has one liberty, C3, next to a long white string
CONNECT = """
. . . . . . .
. . . . . . .
. . . . . . .
. O O O O . .
. X . X . . .
. X O X . . .
. . X . . . .
"""


def test_prove_defence_checks_a_named_saving_move():
    """``prove_defence``: White's C2 is saved by C3 (code 1, the line [C3]);
    a far move, a pass and an occupied point prove nothing; after C3 a
    pass is proven (no move needed); the position is kept."""
    pos = position(CONNECT)
    p = prover()
    right = unchanged_after(pos, lambda: p.prove_defence(pos, "C2", "C3"))
    assert right.proven and right.code == 1 and right.move == pt(pos, "C3")
    assert right.line == [pt(pos, "C3")]
    assert not unchanged_after(pos, lambda: p.prove_defence(pos, "C2", "G7")).proven
    assert not unchanged_after(pos, lambda: p.prove_defence(pos, "C2", None)).proven
    occupied = p.prove_defence(pos, "C2", "B2")  # Black's stone: no move
    assert not occupied.proven and occupied.nodes == 0
    assert pos.trymove("C3", "white")
    safe = unchanged_after(pos, lambda: p.prove_defence(pos, "C2", None))
    assert safe.proven and (safe.code, safe.move, safe.line) == (1, None, [])
    pos.popgo()
    with pytest.raises(ValueError):
        p.prove_defence(pos, "C2", "C3", claimed=0)
    with pytest.raises(ValueError):
        p.prove_defence(pos, "B2", "C3", max_nodes=0)


def test_prove_defence_tries_the_ko_models_up_to_the_claimed_code(monkeypatch):
    """The escape game with the attacker to move under model 2, then 1,
    then 0 while unknown: the code is 1, 2, 3 for the model that proves; a
    claim of code 1 tries model 2 only."""
    from gogame.kernel import safety as ks

    tried = []

    def safe(self, position, target, kind, budget, model):
        assert kind == ks.KIND_A  # the attacker moves after the named move
        tried.append(model)
        return (1 if model == 0 else 0), 4

    monkeypatch.setattr(Prover, "_safe", safe)
    pos = position(CONNECT)
    result = prover().prove_defence(pos, "C2", "G7")
    assert (result.code, result.nodes, tried) == (3, 12, [2, 1, 0])
    tried.clear()
    result = prover().prove_defence(pos, "C2", "G7", claimed=1)
    assert not result.proven and (result.nodes, tried) == (4, [2])


# Black's E1 on the edge, two liberties (D1, F1): each white stone there
# is taken at once (C1, F2)
EDGE_ESCAPE = """
. O . . X O .
X . . . . . O
O . . . . X .
X X . . . X .
. . X . X X .
. . . X O . X
. . . . X . O
"""


def test_a_string_that_connects_out_is_proven_saved():
    """The escape game: after C3 the string has five liberties with Black
    to move, so C3 is a proven defence (code 1) though not pass-alive;
    Black to move takes it at C3."""
    pos = position(CONNECT)
    p = prover()
    result = unchanged_after(pos, lambda: p.defend(pos, "C2"))
    assert result.proven and result.code == 1 and result.move == pt(pos, "C3")
    assert not p._alive(pos, pos.string_pos("C2", ""))
    attack_checked(pos, "C2", 1, {pt(pos, "C3")})


def test_a_string_with_room_to_run_is_proven_uncapturable():
    """White moves first and still cannot hold E1 below five liberties: a
    proof of attack 0 that is not Benson's (it reads, so it counts nodes),
    and no capture is proven."""
    pos = position(EDGE_ESCAPE)
    p = prover()
    result = unchanged_after(pos, lambda: p.attack(pos, "E1"))
    assert result.proven and result.code == 0 and result.nodes > 0
    assert p._captures(pos, pos.string_pos("E1", ""), 100_000)[0] is None
    with pytest.raises(ValueError):
        Prover(escape_libs=1)


# White's E5, two liberties in the open, White to move: F5 runs out
OPEN_ESCAPE = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X . . . . .
. . . X O . . . .
. . . . X . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""


@pytest.mark.slow
def test_an_escape_into_the_open_is_proven_with_depth():
    """About 1.9 M nodes of the escape game (half of the budget) and 19
    plies: the null moves keep each attacker node's reads small
    (docs/prover.md)."""
    pos = position(OPEN_ESCAPE)
    result = unchanged_after(pos, lambda: prover(max_nodes=5_000_000).defend(pos, "E5"))
    assert result.proven and result.code == 1 and result.move == pt(pos, "F5")


# White's A6 (three liberties: A7, A5, B6) and its lone friends A8 and B7,
# next to its liberty A7.  After Black's B6, White's C7 joins B7 to the big
# group, and A7 then connects A6 to it: a defence through a liberty's
# neighbour that touches neither the target nor its liberties.
FRIEND_CONNECTION = """
. X . . . . . . .
O X X . . . . . .
. O . . . . . . .
O . O O O O . . .
. X X X X O . . .
X X . . X O . . .
. . . . X O . . .
. . . . X O . . .
. . . . X O . . .
"""


def test_a_defence_through_a_friend_of_a_liberty_is_found():
    """``attack A6`` is proven 0 by the escape game: after Black's B6 the
    defender's tries include the liberties of its strings next to A6's
    liberties (C7), and nothing captures."""
    pos = position(FRIEND_CONNECTION)
    p = prover()
    result = unchanged_after(pos, lambda: p.attack(pos, "A6"))
    assert result.proven and result.code == 0, result
    assert p._captures(pos, pos.string_pos("A6", ""), 100_000)[0] is None
    after = position(FRIEND_CONNECTION, moves=[(BLACK, pt(pos, "B6"))])
    saved = unchanged_after(after, lambda: prover().defend(after, "A6"))
    assert saved.proven and saved.code == 1 and saved.move == pt(pos, "C7"), saved


# White's A9-A8-B8-B7 (liberties A7, B6) beside its friends C6-C5-B5
# (B6, A5) and A4 (A5, A3).  Black's A3 ataris A4 from outside: a
# self-atari that White takes back at A2, a capture that touches neither
# the target nor its liberties.
SELF_ATARI_BACK = """
O X X X . . . . .
O O X . . . . . .
. O X X . . . . .
. . O X . . . . .
. O O X . . . . .
O X X X . . . . .
. O O O O . . . .
. . . . O . . . .
. . . . O . . . .
"""


def test_the_attackers_self_atari_is_taken_back():
    """``attack A9`` is proven 0 by the escape game only when the
    defender's tries include the capture of the attacker's last move in
    atari (without it: unknown within the same budget)."""
    pos = position(SELF_ATARI_BACK)
    result = unchanged_after(pos, lambda: prover(max_nodes=400_000).attack(pos, "A9"))
    assert result.proven and result.code == 0, result


# ------------------------------------------------------------------ the guide


def test_the_guide_reads_for_the_proof_and_its_nodes_count():
    """The fast reader orders the capture search's first tries (``kp.guide``):
    the ladder is proven with and without it; with it the reader's nodes
    are read and counted among the proof's, with ``guide_nodes=0`` none."""
    for guide_nodes in (0, 2_000):
        pos = position(LADDER)
        p = prover(guide_nodes=guide_nodes)
        result = unchanged_after(pos, lambda p=p, pos=pos: p.attack(pos, "E5"))
        assert result.proven and result.code == 1
        guided = int(p.ctx[kp.C_GUIDED])
        assert (guided > 0) == (guide_nodes > 0)
        assert result.nodes >= guided


def test_the_escape_game_guide_reads_half_as_much_at_each_ply_deeper():
    """The whole ``guide_nodes`` up to ``escape_guide_plies``, then halved a
    ply, none below the floor, and none at all with plies -1."""
    from gogame.kernel import safety as ks

    ctx = ks.new_context(1 << 10, 1 << 4)[0]
    ctx[kp.C_GUIDE] = 2000
    ctx[ks.C_GUIDE_PLIES] = 2
    limits = [int(ks.guide_limit(ctx, ply)) for ply in range(10)]
    assert limits == [2000, 2000, 2000, 1000, 500, 250, 125, 62, 0, 0]
    ctx[kp.C_GUIDE] = 1 << 40  # far past the floor: no shift wraps round
    assert [int(ks.guide_limit(ctx, ply)) for ply in (66, 130)] == [0, 0]
    assert ks.GUIDE_FLOOR == 32
    ctx[ks.C_GUIDE_PLIES] = -1
    assert int(ks.guide_limit(ctx, 0)) == 0


@pytest.mark.slow
def test_the_escape_game_asks_the_guide_less_deeper():
    """The escape game's defender tries the fast reader's defence first,
    with less reading at each ply past ``escape_guide_plies``: the open
    escape is proven with it (its reads counted) and without it (plies
    -1); a full read at every node of the escape would spend the budget
    (docs/prover.md)."""
    guided = []
    for plies in (-1, 2):
        pos = position(OPEN_ESCAPE)
        p = prover(max_nodes=5_000_000)
        p.escape_guide_plies = plies
        result = unchanged_after(pos, lambda p=p, pos=pos: p.defend(pos, "E5"))
        assert result.proven and result.code == 1 and result.move == pt(pos, "F5")
        guided.append(int(p.safety[0][kp.C_GUIDED]))
    assert guided[0] == 0 < guided[1]
