"""The GTP protocol layer (gogame.gtp.protocol), which knows nothing of the
engine: preprocessing a line, ids, the response format."""

import pytest

from gogame.gtp.protocol import format_response, parse_command, preprocess


@pytest.mark.parametrize(
    "line, expected",
    [
        ("name", "name"),
        ("name\r\n", "name "),
        ("na\x00m\x1be\x7f", "name"),
        ("\tname\targ", " name arg"),
        ("name # comment", "name "),
        ("# comment only", ""),
        ("boardsize 9#x", "boardsize 9"),
    ],
)
def test_preprocess(line, expected):
    assert preprocess(line) == expected


def test_parse_command_ids():
    assert parse_command("12 play b d4") == (12, "play", ["b", "d4"])
    assert parse_command("play b d4") == (None, "play", ["b", "d4"])
    assert parse_command("7") == (7, None, [])
    assert parse_command("  ") is None


def test_format_response_never_has_an_empty_line_inside():
    assert format_response(True, 3, "a\n\nb\n \nc\n\n") == "=3 a\nb\nc\n\n"
    assert format_response(True, None, "\nboard\nrows") == "= \nboard\nrows\n\n"
    assert format_response(False, 1, "first line\nsecond") == "?1 first line\n\n"
    assert format_response(True, None, None) == "= \n\n"
