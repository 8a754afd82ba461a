"""``gogame mine`` (gogame.tools.mine): the judging rules, the index and its
SGFs on a real game, kept and not-kept questions with GNU Go replaced by
known answers, ``--no-gnugo``, execution modes, bad input, and the corpus
in tests/data/problems/."""

import json
import os

import pytest
from sgfmill import sgf

from gogame import cli
from gogame.core.coords import format_gtp
from gogame.core.position import Position
from gogame.core.reader import Reader
from gogame.core.reading_cache import ReadingCache
from gogame.core.sgfio import SgfError, apply_game, load_game
from gogame.tools import mine
from tests.helpers.diagrams import position, render, sgf_record
from tests.helpers.gnugo import needs_gnugo
from tests.helpers.paths import ROOT

GAME = ROOT / "sgf" / "gnugo-l1-9x9-s101.sgf"
GAME2 = ROOT / "sgf" / "gnugo-l1-9x9-s102.sgf"
CORPUS = ROOT / "tests" / "data" / "problems"
ENTRY_KEYS = {
    "file",
    "source",
    "vertex",
    "question",
    "proven",
    "gogame",
    "gnugo",
    "nodes",
    "category",
    "reasons",
}


def answer(code, move=None, nodes=0):
    return {"code": code, "move": move, "nodes": nodes}


PROVEN = {"status": "proven", "code": 1, "move": "D4"}
UNKNOWN = {"status": "unknown", "code": None, "move": None}


# ------------------------------------------------------------- the rules
def test_consistent_follows_the_proof_codes():
    assert mine.consistent("attack", 0, 0) and not mine.consistent("attack", 0, 1)
    assert mine.consistent("attack", 2, 1) and mine.consistent("attack", 2, 2)
    assert not mine.consistent("attack", 2, 3) and not mine.consistent("attack", 1, 0)
    assert mine.consistent("defend", 1, 1) and not mine.consistent("defend", 1, 2)
    assert mine.consistent("defend", 0, 0) and not mine.consistent("defend", 0, 1)


def test_judge_keeps_disagreements_and_big_reads_only():
    assert mine.judge("attack", answer(1, "D4"), answer(1, "E4"), PROVEN) == []
    assert mine.judge("attack", answer(1), answer(2), UNKNOWN) == ["gogame-gnugo"]
    assert mine.judge("attack", answer(0), None, PROVEN) == ["gogame-proven"]
    assert mine.judge("attack", answer(1), answer(0), PROVEN) == ["gogame-gnugo", "gnugo-proven"]
    assert mine.judge("attack", answer(0, nodes=4999), answer(0), UNKNOWN) == []
    assert mine.judge("attack", answer(0, nodes=5000), answer(0), UNKNOWN) == ["nodes"]
    # a proof that needed a search keeps the question; a one-move one does not
    assert mine.judge("attack", answer(1), answer(1), PROVEN, 100) == ["proof"]
    assert mine.judge("attack", answer(1), answer(1), PROVEN, 99) == []
    assert mine.judge("attack", answer(1), answer(1), UNKNOWN, 10**6) == []


def test_snapback_rule_reads_the_proof_line():
    assert mine.is_snapback([(1, 1), (1, 2), (1, 1)])
    assert not mine.is_snapback([(1, 1), (1, 2), (2, 2)])
    assert not mine.is_snapback([(1, 1), None, (3, 3), (1, 1)])


def test_position_sgf_holds_setup_turn_ko_and_question(tmp_path):
    pos = Position(5)
    for pt, color in (
        ((2, 1), "b"),
        ((1, 3), "w"),
        ((1, 2), "b"),
        ((3, 3), "w"),
        ((3, 2), "b"),
        ((2, 4), "w"),
        ((2, 2), "w"),
        ((2, 3), "b"),  # takes the stone on C3: a ko
    ):
        pos.play(pt, color)
    assert pos.ko == (2, 2)
    text = mine.position_sgf(pos, mine.WHITE, "attack D3")
    path = tmp_path / "p.sgf"
    path.write_text(text)
    back = Position(5)
    assert apply_game(load_game(path), back) == mine.WHITE
    assert back.stones() == pos.stones() and back.ko == (2, 2)
    assert sgf.Sgf_game.from_bytes(text.encode()).get_root().get("C") == "attack D3"


# ------------------------------------------------------ GNU Go stand-ins
class EchoGnuGo:
    """Answers as gogame's reader does on the same game and move: agrees."""

    def __init__(self, data):
        self.data = data

    def load(self, move):
        from gogame.core.sgfio import parse_game

        game = parse_game(self.data)
        self.pos = Position(game.size)
        apply_game(game, self.pos, move + 1)
        self.reader = Reader()

    def ask(self, question, vertex):
        read = self.reader.attack if question == "attack" else self.reader.find_defense
        code, move = read(self.pos, vertex)
        return {"code": code, "move": mine._vertex(code, move)}

    def close(self):
        pass


class ZeroGnuGo(EchoGnuGo):
    """Says every attack fails (code 0)."""

    def ask(self, question, vertex):
        return {"code": 0, "move": None} if question == "attack" else super().ask(question, vertex)


# a smaller proof budget than mining's (200 k): these tests are about the
# mining, and a question the prover cannot decide spends its whole budget
BUDGET = 50_000
SMALL = mine.MineSettings(every=10, moves=40, prove_nodes=BUDGET)


def run(tmp_path, monkeypatch, fake, name, paths=(GAME,), settings=SMALL, workers=1):
    if fake is not None:
        monkeypatch.setattr(mine, "GnuGo", fake)
    out = tmp_path / name
    summary = mine.mine_games(list(paths), out, settings, workers=workers)
    return summary, json.loads((out / "index.json").read_text()), out


@pytest.fixture(scope="module")
def mined(tmp_path_factory):
    """The first 40 moves of a 9x9 game, every 10th position, GNU Go
    replaced by one that says every attack fails."""
    tmp = tmp_path_factory.mktemp("mined")
    with pytest.MonkeyPatch.context() as mp:
        return run(tmp, mp, ZeroGnuGo, "zero")


def test_index_is_well_formed(mined):
    summary, index, out = mined
    assert summary["games"] == 1 and summary["positions"] == 4 and not summary["errors"]
    assert summary["kept"] == len(index) > 0
    assert sum(summary["by_category"].values()) == len(index)
    assert summary["agreement"]["all"]["questions"] == summary["questions"] > len(index)
    for e in index:
        assert set(e) == ENTRY_KEYS
        assert (out / e["file"]).is_file()
        assert e["source"]["game"] == str(GAME) and e["source"]["move"] % 10 == 0
        assert e["question"] in mine.QUESTIONS and e["category"] in mine.CATEGORIES
        assert e["proven"]["status"] in ("proven", "unknown")
        assert set(e["gogame"]) == {"code", "move", "nodes"} and set(e["gnugo"]) == {"code", "move"}
        assert e["reasons"] and isinstance(e["nodes"], int)
    assert len({e["file"] for e in index}) == len(index)


def test_every_sgf_reproduces_position_and_question(mined):
    _, index, out = mined
    for e in index:
        problem = load_game(out / e["file"])
        pos = Position(problem.size)
        to_move = apply_game(problem, pos)
        game = load_game(GAME)
        orig = Position(game.size)
        expected_to_move = apply_game(game, orig, e["source"]["move"] + 1)
        assert pos.stones() == orig.stones() and pos.ko == orig.ko
        assert to_move == expected_to_move
        root = sgf.Sgf_game.from_bytes((out / e["file"]).read_bytes()).get_root()
        assert root.get("C") == f"{e['question']} {e['vertex']}"
        assert pos.color_at(e["vertex"]) != 0 and pos.countlib(e["vertex"]) <= 4


def test_disagreement_kept_agreement_not(tmp_path, monkeypatch, mined):
    _, zero, _ = mined
    summary, echo, _ = run(tmp_path, monkeypatch, EchoGnuGo, "echo")
    agree = summary["agreement"]["all"]
    assert agree["gogame_gnugo_same"] == agree["gnugo_asked"] == summary["questions"]
    assert all("gogame-gnugo" not in e["reasons"] for e in echo)
    # every question GNU Go now contradicts is kept, and only those more
    disputed = {(e["source"]["move"], e["vertex"], e["question"]) for e in zero}
    for e in zero:
        if "gogame-gnugo" in e["reasons"]:
            assert e["question"] == "attack" and e["gogame"]["code"] != 0
    assert {(e["source"]["move"], e["vertex"], e["question"]) for e in echo} <= disputed
    assert len(echo) < len(zero)


def test_a_problem_repeated_at_later_positions_is_kept_once(tmp_path, monkeypatch):
    """Every position of 40 moves: a string whose question, stones,
    liberties and answers are unchanged from an earlier sampled position
    is not kept again; without the check, those repeats come back."""
    every = mine.MineSettings(every=1, moves=40, prove_nodes=BUDGET)
    summary, index, out = run(tmp_path, monkeypatch, EchoGnuGo, "once", settings=every)
    keys = []
    for e in index:
        problem = load_game(out / e["file"])
        pos = Position(problem.size)
        apply_game(problem, pos)
        stones = frozenset(pos.string_stones(e["vertex"]))
        answers = (e["proven"]["status"], e["proven"]["code"], e["gogame"]["code"])
        keys.append((e["question"], stones, frozenset(pos.findlib(e["vertex"])), answers))
    assert len(set(keys)) == len(keys) and summary["repeats"] > 0
    assert sum(summary["by_category"].values()) == len(index)
    monkeypatch.setattr(mine._Miner, "_repeat", lambda self, pt, r: False)
    again, all_kept, _ = run(tmp_path, monkeypatch, EchoGnuGo, "all", settings=every)
    assert len(all_kept) == len(index) + summary["repeats"] and again["repeats"] == 0


def test_no_gnugo_runs_without_it(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(mine, "GNUGO", str(tmp_path / "no-gnugo"))
    args = ["mine", str(GAME), "--moves", "40", "--every", "10", "--json"]
    assert cli.main([*args, "--out", str(tmp_path / "a"), "--no-gnugo"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["gnugo"] is False and summary["agreement"]["all"]["gnugo_asked"] == 0
    assert cli.main([*args, "--out", str(tmp_path / "b")]) == 0  # GNU Go missing: same
    assert json.loads(capsys.readouterr().out)["gnugo"] is False
    index = json.loads((tmp_path / "a" / "index.json").read_text())
    assert all(e["gnugo"] is None for e in index)


def test_offset_shifts_the_sampled_positions(tmp_path, monkeypatch):
    """``--offset 5`` with ``--every 10``: the positions after moves 5, 15,
    25 and 35 of the first 40, each named by its move."""
    settings = mine.MineSettings(every=10, offset=5, moves=40, gnugo=False, prove_nodes=BUDGET)
    summary, index, _ = run(tmp_path, monkeypatch, None, "off", settings=settings)
    assert summary["positions"] == 4 and summary["offset"] == 5
    moves = {e["source"]["move"] for e in index}
    assert moves and moves <= {5, 15, 25, 35}
    assert all(f"-m{e['source']['move']:03d}-" in e["file"] for e in index)


# White to play: the black stone on C4 is in atari (C3 takes it), and the
# two black stones D5 E5 have two liberties.
PROBLEM = """
. . . . . . .
. . . O O . .
. . O X X O .
. O X O . . .
. . . O . . .
. . . . . . .
. . . . . . .
"""


def test_a_problem_record_is_examined_at_its_setup(tmp_path, monkeypatch):
    """A record that sets stones up before its first move (a problem) has
    that position as move 0, with ``PL`` for the colour to move, whether a
    solution follows or not; before, only the positions after moves were."""
    alone = tmp_path / "problem.sgf"
    alone.write_text(sgf_record(PROBLEM).replace("FF[4]", "FF[4]PL[W]"))
    solved = tmp_path / "solved.sgf"
    solved.write_text(sgf_record(PROBLEM, [("w", "C3"), ("b", "E4")]))
    settings = mine.MineSettings(every=10, prove_nodes=BUDGET)
    summary, index, out = run(tmp_path, monkeypatch, ZeroGnuGo, "p", (alone, solved), settings)
    assert summary["positions"] == 2 and not summary["errors"]
    assert summary["questions"] == 2 * 2 * 7  # both questions on each string: all are weak
    assert {e["source"]["move"] for e in index} == {0}
    for path, to_move in ((alone, mine.WHITE), (solved, mine.WHITE)):
        kept = [e for e in index if e["source"]["game"] == str(path)]
        assert "attack C4" in {f"{e['question']} {e['vertex']}" for e in kept}
        for e in kept:
            problem = load_game(out / e["file"])
            pos = Position(problem.size)
            assert apply_game(problem, pos) == to_move
            assert render(pos) == render(position(PROBLEM))
    # rebuilt from the records alone (their paths absolute), the same files
    assert mine.materialize(index, tmp_path, tmp_path / "again") == len(index)
    for e in index:
        assert (tmp_path / "again" / e["file"]).read_text() == (out / e["file"]).read_text()


def test_materialize_rebuilds_the_corpus_from_its_games(tmp_path):
    """Each problem of the committed corpus, rebuilt from its source game
    after its move, is byte for byte the file mining wrote; the index
    follows."""
    index = json.loads((CORPUS / "index.json").read_text())
    assert mine.materialize(index, ROOT, tmp_path) == len(index)
    for e in index:
        assert (tmp_path / e["file"]).read_text() == (CORPUS / e["file"]).read_text(), e["file"]
    assert json.loads((tmp_path / "index.json").read_text()) == index


def test_materialize_without_its_game_raises(tmp_path):
    entry = json.loads((CORPUS / "index.json").read_text())[0]
    with pytest.raises(SgfError, match="cannot read"):
        mine.materialize([entry], tmp_path, tmp_path / "out")


@pytest.mark.slow
def test_workers_give_the_same_index(tmp_path, monkeypatch):
    settings = mine.MineSettings(every=5, moves=30, gnugo=False, prove_nodes=BUDGET)
    paths = (GAME, GAME2)
    one, index1, _ = run(tmp_path, monkeypatch, None, "w1", paths, settings)
    two, index2, _ = run(tmp_path, monkeypatch, None, "w2", paths, settings, workers=2)
    assert index1 == index2
    drop = {"seconds", "wall_seconds", "out"}
    assert {k: v for k, v in one.items() if k not in drop} == {
        k: v for k, v in two.items() if k not in drop
    }


# -------------------------------------------------------------- bad input
def test_bad_game_is_reported_and_the_others_run(tmp_path, capsys):
    bad = tmp_path / "illegal.sgf"
    bad.write_bytes(b"(;SZ[9];B[ee];W[cc];B[ee])")
    missing = tmp_path / "missing.sgf"
    out = tmp_path / "out"
    args = ["mine", str(missing), str(bad), str(GAME), "--moves", "20", "--no-gnugo"]
    assert cli.main([*args, "--out", str(out), "--json"]) == 1
    captured = capsys.readouterr()
    summary = json.loads(captured.out)
    assert summary["games"] == 3 and len(summary["errors"]) == 2 and summary["positions"] == 2
    errors = captured.err.strip().splitlines()
    assert len(errors) == 2 and "missing.sgf" in errors[0] and "move 3" in errors[1]


@pytest.mark.parametrize(
    "extra", [["--every", "0"], ["--prove-nodes", "x"], ["--workers", "2", "--dask", "x:1"], []]
)
def test_bad_options_exit_2(tmp_path, capsys, extra):
    args = ["mine", str(GAME), *extra]
    if extra:
        args += ["--out", str(tmp_path)]
    with pytest.raises(SystemExit) as e:
        cli.main(args)
    assert e.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()[-1]) > 0


def test_out_must_be_a_folder(tmp_path, capsys):
    (tmp_path / "file").write_text("")
    assert cli.main(["mine", str(GAME), "--out", str(tmp_path / "file")]) == 2
    assert capsys.readouterr().err.count("\n") == 1


# ----------------------------------------------------------------- GNU Go
@needs_gnugo
def test_gnugo_answers_every_question(tmp_path, monkeypatch):
    summary, index, _ = run(
        tmp_path, monkeypatch, None, "g", settings=mine.MineSettings(every=5, prove_nodes=BUDGET)
    )
    assert not summary["gnugo_errors"] and not summary["errors"]
    agree = summary["agreement"]["all"]
    assert agree["gnugo_asked"] == summary["questions"] > 100
    assert agree["gogame_gnugo_same"] > 0.9 * agree["gnugo_asked"]
    assert all(e["gnugo"] is not None for e in index)


# ----------------------------------------------------------------- corpus
def test_corpus_entries_load_and_name_a_string():
    index = json.loads((CORPUS / "index.json").read_text())
    assert len(index) > 0
    assert {p.name for p in CORPUS.glob("*.sgf")} == {e["file"] for e in index}
    for e in index:
        assert set(e) == ENTRY_KEYS and e["category"] in mine.CATEGORIES
        assert e["source"]["game"].startswith("sgf/")
        pos = Position(load_game(CORPUS / e["file"]).size)
        apply_game(load_game(CORPUS / e["file"]), pos)
        assert pos.countlib(e["vertex"]) <= 4
    assert os.path.getsize(CORPUS / "index.json") < 2_000_000


# ---------------------------------------------------------------- --report
def problem(name, category, question, proven, gogame, gnugo):
    """An index entry as mine writes it; answers as (code, move) or None."""
    status = "unknown" if proven is None else "proven"
    code, move = proven or (None, None)

    def oracle(a, nodes=None):
        if a is None:
            return None
        return {"code": a[0], "move": a[1], **({} if nodes is None else {"nodes": nodes})}

    return {
        "file": f"{name}.sgf",
        "source": {"game": "sgf/x.sgf", "move": 10},
        "vertex": "D4",
        "question": question,
        "proven": {"status": status, "code": code, "move": move},
        "gogame": oracle(gogame, 10),
        "gnugo": oracle(gnugo),
        "nodes": 100,
        "category": category,
        "reasons": ["gogame-gnugo"],
    }


HAND_MADE = [
    problem("ko-other-move", "ko", "attack", (2, "H6"), (1, "J8"), (2, "H6")),
    problem("ko-gogame-wrong", "ko", "attack", (3, "R7"), (0, None), (3, "R7")),
    problem("ko-stronger", "ko", "attack", (2, "H6"), (3, "H6"), (1, "H6")),  # 3 > 2: wrong
    problem("ladder-gnugo-wrong", "ladder", "attack", (1, "D3"), (1, "D3"), (0, None)),
    problem("ladder-lost", "ladder", "defend", (0, None), (0, None), None),
    problem("edge-alive", "edge", "defend", (1, "PASS"), (1, "A1"), (2, "A1")),
    problem("other-unknown", "other", "attack", None, (0, None), (1, "C3")),
]


def test_grade_judges_the_code_and_names_the_proven_move():
    proof = {"status": "proven", "code": 2, "move": "H6"}
    assert mine.grade("attack", proof, {"code": 2, "move": "H6"}) == "proven_move"
    assert mine.grade("attack", proof, {"code": 1, "move": "H6"}) == "proven_move"
    assert mine.grade("attack", proof, {"code": 1, "move": "J8"}) == "code"
    assert mine.grade("attack", proof, {"code": 3, "move": "H6"}) == "wrong"
    assert mine.grade("attack", proof, {"code": 0, "move": None}) == "wrong"
    assert mine.grade("attack", proof, None) is None
    assert mine.grade("attack", UNKNOWN, {"code": 0, "move": None}) is None
    lost = {"status": "proven", "code": 0, "move": None}
    assert mine.grade("defend", lost, {"code": 0, "move": None}) == "proven_move"
    alive = {"status": "proven", "code": 1, "move": "PASS"}
    assert mine.grade("defend", alive, {"code": 1, "move": "PASS"}) == "proven_move"
    assert mine.grade("defend", alive, {"code": 1, "move": "A1"}) == "code"


def test_report_counts_per_category():
    rep = mine.report(HAND_MADE)
    assert (rep["problems"], rep["proven"]) == (7, 6)
    cats = rep["categories"]
    assert list(cats) == ["all", *mine.CATEGORIES]
    counts = {c: tuple(cats[c][k] for k in mine.REPORT_KEYS) for c in ("all", "ko", "ladder")}
    # proven, gogame correct, gogame proven move, GNU Go asked, correct, proven move
    assert counts["ko"] == (3, 1, 0, 3, 3, 3)
    assert counts["ladder"] == (2, 2, 2, 1, 0, 0)
    assert counts["all"] == (6, 4, 2, 5, 3, 3)
    assert cats["edge"]["gogame_correct"] == 1 and cats["edge"]["gogame_proven_move"] == 0
    assert cats["other"]["proven"] == 0  # an unknown proof judges nothing
    assert cats["ko"]["gogame_wrong"] == ["ko-gogame-wrong.sgf", "ko-stronger.sgf"]
    assert cats["all"]["gnugo_wrong"] == ["ladder-gnugo-wrong.sgf", "edge-alive.sgf"]
    wrong = {w["file"]: w for w in rep["wrong"]}
    assert list(wrong) == [
        "ko-gogame-wrong.sgf",
        "ko-stronger.sgf",
        "ladder-gnugo-wrong.sgf",
        "edge-alive.sgf",
    ]
    assert wrong["edge-alive.sgf"] == {
        "file": "edge-alive.sgf",
        "category": "edge",
        "question": "defend",
        "vertex": "D4",
        "proven": "1 PASS",
        "gogame": "1 A1",
        "gnugo": "2 A1",
        "wrong": ["gnugo"],
    }


def test_cli_report(tmp_path, capsys):
    (tmp_path / "index.json").write_text(json.dumps(HAND_MADE))
    assert cli.main(["mine", "--report", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == mine.report(HAND_MADE)
    assert cli.main(["mine", "--report", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == f"mine report on {tmp_path}: 7 problems, 6 with a proven answer"
    assert lines[2].split() == ["all", "6", "4/6", "(67", "%)", "2", "5", "3/5", "(60", "%)", "3"]
    assert "  ladder-gnugo-wrong.sgf [ladder] attack: proven 1 D3, gogame 1 D3, GNU Go 0" in (
        "\n".join(lines)
    )


@pytest.mark.parametrize(
    "content, message",
    [
        (None, "no index.json in"),
        ("{not json", "cannot read"),
        ('{"a": 1}', "is not a list of problems"),
        ('[{"file": "x.sgf"}]', "problem 0 lacks"),
    ],
)
def test_cli_report_bad_corpus(tmp_path, capsys, content, message):
    if content is not None:
        (tmp_path / "index.json").write_text(content)
    assert cli.main(["mine", "--report", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gogame mine: error: ") and message in err and err.count("\n") == 1


def test_cli_report_refuses_games_and_out(tmp_path, capsys):
    assert cli.main(["mine", "--report", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err == f"gogame mine: error: no such folder: {tmp_path / 'none'}\n"
    for args in (
        ["--report", str(tmp_path), str(GAME)],
        ["--report", str(tmp_path), "--out", str(tmp_path)],
        ["--out", str(tmp_path)],  # mining needs games
    ):
        with pytest.raises(SystemExit) as e:
            cli.main(["mine", *args])
        assert e.value.code == 2
        assert capsys.readouterr().err.strip().splitlines()[-1].startswith("gogame mine: error: ")


def test_corpus_report_agrees_with_the_index():
    index = json.loads((CORPUS / "index.json").read_text())
    rep = mine.report(mine.load_index(CORPUS))
    proven = [e for e in index if e["proven"]["status"] == "proven"]
    assert rep["proven"] == len(proven) == rep["categories"]["all"]["proven"]
    assert sum(t["proven"] for c, t in rep["categories"].items() if c != "all") == len(proven)
    for w in rep["wrong"]:
        assert (CORPUS / w["file"]).is_file() and w["proven"] is not None


def test_reask_judges_the_reader_of_today(tmp_path, capsys):
    """--reask replaces the recorded answers of proven problems by the
    reader's answers now; unproven ones keep theirs."""
    proven = [e for e in json.loads((CORPUS / "index.json").read_text()) if e["proven"]["code"]]
    unproven = next(
        e for e in json.loads((CORPUS / "index.json").read_text()) if e["proven"]["code"] is None
    )
    picked = proven[:3] + [unproven]
    for e in picked:
        (tmp_path / e["file"]).write_bytes((CORPUS / e["file"]).read_bytes())
    stale = [{**e, "gogame": answer(0)} for e in picked]  # recorded: all wrong
    (tmp_path / "index.json").write_text(json.dumps(stale))
    assert cli.main(["mine", "--report", str(tmp_path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["categories"]["all"]["gogame_correct"] == 0
    again = mine.reask(stale, tmp_path)
    for e, new in zip(picked, again, strict=True):
        if e is unproven:
            assert new["gogame"] == answer(0)
            continue
        position = Position(load_game(tmp_path / e["file"]).size)
        apply_game(load_game(tmp_path / e["file"]), position)
        reader = Reader(cache=ReadingCache(1))
        ask = reader.attack if e["question"] == "attack" else reader.find_defense
        code, move = ask(position, e["vertex"])
        assert (new["gogame"]["code"], new["gogame"]["move"]) == (code, mine._vertex(code, move))
    assert cli.main(["mine", "--report", str(tmp_path), "--reask", "--json"]) == 0
    rep = json.loads(capsys.readouterr().out)
    assert rep == mine.report(again)
    right = [
        mine.consistent(e["question"], e["proven"]["code"], e["gogame"]["code"]) for e in again[:3]
    ]
    assert rep["categories"]["all"]["gogame_correct"] == sum(right) > 0


def test_reask_of_a_bad_problem_exits_2(tmp_path, capsys):
    entry = next(e for e in json.loads((CORPUS / "index.json").read_text()) if e["proven"]["code"])
    (tmp_path / "index.json").write_text(json.dumps([entry]))  # its SGF is missing
    assert cli.main(["mine", "--report", str(tmp_path), "--reask"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"gogame mine: error: cannot ask {entry['file']} again") and (
        err.count("\n") == 1
    )


def test_reask_needs_report(capsys):
    with pytest.raises(SystemExit) as e:
        cli.main(["mine", str(GAME), "--out", "/nonexistent", "--reask"])
    assert e.value.code == 2
    assert "--reask goes with --report" in capsys.readouterr().err


# ------------------------------------------------- proving named captures
# White's E5 (two liberties) in a ladder with no breaker: E4 or F5 starts
# it; A1 is no capture.
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


def _ladder():
    from gogame.core.prover import Prover
    from tests.helpers.diagrams import position

    return Prover(table_mb=2, max_nodes=200_000), position(LADDER)


def test_a_named_capture_is_proven_and_a_wrong_one_is_not():
    prover, pos = _ladder()
    before = (pos.stackp, pos.hash, pos.snapshot())
    right = prover.attack(pos, "E5")
    assert right.proven and right.code == 1
    move = format_gtp(right.move)
    got = mine.prove_named_capture(prover, pos, "E5", [answer(1, "A1"), None, answer(1, move)])
    assert got["status"] == "proven" and got["code"] == 1 and got["move"] == move
    assert got["via"] == "move" and got["nodes"] > 0
    assert mine.prove_named_capture(prover, pos, "E5", [answer(1, "A1"), answer(0)]) is None
    assert mine.prove_named_capture(prover, pos, "E5", [answer(2, "E5")]) is None  # occupied
    assert (pos.stackp, pos.hash, pos.snapshot()) == before


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


def test_a_named_defence_is_proven_and_a_wrong_one_is_not():
    """C3 saves White's C2; a far move, a pass (Black then takes it) and
    an occupied point do not; failures (code 0) and repeats are skipped."""
    from gogame.core.prover import Prover
    from tests.helpers.diagrams import position

    prover, pos = Prover(table_mb=2, max_nodes=200_000), position(CONNECT)
    before = (pos.stackp, pos.hash, pos.snapshot())
    named = [answer(1, "G7"), None, answer(0), answer(1, "G7"), answer(1, "C3")]
    got = mine.prove_named_defence(prover, pos, "C2", named)
    assert got["status"] == "proven" and (got["code"], got["move"]) == (1, "C3")
    assert got["via"] == "move" and got["nodes"] > 0
    wrong = [answer(1, "PASS"), answer(1, None), answer(2, "B2")]
    assert mine.prove_named_defence(prover, pos, "C2", wrong) is None
    assert (pos.stackp, pos.hash, pos.snapshot()) == before


def _corpus(folder):
    """Four problems on the ladder: an unknown attack whose named capture
    works, one whose named move does not, a proven one, a defend."""
    _, pos = _ladder()
    (folder / "ladder.sgf").write_text(mine.position_sgf(pos, mine.BLACK, "attack E5"))
    base = {"file": "ladder.sgf", "vertex": "E5", "category": "ladder", "nodes": 5}
    base.update(source={"game": "drawn", "move": 0}, reasons=["gogame-gnugo"])
    return [
        {**base, "question": "attack", "proven": UNKNOWN, "gogame": answer(1, "A1"),
         "gnugo": answer(1, "E4")},
        {**base, "question": "attack", "proven": UNKNOWN, "gogame": answer(1, "A1"),
         "gnugo": answer(0)},
        {**base, "question": "attack", "proven": PROVEN, "gogame": answer(1, "A1"), "gnugo": None},
        {**base, "question": "defend", "proven": UNKNOWN, "gogame": answer(0), "gnugo": None},
    ]  # fmt: skip


def test_referee_asks_the_unknown_problems_again(tmp_path):
    """The prover's search proves the ladder (both unknown attacks, one
    position); the defence stays unknown; the proven problem is kept."""
    index = _corpus(tmp_path)
    out, counts = mine.referee(index, tmp_path)
    assert counts == {"tried": 3, "proven": 2}
    for e in out[:2]:
        assert e["proven"]["code"] == 1 and e["proven"]["via"] == "search"
        assert e["proven"]["move"] in ("E4", "F5")
    assert out[0]["proven"]["nodes"] > 0  # the second is the table's answer
    assert out[2:] == index[2:]
    graded = mine.report(out)["categories"]["all"]
    assert graded["proven"] == 3


def test_referee_all_asks_the_proven_problems_too(tmp_path):
    """With ``again`` the proven ladder is asked as well: proven again (the
    ladder is captured, code 1: kept); recorded with another code it
    counts as changed; the index keeps the recorded proof either way."""
    index = _corpus(tmp_path)
    out, counts = mine.referee(index, tmp_path, again=True)
    assert counts == {"tried": 3, "proven": 2, "again": 1, "kept": 1, "changed": 0, "lost": 0}
    assert out[2] == index[2]
    other = [*index[:2], {**index[2], "proven": {**PROVEN, "code": 2}}, index[3]]
    out, counts = mine.referee(other, tmp_path, again=True)
    assert (counts["kept"], counts["changed"], counts["lost"]) == (0, 1, 0)
    assert out[2] == other[2]


def test_referee_all_counts_a_proof_it_cannot_make_again(tmp_path):
    """A proven defence of the ladder (recorded, say, by a larger budget)
    that the prover cannot prove again counts as lost, and stays."""
    index = _corpus(tmp_path)
    saved = {**index[3], "proven": {"status": "proven", "code": 1, "move": "E4"}}
    out, counts = mine.referee([saved], tmp_path, again=True)
    assert counts == {"tried": 0, "proven": 0, "again": 1, "kept": 0, "changed": 0, "lost": 1}
    assert out == [saved]


class _NoSearch:
    """A prover whose own search never proves anything."""

    def __init__(self, prover):
        self.prove_move = prover.prove_move
        self.prove_defence = prover.prove_defence

    def attack(self, position, vertex):
        from gogame.core.prover import ProofResult

        return ProofResult("unknown", nodes=1)

    defend = attack


def test_reprove_falls_back_to_the_named_captures(tmp_path):
    index = _corpus(tmp_path)
    prover, pos = _ladder()
    got = mine.reprove(_NoSearch(prover), pos, index[0])
    assert got["via"] == "move" and got["move"] == "E4" and got["code"] == 1
    assert mine.reprove(_NoSearch(prover), pos, index[1]) is None  # A1 does not work
    assert mine.reprove(_NoSearch(prover), pos, index[3]) is None  # a defence: no named move
    defence = {**index[3], "gogame": answer(1, "A1"), "gnugo": answer(1, "E4")}
    assert mine.reprove(_NoSearch(prover), pos, defence) is None  # neither saves E5


def test_cli_referee_writes_the_proofs(tmp_path, capsys):
    index = _corpus(tmp_path)
    (tmp_path / "index.json").write_text(json.dumps(index))
    assert cli.main(["mine", "--referee", str(tmp_path)]) == 0
    assert capsys.readouterr().out == "3 unknown problems asked again, 2 proven\n"
    written = mine.load_index(tmp_path)
    assert written == mine.referee(index, tmp_path)[0]
    assert cli.main(["mine", "--referee", str(tmp_path), "--json"]) == 0  # again: one left
    assert json.loads(capsys.readouterr().out) == {"tried": 1, "proven": 0}
    assert cli.main(["mine", "--referee", str(tmp_path), "--all"]) == 0
    assert capsys.readouterr().out == (
        "1 unknown problems asked again, 0 proven; 3 proven problems asked again:"
        " 3 proven again, 0 with another code, 0 not within the budget\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["index.json", "ladder.sgf"]


def test_cli_referee_bad_input_exits_2(tmp_path, capsys):
    assert cli.main(["mine", "--referee", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err == f"gogame mine: error: no such folder: {tmp_path / 'none'}\n"
    index = _corpus(tmp_path)
    (tmp_path / "ladder.sgf").unlink()
    (tmp_path / "index.json").write_text(json.dumps(index))
    assert cli.main(["mine", "--referee", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gogame mine: error: cannot set up ladder.sgf") and err.count("\n") == 1
    assert json.loads((tmp_path / "index.json").read_text()) == index  # unchanged
    for args in (
        ["--referee", str(tmp_path), str(GAME)],
        ["--referee", str(tmp_path), "--reask"],
        ["--report", str(tmp_path), "--all"],
    ):
        with pytest.raises(SystemExit) as e:
            cli.main(["mine", *args])
        assert e.value.code == 2
