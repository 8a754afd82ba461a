"""Replay through the kernel: real games with hash checking, and bad input."""
import csv
import json
import subprocess
import sys

import numpy as np
import pytest

from conftest import project_games, shared_path
from gogame.position import Position
from gogame.replay import _play_batch, replay_game, replay_games


def test_project_corpus_exists_across_sizes():
    sizes = {replay_game(p)["size"] for p in project_games()}
    assert len(project_games()) >= 6
    assert {9, 13, 19} <= sizes


@pytest.mark.parametrize("path", project_games(), ids=lambda p: p.name)
def test_project_games_replay_with_zero_mismatches(path):
    g = replay_game(path, check_hashing=True)
    assert g["error"] is None
    assert g["mismatches"] == 0
    assert g["moves"] > 0


def test_shared_games_replay_every_move_with_zero_mismatches():
    folder = shared_path("sgf", "gnugo-games")
    with open(folder / "MANIFEST.tsv") as f:
        expected = {row["file"]: int(row["moves"]) for row in csv.DictReader(f, delimiter="\t")}
    report = replay_games(sorted(folder.glob("*.sgf")), check_hashing=True)
    assert report["total"]["games"] == len(expected)
    for g in report["games"]:
        name = g["file"].rsplit("/", 1)[-1]
        assert g["error"] is None, g["error"]
        assert g["mismatches"] == 0
        assert g["moves"] == expected[name]


def test_regression_positions_with_setup_stones_replay_cleanly():
    folder = shared_path("regress", "gnugo")
    report = replay_games(sorted(folder.rglob("*.sgf")), check_hashing=True)
    assert report["total"]["errors"] == 0
    assert report["total"]["mismatches"] == 0


def test_a_corrupted_word_is_counted_resynchronised_and_the_rest_checked():
    pos = Position(9, check_hashing=True)
    pos.hw[1] ^= np.uint64(1 << 40)
    moves = np.array([pos.pos(v) for v in ("E5", "C3", "G7")], np.int32)
    out = {"mismatches": 0, "mismatch_moves": []}
    _play_batch(pos, (moves, np.array([1, 2, 1], np.int32), [1, 2, 3]), out)
    assert out == {"mismatches": 1, "mismatch_moves": [1]}
    assert len(pos.moves()) == 3
    assert pos.hash == pos.recompute_hash()


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    return path


def test_bad_files_are_named_and_the_others_still_replayed(tmp_path):
    good = write(tmp_path, "good.sgf", "(;SZ[9];B[ee];W[cc];B[gg])")
    illegal = write(tmp_path, "illegal.sgf", "(;SZ[9];B[ee];W[cc];B[ee])")
    huge = write(tmp_path, "big.sgf", "(;SZ[26];B[aa])")
    corrupt = write(tmp_path, "corrupt.sgf", b"\x00(;SZ[9];B[e")
    missing = tmp_path / "missing.sgf"
    report = replay_games([good, illegal, huge, corrupt, missing], check_hashing=True)
    by_name = {g["file"].rsplit("/", 1)[-1]: g for g in report["games"]}
    assert by_name["good.sgf"]["error"] is None and by_name["good.sgf"]["moves"] == 3
    assert "move 3" in by_name["illegal.sgf"]["error"]
    assert "illegal.sgf" in by_name["illegal.sgf"]["error"]
    assert by_name["illegal.sgf"]["moves"] == 2
    assert "size 26" in by_name["big.sgf"]["error"]
    assert "corrupt.sgf" in by_name["corrupt.sgf"]["error"]
    assert "missing.sgf" in by_name["missing.sgf"]["error"]
    assert report["total"]["errors"] == 4


def test_setup_passes_and_handicap_are_replayed(tmp_path):
    path = write(tmp_path, "h.sgf", "(;SZ[13]HA[2]AB[dd][jj];W[dj];B[];W[jd];AE[dd]AW[gg];B[gh])")
    g = replay_game(path, check_hashing=True)
    assert g["error"] is None and g["moves"] == 4 and g["mismatches"] == 0


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "gogame", *args],
                          capture_output=True, text=True)


def test_cli_json_has_the_documented_keys_and_exit_status(tmp_path):
    good = write(tmp_path, "good.sgf", "(;SZ[9];B[ee];W[cc])")
    res = run_cli("replay", "--check-hashing", "--json", str(good))
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    assert {"file", "moves", "mismatches", "seconds", "hash"} <= set(data["games"][0])
    assert {"games", "moves", "mismatches", "seconds"} <= set(data["total"])
    assert data["total"]["moves"] == 2
    bad = write(tmp_path, "bad.sgf", "(;SZ[9];B[ee];W[ee])")
    res = run_cli("replay", str(good), str(bad))
    assert res.returncode == 1
    assert "bad.sgf: move 2: illegal move W E5" in res.stderr
    assert "good.sgf" in res.stdout


def test_cli_version_and_bad_options():
    res = run_cli("--version")
    assert res.returncode == 0 and res.stdout.startswith("gogame ")
    res = run_cli("replay")
    assert res.returncode == 2
