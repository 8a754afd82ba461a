"""Safety proofs: the attacker can never capture the target, by relevance zones.

The lambda-search of ``prover`` proves captures; this module proves the
other side of the question.  It reads the *escape game*: the attacker moves
first and wins when it removes the target string -- any removal, also one
the defender could answer by taking the capturing stones back (stricter
than the lambda-search's capture that stands), save a single-stone target
taken by a ko capture under model 0, which the defender retakes at once
(``_retaken``).  The defender wins when the target has ``escape``
liberties with the attacker to move.  Ko follows the
prover's models (``C_MODEL``): 2, the attacker may retake every ko at once
and the defender obeys the simple ko ban (the hardest for the defender);
1, both obey it; 0, only the defender may retake at once.  The attacker
never passes in the game, and the defender may.
With ``escape`` 5 a defender's win is "safe" in GNU Go's tactical sense:
its ``attack`` reads strings of at most four liberties.

A proof cannot play the attacker's every move on 19x19.  Each defender win
carries a *zone*: points such that every position that agrees with this one
on the zone (same side to move, same ko ban) is a defender
win too.  The zone holds what the proof looked at:

* a leaf: the target's stones and ``escape`` of its liberties; or, where
  the target is pass-alive (``benson.local_alive``), Benson's certificate;
* a move ``m`` of either side: ``m``, its neighbours, and each string next
  to it -- whole, with every point next to it, when ``m`` takes its last
  liberty; else its stones and one liberty besides ``m`` (``zone.hold``);
* a defender node: its move's points and its child's zone;
* an attacker node: its read set and the zones of its moves' children.

The attacker's moves at a node: first the *null move* -- the attacker
passes and the defender answers ``d``.  If that is proven with zone ``E``
(closed: each defender stone in it has a liberty in it), every empty point
of ``E`` is read, and any attacker move ``y`` outside ``E`` is refuted by the
same ``d``: ``y`` touches nothing the null-move proof looked at and takes no
defender stone in ``E``, so after ``y`` and ``d`` the position agrees with
the null move's on its zone.  With no null-move proof the node reads every
empty point of its own zone, closed, widening until none is new, and a
move outside it is answered by a pass (the position then agrees with this
one on the zone; so this fallback gives up where the attacker is under a
ko ban the pass would lift).  A proof is a finite tree; past ``C_CAP`` plies or
``C_MAXNODES`` nodes the search gives up (no proof, never a false one).
The defender's tries are a heuristic set: a smaller set loses proofs,
never makes a false one.

Table ``tt`` (uint64 rows: key0, key1, data): data = 1 | result << 1 |
remaining plies << 2 | zone slot << 16.  A win's zone is kept in ``pool``
(a ring of zones, ``ptag`` the key each belongs to); a win is reused where
at least as many plies remain and its zone is still in the ring, a failure
where at most as many remain.
"""

import numpy as np
from numba import njit

from . import loading  # noqa: F401  (installed before the first @njit)
from .benson import local_alive
from .board import neighbour_strings, popgo
from .layout import (
    COLOR,
    EMPTY,
    H_KO,
    H_STACKP,
    H_W,
    LIBS,
    MAXLIBS,
    MAXPOS,
    NEXT,
    NLIB,
    ORIGIN,
    PASS,
    ix,
)
from .prover import (
    C_ABORT,
    C_ATTACKER,
    C_CAP,
    C_GUIDE,
    C_MAXNODES,
    C_MODEL,
    C_NODES,
    C_ROOTSP,
    add_empty,
    guide,
    mix,
    order_replies,
    play_node,
    put_first,
)
from .zone import close, copy, examine, examine_move, hold, keep, merge, new_gen, recall

# ctx fields: the prover's first eight (nodes, budget, abort, ko model,
# attacker, root stackp, ply cap, mark generation), then these
C_ESCAPE = 8
C_MOVE = 9  # the root defender's proving move
# 10, 11: zone.C_POOL, zone.C_LGEN; 12, 13: prover.C_GUIDE, C_GUIDED
C_GUIDE_PLIES = 14  # the fast reader's whole guide_nodes up to this ply (guide_limit)
C_BENSON = 15  # 1: a pass-alive target is a defender's leaf (_leaf); 0 (tests): not
GUIDE_FLOOR = 32  # a guide read of fewer nodes is not asked: too short to say much
CTX_LEN = 16

KIND_A, KIND_D = 0, 1
MAX_CAP = 120
ROW = MAXPOS + 8
NULL_FLAG = ROW - 1  # mv[ply, NULL_FLAG]: the attacker passed at ply (a null move)
PLAYED = ROW - 2  # mv[ply, PLAYED]: the attacker's move being read at ply
NO_ENTRY = -1
DEFENDER_TRIES = 6  # below the root, the defender's best tries only
FRIEND_LIBS = 3  # own strings next to the target's liberties lend theirs up to this many


def new_context(entries, slots):
    """ctx, the table (``entries`` a power of two), the zone ring
    (``slots`` zones and their tags), node zones and null-move zones per
    ply,
    candidate rows, two scratch mark rows (candidates; ``zone.hold``'s
    liberties) and Benson's scratch rows (the pass-alive leaf)."""
    ctx = np.zeros(CTX_LEN, np.int64)
    ctx[C_BENSON] = 1
    tt = np.zeros((entries, 3), np.uint64)
    pool = np.zeros((slots, MAXPOS), np.uint8)
    ptag = np.zeros(slots, np.uint64)
    zone = np.zeros((MAX_CAP + 4, MAXPOS), np.uint8)
    ezone = np.zeros((MAX_CAP + 4, MAXPOS), np.uint8)
    tried = np.zeros((MAX_CAP + 4, MAXPOS), np.uint8)
    mv = np.zeros((MAX_CAP + 4, ROW), np.int32)
    mark = np.zeros((2, MAXPOS), np.int64)
    sc = np.zeros((6, MAXPOS + 1), np.int32)  # scratch rows of benson.local_alive
    return ctx, tt, pool, ptag, zone, ezone, tried, mv, mark, sc


# ------------------------------------------------------------- table


@njit(cache=True, _nrt=False)
def _keys(hw, ctx, target, kind):
    q = kind | (ctx[C_ESCAPE] << 4) | (target << 8) | (ctx[C_MODEL] << 20) | (ctx[C_ATTACKER] << 24)
    return hw[0] ^ mix(q), hw[1] ^ mix(q + (1 << 30))


@njit(cache=True, _nrt=False)
def _probe(tt, pool, ptag, hw, ctx, target, kind, rem, z):
    """1 (a win; its zone copied into ``z``), 0 (a failure) or NO_ENTRY."""
    k0, k1 = _keys(hw, ctx, target, kind)
    i = np.int64(k0 & np.uint64(tt.shape[0] - 1))
    if tt[ix(i), 0] != k0 or tt[ix(i), 1] != k1:
        return NO_ENTRY
    data = np.int64(tt[ix(i), 2])
    result = (data >> 1) & 1
    stored = (data >> 2) & 0x3FFF
    if result == 0:
        return np.int64(0) if stored >= rem else NO_ENTRY
    if stored > rem or not recall(pool, ptag, data >> 16, k0, z):
        return NO_ENTRY
    return np.int64(1)


@njit(cache=True, _nrt=False)
def _store(tt, pool, ptag, hw, ctx, target, kind, rem, result, z):
    if ctx[C_ABORT]:
        return
    k0, k1 = _keys(hw, ctx, target, kind)
    i = np.int64(k0 & np.uint64(tt.shape[0] - 1))
    slot = keep(pool, ptag, ctx, z, k0) if result == 1 else np.int64(0)
    tt[ix(i), 0] = k0
    tt[ix(i), 1] = k1
    tt[ix(i), 2] = np.uint64(1 | (result << 1) | (rem << 2) | (slot << 16))


# -------------------------------------------------------------- moves


@njit(cache=True, _nrt=False)
def _open_points(s, ctx, mark, e, tried, mv, ply, target):
    """The empty points of ``e`` not tried yet, the target's liberties
    first (the likeliest captures refute the node soonest)."""
    g = new_gen(ctx, mark[0])
    w = s[H_W]
    o = s[ix(ORIGIN + target)]
    n = 0
    p = o
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if e[ix(q)] and not tried[ix(q)]:
                n = add_empty(s, mv, ply, n, q, mark[0], g)
        p = s[ix(NEXT + p)]
        if p == o:
            break
    for p in range(w + 1, MAXPOS - w):
        if e[ix(p)] and not tried[ix(p)]:
            n = add_empty(s, mv, ply, n, p, mark[0], g)
    return n


@njit(cache=True, _nrt=False, inline="always")
def _add_libs(s, mv, ply, n, x, count, mark, g):
    """Append the first ``count`` liberties of the string ``x`` (``add_empty``)."""
    for k in range(count):
        n = add_empty(s, mv, ply, n, s[ix(LIBS + x * MAXLIBS + k)], mark, g)
    return n


@njit(cache=True, _nrt=False)
def _chain_libs(s, mv, ply, n, x, attacker, mark, g):
    """Append the liberties of the attacker strings of at most three
    liberties next to the string ``x``, a friend that a liberty joins to
    the target: taking or shortening them saves the pair (as GNU Go's
    ``superstring_break_chain_moves`` does for its superstring).  The
    strings are listed in mv[ply + 1], free until ``order_replies``."""
    row = mv[ix(ply + 1)]
    for j in range(neighbour_strings(s, x, attacker, row)):
        y = row[ix(j)]
        if s[ix(NLIB + y)] <= 3:
            n = _add_libs(s, mv, ply, n, y, s[ix(NLIB + y)], mark, g)
    return n


@njit(cache=True, _nrt=False)
def _defences(s, ctx, mark, mv, ply, target):
    """The defender's tries (a heuristic set): captures of attacker strings
    in atari next to the target, the target's liberties, the liberties of
    attacker strings of two, then three liberties next to it, the points
    next to its liberties and the liberties of own strings of at most
    ``FRIEND_LIBS`` there (a connection through the liberty: reading.tst
    91's C7) with the liberties of the attacker strings of at most three
    next to those (``_chain_libs``), the capture of the attacker's last
    move when it is in atari;
    at the root every other empty point too; the pass last, but not after
    a null move."""
    g = new_gen(ctx, mark[0])
    w = s[H_W]
    attacker = ctx[C_ATTACKER]
    o = s[ix(ORIGIN + target)]
    n = 0
    for want in (1, 0, 2, 3):
        p = o
        while True:
            for q in (p - 1, p + 1, p - w, p + w):
                c = s[ix(COLOR + q)]
                if want == 0 and c == EMPTY:
                    n = add_empty(s, mv, ply, n, q, mark[0], g)
                elif want > 0 and c == attacker and s[ix(NLIB + s[ix(ORIGIN + q)])] == want:
                    n = _add_libs(s, mv, ply, n, s[ix(ORIGIN + q)], want, mark[0], g)
            p = s[ix(NEXT + p)]
            if p == o:
                break
    for k in range(min(s[ix(NLIB + o)], MAXLIBS)):
        lib = s[ix(LIBS + o * MAXLIBS + k)]
        for q in (lib - 1, lib + 1, lib - w, lib + w):
            n = add_empty(s, mv, ply, n, q, mark[0], g)
            if s[ix(COLOR + q)] == 3 - attacker:  # a friend's liberties: connect
                x = s[ix(ORIGIN + q)]
                if x != o and s[ix(NLIB + x)] <= FRIEND_LIBS:
                    n = _add_libs(s, mv, ply, n, x, s[ix(NLIB + x)], mark[0], g)
                    n = _chain_libs(s, mv, ply, n, x, attacker, mark[0], g)
    after_null = ply > 0 and mv[ix(ply - 1), NULL_FLAG] != 0
    if ply > 0 and not after_null:  # the attacker's move, if in atari
        x = s[ix(ORIGIN + mv[ix(ply - 1), PLAYED])]
        if s[ix(COLOR + x)] == attacker and s[ix(NLIB + x)] == 1:
            n = _add_libs(s, mv, ply, n, x, 1, mark[0], g)
    if ply == 0:
        for p in range(w + 1, MAXPOS - w):
            n = add_empty(s, mv, ply, n, p, mark[0], g)
    if after_null:
        return n  # after a null move a pass would give the attacker's node back
    mv[ix(ply), ix(n)] = PASS
    return n + 1


@njit(cache=True, _nrt=False, inline="always")
def guide_limit(ctx, ply):
    """The fast reader's node limit at the escape game's ``ply``: the
    whole ctx[C_GUIDE] up to ply ctx[C_GUIDE_PLIES], halved at each ply
    deeper, 0 below ``GUIDE_FLOOR`` or when ctx[C_GUIDE_PLIES] < 0.  A long
    escape asks at every node; the halving keeps the deep reads cheap."""
    near = ctx[C_GUIDE_PLIES]
    shift = max(ply - near, 0)
    if near < 0 or shift > 30:  # (a shift past 63 is undefined in LLVM)
        return np.int64(0)
    limit = np.int64(ctx[C_GUIDE]) >> shift
    return limit if limit >= GUIDE_FLOOR else np.int64(0)


@njit(cache=True, _nrt=False)
def _tries(s, hw, keys, ctx, mark, mv, rd, ply, target):
    """The defender's tries in mv[ply] (``_defences``), the likeliest
    escapes first (``order_replies``), and the fast reader's defence first
    of all (``prover.guide`` within ``guide_limit`` nodes; added when not
    listed, as the tries are a heuristic set).  Their count.  Where a ko
    took the target (``_retaken``), the retake alone."""
    if s[ix(COLOR + target)] == EMPTY:
        mv[ix(ply), 0] = target
        return np.int64(1)
    n = _defences(s, ctx, mark, mv, ply, target)
    order_replies(s, mv, ply, n, target, 3 - ctx[C_ATTACKER])
    return _guide_first(s, hw, keys, ctx, mv, rd, ply, n, target, np.int64(0))


@njit(cache=True, _nrt=False)
def _guide_first(s, hw, keys, ctx, mv, rd, ply, n, target, side):
    """The ``n`` moves of mv[ply] with the fast reader's move for ``side``
    (``prover.guide``, within ``guide_limit`` nodes) first: the defender's
    (0) added when not listed, its tries being a heuristic set; the
    attacker's (1) only moved, as every point of its read set is read.
    Their count.  Past the guide's plies (``guide_limit`` 0, most of a
    deep escape) the reader is not called at all."""
    limit = guide_limit(ctx, ply)
    if limit == 0:
        return n
    return put_first(s, mv, ply, n, guide(s, hw, keys, ctx, rd, target, side, limit), side == 0)


# --------------------------------------------------------------- search


@njit(cache=True, _nrt=False)
def _safe(s, hw, keys, ctx, tt, pool, ptag, zone, ezone, tried, mv, mark, sc, rd, target, kind):
    """One node: 1 when the defender wins (its zone in ``zone[ply]``), else
    0.  ``KIND_A``, the attacker to move: the null move first (the attacker
    passes); every empty point of its zone is then read and must be
    refuted, or, with no null-move proof, every empty point of the node's
    own zone, widening until none is left; the fast reader's capture
    first among them (``_guide_first``).  ``KIND_D``, the defender to
    move: one of its tries must win (``_tries``).  (One recursive
    function: numba's cache does not take mutual recursion.)"""
    ply = s[H_STACKP] - ctx[C_ROOTSP]
    z = zone[ix(ply)]
    z[:] = 0
    first = _leaf(s, ctx, mark, sc, z, target, kind, ply)
    if first >= 0:
        return first
    rem = ctx[C_CAP] - ply
    if ply > 0:
        hit = _probe(tt, pool, ptag, hw, ctx, target, kind, rem, z)
        if hit != NO_ENTRY:
            return hit
    t_, ka, kd = np.int64(target), np.int64(KIND_A), np.int64(KIND_D)  # exact types
    tabs = (tt, pool, ptag, zone, ezone, tried, mv, mark, sc, rd)
    attacker = ctx[C_ATTACKER]
    r = np.int64(1 if kind == KIND_A else 0)
    if kind == KIND_A:
        e, t = ezone[ix(ply)], tried[ix(ply)]
        t[:] = 0
        r = np.int64(0)
        if play_node(s, hw, keys, ctx, PASS, attacker, True):  # the null move
            mv[ix(ply), NULL_FLAG] = 1
            r = _safe(s, hw, keys, ctx, *tabs, t_, kd)
            mv[ix(ply), NULL_FLAG] = 0
            popgo(s, hw, keys)
        widen = r == 0  # no null-move proof: a pass answers the moves outside
        _read_set(s, ctx, mark, e, z, zone[ix(ply + 1)], target, widen)
        # a pass would lift a ko ban on the attacker, which the proof relies on
        r = np.int64(0 if widen and ctx[C_MODEL] != 2 and s[H_KO] != PASS else 1)
        n = _open_points(s, ctx, mark, e, t, mv, ply, target)
        if n > 1 and r == 1:  # a refutation found soonest
            n = _guide_first(s, hw, keys, ctx, mv, rd, ply, n, t_, np.int64(1))
        while n > 0 and r == 1 and not ctx[C_ABORT]:
            for i in range(n):
                m = mv[ix(ply), ix(i)]
                t[ix(m)] = 1
                examine_move(s, ctx, mark, z, m)
                if not play_node(s, hw, keys, ctx, m, attacker, True):
                    continue  # suicide: decided by the points just examined
                r = np.int64(0)  # a removal of the target is the attacker's win
                mv[ix(ply), PLAYED] = m
                if s[ix(COLOR + target)] != EMPTY or _retaken(s, ctx, target):
                    r = _safe(s, hw, keys, ctx, *tabs, t_, kd)
                popgo(s, hw, keys)
                if r == 0:
                    break
                merge(z, zone[ix(ply + 1)])
            n = 0
            if r == 1 and widen:  # the zone is the read set: read its new points
                merge(e, z)
                close(s, ctx, mark, e, 3 - attacker)
                n = _open_points(s, ctx, mark, e, t, mv, ply, target)
        merge(z, e)  # the zone holds the closed read set
    else:
        n = _tries(s, hw, keys, ctx, mark, mv, rd, ply, target)
        d = PASS
        for i in range(n if ply == 0 else min(n, DEFENDER_TRIES)):
            d = mv[ix(ply), ix(i)]
            if play_node(s, hw, keys, ctx, d, 3 - attacker, False):
                r = _safe(s, hw, keys, ctx, *tabs, t_, ka)
                popgo(s, hw, keys)
                if r == 1 or ctx[C_ABORT]:
                    break
        if r == 1:
            _defended(s, ctx, mark, z, zone[ix(ply + 1)], d, ply)
    if ctx[C_ABORT]:
        return np.int64(0)
    _store(tt, pool, ptag, hw, ctx, target, kind, rem, r, z)
    return r


@njit(cache=True, _nrt=False, inline="always")
def _retaken(s, ctx, target):
    """Under ko model 0 the defender may retake any ko at once: a
    single-stone target just taken by a ko capture (the ko point on it) is
    not lost yet; the defender's one try is the retake."""
    return ctx[C_MODEL] == 0 and s[H_KO] == target


@njit(cache=True, _nrt=False)
def _defended(s, ctx, mark, z, child, d, ply):
    """A defender node won by ``d``: its zone is the child's and ``d``'s
    points; at the root ``d`` is the answer."""
    copy(z, child)
    if d != PASS:
        examine_move(s, ctx, mark, z, d)
    if ply == 0:
        ctx[C_MOVE] = d


@njit(cache=True, _nrt=False)
def _read_set(s, ctx, mark, e, z, child, target, widen):
    """An attacker node's first read set ``e`` (and zone ``z``): the null
    move's zone ``child``, or (``widen``) the target and the points next to
    it; closed (``zone.close``)."""
    if widen:
        e[:] = 0
        examine(s, e, s[ix(ORIGIN + target)])
    else:
        copy(e, child)
    close(s, ctx, mark, e, 3 - ctx[C_ATTACKER])
    copy(z, e)


@njit(cache=True, _nrt=False)
def _leaf(s, ctx, mark, sc, z, target, kind, ply):
    """1 when the attacker is to move and the target has ``escape``
    liberties (its zone: the target and the points next to it) or is
    pass-alive (``benson.local_alive``; its zone: Benson's certificate), 0
    when the search must give up (budget spent, no plies left), else -1."""
    if ctx[C_ABORT]:
        return np.int64(0)
    o = s[ix(ORIGIN + target)]
    if kind == KIND_A and s[ix(NLIB + o)] >= ctx[C_ESCAPE]:
        hold(s, ctx, mark, z, o, ctx[C_ESCAPE], PASS)
        return np.int64(1)
    if kind == KIND_A and ctx[C_BENSON] and local_alive(s, ctx, mark, sc, o, z):
        return np.int64(1)
    if ctx[C_CAP] - ply < 2:
        return np.int64(0)
    return np.int64(-1)


# -------------------------------------------------------------- roots


@njit(cache=True, _nrt=False, nogil=True)
def prove_safe(
    s,
    hw,
    keys,
    ctx,
    tt,
    pool,
    ptag,
    zone,
    ezone,
    tried,
    mv,
    mark,
    sc,
    rd,
    target,
    kind,
    escape,
    model,
    cap,
    max_nodes,
):
    """``kind`` KIND_A (the attacker to move) or KIND_D (the owner to move,
    its move in ctx[C_MOVE], PASS for none): 1 proven safe in the escape
    game under ko ``model`` (2: the attacker may retake every ko at once,
    1: neither side may, 0: the defender may), 0 no proof found, -1 node
    budget spent.  Iterative deepening: caps
    of 6, 9, 13 ... plies up to ``cap``, so a short proof is found before a
    long line spends the budget.  The position is left as it was."""
    ctx[C_ABORT] = 0
    ctx[C_MAXNODES] = max_nodes
    ctx[C_ATTACKER] = 3 - s[ix(COLOR + target)]
    ctx[C_ROOTSP] = s[H_STACKP]
    ctx[C_ESCAPE] = escape
    ctx[C_MODEL] = model
    ctx[C_MOVE] = PASS
    ctx[C_NODES] = 0
    top = min(cap, MAX_CAP)
    step = min(6, top)
    while True:
        ctx[C_CAP] = step
        r = _safe(
            s,
            hw,
            keys,
            ctx,
            tt,
            pool,
            ptag,
            zone,
            ezone,
            tried,
            mv,
            mark,
            sc,
            rd,
            np.int64(target),
            np.int64(kind),
        )
        if ctx[C_ABORT]:
            return -1
        if r == 1 or step == top:
            return r
        step = min(top, step + step // 2)
