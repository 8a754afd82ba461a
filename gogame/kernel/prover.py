"""The proving capture solver: lambda-search whose answers are proofs.

A question names a target string (by one of its stones, the anchor) and the
attacker, its opponent.  ``_search`` reads attacker nodes and defender
nodes (after an attacker's threat) of a lambda-tree (Thomsen 2000) of
order ``n``:

* order 0: the target has one liberty and the attacker may take it, and
  the capture stands: the capturing string is not left in atari with the
  defender allowed to take it at once (a snapback, or a ko retake the
  model allows) -- GNU Go's notion of a capture;
* order k >= 1: an attacker move ``a`` is a threat when, after ``a`` and a
  defender's pass, an order k-1 tree wins (this is checked by playing the
  pass); ``a`` wins when every legal defender reply leaves an order k win.

Soundness does not rest on lambda theory: the attacker's candidates are a
heuristic set (a smaller set loses proofs, never makes a false one), while a
defender node covers every legal defender move, by relevance zones
(``zone``).  Each proven capture carries a zone: points such that every
position agreeing with this one on them (the same side to move, the same ko
ban inside them) is a capture too -- order 0: the target whole with the
points next to it, the capturing move's points and the capturing string
with two liberties (in atari: whole with its neighbours); an attacker node:
its move's points and the defender node's zone; a defender node: the
zone of its pass's proof, closed over the attacker's strings (each brings
a liberty), and each move read with its child's zone.  A defender node
first passes: the threat must then be proven (order n - 1 after an order n
threat).  Only the empty points of the closed zone of that proof are
read; any other legal move ``d`` is refuted by the same proof, since ``d``
is outside the zone and takes no attacker stone in it, so afterwards the
position agrees with the pass's on the zone (with no ko ban in it).  Order
k >= 2 reads those moves at order k - 1 first (cheap), then the ones left
at order k.  The attacker never passes.

Ko model (``C_MODEL``): 0 -- the attacker obeys the ko ban, the defender may
retake any ko at once (unlimited ko threats); 1 -- both obey the simple ko
ban; 2 -- the attacker may retake any ko, the defender obeys the ban.  The
ko point is in the hash words, and the model and side in the question key.

Depth: ``C_CAP`` plies below the root; a proof whose capture would come
later than that is not made, so every proof's lines (threat-check passes
aside) end with the capture within the cap.  Nodes: every move played by
the search counts one; past ``C_MAXNODES`` the search stops (``C_ABORT``)
and stores nothing more.

Benson's algorithm (``benson.pass_alive``, used at the roots by
``core.prover``): a string in a pass-alive set can never be captured,
whatever the attacker plays and whoever has ko threats.

Transposition table ``tt`` (uint64 rows: key0, key1, data): the keys are the
board's hash words XORed with a mix of the question (order, node kind,
model, anchor, attacker); data = 1 | result << 1 | remaining plies << 2 |
move << 16 | zone slot << 32.  A win's zone is kept in ``pool``, a ring of
zones (``ptag``: the key each belongs to).  A win stored with r plies to
spare is reused where at least r remain and its zone is still in the ring;
a failure where at most r remain.
"""

import numpy as np
from numba import njit

from . import loading  # noqa: F401  (installed before the first @njit)
from . import reading as kr
from .board import legal, libs_after, popgo, push_move
from .layout import (
    COLOR,
    EMPTY,
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
from .zone import (
    C_LGEN,
    C_MARKGEN,
    C_POOL,
    close,
    copy,
    examine,
    examine_move,
    hold,
    keep,
    merge,
    new_gen,
    recall,
)

# ctx fields
C_NODES = 0
C_MAXNODES = 1
C_ABORT = 2
C_MODEL = 3
C_ATTACKER = 4
C_ROOTSP = 5
C_CAP = 6
# 7: zone.C_MARKGEN
C_HITS = 8
C_STORES = 9
# 10: zone.C_POOL, 11: zone.C_LGEN
C_GUIDE = 12  # reading nodes a guide question may take (0: no guide)
C_GUIDED = 13  # reading nodes the guide took (counted in C_NODES too)
CTX_LEN = 16
# a read past its node limit still counts a node for each move its open
# nodes go on to try (16 seen on a broken ladder): the guide leaves this
# many of the budget for them, so that the proof's count keeps within it
GUIDE_SLACK = 64
assert C_MARKGEN == 7 and C_POOL == 10 and C_LGEN == 11

KIND_A, KIND_D, KIND_ROOT = 0, 1, 2
MAX_CAP = 120  # plies below the root at most
MAX_ORDER = 4
ROW = MAXPOS + 8  # mv row: candidates of one ply
NO_ENTRY = -1


def new_context(entries, slots):
    """ctx, the table (``entries`` a power of two), candidate rows, principal
    lines, two scratch mark rows, Benson's scratch arrays, the zone of each
    ply's node, and the ring of the table's zones (``slots`` zones and the
    key each belongs to)."""
    ctx = np.zeros(CTX_LEN, np.int64)
    tt = np.zeros((entries, 3), np.uint64)
    mv = np.zeros((MAX_CAP + 4, ROW), np.int32)
    pv = np.zeros((MAX_CAP + 4, MAX_CAP + 4), np.int32)
    mark = np.zeros((2, MAXPOS), np.int64)
    scratch = np.zeros((6, MAXPOS + 1), np.int32)
    zone = np.zeros((MAX_CAP + 4, MAXPOS), np.uint8)
    pool = np.zeros((slots, MAXPOS), np.uint8)
    ptag = np.zeros(slots, np.uint64)
    return ctx, tt, mv, pv, mark, scratch, zone, pool, ptag


# ------------------------------------------------------------- helpers


@njit(cache=True, _nrt=False, inline="always")
def _free(ctx, attacker):
    """May this side retake a ko at once under the model?"""
    model = ctx[C_MODEL]
    return model == 2 if attacker else model == 0


@njit(cache=True, _nrt=False, inline="always")
def _ply(s, ctx):
    return s[H_STACKP] - ctx[C_ROOTSP]


@njit(cache=True, _nrt=False)
def mix(q):
    """A 64-bit mix of a question's number (splitmix64's finaliser), XORed
    into the hash words to key a table entry."""
    x = np.uint64(q) * np.uint64(0x9E3779B97F4A7C15)
    x ^= x >> np.uint64(31)
    x *= np.uint64(0xBF58476D1CE4E5B9)
    x ^= x >> np.uint64(29)
    return x


@njit(cache=True, _nrt=False)
def _keys(hw, ctx, target, order, kind):
    q = order | (kind << 4) | (ctx[C_MODEL] << 6) | (target << 8) | (ctx[C_ATTACKER] << 24)
    return hw[0] ^ mix(q), hw[1] ^ mix(q + (1 << 30))


@njit(cache=True, _nrt=False)
def _probe(tt, pool, ptag, hw, ctx, target, order, kind, rem, z):
    """NO_ENTRY, or result * 2**16 + move of a reusable entry; a win's zone
    is copied into ``z`` (a win whose zone has left the ring is not
    reusable)."""
    k0, k1 = _keys(hw, ctx, target, order, kind)
    i = np.int64(k0 & np.uint64(tt.shape[0] - 1))
    if tt[ix(i), 0] != k0 or tt[ix(i), 1] != k1:
        return NO_ENTRY
    data = np.int64(tt[ix(i), 2])
    result = (data >> 1) & 1
    stored = (data >> 2) & 0x3FFF
    if result == 0 and stored < rem:
        return NO_ENTRY
    if result == 1 and (stored > rem or not recall(pool, ptag, data >> 32, k0, z)):
        return NO_ENTRY
    ctx[C_HITS] += 1
    return (result << 16) | ((data >> 16) & 0xFFFF)


@njit(cache=True, _nrt=False)
def _store(tt, pool, ptag, hw, ctx, target, order, kind, rem, result, move, z):
    """Keep a result, and a win's zone ``z`` in the next slot of the ring."""
    if ctx[C_ABORT]:
        return
    k0, k1 = _keys(hw, ctx, target, order, kind)
    i = np.int64(k0 & np.uint64(tt.shape[0] - 1))
    slot = keep(pool, ptag, ctx, z, k0) if result == 1 else np.int64(0)
    tt[ix(i), 0] = k0
    tt[ix(i), 1] = k1
    tt[ix(i), 2] = np.uint64(1 | (result << 1) | (rem << 2) | (move << 16) | (slot << 32))
    ctx[C_STORES] += 1


@njit(cache=True, _nrt=False)
def play_node(s, hw, keys, ctx, pos, color, attacker):
    """Play for the attacker or the defender under the model; count a node."""
    if not push_move(s, hw, keys, pos, color, _free(ctx, attacker)):
        return False
    ctx[C_NODES] += 1
    if ctx[C_NODES] > ctx[C_MAXNODES]:
        ctx[C_ABORT] = 1
    return True


@njit(cache=True, _nrt=False)
def _capture_point(s, hw, keys, ctx, mark, z, target):
    """Order 0: the target's last liberty if the attacker may take it there
    and the capture stands, else PASS.  A capture stands unless it leaves
    the capturing string in atari with the defender allowed to take it at
    once (a snapback, or a ko the model lets the defender retake).  On a
    capture ``z`` is its zone: the target whole with the points next to it,
    the move's points (``examine_move``), and the capturing string with two
    liberties -- or, in atari, whole with the points next to it."""
    o = s[ix(ORIGIN + target)]
    if s[ix(NLIB + o)] != 1:
        return PASS
    lib = s[ix(LIBS + o * MAXLIBS)]
    z[:] = 0
    examine(s, z, o)
    examine_move(s, ctx, mark, z, lib)
    if not push_move(s, hw, keys, lib, ctx[C_ATTACKER], _free(ctx, True)):
        return PASS
    x = s[ix(ORIGIN + lib)]
    stands = True
    if s[ix(NLIB + x)] == 1:
        stands = not legal(s, s[ix(LIBS + x * MAXLIBS)], 3 - ctx[C_ATTACKER], _free(ctx, False))
        examine(s, z, x)
    else:
        hold(s, ctx, mark, z, x, 2, PASS)
    popgo(s, hw, keys)
    return lib if stands else PASS


@njit(cache=True, _nrt=False, inline="always")
def add_empty(s, mv, ply, n, p, mark, g):
    """Append ``p`` to the candidate row ``mv[ply]`` (``n`` so far) if it is
    empty and not marked ``g`` yet; the new count."""
    if s[ix(COLOR + p)] == EMPTY and mark[ix(p)] != g:
        mark[ix(p)] = g
        mv[ix(ply), ix(n)] = p
        return n + 1
    return n


@njit(cache=True, _nrt=False)
def _line(pv, ply, move):
    """pv[ply] = move, then the line one ply down."""
    n = pv[ix(ply + 1), 0]
    pv[ix(ply), 0] = n + 1
    pv[ix(ply), 1] = move
    for k in range(n):
        pv[ix(ply), ix(2 + k)] = pv[ix(ply + 1), ix(1 + k)]


@njit(cache=True, _nrt=False)
def guide(s, hw, keys, ctx, rd, target, side, limit):
    """The fast reader's move for the side to move (``side`` 1: the
    target's opponent, 0: its owner), or PASS when it names none: read
    as a question of its own at this stackp (the reader's depths moved up
    by it), within ``limit`` reading nodes and the budget left but
    ``GUIDE_SLACK``, each counted as a node of the proof's budget.
    ``rd``: the reader's context, rows, cache and ABDADA tables
    (``Reader.kernel_tables``).  Only an order: the move is tried first,
    never trusted; ``limit`` 0 reads nothing."""
    left = ctx[C_MAXNODES] - ctx[C_NODES] - GUIDE_SLACK
    if limit <= 0 or ctx[C_ABORT] or left < 1:
        return np.int64(PASS)
    rc, rmv, table, meta, busy, flag = rd
    # a bool computed here, as read_rows passes it: a recursive kernel
    # called with another type (a literal) breaks numba's cache (numba#6713)
    attack = side != 0
    sp = s[H_STACKP]
    for k in range(kr.C_DEPTH, kr.C_KODEPTH + 1):
        rc[ix(k)] += sp
    rc[kr.C_NODELIMIT] = min(limit, left)
    kr._root(s, rc, rmv)
    n0 = rc[kr.C_NODES]
    r = kr._read(
        s, hw, keys, rc, rmv, table, meta, busy, flag,
        attack, np.int64(target), np.int64(EMPTY), np.int64(0), np.int64(kr.WIN),
    )  # fmt: skip
    for k in range(kr.C_DEPTH, kr.C_KODEPTH + 1):
        rc[ix(k)] -= sp
    spent = rc[kr.C_NODES] - n0
    ctx[C_GUIDED] += spent
    ctx[C_NODES] += spent
    if ctx[C_NODES] > ctx[C_MAXNODES]:
        ctx[C_ABORT] = 1
    return np.int64(PASS if r < kr.MOVE_SPAN else r % kr.MOVE_SPAN)


@njit(cache=True, _nrt=False)
def put_first(s, mv, ply, n, m, add):
    """Move ``m`` to the front of the ``n`` moves of mv[ply] (``add``: put
    it there also when not listed, if empty); the new count.  PASS: no
    change."""
    if m == PASS:
        return n
    j = -1
    for i in range(n):
        if mv[ix(ply), ix(i)] == m:
            j = i
            break
    if j < 0:
        if not add or s[ix(COLOR + m)] != EMPTY:
            return n
        j = n
        n += 1
    for i in range(j, 0, -1):
        mv[ix(ply), ix(i)] = mv[ix(ply), ix(i - 1)]
    mv[ix(ply), 0] = m
    return n


# ---------------------------------------------------------- candidates


@njit(cache=True, _nrt=False)
def _candidates(s, ctx, mv, mark, ply, target, order):
    """The attacker's moves tried at ``order`` (a heuristic set: a smaller
    one loses proofs, never makes a false one): the target's liberties; from
    order 2 also the empty points within distance 2 of them, and the
    liberties of attacker strings of at most two liberties next to the
    target, with the captures of defender strings in atari next to those."""
    w = s[H_W]
    g = new_gen(ctx, mark)
    o = s[ix(ORIGIN + target)]
    nl = s[ix(NLIB + o)]
    n = 0
    for k in range(nl):
        n = add_empty(s, mv, ply, n, s[ix(LIBS + o * MAXLIBS + k)], mark, g)
    if order < 2:
        return n
    for k in range(nl):
        lib = s[ix(LIBS + o * MAXLIBS + k)]
        for dr in range(-2, 3):
            for dc in range(abs(dr) - 2, 3 - abs(dr)):
                p = lib + dr * w + dc
                if 0 < p < MAXPOS:
                    n = add_empty(s, mv, ply, n, p, mark, g)
    attacker = ctx[C_ATTACKER]
    p = o
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + q)] == attacker and s[ix(NLIB + s[ix(ORIGIN + q)])] <= 2:
                n = _weak_string_moves(s, mv, mark, g, ply, n, s[ix(ORIGIN + q)])
        p = s[ix(NEXT + p)]
        if p == o:
            break
    return n


@njit(cache=True, _nrt=False)
def _weak_string_moves(s, mv, mark, g, ply, n, x):
    """Liberties of the attacker string ``x`` and the last liberties of the
    defender strings in atari next to it."""
    w = s[H_W]
    for k in range(s[ix(NLIB + x)]):
        n = add_empty(s, mv, ply, n, s[ix(LIBS + x * MAXLIBS + k)], mark, g)
    other = 3 - s[ix(COLOR + x)]
    p = x
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + q)] == other and s[ix(NLIB + s[ix(ORIGIN + q)])] == 1:
                n = add_empty(s, mv, ply, n, s[ix(LIBS + s[ix(ORIGIN + q)] * MAXLIBS)], mark, g)
        p = s[ix(NEXT + p)]
        if p == x:
            break
    return n


# --------------------------------------------------------------- search


@njit(cache=True, _nrt=False)
def _search(s, hw, keys, ctx, tt, mv, pv, mark, zone, pool, ptag, rd, target, n, kind):
    """One node: 1 (a proven capture, its zone in ``zone[ply]``) or 0.  ``KIND_A``: the
    attacker to move, a lambda-tree of order <= n; ``KIND_D``: the defender after an order n
    threat (a pass loses to order n - 1), every legal reply must leave an order <= n win;
    ``KIND_ROOT``: the defender at the root, a pass and every move must lose to order <= n.
    Replies: ``_replies``; first tries: ``_guided``.  (One recursive function, exactly
    typed: numba's cache takes no mutual recursion.)"""
    ply = _ply(s, ctx)
    t, ka, kd, lower = np.int64(target), np.int64(KIND_A), np.int64(KIND_D), np.int64(n - 1)
    pv[ix(ply), 0] = 0
    z = zone[ix(ply)]
    if ctx[C_ABORT]:
        return np.int64(0)
    if kind == KIND_A:
        first = _shortcut(s, hw, keys, ctx, pv, mark, z, ply, target, n)
        if first >= 0:
            return first
        if _search(s, hw, keys, ctx, tt, mv, pv, mark, zone, pool, ptag, rd, t, lower, ka):
            return np.int64(1)
    elif ply + 2 > ctx[C_CAP] and kind == KIND_D:
        return np.int64(0)
    rem = ctx[C_CAP] - ply
    hit = _probe(tt, pool, ptag, hw, ctx, target, n, kind, rem, z)
    if hit != NO_ENTRY:
        if kind == KIND_A and hit >> 16 == 1:
            pv[ix(ply), 0] = 1
            pv[ix(ply), 1] = hit & 0xFFFF
        return np.int64(hit >> 16)
    color = ctx[C_ATTACKER] if kind == KIND_A else 3 - ctx[C_ATTACKER]
    if kind == KIND_A:
        count, lo = _candidates(s, ctx, mv, mark[0], ply, target, n), n
        count = _guided(s, hw, keys, ctx, mv, rd, ply, count, target, kind)
    else:  # the threat: the defender passes
        r, sub = np.int64(0), np.int64(n - 1 if kind == KIND_D else n)
        if play_node(s, hw, keys, ctx, PASS, color, False):
            r = _search(s, hw, keys, ctx, tt, mv, pv, mark, zone, pool, ptag, rd, t, sub, ka)
            popgo(s, hw, keys)
        if r == 0:
            _store(tt, pool, ptag, hw, ctx, target, n, kind, rem, r, np.int64(0), z)
            return r
        count = _replies(s, ctx, mv, mark, z, zone[ix(ply + 1)], ply, target, 3 - color)
        count = _guided(s, hw, keys, ctx, mv, rd, ply, count, target, kind)
        lo = max(sub, 1) if kind == KIND_D else 0  # order 1 reads its replies once
    for k in range(lo, n + 1):
        left, hardest = 0, np.int64(-1)  # the line: the hardest move of the last pass
        sub, child = (np.int64(n), kd) if kind == KIND_A else (np.int64(k), ka)
        for i in range(count):
            m = mv[ix(ply), ix(i)]
            if kind != KIND_A and k == lo:
                examine_move(s, ctx, mark, z, m)  # how it is played, legal or not
            if not play_node(s, hw, keys, ctx, m, color, kind == KIND_A):
                continue
            before = ctx[C_NODES]
            r = np.int64(0)  # a removal that did not stand (the target gone) is no threat
            if kind != KIND_A or s[ix(COLOR + target)] != EMPTY:
                r = _search(s, hw, keys, ctx, tt, mv, pv, mark, zone, pool, ptag, rd, t, sub, child)
            popgo(s, hw, keys)
            if ctx[C_ABORT]:
                return np.int64(0)
            if kind == KIND_A:
                if r == 1:
                    _won(s, ctx, mark, z, zone[ix(ply + 1)], m)
                    _store(tt, pool, ptag, hw, ctx, target, n, kind, rem, r, np.int64(m), z)
                    _line(pv, ply, m)
                    return r
            elif r == 0 and k == n:  # a refutation
                _store(tt, pool, ptag, hw, ctx, target, n, kind, rem, r, np.int64(m), z)
                return r
            elif r == 0:
                mv[ix(ply), ix(left)] = m  # left <= i: the list is read ahead of the writes
                left += 1
            else:
                merge(z, zone[ix(ply + 1)])
                if ctx[C_NODES] - before > hardest:
                    hardest = ctx[C_NODES] - before
                    _line(pv, ply, m)
        count = left
    result = np.int64(0 if kind == KIND_A else 1)
    _store(tt, pool, ptag, hw, ctx, target, n, kind, rem, result, np.int64(0), z)
    return result


@njit(cache=True, _nrt=False)
def _guided(s, hw, keys, ctx, mv, rd, ply, n, target, kind):
    """The guide's move (``guide``) first among the ``n`` moves of
    mv[ply]: at an attacker node its capture, added when not listed (the
    candidates are a heuristic set); at a defender node its defence, only
    when listed (every legal move is covered by the zone).  The count."""
    attacker = kind == KIND_A
    m = guide(s, hw, keys, ctx, rd, target, np.int64(1 if attacker else 0), ctx[C_GUIDE])
    return put_first(s, mv, ply, n, m, attacker)


@njit(cache=True, _nrt=False)
def _shortcut(s, hw, keys, ctx, pv, mark, z, ply, target, n):
    """Attacker node: 1 when the capture is on now (order 0; its zone in
    ``z``), 0 when no order n tree can win (more than n + 1 liberties: each
    attacker move takes one at most; or no room left), -1 to search."""
    lib = _capture_point(s, hw, keys, ctx, mark, z, target)
    if lib != PASS and ply + 1 <= ctx[C_CAP]:
        pv[ix(ply), 0] = 1
        pv[ix(ply), 1] = lib
        return np.int64(1)
    if n == 0 or s[ix(NLIB + s[ix(ORIGIN + target)])] > n + 1 or ply + 3 > ctx[C_CAP]:
        return np.int64(0)
    return np.int64(-1)


@njit(cache=True, _nrt=False)
def _won(s, ctx, mark, z, child, m):
    """An attacker node won by ``m``: its zone is the defender node's
    ``child`` and ``m``'s points."""
    copy(z, child)
    examine_move(s, ctx, mark, z, m)


@njit(cache=True, _nrt=False)
def _replies(s, ctx, mv, mark, z, child, ply, target, attacker):
    """Defender node whose pass lost to a proof with zone ``child``: the
    moves to read into mv[ply], their count.  ``z`` (the node's zone) starts
    as ``child`` closed over the attacker's strings (each brings one
    liberty), and the moves are its empty points.  Any other legal
    defender move ``d`` is refuted by the pass's proof: ``d`` is outside the
    zone and takes no attacker stone in it (each has a liberty there), so
    after ``d`` the position agrees with the pass's on its zone, with no ko
    ban inside it.  The node's zone grows by each move read and its
    child's zone.  The moves are sorted, the likeliest escapes first
    (``order_replies``)."""
    copy(z, child)
    close(s, ctx, mark, z, attacker)
    w = s[H_W]
    n = 0
    for p in range(w + 1, MAXPOS - w):
        if z[ix(p)] and s[ix(COLOR + p)] == EMPTY:
            mv[ix(ply), ix(n)] = p
            n += 1
    order_replies(s, mv, ply, n, target, 3 - attacker)
    return n


@njit(cache=True, _nrt=False)
def order_replies(s, mv, ply, n, target, defender):
    """Sort the defender's ``n`` moves in mv[ply] by the target's liberties
    after each, most first (a stable insertion sort, without playing them;
    a move not next to the target counts its liberties now; a pass goes
    last): the likeliest escapes first.  mv[ply + 1] is the scratch row."""
    w = s[H_W]
    o = s[ix(ORIGIN + target)]
    score = mv[ix(ply + 1)]  # scratch: the next ply's row is free until then
    for i in range(n):
        m = mv[ix(ply), ix(i)]
        score[ix(i)] = -1
        if m != PASS:
            score[ix(i)] = s[ix(NLIB + o)]
            for q in (m - 1, m + 1, m - w, m + w):
                if s[ix(ORIGIN + q)] == o and s[ix(COLOR + q)] == defender:
                    score[ix(i)] = libs_after(s, m, defender, MAXLIBS)
    for i in range(1, n):
        m, v = mv[ix(ply), ix(i)], score[ix(i)]
        j = i - 1
        while j >= 0 and score[ix(j)] < v:
            mv[ix(ply), ix(j + 1)] = mv[ix(ply), ix(j)]
            score[ix(j + 1)] = score[ix(j)]
            j -= 1
        mv[ix(ply), ix(j + 1)] = m
        score[ix(j + 1)] = v


# -------------------------------------------------------------- roots


@njit(cache=True, _nrt=False)
def _run(
    s, hw, keys, ctx, tt, mv, pv, mark, zone, pool, ptag, rd, target, model, order, cap, nodes, kind
):
    """Read the root node of ``kind``: its result, -1 when the budget of
    ``nodes`` was spent."""
    ctx[C_NODES] = 0
    ctx[C_ABORT] = 0
    ctx[C_MAXNODES] = nodes
    ctx[C_MODEL] = model
    ctx[C_ATTACKER] = 3 - s[ix(COLOR + target)]
    ctx[C_ROOTSP] = s[H_STACKP]
    ctx[C_CAP] = min(cap, MAX_CAP)
    t, n, k = np.int64(target), np.int64(order), np.int64(kind)
    r = _search(s, hw, keys, ctx, tt, mv, pv, mark, zone, pool, ptag, rd, t, n, k)
    return -1 if ctx[C_ABORT] else r


@njit(cache=True, _nrt=False, nogil=True)
def prove_win(
    s, hw, keys, ctx, tt, mv, pv, mark, zone, pool, ptag, rd, target, model, order, cap, max_nodes
):
    """Attacker to move: 1 proven capture (move and line in pv[0]), 0 none
    found, -1 node budget spent.  The position is left as it was."""
    tabs = (tt, mv, pv, mark, zone, pool, ptag, rd)
    return _run(s, hw, keys, ctx, *tabs, target, model, order, cap, max_nodes, KIND_A)


@njit(cache=True, _nrt=False, nogil=True)
def prove_lost(
    s, hw, keys, ctx, tt, mv, pv, mark, zone, pool, ptag, rd, target, model, order, cap, max_nodes
):
    """Defender to move: 1 when every legal defender move, a pass included,
    leaves a proven capture (the hardest reply's line in pv[0]), 0 when
    some move is not refuted, -1 node budget spent."""
    tabs = (tt, mv, pv, mark, zone, pool, ptag, rd)
    return _run(s, hw, keys, ctx, *tabs, target, model, order, cap, max_nodes, KIND_ROOT)
