"""scripts/trace_disagreement.py: the walk down the line where two readers
disagree, with scripted engines (the answers each gives after each line
of moves), and its one-line errors."""

import pytest

from tests.helpers.paths import ROOT, load_script

trace = load_script("trace_disagreement")


class Scripted:
    """An engine that answers attack/defend from a table keyed by the
    moves tried so far; ``color`` says the target is White."""

    def __init__(self, answers):
        self.answers, self.line, self.sent = answers, [], []

    def ask(self, command):
        return "white" if command.startswith("color") else self.send(command)[1]

    def send(self, command):
        if not command.startswith("trymove"):
            answer = self.answers.get(tuple(self.line), "0")
            return answer != "?", "vertex must not be empty" if answer == "?" else answer
        self.sent.append(command)
        self.line.append(command.split()[-1])
        return True, ""


def args_for(*extra):
    return trace.parse_args(["g.sgf", "140", "H8", "attack", *extra])


def test_claims_are_read_from_answers():
    assert trace.claim("1 J8") == (1, "J8")
    assert trace.claim("3 PASS") == (3, "PASS")
    assert trace.claim("0") == (0, None)
    assert trace.claim("") == (0, None)


def test_the_walk_plays_the_claimants_move_until_the_engines_agree():
    gogame = Scripted({(): "0", ("J8",): "1 H7", ("J8", "H7"): "1 J7"})
    gnugo = Scripted({(): "1 J8", ("J8",): "0", ("J8", "H7"): "1 J7"})
    plies = trace.walk({"gogame": gogame, "gnugo": gnugo}, args_for())
    assert [move for _, _, move in plies] == ["J8", "H7", None]
    assert [q for q, _, _ in plies] == ["attack", "defend", "attack"]
    # each move is tried in both engines, by the side to move
    assert gogame.sent == gnugo.sent == ["trymove black J8", "trymove white H7"]


def test_where_both_claim_with_other_codes_the_preferred_engine_leads():
    gogame = Scripted({(): "2 M3"})
    gnugo = Scripted({(): "1 N3"})
    engines = {"gogame": gogame, "gnugo": gnugo}
    plies = trace.walk(engines, args_for("--plies", "1", "--prefer", "gogame"))
    assert plies[0][2] == "M3"
    gogame.line, gnugo.line = [], []
    plies = trace.walk(engines, args_for("--plies", "1"))
    assert plies[0][2] == "N3"


def test_the_walk_stops_where_the_string_is_gone():
    gogame = Scripted({(): "1 J8", ("J8",): "?"})
    gnugo = Scripted({(): "0", ("J8",): "?"})
    plies = trace.walk({"gogame": gogame, "gnugo": gnugo}, args_for())
    assert [move for _, _, move in plies] == ["J8"]


def test_a_missing_game_is_a_one_line_error(capsys):
    assert trace.main([str(ROOT / "no-such.sgf"), "10", "D4", "attack"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("trace_disagreement: no such file") and "\n" not in err


def test_a_bad_question_is_refused():
    with pytest.raises(SystemExit) as e:
        trace.parse_args(["g.sgf", "10", "D4", "capture"])
    assert e.value.code == 2
