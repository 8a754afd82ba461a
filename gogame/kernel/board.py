"""Board kernel: strings, liberties, captures, ko, and trymove/popgo.

Every write to the position goes through ``_set``, which pushes (index, old
value) on the change stack, so ``popgo`` restores the state array exactly by
unwinding to the mark its ``trymove`` left.  The two hash words are XORed
where each write happens: a stone key when a stone is placed or removed, the
ko key when a ko point appears and again when it goes.  They are saved per
ply and restored by ``popgo``.

``play`` is a ``trymove`` at depth 0 whose changes are then committed (the
stack is dropped); taking back real moves is the Python layer's job (replay
from the start), not the change stack's.

Rules: suicide is illegal; a simple ko point forbids the immediate
recapture; no superko.  Liberties: ``NLIB`` is always exact, the ``LIBS``
list is exact while the count is at most ``MAXLIBS``.
"""

from numba import njit

from .layout import (
    BLACK,
    BORDER,
    COLOR,
    EMPTY,
    H_CAPT,
    H_CHECK,
    H_HASHERR,
    H_HASHWHERE,
    H_KO,
    H_MARKGEN,
    H_SIZE,
    H_SP,
    H_STACKP,
    H_W,
    HW_LEN,
    LIBS,
    MARK,
    MAXLIBS,
    MAXPLY,
    MAXPOS,
    NEXT,
    NLIB,
    NSTONES,
    ORIGIN,
    PASS,
    PLYMARK,
    STACK,
    STACK_PAIRS,
    WHITE,
    ix,
)
from .loading import typed  # loading: installed before the first @njit
from .zobrist import KO_KEY, compute_hash

__all__ = ["EMPTY", "BLACK", "WHITE", "BORDER", "PASS"]

# Signatures for the functions other kernels call with int32 and int64
# arguments and with constants: one compiled version each instead of up to
# five (numba compiles a callee for each distinct set of argument types, and
# a constant is a type of its own).  numba casts the callers' integers; these
# functions compile (or load) when first needed (``loading.typed``), not at
# import.  Measured in docs/startup.md.
_S, _HW, _K = "int32[::1]", "uint64[::1]", "uint64[:, :, ::1]"
SIG_MOVE = f"({_S}, {_HW}, {_K}, int64, int64)"


# ---------------------------------------------------------------- low level
# the most journaled writes one move can make: per captured stone its colour
# and a liberty for up to four neighbours (two writes each), per joined stone
# its origin, plus the new string's liberties and the fixed fields
MOVE_WRITES = 10 * MAXPOS + 64


@njit(cache=True, _nrt=False, inline="always")
def _set(s, i, v):
    """Journaled write: remember the old value, then store ``v``.  Room on
    the change stack is checked once per move (``push_move``)."""
    sp = s[H_SP]
    s[ix(STACK + sp)] = i
    s[ix(STACK + sp + 1)] = s[ix(i)]
    s[H_SP] = sp + 2
    s[ix(i)] = v


@njit(cache=True, _nrt=False, inline="always")
def _xor_key(hw, keys, kind, pos):
    hw[0] ^= keys[0, ix(kind), ix(pos)]
    hw[1] ^= keys[1, ix(kind), ix(pos)]


@njit(cache=True, _nrt=False, inline="always")
def _new_mark(s):
    """A fresh mark generation for scratch scans (never journaled)."""
    g = s[H_MARKGEN] + 1
    if g > 1 << 30:
        s[MARK : MARK + MAXPOS] = 0
        g = 1
    s[H_MARKGEN] = g
    return g


@njit(cache=True, _nrt=False, inline="always")
def origin(s, pos):
    return s[ix(ORIGIN + pos)]


@njit(cache=True, _nrt=False, inline="always")
def countlib(s, pos):
    """Liberties of the string at ``pos`` (exact)."""
    return s[ix(NLIB + s[ix(ORIGIN + pos)])]


@njit(cache=True, _nrt=False, inline="always")
def diagonal(a, b, w):
    """Are the points ``a`` and ``b`` diagonal neighbours (board width ``w``)?"""
    d = a - b
    return d == w + 1 or d == w - 1 or d == -w + 1 or d == -w - 1


@njit(cache=True, _nrt=False, inline="always")
def is_liberty(s, o, m):
    """Is the empty point ``m`` a liberty of string ``o``?"""
    w = s[H_W]
    c = s[ix(COLOR + o)]
    for q in (m - 1, m + 1, m - w, m + w):
        if s[ix(COLOR + q)] == c and s[ix(ORIGIN + q)] == o:
            return True
    return False


@njit(cache=True, _nrt=False, nogil=True)
def clear(s, hw, size):
    """An empty board of ``size``: border, header, no history, zero words."""
    s[:STACK] = 0
    w = size + 2
    s[H_SIZE] = size
    s[H_W] = w
    for pos in range(MAXPOS):
        s[ix(COLOR + pos)] = BORDER
    for row in range(size):
        for col in range(size):
            s[ix(COLOR + (row + 1) * w + col + 1)] = EMPTY
    hw[:] = 0


# ------------------------------------------------------- liberty bookkeeping


@typed("(int32[::1], int64)", _nrt=False)
def _relist_liberties(s, o):
    """Recompute the liberty count and list of string ``o`` by a scan."""
    w = s[H_W]
    g = _new_mark(s)
    n = 0
    p = o
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + q)] == EMPTY and s[ix(MARK + q)] != g:
                s[ix(MARK + q)] = g
                if n < MAXLIBS:
                    if s[ix(LIBS + o * MAXLIBS + n)] != q:
                        _set(s, LIBS + o * MAXLIBS + n, q)
                n += 1
        p = s[ix(NEXT + p)]
        if p == o:
            break
    if s[ix(NLIB + o)] != n:
        _set(s, NLIB + o, n)


@typed("(int32[::1], int64, int64, int64, int64, int64)", _nrt=False)
def _merge_liberties(s, pos, a, b, c, d):
    """Liberties of the string just formed by the stone at ``pos`` and the
    strings ``a``..``d`` (their origins before joining; PASS for none), all
    of whose lists are exact: the union of those lists and the stone's empty
    neighbours, less ``pos``.  The kept origin's list is updated in place."""
    w = s[H_W]
    o = s[ix(ORIGIN + pos)]
    base = LIBS + o * MAXLIBS
    g = _new_mark(s)
    s[ix(MARK + pos)] = g
    n = 0
    if o != pos:  # o is one of the parts: drop pos from its list
        n = s[ix(NLIB + o)]
        k = 0
        while k < n:
            q = s[ix(base + k)]
            if q == pos:
                n -= 1
                if k != n:
                    _set(s, base + k, s[ix(base + n)])
                continue
            s[ix(MARK + q)] = g
            k += 1
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        if s[ix(COLOR + q)] == EMPTY and s[ix(MARK + q)] != g:
            s[ix(MARK + q)] = g
            if n < MAXLIBS:
                _set(s, base + n, q)
            n += 1
    for f in (a, b, c, d):
        if f == PASS or f == o:
            continue
        for k in range(s[ix(NLIB + f)]):
            q = s[ix(LIBS + f * MAXLIBS + k)]
            if s[ix(MARK + q)] != g:
                s[ix(MARK + q)] = g
                if n < MAXLIBS:
                    _set(s, base + n, q)
                n += 1
    if s[ix(NLIB + o)] != n:
        _set(s, NLIB + o, n)


@typed("(int32[::1], int64, int64)", _nrt=False)
def _remove_liberty(s, o, lib):
    """String ``o`` lost liberty ``lib`` (the point is already occupied)."""
    n = s[ix(NLIB + o)]
    if n > MAXLIBS + 1:
        _set(s, NLIB + o, n - 1)
    elif n == MAXLIBS + 1:
        _relist_liberties(s, o)
    else:
        base = LIBS + o * MAXLIBS
        for k in range(n):
            if s[ix(base + k)] == lib:
                if k != n - 1:
                    _set(s, base + k, s[ix(base + n - 1)])
                break
        _set(s, NLIB + o, n - 1)


@njit(cache=True, _nrt=False)
def _add_liberty(s, o, lib):
    """String ``o`` gained liberty ``lib`` (caller ensures it is new)."""
    n = s[ix(NLIB + o)]
    if n < MAXLIBS:
        _set(s, LIBS + o * MAXLIBS + n, lib)
    _set(s, NLIB + o, n + 1)


@njit(cache=True, _nrt=False)
def _capture(s, hw, keys, o):
    """Remove string ``o``; its points become liberties of the neighbours."""
    w = s[H_W]
    color = s[ix(COLOR + o)]
    size = s[ix(NSTONES + o)]
    p = o
    while True:
        _set(s, COLOR + p, EMPTY)
        _xor_key(hw, keys, color, p)
        p = s[ix(NEXT + p)]
        if p == o:
            break
    while True:
        seen0 = -1
        seen1 = -1
        seen2 = -1
        for q in (p - 1, p + 1, p - w, p + w):
            c = s[ix(COLOR + q)]
            if c == EMPTY or c == BORDER:
                continue
            oq = s[ix(ORIGIN + q)]
            if oq == seen0 or oq == seen1 or oq == seen2:
                continue
            seen2 = seen1
            seen1 = seen0
            seen0 = oq
            _add_liberty(s, oq, p)
        p = s[ix(NEXT + p)]
        if p == o:
            break
    _set(s, H_CAPT + color, s[ix(H_CAPT + color)] + size)
    return size


@njit(cache=True, _nrt=False)
def _join(s, a, b):
    """Merge the strings with origins ``a`` and ``b``; return the origin kept."""
    if s[ix(NSTONES + a)] < s[ix(NSTONES + b)]:
        a, b = b, a
    p = b
    while True:
        _set(s, ORIGIN + p, a)
        p = s[ix(NEXT + p)]
        if p == b:
            break
    na = s[ix(NEXT + a)]
    _set(s, NEXT + a, s[ix(NEXT + b)])
    _set(s, NEXT + b, na)
    _set(s, NSTONES + a, s[ix(NSTONES + a)] + s[ix(NSTONES + b)])
    return a


# ----------------------------------------------------------------- moves


@njit(cache=True, _nrt=False, nogil=True)
def is_legal(s, pos, color):
    """May ``color`` play at ``pos`` now?  Occupied, suicide and ko say no."""
    return legal(s, pos, color, False)


@typed("(int32[::1], int64, int64, boolean)", _nrt=False, nogil=True)
def legal(s, pos, color, ignore_ko):
    """``is_legal``; with ``ignore_ko`` a ko retake counts as legal (tryko)."""
    if pos == PASS:
        return True
    if pos < 0 or pos >= MAXPOS or s[ix(COLOR + pos)] != EMPTY:
        return False
    w = s[H_W]
    other = 3 - color
    captures = False
    liberty = False
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        c = s[ix(COLOR + q)]
        if c == EMPTY:
            liberty = True
        elif c == color:
            if s[ix(NLIB + s[ix(ORIGIN + q)])] > 1:
                liberty = True
        elif c == other:
            if s[ix(NLIB + s[ix(ORIGIN + q)])] == 1:
                captures = True
    if captures and pos == s[H_KO] and not ignore_ko:
        return False
    return liberty or captures


@njit(cache=True, _nrt=False, inline="always")
def _do_move(s, hw, keys, pos, color):
    """Play a legal move (or PASS); journaled; updates both hash words."""
    ko = s[H_KO]
    if ko != PASS:
        _xor_key(hw, keys, KO_KEY, ko)
        _set(s, H_KO, PASS)
    if pos == PASS:
        return
    w = s[H_W]
    other = 3 - color
    _set(s, COLOR + pos, color)
    _xor_key(hw, keys, color, pos)
    _set(s, ORIGIN + pos, pos)
    _set(s, NEXT + pos, pos)
    _set(s, NSTONES + pos, 1)
    _set(s, NLIB + pos, 0)
    captured = 0
    last_captured = PASS
    # opponent neighbours lose the liberty at pos; those left without one go
    # (friendly neighbours are joined and recounted below)
    seen0 = -1
    seen1 = -1
    seen2 = -1
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        if s[ix(COLOR + q)] != other:
            continue
        o = s[ix(ORIGIN + q)]
        if o == seen0 or o == seen1 or o == seen2:
            continue
        seen2 = seen1
        seen1 = seen0
        seen0 = o
        _remove_liberty(s, o, pos)
        if s[ix(NLIB + o)] == 0:
            last_captured = o
            captured += _capture(s, hw, keys, o)
    # join friendly neighbours, then count the new string's liberties (from
    # their lists when those are exact, else by a scan of the new string)
    me = pos
    joined = False
    part0 = PASS
    part1 = PASS
    part2 = PASS
    part3 = PASS
    listed = True
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        if s[ix(COLOR + q)] == color and s[ix(ORIGIN + q)] != s[ix(ORIGIN + me)]:
            f = s[ix(ORIGIN + q)]
            listed = listed and s[ix(NLIB + f)] <= MAXLIBS
            if part0 == PASS:
                part0 = f
            elif part1 == PASS:
                part1 = f
            elif part2 == PASS:
                part2 = f
            else:
                part3 = f
            me = _join(s, s[ix(ORIGIN + me)], f)
            joined = True
    if listed:
        _merge_liberties(s, pos, part0, part1, part2, part3)
    else:
        _relist_liberties(s, s[ix(ORIGIN + pos)])
    if captured == 1 and not joined and s[ix(NLIB + pos)] == 1:
        _set(s, H_KO, last_captured)
        _xor_key(hw, keys, KO_KEY, last_captured)


@typed(SIG_MOVE, _nrt=False)
def _check(s, hw, keys, pos, where):
    """check_hashing: compare the words with a recomputation; flag the first."""
    h0, h1 = compute_hash(s, keys)
    if (h0 != hw[0] or h1 != hw[1]) and s[H_HASHERR] == 0:
        s[H_HASHERR] = pos + 1
        s[H_HASHWHERE] = where


@typed(f"({_S}, {_HW}, {_K}, int64, int64, boolean)", _nrt=False, nogil=True)
def push_move(s, hw, keys, pos, color, ignore_ko):
    """trymove / tryko: one ply deeper on the change stack, or False."""
    if not legal(s, pos, color, ignore_ko):
        return False
    ply = s[H_STACKP]
    if ply >= MAXPLY or 2 + 2 * ply + 1 >= HW_LEN:
        raise IndexError("trymove deeper than MAXPLY")
    if s[H_SP] + 2 * MOVE_WRITES > 2 * STACK_PAIRS:
        raise IndexError("change stack overflow")
    s[ix(PLYMARK + ply)] = s[H_SP]
    hw[ix(2 + 2 * ply)] = hw[0]
    hw[ix(3 + 2 * ply)] = hw[1]
    s[H_STACKP] = ply + 1
    _do_move(s, hw, keys, pos, color)
    if s[H_CHECK]:
        _check(s, hw, keys, pos, 1)
    return True


@typed(SIG_MOVE, _nrt=False, nogil=True)
def trymove(s, hw, keys, pos, color):
    """Play ``pos`` for ``color`` one ply deeper; False (no change) if illegal."""
    return push_move(s, hw, keys, pos, color, False)


@typed(SIG_MOVE, _nrt=False, nogil=True)
def tryko(s, hw, keys, pos, color):
    """``trymove`` that may retake a ko, as if a ko threat had been answered."""
    return push_move(s, hw, keys, pos, color, True)


@njit(cache=True, _nrt=False, nogil=True)
def popgo(s, hw, keys):
    """Undo the last trymove: unwind the change stack, restore the words."""
    ply = s[H_STACKP] - 1
    if ply < 0:
        return False
    mark = s[ix(PLYMARK + ply)]
    sp = s[H_SP]
    while sp > mark:
        sp -= 2
        s[ix(s[ix(STACK + sp)])] = s[ix(STACK + sp + 1)]
    s[H_SP] = mark
    s[H_STACKP] = ply
    hw[0] = hw[ix(2 + 2 * ply)]
    hw[1] = hw[ix(3 + 2 * ply)]
    if s[H_CHECK]:
        _check(s, hw, keys, PASS, 2)
    return True


@typed(SIG_MOVE, _nrt=False, nogil=True)
def play(s, hw, keys, pos, color):
    """A real move at depth 0: trymove, then commit (drop the journal)."""
    if s[H_STACKP] != 0:
        return False
    if not trymove(s, hw, keys, pos, color):
        return False
    s[H_STACKP] = 0
    s[H_SP] = 0
    return True


@njit(cache=True, _nrt=False, nogil=True)
def play_sequence(s, hw, keys, moves, colors):
    """Play ``moves[i]`` for ``colors[i]`` in order; stop at the first illegal.

    Returns how many were played; it also stops right after a move whose
    hash check failed (``H_HASHERR`` set), so the caller can report it.
    """
    for i in range(moves.shape[0]):
        if not play(s, hw, keys, moves[ix(i)], colors[ix(i)]):
            return i
        if s[H_HASHERR] != 0:
            return i + 1
    return moves.shape[0]


# ----------------------------------------------------------------- setup


@njit(cache=True, _nrt=False, nogil=True)
def set_color(s, hw, keys, pos, color):
    """Setup (AB/AW/AE): put ``color`` (or EMPTY) at ``pos``, no captures.

    Only the colours and hash words change; call ``rebuild_strings`` after a
    batch of setup stones.  Not journaled: depth 0 only.
    """
    old = s[ix(COLOR + pos)]
    if old == BLACK or old == WHITE:
        _xor_key(hw, keys, old, pos)
    s[ix(COLOR + pos)] = color
    if color == BLACK or color == WHITE:
        _xor_key(hw, keys, color, pos)


@njit(cache=True, _nrt=False, nogil=True)
def clear_ko(s, hw, keys):
    """Drop the ko point (with its inversion), unjournaled, at depth 0."""
    ko = s[H_KO]
    if ko != PASS:
        _xor_key(hw, keys, KO_KEY, ko)
        s[H_KO] = PASS


@njit(cache=True, _nrt=False, nogil=True)
def set_ko(s, hw, keys, pos):
    """Make ``pos`` the ko point (as SGF ``IL[]`` does), unjournaled."""
    clear_ko(s, hw, keys)
    if pos != PASS:
        s[H_KO] = pos
        _xor_key(hw, keys, KO_KEY, pos)


@njit(cache=True, _nrt=False, nogil=True)
def rebuild_strings(s):
    """Recompute origins, rings, sizes and liberties from the colours.

    Returns the number of strings left without a liberty (0 when the setup
    is a legal position).  Resets the change stack: depth 0 only.
    """
    s[H_SP] = 0
    s[H_STACKP] = 0
    w = s[H_W]
    size = s[H_SIZE]
    g = _new_mark(s)
    dead = 0
    for row in range(size):
        for col in range(size):
            o = (row + 1) * w + col + 1
            c = s[ix(COLOR + o)]
            if (c != BLACK and c != WHITE) or s[ix(MARK + o)] == g:
                continue
            # flood fill the string of o, threading the ring as we go
            s[ix(MARK + o)] = g
            s[ix(ORIGIN + o)] = o
            s[ix(NEXT + o)] = o
            n = 1
            p = o
            while True:
                for q in (p - 1, p + 1, p - w, p + w):
                    if s[ix(COLOR + q)] == c and s[ix(MARK + q)] != g:
                        s[ix(MARK + q)] = g
                        s[ix(ORIGIN + q)] = o
                        s[ix(NEXT + q)] = s[ix(NEXT + p)]
                        s[ix(NEXT + p)] = q
                        n += 1
                p = s[ix(NEXT + p)]
                if p == o:
                    break
            s[ix(NSTONES + o)] = n
            _relist_liberties(s, o)
            if s[ix(NLIB + o)] == 0:
                dead += 1
    s[H_SP] = 0
    return dead


# ----------------------------------------------------------- string queries


@njit(cache=True, _nrt=False, nogil=True)
def findlib(s, pos, out):
    """Write the liberties of the string at ``pos`` into ``out``; return the count."""
    o = s[ix(ORIGIN + pos)]
    n = s[ix(NLIB + o)]
    if n <= MAXLIBS:
        for k in range(n):
            out[ix(k)] = s[ix(LIBS + o * MAXLIBS + k)]
        return n
    w = s[H_W]
    g = _new_mark(s)
    k = 0
    p = o
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + q)] == EMPTY and s[ix(MARK + q)] != g:
                s[ix(MARK + q)] = g
                if k < out.shape[0]:
                    out[ix(k)] = q
                k += 1
        p = s[ix(NEXT + p)]
        if p == o:
            break
    return k


@typed("(int32[::1], int64, int64, int32[::1])", _nrt=False)
def neighbour_strings(s, o, color, out):
    """Origins of the ``color`` strings adjacent to string ``o``, in the order
    first met walking its stones, into ``out`` (as many as fit); return the
    count stored."""
    w = s[H_W]
    g = _new_mark(s)
    k = 0
    p = o
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + q)] == color:
                oq = s[ix(ORIGIN + q)]
                if s[ix(MARK + oq)] != g and k < out.shape[0]:
                    s[ix(MARK + oq)] = g
                    out[ix(k)] = oq
                    k += 1
        p = s[ix(NEXT + p)]
        if p == o:
            break
    return k


@typed("(int32[::1], int64, int64, int64)", _nrt=False)
def libs_after(s, pos, color, limit):
    """Liberties the string through ``pos`` would have if ``color`` played the
    empty point ``pos`` (an accurate count, without playing it), capped at
    ``limit`` <= MAXLIBS.  Stones the move would capture count where they
    touch the new string.  Legality (suicide, ko) is not checked: a suicide
    answers 0."""
    w = s[H_W]
    other = 3 - color
    g = _new_mark(s)
    s[ix(MARK + pos)] = g
    joined0 = -1
    joined1 = -1
    joined2 = -1
    n = 0
    captures = False
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        c = s[ix(COLOR + q)]
        if c == EMPTY:
            if s[ix(MARK + q)] != g:
                s[ix(MARK + q)] = g
                n += 1
        elif c == other:
            captures = captures or s[ix(NLIB + s[ix(ORIGIN + q)])] == 1
        elif c == color:
            o = s[ix(ORIGIN + q)]
            if o == joined0 or o == joined1 or o == joined2:
                continue
            joined2 = joined1
            joined1 = joined0
            joined0 = o
            if s[ix(NLIB + o)] > MAXLIBS:
                return limit
            for k in range(s[ix(NLIB + o)]):
                lib = s[ix(LIBS + o * MAXLIBS + k)]
                if s[ix(MARK + lib)] != g:
                    s[ix(MARK + lib)] = g
                    n += 1
            if n >= limit:
                return limit
    if n >= limit or not captures:
        return min(n, limit)
    # captured strings: their stones next to pos or to a joined string
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        if (
            s[ix(COLOR + q)] != other
            or s[ix(NLIB + s[ix(ORIGIN + q)])] != 1
            or s[ix(MARK + q)] == g
        ):
            continue
        x = s[ix(ORIGIN + q)]
        p = x
        while True:
            for r in (p - 1, p + 1, p - w, p + w):
                if r == pos or (
                    s[ix(COLOR + r)] == color
                    and (
                        s[ix(ORIGIN + r)] == joined0
                        or s[ix(ORIGIN + r)] == joined1
                        or s[ix(ORIGIN + r)] == joined2
                    )
                ):
                    if s[ix(MARK + p)] != g:
                        s[ix(MARK + p)] = g
                        n += 1
            p = s[ix(NEXT + p)]
            if p == x:
                break
    return min(n, limit)


@njit(cache=True, _nrt=False, nogil=True)
def string_stones(s, pos, out):
    """Write the stones of the string at ``pos`` into ``out``; return the count."""
    o = s[ix(ORIGIN + pos)]
    k = 0
    p = o
    while True:
        out[ix(k)] = p
        k += 1
        p = s[ix(NEXT + p)]
        if p == o:
            break
    return k


@njit(cache=True, _nrt=False, nogil=True)
def list_strings(s, maxlibs, out):
    """Each string with at most ``maxlibs`` liberties, named by its lowest
    point, in increasing point order, into ``out``; return the count."""
    w = s[H_W]
    size = s[H_SIZE]
    g = _new_mark(s)
    k = 0
    for row in range(size):
        for col in range(size):
            p = (row + 1) * w + col + 1
            c = s[ix(COLOR + p)]
            if c != BLACK and c != WHITE:
                continue
            o = s[ix(ORIGIN + p)]
            if s[ix(MARK + o)] == g:
                continue
            s[ix(MARK + o)] = g
            if s[ix(NLIB + o)] <= maxlibs:
                out[ix(k)] = p
                k += 1
    return k
