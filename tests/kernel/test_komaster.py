"""The komaster scheme (gogame/kernel/komaster.py), case by case, on two kos.

Ko A: Black takes the white stone ``w`` by playing ``a``.  Ko B: White
takes the black stone ``k`` by playing ``b``.  Each test names the case of
GNU Go's scheme (the module's table) that it checks.
"""

import numpy as np

from gogame.kernel import komaster as km
from gogame.kernel.layout import BLACK, EMPTY, H_KO, H_W, WHITE
from tests.helpers import diagrams

TWO_KOS = """
. . . . . . . . .
. X O . . . . . .
X w a O . . . . .
. X O . . . . . .
. . . . . . . . .
. . . . . O X . .
. . . . O k b X .
. . . . . O X . .
. . . . . . . . .
"""


def board():
    """The position (``w`` and ``k`` are stones) and its named points."""
    text = TWO_KOS.replace("w", "O").replace("k", "X")
    p = diagrams.position(text)
    marks = diagrams.parse(TWO_KOS.replace("O", ".").replace("X", ".")).marks
    return p, {name: p.pos(pt) for name, pt in marks.items()}


def trymove(p, kom, at, color):
    """km.trymove on the position: (played, kind, kom_pos)."""
    played, new = km.trymove(p.s, p.hw, p.keys, np.int64(kom), at, color, True)
    return int(played), int(km.kind(new)), int(km.kom_pos(new))


def test_ko_capture_names_the_stone_a_ko_capture_takes():
    p, pt = board()
    assert km.ko_capture(p.s, pt["a"], BLACK) == pt["w"]
    assert km.ko_capture(p.s, pt["b"], WHITE) == pt["k"]
    assert km.ko_capture(p.s, pt["a"], WHITE) == 0  # no capture
    assert km.ko_capture(p.s, pt["a"] + 1, BLACK) == 0  # next to own stones


def test_a_legal_ko_capture_leaves_no_komaster():  # 1a
    p, pt = board()
    assert trymove(p, EMPTY, pt["a"], BLACK) == (1, EMPTY, 0)
    assert p.s[H_KO] == pt["w"]


def test_a_conditional_ko_capture_makes_the_komaster():  # 1b
    p, pt = board()
    p.play(p.pt(pt["a"]), BLACK)  # Black took ko A: White may not retake now
    assert trymove(p, EMPTY, pt["w"], WHITE) == (2, WHITE, pt["a"])


def test_the_komaster_s_ko_is_closed_to_the_other_side():  # 3
    p, pt = board()
    p.play(p.pt(pt["a"]), BLACK)
    played, kom = km.trymove(p.s, p.hw, p.keys, np.int64(EMPTY), pt["w"], WHITE, True)
    assert played == 2
    assert trymove(p, kom, pt["a"], BLACK) == (0, WHITE, pt["a"])


def test_taking_another_ko_against_the_komaster_makes_it_gray():  # 3, then 4
    p, pt = board()
    p.play(p.pt(pt["a"]), BLACK)  # Black is komaster of ko A, kom_pos w
    black_ko_a = km.pack(BLACK, pt["w"])
    assert trymove(p, black_ko_a, pt["b"], WHITE) == (1, km.GRAY_BLACK, pt["w"])
    gray = km.pack(km.GRAY_BLACK, pt["w"])
    p.popgo()
    assert trymove(p, gray, pt["w"], WHITE) == (0, km.GRAY_BLACK, pt["w"])  # no ko at all
    assert trymove(p, gray, pt["b"], WHITE) == (0, km.GRAY_BLACK, pt["w"])


def test_the_komaster_takes_another_ko_only_by_a_legal_capture():  # 2a
    """White, komaster of ko A, may take ko B first (a legal capture, which
    moves kom_pos to the stone taken), but not retake it after Black's
    capture there (a conditional capture of a ko not nested in A's).
    GNU Go's scheme forbids the first too (docs/reading.md)."""
    p, pt = board()
    white_ko_a = km.pack(WHITE, pt["a"])
    assert trymove(p, white_ko_a, pt["b"], WHITE) == (1, WHITE, pt["k"])
    q, _ = board()
    q.s[H_KO] = pt["b"]  # as if Black's k had just taken a white stone at b
    assert trymove(q, white_ko_a, pt["b"], WHITE) == (0, WHITE, pt["a"])
    w = int(q.s[H_W])
    kp = pt["a"]
    q.s[H_KO] = pt["a"]  # a conditional capture at a: nested or not
    assert km.admits(q.s, km.pack(BLACK, kp), pt["a"], BLACK, kp + w + 1)  # diagonal
    assert not km.admits(q.s, km.pack(BLACK, kp), pt["a"], BLACK, kp + 2)
    q.s[H_KO] = 0  # the same capture, legal: allowed
    assert km.admits(q.s, km.pack(BLACK, kp), pt["a"], BLACK, kp + 2)


def test_a_resolved_ko_frees_the_komaster_state():  # resolution, before 4
    p, pt = board()
    filled = km.pack(km.GRAY_WHITE, pt["a"] + 1)  # kom_pos holds a stone
    assert trymove(p, filled, pt["a"], BLACK) == (1, EMPTY, 0)


def test_a_ko_capture_answering_one_is_weak_until_a_quiet_move():  # 1a, 5a
    p, pt = board()
    p.play(p.pt(pt["a"]), BLACK)  # a ko point: w
    played, kom = km.trymove(p.s, p.hw, p.keys, np.int64(EMPTY), pt["b"], WHITE, True)
    assert (played, km.kind(kom), km.kom_pos(kom)) == (1, km.WEAK, pt["w"])
    quiet = pt["a"] + 3  # a move that takes no ko
    assert trymove(p, kom, quiet, BLACK) == (1, EMPTY, 0)


def test_no_conditional_ko_capture_when_not_asked():
    p, pt = board()
    p.play(p.pt(pt["a"]), BLACK)
    before = p.hash
    played, kom = km.trymove(p.s, p.hw, p.keys, np.int64(EMPTY), pt["w"], WHITE, False)
    assert (played, kom) == (0, EMPTY)
    assert p.hash == before
