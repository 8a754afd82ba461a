"""Monte-Carlo playouts and a UCT tree with RAVE, in numba.

A playout copies the header and board segments of a root state array
(``s[:STACK]``, not the change stack) into a work array and plays real moves
on it with ``board.play`` until both sides pass, then scores by area: stones
plus empty points whose neighbours are all one colour.  Playout policy, in
order: capture the string the last move left in atari; save an own string in
atari next to the last move (capture a neighbour in atari, else extend when
that gives at least two liberties and, with ``policy.F_ESCAPE``, a simple
ladder does not then take it); with ``policy.F_LADDER``, atari the last
move's string when it has two liberties and a simple ladder takes it; with
``policy.F_NAKADE``, the vital point of a three-point eye space the last
move's colour encloses beside it; otherwise a uniformly random legal move
that neither fills an own eye-like point nor puts a string of two or more
stones into atari.  With no such move the side passes.  With patterns on,
``meta[M_PAT_PLAYOUT]`` per mille of the moves that no urgent reply takes
are first drawn among the empty neighbours of the last move (the eight of
its 3x3 square) in proportion to their 3x3 pattern weights
(``pattern.code3x3``; weights below ``PAT_MIN`` left out), under the
random move's no-eye-fill and no-self-atari rule; the random move follows
when none is playable.  The weights also give new tree nodes prior visits
(``meta[M_PAT_PRIOR]`` of them, ``_prior``).  The ``F_*`` rules live in
``kernel.policy``; which are in force is a set of bits in the state header
(``policy.features``; by default escape and ladder, the two that won games
at a fixed number of playouts, see docs/player.md).

The tree lives in numpy arrays made by ``new_tree``: ``links[node] = (move,
first child, child count)`` (first child -1 while not expanded) and
``stats[node] = (visits, wins, rave visits, rave wins, prior visits, prior
wins)``, wins counted for the colour that played the node's move; node 0 is
the root.  ``meta`` holds the scalars (``M_*``).  ``search`` runs a number of
iterations (descend by RAVE-blended value, expand at ``expand_at`` visits,
one playout, back up results and all-moves-as-first statistics) and may be
called repeatedly on the same tree, and by several threads at once on one
tree (each with its own work arrays): a node is expanded under a lock in
``meta``, and each node passed on the way down gets its visit at once, with
its win added on the way back (a virtual loss that sends the other threads
elsewhere meanwhile).  With ``meta[M_WIDEN]`` (progressive widening, off
by default) each node's children are put in ``prior_order`` when it is
expanded, and ``select`` looks only at the first ``widened(n)`` of them
after n real visits.  The caller owns time control.

``subtree_size`` and ``copy_subtree`` let the caller keep the subtree of
the move played as the next search's tree, and make room in a full tree by
dropping the children of little-visited nodes.

Not done: superko (simple ko only, from the board kernel), pass inside the
tree (the caller decides when to pass).
"""

import math

import numpy as np
from numba import njit

from . import loading  # noqa: F401  (installed before the first @njit)
from .atomics import atomic_add, atomic_cas, atomic_store
from .board import legal, play
from .layout import (
    BLACK,
    BORDER,
    COLOR,
    EMPTY,
    H_CAPT,
    H_CHECK,
    H_SIZE,
    H_SP,
    H_STACKP,
    H_W,
    LIBS,
    MAXLIBS,
    MAXPOS,
    NEXT,
    NLIB,
    ORIGIN,
    PASS,
    STACK,
    WHITE,
    i64,
    ix,
)
from .pattern import code3x3
from .policy import (
    F_ESCAPE,
    F_LADDER,
    F_NAKADE,
    F_SELFATARI,
    LADDER_HW,
    escape_works,
    features,
    ladder_attack,
    lone_self_atari,
    nakade_point,
)

# meta fields
M_NODES = 0  # nodes in use
M_COLOR = 1  # colour to move at the root
M_LAST = 2  # the move that led to the root position (PASS if none)
M_ITER = 3  # iterations run so far
M_EXPAND = 4  # visits before a leaf is expanded
M_MAXMOVES = 5  # playout length cap
M_BLACKWINS = 6  # playouts black won
M_PAT_PRIOR = 7  # prior visits a new child gets from its 3x3 pattern (0: none)
M_PAT_PLAYOUT = 8  # per mille of playout moves tried by pattern first (0: none)
M_LOCK = 9  # the expansion lock: 1 while a thread expands a node
M_WIDEN = 10  # progressive widening: 1 on (children in prior order, ``widened``)
META_LEN = 11

# stats columns
S_N, S_W, S_RN, S_RW, S_PN, S_PW = 0, 1, 2, 3, 4, 5

RAVE_K = 1.0 / 2000.0  # beta = rn / (rn + n + rn * n * RAVE_K)
PAT_SLOPE = 0.08  # a pattern prior's win rate: 0.5 + PAT_SLOPE * ln(weight) ...
PAT_QMIN, PAT_QMAX = 0.15, 0.85  # ... kept within these
PAT_MIN = 1.0  # the playouts' pattern rule considers weights of at least this
# progressive unpruning as in MANGO (Chaslot et al. 2008): WIDEN_START children
# at first, one more each time a node's real visits pass WIDEN_A * WIDEN_B**j
WIDEN_START, WIDEN_A, WIDEN_B = 5, 50.0, 1.3


def new_tree(capacity):
    """Empty tree arrays: (links int32[cap, 3], stats float64[cap, 6], meta int64[10])."""
    links = np.full((capacity, 3), -1, np.int32)
    stats = np.zeros((capacity, 6), np.float64)
    meta = np.zeros(META_LEN, np.int64)
    return links, stats, meta


def new_scratch():
    """Work arrays for one searching thread: state copy, words, sequences, lists."""
    from .layout import STATE_LEN

    return (
        np.zeros(STATE_LEN, np.int32),
        np.zeros(2 + 2 * 8, np.uint64),
        np.zeros(4 * MAXPOS, np.int32),
        np.zeros(4 * MAXPOS, np.int32),
        np.zeros(MAXPOS, np.int32),
        np.zeros(MAXPOS, np.int32),
        np.zeros(MAXPOS, np.int32),
        np.zeros(1024, np.int32),
    )


# ----------------------------------------------------------- local shape


@njit(cache=True, inline="always")
def _nlib(s, pos):
    return s[ix(NLIB + s[ix(ORIGIN + pos)])]


@njit(cache=True)
def is_eye(s, pos, color):
    """An eye-like point of ``color``: empty, every neighbour ``color`` or
    border, and at most one opponent diagonal (none on the edge).  False
    eyes with two bad diagonals are not eyes; no other eye reading."""
    if s[ix(COLOR + pos)] != EMPTY:
        return False
    w = s[H_W]
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        c = s[ix(COLOR + q)]
        if c != color and c != BORDER:
            return False
    bad = 0
    edge = 0
    other = 3 - color
    for d in (pos - w - 1, pos - w + 1, pos + w - 1, pos + w + 1):
        c = s[ix(COLOR + d)]
        if c == BORDER:
            edge = 1
        elif c == other:
            bad += 1
    return bad + edge < 2


@njit(cache=True)
def libs_after(s, pos, color):
    """Liberties the string of a ``color`` stone at empty ``pos`` would have,
    counted up to 3 (3 means three or more); a captured neighbour in atari
    gives the point next to ``pos``."""
    w = s[H_W]
    other = 3 - color
    l0 = -1
    l1 = -1
    l2 = -1
    n = 0
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        c = s[ix(COLOR + q)]
        if c == EMPTY or (c == other and _nlib(s, q) == 1):
            if q != l0 and q != l1:
                if n == 0:
                    l0 = q
                elif n == 1:
                    l1 = q
                else:
                    return 3
                n += 1
        elif c == color:
            o = s[ix(ORIGIN + q)]
            nl = s[ix(NLIB + o)]
            if nl > MAXLIBS:
                return 3
            for k in range(nl):
                lib = s[ix(LIBS + o * MAXLIBS + k)]
                if lib == pos or lib == l0 or lib == l1 or lib == l2:
                    continue
                if n == 0:
                    l0 = lib
                elif n == 1:
                    l1 = lib
                else:
                    return 3
                n += 1
    return n


@njit(cache=True)
def has_friend(s, pos, color):
    """Does an own stone touch ``pos`` (a move there joins a string)?"""
    w = s[H_W]
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        if s[ix(COLOR + q)] == color:
            return True
    return False


@njit(cache=True)
def captures_any(s, pos, color):
    """Would a ``color`` stone at ``pos`` capture (a neighbour in atari)?"""
    w = s[H_W]
    other = 3 - color
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        if s[ix(COLOR + q)] == other and _nlib(s, q) == 1:
            return True
    return False


@njit(cache=True)
def playable(s, pos, color):
    """A move the playouts may make: legal, not an own eye, and not a
    self-atari of two or more stones (capturing moves always pass)."""
    if not legal(s, pos, color, False):
        return False
    if is_eye(s, pos, color):
        return False
    if has_friend(s, pos, color) and libs_after(s, pos, color) <= 1:
        return captures_any(s, pos, color)
    return True


# ------------------------------------------------------------- playouts


@njit(cache=True)
def _capture_of(s, o, color):
    """The liberty of string ``o`` when it is in atari and ``color`` may
    take it there, else PASS."""
    if s[ix(NLIB + o)] == 1:
        lib = s[ix(LIBS + o * MAXLIBS)]
        if legal(s, lib, color, False):
            return lib
    return PASS


@njit(cache=True, inline="always")
def _capture_next_to(s, o, color):
    """A liberty of an opponent string in atari next to string ``o`` that
    ``color`` may take, or PASS."""
    w = s[H_W]
    other = 3 - color
    p = o
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + q)] == other:
                lib = _capture_of(s, i64(s[ix(ORIGIN + q)]), color)
                if lib != PASS:
                    return lib
        p = s[ix(NEXT + p)]
        if p == o:
            break
    return PASS


@njit(cache=True, inline="always")
def urgent_move(s, color, last, hw, keys, feats, budget, buf):
    """The policy's reply to ``last``: capture it if in atari, else save an
    own string it put in atari (with ``F_ESCAPE`` not by an extension a
    ladder takes); then, as ``feats`` say, the atari of a ladder that takes
    the last move's string (``F_LADDER``) and the vital point of a
    three-point eye space beside it (``F_NAKADE``); PASS when there is
    none.  ``hw``, ``budget``, ``buf``: ``kernel.policy`` work arrays."""
    if last == PASS or s[ix(COLOR + last)] == EMPTY:
        return PASS
    w = s[H_W]
    other = 3 - color
    if s[ix(COLOR + last)] == other:
        lib = _capture_of(s, i64(s[ix(ORIGIN + last)]), color)
        if lib != PASS:
            return lib
    for q in (last - 1, last + 1, last - w, last + w):
        if s[ix(COLOR + q)] != color:
            continue
        o = i64(s[ix(ORIGIN + q)])
        if s[ix(NLIB + o)] != 1:
            continue
        mv = _capture_next_to(s, o, color)
        if mv != PASS:
            return mv
        lib = i64(s[ix(LIBS + o * MAXLIBS)])
        if feats & F_ESCAPE:
            if escape_works(s, hw, keys, lib, color, budget):
                return lib
        elif legal(s, lib, color, False) and libs_after(s, lib, color) >= 2:
            return lib
    if s[ix(COLOR + last)] != other:
        return PASS
    if feats & F_LADDER and _nlib(s, last) == 2:
        mv = ladder_attack(s, hw, keys, last, color, budget)
        if mv != PASS:
            return mv
    if feats & F_NAKADE:
        return nakade_point(s, color, last, buf)
    return PASS


@njit(cache=True)
def _list_empty(s, empt, eidx):
    """All empty points into ``empt``; ``eidx[p]`` is p's index there."""
    w = s[H_W]
    size = s[H_SIZE]
    n = 0
    for row in range(size):
        for col in range(size):
            p = (row + 1) * w + col + 1
            if s[ix(COLOR + p)] == EMPTY:
                empt[ix(n)] = p
                eidx[ix(p)] = n
                n += 1
    return n


@njit(cache=True)
def _swap(empt, eidx, i, j):
    a = empt[ix(i)]
    b = empt[ix(j)]
    empt[ix(i)] = b
    empt[ix(j)] = a
    eidx[ix(b)] = i
    eidx[ix(a)] = j


@njit(cache=True, inline="always")
def random_move(s, color, empt, eidx, n, feats):
    """A uniformly random ``playable`` point among the ``n`` listed (with
    ``F_SELFATARI`` in ``feats`` not a ``lone_self_atari``), or PASS."""
    m = n
    while m > 0:
        j = np.random.randint(0, m)
        p = i64(empt[ix(j)])
        if playable(s, p, color) and not (feats & F_SELFATARI and lone_self_atari(s, p, color)):
            return p
        _swap(empt, eidx, j, m - 1)
        m -= 1
    return PASS


@njit(cache=True, inline="always")
def pattern_move(s, color, last, pat, cand, wts, feats):
    """A ``playable`` empty neighbour (of the eight) of ``last`` drawn in
    proportion to its 3x3 pattern weight ``pat[code]``, among those weighing
    at least ``PAT_MIN``; PASS when there is none.  ``cand``/``wts``: work
    arrays of 8; ``feats``: as for ``random_move``."""
    if last == PASS:
        return PASS
    w = s[H_W]
    n = 0
    total = 0.0
    for q in (
        last + w,
        last + 1,
        last - w,
        last - 1,
        last + w + 1,
        last - w + 1,
        last - w - 1,
        last + w - 1,
    ):
        if s[ix(COLOR + q)] != EMPTY:
            continue
        g = pat[ix(code3x3(s, q, color))]
        if g < PAT_MIN:
            continue
        cand[ix(n)] = q
        wts[ix(n)] = g
        total += g
        n += 1
    while n > 0:
        r = np.random.random() * total
        j = 0
        acc = wts[0]
        while acc < r and j < n - 1:
            j += 1
            acc += wts[ix(j)]
        q = i64(cand[ix(j)])
        if playable(s, q, color) and not (feats & F_SELFATARI and lone_self_atari(s, q, color)):
            return q
        total -= wts[ix(j)]
        n -= 1
        cand[ix(j)] = cand[ix(n)]
        wts[ix(j)] = wts[ix(n)]
    return PASS


@njit(cache=True, inline="always")
def _tree_move(s, p, color):
    """Does a tree node of ``color`` get ``p`` as a child: empty, legal,
    not an own eye?"""
    return s[ix(COLOR + p)] == EMPTY and legal(s, p, color, False) and not is_eye(s, p, color)


@njit(cache=True)
def candidate_codes(s, color, pts, codes):
    """The points a tree node of ``color`` would get as children (empty,
    legal, not an own eye) into ``pts``, their 3x3 pattern codes into
    ``codes``, in point order; returns how many."""
    w = s[H_W]
    size = s[H_SIZE]
    n = 0
    for row in range(size):
        for col in range(size):
            p = (row + 1) * w + col + 1
            if not _tree_move(s, p, color):
                continue
            pts[ix(n)] = p
            codes[ix(n)] = code3x3(s, p, color)
            n += 1
    return n


@njit(cache=True)
def playout(s, hw, keys, color, last, maxmoves, seq, seqc, nseq, empt, eidx, pat, pat_rate):
    """Play ``s`` out from ``color`` to move after ``last``; append the moves
    to ``seq``/``seqc`` from index ``nseq``; return the new length.  After
    the urgent replies, a move is tried by pattern (``pattern_move``) with
    probability ``pat_rate`` per mille, then at random."""
    n = _list_empty(s, empt, eidx)
    passes = 0
    moves = 0
    cap = seq.shape[0]
    cand = np.zeros(8, np.int64)
    wts = np.zeros(8, np.float64)
    feats = features(s)
    lhw = np.zeros(LADDER_HW, np.uint64)
    budget = np.zeros(1, np.int64)
    buf = np.zeros(4, np.int64)
    while passes < 2 and moves < maxmoves:
        mv = urgent_move(s, color, last, lhw, keys, feats, budget, buf)
        if mv == PASS and pat_rate > 0 and np.random.randint(0, 1000) < pat_rate:
            mv = pattern_move(s, color, last, pat, cand, wts, feats)
        if mv == PASS:
            mv = random_move(s, color, empt, eidx, n, feats)
        if mv == PASS:
            passes += 1
        else:
            captured = s[H_CAPT + BLACK] + s[H_CAPT + WHITE]
            play(s, hw, keys, mv, color)
            if s[H_CAPT + BLACK] + s[H_CAPT + WHITE] != captured:
                n = _list_empty(s, empt, eidx)
            else:
                _swap(empt, eidx, i64(eidx[ix(mv)]), n - 1)
                n -= 1
            passes = 0
            if nseq < cap:
                seq[ix(nseq)] = mv
                seqc[ix(nseq)] = color
                nseq += 1
        last = mv
        color = 3 - color
        moves += 1
    return nseq


@njit(cache=True, inline="always")
def area_score(s, owner):
    """Black's area minus White's (no komi): stones, and empty points whose
    neighbours are all one colour.  ``owner[p]`` gets BLACK, WHITE or EMPTY."""
    w = s[H_W]
    size = s[H_SIZE]
    score = 0
    for row in range(size):
        for col in range(size):
            p = (row + 1) * w + col + 1
            c = s[ix(COLOR + p)]
            if c == EMPTY:
                nb = 0
                nw = 0
                for q in (p - 1, p + 1, p - w, p + w):
                    cq = s[ix(COLOR + q)]
                    if cq == BLACK:
                        nb += 1
                    elif cq == WHITE:
                        nw += 1
                if nb > 0 and nw == 0:
                    c = BLACK
                elif nw > 0 and nb == 0:
                    c = WHITE
            owner[ix(p)] = c
            if c == BLACK:
                score += 1
            elif c == WHITE:
                score -= 1
    return score


# ----------------------------------------------------------------- tree


@njit(cache=True, inline="always")
def _load(root, root_hw, ws, whw):
    """Copy the root's header and board into the work arrays (depth 0).  A
    loop, not a slice assignment: that one compiles numba's shape-error
    message code (2.3 s of the first compile)."""
    for i in range(STACK):
        ws[ix(i)] = root[ix(i)]
    ws[H_STACKP] = 0
    ws[H_SP] = 0
    ws[H_CHECK] = 0
    whw[0] = root_hw[0]
    whw[1] = root_hw[1]


@njit(cache=True, inline="always")
def _prior(s, pos, color, out, pat, pat_n):
    """Heuristic prior (visits, wins) for a new child: captures and saves
    up, self-ataris and first-line moves down; then ``pat_n`` visits more
    (none when 0) at a win rate from the 3x3 pattern's weight ``g``:
    0.5 + PAT_SLOPE * ln g within PAT_QMIN..PAT_QMAX."""
    size = s[H_SIZE]
    w = s[H_W]
    row = pos // w - 1
    col = pos % w - 1
    line = min(min(row, col), min(size - 1 - row, size - 1 - col))
    n = 6.0
    q = 0.5
    libs = libs_after(s, pos, color)
    if captures_any(s, pos, color):
        n = 12.0
        q = 0.75
    elif libs <= 1:
        n = 12.0
        q = 0.15
    elif line == 0 and size >= 7:
        q = 0.35
    elif has_friend(s, pos, color):
        for nb in (pos - 1, pos + 1, pos - w, pos + w):
            if s[ix(COLOR + nb)] == color and _nlib(s, nb) == 1 and libs >= 3:
                n = 12.0
                q = 0.7
    out[0] = n
    out[1] = n * q
    if pat_n > 0:
        g = pat[ix(code3x3(s, pos, color))]
        qp = 0.5 + PAT_SLOPE * math.log(max(g, 1e-6))
        qp = min(max(qp, PAT_QMIN), PAT_QMAX)
        out[0] += pat_n
        out[1] += pat_n * qp


@njit(cache=True)
def expand(s, links, stats, meta, node, color, pat, last):
    """Give ``node`` one child per playable-or-eye-free legal move of
    ``color`` (not own eyes), with priors (``_prior``; the pattern weights
    ``pat`` count when ``meta[M_PAT_PRIOR]`` > 0); False when the tree is
    full.  The children are in point order, or with ``meta[M_WIDEN]`` in
    ``prior_order`` after ``last``, the move that led to ``node``."""
    w = s[H_W]
    size = s[H_SIZE]
    used = meta[M_NODES]
    cap = links.shape[0]
    if used + size * size > cap:
        return False
    first = used
    k = 0
    pr = np.zeros(2, np.float64)
    pat_n = float(meta[M_PAT_PRIOR])
    for row in range(size):
        for col in range(size):
            p = (row + 1) * w + col + 1
            if not _tree_move(s, p, color):
                continue
            c = first + k
            links[ix(c), 0] = p
            links[ix(c), 1] = -1
            links[ix(c), 2] = 0
            _prior(s, p, color, pr, pat, pat_n)
            stats[ix(c), S_N] = pr[0]
            stats[ix(c), S_W] = pr[1]
            stats[ix(c), S_RN] = 0.0
            stats[ix(c), S_RW] = 0.0
            stats[ix(c), S_PN] = pr[0]
            stats[ix(c), S_PW] = pr[1]
            k += 1
    if meta[M_WIDEN] != 0:
        prior_order(links, stats, i64(first), i64(k), i64(last), i64(w))
    links[ix(node), 1] = first
    links[ix(node), 2] = k
    meta[M_NODES] = used + k
    return True


@njit(cache=True)
def prior_order(links, stats, first, k, last, w):
    """Sort the rows ``first .. first + k`` by prior win rate, highest
    first; among equal ones the nearer to ``last`` (the move before, by
    Pachi's distance dx + dy + max(dx, dy); none for a pass) first, then
    the lower point.  The order in which ``widened`` admits them.  A Shell
    sort in place (Knuth's gaps); a row's child links move with it."""
    gap = 1
    while 3 * gap + 1 < k:
        gap = 3 * gap + 1
    while gap > 0:
        for i in range(first + gap, first + k):
            j = i
            while j - gap >= first and _after(links, stats, j - gap, j, last, w):
                _swap_rows(links, stats, j - gap, j)
                j -= gap
        gap //= 3


@njit(cache=True, inline="always")
def _swap_rows(links, stats, a, b):
    """Exchange rows ``a`` and ``b`` of ``links`` and ``stats``."""
    for c in range(3):
        x = links[ix(a), ix(c)]
        links[ix(a), ix(c)] = links[ix(b), ix(c)]
        links[ix(b), ix(c)] = x
    for c in range(6):
        y = stats[ix(a), ix(c)]
        stats[ix(a), ix(c)] = stats[ix(b), ix(c)]
        stats[ix(b), ix(c)] = y


@njit(cache=True, inline="always")
def _distance(p, last, w):
    """Pachi's distance dx + dy + max(dx, dy) from ``last``; 0 after a pass."""
    if last == PASS:
        return 0
    dx = abs(p % w - last % w)
    dy = abs(p // w - last // w)
    return dx + dy + max(dx, dy)


@njit(cache=True, inline="always")
def _after(links, stats, a, b, last, w):
    """Does row ``a`` come after row ``b`` in ``prior_order``?"""
    qa = stats[ix(a), S_PW] / max(stats[ix(a), S_PN], 1e-9)
    qb = stats[ix(b), S_PW] / max(stats[ix(b), S_PN], 1e-9)
    if qa != qb:
        return qa < qb
    da = _distance(links[ix(a), 0], last, w)
    db = _distance(links[ix(b), 0], last, w)
    if da != db:
        return da > db
    return links[ix(a), 0] > links[ix(b), 0]


@njit(cache=True, inline="always")
def widened(n):
    """How many children, in prior order, a node with ``n`` real visits
    chooses among under progressive widening: WIDEN_START, and one more
    each time ``n`` passes WIDEN_A * WIDEN_B**j (j = 0, 1, ...)."""
    if n < WIDEN_A:
        return WIDEN_START
    return WIDEN_START + 1 + int(math.log(n / WIDEN_A) / math.log(WIDEN_B))


@njit(cache=True, inline="always")
def select(links, stats, node, widen):
    """The child of ``node`` with the best RAVE-blended value; -1 when it
    has none.  No UCB exploration term: RAVE and the priors lead the
    search to the moves not yet tried (docs/player.md).  With ``widen``
    != 0 only the first ``widened(real visits)`` children count (progressive
    widening: the children must be in ``prior_order``)."""
    first = links[ix(node), 1]
    k = i64(links[ix(node), 2])
    if k <= 0:
        return -1
    if widen != 0:
        k = min(k, i64(widened(stats[ix(node), S_N] - stats[ix(node), S_PN])))
    best = -1
    bestv = -1e300
    for c in range(first, first + k):
        n = stats[ix(c), S_N]
        rn = stats[ix(c), S_RN]
        q = stats[ix(c), S_W] / n if n > 0 else 0.5
        v = q
        if rn > 0:
            beta = rn / (rn + n + rn * n * RAVE_K)
            v = (1.0 - beta) * q + beta * stats[ix(c), S_RW] / rn
        if v > bestv:
            bestv = v
            best = c
    return best


@njit(cache=True, inline="always")
def _expand_shared(s, links, stats, meta, node, color, pat, last):
    """``expand`` under the expansion lock, unless another thread expanded
    ``node`` first.  Nodes are only added, never moved, so threads that
    descend meanwhile see either no children or all of them."""
    while atomic_cas(meta, M_LOCK, 0, 1) != 0:
        pass
    if links[ix(node), 1] < 0:
        expand(s, links, stats, meta, node, color, pat, last)
    atomic_store(meta, M_LOCK, 0)


@njit(cache=True, inline="always")
def _descend(ws, whw, keys, links, stats, meta, seq, seqc, path):
    """Walk from the root by ``select``, playing each move on ``ws``; each
    node passed gets its visit now, with no win yet (the virtual loss that
    steers other threads elsewhere until ``_backup`` adds the result).
    Returns the depth; ``path[0..depth]`` are the nodes, ``seq``/``seqc``
    the moves."""
    node = i64(0)
    color = meta[M_COLOR]
    depth = 0
    path[0] = 0
    stats[0, S_N] += 1.0
    while links[ix(node), 1] >= 0 and depth < path.shape[0] - 1:
        child = select(links, stats, node, meta[M_WIDEN])
        if child < 0:
            break
        stats[ix(child), S_N] += 1.0
        mv = links[ix(child), 0]
        play(ws, whw, keys, mv, color)
        seq[ix(depth)] = mv
        seqc[ix(depth)] = color
        node = child
        depth += 1
        path[ix(depth)] = node
        color = 3 - color
    return depth


@njit(cache=True, inline="always")
def _count_owners(s, first, own, margin):
    """Add one playout's final owners (``first``) and margin to ``own``."""
    size = s[H_SIZE]
    w = s[H_W]
    for row in range(size):
        for col in range(size):
            p = (row + 1) * w + col + 1
            if first[ix(p)] == BLACK:
                own[0, ix(p)] += 1
            elif first[ix(p)] == WHITE:
                own[1, ix(p)] += 1
    own[2, 0] += margin


@njit(cache=True, nogil=True)
def search(
    root,
    root_hw,
    keys,
    links,
    stats,
    meta,
    komi,
    iterations,
    own,
    ws,
    whw,
    seq,
    seqc,
    empt,
    eidx,
    first,
    path,
    pat,
):
    """Run ``iterations`` UCT-RAVE iterations from the root state ``root``.

    Threads may run it at once on one tree (``links``, ``stats``, ``meta``
    shared; every other array their own): a node is expanded under
    ``meta[M_LOCK]``, counters add atomically, and visits and wins add
    without a lock, so a rare update lost to a race is a visit or a win
    lost, never a corrupt tree.  ``own[0, p]`` / ``own[1, p]`` count
    playouts that ended with ``p`` black / white; ``own[2, 0]`` sums
    black's area margins (no komi).  Returns the number of iterations run.
    ``meta[M_EXPAND]`` very large keeps the tree to the root (plain
    playouts).  ``pat``: the 3x3 pattern weights, a float32 array indexed
    by ``pattern.code3x3``, used as ``meta[M_PAT_PRIOR]`` and
    ``meta[M_PAT_PLAYOUT]`` say."""
    root_color = meta[M_COLOR]
    pat_rate = meta[M_PAT_PLAYOUT]
    expand_at = meta[M_EXPAND]
    maxmoves = meta[M_MAXMOVES]
    for _ in range(iterations):
        _load(root, root_hw, ws, whw)
        depth = _descend(ws, whw, keys, links, stats, meta, seq, seqc, path)
        node = i64(path[ix(depth)])
        color = root_color if depth % 2 == 0 else 3 - root_color
        last = seq[ix(depth - 1)] if depth > 0 else meta[M_LAST]
        # this iteration's visit is counted already: expand after expand_at others
        if links[ix(node), 1] < 0 and stats[ix(node), S_N] - stats[ix(node), S_PN] > expand_at:
            _expand_shared(ws, links, stats, meta, node, color, pat, last)
        nseq = playout(
            ws, whw, keys, color, last, maxmoves, seq, seqc, depth, empt, eidx, pat, pat_rate
        )
        margin = area_score(ws, first)
        _count_owners(ws, first, own, margin)
        winner = BLACK if margin - komi > 0 else WHITE
        if winner == BLACK:
            atomic_add(meta, M_BLACKWINS, 1)
        _backup(links, stats, path, depth, root_color, winner, seq, seqc, nseq, first)
        atomic_add(meta, M_ITER, 1)
    return iterations


@njit(cache=True, inline="always")
def _backup(links, stats, path, depth, root_color, winner, seq, seqc, nseq, first):
    """Wins along the path (the visits were counted on the way down); RAVE
    for the children of each path node whose move its mover played first
    later in the sequence."""
    for k in range(MAXPOS):
        first[ix(k)] = 0
    i = nseq - 1
    for d in range(depth, -1, -1):
        while i >= d:
            if seq[ix(i)] != PASS:
                first[ix(seq[ix(i)])] = seqc[ix(i)]
            i -= 1
        node = path[ix(d)]
        mover = root_color if d % 2 == 0 else 3 - root_color
        if d > 0 and winner != mover:  # node's move was played by the other colour
            stats[ix(node), S_W] += 1.0
        f = links[ix(node), 1]
        if f < 0:
            continue
        win = 1.0 if winner == mover else 0.0
        for c in range(f, f + links[ix(node), 2]):
            mv = links[ix(c), 0]
            if first[ix(mv)] == mover:
                stats[ix(c), S_RN] += 1.0
                stats[ix(c), S_RW] += win


@njit(cache=True, inline="always")
def _kept_children(links, stats, x, root, min_visits):
    """Does node ``x`` keep its children in a copy (see ``copy_subtree``)?"""
    return links[ix(x), 1] >= 0 and (x == root or stats[ix(x), S_N] >= min_visits)


@njit(cache=True)
def subtree_size(links, stats, node, stack, min_visits):
    """Nodes that ``copy_subtree(..., node, ..., min_visits)`` copies;
    ``stack``: int32 work space with room for every node in use."""
    top = 0
    stack[0] = node
    n = 0
    while top >= 0:
        x = stack[ix(top)]
        top -= 1
        n += 1
        if _kept_children(links, stats, x, node, min_visits):
            f = links[ix(x), 1]
            for c in range(f, f + links[ix(x), 2]):
                top += 1
                stack[ix(top)] = c
    return n


@njit(cache=True)
def _copy_node(links, stats, a, links2, stats2, b):
    """Node ``a``'s rows into row ``b`` of ``links2``/``stats2``: a loop, as
    a row assignment would compile numba's shape-error message (1-2 s of
    string code)."""
    for c in range(links.shape[1]):
        links2[ix(b), ix(c)] = links[ix(a), ix(c)]
    for c in range(stats.shape[1]):
        stats2[ix(b), ix(c)] = stats[ix(a), ix(c)]


@njit(cache=True)
def copy_subtree(links, stats, node, links2, stats2, old, min_visits):
    """Copy the subtree of ``node`` into ``links2``/``stats2`` with ``node``
    as node 0, children still contiguous (breadth first); ``old[i]`` gets
    the old index of new node ``i``.  A node below ``node`` with fewer than
    ``min_visits`` visits is copied as a leaf (its children dropped, to be
    expanded again); the root keeps its children.  Returns the nodes
    copied."""
    _copy_node(links, stats, node, links2, stats2, i64(0))
    old[0] = node
    used = 1
    i = 0
    while i < used:
        o = old[ix(i)]
        if not _kept_children(links, stats, o, node, min_visits):
            links2[ix(i), 1] = -1
            links2[ix(i), 2] = 0
        else:
            f = links[ix(o), 1]
            k = links[ix(o), 2]
            links2[ix(i), 1] = used
            for j in range(k):
                old[ix(used + j)] = f + j
                _copy_node(links, stats, f + j, links2, stats2, used + j)
            used += k
        i += 1
    return used


@njit(cache=True)
def seed(value):
    """Seed the random numbers the playouts draw (numba's own generator)."""
    np.random.seed(value)
