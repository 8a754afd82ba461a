"""Go-aware playout rules beyond captures and patterns, in numba (Moggy-like).

Each rule is one kernel the playout (``kernel.playout``) calls on its work
state, a full kernel state at trymove depth 0:

* ``ladder_attack``: the first atari of a simple ladder that captures a
  string with two liberties, read with ``trymove``/``popgo`` on the work
  state itself (``LADDER_PLY`` plies, ``LADDER_NODES`` ataris at most);
  the defender only extends, and escapes when it could capture an
  attacking string in atari instead (counted as a failed ladder);
* ``escape_works``: an atari escape (an extension) that leaves three
  liberties or more, or two that such a ladder does not take;
* ``lone_self_atari``: a lone stone put in atari (capturing nothing) whose
  liberty leads out of an eye space, which random moves may then skip;
* ``nakade_point``: the middle point of a three-point empty region next to
  the last move that only the last mover's stones (and the edge) enclose:
  the vital point of its eye space.

Which rules a playout uses is a set of ``F_*`` bits kept in the state's
header (``H_POLICY``: the bits + 1, 0 meaning ``DEFAULT_FEATURES``, escape
and ladder: the rules that won games at a fixed number of playouts, see
docs/player.md), so a root position carries it into the search and every
work copy (``set_features``).  Not done: ladders with ko or with the
defender's counter-ataris, eye spaces of four or more points, seki.
"""

from numba import njit

from . import loading  # noqa: F401  (installed before the first @njit)
from .board import legal, popgo, trymove
from .layout import (
    BORDER,
    COLOR,
    EMPTY,
    H_POLICY,
    H_STACKP,
    H_W,
    LIBS,
    MAXLIBS,
    NEXT,
    NLIB,
    ORIGIN,
    PASS,
    i64,
    ix,
)

F_ESCAPE = 1  # do not extend out of atari into a working ladder
F_LADDER = 2  # atari the last move's two-liberty string when a ladder takes it
F_NAKADE = 4  # play the vital point of a three-point eye space by the last move
F_SELFATARI = 8  # no lone-stone self-atari outside a two-point eye space
F_ALL = F_ESCAPE | F_LADDER | F_NAKADE | F_SELFATARI
DEFAULT_FEATURES = F_ESCAPE | F_LADDER

LADDER_PLY = 40  # deepest trymove a ladder reading makes
LADDER_NODES = 60  # ataris one reading may try
LADDER_HW = 2 + 2 * (LADDER_PLY + 4)  # hash words a reading's trymoves need


@njit(cache=True, inline="always")
def features(s):
    """The ``F_*`` bits in force for the state ``s`` (``H_POLICY``)."""
    v = s[H_POLICY]
    return v - 1 if v > 0 else DEFAULT_FEATURES


def set_features(s, bits):
    """Make playouts from state ``s`` use the rules ``bits`` (None: the
    default).  A Python helper for the root position's array."""
    s[H_POLICY] = 0 if bits is None else int(bits) + 1


@njit(cache=True, inline="always")
def _frees(s, p, skip):
    """Empty neighbours of ``p`` other than ``skip``."""
    w = s[H_W]
    n = 0
    for q in (p - 1, p + 1, p - w, p + w):
        if q != skip and s[ix(COLOR + q)] == EMPTY:
            n += 1
    return n


@njit(cache=True, inline="always")
def _counter_atari(s, o, color):
    """Does string ``o`` of ``color`` touch an opponent string in atari?"""
    w = s[H_W]
    other = 3 - color
    p = o
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + q)] == other and s[ix(NLIB + s[ix(ORIGIN + q)])] == 1:
                return True
        p = s[ix(NEXT + p)]
        if p == o:
            break
    return False


@njit(cache=True)
def _chase(s, hw, keys, o, attacker, budget):
    """``ladder_attack``'s reading (recursive): the atari that works or PASS."""
    if s[H_STACKP] + 2 > LADDER_PLY or budget[0] <= 0 or s[ix(NLIB + o)] != 2:
        return PASS
    defender = 3 - attacker
    for k in range(2):
        a = i64(s[ix(LIBS + o * MAXLIBS + k)])
        e = i64(s[ix(LIBS + o * MAXLIBS + 1 - k)])
        if _frees(s, e, a) >= 3:
            continue  # the extension at e gets three liberties
        budget[0] -= 1
        if not trymove(s, hw, keys, a, attacker):
            continue
        works = False
        if s[ix(NLIB + s[ix(ORIGIN + a)])] >= 2 and not _counter_atari(s, o, defender):
            if trymove(s, hw, keys, e, defender):
                n = s[ix(NLIB + s[ix(ORIGIN + e)])]
                if n <= 1:
                    works = True
                elif n == 2:
                    works = _chase(s, hw, keys, i64(s[ix(ORIGIN + e)]), attacker, budget) != PASS
                popgo(s, hw, keys)
            else:
                works = True  # the defender cannot extend
        popgo(s, hw, keys)
        if works:
            return a
    return PASS


@njit(cache=True)
def ladder_attack(s, hw, keys, pos, attacker, budget):
    """The atari by ``attacker`` that starts a simple ladder capturing the
    string at ``pos`` (exactly two liberties), or PASS.  ``hw``: LADDER_HW
    scratch hash words; ``budget``: an int array of one, set here to
    LADDER_NODES.  The state comes back unchanged."""
    budget[0] = LADDER_NODES
    return _chase(s, hw, keys, i64(s[ix(ORIGIN + pos)]), attacker, budget)


@njit(cache=True, inline="always")
def escape_works(s, hw, keys, lib, color, budget):
    """May ``color`` extend its string in atari at ``lib``: the move is
    legal and leaves at least three liberties, or two that
    ``ladder_attack`` does not take?"""
    if not trymove(s, hw, keys, lib, color):
        return False
    o = i64(s[ix(ORIGIN + lib)])
    n = s[ix(NLIB + o)]
    ok = n >= 3 or (n == 2 and ladder_attack(s, hw, keys, o, 3 - color, budget) == PASS)
    popgo(s, hw, keys)
    return ok


@njit(cache=True, inline="always")
def _three_space(s, start, owner, buf):
    """The empty region of ``start`` into ``buf`` (4 slots) when it has
    exactly three points and only ``owner`` stones and the edge touch it;
    returns 3, else 0."""
    w = s[H_W]
    buf[0] = start
    n = 1
    i = 0
    while i < n:
        p = buf[ix(i)]
        for q in (p - 1, p + 1, p - w, p + w):
            c = s[ix(COLOR + q)]
            if c == EMPTY:
                if q != buf[0] and (n < 2 or q != buf[1]) and (n < 3 or q != buf[2]):
                    if n == 3:
                        return 0
                    buf[ix(n)] = q
                    n += 1
            elif c == 3 - owner:
                return 0
        i += 1
    return 3 if n == 3 else 0


@njit(cache=True, inline="always")
def nakade_point(s, color, last, buf):
    """The vital point (the middle one) of a three-point empty region next
    to ``last`` enclosed by the other colour's stones, when ``color`` may
    play it; else PASS.  ``buf``: 4 work slots."""
    if last == PASS:
        return PASS
    w = s[H_W]
    other = 3 - color
    if s[ix(COLOR + last)] != other:
        return PASS
    for q in (last - 1, last + 1, last - w, last + w):
        if s[ix(COLOR + q)] != EMPTY or _three_space(s, q, other, buf) == 0:
            continue
        for i in range(3):
            p = buf[ix(i)]
            links = 0
            for j in range(3):
                d = abs(p - buf[ix(j)])
                if d == 1 or d == w:
                    links += 1
            if links == 2:
                if legal(s, p, color, False):
                    return p
                break
    return PASS


@njit(cache=True)
def lone_self_atari(s, pos, color):
    """Would a ``color`` stone at empty ``pos`` touch no own stone, capture
    nothing and keep one liberty, with that liberty next to an empty point
    or a ``color`` stone (not a two-point space the opponent encloses,
    where the stone is a nakade)?"""
    w = s[H_W]
    other = 3 - color
    lib = PASS
    n = 0
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        c = s[ix(COLOR + q)]
        if c == color:
            return False
        if c == EMPTY:
            n += 1
            lib = q
        elif c == other and s[ix(NLIB + s[ix(ORIGIN + q)])] == 1:
            return False
    if n != 1:
        return False
    for q in (lib - 1, lib + 1, lib - w, lib + w):
        c = s[ix(COLOR + q)]
        if q != pos and c != other and c != BORDER:
            return True
    return False
