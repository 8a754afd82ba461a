"""The prover's GTP commands (gogame.gtp.prove) through GtpEngine: answers,
errors, the GoGui gfx command, and the position unchanged after each."""

from tests.helpers.gtp import fails, ok, setup_board

LADDER = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . X . . . .
    . . . X O . . . .
    . . . . . X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . ."""


def state(e):
    return ok(e, "gogame-hash"), e.session.position.stackp, ok(e, "showboard")


def test_prove_answers_and_leaves_the_position():
    e = setup_board(LADDER)
    before = state(e)
    answer = ok(e, "gogame-prove attack E5")
    assert answer in ("proven 1 E4", "proven 1 F5")
    assert ok(e, "gogame-prove attack E5 1000") == answer
    assert ok(e, "gogame-prove defend E5 50") == "unknown"
    assert state(e) == before
    ok(e, "trymove black F5")
    ok(e, "trymove white E4")
    assert ok(e, "gogame-prove attack E5").startswith("proven 1 ")  # inside trymoves
    ok(e, "popgo")
    ok(e, "popgo")
    assert state(e) == before


def test_prove_errors_leave_the_position():
    e = setup_board(LADDER)
    before = state(e)
    fails(e, "gogame-prove", "syntax error")
    fails(e, "gogame-prove capture E5", "syntax error")
    fails(e, "gogame-prove attack E5 many", "syntax error")
    fails(e, "gogame-prove attack E5 0", "syntax error")
    fails(e, "gogame-prove attack E5 10 11", "syntax error")
    fails(e, "gogame-prove attack", "invalid coordinate")
    fails(e, "gogame-prove attack Z99", "invalid coordinate")
    fails(e, "gogame-prove defend A1", "vertex must not be empty")
    fails(e, "gogame-gfx_prove_attack A1", "vertex must not be empty")
    assert state(e) == before


def test_gfx_prove_shows_the_line():
    e = setup_board(LADDER)
    commands = ok(e, "gogui-analyze_commands").split("\n")
    assert "gfx/Prove attack/gogame-gfx_prove_attack %p" in commands
    lines = ok(e, "gogame-gfx_prove_attack E5").split("\n")
    assert lines[0].startswith("VAR b ") and " w " in lines[0]
    assert lines[1].startswith("TEXT prove attack: proven 1 ")
    lines = ok(e, "gogame-gfx_prove_defend E5").split("\n")
    assert lines[-1].startswith("TEXT prove defend: ")


def test_an_unknown_attack_is_proven_by_the_reader_s_move(monkeypatch):
    """With the prover's own search made to find nothing, the capture the
    reader names is proven by ``prove_move``."""
    from gogame.core.prover import ProofResult, Prover

    e = setup_board(LADDER)
    before = state(e)
    blind = lambda self, position, vertex, max_nodes=None: ProofResult("unknown", nodes=3)  # noqa: E731
    monkeypatch.setattr(Prover, "attack", blind)
    reader_code, reader_move = ok(e, "attack E5").split()
    assert reader_code == "1"
    assert ok(e, "gogame-prove attack E5 1") == "unknown"  # one node a try: no proof
    assert ok(e, "gogame-prove attack E5") == f"proven 1 {reader_move}"
    assert state(e) == before


# White's C2 has one liberty, C3, next to a long white string
CONNECT = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . O O O O . .
    . X . X . . .
    . X O X . . .
    . . X . . . ."""


def test_prove_answers_a_safety_proof():
    """The escape game through GTP: a saving move, and after it no capture."""
    e = setup_board(CONNECT)
    before = state(e)
    assert ok(e, "gogame-prove defend C2") == "proven 1 C3"
    assert state(e) == before
    ok(e, "trymove white C3")
    assert ok(e, "gogame-prove attack C2") == "proven 0"
    ok(e, "popgo")
    assert state(e) == before


def test_an_unknown_defend_is_proven_by_the_reader_s_move(monkeypatch):
    """With the prover's own search made to find nothing, the saving move
    the reader names is proven by ``prove_defence``."""
    from gogame.core.prover import ProofResult, Prover

    e = setup_board(CONNECT)
    before = state(e)

    def blind(self, position, vertex, max_nodes=None, model=0, safety=True):
        return ProofResult("unknown", nodes=3)

    monkeypatch.setattr(Prover, "defend", blind)
    assert ok(e, "defend C2") == "1 C3"
    assert ok(e, "gogame-prove defend C2") == "proven 1 C3"
    assert state(e) == before
