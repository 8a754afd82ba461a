"""Corrupt, truncated, huge and hostile SGF files: what gogame must refuse
with one clear line naming the file (tests/core/test_sgfio.py,
tests/gtp/test_engine_loadsgf.py, tests/tools/test_replay.py)."""

# name -> (file bytes, words the error message must hold)
HOSTILE = {
    "empty.sgf": (b"", "no SGF data"),
    "garbage.sgf": (b"\x00\xff\xfe binary \x80\x81", "not a valid SGF file"),
    "truncated.sgf": (b"(;SZ[9]KM[7];B[ee];W[dd];B[", "unexpected end"),
    "unclosed.sgf": (b"(;SZ[9];B[ee]", "unexpected end"),
    "sz0.sgf": (b"(;SZ[0];B[aa])", "size"),
    "sz1.sgf": (b"(;SZ[1])", "board size 1 not supported"),
    "sz26.sgf": (b"(;SZ[26];B[aa])", "board size 26 not supported"),
    "sz_negative.sgf": (b"(;SZ[-9])", "size"),
    "sz_text.sgf": (b"(;SZ[nine])", "bad SZ"),
    "sz_rect.sgf": (b"(;SZ[9:13])", "bad SZ"),
    "sz_digits.sgf": (b"(;SZ[" + b"9" * 5000 + b"])", "SZ"),
    "off_board.sgf": (b"(;SZ[9];B[ee];W[zz])", "move 2: bad point W[zz] for a 9x9 board"),
    "edge_off.sgf": (b"(;SZ[9];B[ee];W[jj])", "move 2: bad point W[jj]"),
    "short_point.sgf": (b"(;SZ[9];B[e])", "move 1: bad point B[e]"),
    "setup_off.sgf": (b"(;SZ[9]AB[aa][zz])", "setup before move 1: bad point"),
    "il_off.sgf": (b"(;SZ[9];B[ee]IL[zz])", "IL[] at move 2"),
    "occupied.sgf": (b"(;SZ[9];B[ee];W[dd];B[ee])", "move 3: illegal move B E5"),
    "suicide_setup.sgf": (b"(;SZ[9]AB[ba][ab]AW[aa])", "without liberties"),
    "bad_ca.sgf": (b"(;CA[no-such-charset]SZ[9];B[ee])", "unknown encoding"),
    "binary_ca.sgf": (b"(;CA[\xff\xfe]SZ[9];B[ee])", "encoding"),
}


def write(tmp_path, name, data):
    """``tmp_path / name`` holding ``data`` (bytes, or text as UTF-8)."""
    path = tmp_path / name
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return path


def good_game(tmp_path):
    """A small legal game to load first, so that "unchanged" means something."""
    return write(tmp_path, "good.sgf", b"(;SZ[9]KM[5.5]AB[cc]AW[gg];B[ee];W[dd])")
