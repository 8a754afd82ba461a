"""Playouts (gogame.kernel.playout.playout) with and without the 3x3
pattern rule: they end with two passes, no playable move left for either
side, the area score counted again here, and with the rule on the moves
answer the last move locally far more often."""

import numpy as np
import pytest

from gogame.core.position import Position
from gogame.kernel import playout as kp
from gogame.kernel.layout import BLACK, BORDER, COLOR, EMPTY, MAXPOS, PASS, WHITE
from gogame.play.patterns import table
from tests.helpers import diagrams


def run_playout(position, color, rate, seed):
    """One playout from ``position`` (copied): (state, moves, colours)."""
    ws, whw, seq, seqc, empt, eidx, first, _ = kp.new_scratch()
    kp._load(position.s, position.hw, ws, whw)
    kp.seed(seed)
    size = position.size
    n = kp.playout(
        ws,
        whw,
        position.keys,
        color,
        PASS,
        3 * size * size,
        seq,
        seqc,
        0,
        empt,
        eidx,
        table(),
        rate,
    )
    return ws, seq[:n].copy(), seqc[:n].copy()


def python_area(s, size):
    """Black's area minus White's: stones, and empty points whose
    neighbours are all one colour (the kernel's rule, counted again)."""
    w = size + 2
    score = 0
    for row in range(size):
        for col in range(size):
            p = (row + 1) * w + col + 1
            c = int(s[COLOR + p])
            if c == EMPTY:
                around = {int(s[COLOR + q]) for q in (p - 1, p + 1, p - w, p + w)} - {BORDER}
                c = around.pop() if len(around) == 1 else EMPTY
            score += 1 if c == BLACK else -1 if c == WHITE else 0
    return score


START = """
    . . . . . . . . .
    . . . . . . . . .
    . . X X O . . . .
    . . X O . O . . .
    . . . X O . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . ."""


@pytest.mark.parametrize("rate", [0, 1000])
def test_playouts_end_and_score_as_counted(rate):
    for seed in range(6):
        position = diagrams.position(START) if seed % 2 else Position(9)
        s, moves, _ = run_playout(position, BLACK, rate, seed)
        assert len(moves) < 3 * 81, "ended by the move cap, not by passes"
        size = 9
        empty = [
            (row + 1) * 11 + col + 1
            for row in range(size)
            for col in range(size)
            if s[COLOR + (row + 1) * 11 + col + 1] == EMPTY
        ]
        for p in empty:
            for c in (BLACK, WHITE):
                assert not kp.playable(s, p, c), (seed, p, c)
        owner = np.zeros(MAXPOS, np.int32)
        assert kp.area_score(s, owner) == python_area(s, size)


def local_share(position, rate, seeds):
    """The share of playout moves within the 3x3 square of the move before."""
    near = total = 0
    w = position.size + 2
    for seed in seeds:
        _, moves, _ = run_playout(position, BLACK, rate, seed)
        for a, b in zip(moves[:-1], moves[1:], strict=True):
            dr, dc = abs(b // w - a // w), abs(b % w - a % w)
            near += dr <= 1 and dc <= 1
            total += 1
    return near / total


def test_the_pattern_rule_answers_the_last_move_locally():
    position = Position(13)
    off = local_share(position, 0, range(20))
    on = local_share(position, 1000, range(20))
    assert on > off + 0.2, (on, off)


def test_candidate_codes_are_the_tree_moves():
    """Empty, legal and not an own eye (white's at A1), in point order."""
    position = diagrams.position("""
        . . . . .
        . . . . .
        . . X . .
        O O X . .
        . O X . .""")
    pts = np.zeros(MAXPOS, np.int32)
    codes = np.zeros(MAXPOS, np.int64)
    n = kp.candidate_codes(position.s, WHITE, pts, codes)
    empties = [
        position.pos((r, c))
        for r in range(5)
        for c in range(5)
        if position.color_at((r, c)) == EMPTY
    ]
    legal = [p for p in empties if position.is_legal(position.pt(p), WHITE)]
    eye = position.pos((0, 0))
    assert eye in legal and kp.is_eye(position.s, eye, WHITE)
    assert list(pts[:n]) == [p for p in legal if p != eye]
    assert len(set(codes[:n].tolist())) > 5


def test_select_follows_the_value_alone():
    """No exploration bonus: a child tried once at an even win rate does
    not outrank one that won 60 of 100 (UCB's term, 0.15 before, made it
    the choice)."""
    links, stats, _ = kp.new_tree(3)
    links[0] = (PASS, 1, 2)
    stats[0, kp.S_N] = 101
    stats[1, [kp.S_N, kp.S_W]] = (100, 60)
    stats[2, [kp.S_N, kp.S_W]] = (1, 0.5)
    assert kp.select(links, stats, 0, 0) == 1
    stats[2, [kp.S_N, kp.S_W]] = (1, 0.7)
    assert kp.select(links, stats, 0, 0) == 2
