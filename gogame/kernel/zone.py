"""Relevance zones: the points a proof looked at.

A proof of one side's win carries a *zone*, a set of points (a uint8 row of
``MAXPOS``, 1 = in the zone) such that every position that agrees with the
proved one on the zone -- the same colour on each point, the same side to
move, the same ko ban where it falls in the zone -- is a win for the same
side too.  A string in such a position may reach outside the zone; so a
proof that needs a string's exact stones or liberties puts the string
whole in its zone with every point next to it (``examine``), and one that
needs only "at least k liberties" its stones and k of them (``hold``).

The prover (captures) and the escape game (safety) build their zones with
these helpers; how each combines them, and why moves outside a zone can be
left unread, is in those modules.  Not done here: nothing reads a zone to
choose moves.

A search's table keeps its wins' zones in a ring (``pool``, one zone a
row; ``ptag``, the table key each row belongs to): ``keep`` writes the
next row, ``recall`` reads a row back while it still belongs to the key.

Scratch: ``mark`` is two int64 rows; ``new_gen`` hands out generations of a
row, counted in ``ctx[C_MARKGEN]`` (row 0) and ``ctx[C_LGEN]`` (row 1,
``hold``'s liberties).
"""

import numpy as np
from numba import njit

from . import loading  # noqa: F401  (installed before the first @njit)
from .layout import BLACK, COLOR, EMPTY, H_W, MAXPOS, NEXT, NLIB, ORIGIN, PASS, WHITE, ix

# the ctx fields of the mark generations and of the ring's next slot (the
# same in both searches' ctx)
C_MARKGEN = 7
C_POOL = 10
C_LGEN = 11


@njit(cache=True, _nrt=False)
def new_gen(ctx, mark, field=C_MARKGEN):
    """A fresh generation for the scratch ``mark`` row, counted in
    ``ctx[field]`` (the row is cleared when the count would overflow)."""
    g = ctx[ix(field)] + 1
    if g > 1 << 60:
        mark[:] = 0
        g = 1
    ctx[ix(field)] = g
    return g


@njit(cache=True, _nrt=False)
def examine(s, z, o):
    """Put the string ``o`` and every point next to it in the zone: in a
    position that agrees on the zone it is the same string with the same
    liberties."""
    w = s[H_W]
    p = o
    while True:
        z[ix(p)] = 1
        for q in (p - 1, p + 1, p - w, p + w):
            z[ix(q)] = 1
        p = s[ix(NEXT + p)]
        if p == o:
            break


@njit(cache=True, _nrt=False)
def hold(s, ctx, mark, z, o, k, skip):
    """Put the string ``o``'s stones and ``k`` of its liberties other than
    ``skip`` (all, if it has fewer) in the zone, preferring liberties
    already there: then in every position that agrees on the zone the
    string holds these stones and has at least those liberties."""
    w = s[H_W]
    lmark = mark[1]
    g = new_gen(ctx, lmark, C_LGEN)
    have = 0
    p = o
    while True:  # the stones, and the liberties the zone has already
        z[ix(p)] = 1
        for q in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + q)] == EMPTY and q != skip and lmark[ix(q)] != g:
                lmark[ix(q)] = g
                if z[ix(q)]:
                    have += 1
        p = s[ix(NEXT + p)]
        if p == o:
            break
    while have < k:  # more liberties, until k or none is left
        q = _free_liberty(s, lmark, g, z, o)
        if q < 0:
            break
        z[ix(q)] = 1
        have += 1


@njit(cache=True, _nrt=False)
def _free_liberty(s, lmark, g, z, o):
    """A liberty of ``o`` (marked ``g`` by ``hold``) not in the zone, or -1."""
    w = s[H_W]
    p = o
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if lmark[ix(q)] == g and not z[ix(q)]:
                return q
        p = s[ix(NEXT + p)]
        if p == o:
            return np.int64(-1)


@njit(cache=True, _nrt=False)
def examine_move(s, ctx, mark, z, m):
    """Before ``m`` is played: what decides its legality and what it
    captures -- ``m`` and its neighbours; each string next to it whose last
    liberty ``m`` is, whole with every point next to it (taken, or no
    liberty to lend), any other its stones and one liberty besides ``m``."""
    w = s[H_W]
    z[ix(m)] = 1
    for q in (m - 1, m + 1, m - w, m + w):
        z[ix(q)] = 1
        c = s[ix(COLOR + q)]
        if c == BLACK or c == WHITE:
            x = s[ix(ORIGIN + q)]
            if s[ix(NLIB + x)] == 1:
                examine(s, z, x)
            else:
                hold(s, ctx, mark, z, x, 1, m)


@njit(cache=True, _nrt=False)
def close(s, ctx, mark, z, color):
    """Each stone of ``color`` in the zone brings its string's stones and
    one liberty: no move of the other side outside the zone can then
    capture it."""
    seen = mark[0]
    g = new_gen(ctx, seen)
    w = s[H_W]
    for p in range(w + 1, MAXPOS - w):
        if z[ix(p)] and s[ix(COLOR + p)] == color:
            o = s[ix(ORIGIN + p)]
            if seen[ix(o)] != g:
                seen[ix(o)] = g
                hold(s, ctx, mark, z, o, 1, PASS)


@njit(cache=True, _nrt=False)
def merge(z, child):
    for p in range(MAXPOS):
        if child[ix(p)]:
            z[ix(p)] = 1


@njit(cache=True, _nrt=False)
def copy(z, other):
    for p in range(MAXPOS):
        z[ix(p)] = other[ix(p)]


@njit(cache=True, _nrt=False)
def keep(pool, ptag, ctx, z, tag):
    """Put zone ``z`` in the ring's next row, for the table key ``tag``;
    the row's number."""
    slot = ctx[C_POOL] % pool.shape[0]
    ctx[C_POOL] += 1
    copy(pool[ix(slot)], z)
    ptag[ix(slot)] = tag
    return slot


@njit(cache=True, _nrt=False)
def recall(pool, ptag, slot, tag, z):
    """Copy row ``slot`` of the ring into ``z`` if it still belongs to the
    table key ``tag``; whether it did."""
    if ptag[ix(slot)] != tag:
        return False
    copy(z, pool[ix(slot)])
    return True
