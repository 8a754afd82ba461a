"""GTP commands for playing (gogame.gtp.play), in process with the real engine:
genmove's tactics and eyes, handicap, time, undo, play sequences, scoring
(against GNU Go's where it is installed), printsgf round trips and an
unchanged position after every error.  Positions are ASCII diagrams
(tests/helpers/diagrams.py): X black, O white, top row first."""

import os
import subprocess

import pytest

from gogame.gtp.engine import GtpEngine
from gogame.play.session import Engine
from tests.helpers.gnugo import GNUGO, needs_gnugo
from tests.helpers.gtp import SECONDS, fails, ok, setup_board, state
from tests.helpers.paths import ROOT, project_games


# --------------------------------------------------------------- genmove
def test_genmove_captures_a_string_in_atari():
    e = setup_board("""
        . . . . . . . . .
        . . . . . . . . .
        . . X X X . . . .
        . X O O O . . . .
        . . X X X . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .""")
    assert ok(e, "genmove b") == "F6"
    assert ok(e, "color F6") == "black"
    assert ok(e, "color D6") == "empty"


def test_genmove_does_not_extend_a_string_that_cannot_be_saved():
    e = setup_board("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . O . . . . . .
        . O X O . . . . .
        . . . . . . . . .""")
    move = ok(e, "genmove b")
    assert move != "C1"
    assert ok(e, f"color {move}") == "black"


def test_genmove_passes_rather_than_fill_an_own_eye():
    e = setup_board("""
        . X O . O
        X X O O O
        . X O . O
        X X O O O
        . X O . O""")
    for color in ("b", "w"):
        assert ok(e, f"genmove {color}") == "PASS"
    assert ok(e, "color A3") == "empty" and ok(e, "color D3") == "empty"


def test_reg_genmove_leaves_the_position_and_genmove_plays():
    e = setup_board("\n".join([". " * 7] * 7))
    before = state(e)
    move = ok(e, "reg_genmove w")
    assert move not in ("PASS", "resign")
    assert state(e) == before
    move = ok(e, "genmove w")
    assert ok(e, f"color {move}") == "white"
    assert e.session.to_move == 1


def test_same_colour_twice_and_komi_survives_boardsize():
    e = GtpEngine(session=Engine(9))
    ok(e, "komi 6.5")
    ok(e, "boardsize 13")
    ok(e, "clear_board")
    assert ok(e, "get_komi").strip() == "6.5"
    ok(e, "play b D4")
    ok(e, "play b E4")
    assert ok(e, "color E4") == "black"


# ------------------------------------------------------------ handicap
@needs_gnugo
@pytest.mark.parametrize("size", [7, 9, 13, 19])
def test_fixed_handicap_as_gnugo_places_it(size):
    e = GtpEngine(session=Engine(size))
    script = (
        "".join(f"boardsize {size}\nclear_board\nfixed_handicap {n}\n" for n in range(2, 10))
        + "quit\n"
    )
    out = subprocess.run(
        [GNUGO, "--mode", "gtp"], input=script, capture_output=True, text=True, timeout=60
    ).stdout.split("\n\n")
    theirs = [a.strip() for a in out if a.strip().startswith(("=", "?")) and a.strip() != "="]
    ours = []
    for n in range(2, 10):
        ok(e, "clear_board")
        r = e.send(f"fixed_handicap {n}")
        ours.append(r.strip())
    norm = [" ".join(sorted(x[2:].split())) if x.startswith("=") else "?" for x in theirs]
    mine = [" ".join(sorted(x[2:].split())) if x.startswith("=") else "?" for x in ours]
    assert mine == norm


def test_handicap_errors_and_placement():
    e = GtpEngine(session=Engine(19))
    assert sorted(ok(e, "fixed_handicap 4").split()) == ["D16", "D4", "Q16", "Q4"]
    assert e.session.to_move == 2
    fails(e, "fixed_handicap 2", "board not empty")
    fails(e, "set_free_handicap A1 B1", "board not empty")
    fails(e, "undo", "cannot undo")
    ok(e, "clear_board")
    fails(e, "fixed_handicap 1", "invalid number of stones")
    fails(e, "fixed_handicap 10", "invalid number of stones")
    fails(e, "fixed_handicap x", "syntax error")
    fails(e, "set_free_handicap A1", "bad vertex list")
    fails(e, "set_free_handicap A1 A1", "bad vertex list")
    fails(e, "set_free_handicap A1 pass", "bad vertex list")
    fails(e, "set_free_handicap A1 Z99", "bad vertex list")
    placed = ok(e, "place_free_handicap 12").split()
    assert len(set(placed)) == 12
    assert all(ok(e, f"color {v}") == "black" for v in placed)
    ok(e, "clear_board")
    ok(e, "set_free_handicap A1 T19 K10")
    assert e.session.handicap == 3 and ok(e, "color T19") == "black"


# ------------------------------------------------------------ moves
def test_gg_undo_and_play_sequence_are_all_or_nothing():
    e = GtpEngine(session=Engine(9))
    ok(e, "gogui-play_sequence b D4 w E5 b pass w C3")
    assert e.session.to_move == 1
    fails(e, "gogui-play_sequence b F6 w F6", "illegal move")
    fails(e, "gogui-play_sequence b F6 w", "syntax error")
    fails(e, "gg-undo 5", "cannot undo")
    fails(e, "gg-undo x", "syntax error")
    ok(e, "gg-undo 2")
    assert ok(e, "color C3") == "empty" and ok(e, "color E5") == "white"
    ok(e, "gg-undo")
    assert ok(e, "color E5") == "empty" and e.session.to_move == 2


# -------------------------------------------------------------- time
def test_time_commands_check_their_arguments():
    e = GtpEngine(session=Engine(9))
    ok(e, "time_settings 300 30 5")
    ok(e, "time_left b 25 3")
    fails(e, "time_settings 300 30", "syntax error")
    fails(e, "time_settings a 30 5", "syntax error")
    fails(e, "time_left x 25 3", "syntax error")
    ok(e, "kgs-time_settings byoyomi 60 10 3")
    ok(e, "kgs-time_settings none")
    fails(e, "kgs-time_settings canadian 60", "syntax error")
    fails(e, "kgs-time_settings fischer 60 1", "syntax error")


# ----------------------------------------------------------- scoring
DEAD_STONE = """
    . X O . .
    O X O . .
    . X O O O
    X X O . .
    . X O . ."""


def test_final_score_and_status_of_a_dead_stone():
    e = setup_board(DEAD_STONE)
    assert ok(e, "final_status_list dead") == "A4"
    alive = ok(e, "final_status_list alive").split()
    assert "A4" not in alive and "B5" in alive and "C3" in alive
    assert ok(e, "final_status_list seki") == ""
    assert ok(e, "final_score") == "W+5"
    fails(e, "final_status_list living", "syntax error")


def test_final_score_counts_area_or_territory_by_the_rules():
    """Chinese (area): Black 10 points, White 15.  Japanese (territory and
    prisoners): Black A5 A3 A1 and the dead A4's point, plus A4 as a
    prisoner, 5; White 8.  After Black fills A3 and takes A4 at A5,
    the area is the same, but Black's territory has lost two points."""
    e = setup_board(DEAD_STONE)
    assert ok(e, "final_score") == "W+5"
    ok(e, "kgs-rules japanese")
    assert ok(e, "final_score") == "W+3"
    fails(e, "kgs-rules ing", "unknown rules")
    fails(e, "kgs-rules", "syntax error")
    ok(e, "play b A3")
    ok(e, "play w pass")
    ok(e, "play b A5")
    assert ok(e, "color A4") == "empty"
    assert ok(e, "final_score") == "W+5"
    ok(e, "gogame-param rules chinese")
    assert ok(e, "final_score") == "W+5"
    ok(e, "kgs-rules aga")
    assert "rules chinese" in ok(e, "gogame-param")
    ok(e, "clear_board")
    assert "rules chinese" in ok(e, "gogame-param")


def _margin(score):
    """``B+3.5`` -> 3.5, ``W+2`` -> -2.0, ``0`` -> 0."""
    return 0 if score == "0" else float(score[2:]) * (1 if score[0] == "B" else -1)


@pytest.mark.slow
@needs_gnugo
def test_final_score_agrees_with_gnugo_on_finished_games():
    games = [g for g in project_games() if "-9x9-" in g.name] + [
        g for g in project_games() if "-13x13-" in g.name
    ][:4]
    assert games
    for path in games:
        e = GtpEngine(session=Engine(9))
        ok(e, f"loadsgf {path}")
        ours = ok(e, "final_score")
        dead = set(ok(e, "final_status_list dead").split())
        out = subprocess.run(
            [GNUGO, "--mode", "gtp", "--chinese-rules"],
            input=f"loadsgf {path}\nfinal_score\nfinal_status_list dead\n",
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        answers = [a.strip()[2:] for a in out.split("\n\n") if a.strip()]
        theirs, their_dead = answers[1], set(answers[2].split())
        assert ours[0] == theirs[0], (path.name, ours, theirs)
        assert abs(_margin(ours) - _margin(theirs)) <= 2, (path.name, ours, theirs)
        assert dead == their_dead, path.name
        # territory counting against GNU Go's default (Japanese) rules
        ok(e, "kgs-rules japanese")
        ours = ok(e, "final_score")
        out = subprocess.run(
            [GNUGO, "--mode", "gtp"],
            input=f"loadsgf {path}\nfinal_score\n",
            capture_output=True,
            text=True,
            timeout=60,
        ).stdout
        theirs = [a.strip()[2:] for a in out.split("\n\n") if a.strip()][1]
        assert abs(_margin(ours) - _margin(theirs)) <= 2, (path.name, ours, theirs)


# ---------------------------------------------------------------- sgf
def test_printsgf_round_trip(tmp_path):
    e = GtpEngine(session=Engine(9))
    ok(e, "komi 5.5")
    ok(e, "fixed_handicap 2")
    for line in ("play w E5", "play b D5", "play w pass", "play b F5", "play b D6"):
        ok(e, line)
    path = tmp_path / "game.sgf"
    ok(e, f"printsgf {path}")
    text = ok(e, "printsgf")
    assert text.startswith("(;") and "HA[2]" in text and "KM[5.5]" in text
    assert path.read_bytes().decode().strip() == text
    fresh = GtpEngine(session=Engine(19))
    ok(fresh, f"loadsgf {path}")
    assert ok(fresh, "gogame-hash") == ok(e, "gogame-hash")
    assert fresh.session.to_move == e.session.to_move == 2
    assert ok(fresh, "get_komi").strip() == "5.5"
    assert not list(tmp_path.glob("*.tmp"))


def test_printsgf_records_a_ko_and_the_result_once_the_game_is_over(tmp_path):
    e = GtpEngine(session=Engine(5))
    for line in (
        "play b B3",
        "play w C3",
        "play b C4",
        "play w D4",
        "play b C2",
        "play w D2",
        "play b D3",
        "play w E3",
        "play w C3",
    ):
        ok(e, line)
    assert e.session.position.ko is not None
    path = tmp_path / "ko.sgf"
    ok(e, f"printsgf {path}")
    fresh = GtpEngine(session=Engine(9))
    ok(fresh, f"loadsgf {path}")
    assert ok(fresh, "gogame-hash") == ok(e, "gogame-hash")  # the ko point too
    # a score asked in mid-game is an estimate, not the game's result ...
    ok(e, "final_score")
    assert "RE[" not in ok(e, "printsgf")
    # ... the score once both players have passed is
    ok(e, "play b pass")
    ok(e, "play w pass")
    score = ok(e, "final_score")
    assert f"RE[{score}]" in ok(e, "printsgf")
    fails(e, f"printsgf {tmp_path}/missing/x.sgf", "cannot write file")


# -------------------------------------------------------------- errors
@pytest.mark.parametrize(
    "line, message",
    [
        ("genmove", "syntax error"),
        ("genmove x", "syntax error"),
        ("reg_genmove", "syntax error"),
        ("kgs-genmove_cleanup q", "syntax error"),
        ("final_status_list", "syntax error"),
        ("time_left b x 0", "syntax error"),
        ("gg-undo 1 2", "syntax error"),
        ("printsgf a b", "syntax error"),
        ("lz-analyze q", "syntax error"),
        ("kata-analyze b 10 ownership maybe", "syntax error"),
        ("gogame-param level", "syntax error"),
        ("gogame-param level x", "bad value for level"),
    ],
)
def test_errors_leave_the_game_as_it_was(line, message):
    e = GtpEngine(session=Engine(9))
    ok(e, "play b E5")
    ok(e, "play w D4")
    fails(e, line, message)


# ------------------------------------------------------------ analysis
def test_lz_analyze_without_input_gives_real_numbers():
    e = GtpEngine(session=Engine(9))
    e.session.clock.default = SECONDS
    ok(e, "play b E5")
    response = e.send("7 lz-analyze w 10")
    head, rest = response.split("\n", 1)
    assert head == "=7 " and response.endswith("\n\n")
    lines = [ln for ln in rest.split("\n") if ln]
    assert lines and all(ln.startswith("info move ") for ln in lines)
    fields = lines[-1].split(" info ")[0].split()
    visits = int(fields[fields.index("visits") + 1])
    winrate = int(fields[fields.index("winrate") + 1])
    assert visits > 0 and 0 <= winrate <= 10000


def test_kata_analyze_gives_win_rates_and_the_ownership_of_every_point():
    """KataGo's format: win rates 0..1 for the colour analysed, and with
    ``ownership true`` 81 values in [-1, 1] from the top-left (A9 first),
    for that colour: the walls split the board, Black's side (A9) counts
    for Black, White's (J1, the last value) for White."""
    e = setup_board(BORDER_GAP.replace(". . . . . . . . .", ". . . . X O . . ."))
    signs = {}
    for color in ("b", "w"):
        response = e.send(f"kata-analyze {color} 10 ownership true")
        lines = [ln for ln in response.split("\n")[1:] if ln]
        assert lines and all(ln.startswith("info move ") for ln in lines)
        last = lines[-1]
        fields = last.split(" info ")[0].split()
        assert 0.0 <= float(fields[fields.index("winrate") + 1]) <= 1.0
        values = [float(v) for v in last.split(" ownership ")[1].split()]
        assert len(values) == 81 and all(-1.0 <= v <= 1.0 for v in values)
        signs[color] = (values[0], values[80])
    assert signs["b"][0] > 0 > signs["b"][1]
    assert signs["w"][0] < 0 < signs["w"][1]
    assert abs(signs["b"][0] + signs["w"][0]) < 0.5  # one estimate seen from both sides
    plain = e.send("kata-analyze b 10")
    assert " ownership " not in plain and "info move" in plain


@pytest.mark.parametrize("command", ["lz-genmove_analyze", "kata-genmove_analyze"])
def test_genmove_analyze_streams_then_plays(command):
    """Info lines while the search runs, then ``play VERTEX``, and the move
    is on the board; inside a trymove it is refused."""
    e = GtpEngine(session=Engine(9))
    e.session.clock.default = SECONDS
    ok(e, "play b E5")
    response = e.send(f"3 {command} w 10")
    head, rest = response.split("\n", 1)
    lines = [ln for ln in rest.split("\n") if ln]
    assert head == "=3 " and response.endswith("\n\n")
    assert lines[-1].startswith("play ") and all(ln.startswith("info ") for ln in lines[:-1])
    move = lines[-1].split()[1]
    assert move not in ("pass", "resign") and ok(e, f"color {move}") == "white"
    ok(e, "trymove b A1")
    fails(e, f"{command} b", "cannot generate a move inside trymove")


def test_recorded_match_games_load():
    folder = str(ROOT / "sgf" / "matches")
    files = sorted(f for f in os.listdir(folder) if f.endswith(".sgf"))
    assert files
    for name in files:
        e = GtpEngine(session=Engine(9))
        ok(e, f"loadsgf {os.path.join(folder, name)}")
        assert len(e.session.position.moves()) >= 20


def test_printsgf_never_replaces_a_device_or_a_directory(tmp_path):
    e = GtpEngine(session=Engine(9))
    ok(e, "play b E5")
    if os.path.exists("/dev/null"):
        ok(e, "printsgf /dev/null")
        assert not os.path.isfile("/dev/null")
    fails(e, f"printsgf {tmp_path}", "cannot write file")
    assert os.path.isdir(tmp_path)


BORDER_GAP = """
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . . . . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . ."""


def test_no_pass_after_the_opponents_pass_while_a_point_is_unsettled(monkeypatch):
    """Black leads by the area (45 against 36, komi 0) but the wall has a
    gap whose points either side may take: after White's pass, Black
    plays on instead of passing (a referee would score the gap as it
    stands).  Where the ownership estimate calls every point settled, the
    same lead passes."""
    from gogame.play import scoring

    e = setup_board(BORDER_GAP)
    ok(e, "play w pass")
    move = ok(e, "genmove b")
    assert move not in ("PASS", "resign")
    monkeypatch.setattr(scoring.Ownership, "unsettled", lambda self: [])
    e = setup_board(BORDER_GAP)
    ok(e, "play w pass")
    assert ok(e, "genmove b") == "PASS"
