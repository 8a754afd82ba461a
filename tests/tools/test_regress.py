"""gogame regress (gogame.tools.regress): .tst parsing, judging, the runner over a fake GTP engine,
the CLI, and GNU Go's own reading.tst through GNU Go when it is installed."""

import json
import os
import sys
import textwrap

import pytest

from gogame import cli
from gogame.tools import regress
from gogame.tools.regress import judge, parse_tst, run_file
from tests.helpers.gnugo import GNUGO, needs_gnugo

# A GTP engine answering canned replies.  argv: config.json log.txt
# config: {"replies": {command: answer}, "counters": bool, "die_on": command}
# An answer starting with "?" is sent as an error; unknown commands answer "= ".
FAKE = textwrap.dedent("""
    import json, os, sys
    cfg = json.load(open(sys.argv[1]))
    log = open(sys.argv[2], "a")
    log.write("cwd " + os.getcwd() + "\\n")
    nodes = 0
    for line in sys.stdin:
        line = line.strip()
        if not line:
            continue
        log.write(line + "\\n"); log.flush()
        parts = line.split(None, 1)
        ident, cmd = (parts[0], parts[1]) if parts[0].isdigit() else ("", line)
        if cmd == cfg.get("die_on"):
            sys.exit(3)
        if cmd in ("reset_reading_node_counter", "get_reading_node_counter") \\
                and not cfg.get("counters", True):
            answer = "?unknown command"
        elif cmd == "reset_reading_node_counter":
            nodes, answer = 0, ""
        elif cmd == "get_reading_node_counter":
            answer = str(nodes)
        else:
            nodes += 7
            answer = {"name": "Fake", "version": "1"}.get(cmd, cfg["replies"].get(cmd, ""))
        status = "?" if answer.startswith("?") else "="
        sys.stdout.write(status + ident + " " + answer.lstrip("?") + "\\n\\n")
        sys.stdout.flush()
        if cmd == "quit":
            break
""")

TST = textwrap.dedent("""\
    # a comment
    loadsgf games/x.sgf 12
    1 attack A1
    #? [1 B1]

    2 attack A2
    #? [!0]
    trymove B C3   # trailing comment
    3 defend A3
    #? [0]*
    popgo
    4 attack A4
    #? [1 A1|B2]
    5 attack A5
    #? [1 (C1|C2)]
    6 defend A6
    #? [.*]&
    7 attack A7
    #? [1 A7]
""")

REPLIES = {
    "attack A1": "1 B1",  # pass
    "attack A2": "0",  # negated: FAIL
    "defend A3": "0",  # known failure that passes: PASS
    "attack A4": "3 B2",  # `B2$` alternative: pass
    "attack A5": "1 C3",  # FAIL
    "defend A6": "whatever",  # ignored
    "attack A7": "?unknown command",
}  # an error is a failure: FAIL


def fake_engine(tmp_path, replies=REPLIES, **cfg):
    config = tmp_path / "fake.json"
    config.write_text(json.dumps({"replies": replies, **cfg}))
    log = tmp_path / "log.txt"
    script = tmp_path / "fake_gtp.py"
    script.write_text(FAKE)
    return [sys.executable, str(script), str(config), str(log)], log


def write_tst(tmp_path, text=TST):
    folder = tmp_path / "tst"
    folder.mkdir(exist_ok=True)
    path = folder / "t.tst"
    path.write_text(text)
    return path


def outcomes(result):
    return {r["number"]: r["outcome"] for r in result["tests"]}


def test_parse_tst():
    items = parse_tst(TST)
    kinds = [(i[0], i[2]) for i in items]
    assert kinds[:4] == [
        ("setup", "loadsgf games/x.sgf 12"),
        ("test", 1),
        ("test", 2),
        ("setup", "trymove B C3"),
    ]
    tests = [i for i in items if i[0] == "test"]
    assert [(t[2], t[3], t[4]) for t in tests[:3]] == [
        (1, "attack A1", "[1 B1]"),
        (2, "attack A2", "[!0]"),
        (3, "defend A3", "[0]*"),
    ]
    assert parse_tst("1 attack A1\n")[0][4] is None  # no #? line


@pytest.mark.parametrize(
    "expected, answer, outcome",
    [
        ("[1 B1]", "1 B1", "pass"),
        ("[1 B1]", "1 B10", "FAIL"),  # anchored at both ends
        ("[1 (S4|T5)]", "1 T5", "pass"),
        ("[!0]", "0", "FAIL"),
        ("[!0]", "1 A1", "pass"),
        ("[0]*", "0", "PASS"),
        ("[0]*", "1 A1", "fail"),
        ("[!0]*", "0", "fail"),
        ("[1 A1|B2]", "1 A1 and more", "pass"),  # ^1 A1 ...
        ("[1 A1|B2]", "anything B2", "pass"),  # ... or B2$
        ("[1 A1|B2]", "x 1 A1", "FAIL"),
        ("[1 A1|B2]", "B2 x", "FAIL"),
        ("[!0]", None, "FAIL"),  # an error never passes, even negated
        ("[.*]*", None, "fail"),  # the "must be rejected" idiom
        ("[.*]&", "x", "ignored"),
        (None, "x", "ignored"),
    ],
)
def test_judge(expected, answer, outcome):
    assert judge(expected, answer) == outcome


def test_run_file_fake_engine(tmp_path):
    argv, log = fake_engine(tmp_path)
    path = write_tst(tmp_path)
    result = run_file(path, argv)
    assert result["name"] == "Fake"
    assert outcomes(result) == {
        1: "pass",
        2: "FAIL",
        3: "PASS",
        4: "pass",
        5: "FAIL",
        6: "ignored",
        7: "FAIL",
    }
    t = result["totals"]
    assert (t["tests"], t["pass"], t["fail"], t["PASS"], t["FAIL"], t["ignored"]) == (
        7,
        2,
        0,
        1,
        3,
        1,
    )
    assert [r["nodes"] for r in result["tests"]] == [7] * 7
    assert t["nodes"] == 49 and t["seconds"] > 0 and t["wall_seconds"] >= t["seconds"]
    r7 = result["tests"][-1]
    assert r7["error"] and r7["answer"] == "unknown command"
    assert result["tests"][0]["expected"] == "[1 B1]"
    assert result["files"] == {str(path): t}
    sent = log.read_text().splitlines()
    assert sent[0] == "cwd " + str(path.parent)  # runs in the .tst folder
    folder = str(path.parent)
    assert sent[1:9] == [
        "name",
        "version",
        f"loadsgf {os.path.join(folder, 'games/x.sgf')} 12",
        "reset_reading_node_counter",
        "1 attack A1",
        "get_reading_node_counter",
        "reset_reading_node_counter",
        "2 attack A2",
    ]
    assert "trymove B C3" in sent and "popgo" in sent and sent[-1] == "quit"


def test_only_skips_other_tests_but_sends_setup(tmp_path):
    argv, log = fake_engine(tmp_path)
    result = run_file(write_tst(tmp_path), argv, only={3, 5})
    assert outcomes(result) == {3: "PASS", 5: "FAIL"}
    sent = [s for s in log.read_text().splitlines() if not s.startswith(("cwd", "reset", "get"))]
    assert [s.split(" ", 1)[0] for s in sent] == [
        "name",
        "version",
        "loadsgf",
        "trymove",
        "3",
        "popgo",
        "5",
        "quit",
    ]


def test_nodes_none_without_counters(tmp_path):
    argv, log = fake_engine(tmp_path, counters=False)
    result = run_file(write_tst(tmp_path), argv, only={1})
    assert result["tests"][0]["nodes"] is None and result["totals"]["nodes"] is None
    assert log.read_text().count("reading_node_counter") == 1  # asked once, then not again


def test_run_two_files_totals(tmp_path):
    argv, _ = fake_engine(tmp_path)
    first = write_tst(tmp_path)
    (tmp_path / "b").mkdir()
    second = tmp_path / "b" / "t.tst"
    second.write_text("1 attack A1\n#? [1 B1]\n")
    report = regress.run([first, second], {"fake": argv})
    e = report["engines"]["fake"]
    assert list(e["files"]) == [str(first), str(second)]
    assert e["files"][str(second)]["pass"] == 1 and e["totals"]["pass"] == 3
    assert e["totals"]["tests"] == 8 and report["time_ratio"] is None


def test_engine_dying_fails_the_rest(tmp_path):
    argv, _ = fake_engine(tmp_path, die_on="attack A4")
    result = run_file(write_tst(tmp_path), argv)
    out = outcomes(result)
    assert out[1] == "pass" and out[4] == out[5] == out[7] == "FAIL"
    assert result["tests"][3]["answer"] is None
    died = result["setup_errors"][-1]
    assert died["command"] == "attack A4" and died["line"] == 12
    assert "exited with status 3" in died["answer"]


def test_engine_cannot_start(tmp_path):
    with pytest.raises(regress.EngineError):
        run_file(write_tst(tmp_path), [str(tmp_path / "no-such-engine")])
    with pytest.raises(regress.EngineError, match="cannot start"):
        run_file(write_tst(tmp_path), [sys.executable, "-c", "import sys; sys.exit(5)"])


def test_cli_side_by_side(tmp_path, monkeypatch, capsys):
    gogame, _ = fake_engine(tmp_path)
    other_dir = tmp_path / "other"
    other_dir.mkdir()
    everything_right = {k: v for k, v in REPLIES.items() if k in ("attack A1", "attack A4")}
    other, _ = fake_engine(other_dir, replies={**everything_right, "attack A2": "1 A1"})
    monkeypatch.setattr(regress, "GOGAME_CMD", gogame)
    path = str(write_tst(tmp_path))
    engine = " ".join(other)

    assert cli.main(["regress", path, "--engine", engine, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert list(report["engines"]) == ["gogame", engine]
    e0, e1 = report["engines"].values()
    assert e0["totals"]["FAIL"] == 3 and e1["totals"]["FAIL"] == 2  # A5, A7
    assert report["time_ratio"] > 0 and report["unexpected"] == 3 + 1 + 2 + 0
    assert {
        "file",
        "number",
        "command",
        "answer",
        "expected",
        "outcome",
        "nodes",
        "seconds",
    } <= set(e0["tests"][0])

    assert cli.main(["regress", path, "--engine", engine, "--only", "1,4"]) == 0
    text = capsys.readouterr().out
    assert "per-test time ratio" in text and "unexpected" not in text

    assert cli.main(["regress", path]) == 1
    text = capsys.readouterr().out
    assert "FAIL gogame t.tst 5 attack A5" in text.split("unexpected:")[1]


def test_cli_errors(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(regress, "GOGAME_CMD", [str(tmp_path / "no-such-engine")])
    assert cli.main(["regress", str(tmp_path / "missing.tst")]) == 2
    missing = tmp_path / "missing.tst"
    assert capsys.readouterr().err.strip() == f"gogame regress: no such file: {missing}"
    assert cli.main(["regress", str(write_tst(tmp_path))]) == 2
    err = capsys.readouterr().err
    assert err.startswith("gogame regress: cannot start") and err.count("\n") == 1
    assert cli.main(["regress", str(write_tst(tmp_path)), "--only", "1,x"]) == 2


@needs_gnugo
def test_gnugo_reading_tst(reading_tst):
    """notes/gnugo.md: 234 tests, 193 pass, 41 known failures, 0 unexpected."""
    result = run_file(reading_tst, f"{GNUGO} --mode gtp")
    t = result["totals"]
    assert (t["tests"], t["pass"], t["fail"], t["PASS"], t["FAIL"]) == (234, 193, 41, 0, 0)
    assert result["name"] == "GNU Go" and not result["setup_errors"]
    assert t["nodes"] > 50_000


# ------------------------------------------------------------------ --prove
# D4 (white) has two liberties, D3 and E4; the test file's trymove B E4
# leaves it one, D3; whether White saves it by D3 is not settled within the
# test's 2,000 nodes.
NEAR_ATARI = """
    . . . . . . .
    . O . . . . .
    . . . X . . .
    . . X O . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""
# The white string B5-D5, A4-E4 has three one-point eyes: pass-alive.
ALIVE = """
    . O . O .
    O O O O O
    . . . . .
    . . . . .
    . . . . .
"""
PROVE_TST = textwrap.dedent("""\
    loadsgf near.sgf
    trymove B E4
    1 attack D4
    #? [1 D3]
    2 attack D4
    #? [0]
    3 ladder_attack D4
    #? [1 D3]
    4 defend D4
    #? [1 D3]
    popgo
    loadsgf alive.sgf
    5 attack B5
    #? [1 C5]
    6 defend B5
    #? [1 PASS]
    7 attack C3
    #? [0]
    8 attack D4
    #? [.*]&
""")


def write_prove_tst(tmp_path):
    from tests.helpers.diagrams import sgf_record

    folder = tmp_path / "prove"
    folder.mkdir()
    (folder / "near.sgf").write_text(sgf_record(NEAR_ATARI))
    (folder / "alive.sgf").write_text(sgf_record(ALIVE))
    path = folder / "p.tst"
    path.write_text(PROVE_TST)
    return path


@pytest.mark.parametrize(
    "expected, codes",
    [
        ("[1 D3]", {1}),
        ("[0]*", {0}),
        ("[1 (A2|C2|C1)]", {1}),
        ("[(2|3) (B4|C4)]", {2, 3}),
        ("[3|R3|R2]", {3}),
        ("[2 PASS]*", {2}),
        ("[!0]", {1, 2, 3}),
        ("[!1 A1]", None),  # a negated move: no code set to read
        ("[.*]", None),
        ("[1]&", None),
        (None, None),
    ],
)
def test_expected_codes(expected, codes):
    got = regress.expected_codes(expected)
    assert (None if got is None else set(got)) == codes


@pytest.mark.parametrize(
    "question, expected, status, code, verdict",
    [
        ("attack", "[1 D3]", "proven", 1, "agrees"),
        ("attack", "[1 D3]", "proven", 2, "agrees"),  # code 1 is not ruled out
        ("attack", "[3 D3]", "proven", 2, "contradicts"),  # a weaker code than proven
        ("attack", "[0]", "proven", 1, "contradicts"),
        ("attack", "[1 D3]", "proven", 0, "contradicts"),  # pass-alive: no move captures
        ("attack", "[(2|3) D3]", "proven", 2, "agrees"),
        ("defend", "[1 D3]", "proven", 0, "contradicts"),
        ("defend", "[0]", "proven", 1, "contradicts"),
        ("defend", "[2 D3]", "proven", 1, "contradicts"),
        ("defend", "[0]", "proven", 0, "agrees"),
        ("attack", "[0]", "unknown", None, "unknown"),
        ("attack", "[.*]&", "proven", 1, "unjudged"),
    ],
)
def test_verdict(question, expected, status, code, verdict):
    assert regress.verdict(question, expected, status, code) == verdict


def test_prove_file_proves_and_finds_contradictions(tmp_path):
    path = write_prove_tst(tmp_path)
    result = regress.prove_file(path, prove_nodes=2000)
    tests = {r["number"]: r for r in result["tests"]}
    assert sorted(tests) == [1, 2, 4, 5, 6, 7, 8]  # 3 is no attack/defend test
    assert (tests[1]["answer"], tests[1]["verdict"], tests[1]["matches"]) == (
        "1 D3",
        "agrees",
        True,
    )
    assert tests[1]["line"][0] == "D3" and tests[1]["move"] == "D3"
    assert (tests[2]["answer"], tests[2]["verdict"]) == ("1 D3", "contradicts")
    assert (tests[4]["status"], tests[4]["verdict"], tests[4]["matches"]) == (
        "unknown",
        "unknown",
        None,
    )
    assert (tests[5]["answer"], tests[5]["verdict"]) == ("0", "contradicts")
    assert (tests[6]["answer"], tests[6]["verdict"]) == ("1 PASS", "agrees")
    assert tests[7]["status"] == "error" and tests[7]["answer"] == "vertex must not be empty"
    assert tests[8]["answer"] == "0" and tests[8]["verdict"] == "unjudged"  # "&": not judged
    t = result["totals"]
    assert (t["tests"], t["skipped"], t["questions"]) == (8, 1, 7)
    assert t["proven"] == {"attack": 4, "defend": 1, "all": 5}
    assert t["codes"] == {"attack": {"0": 2, "1": 2}, "defend": {"1": 1}}
    assert (t["unknown"], t["budget_spent"], t["errors"]) == (1, tests[4]["nodes"] >= 2000, 1)
    assert (t["agrees"], t["contradicts"], t["unjudged"], t["matches"]) == (2, 2, 1, 2)
    assert [c["number"] for c in t["contradictions"]] == [2, 5]
    assert t["nodes"] == sum(r["nodes"] for r in result["tests"]) and not result["setup_errors"]


# White's E5 (two liberties) in a ladder with no breaker: E4 or F5 takes it.
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


def test_an_unknown_attack_is_proven_by_a_named_capture(tmp_path, monkeypatch):
    """With the prover's own search made to find nothing, the capture the
    file's answer and the reader name is proven by playing it; against the
    file's 0 the reader's proven capture is a contradiction."""
    from gogame.core.prover import ProofResult, Prover
    from tests.helpers.diagrams import sgf_record

    (tmp_path / "ladder.sgf").write_text(sgf_record(LADDER))
    tst = tmp_path / "l.tst"
    tst.write_text("loadsgf ladder.sgf\n1 attack E5\n#? [1 (E4|F5)]\n2 attack E5\n#? [0]\n")
    blind = lambda self, position, vertex, max_nodes=None: ProofResult("unknown", nodes=7)  # noqa: E731
    monkeypatch.setattr(Prover, "attack", blind)
    first, second = regress.prove_file(tst, prove_nodes=100_000)["tests"]
    assert (first["status"], first["code"], first["via"], first["verdict"]) == (
        "proven",
        1,
        "move",
        "agrees",
    )
    assert first["move"] in ("E4", "F5") and first["line"] == [first["move"]]
    assert first["nodes"] > 7 and first["matches"]
    assert (second["status"], second["verdict"]) == ("proven", "contradicts")


def test_prove_totals_count_spent_budgets():
    def record(status, nodes):
        return {"status": status, "question": "attack", "code": None, "verdict": "unknown"} | {
            "nodes": nodes,
            "seconds": 0.5,
            "matches": None,
        }

    tests = [record("unknown", 100), record("unknown", 500), record("error", 0)]
    t = regress.prove_totals(tests, skipped=2, wall_seconds=3.0, budget=500)
    assert (t["tests"], t["questions"], t["unknown"], t["budget_spent"], t["errors"]) == (
        5,
        3,
        2,
        1,
        1,
    )
    assert t["nodes"] == 600 and t["seconds"] == 1.5 and t["wall_seconds"] == 3.0


def test_cli_prove(tmp_path, capsys):
    path = str(write_prove_tst(tmp_path))
    args = ["regress", path, "--prove", "--prove-nodes", "2000"]
    assert cli.main([*args, "--json"]) == 1  # contradictions
    report = json.loads(capsys.readouterr().out)
    assert report["prove_nodes"] == 2000 and list(report["files"]) == [path]
    assert [c["number"] for c in report["totals"]["contradictions"]] == [2, 5]
    assert cli.main([*args, "--only", "1,6"]) == 0  # no contradiction, no error
    text = capsys.readouterr().out
    assert "2 questions (0 other tests skipped): 2 proven (1 attack, 1 defend)" in text
    assert "contradictions:" not in text
    assert cli.main(args) == 1
    text = capsys.readouterr().out
    assert "p.tst 5 attack B5: expected [1 C5], proven 0" in text.split("contradictions:")[1]


def test_cli_prove_errors(tmp_path, capsys):
    missing = tmp_path / "missing.tst"
    assert cli.main(["regress", str(missing), "--prove"]) == 2
    assert capsys.readouterr().err == f"gogame regress: no such file: {missing}\n"
    path = str(write_prove_tst(tmp_path))
    for extra in (["--engine", "gnugo"], ["--threads", "2"]):
        assert cli.main(["regress", path, "--prove", *extra]) == 2
        assert capsys.readouterr().err.count("\n") == 1
    assert cli.main(["regress", path, "--prove-nodes", "10"]) == 2  # without --prove
    assert capsys.readouterr().err == "gogame regress: --prove-nodes needs --prove\n"
    for bad in ("0", "x", "1e9", str(10**9 + 1)):
        with pytest.raises(SystemExit) as e:
            cli.main(["regress", path, "--prove", "--prove-nodes", bad])
        assert e.value.code == 2
        last = capsys.readouterr().err.strip().splitlines()[-1]
        assert last.startswith("gogame regress: error: argument --prove-nodes: prove nodes must")


@pytest.mark.slow
def test_reading_tst_through_the_prover(reading_tst):
    """docs/prover.md: test 198 (attack L5, the file says 0) is proven 2 M8."""
    result = regress.prove_file(reading_tst)
    t = result["totals"]
    assert t["questions"] == 234 and t["errors"] == 0 and not result["setup_errors"]
    assert [c["number"] for c in t["contradictions"]] == [198]
    r198 = next(r for r in result["tests"] if r["number"] == 198)
    # the line's replies are the hardest ones read, which the order of the
    # defender's moves decides; the proof's move is M8
    assert (r198["answer"], r198["line"][0]) == ("2 M8", "M8") and len(r198["line"]) > 2
    assert t["proven"]["all"] >= 65


def test_a_named_ko_capture_keeps_its_code(tmp_path, monkeypatch):
    """A named capture proven under a ko model is recorded with its code."""
    from gogame.core.prover import ProofResult, Prover
    from gogame.tools import mine
    from tests.helpers.diagrams import sgf_record

    (tmp_path / "ladder.sgf").write_text(sgf_record(LADDER))
    tst = tmp_path / "l.tst"
    tst.write_text("loadsgf ladder.sgf\n1 attack E5\n#? [2 E4]\n")
    blind = lambda self, position, vertex, max_nodes=None: ProofResult("unknown", nodes=7)  # noqa: E731
    monkeypatch.setattr(Prover, "attack", blind)
    proof = {"status": "proven", "code": 2, "move": "E4", "via": "move", "nodes": 30}
    monkeypatch.setattr(mine, "prove_named_capture", lambda *a: proof)
    (only,) = regress.prove_file(tst, prove_nodes=1000)["tests"]
    got = (only["answer"], only["code"], only["nodes"], only["verdict"])
    assert got == ("2 E4", 2, 37, "agrees")
