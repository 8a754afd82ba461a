"""The 3x3 pattern code (gogame.kernel.pattern.code3x3): its fields on drawn
positions, and the same pattern under the eight symmetries of the board
(hypothesis: random boards, every point)."""

from hypothesis import assume, given
from hypothesis import strategies as st

from gogame.core.position import Position
from gogame.kernel.layout import BLACK, WHITE
from gogame.kernel.pattern import ATARI_SHIFT, P_EMPTY, P_OFF, P_OPP, P_OWN, code3x3
from gogame.play.patterns import SYMMETRIES, canonical, transform
from tests.helpers import diagrams
from tests.helpers.boards import PROPERTY


def code_at(text, mark="a", color=BLACK):
    d = diagrams.parse(text)
    p = diagrams.position(text)
    return code3x3(p.s, p.pos(d.marks[mark]), color)


def field(code, slot):
    return (code >> (2 * slot)) & 3


def atari(code, slot):
    return (code >> (ATARI_SHIFT + slot)) & 1


def test_fields_on_the_edge_with_an_atari():
    """a on the first line: S, SE, SW off the board; W a black stone in atari
    (own for black, an opponent's for white); N and NW white stones with
    2+ liberties."""
    text = """
        . . . . .
        . . . . .
        . . . . .
        . O O . .
        O X a . .
    """
    black = code_at(text)
    assert [field(black, i) for i in range(8)] == [
        P_OPP,  # N
        P_EMPTY,  # E
        P_OFF,  # S
        P_OWN,  # W
        P_EMPTY,  # NE
        P_OFF,  # SE
        P_OFF,  # SW
        P_OPP,  # NW
    ]
    assert [atari(black, i) for i in range(4)] == [0, 0, 0, 1]
    white = code_at(text, color=WHITE)
    assert field(white, 0) == P_OWN and field(white, 3) == P_OPP and atari(white, 3) == 1


def test_symmetries_are_a_group_of_eight():
    perms = set(SYMMETRIES)
    assert len(perms) == 8 and tuple(range(8)) in perms
    for a in SYMMETRIES:
        for b in SYMMETRIES:
            assert tuple(b[a[i]] for i in range(8)) in perms
        assert sorted(a[:4]) == [0, 1, 2, 3]  # orthogonal slots stay orthogonal


def _board_symmetry(k, size, pt):
    """The k-th symmetry of the board (0..7) applied to a point."""
    r, c = pt
    for _ in range(k // 2):
        r, c = c, size - 1 - r  # a quarter turn
    if k % 2:
        c = size - 1 - c
    return r, c


@PROPERTY
@given(
    st.lists(st.sampled_from([0, 0, 0, BLACK, WHITE]), min_size=25, max_size=25),
    st.sampled_from([BLACK, WHITE]),
)
def test_code_is_the_same_pattern_under_the_board_symmetries(cells, color):
    """For every empty point of a random 5x5 board: the eight symmetric
    boards give, at the image point, exactly the eight codes that
    ``transform`` makes from the original code, so one canonical code."""
    size = 5
    stones = {divmod(i, size): c for i, c in enumerate(cells) if c}
    boards = []
    for k in range(8):
        p = Position(size)
        try:
            p.setup({_board_symmetry(k, size, pt): c for pt, c in stones.items()})
        except ValueError:
            assume(False)  # a string without liberties
        boards.append(p)
    for i in range(size * size):
        pt = divmod(i, size)
        if pt in stones:
            continue
        code = code3x3(boards[0].s, boards[0].pos(pt), color)
        images = {
            code3x3(b.s, b.pos(_board_symmetry(k, size, pt)), color) for k, b in enumerate(boards)
        }
        assert images == {transform(code, perm) for perm in SYMMETRIES}
        assert {canonical(c) for c in images} == {canonical(code)}
        assert canonical(code) == min(images)
