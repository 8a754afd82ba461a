"""scripts/dev_set.py, the development-set judge: on a folder of three
problems taken from the committed corpus (two proven, one not), it asks
every problem, counts the proven answers the proofs allow, and lists a
code that changed against a saved run."""

import gzip
import json
import os
import shutil

import pytest

import gogame
from gogame.tools.mine import GNUGO
from tests.helpers.paths import ROOT, load_script

dev_set = load_script("dev_set")

CORPUS = ROOT / "tests" / "data" / "problems"


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """Two proven problems (an attack and a defence) and an unproven one."""
    index = json.loads((CORPUS / "index.json").read_text())

    def first(question, status):
        return next(
            e for e in index if e["question"] == question and e["proven"]["status"] == status
        )

    chosen = [first("attack", "proven"), first("defend", "proven"), first("attack", "unknown")]
    out = tmp_path_factory.mktemp("dev")
    for e in chosen:
        shutil.copy(CORPUS / e["file"], out / e["file"])
    (out / "index.json").write_text(json.dumps(chosen))
    return out, chosen


def test_it_asks_every_problem_and_judges_the_proven_ones(folder):
    path, chosen = folder
    total, answers, _ = dev_set.judge_folder(str(path))
    assert total["problems"] == 3 and total["proven"] == 2
    assert set(answers) == {e["file"] for e in chosen}
    allowed = sum(
        dev_set.consistent(e["question"], e["proven"]["code"], answers[e["file"]][0])
        for e in chosen[:2]
    )
    assert total["allowed"] == allowed and len(total["wrong"]) == 2 - allowed
    assert total["nodes"] == sum(a[2] for a in answers.values()) > 0
    assert total["nodes_proven"] == answers[chosen[0]["file"]][2] + answers[chosen[1]["file"]][2]


def test_a_changed_code_is_listed(folder):
    path, chosen = folder
    _, answers, index = dev_set.judge_folder(str(path))
    before = {f: list(a) for f, a in answers.items()}
    assert dev_set.changes(index, answers, before) == []
    moved = chosen[2]["file"]
    before[moved][0] = 3 - answers[moved][0] if answers[moved][0] in (0, 3) else 0
    lines = dev_set.changes(index, answers, before)
    assert len(lines) == 1 and moved in lines[0] and "proof ?" in lines[0]


def test_the_command_line_saves_and_compares(folder, tmp_path, capsys):
    path, _ = folder
    saved = tmp_path / "answers.json"
    assert dev_set.main([str(path), "--save", str(saved)]) == 0
    assert dev_set.main([str(path), "--against", str(saved)]) == 0
    captured = capsys.readouterr()
    out = captured.out.splitlines()
    assert len(out) == 2 and all('"proven": 2' in line for line in out)
    # stderr names the package judged, once a run
    root = os.path.dirname(os.path.dirname(gogame.__file__))
    assert captured.err.splitlines() == [f"dev_set: the reader of {root}"] * 2
    assert json.loads(saved.read_text())[path.name].keys() == {
        json.loads((path / "index.json").read_text())[i]["file"] for i in range(3)
    }


def test_without_a_cache_the_answers_are_the_same(folder, tmp_path, capsys):
    """``--cache-mb 0`` reads every problem without a cache; against a run
    saved with the cache no code is listed, and the reads take more nodes
    or as many (no transposition is shared)."""
    path, _ = folder
    cached, answers, _ = dev_set.judge_folder(str(path))
    bare, bare_answers, _ = dev_set.judge_folder(str(path), cache_mb=0.0)
    assert {f: a[0] for f, a in bare_answers.items()} == {f: a[0] for f, a in answers.items()}
    assert bare["nodes"] >= cached["nodes"]
    saved = tmp_path / "cached.json"
    assert dev_set.main([str(path), "--save", str(saved)]) == 0
    capsys.readouterr()
    assert dev_set.main([str(path), "--cache-mb", "0", "--against", str(saved)]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 1  # the summary, no changed code


@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go is not installed")
def test_gnu_go_is_asked_every_problem(folder):
    path, chosen = folder
    total, _, index = dev_set.judge_folder(str(path))
    dev_set.gnugo_folder(str(path), index, total)
    assert total["gnugo_nodes"] > 0
    recorded = sum(
        dev_set.consistent(e["question"], e["proven"]["code"], e["gnugo"]["code"])
        for e in chosen[:2]
    )
    assert total["gnugo_allowed"] == recorded


@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go is not installed")
def test_gnu_go_answers_are_saved_beside_gogames(folder, tmp_path, capsys):
    """With ``--gnugo --save`` GNU Go's answers are kept per problem under
    ``NAME (GNU Go)``, their nodes adding up to the summary's."""
    path, chosen = folder
    saved = tmp_path / "answers.json"
    assert dev_set.main([str(path), "--gnugo", "--save", str(saved)]) == 0
    total = json.loads(capsys.readouterr().out.split(": ", 1)[1])
    gnugo = json.loads(saved.read_text())[f"{path.name} (GNU Go)"]
    assert set(gnugo) == {e["file"] for e in chosen}
    assert sum(a[2] for a in gnugo.values()) == total["gnugo_nodes"] > 0
    assert all(a[0] in (0, 1, 2, 3) and (a[0] or a[1] is None) for a in gnugo.values())


@pytest.mark.skipif(not os.access(GNUGO, os.X_OK), reason="GNU Go is not installed")
def test_gnu_go_reads_a_repeated_problem_again(folder, tmp_path):
    """GNU Go starts every problem with empty caches, as gogame does: the
    same problem under two names costs it twice the nodes of one (its
    persistent reading cache would answer the second at no node)."""
    path, chosen = folder
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir()
    two.mkdir()
    entry = chosen[0]
    shutil.copy(path / entry["file"], one / entry["file"])
    shutil.copy(path / entry["file"], two / entry["file"])
    shutil.copy(path / entry["file"], two / ("again-" + entry["file"]))
    twice = [entry, dict(entry, file="again-" + entry["file"])]
    single = dev_set.gnugo_folder(str(one), [entry], {})
    double = dev_set.gnugo_folder(str(two), twice, {})
    assert single["gnugo_nodes"] > 0
    assert double["gnugo_nodes"] == 2 * single["gnugo_nodes"]


# ------------------------------------------------------ committed sets (@NAME)
DEVSETS = ROOT / "tests" / "data" / "devsets"


def test_a_committed_set_is_rebuilt_and_judged_by_its_name(folder, tmp_path, monkeypatch, capsys):
    """``@NAME`` reads ``DEVSETS/NAME.json.gz`` (an index, no SGF),
    rebuilds its problems from their games and judges them as the folder
    they were mined into: the same answers, under the set's name."""
    path, chosen = folder
    sets = tmp_path / "sets"
    sets.mkdir()
    with gzip.open(sets / "tiny.json.gz", "wt") as f:
        json.dump(chosen, f)
    monkeypatch.setattr(dev_set, "DEVSETS", str(sets))
    saved = tmp_path / "answers.json"
    assert dev_set.main(["@tiny", "--save", str(saved)]) == 0
    assert capsys.readouterr().out.startswith('tiny: {"problems": 3, "proven": 2')
    _, answers, _ = dev_set.judge_folder(str(path))
    assert json.loads(saved.read_text()) == {"tiny": answers}
    with pytest.raises(SystemExit, match=r"^dev_set: no set @none \(there are: tiny\)$"):
        dev_set.main(["@none"])
    lost = dict(chosen[0], source=dict(chosen[0]["source"], game="sgf/none.sgf"))
    with gzip.open(sets / "lost.json.gz", "wt") as f:
        json.dump([lost], f)
    with pytest.raises(SystemExit, match=r"^dev_set: cannot rebuild @lost: .*none\.sgf") as e:
        dev_set.main(["@lost"])
    assert "\n" not in str(e.value)


def test_all_names_the_corpus_and_every_committed_set(tmp_path, monkeypatch):
    """``@all`` stands for the corpus and each set of ``DEVSETS`` by name,
    in order; the other arguments stay as given, where given."""
    for name in ("b-set", "a-set"):
        (tmp_path / f"{name}.json.gz").write_bytes(b"")
    (tmp_path / "notes.txt").write_text("not a set")
    monkeypatch.setattr(dev_set, "DEVSETS", str(tmp_path))
    assert dev_set.expand_all(["x", "@all", "@b-set"]) == [
        "x",
        dev_set.CORPUS,
        "@a-set",
        "@b-set",
        "@b-set",
    ]
    assert dev_set.expand_all(["@tournament"]) == ["@tournament"]


@pytest.mark.parametrize("name", sorted(p.name.split(".")[0] for p in DEVSETS.glob("*.json.gz")))
def test_each_committed_set_rebuilds_from_its_games(name, tmp_path):
    """Every committed set is a well-formed index whose games are in the
    repository (or ../shared, else skipped), and its first problems rebuild
    into SGFs that ask its questions."""
    with gzip.open(DEVSETS / f"{name}.json.gz", "rt") as f:
        index = json.load(f)
    assert len(index) > 100 and len({e["file"] for e in index}) == len(index)
    games = {e["source"]["game"] for e in index}
    if any(g.startswith("../shared/") for g in games) and not (ROOT.parent / "shared").exists():
        pytest.skip("../shared not present")
    assert all((ROOT / g).is_file() for g in games)
    head = index[:20]
    folder = dev_set.devset_folder(f"@{name}", str(tmp_path))
    for e in head:
        text = (tmp_path / name / e["file"]).read_text()
        assert f"C[{e['question']} {e['vertex']}]" in text
    assert folder == str(tmp_path / name)


# White's D4 in atari (its one liberty D3); extending there joins D2 and
# C2, with six liberties.
IN_ATARI = """
. . . . . . .
. . . . . . .
. . . X . . .
. . X O X . .
. . . . . . .
. . O O . . .
. . . . . . .
"""


def test_a_move_is_judged_by_the_prover():
    """``move_verdict``: the capture at D3 holds; a capture or a defence
    claimed at A1 is refuted (after it the other side's success is
    proven); the position is left as it was."""
    from gogame.core.prover import Prover
    from tests.helpers import diagrams

    p = diagrams.position(IN_ATARI)
    before = (p.stackp, p.hash)
    prover = Prover(max_nodes=20_000)
    attack = {"question": "attack", "vertex": "D4"}
    defend = {"question": "defend", "vertex": "D4"}
    assert dev_set.move_verdict(prover, p, attack, 1, "D3") == "holds"
    assert dev_set.move_verdict(prover, p, attack, 1, "A1") == "refuted"
    assert dev_set.move_verdict(prover, p, defend, 1, "A1") == "refuted"
    assert dev_set.move_verdict(prover, p, defend, 1, "PASS") == "unknown"
    assert (p.stackp, p.hash) == before


def test_changed_answers_name_the_verdict_on_their_move(folder, tmp_path, capsys):
    """``--check-moves N`` adds the prover's word to each changed code
    that names a move; without ``--against`` it is refused."""
    path, chosen = folder
    _, answers, _ = dev_set.judge_folder(str(path))
    named = next(e["file"] for e in chosen if answers[e["file"]][0] and answers[e["file"]][1])
    before = {f: list(a) for f, a in answers.items()}
    before[named][0] = 0
    saved = tmp_path / "before.json"
    saved.write_text(json.dumps({path.name: before}))
    assert dev_set.main([str(path), "--against", str(saved), "--check-moves", "20000"]) == 0
    (line,) = capsys.readouterr().out.splitlines()[1:]
    move = answers[named][1]
    assert named in line and line.rsplit("; ", 1)[1] in {
        f"{move} holds",
        f"{move} refuted",
        f"{move} unknown",
    }
    with pytest.raises(SystemExit) as e:
        dev_set.main([str(path), "--check-moves", "100"])
    assert e.value.code == 2


def test_an_unreadable_saved_run_is_a_one_line_error(folder, tmp_path):
    path, _ = folder
    for bad in (tmp_path / "missing.json", tmp_path / "broken.json"):
        if bad.name == "broken.json":
            bad.write_text("{not json")
        with pytest.raises(SystemExit, match=rf"^dev_set: cannot read {bad}: ") as e:
            dev_set.main([str(path), "--against", str(bad)])
        assert "\n" not in str(e.value)
