import pytest

from gogame.core import coords


@pytest.mark.parametrize("size", [2, 9, 19, 25])
def test_gtp_sgf_and_kernel_points_round_trip(size):
    for row in range(size):
        for col in range(size):
            pt = (row, col)
            assert coords.parse_gtp(coords.format_gtp(pt), size) == pt
            assert coords.parse_sgf(coords.format_sgf(pt, size), size) == pt
            assert coords.from_pos(coords.to_pos(pt, size), size) == pt


def test_known_spellings():
    assert coords.parse_gtp("A1", 19) == (0, 0)
    assert coords.parse_gtp("j10", 19) == (9, 8)  # no I column
    assert coords.parse_gtp("T19", 19) == (18, 18)
    assert coords.parse_gtp("PASS", 19) is None
    assert coords.parse_sgf("aa", 19) == (18, 0)  # SGF counts rows from the top
    assert coords.parse_sgf("tt", 19) is None
    assert coords.parse_sgf("", 9) is None
    assert coords.format_gtp(None) == "PASS"


@pytest.mark.parametrize("text", ["I5", "Z1", "A0", "A20", "", "D", "44", "D4x"])
def test_bad_gtp_vertices_are_refused(text):
    with pytest.raises(ValueError):
        coords.parse_gtp(text, 19)


def test_sizes_outside_2_to_25_are_refused():
    for size in (1, 26):
        with pytest.raises(ValueError):
            coords.check_size(size)
