"""scripts/tst_positions.py: the positions of a .tst file's ``loadsgf``
lines written as problem records (the same stones, colour to move and ko
point as the game played to that move), each once, the excluded file's
paths left out, a missing game reported with exit status 1."""

import shutil

from gogame.core.position import Position
from gogame.core.sgfio import apply_game, load_game
from tests.helpers.paths import ROOT, load_script

tst_positions = load_script("tst_positions")

GAME = ROOT / "sgf" / "gnugo-l1-9x9-s101.sgf"
OTHER = ROOT / "sgf" / "gnugo-l1-9x9-s102.sgf"


def position_of(path, move):
    game = load_game(path)
    pos = Position(game.size)
    to_move = apply_game(game, pos, move if move else None)
    return pos.stones(), pos.ko, to_move


def setup(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    shutil.copy(GAME, games / "a.sgf")
    shutil.copy(OTHER, games / "b.sgf")
    (tmp_path / "dev.tst").write_text(
        "loadsgf games/a.sgf 20\n1 attack C3\n#? [0]\n"
        "loadsgf games/a.sgf 20\n2 defend C3\n"  # the same position: once
        "loadsgf games/a.sgf\n"  # the whole game
        "# loadsgf games/gone.sgf (a comment)\n"
        "loadsgf games/b.sgf 11\n"
    )
    (tmp_path / "test.tst").write_text("loadsgf games/b.sgf 30\n")  # excludes b.sgf
    return tmp_path


def test_each_position_is_written_once_as_the_game_reaches_it(tmp_path, capsys):
    folder = setup(tmp_path)
    out = tmp_path / "out"
    argv = [str(folder / "dev.tst"), "--out", str(out), "--exclude", str(folder / "test.tst")]
    assert tst_positions.main(argv) == 0
    assert sorted(p.name for p in out.iterdir()) == ["games__a-m0.sgf", "games__a-m20.sgf"]
    for name, move in (("games__a-m20.sgf", 20), ("games__a-m0.sgf", 0)):
        record = load_game(out / name)
        assert not record.moves
        pos = Position(record.size)
        to_move = apply_game(record, pos)
        assert (pos.stones(), pos.ko, to_move) == position_of(GAME, move)
    assert "2 positions written" in capsys.readouterr().out


def test_without_exclusion_the_other_game_comes_too(tmp_path):
    folder = setup(tmp_path)
    out = tmp_path / "out"
    assert tst_positions.main([str(folder / "dev.tst"), "--out", str(out)]) == 0
    record = load_game(out / "games__b-m11.sgf")
    pos = Position(record.size)
    to_move = apply_game(record, pos)
    assert (pos.stones(), pos.ko, to_move) == position_of(OTHER, 11)


def test_a_missing_game_is_named_and_the_others_written(tmp_path, capsys):
    folder = setup(tmp_path)
    (folder / "dev.tst").write_text("loadsgf games/gone.sgf 5\nloadsgf games/a.sgf 7\n")
    out = tmp_path / "out"
    assert tst_positions.main([str(folder / "dev.tst"), "--out", str(out)]) == 1
    assert [p.name for p in out.iterdir()] == ["games__a-m7.sgf"]
    err = capsys.readouterr().err
    assert "skipped" in err and "gone.sgf" in err
