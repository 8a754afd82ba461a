"""Where everything lives in the board state: one flat int32 array.

The board is padded 1-D: a board of ``size`` uses a stride ``W = size + 2``,
point ``(row, col)`` (row 0 at the bottom, as sgfmill and GTP count) is
``(row + 1) * W + col + 1`` and every other index is off the board.  Index 0
is a border corner and doubles as ``PASS``.  The arrays are allocated for the
largest board (25x25), so one compiled kernel serves every size.

The state array ``s`` holds, by segment:

* header scalars (``H_*``): size, stride, ko point, captures, the trymove
  depth (stackp), the change-stack pointer, scratch counters, check flags;
* ``PLYMARK``: the change-stack pointer saved by each trymove;
* per point: ``COLOR`` (EMPTY, BLACK, WHITE, BORDER), ``ORIGIN`` (the
  string's representative stone), ``NEXT`` (a ring through the string);
* per string origin: ``NSTONES``, ``NLIB`` (exact liberty count) and ``LIBS``
  (a list of ``MAXLIBS`` liberties, exact whenever ``NLIB <= MAXLIBS``);
* ``MARK``: scratch marks, never journaled;
* ``STACK``: the change stack, pairs (index into ``s``, old value).

The two hash words live in a separate uint64 array ``hw``: ``hw[0:2]`` are the
current words, ``hw[2 + 2k : 4 + 2k]`` the words saved by the trymove at depth k.
"""

import operator

import numpy as np

# re-exported: the numpy-free part of the layout
from .points import (  # noqa: F401
    BLACK,
    BORDER,
    EMPTY,
    MAXSIZE,
    MINSIZE,
    PASS,
    WHITE,
    interpreted,
    point,
    row_col,
    stride,
)

MAXW = MAXSIZE + 2
MAXPOS = MAXW * MAXW
MAXLIBS = 8
MAXPLY = 1000
STACK_PAIRS = 1 << 18

# header fields
H_SIZE = 0
H_W = 1
H_KO = 2
H_CAPT = 3  # H_CAPT + color: stones of that colour captured (4, 5 used)
H_STACKP = 6  # trymove depth
H_SP = 7  # change-stack pointer (in ints)
H_MARKGEN = 8  # scratch mark generation, not journaled
H_CHECK = 9  # check_hashing: 1 = after every move/popgo
H_HASHERR = 10  # 0, or 1 + the move (PASS = 0) whose check failed
H_HASHWHERE = 11  # 1 = after a move, 2 = after a popgo
H_POLICY = 12  # playout policy features + 1 (0: the default; kernel.policy)
HEADER = 16

PLYMARK = HEADER
COLOR = PLYMARK + MAXPLY
ORIGIN = COLOR + MAXPOS
NEXT = ORIGIN + MAXPOS
NSTONES = NEXT + MAXPOS
NLIB = NSTONES + MAXPOS
LIBS = NLIB + MAXPOS
MARK = LIBS + MAXPOS * MAXLIBS
STACK = MARK + MAXPOS
STATE_LEN = STACK + 2 * STACK_PAIRS
HW_LEN = 2 + 2 * MAXPLY

# kernel helpers take exact int64 points and counts: numba compiles a
# callee once per distinct argument types, so an int32 value read from
# the state, or a constant (a Literal type), would each cost another
# compile.  Callers cast with ``i64(...)``.
i64 = np.int64

# a variable index into a kernel array is written ``s[ix(COLOR + p)]``:
# numba checks every signed index for a negative value (to count from the
# end), an unsigned one not.  That check, a compare and a select on every
# load, cost the reader and the playouts a seventh of their time.  Kernel
# indices are never negative (tests/kernel/test_indexing.py checks that
# every variable index is wrapped).  Interpreted (NUMBA_DISABLE_JIT=1, the
# stand-in reader), ``ix`` is ``operator.index``, which costs nothing there.
ix = operator.index if interpreted() else np.uint64


def new_state():
    """Fresh zeroed state and hash-word arrays (call ``board.clear`` next)."""
    return np.zeros(STATE_LEN, np.int32), np.zeros(HW_LEN, np.uint64)
