"""Benson's unconditional life: board-wide, and read near one string.

``pass_alive(s, ctx, mark, sc, target)`` runs Benson's algorithm on the
whole board (the prover's roots: ``attack`` 0 at once); ``saving_move``
finds a move after which it holds.  Both are exact and cost a pass over
the board and its regions.

``local_alive(s, ctx, mark, sc, o, z)`` answers whether the string ``o`` is
pass-alive -- never captured, even if its owner always passes -- looking
only at the owner's blocks that small regions link to ``o``:

* a *region* is a connected set of points not of the owner's colour
  (empty, or the attacker's stones); one is flooded from each liberty of
  each block gathered, and the blocks next to a region are gathered in turn;
* a region of more than ``EYE_POINTS`` points, or one that runs into a
  region left unfinished, is *unhealthy* from the start (so are all regions
  of a block with more liberties than the board keeps: it gathers none);
* then Benson's fixpoint: a block with fewer than two healthy regions
  vital to it (every empty point of the region next to the block) dies, and
  a region next to a dead block is not healthy, until nothing changes.

What is left alive is a certificate of Benson's theorem: every block in it
has two healthy vital regions and every healthy region's blocks are all in
it.  The certificate holds in every position that agrees on the alive
blocks' stones and the healthy regions' points (a block there may be
larger, which keeps a region vital), so those points are the zone ``z``.
Unlike ``pass_alive`` it looks near ``o`` only: a region too large
or a block past ``MAX_BLOCKS`` gives "not alive", which loses a proof and
never makes a false one.  ``sc`` is six int32 scratch rows of MAXPOS + 1
(the escape game's own): region of each point, the regions' points and
starts, the blocks, their flags, a stack.
"""

from numba import njit

from . import loading  # noqa: F401  (installed before the first @njit)
from .board import is_liberty, popgo, push_move
from .layout import COLOR, EMPTY, H_SIZE, H_W, LIBS, MAXLIBS, MAXPOS, NEXT, NLIB, ORIGIN, ix
from .zone import C_LGEN, new_gen

EYE_POINTS = 24  # a larger region is unhealthy (the search stays near the string)
MAX_BLOCKS = 48  # blocks and regions gathered at most; past them: not alive
R_REG, R_PTS, R_START, R_BLOCK, R_FLAG, R_STACK = 0, 1, 2, 3, 4, 5  # rows of sc
F_REGION = 64  # sc[R_FLAG][F_REGION + r]: region r healthy; [b]: block b alive


@njit(cache=True, _nrt=False)
def _flood(s, sc, seen, g, lib, color, r, npts):
    """Flood region ``r`` from ``lib`` over points not of ``color``, its
    points appended to sc[R_PTS] from ``npts``; (new npts, healthy): not
    healthy past ``EYE_POINTS`` points or on reaching another region."""
    w = s[H_W]
    reg, pts, stack = sc[R_REG], sc[R_PTS], sc[R_STACK]
    seen[ix(lib)] = g
    reg[ix(lib)] = r
    stack[0] = lib
    top, first, ok = 1, npts, True
    while top > 0:
        top -= 1
        p = stack[ix(top)]
        pts[ix(npts)] = p
        npts += 1
        if npts - first > EYE_POINTS:
            return npts, False
        for q in (p - 1, p + 1, p - w, p + w):
            c = s[ix(COLOR + q)]
            if c != EMPTY and c != 3 - color:
                continue
            if seen[ix(q)] != g:
                seen[ix(q)] = g
                reg[ix(q)] = r
                stack[ix(top)] = q
                top += 1
            elif reg[ix(q)] != r:
                ok = False  # part of a region left unfinished
    return npts, ok


@njit(cache=True, _nrt=False)
def _gather(s, ctx, mark, sc, o):
    """Blocks (origins in sc[R_BLOCK]) and regions (points in sc[R_PTS],
    starts in sc[R_START]) linked to ``o`` by small regions; (blocks,
    regions), or (0, 0) past ``MAX_BLOCKS``.  Each block's index is
    sc[R_REG][origin], read where mark[1][origin] holds this generation."""
    w = s[H_W]
    color = s[ix(COLOR + o)]
    seen, bmark = mark[0], mark[1]
    g, gb = new_gen(ctx, seen), new_gen(ctx, bmark, C_LGEN)
    blocks, start, flag, reg = sc[R_BLOCK], sc[R_START], sc[R_FLAG], sc[R_REG]
    blocks[0], bmark[ix(o)] = o, gb
    nb, nr, npts, i = 1, 0, 0, 0
    while i < nb:
        b = blocks[ix(i)]
        i += 1
        if s[ix(NLIB + b)] > MAXLIBS:
            continue  # its liberties are not all listed
        for k in range(s[ix(NLIB + b)]):
            lib = s[ix(LIBS + b * MAXLIBS + k)]
            if seen[ix(lib)] == g:
                continue
            if nr == MAX_BLOCKS:
                return 0, 0
            start[ix(nr)] = npts
            npts, ok = _flood(s, sc, seen, g, lib, color, nr, npts)
            flag[ix(F_REGION + nr)] = ok
            nr += 1
            if not ok:
                continue  # an unhealthy region gathers no blocks
            for m in range(start[ix(nr - 1)], npts):
                p = sc[R_PTS][ix(m)]
                for q in (p - 1, p + 1, p - w, p + w):
                    x = s[ix(ORIGIN + q)]
                    if s[ix(COLOR + q)] == color and bmark[ix(x)] != gb:
                        if nb == MAX_BLOCKS:
                            return 0, 0
                        bmark[ix(x)], blocks[ix(nb)] = gb, x
                        nb += 1
    start[ix(nr)] = npts
    for j in range(nb):
        reg[ix(blocks[ix(j)])] = j  # a block's index, at its origin (a stone: no region)
    return nb, nr


@njit(cache=True, _nrt=False)
def _fixpoint(s, sc, nb, nr, color):
    """Benson's two steps until nothing changes; is block 0 alive?"""
    w = s[H_W]
    flag, blocks = sc[R_FLAG], sc[R_BLOCK]
    for j in range(nb):
        flag[ix(j)] = 1
    changed = True
    while changed:
        changed = False
        for j in range(nb):
            if flag[ix(j)] == 0:
                continue
            vital = 0
            for r in range(nr):
                if flag[ix(F_REGION + r)] and _vital(s, sc, r, blocks[ix(j)]):
                    vital += 1
            if vital < 2:
                flag[ix(j)], changed = 0, True
        for r in range(nr):
            if flag[ix(F_REGION + r)] == 0:
                continue
            for m in range(sc[R_START][ix(r)], sc[R_START][ix(r + 1)]):
                p = sc[R_PTS][ix(m)]
                for q in (p - 1, p + 1, p - w, p + w):
                    if s[ix(COLOR + q)] == color:
                        if flag[ix(sc[R_REG][ix(s[ix(ORIGIN + q)])])] == 0:
                            flag[ix(F_REGION + r)], changed = 0, True
    return flag[0] == 1


@njit(cache=True, _nrt=False)
def _vital_candidates(s, ctx, mark, sc, o):
    """How many regions next to ``o`` may be vital to it in Benson's sense
    (at most two counted): flooded from its liberties over points not of
    its colour, a region is dropped at its first empty point that is no
    liberty of ``o``, or past ``EYE_POINTS`` points.  A pass-alive ``o``
    has two vital regions, so fewer rule it out before anything else is
    gathered (a region dropped for its size only loses a proof)."""
    w = s[H_W]
    color = s[ix(COLOR + o)]
    seen = mark[0]
    g = new_gen(ctx, seen)
    stack = sc[R_STACK]
    found = 0
    for k in range(min(s[ix(NLIB + o)], MAXLIBS)):
        lib = s[ix(LIBS + o * MAXLIBS + k)]
        if seen[ix(lib)] == g:
            continue
        seen[ix(lib)] = g
        stack[0] = lib
        top, size, ok = 1, 0, True
        while top > 0 and ok:
            top -= 1
            p = stack[ix(top)]
            size += 1
            ok = size <= EYE_POINTS and (s[ix(COLOR + p)] != EMPTY or is_liberty(s, o, p))
            for q in (p - 1, p + 1, p - w, p + w):
                c = s[ix(COLOR + q)]
                if (c == EMPTY or c == 3 - color) and seen[ix(q)] != g:
                    seen[ix(q)] = g
                    stack[ix(top)] = q
                    top += 1
        if ok:
            found += 1
            if found == 2:
                break
    return found


@njit(cache=True, _nrt=False)
def local_alive(s, ctx, mark, sc, o, z):
    """True when the string ``o`` is pass-alive by the blocks and regions
    near it (module doc); then the alive blocks' stones and the healthy
    regions' points are added to the zone ``z``."""
    if _vital_candidates(s, ctx, mark, sc, o) < 2:
        return False
    color = s[ix(COLOR + o)]
    nb, nr = _gather(s, ctx, mark, sc, o)
    if nb == 0 or not _fixpoint(s, sc, nb, nr, color):
        return False
    for j in range(nb):
        if sc[R_FLAG][ix(j)]:
            b = sc[R_BLOCK][ix(j)]
            p = b
            while True:
                z[ix(p)] = 1
                p = s[ix(NEXT + p)]
                if p == b:
                    break
    for r in range(nr):
        if sc[R_FLAG][ix(F_REGION + r)]:
            for m in range(sc[R_START][ix(r)], sc[R_START][ix(r + 1)]):
                z[ix(sc[R_PTS][ix(m)])] = 1
    return True


# --------------------------------------------------------- board-wide


@njit(cache=True, _nrt=False)
def _regions(s, color, sc):
    """Flood-fill the regions (connected sets of points not of ``color``):
    sc[R_REG] region of each point (-1: none), sc[R_PTS] their points,
    sc[R_START] the start of each region's points; return the count."""
    w = s[H_W]
    size = s[H_SIZE]
    reg, pts, start, stack = sc[R_REG], sc[R_PTS], sc[R_START], sc[R_STACK]
    reg[:MAXPOS] = -1
    nreg = 0
    npts = 0
    for row in range(size):
        for col in range(size):
            p = (row + 1) * w + col + 1
            if s[ix(COLOR + p)] == color or reg[ix(p)] >= 0:
                continue
            start[ix(nreg)] = npts
            reg[ix(p)] = nreg
            stack[0] = p
            top = 1
            while top > 0:
                top -= 1
                q = stack[ix(top)]
                pts[ix(npts)] = q
                npts += 1
                for r in (q - 1, q + 1, q - w, q + w):
                    c = s[ix(COLOR + r)]
                    if (c == EMPTY or c == 3 - color) and reg[ix(r)] < 0:
                        reg[ix(r)] = nreg
                        stack[ix(top)] = r
                        top += 1
            nreg += 1
    start[ix(nreg)] = npts
    return nreg


@njit(cache=True, _nrt=False)
def _vital(s, sc, r, b):
    """Is every empty point of region ``r`` a liberty of block ``b``?"""
    for k in range(sc[R_START][ix(r)], sc[R_START][ix(r + 1)]):
        p = sc[R_PTS][ix(k)]
        if s[ix(COLOR + p)] == EMPTY and not is_liberty(s, b, p):
            return False
    return True


@njit(cache=True, _nrt=False)
def _drop_blocks(s, ctx, mark, sc, color):
    """Benson step 1: blocks with fewer than two healthy vital regions die."""
    w = s[H_W]
    size = s[H_SIZE]
    alive, healthy, reg = sc[R_BLOCK], sc[R_FLAG], sc[R_REG]
    changed = False
    for row in range(size):
        for col in range(size):
            b = (row + 1) * w + col + 1
            if s[ix(COLOR + b)] != color or s[ix(ORIGIN + b)] != b or alive[ix(b)] == 0:
                continue
            g = new_gen(ctx, mark)
            vital = 0
            p = b
            while vital < 2:
                for q in (p - 1, p + 1, p - w, p + w):
                    r = reg[ix(q)]
                    if r >= 0 and healthy[ix(r)] and mark[ix(r)] != g:
                        mark[ix(r)] = g
                        if _vital(s, sc, r, b):
                            vital += 1
                p = s[ix(NEXT + p)]
                if p == b:
                    break
            if vital < 2:
                alive[ix(b)] = 0
                changed = True
    return changed


@njit(cache=True, _nrt=False)
def _drop_regions(s, sc, nreg, color):
    """Benson step 2: a region next to a dead block is not healthy."""
    w = s[H_W]
    alive, healthy = sc[R_BLOCK], sc[R_FLAG]
    changed = False
    for r in range(nreg):
        if not healthy[ix(r)]:
            continue
        for k in range(sc[R_START][ix(r)], sc[R_START][ix(r + 1)]):
            p = sc[R_PTS][ix(k)]
            for q in (p - 1, p + 1, p - w, p + w):
                if s[ix(COLOR + q)] == color and alive[ix(s[ix(ORIGIN + q)])] == 0:
                    healthy[ix(r)] = 0
        if not healthy[ix(r)]:
            changed = True
    return changed


@njit(cache=True, _nrt=False, nogil=True)
def pass_alive(s, ctx, mark, sc, target):
    """Benson's unconditional life: True when the string at ``target`` can
    never be captured, even if its owner always passes."""
    color = s[ix(COLOR + target)]
    nreg = _regions(s, color, sc)
    sc[R_BLOCK][:MAXPOS] = 1  # alive, by block origin (the rows' board-wide use)
    sc[R_FLAG][:nreg] = 1  # healthy, by region
    while True:
        a = _drop_blocks(s, ctx, mark[0], sc, color)
        b = _drop_regions(s, sc, nreg, color)
        if not a and not b:
            break
    return sc[R_BLOCK][ix(s[ix(ORIGIN + target)])] == 1


@njit(cache=True, _nrt=False, nogil=True)
def saving_move(s, hw, keys, ctx, mark, sc, target):
    """A defender's move (simple ko rule) after which the target is pass
    alive, or -1."""
    color = s[ix(COLOR + target)]
    w = s[H_W]
    for p in range(w + 1, MAXPOS - w):
        if s[ix(COLOR + p)] != EMPTY or not push_move(s, hw, keys, p, color, False):
            continue
        ok = pass_alive(s, ctx, mark, sc, target)
        popgo(s, hw, keys)
        if ok:
            return p
    return -1
