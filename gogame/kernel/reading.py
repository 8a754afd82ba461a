"""Tactical reading kernel: attack and defence of a string, ladders, ko.

A reading guide (every rule, why it is there and what was tried:
docs/reading.md).  The file's sections, in order:

* constants: the answers (``code * MOVE_SPAN + move``, codes ``0 < KO_B
  < KO_A < WIN``), the context ``ctx`` (settings and counters, ``C_*``)
  and the per-ply move rows ``mv`` (columns named at the type);
* tunables: scores, liberty limits, plies and try limits, each with its
  reason; the depths are GNU Go's level 10 (``DEFAULT_DEPTHS``);
* generators: one tactic each, with its diagram (``_add_*``); assemblers:
  the attacker's and the owner's candidates (``_attack_moves``,
  ``_defend_moves``), by liberty count and depth;
* shapes and ordering: ``_order`` scores each candidate by the liberties
  it leaves, without playing it; the owner's killer;
* captures and ko: ``_play`` plays a move under GNU Go's komaster scheme
  (``kernel/komaster.py``), ``_ko_allowed`` bounds conditional ko captures;
* a node: ``_open`` (shortcuts that count no node, the candidates, the
  cache probe), ``_arrange`` (the order, the owner's history, the try
  limits);
* the move loop: ``_read``, the one recursive routine for both sides
  (``attack`` true: the opponent moves first), an alpha-beta over the
  codes; the owner's lazy ladder reads, ABDADA's deferred moves
  (``ctx[C_SHARE]`` > 0, docs/threads.md), ``_close`` stores the result;
* entry points, called by ``core/reader.py``: ``read_rows`` (question
  rows, each read from the root) and ``read_after`` (one move first).

A search that hits ``C_NODELIMIT`` answers a guess and stores nothing.
Not done: semeai and eye-space evaluation (races are read, and a
two-liberty target with a one-point eye races its neighbour on the
other liberty, ``_add_eye_races``); generators for hane,
throw-ins (GNU Go's squeeze tried: no answer needed it), loose ladders
(only their caps, ``_add_caps``), snapbacks (only recognised,
``_snapback``, and set up for a lone stone) and eye-shape points.
"""

import numpy as np
from numba import njit

from . import abdada as ab
from . import board as kb
from . import cache as kc
from . import komaster as km
from . import loading  # noqa: F401  (installed before the first @njit)
from .atomics import atomic_add
from .layout import (
    BLACK,
    BORDER,
    COLOR,
    EMPTY,
    H_CAPT,
    H_KO,
    H_STACKP,
    H_W,
    LIBS,
    MAXLIBS,
    MAXPOS,
    NEXT,
    NLIB,
    NSTONES,
    ORIGIN,
    PASS,
    WHITE,
    i64,
    ix,
)

WIN, KO_A, KO_B = 5, 4, 3
MOVE_SPAN = 1 << 12

# A question row of ``read_rows`` (int64): what is asked, then what it answers.
# Q_ATTACK: 1 attack, 0 defend; Q_TARGET: a point of the string; Q_FOLLOW: 1
# reads the string's defence after an attack that succeeds; Q_BOARD: the
# board copy to read on, -1 for the board as it is; Q_GEN: 1 advances the
# cache generation before each of the row's questions (a batch's rows; a
# single question's caller advances it once for all its threads); then the
# answers Q_PACKED and Q_THEN (code * MOVE_SPAN + move) and Q_ABORTED.
Q_ATTACK, Q_TARGET, Q_FOLLOW, Q_BOARD, Q_GEN, Q_PACKED, Q_THEN, Q_ABORTED = range(8)
Q_LEN = 8
MAXMOVES = 48
READ_PLIES = 160  # hard cap on stackp while reading

# ctx fields
C_NODES = 0
C_TRYMOVES = 1
C_DEPTH = 2
C_BRANCH = 3
C_BACKFILL = 4
C_BACKFILL2 = 5
C_BREAKCHAIN = 6
C_SUPERSTRING = 7
C_FOURLIB = 8
C_KODEPTH = 9
C_NODELIMIT = 10
C_ABORTED = 11
C_ROOT = 12
C_LADDER = 13
C_SETTINGS = 14  # depth settings and board size id, part of every cache question
C_ROOTNODES = 15  # node counter when the root question was asked
C_STATS = 16  # cache statistics: probes, hits, stores, replacements, collisions
C_HISTORY_ON = 21  # 1: the owner's history orders its moves (``_by_history``)
C_LEARNED = 22  # 1: the history holds counts, cleared at the next root (``_root``)
# parallel reading (ABDADA); C_SHARE = 0 reads serially
C_SHARE = 24  # nodes closer than this many plies to the root use the busy table
C_THREAD = 25  # this thread's number
C_STOPPED = 26  # another thread finished the root first: results are void
C_DEFERRED = 27  # moves deferred because another thread was searching them
C_MARKS = 28  # moves marked busy (null-window probes)
C_RESEARCHES = 29  # probes that failed high and were read again unmarked
C_REPROBES = 30  # nodes cut short by a cache re-probe after deferring
C_PARALLEL = 31  # one of several threads: watch the stop flag
C_PACKED = 32  # the cache's scratch: a packed board (``full``), to C_HISTORY
C_HISTORY = C_PACKED + 32  # the owner's cutoffs a point, per colour (MAXPOS each)
CTX_LEN = C_HISTORY + 2 * MAXPOS

# a cached result: bound * BOUND_SPAN + code * MOVE_SPAN + move
B_EXACT, B_LOWER, B_UPPER = 0, 1, 2
DROPPED = -(1 << 20)  # _order's score for a candidate left out
BOUND_SPAN = 1 << 15
ANY_MOVE = 1 << 17  # stored with a result whose move need not be the first
# The per-ply move rows: mv[ply] (int32, MV_COLUMNS columns) holds one
# node's candidates, their scores and its scratch.  Columns, from 0:
#   0 .. MAXMOVES-1     the candidates (n of them), ordered by _order
#   NBR .. SCRATCH-1    the attacker's neighbour strings of the target (nk,
#                       neighbour_strings); in the move loop, from DEFERRED
#                       on, the indices of the moves ABDADA deferred
#   SCRATCH .. KILLER-1 a generator's scratch (neighbour_strings' output)
#   KILLER              the owner's last refutation among siblings
#   OWNLIBS ..          per listed liberty k of the target, the owner's
#                       liberties after extending there (-1: not counted yet
#                       at this node: _own_libs, _forget_counts)
#   SCORES ..           the candidates' scores (column SCORES + i for the
#                       i-th candidate), kept in step by _add and _sort
NBR = MAXMOVES
DEFERRED = NBR  # over the neighbours, read before (the lazy ladders)
SCRATCH = NBR + 24
KILLER = SCRATCH + 24
OWNLIBS = KILLER + 1
SCORES = OWNLIBS + MAXLIBS
MV_COLUMNS = SCORES + MAXMOVES

# GNU Go level 10 depths, in ctx order C_DEPTH..C_KODEPTH
DEFAULT_DEPTHS = (16, 13, 12, 5, 7, 7, 7, 8)

# -------------------------------------------------------------- tunables
# Candidate scores, added up per point by ``_add`` before ``_order`` adds
# its liberty counts (tens per liberty): they rank moves of the same shape
# and put the long shots last.  Values first tuned on the regression suite,
# changed since 2026-12-04 only on the development set (scripts/dev_set.py);
# each change moves answers and node counts.
SC_LIBERTY = 0  # the target's liberty: _order's liberty counts alone rank it
SC_APPROACH = -2  # the attacker's second-order liberty: after the direct moves
SC_BLOCK = 10  # the attacker on a short friend's liberty: half a liberty taken
SC_BACKFILL = -1  # the attacker fills its own liberty first: a detour
SC_FRIEND_APPROACH = -3  # approach on a two-liberty friend: the longest shot
SC_SAVE_ATARI = 30  # the attacker extends a neighbour in atari: as urgent as an atari
SC_SAVE_RACE = -1  # extends a two-liberty neighbour in a race: after the direct
SC_SAVE_CAPTURE = 30  # captures around a neighbour to save: as good as extending
SC_FAR_RACE = -2  # shortens the owner's other strings: each costs a new defence
SC_RACE_ATARI = -1  # ataris an owner string beside its racing neighbour: indirect
SC_CAPTURE = 20  # the owner captures a neighbour in atari: a liberty or more
SC_CHAIN_ATARI = 10  # the owner ataris a two-liberty neighbour: half a liberty
SC_FRIEND_AIR = -1  # air for a short friend touching that neighbour: indirect
SC_CHAIN_BACKFILL = -1  # makes that neighbour's liberty playable: a detour
SC_EDGE_CLAMP = 10  # the owner's clamp beside a neighbour on the edge: half a liberty
SC_RACE = 0  # a race move: _order's race bonus ranks it (``_contact``)
SC_RACE_FOUR = -2  # against four liberties, a last resort: after the others (GNU Go's)
SC_RESCUE = 30  # a capture next to a friend: air for the superstring, early
SC_RESCUE_ATARI = 0  # an atari next to a friend: _order's counts rank it
SC_RESCUE_THREE = -2  # on a friend's three-liberty attacker: after the direct moves (GNU Go's)
SC_SECOND_ORDER = -1  # the owner's second-order liberty: after the direct moves
SC_JOIN = 10  # the owner joins a short friend: half a liberty
SC_JOIN_IN_ATARI = -1  # the same in atari: after extending and capturing
SC_SNAPBACK_SETUP = -1  # makes the capture of a lone stone a ko: after the direct
SC_FILL_ANSWER = -1  # makes the attacker's fill a self-atari: after the direct
SC_EYE_RACE = 0  # shortens the neighbour a target with an eye races: _order ranks it
SC_TENUKI = -1000  # tenuki (PASS): after every real move
# _order's penalty for the attacker's self-atari that captures nothing, or
# leaves the target two liberties or more: the owner takes the stone, gains air
SELF_ATARI = 80  # after the moves that give nothing away
# liberty limits of the strings whose liberties a generator lists
BLOCK_LIBS = 3  # the attacker blocks friends of three liberties or fewer
BACKFILL_LIBS = 2  # backfills its own strings of two liberties or fewer
JOIN_LIBS = 4  # the owner joins friends of four liberties or fewer
FAR_RACE_LIBS = 3  # far race moves shorten strings of three or fewer
FAR_RACE_PLIES = 1  # far race moves up to backfill2_depth less this
NET_PLIES = 4  # nets against four liberties up to backfill2_depth less this: near the root
CAP_PLIES = 1  # caps against four up to backfill2_depth less this (deeper: false captures)
TIED_PLIES = 2  # a friend tied to both liberties: blocks, nets up to backfill2_depth less this
RACE_SAVE_PLIES = 2  # saves of short neighbours outside the race: backfill2_depth less this
RACE_ATARI_PLIES = 1  # race ataris against three liberties: backfill2_depth less this
FILL_ANSWER_PLIES = 5  # the owner's answers to the fill: stackp 0 at level 10 (deeper: false)
# try limits (``_max_tries``): all moves up to break_chain_depth, then
TRIES_BRANCH = 4  # the owner, up to branch_depth less BRANCH_PLIES: the best few
TRIES_BRANCH_ATTACK = 3  # the attacker there against one or two liberties
TRIES_BRANCH_WIDE = 8  # the attacker there against three or more: more ways
BRANCH_PLIES = 2  # the few tries end two plies before branch_depth
TRIES_DEEP = 2  # deeper: a main line and one alternative
TRIES_DEEP_WIDE = 1  # the attacker against three or more: it seldom captures
# the owner's history (``_by_history``): a point's refutations of the
# attacker's moves, up to break_chain_depth, in this question; each adds
# HISTORY_WEIGHT to that point's score, at most HISTORY_CAP (two liberties)
HISTORY_WEIGHT = 2
HISTORY_CAP = 40
# the attacker's conditional ko captures go this many plies past ko_depth
# (the owner's stop there, as GNU Go's both do): a ko is won by retaking
# it, two plies a retake; most proven answers the reader still missed
# were ko captures answered 0 (docs/reading.md)
KO_ATTACK_PLIES = 2


def new_context():
    """(ctx, mv): int64 counters, settings and the cache's packed-board
    scratch (``C_PACKED``); the per-ply move rows, with their scores."""
    ctx = np.zeros(CTX_LEN, np.int64)
    ctx[C_DEPTH : C_KODEPTH + 1] = DEFAULT_DEPTHS
    ctx[C_HISTORY_ON] = 1
    mv = np.zeros((READ_PLIES + 2, MV_COLUMNS), np.int32)  # columns: see NBR
    return ctx, mv


@njit(cache=True, _nrt=False, inline="always")
def invert(code):
    """The same outcome seen from the other side."""
    if code == 0:
        return WIN
    if code == WIN:
        return 0
    return 7 - code


@njit(cache=True, _nrt=False, inline="always")
def _add(mv, ply, n, pos, score):
    """Add a candidate (or add to its score); return the new count."""
    for i in range(n):
        if mv[ix(ply), ix(i)] == pos:
            mv[ix(ply), ix(SCORES + i)] += score
            return n
    if n < MAXMOVES:
        mv[ix(ply), ix(n)] = pos
        mv[ix(ply), ix(SCORES + n)] = score
        n += 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def _listed(row, k, x):
    """Is ``x`` among the first ``k`` entries of ``row``?"""
    for i in range(k):
        if row[ix(i)] == x:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _sort(mv, ply, n):
    """Insertion sort: higher score first, then lower point."""
    for i in range(1, n):
        m = mv[ix(ply), ix(i)]
        v = mv[ix(ply), ix(SCORES + i)]
        j = i - 1
        while j >= 0 and (
            mv[ix(ply), ix(SCORES + j)] < v
            or (mv[ix(ply), ix(SCORES + j)] == v and mv[ix(ply), ix(j)] > m)
        ):
            mv[ix(ply), ix(j + 1)] = mv[ix(ply), ix(j)]
            mv[ix(ply), ix(SCORES + j + 1)] = mv[ix(ply), ix(SCORES + j)]
            j -= 1
        mv[ix(ply), ix(j + 1)] = m
        mv[ix(ply), ix(SCORES + j + 1)] = v


@njit(cache=True, _nrt=False, inline="always")
def _lib(s, o, k):
    return s[ix(LIBS + o * MAXLIBS + k)]


@njit(cache=True, _nrt=False, inline="always")
def _forget_counts(mv, ply):
    """A new node at ``ply``: no extension of the target counted yet."""
    for k in range(MAXLIBS):
        mv[ix(ply), ix(OWNLIBS + k)] = -1


@njit(cache=True, _nrt=False, inline="always")
def _own_libs(s, mv, ply, o, k):
    """``libs_after`` (limit 6) of the owner extending at the ``k``-th listed
    liberty of the target ``o``, counted once per node (``_forget_counts``)."""
    v = mv[ix(ply), ix(OWNLIBS + k)]
    if v < 0:
        v = kb.libs_after(s, _lib(s, o, k), s[ix(COLOR + o)], 6)
        mv[ix(ply), ix(OWNLIBS + k)] = v
    return v


@njit(cache=True, _nrt=False, inline="always")
def _lib_index(s, o, m):
    """Where ``m`` is in the listed liberties of ``o``, or -1."""
    for k in range(min(s[ix(NLIB + o)], MAXLIBS)):
        if _lib(s, o, k) == m:
            return k
    return -1


# ------------------------------------------------------------ generators
# One generator a tactic.  Each adds its points to the candidate row
# mv[ply, :n] (with ``_add``: a point listed twice adds up its scores) and
# returns the new count; none plays a move or checks legality (``_order``
# and ``_play`` do).  Diagrams: O the owner's target, X the attacker, ``*``
# the points listed, ``.`` empty.


@njit(cache=True, _nrt=False, inline="always")
def _add_liberties_of(s, mv, ply, n, o, score):
    """Liberties: all liberties of string ``o`` (at most MAXLIBS)::

        . * .
        * O *
        X * .

    Not: a liberty past the first MAXLIBS listed."""
    for k in range(min(s[ix(NLIB + o)], MAXLIBS)):
        n = _add(mv, ply, n, _lib(s, o, k), score)
    return n


@njit(cache=True, _nrt=False)
def _add_second_order(s, mv, ply, n, o, score):
    """Second-order liberties: the empty neighbours of the liberties of
    ``o`` that are not liberties themselves (approach moves)::

        . * . .
        * . * .
        X O . *
        X X O .

    Not: points two steps away through a stone, or past MAXLIBS liberties."""
    w = s[H_W]
    nl = s[ix(NLIB + o)]
    for k in range(min(nl, MAXLIBS)):
        lib = _lib(s, o, k)
        for q in (lib - 1, lib + 1, lib - w, lib + w):
            if s[ix(COLOR + q)] == EMPTY and not kb.is_liberty(s, o, q):
                n = _add(mv, ply, n, q, score)
    return n


@njit(cache=True, _nrt=False)
def _add_nets(s, mv, ply, n, o, score):
    """Nets (geta): the empty points next to two liberties of ``o`` or
    more that are not liberties themselves; each closes two ways out at
    once.  Against a lone stone of four liberties, the four diagonals::

        . . . . .
        . * . * .
        . . O . .
        . * . * .
        . . . . .

    Each is scored once a liberty it touches.  Not: points next to one
    liberty only (``_add_second_order``)."""
    w = s[H_W]
    for k in range(min(s[ix(NLIB + o)], MAXLIBS)):
        lib = _lib(s, o, k)
        for q in (lib - 1, lib + 1, lib - w, lib + w):
            if s[ix(COLOR + q)] != EMPTY or kb.is_liberty(s, o, q):
                continue
            touching = 0
            for r in (q - 1, q + 1, q - w, q + w):
                if s[ix(COLOR + r)] == EMPTY and kb.is_liberty(s, o, r):
                    touching += 1
            if touching >= 2:
                n = _add(mv, ply, n, q, score)
    return n


@njit(cache=True, _nrt=False)
def _add_caps(s, mv, ply, n, o, score):
    """Caps (GNU Go's find_cap_moves): for two liberties of ``o`` that
    are diagonal neighbours, the corner point between them that ``o``
    does not hold, when empty; it closes both at once, as a net does.
    Against White's H6-H8 in a loose ladder (a mined game, after Black's
    J8 and J7), the cap of J6 and H5 (the chase from J8 on is a proven
    capture, by a ko)::

        X . .     columns G to J, rows 9 to 5; the target has the
        X O X     liberties H9, G7, J6 and H5
        . O X
        X O .
        . . *

    Not: points next to two liberties on a line (``_add_nets``)."""
    w = s[H_W]
    nl = min(s[ix(NLIB + o)], MAXLIBS)
    for i in range(nl):
        a = _lib(s, o, i)
        for j in range(i + 1, nl):
            b = _lib(s, o, j)
            if not kb.diagonal(a, b, w):
                continue
            up = w if b > a else -w  # from a's row to b's
            if s[ix(COLOR + a + up)] == EMPTY:  # b's row, a's column first
                n = _add(mv, ply, n, a + up, score)
            elif s[ix(COLOR + b - up)] == EMPTY:
                n = _add(mv, ply, n, b - up, score)
    return n


@njit(cache=True, _nrt=False)
def _add_neighbour_liberties(s, mv, ply, n, o, color, maxlibs, score):
    """The liberties of the ``color`` strings (other than ``o``) that touch
    a liberty of ``o`` and have at most ``maxlibs`` liberties: the core of
    ``_add_connections`` (the owner's colour) and ``_add_backfills`` (the
    attacker's).  Here ``o`` is O's B2-B3, ``color`` O's, ``maxlibs``
    two: D2's liberties (C2 is ``o``'s too)::

        . . . . .
        X O . * .
        X O * O X
        . X . X .

    Not: a string that touches no liberty of ``o``."""
    w = s[H_W]
    for k in range(min(s[ix(NLIB + o)], MAXLIBS)):
        lib = _lib(s, o, k)
        for q in (lib - 1, lib + 1, lib - w, lib + w):
            if s[ix(COLOR + q)] == color and s[ix(ORIGIN + q)] != o:
                f = s[ix(ORIGIN + q)]
                if s[ix(NLIB + f)] <= maxlibs:
                    n = _add_liberties_of(s, mv, ply, n, f, score)
    return n


@njit(cache=True, _nrt=False)
def _add_connections(s, mv, ply, n, o, maxlibs, score):
    """Connections: the liberties of the owner's other strings of at most
    ``maxlibs`` liberties that touch a liberty of ``o``.  The owner joins
    them (or gives the friend air); the attacker takes them first::

        * O * .
        X . O X
        X O X .

    Not: friends that touch ``o`` only diagonally or through a stone."""
    c = s[ix(COLOR + o)]
    return _add_neighbour_liberties(s, mv, ply, i64(n), i64(o), i64(c), i64(maxlibs), i64(score))


@njit(cache=True, _nrt=False)
def _add_backfills(s, mv, ply, n, o, maxlibs, score):
    """Backfilling: the liberties of the attacker's own strings of at most
    ``maxlibs`` liberties that touch a liberty of ``o``.  Where the
    attacker cannot fill the target's liberty safely (self-atari), it
    fills its own liberty first::

        . . . .
        * X . O
        X O O O

    Not: a backfill two moves deep (the string's own approach moves)."""
    c = 3 - s[ix(COLOR + o)]
    return _add_neighbour_liberties(s, mv, ply, i64(n), i64(o), i64(c), i64(maxlibs), i64(score))


@njit(cache=True, _nrt=False)
def _add_ko_backfills(s, mv, ply, n, o, score):
    """Against a lone stone in atari that the attacker takes only by a ko
    (or into a snapback): the liberties the owner would have by filling
    its liberty, when they are five or fewer (GNU Go's attack1
    backfilling), each unless it is a self-atari for the attacker.  Taken
    first, they shorten the string the owner's fill would join, so that
    filling no longer saves the stone (x: the ko point)::

        * O x O X .
        * O O X X .
        . * * . . .

    Not: the back-captures of GNU Go's attack1 (its break-chain moves
    come from ``_add_attacker_saves``)."""
    if s[ix(NLIB + o)] != 1 or s[ix(NSTONES + o)] != 1:
        return n
    lib = i64(_lib(s, o, 0))
    owner = i64(s[ix(COLOR + o)])
    attacker = 3 - owner
    if _capture_wins(s, lib, attacker) or kb.libs_after(s, lib, owner, 6) > 5:
        return n
    w = s[H_W]
    seen0 = seen1 = o  # each friend string once
    for q in (lib - 1, lib + 1, lib - w, lib + w):
        f = s[ix(ORIGIN + q)]
        if s[ix(COLOR + q)] != owner or f == o or f == seen0 or f == seen1:
            continue
        seen1 = seen0
        seen0 = f
        for k in range(min(s[ix(NLIB + f)], MAXLIBS)):
            m = _lib(s, f, k)
            if m != lib and kb.libs_after(s, m, attacker, 2) >= 2:
                n = _add(mv, ply, n, m, score)
    return n


@njit(cache=True, _nrt=False)
def _add_snapback_setups(s, mv, ply, n, o, score):
    """Against the capture of a lone stone ``o`` in atari: where the
    attacker's stone on its liberty ``x`` would have one liberty of its own
    besides the stone it takes, the owner takes that one (GNU Go's
    ``set_up_snapback_moves``).  The capture is then a ko, the owner's to
    retake, or the capturing stones are taken back (x: the liberty)::

        x * . .
        X O . .
        O . . .

    Not: strings of two stones or more, whose capture no retake undoes; an
    owner's move left with one liberty."""
    if s[ix(NSTONES + o)] != 1:
        return n
    x = i64(_lib(s, o, 0))
    attacker = 3 - s[ix(COLOR + o)]
    w = s[H_W]
    p = PASS
    for q in (x - 1, x + 1, x - w, x + w):
        c = s[ix(COLOR + q)]
        if c == EMPTY:
            if p != PASS and q != p:
                return n
            p = q
        elif c == attacker:
            f = s[ix(ORIGIN + q)]
            if s[ix(NLIB + f)] > 2:
                return n  # a liberty besides x and p at least
            for k in range(s[ix(NLIB + f)]):
                r = _lib(s, f, k)
                if r != x:
                    if p != PASS and r != p:
                        return n
                    p = r
    if p != PASS and kb.libs_after(s, p, 3 - attacker, 2) >= 2:
        n = _add(mv, ply, n, p, score)
    return n


@njit(cache=True, _nrt=False)
def _add_friend_approaches(s, mv, ply, n, o, score):
    """Friend approaches: the second-order liberties of the owner's
    two-liberty strings that touch a liberty of ``o``: they stop the friend
    (and ``o`` with it) from connecting out::

        . * . .
        * . O X
        . O . O
        X O O X

    Not: friends with three liberties or more."""
    w = s[H_W]
    mine = s[ix(COLOR + o)]
    for k in range(min(s[ix(NLIB + o)], MAXLIBS)):
        lib = _lib(s, o, k)
        for q in (lib - 1, lib + 1, lib - w, lib + w):
            if (
                s[ix(COLOR + q)] == mine
                and s[ix(ORIGIN + q)] != o
                and s[ix(NLIB + s[ix(ORIGIN + q)])] == 2
            ):
                n = _add_second_order(s, mv, ply, i64(n), i64(s[ix(ORIGIN + q)]), i64(score))
    return n


@njit(cache=True, _nrt=False)
def _add_tied_nets(s, mv, ply, n, o, score):
    """Nets on a tied friend: the liberties, other than ``o``'s own two,
    of an owner string of four liberties or fewer that has both of
    ``o``'s liberties (the owner's jump between them): the two live or
    die together, so the attacker closes the friend in::

        X * . .     Black's E4 (X) has two liberties, a and b; Black's
        * f a O     jump f takes both, so the two live or die together:
        . b X O     White nets f at * (its other liberties)
        O O O .

    Not: friends of five liberties or more; below backfill2_depth less
    ``TIED_PLIES`` (the caller's rule, as for the owner's quiet blocks of
    a tied friend's attackers)."""
    w = s[H_W]
    mine = s[ix(COLOR + o)]
    lib = _lib(s, o, 0)  # a tied friend touches both liberties: this one will do
    seen0 = seen1 = np.int64(PASS)
    for q in (lib - 1, lib + 1, lib - w, lib + w):
        if s[ix(COLOR + q)] != mine or s[ix(ORIGIN + q)] == o:
            continue
        f = i64(s[ix(ORIGIN + q)])
        if f == seen0 or f == seen1 or s[ix(NLIB + f)] > 4 or not _tied(s, f, i64(o)):
            continue
        seen0, seen1 = f, seen0
        for i in range(s[ix(NLIB + f)]):
            m = _lib(s, f, i)
            if not kb.is_liberty(s, o, m):
                n = _add(mv, ply, n, m, score)
    return n


@njit(cache=True, _nrt=False)
def _superstring(s, o, cap, row):
    """The owner's strings tied to ``o`` through a liberty the attacker
    cannot take (its stone there a suicide or a self-atari), and those
    tied to them in turn, each of ``cap`` liberties or fewer: their
    origins into ``row`` (as many as fit; ``o`` not among them), in the
    order found; return the count.  GNU Go's superstring, its one-space
    jumps and bent ones only (not its bamboo joints and diagonals)."""
    w = s[H_W]
    mine = s[ix(COLOR + o)]
    k = 0
    i = -1
    cur = i64(o)
    while True:
        for j in range(min(s[ix(NLIB + cur)], MAXLIBS)):
            p = _lib(s, cur, j)
            if kb.libs_after(s, p, 3 - mine, 2) >= 2:
                continue  # the attacker may play there: no tie
            for q in (p - 1, p + 1, p - w, p + w):
                if s[ix(COLOR + q)] != mine:
                    continue
                f = s[ix(ORIGIN + q)]
                if f == o or s[ix(NLIB + f)] > cap or _listed(row, k, f):
                    continue
                if k < row.shape[0]:
                    row[ix(k)] = f
                    k += 1
        i += 1
        if i >= k:
            return k
        cur = i64(row[ix(i)])


@njit(cache=True, _nrt=False)
def _add_superstring(s, mv, ply, n, o, cap, score):
    """Superstring liberties (GNU Go's ``superstring_moves``): the
    liberties of the strings ``_superstring`` ties to ``o``, other than
    ``o``'s own, when there are five or fewer, each where the attacker's
    stone would have two liberties or more::

        O O X X X O X X O     the target (right) has two liberties, f
        * X c X X f X h X     and h; White on f would be a suicide, so
                              the target is tied to the string left of
                              it, and that one through c to the stone
                              beside: White fills their liberty *

    Not: GNU Go's backfill where that stone would be in atari; against
    three liberties (its attack3 lists them too: tried, docs/reading.md)."""
    row = mv[ix(ply), SCRATCH:KILLER]
    k = _superstring(s, i64(o), i64(cap), row)
    other = 3 - s[ix(COLOR + o)]
    outer = 0
    for add in (False, True):  # count them first (six: none listed), then list them
        for i in range(k):
            f = row[ix(i)]
            for j in range(min(s[ix(NLIB + f)], MAXLIBS)):
                m = _lib(s, f, j)
                if kb.is_liberty(s, o, m) or _liberty_of_any(s, row, i, m):
                    continue  # o's own, or met already
                if not add:
                    outer += 1
                    if outer > 5:
                        return n
                elif kb.libs_after(s, m, other, 2) >= 2:
                    n = _add(mv, ply, n, m, score)
    return n


@njit(cache=True, _nrt=False, inline="always")
def _liberty_of_any(s, row, k, m):
    """Is ``m`` a liberty of one of the first ``k`` strings of ``row``?"""
    for i in range(k):
        if kb.is_liberty(s, row[ix(i)], m):
            return True
    return False


@njit(cache=True, _nrt=False)
def _add_friend_saves(s, mv, ply, n, o, k, score):
    """Attacker friend saves: the capture of an owner string in atari next
    to an attacker string in atari that touches a liberty of ``o`` but not
    ``o`` itself (its ``k`` neighbours are in ``mv[ply, NBR:]``): the
    friend lives and keeps the liberty it shares with ``o`` covered::

        O O X X .     the lower right corner: White's S1, in atari
        O X . X *     after Black's T1, touches the target Q1-Q2's
        O X . O X     liberty R1; White takes T1 at T2 (*)

    Not: friends with two liberties or more; the attacker's neighbours
    of ``o`` (``_add_attacker_saves``)."""
    w = s[H_W]
    mine = s[ix(COLOR + o)]
    nbr = mv[ix(ply), NBR:SCRATCH]
    seen = PASS
    for i in range(min(s[ix(NLIB + o)], MAXLIBS)):
        lib = _lib(s, o, i)
        for q in (lib - 1, lib + 1, lib - w, lib + w):
            if s[ix(COLOR + q)] != 3 - mine or s[ix(NLIB + s[ix(ORIGIN + q)])] != 1:
                continue
            x = s[ix(ORIGIN + q)]
            if x == seen or _listed(nbr, k, x):
                continue
            seen = x
            n = _add_captures_around(s, mv, ply, n, x, mine, score)
    return n


@njit(cache=True, _nrt=False, inline="always")
def _add_captures_around(s, mv, ply, n, x, mine, score):
    """The last liberty of each ``mine`` string in atari next to ``x``
    (listed in the scratch row); here ``x`` is O and ``mine`` X::

        . . . O .
        . X O X O
        . . . * .

    Not: a string of two liberties or more (B3 above)."""
    cap = mv[ix(ply), SCRATCH:KILLER]
    kx = kb.neighbour_strings(s, x, mine, cap)
    for j in range(kx):
        y = cap[ix(j)]
        if s[ix(NLIB + y)] == 1:
            n = _add(mv, ply, n, _lib(s, y, 0), score)
    return n


@njit(cache=True, _nrt=False)
def _add_save(s, mv, ply, n, x, mine):
    """The attacker saves its own neighbour ``x`` of the target (in atari,
    or short in a race): it extends at ``x``'s liberties, or captures the
    ``mine`` strings in atari around ``x``::

        . . O .
        O X * O
        X O X O
        * X O .

    Not: ladder or net reads of the escape (``_order`` scores it)."""
    xl = s[ix(NLIB + x)]
    n = _add_liberties_of(s, mv, ply, n, x, SC_SAVE_ATARI if xl == 1 else SC_SAVE_RACE)
    return _add_captures_around(s, mv, ply, n, x, mine, SC_SAVE_CAPTURE)


@njit(cache=True, _nrt=False)
def _add_far_race(s, mv, ply, n, x, o, mine):
    """Far race moves: the liberties of the owner's other strings (``mine``,
    not ``o``, three liberties or fewer) around the attacker's two-liberty
    neighbour ``x`` that shares one liberty with ``o``: shortening them
    wins ``x`` its race::

        . * . .
        * O X .
        . X O O
        . X O .

    Not: strings of four liberties or more; each move costs a whole new
    defence, so near the root only (the caller's rule)."""
    cap = mv[ix(ply), SCRATCH:KILLER]
    kx = kb.neighbour_strings(s, x, mine, cap)
    for j in range(kx):
        y = cap[ix(j)]
        if y != o and s[ix(NLIB + y)] <= FAR_RACE_LIBS:
            n = _add_liberties_of(s, mv, ply, n, y, SC_FAR_RACE)
    return n


@njit(cache=True, _nrt=False, inline="always")
def _runs_both_ways(s, x, color):
    """Whether ``color``'s string ``x`` (two liberties) would have four
    liberties or more after extending at either: no race to win for it."""
    a = _lib(s, x, 0)
    b = _lib(s, x, 1)
    return kb.libs_after(s, a, color, 4) > 3 and kb.libs_after(s, b, color, 4) > 3


@njit(cache=True, _nrt=False)
def _add_attacker_saves(s, ctx, mv, ply, n, o, libs, stackp, k):
    """The attacker's own neighbours of the target (``k``, listed in
    ``mv[ply, NBR:]``) in atari, or with two liberties in a race (up
    to a ply past ``break_chain_depth``, a ply below the owner's last
    race moves against them, so that each has its answer; at any depth
    with the very same two liberties as ``o``; to a ply past
    ``backfill_depth`` holding the other liberty of an ``o`` with an eye,
    below the owner's eye races, ``_add_eye_races``): ``_add_save`` when
    in atari, against three liberties or more, with the very same two
    liberties as ``o``, or racing its eye; ``_add_far_race`` near the
    root when one liberty is shared, and when both are, above
    ``break_chain_depth`` (the owner's answer, air for the string
    shortened, comes a ply down).
    With the same two liberties neither side can fill one (it would be a
    self-atari), so only the moves around ``x`` decide the race, however
    deep: saving ``x``, and shortening the owner's other strings next to
    it.  Against one or two liberties, near the root (up to
    ``backfill2_depth`` less ``RACE_SAVE_PLIES``), the saves of the other
    two-liberty neighbours too, unless ``x`` runs out either way (GNU Go's
    attack3 ``save_boundary-2``; its attack2 has none); against three,
    near the root, the race ataris around a two-liberty ``x`` that does
    not run out (``_add_race_ataris``)::

        * . . . .     the top left corner: X's edge string (A4-A6 and
        O X X X .     below) and the target O (C5-D6 ...) share their two
        X O O X O     liberties, B5 and C4; White's A7 took X's last
        X . O O X     outside one: X saves by taking it (*)
        X O . O X

    Not: neighbours with three liberties or more."""
    mine = s[ix(COLOR + o)]
    nbr = mv[ix(ply), NBR:SCRATCH]
    race = stackp <= ctx[C_BREAKCHAIN] + 1  # a ply below the owner's race moves
    far = ctx[C_BACKFILL2] - FAR_RACE_PLIES  # far race moves: near the root only
    far2 = ctx[C_BREAKCHAIN] - 1  # against the same two: where the owner answers
    near = libs <= 2 and stackp <= ctx[C_BACKFILL2] - RACE_SAVE_PLIES
    atari = ctx[C_BACKFILL2] - RACE_ATARI_PLIES  # race ataris: near the root only
    eye = np.int64(-1)  # the eye race's liberty, once asked (_eye_race)
    for i in range(k):
        x = nbr[ix(i)]
        xl = s[ix(NLIB + x)]
        if xl > 2:
            continue
        # against two liberties, away from the root, only a neighbour
        # with the very same two liberties is in the race, or one that
        # races a target with an eye (the owner's eye races, a ply up)
        shared = _shared(s, i64(x), i64(o)) if xl == 2 and libs == 2 else 0
        if shared == 1 and eye < 0 and stackp <= ctx[C_BACKFILL] + 1:
            eye = _eye_race(s, i64(o))
        racing = shared == 1 and eye > 0 and kb.is_liberty(s, x, eye)  # PASS is 0
        if xl == 2 and not race and shared != 2 and not racing:
            continue
        other = xl == 2 and near and shared != 2 and not _runs_both_ways(s, x, 3 - mine)
        if xl == 1 or libs >= 3 or shared == 2 or other or racing:
            n = _add_save(s, mv, ply, i64(n), i64(x), i64(mine))
        if xl == 2 and libs == 3 and stackp <= atari and not _runs_both_ways(s, x, 3 - mine):
            n = _add_race_ataris(s, mv, ply, i64(n), i64(x), i64(o), i64(mine))
        if (shared == 2 and stackp <= far2) or (shared == 1 and stackp <= far):
            n = _add_far_race(s, mv, ply, i64(n), i64(x), i64(o), i64(mine))
    return n


@njit(cache=True, _nrt=False, inline="always")
def _add_capture(s, mv, ply, n, x):
    """Break-chain capture: the owner takes the attacker's neighbour ``x``
    in atari at its last liberty::

        . . . .
        O X * .
        O O X .

    Not: whether the capture is a snapback (``_order``, ``_play``)."""
    return _add(mv, ply, n, _lib(s, x, 0), SC_CAPTURE)


@njit(cache=True, _nrt=False)
def _add_chain_atari(s, mv, ply, n, x, o, mine):
    """Break-chain atari: the liberties of the attacker's two-liberty
    neighbour ``x`` (half a liberty for ``o``), and air for the owner's
    other short strings (``mine``, two liberties or fewer) that touch
    ``x``: their liberties, and captures next to them
    (``_add_friend_captures``)::

        . * . .
        * X O .
        . X O .
        . O * .

    Not: the ladder that may follow the atari (the lazy ladders read it)."""
    n = _add_liberties_of(s, mv, ply, n, x, SC_CHAIN_ATARI)
    cap = mv[ix(ply), SCRATCH:KILLER]
    kf = kb.neighbour_strings(s, x, mine, cap)
    for j in range(kf):
        f = mv[ix(ply), ix(SCRATCH + j)]
        if f != o and s[ix(NLIB + f)] <= 2:
            n = _add_liberties_of(s, mv, ply, n, f, SC_FRIEND_AIR)
            n = _add_friend_captures(s, mv, ply, i64(n), i64(f), i64(SC_FRIEND_AIR))
    return n


@njit(cache=True, _nrt=False)
def _add_race_ataris(s, mv, ply, n, x, o, mine):
    """Race ataris (GNU Go's attack3 pass 2, ``break_chain2_moves`` on its
    ``save_boundary-2`` strings): the attacker's two-liberty neighbour
    ``x`` races the target ``o``; each owner string (``mine``, not ``o``)
    with two liberties that touches ``x`` is put in atari, as taking it
    gives ``x`` air: at a liberty that is no self-atari for the attacker,
    where the owner's extension at the other liberty keeps two liberties
    or fewer (no escape).  A mined game (after move 90 and P19 J18 K19
    J15): the target (L18-O17, three liberties) against Black's J16-L17
    (H17 and K17); H18 ataris J18 (J19 would let it run) and captures,
    proven ``1 H18``::

          G H J K L M N O
        19 . . . X . . . O
        18 . * O X O O . X
        17 O . X . X O O O
        16 . O X X X O X X

    Not: strings of three liberties or more around ``x``; an atari the
    owner runs from (GNU Go lists those too: 3 % more nodes, nothing
    proven gained on the development sets)."""
    cap = mv[ix(ply), SCRATCH:KILLER]
    ky = kb.neighbour_strings(s, x, mine, cap)
    for j in range(ky):
        y = cap[ix(j)]
        if y != o and s[ix(NLIB + y)] == 2:
            n = _add_trapping_ataris(s, mv, ply, i64(n), i64(y), i64(SC_RACE_ATARI))
    return n


@njit(cache=True, _nrt=False)
def _add_friend_captures(s, mv, ply, n, f, score):
    """Air for the owner's short string ``f`` by a capture: the last
    liberty of each attacker string in atari next to ``f``.  The target
    (left) races the attacker's two-liberty neighbour; the owner's stone
    on the right edge touching that neighbour is in atari, and taking
    the stone that ataris it (``*``) saves it as surely as extending
    above::

        . O . . .
        . O X X O
        . X O O X
        . X X O *
        . . . O .

    Not: captures that only make a ko (``_order`` and ``_play`` judge
    them as any other)."""
    w = s[H_W]
    other = 3 - s[ix(COLOR + f)]
    p = f
    while True:
        for q in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + q)] == other and s[ix(NLIB + s[ix(ORIGIN + q)])] == 1:
                n = _add(mv, ply, n, _lib(s, s[ix(ORIGIN + q)], 0), score)
        p = s[ix(NEXT + p)]
        if p == f:
            break
    return n


@njit(cache=True, _nrt=False)
def _add_efficient_atari(s, mv, ply, n, x, o, mine):
    """Efficient break-chain atari (GNU Go's break_chain2_efficient_moves,
    which its defend2 to defend4 call at every depth): the owner ataris
    the attacker's two-liberty neighbour ``x`` on one liberty when
    extending at the other would leave ``x`` two liberties or fewer, so
    that it cannot run; where one owner string next to ``x`` is in atari
    and ``o`` has three liberties or more, that string's save instead, and
    nothing where two are.  O's atari at ``*`` leaves X's edge string
    only A1, where it would have one liberty (A2)::

        . X X . .     the bottom three lines; the target O has A2
        . O O . .     and D2; A1 is no atari (X would run out at D1)
        . X X * .

    Not: the ataris whose escape gains liberties (``_add_chain_atari``
    lists them, up to ``break_chain_depth``), nor a self-atari; GNU Go's
    edge special case for a second-line neighbour with diagonal
    liberties."""
    cap = mv[ix(ply), SCRATCH:KILLER]
    kf = kb.neighbour_strings(s, x, mine, cap)
    short = PASS
    for j in range(kf):
        f = cap[ix(j)]
        if s[ix(NLIB + f)] == 1:
            if short != PASS:
                return n  # two owner strings in atari there: no quick race
            short = f
    if short != PASS and s[ix(NLIB + o)] > 2:
        lib = _lib(s, short, 0)
        if kb.libs_after(s, lib, mine, 2) > 1:
            n = _add(mv, ply, n, lib, SC_CHAIN_ATARI)
        return n
    return _add_trapping_ataris(s, mv, ply, i64(n), i64(x), i64(SC_CHAIN_ATARI))


@njit(cache=True, _nrt=False)
def _add_trapping_ataris(s, mv, ply, n, y, score):
    """The ataris on the two-liberty string ``y`` that it cannot run
    from: at one liberty, where ``y`` extending at the other would keep
    two liberties or fewer; none a self-atari for ``y``'s opponent (the
    owner's efficient ataris, the attacker's race ataris).  Here ``y`` is
    O, which would have four liberties after D2 but two after C1::

        . X X . .
        X O O * .
        . X . . .

    Not: the atari at C1, from which O runs."""
    c = s[ix(COLOR + y)]
    for k in range(2):
        atari = _lib(s, y, 1 - k)
        if kb.libs_after(s, _lib(s, y, k), c, 3) <= 2 and kb.libs_after(s, atari, 3 - c, 2) > 1:
            n = _add(mv, ply, n, atari, score)
    return n


@njit(cache=True, _nrt=False)
def _add_edge_clamps(s, mv, ply, n, o, k):
    """Edge clamps (GNU Go's edge_clamp_moves, in its defend2 and defend3
    at every depth): against an attacker's three-liberty neighbour of
    ``o`` (of the ``k`` in ``mv[ply, NBR:]``) with a liberty ``b`` on the
    first line under an attacker stone ``a`` that touches ``o``, the point
    ``*`` beside ``a`` (a liberty of the neighbour, with another above
    it, ``e``), where the owner gets three liberties or more and the
    attacker at ``e`` would have three or fewer::

        . X X O O .     the bottom four lines; the target O is the
        X X O X e .     string left of ``a``, the neighbour X's ``a``
        O O O a * .     and the stones above it
        . . . b . .

    Not: neighbours of other liberty counts."""
    w = s[H_W]
    mine = s[ix(COLOR + o)]
    other = 3 - mine
    nbr = mv[ix(ply), NBR:SCRATCH]
    for i in range(k):
        x = nbr[ix(i)]
        if s[ix(NLIB + x)] != 3:
            continue
        b = PASS
        for j in range(3):
            if _on_edge(s, _lib(s, x, j)):
                b = _lib(s, x, j)  # the first edge liberty only, as GNU Go's
                break
        if b == PASS:
            continue
        for up in (i64(1), i64(-1), i64(w), i64(-w)):
            if s[ix(COLOR + b - up)] != BORDER or s[ix(COLOR + b + up)] != other:
                continue
            side = i64(w) if up == 1 or up == -1 else i64(1)
            for right in (side, -side):
                c = b + up - right
                d = b + up + right
                e = d + up
                if s[ix(COLOR + c)] != mine or s[ix(ORIGIN + c)] != o:
                    continue
                if s[ix(COLOR + d)] != EMPTY or not kb.is_liberty(s, x, d):
                    continue
                if s[ix(COLOR + e)] != EMPTY or not kb.is_liberty(s, x, e):
                    continue
                if kb.libs_after(s, d, mine, 3) >= 3 and kb.libs_after(s, e, other, 4) <= 3:
                    n = _add(mv, ply, n, d, SC_EDGE_CLAMP)
    return n


@njit(cache=True, _nrt=False)
def _add_chain_backfills(s, mv, ply, n, x, o, mine):
    """Break-chain backfill: when the attacker's two-liberty neighbour
    ``x`` races ``o`` (shares a liberty with it) and the owner's atari on
    ``x`` would be a self-atari, the empty points next to that liberty
    (not ``x``'s other one), which make it playable first, as GNU Go's
    break_chain2 backfills.  After White's J2 (reading.tst 54's
    position; proven: Black lives by B1), Black's atari at C1 on the white
    C2 and D1 strings is a self-atari; B1 first joins it to the big black
    group::

        . X O O O X X O O     the bottom three lines, A to J; the
        X X O . X O O X O     target is Black's E2 (liberties D2, F1)
        . * . O X . . . .

    Not: backfills two moves deep, against a neighbour out of the race
    (it cost 3.6 % more nodes on the development set and changed no proven
    answer), or past ``break_chain_depth`` (the caller's rule)."""
    if _shared(s, i64(x), i64(o)) == 0:
        return n
    w = s[H_W]
    for j in range(2):
        lib = _lib(s, x, j)
        if kb.libs_after(s, lib, mine, 2) != 1:
            continue
        other = _lib(s, x, 1 - j)
        for q in (lib - 1, lib + 1, lib - w, lib + w):
            if s[ix(COLOR + q)] == EMPTY and q != other:
                n = _add(mv, ply, n, q, SC_CHAIN_BACKFILL)
    return n


@njit(cache=True, _nrt=False, inline="always")
def _note(m, a, b, k):
    """Add the point ``m`` to the pair (a, b) of k distinct points found so
    far (k = 3: more than two)."""
    if k >= 3 or m == a or m == b:
        return a, b, k
    if k == 0:
        return m, b, np.int64(1)
    if k == 1:
        return a, m, np.int64(2)
    return a, b, np.int64(3)


@njit(cache=True, _nrt=False)
def _libs_around(s, pos, color, skip):
    """(a, b, k): the liberties of the string through the empty point
    ``pos`` if ``color`` played there, ``skip`` left out: k of them, and
    the first two (k = 3: three or more).  Captures are not counted (GNU
    Go's approxlib)."""
    w = s[H_W]
    a = b = np.int64(PASS)
    k = np.int64(0)
    for q in (pos - 1, pos + 1, pos - w, pos + w):
        c = s[ix(COLOR + q)]
        if c == EMPTY and q != skip:
            a, b, k = _note(i64(q), a, b, k)
        elif c == color:
            o = s[ix(ORIGIN + q)]
            if s[ix(NLIB + o)] > MAXLIBS:
                return a, b, np.int64(3)
            for j in range(s[ix(NLIB + o)]):
                p = i64(_lib(s, o, j))
                if p != pos and p != skip:
                    a, b, k = _note(p, a, b, k)
        if k >= 3:
            return a, b, k
    return a, b, k


@njit(cache=True, _nrt=False)
def _add_fill_answers(s, mv, ply, n, o):
    """The owner's answers to the fill (GNU Go's defend2 "backfill-B"):
    where the attacker, filling a liberty of the two-liberty target
    ``o``, would have two liberties or fewer, the owner plays those (none
    a self-atari), so that the fill becomes a self-atari.  White's lone
    A6 (A7, A5): Black at A7 would join A8 with B7 and B8; White's B8
    (proven ``1 B8``, a held-out game) leaves A7 a self-atari::

        O O X X X     columns A to E, rows 10 to 6
        O X X . X
        X * . X .
        . . . X X
        O X X O .

    Not: fills with three liberties or more; below the root (deeper, such
    answers were found to hold falsely, docs/reading.md)."""
    mine = s[ix(COLOR + o)]
    for j in range(2):
        p, q, k = _libs_around(s, i64(_lib(s, o, j)), i64(3 - mine), i64(PASS))
        if k > 2:
            continue
        for m in (p, q):
            if m != PASS and kb.libs_after(s, m, mine, 2) >= 2:
                n = _add(mv, ply, n, m, SC_FILL_ANSWER)
    return n


@njit(cache=True, _nrt=False)
def _add_chain_approaches(s, mv, ply, n, x, mine):
    """Break-chain approaches (GNU Go's break_chain2 backfills): both
    liberties of the attacker's two-liberty neighbour ``x`` are
    self-ataris (or suicides) for the owner; where the attacker, filling
    one of them, would have exactly two liberties, the owner plays those
    two (none a self-atari), so that its atari on ``x`` becomes a capture
    or playable.  Black's ``x`` (C1 to E4, around D3) has two liberties,
    D1 and D3, both suicides for White; Black at D1 would have D3 and F1,
    so White's F1 ataris the lone E1 and D1 then captures it (GNU Go's
    reading.tst 96, proven ``2 F1``)::

        . O X X X O     the bottom four lines, A to F; the target is
        . O X . X O     White's B1-B4
        . O X X O O
        . O X . X *

    Not: approaches two moves deep.  GNU Go's other backfill there (an
    empty point next to the self-atari liberty) is
    ``_add_chain_backfills``; where each applies is the caller's rule."""
    other = 3 - mine
    a0, a1 = i64(_lib(s, x, 0)), i64(_lib(s, x, 1))
    if kb.libs_after(s, a0, mine, 2) > 1 or kb.libs_after(s, a1, mine, 2) > 1:
        return n
    for lib in (a0, a1):
        p, q, k = _libs_around(s, lib, other, i64(PASS))
        for m in (p, q):
            if k == 2 and kb.libs_after(s, m, mine, 2) >= 2:
                n = _add(mv, ply, n, m, SC_CHAIN_BACKFILL)
    return n


@njit(cache=True, _nrt=False)
def _add_race_moves(s, ctx, mv, ply, n, x, o, libs, stackp, slack):
    """Race moves (semeai of ``o`` against its neighbour ``x``, three
    liberties or more): ``x``'s liberties when it has at most ``slack``
    liberties more than ``o`` (plus the shared ones against two), up to
    ``break_chain_depth`` for a short neighbour (three liberties, one stone
    only against two; the attacker's save of it, ``_add_attacker_saves``,
    answers each a ply down), else ``backfill2_depth``::

        . * * .
        * X X *
        O O O X
        . . O X

    Not: eye space or the outside liberties a race counts in GNU Go's
    semeai reader; a neighbour with escapes (``_add_race_liberties``)."""
    xl = s[ix(NLIB + x)]
    near = (
        ctx[C_BREAKCHAIN] if xl <= 3 and (libs <= 2 or s[ix(NSTONES + x)] > 1) else ctx[C_BACKFILL2]
    )
    if stackp <= near and xl <= libs + slack + (_shared(s, i64(x), i64(o)) if libs == 2 else 0):
        n = _add_race_liberties(s, mv, ply, i64(n), i64(x), i64(SC_RACE), i64(1 + slack))
    return n


@njit(cache=True, _nrt=False)
def _add_break_chain(s, ctx, mv, ply, n, o, libs, stackp, k):
    """The owner's moves against the attacker's neighbours of ``o`` (``k``,
    listed in ``mv[ply, NBR:]``), one at a time: a capture
    (``_add_capture``) of one in atari; with two liberties or more left and
    up to ``break_chain_depth`` (not in a ladder read), an atari
    (``_add_chain_atari``, ``_add_chain_backfills``) of one with two
    liberties and, up to ``backfill2_depth`` or when it shares a liberty
    with ``o``, the approaches that make that atari playable
    (``_add_chain_approaches``, GNU Go's condition); race moves
    (``_add_race_moves``) against a longer one; deeper, for a target of
    two liberties or more, the efficient ataris (``_add_efficient_atari``).

    Not: neighbours of the owner's other strings (``_add_friend_rescues``)."""
    nbr = mv[ix(ply), NBR:SCRATCH]
    mine = s[ix(COLOR + o)]
    # with the attacker to move, a plain race is won only against as many
    # liberties or fewer; one more (and two escapes) only up to backfill2_depth
    slack = 1 if stackp <= ctx[C_BACKFILL2] else 0
    deep = libs < 2 or ctx[C_LADDER] != 0 or stackp > ctx[C_BREAKCHAIN]
    efficient = libs >= 2 and ctx[C_LADDER] == 0  # deep: the efficient ataris only
    for i in range(k):
        x = nbr[ix(i)]
        if s[ix(NLIB + x)] == 1:
            n = _add_capture(s, mv, ply, n, x)
        elif deep:
            if efficient and s[ix(NLIB + x)] == 2:
                n = _add_efficient_atari(s, mv, ply, i64(n), i64(x), i64(o), i64(mine))
        elif s[ix(NLIB + x)] == 2:
            n = _add_chain_atari(s, mv, ply, i64(n), i64(x), i64(o), i64(mine))
            n = _add_chain_backfills(s, mv, ply, i64(n), i64(x), i64(o), i64(mine))
            if stackp <= ctx[C_BACKFILL2] or _shared(s, i64(x), i64(o)) > 0:
                n = _add_chain_approaches(s, mv, ply, i64(n), i64(x), i64(mine))
        else:
            n = _add_race_moves(
                s, ctx, mv, ply, i64(n), i64(x), i64(o), i64(libs), i64(stackp), i64(slack)
            )
    return n


@njit(cache=True, _nrt=False)
def _add_friend_rescues(s, mv, ply, n, o, scratch, score, most, nk, capturing, tied):
    """Friend rescues: moves against the attacker strings of ``most``
    liberties or fewer (1 to 3) next to the owner's strings that touch a
    liberty of ``o`` (its superstring, loosely), GNU Go's
    superstring_break_chain_moves: the capture of one in atari (air for
    the superstring); the liberties of one with two (ataris that win a
    race or force a connection); against three, unless it touches ``o``
    (one of the ``nk`` listed in ``mv[ply, NBR:]``, which ``_add_break_chain``
    reads under its own limits), ``_add_chain_liberties`` (with
    ``capturing``, only its moves that capture, unless ``tied`` and the
    friend has both of ``o``'s two liberties: then they live or die
    together, and its attackers are ``o``'s own)::

        . . . .
        X O . O
        X . O X
        O O X *

    Not: friends that touch ``o`` itself (``_add_break_chain`` has its
    neighbours), nor more than eight friends."""
    w = s[H_W]
    mine = s[ix(COLOR + o)]
    seen = scratch[16:24]  # friends already looked at
    nseen = 0
    nbr = mv[ix(ply), NBR:SCRATCH]  # the target's own neighbours
    for k in range(min(s[ix(NLIB + o)], MAXLIBS)):
        lib = _lib(s, o, k)
        for q in (lib - 1, lib + 1, lib - w, lib + w):
            if s[ix(COLOR + q)] == mine and s[ix(ORIGIN + q)] != o:
                f = s[ix(ORIGIN + q)]
                if _listed(seen, nseen, f):
                    continue
                if nseen < 8:
                    seen[ix(nseen)] = f
                    nseen += 1
                kx = kb.neighbour_strings(s, f, 3 - mine, scratch[:16])
                only = capturing and not (tied and _tied(s, i64(f), i64(o)))
                for j in range(kx):
                    x = np.int64(scratch[ix(j)])
                    libs = s[ix(NLIB + x)]
                    if libs == 1:
                        n = _add(mv, ply, n, _lib(s, x, 0), score)
                    elif libs == 2 and most >= 2:
                        n = _add_liberties_of(s, mv, ply, n, x, SC_RESCUE_ATARI)
                    elif libs == 3 and most >= 3 and not _listed(nbr, nk, x):
                        n = _add_chain_liberties(s, mv, ply, n, x, SC_RESCUE_THREE, only)
    return n


@njit(cache=True, _nrt=False)
def _add_chain_liberties(s, mv, ply, n, x, score, capturing):
    """Against the attacker's string ``x`` of three or four liberties: its
    one escape (a liberty where it would extend to one liberty more), or
    all of them when it has none; nothing when it has two (GNU Go's
    do_find_break_chain3_moves and break_chain4_moves); with
    ``capturing``, only such a move that captures something (a block that
    gains liberties at once)::

        . . . . .     x (X, liberties a, b, *) escapes at * only (four
        . O * . .     liberties): the owner blocks there; with O on the
        . b x O .     point right of *, it has no escape, and a, b and *
        . a X O .     are all listed
        . O O . .

    Not: the owner's stones in atari next to ``x`` (GNU Go's
    defend_secondary_chain1_moves)."""
    color = s[ix(COLOR + x)]
    xl = s[ix(NLIB + x)]
    escape = PASS
    for i in range(xl):
        lib = _lib(s, x, i)
        if kb.libs_after(s, lib, color, xl + 1) > xl:
            if escape != PASS:
                return n
            escape = lib
    for i in range(xl):
        lib = _lib(s, x, i)
        if escape != PASS and lib != escape:
            continue
        if capturing and not _captures(s, lib, 3 - color):
            continue
        n = _add(mv, ply, n, lib, score)
    return n


@njit(cache=True, _nrt=False)
def _only_self_ataris(s, mv, ply, n, color):
    """Would every candidate of mv[ply] (tenuki aside) leave ``color``'s
    stone with one liberty or none (``libs_after``: captures counted)?"""
    for i in range(n):
        m = mv[ix(ply), ix(i)]
        if m != PASS and kb.libs_after(s, m, color, 2) >= 2:
            return False
    return True


@njit(cache=True, _nrt=False)
def _add_last_resort_races(s, mv, ply, n, o, k):
    """The owner's last resort for ``o`` (two liberties) when every
    candidate is a self-atari (GNU Go's defend2 with no move, which turns
    ``be_aggressive``): race moves against the attacker's four-liberty
    neighbours (of the ``k`` in ``mv[ply, NBR:]``), by
    ``_add_chain_liberties`` (GNU Go's break_chain4_moves).  White's
    string (liberties a, the eye, and b, a self-atari for both sides) must
    shorten Black's string (four liberties, ``*``) first to win the race::

        O * X O a O b X *     the top three lines of a 9x9 board;
        O * X O O O O O X     White's wall below holds Black
        O * X X X X X X X

    Not: neighbours of five liberties or more; below backfill2_depth (the
    caller's rule, as for the other race moves against long neighbours:
    the attacker never extends a three-liberty neighbour, so deeper such
    moves found false defences)."""
    mine = s[ix(COLOR + o)]
    nbr = mv[ix(ply), NBR:SCRATCH]
    four = False
    for i in range(k):
        four = four or s[ix(NLIB + nbr[ix(i)])] == 4
    if not four or not _only_self_ataris(s, mv, ply, n, mine):
        return n
    for i in range(k):
        x = nbr[ix(i)]
        if s[ix(NLIB + x)] == 4:
            n = _add_chain_liberties(s, mv, ply, i64(n), i64(x), i64(SC_RACE_FOUR), False)
    return n


@njit(cache=True, _nrt=False)
def _add_race_liberties(s, mv, ply, n, x, score, most):
    """The liberties of the attacker's string ``x`` (three or more) as the
    owner's race moves, unless ``x`` has ``most`` escapes: liberties where
    it would extend to six liberties or more.  Such a string is out of
    reach of a race (GNU Go's break_chain3 skips it at four already)::

        . * O .     x (X, three liberties) escapes at none of them
        * X X O
        O X O .
        . * O .

    Not: escapes that connect to a string of fewer liberties."""
    color = s[ix(COLOR + x)]
    escapes = 0
    for i in range(min(s[ix(NLIB + x)], MAXLIBS)):
        if kb.libs_after(s, _lib(s, x, i), color, 6) >= 6:
            escapes += 1
            if escapes == most:
                return n
    return _add_liberties_of(s, mv, ply, n, x, score)


@njit(cache=True, _nrt=False)
def _keep_near_edge(s, mv, ply, n0, n):
    """Of the candidates n0..n-1, keep those on the first two lines (in
    their order); returns the new count.  Against three liberties past
    backfill2_depth the attacker's approaches and blocks stay only there:
    an edge crawl is stopped by a hane or a jump ahead of it (``*``), as
    GNU Go's attack3 proposes its edge moves at any depth but fills the
    superstring's liberties only up to backfill2_depth::

        . . . *     the black string crawls up the first line (the
        . . * .     right-hand column) with three liberties; White
        . O . X     stops it ahead (*), on the first or the second
        . O . X     line, however deep the read
        . O X X

    Not: an approach in the open, which costs a whole new defence at
    every ply and seldom decides that deep."""
    kept = n0
    for i in range(n0, n):
        m = mv[ix(ply), ix(i)]
        if _near_edge(s, m):
            mv[ix(ply), ix(kept)] = m
            mv[ix(ply), ix(SCORES + kept)] = mv[ix(ply), ix(SCORES + i)]
            kept += 1
    return kept


@njit(cache=True, _nrt=False)
def _eyes(s, o):
    """(a, b): whether the attacker's fill of the first, the second
    liberty of ``o`` (two liberties) would be a suicide, an eye of ``o``.
    Both: ``o`` may be safe without a move, however deep, and the
    attacker must first play outside (the tenuki, ``_defend_moves``);
    one: an eye race on the other (``_eye_race``)::

        O O O O O     X (the target) has two eyes, a and b: a White
        X X X X O     stone on either takes nothing and has no liberty
        X a X b X
        X X X X X

    Not: fills that are self-ataris (they may be throw-ins the attacker's
    deep moves would not answer); legality as ``libs_after`` sees it."""
    other = 3 - s[ix(COLOR + o)]
    a = kb.libs_after(s, _lib(s, o, 0), other, 1) == 0
    return a, kb.libs_after(s, _lib(s, o, 1), other, 1) == 0


@njit(cache=True, _nrt=False, inline="always")
def _race_liberty(s, o, a, b):
    """The liberty of ``o`` an eye race is fought on, from its eyes
    (``_eyes``): the other liberty when exactly one is an eye, else PASS."""
    if a == b:
        return i64(PASS)
    return i64(_lib(s, o, 1 if a else 0))


@njit(cache=True, _nrt=False)
def _eye_race(s, o):
    """``_race_liberty`` of ``o`` (two liberties)."""
    a, b = _eyes(s, o)
    return _race_liberty(s, o, a, b)


@njit(cache=True, _nrt=False)
def _add_eye_races(s, mv, ply, n, o, k, r):
    """Races of a target with an eye: ``o`` has two liberties, ``e`` a
    suicide for the attacker and ``r`` (``_eye_race``; PASS: no race)
    shared with an attacker neighbour of two or three liberties (of the
    ``k`` in ``mv[ply, NBR:]``).  The
    attacker captures only by filling ``r``, which shortens its own
    string, so the owner wins the race by filling that string's other
    liberties (``*``) first, up to ``backfill_depth`` (the caller's)::

        O O O O O       the lower right corner, a wall of O's to the
        O O * O *       left: the target O has liberties e and r, the
        X X X X X       attacker's X (the row and E2) r and the two *;
        O O O O X       X on e would take nothing and have no liberty
        O X e O r

    Not: neighbours of four liberties or more (the attacker's fill of
    ``r`` then leaves them two, a race the owner loses); self-ataris (the
    attacker takes the stone and gains liberties); a target whose
    liberties are both suicides (``_eyes``: it is safe); eyes of more
    than one point."""
    if r == PASS:
        return n
    mine = s[ix(COLOR + o)]
    nbr = mv[ix(ply), NBR:SCRATCH]
    for i in range(k):
        x = nbr[ix(i)]
        xl = s[ix(NLIB + x)]
        if xl < 2 or xl > 3 or not kb.is_liberty(s, x, r):
            continue
        for j in range(xl):
            m = _lib(s, x, j)
            if m != r and kb.libs_after(s, m, mine, 2) >= 2:
                n = _add(mv, ply, n, m, SC_EYE_RACE)
    return n


@njit(cache=True, _nrt=False, inline="always")
def _add_tenuki(mv, ply, n):
    """Tenuki: PASS as the owner's last candidate, for a string of two
    liberties that may be safe already (the attacker must then show a
    capture): up to ``break_chain_depth``, and deeper where neither
    liberty can be filled (``_eyes``), as GNU Go checks at any depth
    that an attack that seems to work still works if the owner does not
    answer; at three liberties or more at the root only, so that a string
    the attacker cannot take is never answered lost (a seki, where every
    move of the owner's loses the race).

    Not: a tenuki at one liberty (the attacker captures), nor below the
    root at three or more (it won 2 of 520 tries)."""
    return _add(mv, ply, n, PASS, SC_TENUKI)


# ------------------------------------------------------------ assemblers


@njit(cache=True, _nrt=False)
def _attack_moves(s, ctx, mv, ply, target, libs, stackp, k):
    """Candidate moves for the attacker of ``target`` (before ordering);
    its ``k`` neighbour strings are listed in ``mv[ply, NBR:]``."""
    o = s[ix(ORIGIN + target)]
    n = _add_liberties_of(s, mv, ply, 0, o, SC_LIBERTY)
    if ctx[C_LADDER]:
        return n  # a ladder read: the liberties only
    # one to three liberties: approaches and blocks, two plies fewer a
    # liberty; against three past backfill2_depth, only near the edge
    if libs <= 3 and stackp <= ctx[C_BRANCH] - 2 * (libs - 2):
        n0 = n
        n = _add_second_order(s, mv, ply, i64(n), i64(o), i64(SC_APPROACH))
        n = _add_connections(s, mv, ply, i64(n), i64(o), i64(BLOCK_LIBS), i64(SC_BLOCK))
        if libs == 3 and stackp > ctx[C_BACKFILL2]:
            n = _keep_near_edge(s, mv, ply, i64(n0), i64(n))
    # four liberties, near the root: nets
    if libs == 4 and stackp <= ctx[C_BACKFILL2] - NET_PLIES:
        n = _add_nets(s, mv, ply, i64(n), i64(o), i64(SC_APPROACH))
    elif libs == 4 and stackp <= ctx[C_BACKFILL2] - CAP_PLIES:  # a little deeper: caps
        n = _add_caps(s, mv, ply, i64(n), i64(o), i64(SC_APPROACH))
    # one liberty, a ko: fill the owner's liberties around it first
    if libs == 1 and stackp <= ctx[C_BACKFILL]:
        n = _add_ko_backfills(s, mv, ply, i64(n), i64(o), i64(SC_BACKFILL))
    # two liberties: a liberty the attacker cannot fill safely -> fill its own first
    if libs == 2 and stackp <= ctx[C_BACKFILL]:
        n = _add_backfills(s, mv, ply, i64(n), i64(o), i64(BACKFILL_LIBS), i64(SC_BACKFILL))
        if stackp <= ctx[C_BACKFILL2]:
            n = _add_friend_approaches(s, mv, ply, i64(n), i64(o), i64(SC_FRIEND_APPROACH))
            n = _add_friend_saves(s, mv, ply, i64(n), i64(o), i64(k), i64(SC_SAVE_CAPTURE))
    if libs == 2 and stackp <= ctx[C_BACKFILL2] - TIED_PLIES:  # a jump covers both
        n = _add_tied_nets(s, mv, ply, i64(n), i64(o), i64(SC_APPROACH))
    # two liberties: the superstring's (GNU Go's attack2; not its attack3's)
    if libs == 2 and stackp <= ctx[C_SUPERSTRING]:
        cap = 3 if stackp <= ctx[C_BACKFILL2] else 2
        n = _add_superstring(s, mv, ply, i64(n), i64(o), i64(cap), i64(SC_APPROACH))
    # any count: the attacker's own neighbours in atari or in a race
    return _add_attacker_saves(s, ctx, mv, ply, i64(n), i64(o), i64(libs), i64(stackp), i64(k))


@njit(cache=True, _nrt=False)
def _defend_moves(s, ctx, mv, ply, target, libs, stackp, k):
    """Candidate moves for the owner of ``target`` (before ordering);
    its ``k`` neighbour strings are listed in ``mv[ply, NBR:]``."""
    o = s[ix(ORIGIN + target)]
    n = _add_liberties_of(s, mv, ply, 0, o, SC_LIBERTY)
    n = _add_break_chain(s, ctx, mv, ply, i64(n), i64(o), i64(libs), i64(stackp), i64(k))
    reach = ctx[C_LADDER] == 0  # a ladder read: liberties, captures, tenuki
    if reach and (libs == 2 or libs == 3):
        n = _add_edge_clamps(s, mv, ply, i64(n), i64(o), i64(k))
    if reach and stackp <= ctx[C_SUPERSTRING]:
        scratch = mv[ix(ply), SCRATCH:KILLER]
        ataris = stackp <= ctx[C_BREAKCHAIN]
        # three-liberty attackers: against three liberties near the root
        # (GNU Go's defend3); against two only by a capture (its defend2,
        # whose quiet blocks our attacker cannot always answer), or quietly
        # nearer the root for a friend tied to both liberties
        three = (libs == 3 and stackp <= ctx[C_BACKFILL2]) or (libs == 2 and ataris)
        most = 3 if three else 2 if ataris else 1
        tied = stackp <= ctx[C_BACKFILL2] - TIED_PLIES
        n = _add_friend_rescues(
            s, mv, ply, i64(n), i64(o), scratch, i64(SC_RESCUE), i64(most), i64(k), libs == 2, tied
        )
    if libs == 1:
        if reach and stackp <= ctx[C_SUPERSTRING]:
            n = _add_connections(s, mv, ply, i64(n), i64(o), i64(JOIN_LIBS), i64(SC_JOIN_IN_ATARI))
        if reach and stackp <= ctx[C_BACKFILL]:
            n = _add_snapback_setups(s, mv, ply, i64(n), i64(o), i64(SC_SNAPBACK_SETUP))
    elif libs == 2:
        if reach and stackp <= ctx[C_DEPTH]:
            n = _add_second_order(s, mv, ply, i64(n), i64(o), i64(SC_SECOND_ORDER))
            n = _add_connections(s, mv, ply, i64(n), i64(o), i64(JOIN_LIBS), i64(SC_JOIN))
        if reach and stackp <= ctx[C_BACKFILL2]:  # every move a self-atari: race
            n = _add_last_resort_races(s, mv, ply, i64(n), i64(o), i64(k))
        if reach and stackp <= ctx[C_BACKFILL2] - FILL_ANSWER_PLIES:
            n = _add_fill_answers(s, mv, ply, i64(n), i64(o))
        races = reach and stackp <= ctx[C_BACKFILL]
        deep = stackp > ctx[C_BREAKCHAIN]
        a = b = False
        if races or deep:  # one look at the fills serves both rules
            a, b = _eyes(s, i64(o))
        if races:  # an eye against a short neighbour
            r = _race_liberty(s, i64(o), a, b)
            n = _add_eye_races(s, mv, ply, i64(n), i64(o), i64(k), r)
        if not deep or (a and b):
            n = _add_tenuki(mv, ply, n)  # the string may be safe already
    elif libs >= 3 and reach and stackp <= ctx[C_BREAKCHAIN]:
        n = _add_second_order(s, mv, ply, i64(n), i64(o), i64(SC_SECOND_ORDER))
        n = _add_connections(s, mv, ply, i64(n), i64(o), i64(JOIN_LIBS), i64(SC_JOIN))
    if libs >= 3 and stackp == 0:
        n = _add_tenuki(mv, ply, n)  # the question's string may be safe already
    return n


# --------------------------------------------------- shapes and ordering


@njit(cache=True, _nrt=False)
def _ladder_escapes(s, x):
    """True when string ``x`` (two liberties) surely escapes a ladder: after
    either atari its extension has three liberties or more, which a ladder
    read takes as safe at once.  The ladder read would answer the same, so
    it is skipped.  (Not decided here when a ko point is set.)"""
    if s[H_KO] != PASS:
        return False
    a = i64(_lib(s, x, 0))
    b = i64(_lib(s, x, 1))
    # after the atari on one liberty, the extension on the other: three
    # liberties or more (the fill's captures would only add more)
    color = i64(s[ix(COLOR + x)])
    return _libs_around(s, b, color, a)[2] >= 3 and _libs_around(s, a, color, b)[2] >= 3


@njit(cache=True, _nrt=False)
def _touching(s, x, o):
    """Stones of string ``x`` next to string ``o``."""
    w = s[H_W]
    k = 0
    p = x
    while True:
        for r in (p - 1, p + 1, p - w, p + w):
            if s[ix(COLOR + r)] != EMPTY and s[ix(ORIGIN + r)] == o:
                k += 1
                break
        p = s[ix(NEXT + p)]
        if p == x:
            break
    return k


@njit(cache=True, _nrt=False)
def _shared(s, a, b):
    """Liberties strings ``a`` and ``b`` have in common (listed ones)."""
    k = 0
    for i in range(min(s[ix(NLIB + a)], MAXLIBS)):
        if kb.is_liberty(s, b, _lib(s, a, i)):
            k += 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def _tied(s, f, o):
    """Is the owner string ``f`` tied to ``o`` (two liberties): does it
    have both of them, so that the two live or die together?"""
    return _shared(s, f, o) == 2


@njit(cache=True, _nrt=False, inline="always")
def _contact(s, m, color, o, nbr, k):
    """What ``color`` playing the empty point ``m`` would touch: (is ``m`` a
    liberty of the target ``o``, does it capture, the liberties ``o`` would
    gain from the captures, the race bonus for shortening the listed
    neighbours ``nbr[:k]`` of three liberties or fewer)."""
    w = s[H_W]
    other = 3 - color
    adjacent = False
    captures = False
    gain = 0
    bonus = 0
    seen0 = PASS
    seen1 = PASS
    seen2 = PASS
    for q in (m - 1, m + 1, m - w, m + w):
        c = s[ix(COLOR + q)]
        if c != color and c != other:
            continue
        x = s[ix(ORIGIN + q)]
        adjacent = adjacent or x == o
        if c == color or x == seen0 or x == seen1 or x == seen2:
            continue
        seen2 = seen1
        seen1 = seen0
        seen0 = x
        xl = s[ix(NLIB + x)]
        if xl == 1:
            captures = True
            if x != o:
                gain += _touching(s, x, o)
        if xl <= 3 and _listed(nbr, k, x):
            bonus += 10 * (4 - xl)
    return adjacent, captures, gain, bonus


@njit(cache=True, _nrt=False, inline="always")
def _on_edge(s, m):
    """Is ``m`` on the first line?"""
    w = s[H_W]
    return (
        s[ix(COLOR + m - 1)] == BORDER
        or s[ix(COLOR + m + 1)] == BORDER
        or s[ix(COLOR + m - w)] == BORDER
        or s[ix(COLOR + m + w)] == BORDER
    )


@njit(cache=True, _nrt=False, inline="always")
def _near_edge(s, m):
    """Is the empty point ``m`` on the first or the second line?  (Each
    neighbour of a point off the first line is on the board.)"""
    w = s[H_W]
    return (
        _on_edge(s, m)
        or _on_edge(s, m - 1)
        or _on_edge(s, m + 1)
        or _on_edge(s, m - w)
        or _on_edge(s, m + w)
    )


@njit(cache=True, _nrt=False, inline="always")
def _attack_score(libs, adjacent, gain, ml, open_libs, captures):
    """The attacker's score for a legal move (``ml``: the liberties of the
    mover's string there): fewer liberties left to the target first,
    then the attacker's own liberties and, on a liberty, the owner's
    liberties had it played there (``open_libs``); a self-atari that does
    not capture late."""
    tl = 0 if adjacent and libs == 1 else libs - (1 if adjacent else 0) + gain
    score = 20 * (5 - min(tl, 5)) + 3 * min(ml, 4)
    if adjacent:
        score += 8 * min(open_libs, 5)
    if ml == 1 and (tl > 1 or not captures):
        score -= SELF_ATARI
    return score


@njit(cache=True, _nrt=False, inline="always")
def _defend_score(s, m, o, adjacent, captures, gain, safe, ml, open_libs, throw_ins):
    """The owner's score for the legal move ``m`` that ``_defend_dropped``
    keeps (``ml`` as above): more liberties for the target first (``safe``
    or more: trivially safe, before all others, whatever they score;
    ``_read``'s shortcut relies on it), a little less on the first line,
    then the attacker's liberties had it played there (``open_libs``,
    weighed less away from the target, where the mover's own liberties
    count too); a throw-in (a self-atari away from the target, let
    through by ``throw_ins``) and a move leaving the target in atari late."""
    tl = ml if adjacent else s[ix(NLIB + o)] + gain
    score = 20 * min(tl, 6)
    if _on_edge(s, m):
        score -= 10  # fewer liberties to come there
    if tl >= safe:
        score += 1000  # first, whatever else scores
    open_libs = min(open_libs, 5)
    if adjacent:
        score += 4 * open_libs
    else:
        score += 3 * min(ml, 4) + 2 * open_libs
        if ml == 1 and not captures:
            score -= 30
    if tl == 1:
        score -= 40
    return score


@njit(cache=True, _nrt=False, inline="always")
def _defend_dropped(s, o, adjacent, captures, gain, ml, throw_ins):
    """Whether the owner's move is DROPPED, before its score is counted: a
    move leaving the target (two stones or more) in atari without a
    capture, and a self-atari away from the target that captures nothing
    unless ``throw_ins`` (up to ``backfill2_depth``: such a stone only
    makes a ko or a snapback shape, which deeper down costs much and
    seldom decides)."""
    if captures:
        return False
    if not adjacent and ml == 1 and not throw_ins:
        return True
    tl = ml if adjacent else s[ix(NLIB + o)] + gain
    return tl == 1 and s[ix(NSTONES + o)] >= 2


@njit(cache=True, _nrt=False, inline="always")
def _order(s, mv, ply, n, target, color, attack, k, safe, throw_ins):
    """Score each candidate by the liberties it would leave, counted without
    playing it (the mover's new string, the target's string), and on a
    liberty of the target by the liberties the other side would get there,
    then sort (best first); return the count kept.  An owner's move that
    leaves the target ``safe`` liberties or more (trivially safe one ply
    down) comes first.  The owner's moves that shorten an
    attacking neighbour of three liberties or fewer (listed, ``k`` of them,
    in ``mv[ply, NBR:]``) score more.  An owner's move that leaves the
    target (two stones or more) in atari without capturing anything is
    dropped: the attacker captures at once, so it never defends; so is,
    unless ``throw_ins``, its self-atari away from the target that captures
    nothing (``_defend_dropped``)."""
    o = s[ix(ORIGIN + target)]
    libs = s[ix(NLIB + o)]
    nbr = mv[ix(ply), NBR:SCRATCH]
    for i in range(n):
        m = mv[ix(ply), ix(i)]
        if m == PASS:
            continue
        adjacent, captures, gain, bonus = _contact(s, m, color, o, nbr, 0 if attack else k)
        mv[ix(ply), ix(SCORES + i)] += bonus
        # on a liberty of the target, the owner's count there is kept per node
        j = _lib_index(s, o, m) if adjacent else -1
        own = _own_libs(s, mv, ply, o, j) if j >= 0 else -1
        ml = own if own >= 0 and not attack else kb.libs_after(s, m, color, 6)
        if ml == 0 or (captures and m == s[H_KO]):
            mv[ix(ply), ix(SCORES + i)] += -50  # suicide or ko retake: try last
            continue
        if attack:
            mv[ix(ply), ix(SCORES + i)] += _attack_score(
                libs, adjacent, gain, ml, max(own, 0), captures
            )
        elif _defend_dropped(s, o, adjacent, captures, gain, ml, throw_ins):
            mv[ix(ply), ix(SCORES + i)] += DROPPED  # the attacker's count not needed
        else:
            mv[ix(ply), ix(SCORES + i)] += _defend_score(
                s,
                m,
                o,
                adjacent,
                captures,
                gain,
                safe,
                ml,
                kb.libs_after(s, m, 3 - color, 6),
                throw_ins,
            )
    _sort(mv, ply, n)
    while n > 0 and mv[ix(ply), ix(SCORES + n - 1)] < DROPPED // 2:
        n -= 1
    return n


@njit(cache=True, _nrt=False, inline="always")
def _killer_first(mv, ply, n):
    """Move this ply's killer to the front of the first ``n`` ordered
    candidates when it is among them (not first already, never the
    tenuki); True when the order changed."""
    kil = mv[ix(ply), KILLER]
    if kil == PASS or mv[ix(ply), 0] == kil:
        return False
    for j in range(1, n):
        if mv[ix(ply), ix(j)] == kil:
            for i in range(j, 0, -1):
                mv[ix(ply), ix(i)] = mv[ix(ply), ix(i - 1)]
            mv[ix(ply), 0] = kil
            return True
    return False


# ------------------------------------------------------- captures and ko


@njit(cache=True, _nrt=False)
def _snapback(s, m, taken):
    """After a capture of ``taken`` stones at ``m``: is it a snapback, one
    stone taken by a string of two stones or more left with one liberty,
    so that the owner takes them back at once?  Such a capture does not
    count as one; a capture of two stones or more always counts (as GNU Go
    reads them)."""
    o = s[ix(ORIGIN + m)]
    return taken == 1 and s[ix(NLIB + o)] == 1 and s[ix(NSTONES + o)] > 1


@njit(cache=True, _nrt=False, inline="always")
def _capture_code(s, m, komaster, owner, taken):
    """The attacker's code for the capture of ``taken`` stones just made at
    ``m``: 0 into a snapback, KO_A when it is a ko capture and the attacker
    is not komaster (GNU Go's attack1), WIN otherwise."""
    if _snapback(s, m, taken):
        return 0
    if s[H_KO] != PASS and km.kind(komaster) != 3 - owner:
        return KO_A
    return WIN


@njit(cache=True, _nrt=False, inline="always")
def _capture_wins(s, lib, color):
    """Would ``color`` capturing the string in atari at ``lib`` score WIN, as
    ``_capture_code`` scores it after the move with no komaster: a legal
    capture that is neither a snapback nor a ko?  Decided without playing:
    with one liberty left, taking one stone is a snapback (the capturing
    string joins friends) or a ko (it does not), taking more is a capture."""
    if lib == s[H_KO]:
        return False  # the ko retake is illegal
    if kb.libs_after(s, lib, color, 2) >= 2:
        return True
    w = s[H_W]
    other = 3 - color
    taken = 0
    seen0 = PASS
    seen1 = PASS
    seen2 = PASS
    for q in (lib - 1, lib + 1, lib - w, lib + w):
        c = s[ix(COLOR + q)]
        if c == other:
            x = s[ix(ORIGIN + q)]
            if s[ix(NLIB + x)] == 1 and x != seen0 and x != seen1 and x != seen2:
                taken += s[ix(NSTONES + x)]
                seen2 = seen1
                seen1 = seen0
                seen0 = x
    return taken >= 2


@njit(cache=True, _nrt=False, inline="always")
def _ko_allowed(s, ctx, m, target, attack):
    """May ``m`` be a conditional ko capture (``kernel/komaster``): the
    owner's up to ``ko_depth``, the attacker's ``KO_ATTACK_PLIES`` deeper,
    and at any depth the attacker's capture of a lone target on its last
    liberty, which ends the question (GNU Go's ``attack1``)::

        . X O .     O's B2 has just taken the ko at C2: Black's retake
        X O . O     at C2 captures the target B2 by a ko (KO_B),
        . X O .     however deep the question is asked

    Not: the owner's ko captures past ``ko_depth``."""
    stackp = s[H_STACKP]
    if not attack:
        return stackp <= ctx[C_KODEPTH]
    if stackp <= ctx[C_KODEPTH] + KO_ATTACK_PLIES:
        return True
    o = s[ix(ORIGIN + target)]
    return s[ix(NLIB + o)] == 1 and s[ix(NSTONES + o)] == 1 and _lib(s, o, 0) == m


@njit(cache=True, _nrt=False, inline="always")
def _play(s, hw, keys, ctx, m, target, attack, komaster):
    """Play candidate ``m`` for the attacker of ``target`` (``attack``) or
    its owner under the komaster scheme (``kernel/komaster``; a
    conditional ko capture only where ``_ko_allowed``): (played, komaster
    after).  played 1: played, 2: played as a conditional ko capture, 0:
    not."""
    mine = s[ix(COLOR + target)]
    color = 3 - mine if attack else mine
    ko = _ko_allowed(s, ctx, m, target, attack)
    played, kom = km.trymove(s, hw, keys, komaster, m, i64(color), ko)
    if played != 0:
        ctx[C_TRYMOVES] += 1
    return played, kom


# ---------------------------------------------------------------- a node


@njit(cache=True, _nrt=False, inline="always")
def _safe_libs(ctx, stackp):
    """The fewest liberties that are trivially safe at ``stackp``: five;
    four past ``fourlib_depth``; three past ``depth`` or in a ladder read."""
    if ctx[C_LADDER] != 0 or stackp > ctx[C_DEPTH]:
        return 3
    return 4 if stackp > ctx[C_FOURLIB] else 5


@njit(cache=True, _nrt=False)
def _extensions(s, mv, ply, o, least, want):
    """The first ``want`` (one or two) legal extensions of the target ``o``
    at its listed liberties that leave it at least ``least`` liberties;
    PASS pads.  The counts are kept for this node (``_own_libs``).  With two
    liberties or more left, only the ko point may be illegal (``least`` >= 2),
    as long as the list is exact (``NLIB`` <= MAXLIBS; past it, a listed
    point may be taken, and each is checked)."""
    color = s[ix(COLOR + o)]
    exact = s[ix(NLIB + o)] <= MAXLIBS
    e0 = PASS
    for i in range(min(s[ix(NLIB + o)], MAXLIBS)):
        lib = _lib(s, o, i)
        if _own_libs(s, mv, ply, o, i) >= least and (
            (exact and lib != s[H_KO]) or kb.legal(s, lib, color, False)
        ):
            if e0 != PASS:
                return e0, lib
            if want == 1:
                return lib, PASS
            e0 = lib
    return e0, PASS


@njit(cache=True, _nrt=False, inline="always")
def _safe_extension(s, mv, ply, o, safe):
    """A legal extension of the owner's string ``o`` at one of its
    liberties that leaves it at least ``safe`` liberties (trivially safe one
    ply down: ``_safe_libs``), or PASS when there is none."""
    return _extensions(s, mv, ply, i64(o), i64(safe), i64(1))[0]


@njit(cache=True, _nrt=False)
def _safe_capture(s, nbr, k, o, color, safe):
    """A capture of one of the ``k`` attacker neighbours ``nbr`` in atari
    that leaves the owner's string ``o`` at least ``safe`` liberties, or
    PASS.  With ``_safe_extension`` (tried first): the moves ``_order``
    puts first, whatever else scores."""
    libs = s[ix(NLIB + o)]
    for i in range(k):
        x = nbr[ix(i)]
        if s[ix(NLIB + x)] == 1:
            m = _lib(s, x, 0)
            adjacent, captures, gain, bonus = _contact(s, m, color, o, nbr, 0)
            if not adjacent and libs + gain >= safe and m != s[H_KO]:
                return m  # a capture is legal unless a ko retake
    return PASS


@njit(cache=True, _nrt=False, inline="always")
def _drop_futile(s, mv, ply, n, o, color, safe):
    """Drop the attacker's candidates that fail for sure; return the count
    kept.  Such a move captures nothing, and the owner has an extension
    elsewhere that leaves it more than ``safe`` liberties (two such: at any
    point): after the move, which fills one of the counted points at most
    and clears the ko point, it still leaves ``safe`` or more."""
    ext0, ext1 = _extensions(s, mv, ply, i64(o), i64(safe + 1), i64(2))
    if ext0 == PASS:
        return n
    k = 0
    for i in range(n):
        m = mv[ix(ply), ix(i)]
        if (ext1 != PASS or m != ext0) and not _captures(s, m, color):
            continue
        mv[ix(ply), ix(k)] = m
        mv[ix(ply), ix(SCORES + k)] = mv[ix(ply), ix(SCORES + i)]
        k += 1
    return k


@njit(cache=True, _nrt=False, inline="always")
def _captures(s, m, color):
    """Would ``color`` at the empty point ``m`` capture a string?"""
    w = s[H_W]
    other = 3 - color
    for q in (m - 1, m + 1, m - w, m + w):
        if s[ix(COLOR + q)] == other and s[ix(NLIB + s[ix(ORIGIN + q)])] == 1:
            return True
    return False


@njit(cache=True, _nrt=False, inline="always")
def _trivial(ctx, libs, stackp):
    """True when the liberties alone decide: safe for the defender."""
    return libs >= _safe_libs(ctx, stackp) or stackp >= READ_PLIES


@njit(cache=True, _nrt=False, inline="always")
def _next(code):
    """The next better code: 0 -> KO_B -> KO_A -> WIN."""
    return KO_B if code == 0 else code + 1


@njit(cache=True, _nrt=False, inline="always")
def _prev(code):
    """The next worse code: WIN -> KO_A -> KO_B -> 0."""
    return 0 if code == KO_B else code - 1


@njit(cache=True, _nrt=False, inline="always")
def _result(best, move, alpha, beta):
    """(packed result, bound) of a node that found ``best`` with window
    (alpha, beta), fail-hard: a result <= alpha is alpha (an upper bound, no
    move), one >= beta is beta (a lower bound, with the move)."""
    if best <= alpha:
        return alpha * MOVE_SPAN + PASS, (B_UPPER if alpha > 0 else B_EXACT)
    if best >= beta:
        return beta * MOVE_SPAN + move, (B_LOWER if beta < WIN else B_EXACT)
    return best * MOVE_SPAN + move, B_EXACT


@njit(cache=True, _nrt=False, inline="always")
def _usable(hit, alpha, beta, stats, root):
    """A cache hit as the result for window (alpha, beta), or -1 when its
    bound does not decide this window, or at the ``root`` when its move was
    found in killer order (the root names the first move in generator
    order): that probe then counts as a miss."""
    if hit & ANY_MOVE:
        if root:
            stats[kc.S_HITS] -= 1
            return -1
        hit -= ANY_MOVE
    bound = hit // BOUND_SPAN
    code, move = divmod(hit % BOUND_SPAN, MOVE_SPAN)
    if (bound == B_LOWER and code < beta) or (bound == B_UPPER and code > alpha):
        stats[kc.S_HITS] -= 1
        return -1
    return _result(code, move, alpha, beta)[0]


@njit(cache=True, _nrt=False, inline="always")
def _shortcut(s, ctx, mv, ply, attack, o, color, mine, libs, stackp):
    """A winning move found without a node, or PASS: the attacker's capture
    of the string in atari (no ko capture, no snapback), or below the root
    the owner's move that leaves the string trivially safe one ply down
    (``_order`` puts it first, so a full read answers the same; only the
    root names its move).  Returns (move, nk): nk the attacker's neighbour
    strings, listed in mv[ply, NBR:] when needed here, else -1."""
    if attack and libs == 1:
        lib = i64(_lib(s, o, 0))
        if _capture_wins(s, lib, i64(color)):
            return lib, np.int64(-1)
    if attack or ply <= 0:
        return np.int64(PASS), np.int64(-1)
    safe = _safe_libs(ctx, stackp + 1)
    m = _safe_extension(s, mv, ply, o, safe)
    if m != PASS:
        return np.int64(m), np.int64(-1)
    nbr = mv[ix(ply), NBR:SCRATCH]
    nk = kb.neighbour_strings(s, o, 3 - mine, nbr)
    return np.int64(_safe_capture(s, nbr, nk, o, color, safe)), np.int64(nk)


@njit(cache=True, _nrt=False, inline="always")
def _candidates(s, ctx, mv, ply, attack, target, o, color, mine, libs, stackp, nk):
    """List the candidates in mv[ply], unordered, the attacker's futile ones
    dropped: (n, nk), nk the attacker's neighbour strings in
    mv[ply, NBR:] (listed here unless ``nk`` >= 0 says they are)."""
    if nk < 0:
        nk = kb.neighbour_strings(s, o, 3 - mine, mv[ix(ply), NBR:SCRATCH])
    if not attack:
        return np.int64(_defend_moves(s, ctx, mv, ply, target, libs, stackp, nk)), nk
    n = _attack_moves(s, ctx, mv, ply, target, libs, stackp, nk)
    return np.int64(_drop_futile(s, mv, ply, n, o, color, _safe_libs(ctx, stackp + 2))), nk


@njit(cache=True, _nrt=False, inline="always")
def _cached(s, hw, ctx, table, meta, q, ply, alpha, beta):
    """The cache's result for the question ``q`` in the window (alpha, beta),
    or -1: a miss, or a hit whose bound does not decide the window."""
    hit = kc.probe(table, meta, ctx[C_STATS : C_STATS + 5], s, hw, q, ctx[C_PACKED:C_HISTORY])
    if hit < 0:
        return np.int64(-1)
    return np.int64(_usable(hit, alpha, beta, ctx[C_STATS : C_STATS + 5], ply == 0))


@njit(cache=True, _nrt=False)
def _open(s, hw, ctx, mv, table, meta, flag, attack, target, komaster, alpha, beta):
    """A node up to its move loop: (result, n, nk, q).  n < 0: the node is
    decided (trivial liberties, a shortcut, no attacker move, a usable cache
    hit, the stop flag, the node limit) and ``result`` is its answer.
    Otherwise the node is counted, its n candidates are listed unordered in
    mv[ply], nk the attacker's neighbour strings in mv[ply, NBR:], and
    q is its cache question.  Orders nothing, plays nothing."""
    mine = s[ix(COLOR + target)]
    color = 3 - mine if attack else mine
    stackp = s[H_STACKP]
    o = s[ix(ORIGIN + target)]
    libs = s[ix(NLIB + o)]
    fail = 0 if attack else WIN
    if _trivial(ctx, libs, stackp):
        return _result(fail, PASS, alpha, beta)[0], np.int64(-1), np.int64(-1), np.int64(0)
    ply = stackp - ctx[C_ROOT]
    _forget_counts(mv, ply)
    use_cache = meta[kc.M_CAPACITY] > 0
    q = kc.question_word(
        (1 if attack else 2) + 2 * ctx[C_LADDER],
        target,
        km.kind(komaster),
        km.kom_pos(komaster),
        stackp,
        ctx[C_SETTINGS],
    )
    if use_cache:
        kc.prefetch(table, meta, hw, q)  # loads while the shortcuts run
    m, nk = _shortcut(s, ctx, mv, ply, attack, o, color, mine, libs, stackp)
    if m != PASS:
        return _result(WIN, m, alpha, beta)[0], np.int64(-1), nk, q
    # the candidates are listed while the cache bucket (prefetched) loads
    n, nk = _candidates(s, ctx, mv, ply, attack, target, o, color, mine, libs, stackp, nk)
    if attack and n == 0:
        return _result(fail, PASS, alpha, beta)[0], np.int64(-1), nk, q  # no node
    if use_cache:
        r = _cached(s, hw, ctx, table, meta, q, ply, alpha, beta)
        if r >= 0:
            return r, np.int64(-1), nk, q
    if ctx[C_PARALLEL] != 0 and ab.stopped(flag):
        ctx[C_STOPPED] = 1
        return np.int64(0), np.int64(-1), nk, q
    ctx[C_NODES] += 1
    if ctx[C_NODELIMIT] > 0 and ctx[C_NODES] - ctx[C_ROOTNODES] > ctx[C_NODELIMIT]:
        ctx[C_ABORTED] = 1
        return np.int64(fail * MOVE_SPAN), np.int64(-1), nk, q
    return np.int64(0), n, nk, q


@njit(cache=True, _nrt=False, inline="always")
def _history_due(ctx, stackp):
    """Does the owner's history order (and learn from) a node at
    ``stackp``: on, not in a ladder read, and every move tried there (up to
    break_chain_depth), so that the order changes the node's nodes and the
    move it names, never its code."""
    return ctx[C_HISTORY_ON] != 0 and ctx[C_LADDER] == 0 and stackp <= ctx[C_BREAKCHAIN]


@njit(cache=True, _nrt=False, inline="always")
def _history_of(color):
    """Where ``color``'s history starts in ``ctx`` (MAXPOS words)."""
    return C_HISTORY + (color - 1) * MAXPOS


@njit(cache=True, _nrt=False, inline="always")
def _by_history(ctx, mv, ply, n, color):
    """The history heuristic for the owner (``color``): each of the n
    ordered candidates of mv[ply] gains HISTORY_WEIGHT a time it refuted an
    attacker's move in this question (at most HISTORY_CAP), then they are
    sorted again.  True (the order changed, or may have).  A refutation
    found in one line is often the answer in its neighbours: on the
    development sets it saves 5.9 % of the nodes (docs/reading.md)."""
    base = _history_of(color)
    for i in range(n):
        m = mv[ix(ply), ix(i)]
        if m != PASS:
            bonus = min(HISTORY_WEIGHT * ctx[ix(base + m)], HISTORY_CAP)
            mv[ix(ply), ix(SCORES + i)] += bonus
    _sort(mv, ply, n)
    return True


@njit(cache=True, _nrt=False, inline="always")
def _learn(s, ctx, attack, target, best, beta, move):
    """After an owner's node: a refutation (``best`` >= ``beta``) at a
    node the history orders counts once for its point."""
    if not attack and best >= beta and move != PASS and _history_due(ctx, s[H_STACKP]):
        ctx[ix(_history_of(s[ix(COLOR + target)]) + move)] += 1
        ctx[C_LEARNED] = 1


@njit(cache=True, _nrt=False, inline="always")
def _max_tries(ctx, stackp, attack, libs):
    """How many moves (tenuki and lazy ladder captures aside) a node tries:
    all up to ``break_chain_depth``, a few up to ``branch_depth`` less
    ``BRANCH_PLIES``, then one or two."""
    if stackp <= ctx[C_BREAKCHAIN]:
        return MAXMOVES
    if stackp <= ctx[C_BRANCH] - BRANCH_PLIES:
        if attack:
            return TRIES_BRANCH_WIDE if libs >= 3 else TRIES_BRANCH_ATTACK
        return TRIES_BRANCH
    return TRIES_DEEP_WIDE if attack and libs >= 3 else TRIES_DEEP


@njit(cache=True, _nrt=False)
def _arrange(s, hw, ctx, mv, q, ply, n, target, attack, nk):
    """Order the n candidates of mv[ply] and take the try limit: (n,
    max_tries, killed, node_key), killed when the owner's killer went first
    or its history ordered them (the node's move then need not be the
    first in generator order),
    node_key the node's busy-table key (0 unless ABDADA shares this ply).
    Clears the children's killer (they take it from each other)."""
    mine = s[ix(COLOR + target)]
    color = 3 - mine if attack else mine
    stackp = s[H_STACKP]
    killed = False  # the order is not the generators' alone
    if n > 1:
        safe = _safe_libs(ctx, stackp + 1)
        backfill = stackp <= ctx[C_BACKFILL2]
        n = _order(s, mv, ply, n, target, color, attack, nk, safe, backfill)
        if not attack and ply > 0 and _history_due(ctx, stackp):
            killed = _by_history(ctx, mv, ply, n, color)
    max_tries = _max_tries(ctx, stackp, attack, s[ix(NLIB + s[ix(ORIGIN + target)])])
    # the owner, below the root and not in a ladder read: the move that
    # refuted a sibling's attacker move goes first, if it is tried at all
    if not attack and n > 1 and ply > 0 and ctx[C_LADDER] == 0:
        killed = _killer_first(mv, ply, min(n, max_tries)) or killed
    mv[ix(ply + 1), KILLER] = PASS  # the children's killers come from each other
    node_key = kc.question_keys(hw, q, np.int64(-1))[0] if ply < ctx[C_SHARE] else np.int64(0)
    return np.int64(n), np.int64(max_tries), killed, node_key


# --------------------------------------------------------- the move loop

LADDER_KEY_END = 1 << 20  # above any point: liberty pairs compare as two digits


@njit(cache=True, _nrt=False, inline="always")
def _lazy_ladders(s, ctx, mv, ply, nk, attack):
    """(lazy, x0, x1, x2): whether the owner's lazy ladder reads are due at
    this node, and their candidates (PASS: none), kept apart as deferred
    moves overwrite their list.  The owner may capture a two-liberty
    neighbour in a ladder: those ladders are read (as questions of their
    own) only when the other moves, tenuki excepted, have not reached beta
    (see the module doc).  The candidates are the attacker's two-liberty
    neighbours, the three first by their liberties (lower point first):
    an order of the position, as the cache needs, not of the move history
    that ordered the neighbour list."""
    lazy = not attack and ctx[C_LADDER] == 0 and s[H_STACKP] <= ctx[C_DEPTH]
    x0 = x1 = x2 = np.int64(PASS)
    k0 = k1 = k2 = np.int64(LADDER_KEY_END * LADDER_KEY_END)  # above every pair
    for j in range(nk if lazy else 0):
        x = np.int64(mv[ix(ply), ix(NBR + j)])
        if s[ix(NLIB + x)] != 2:
            continue
        a, b = np.int64(_lib(s, x, 0)), np.int64(_lib(s, x, 1))
        k = min(a, b) * LADDER_KEY_END + max(a, b)
        if k < k0:
            x0, x1, x2, k0, k1, k2 = x, x0, x1, k, k0, k1
        elif k < k1:
            x1, x2, k1, k2 = x, x1, k, k1
        elif k < k2:
            x2, k2 = x, k
    return lazy, x0, x1, x2


STEP_MOVE, STEP_DONE, STEP_LADDERS = 0, 1, 2  # what _step answers


@njit(cache=True, _nrt=False, inline="always")
def _step(mv, ply, n, i, k, ndef, second, lazy, best, beta, best_i):
    """The move loop's next step: (what, idx, i, k, second).  STEP_MOVE:
    try mv[ply, idx]; STEP_DONE: the loop ends; STEP_LADDERS: the lazy
    ladder reads are due before move i (the tenuki, or the end).  The first
    pass runs i over the list; the moves deferred by ABDADA (their indices
    in mv[ply, DEFERRED + k], k < ndef) come in a second pass before the
    ladders and before the end.  Plays and reads nothing."""
    while True:
        if not second:
            i += 1
            if i >= n or best >= beta or (lazy and mv[ix(ply), ix(i)] == PASS):
                if k < ndef:
                    second = True  # deferred moves first, then back here
                    i -= 1
                    continue
                if not lazy or best >= beta:
                    return STEP_DONE, np.int64(i), i, k, second
                return STEP_LADDERS, np.int64(i), i, k, second
            return STEP_MOVE, np.int64(i), i, k, second
        if k >= ndef:
            second = False
            continue
        idx = mv[ix(ply), ix(DEFERRED + k)]
        k += 1
        if best >= beta and idx > best_i:
            return STEP_DONE, np.int64(idx), i, k, second
        return STEP_MOVE, np.int64(idx), i, k, second


@njit(cache=True, _nrt=False)
def _ladder_worth(s, x, target, c1):
    """Is a lazy ladder read of the attacker neighbour ``x`` due: two
    liberties, fewer than two captures found, one of its liberties the
    string's own when the string is in atari, and no ladder escape?"""
    if x == PASS or s[ix(NLIB + x)] != 2 or c1 != PASS:
        return False
    o = s[ix(ORIGIN + target)]
    if s[ix(NLIB + o)] <= 1 and _lib(s, x, 0) != _lib(s, o, 0) and _lib(s, x, 1) != _lib(s, o, 0):
        return False
    return not _ladder_escapes(s, x)


@njit(cache=True, _nrt=False, inline="always")
def _ladder_found(r, c0, c1):
    """(c0, c1) with the capturing move of the ladder read ``r`` added when
    it wins (c0 first)."""
    if r // MOVE_SPAN != WIN:
        return c0, c1
    if c0 == PASS:
        return np.int64(r % MOVE_SPAN), c1
    return c0, np.int64(r % MOVE_SPAN)


@njit(cache=True, _nrt=False)
def _insert_captures(mv, ply, i, n, cut_i, c0, c1):
    """Put the lazy ladder captures c0, c1 (PASS: none) at i, before the
    tenuki there (moved down), unless listed already (tried, or cut by
    max_tries); at most MAXMOVES moves.  Returns (i, n, lazy_i): the loop
    goes on at lazy_i, the first of them."""
    tail = i < n
    lazy_i = i
    for c in (c0, c1):
        if c == PASS:
            continue
        seen = False
        for j in range(min(cut_i, n)):
            if mv[ix(ply), ix(j)] == c:
                seen = True
        for j in range(lazy_i, i):
            if mv[ix(ply), ix(j)] == c:
                seen = True
        if not seen and n < MAXMOVES:
            mv[ix(ply), ix(i)] = c
            i += 1
            if tail:  # the tenuki moves one down
                mv[ix(ply), ix(i)] = PASS
            n += 1
    return np.int64(lazy_i - 1), np.int64(n), np.int64(lazy_i)


@njit(cache=True, _nrt=False)
def _in_atari_next_to(s, x, o):
    """Is ``x`` a string in atari next to the target ``o``?"""
    return s[ix(NLIB + x)] == 1 and _touching(s, x, o) > 0


@njit(cache=True, _nrt=False)
def _saves_neighbour(s, m, o, color):
    """Does ``color`` (the attacker) playing ``m`` save a string of its own
    in atari next to the target ``o``: at that string's last liberty, or by
    taking an owner string in atari next to it::

        . O O X .     Black's C2 (in atari at C1) touches the target (O):
        . O X O X     C1 saves it, and so does D1, which takes D2
        . . * * .

    Not: saves of strings with two liberties (``_add_attacker_saves``)."""
    w = s[H_W]
    for q in (m - 1, m + 1, m - w, m + w):
        c = s[ix(COLOR + q)]
        if c == color and _in_atari_next_to(s, i64(s[ix(ORIGIN + q)]), o):
            return True
        if c != 3 - color or s[ix(NLIB + s[ix(ORIGIN + q)])] != 1:
            continue
        y = s[ix(ORIGIN + q)]
        p = y
        while True:
            for r in (p - 1, p + 1, p - w, p + w):
                if s[ix(COLOR + r)] == color and _in_atari_next_to(s, i64(s[ix(ORIGIN + r)]), o):
                    return True
            p = s[ix(NEXT + p)]
            if p == y:
                break
    return False


@njit(cache=True, _nrt=False, inline="always")
def _save_past_tries(s, ctx, m, target, attack, tries, max_tries, second):
    """Whether a first-pass move past the try limit is tried all the same:
    in the plies of the few tries (up to ``branch_depth`` less
    ``BRANCH_PLIES``), the attacker's save of a string of its own in atari
    next to the target (``_saves_neighbour``), which the owner would take
    after any other move.  Not deeper, where one or two tries are the
    rule."""
    if not attack or second or m == PASS or tries < max_tries:
        return False
    if s[H_STACKP] > ctx[C_BRANCH] - BRANCH_PLIES:
        return False
    return _saves_neighbour(s, m, i64(s[ix(ORIGIN + target)]), i64(3 - s[ix(COLOR + target)]))


@njit(cache=True, _nrt=False, inline="always")
def _over_tries(s, ctx, target, attack, m, idx, second, lazy_i, tries, max_tries, cut_i):
    """The max_tries rule on a first-pass move (tenuki, ladder captures and,
    at the limit, the attacker's saves of ``_save_past_tries`` aside):
    (skip, tries, cut_i), cut_i the first move left untried."""
    if second or m == PASS or idx >= lazy_i:
        return False, tries, cut_i
    if tries == max_tries:
        if _save_past_tries(s, ctx, m, target, attack, tries, max_tries, second):
            return False, tries, cut_i
        return True, tries, (idx if cut_i == MAXMOVES else cut_i)
    return False, tries + 1, cut_i


@njit(cache=True, _nrt=False, inline="always")
def _reprobe(s, hw, ctx, table, meta, q, ply, ndef, alpha, beta):
    """ABDADA: once a move was deferred, another thread may have finished
    this node meanwhile: its cached result, or -1."""
    if ndef == 0 or meta[kc.M_CAPACITY] <= 0:
        return np.int64(-1)
    r = _cached(s, hw, ctx, table, meta, q, ply, alpha, beta)
    if r >= 0:
        ctx[C_REPROBES] += 1
    return r


@njit(cache=True, _nrt=False, inline="always")
def _defer(busy, flag, ctx, mv, ply, idx, m, node_key, ndef, shared):
    """ABDADA: (key, deferred), key the busy-table key of move ``m`` (0
    unless ``shared``), deferred when another thread is reading it: its
    index is then kept at mv[ply, DEFERRED + ndef] for the second pass."""
    if not shared:
        return np.int64(0), False
    key = ab.move_key(node_key, m, flag)
    if not ab.is_busy(busy, key):
        return key, False
    mv[ix(ply), ix(DEFERRED + ndef)] = idx
    ctx[C_DEFERRED] += 1
    return key, True


@njit(cache=True, _nrt=False, inline="always")
def _try(s, hw, keys, ctx, m, attack, target, komaster, lo, beta):
    """Play ``m`` for the side to move: (played, hi, kom, code).  played 0:
    not played (illegal, or a conditional ko move that could not beat
    ``lo``, taken back); 2: a conditional ko move, the window capped at
    KO_B (``hi``).  kom: the komaster after it.  code: the attacker's code
    when ``m`` captured the string, else -1 (the child is to be read)."""
    mine = s[ix(COLOR + target)]
    lost = s[ix(H_CAPT + mine)]  # the owner's stones captured so far
    played, kom = _play(s, hw, keys, ctx, i64(m), target, attack, i64(komaster))
    if played == 0:
        return np.int64(0), beta, komaster, np.int64(-1)
    if played == 2 and lo >= KO_B:  # a conditional ko win scores at most KO_B
        kb.popgo(s, hw, keys)
        return np.int64(0), beta, komaster, np.int64(-1)
    hi = min(beta, KO_B) if played == 2 else beta
    code = np.int64(-1)
    if attack and s[ix(COLOR + target)] == EMPTY:
        code = np.int64(_capture_code(s, m, kom, mine, s[ix(H_CAPT + mine)] - lost))
    return np.int64(played), hi, kom, code


@njit(cache=True, _nrt=False, inline="always")
def _probe_top(busy, ctx, key, lo, hi):
    """The top of the child's window: with a busy-table key, a null window
    above ``lo`` (the move marked busy while it is probed), else ``hi``."""
    if key == 0:
        return np.int64(hi)
    ab.mark(busy, key)
    ctx[C_MARKS] += 1
    return np.int64(_next(lo))


@njit(cache=True, _nrt=False, inline="always")
def _reread(busy, ctx, key, marked, code, top, hi):
    """After a marked probe: unmark, and the top of the window to read the
    move again with when it may be the best; else (or unmarked) -1."""
    if not marked:
        return np.int64(-1)
    ab.unmark(busy, key)
    if code < top or top >= hi or ctx[C_STOPPED] != 0:
        return np.int64(-1)
    ctx[C_RESEARCHES] += 1
    return np.int64(hi)


@njit(cache=True, _nrt=False, inline="always")
def _better(played, code, lo, best, best_move, best_i, m, idx):
    """(best, best_move, best_i) after move ``m`` (at idx) scored ``code``:
    a conditional ko win counts KO_B, and only a code above lo counts."""
    if played == 2 and code > KO_B:
        code = KO_B
    if code > lo:
        return np.int64(code), np.int64(m), np.int64(idx)
    return best, best_move, best_i


@njit(cache=True, _nrt=False, inline="always")
def _close(s, hw, ctx, mv, table, meta, q, attack, alpha, beta, best, move, killed, nodes0):
    """The node's result for its window; the owner's refutation kept as the
    siblings' killer; the result stored with its bound unless the read was
    aborted or stopped (``killed``: its move need not be the first)."""
    result, bound = _result(best, move, alpha, beta)
    if not attack and best >= beta and move != PASS and ctx[C_LADDER] == 0:
        mv[ix(s[H_STACKP] - ctx[C_ROOT]), KILLER] = move  # for the siblings
    if meta[kc.M_CAPACITY] > 0 and ctx[C_ABORTED] == 0 and ctx[C_STOPPED] == 0:
        data = result + bound * BOUND_SPAN + (ANY_MOVE if killed else 0)
        stats = ctx[C_STATS : C_STATS + 5]
        kc.store(
            table, meta, stats, s, hw, q, ctx[C_PACKED:C_HISTORY], data, ctx[C_NODES] - nodes0 + 1
        )
    return result


@njit(cache=True, _nrt=False)
def _read(s, hw, keys, ctx, mv, table, meta, busy, flag, attack, target, komaster, alpha, beta):
    """Attack (``attack`` true) or defend ``target`` within the window
    (alpha, beta) of codes; see the module doc.  Keeps the two recursive
    calls (mutual recursion breaks numba's cache), their arguments exactly
    typed (numba's cache breaks recursive calls that cast)."""
    r, n, nk, q = _open(s, hw, ctx, mv, table, meta, flag, attack, target, komaster, alpha, beta)
    if n < 0:
        return r
    nodes0, other = ctx[C_NODES], not attack  # other: the side of the recursive reads
    ply = s[H_STACKP] - ctx[C_ROOT]
    n, max_tries, killed, node_key = _arrange(s, hw, ctx, mv, q, ply, n, target, attack, nk)
    lazy, x0, x1, x2 = _lazy_ladders(s, ctx, mv, ply, nk, attack)
    # the loop's state, exactly typed (literals would specialise the helpers)
    c0 = c1 = best_move = np.int64(PASS)
    best = k = ndef = tries = np.int64(0)  # ndef: moves deferred (ABDADA)
    best_i = cut_i = lazy_i = np.int64(MAXMOVES)  # first cut by max_tries, added by ladders
    i, second, searched = np.int64(-1), np.bool_(False), np.bool_(False)
    while True:
        what, idx, i, k, second = _step(mv, ply, n, i, k, ndef, second, lazy, best, beta, best_i)
        if what == STEP_DONE:
            break
        if what == STEP_LADDERS:
            lazy = False
            ctx[C_ROOT] -= 1  # their nodes use the rows past this ply
            a, b = np.int64(0), np.int64(WIN)  # their window
            for x in (x0, x1, x2):
                if not _ladder_worth(s, x, target, c1):
                    continue
                ctx[C_LADDER] = 1
                r = _read(s, hw, keys, ctx, mv, table, meta, busy, flag, other, x, komaster, a, b)
                ctx[C_LADDER] = 0
                c0, c1 = _ladder_found(r, c0, c1)
            ctx[C_ROOT] += 1
            if ctx[C_STOPPED] != 0:
                return 0
            i, n, lazy_i = _insert_captures(mv, ply, i, n, cut_i, c0, c1)
            continue
        m = mv[ix(ply), ix(idx)]
        skip, tries, cut_i = _over_tries(
            s, ctx, target, attack, m, idx, second, lazy_i, tries, max_tries, cut_i
        )
        if skip:
            continue
        r = _reprobe(s, hw, ctx, table, meta, q, ply, ndef, alpha, beta)
        if r >= 0:
            return r
        look = ply < ctx[C_SHARE] and searched and not second
        key, deferred = _defer(busy, flag, ctx, mv, ply, idx, m, node_key, ndef, look)
        if deferred:
            ndef += 1
            continue
        # a move before the best one (searched late) must show a tie
        lo = _prev(best) if best > alpha and idx < best_i else max(alpha, best)
        played, hi, kom, code = _try(s, hw, keys, ctx, m, attack, target, komaster, lo, beta)
        if played == 0:
            continue
        searched = True
        top = _probe_top(busy, ctx, key, lo, hi) if code < 0 else np.int64(-1)
        marked = key != 0
        while top >= 0:
            a, b = np.int64(invert(top)), np.int64(invert(lo))  # the child's window
            r = _read(s, hw, keys, ctx, mv, table, meta, busy, flag, other, target, kom, a, b)
            code = invert(r // MOVE_SPAN)
            top = _reread(busy, ctx, key, marked, code, top, hi)
            marked = False
        kb.popgo(s, hw, keys)
        if ctx[C_STOPPED] != 0:
            return 0
        best, best_move, best_i = _better(played, code, lo, best, best_move, best_i, m, idx)
    _learn(s, ctx, attack, target, best, beta, best_move)
    return _close(
        s, hw, ctx, mv, table, meta, q, attack, alpha, beta, best, best_move, killed, nodes0
    )


# ---------------------------------------------------------- entry points


def new_shared():
    """(busy, flag) for a serial read: a one-bucket table and a flag, unused
    while ``ctx[C_SHARE]`` is 0."""
    return np.zeros(ab.WAYS, np.int64), ab.new_flag()


@njit(cache=True, _nrt=False)
def _root(s, ctx, mv):
    """A new question: killers and the owner's history never outlive one.
    Only the killers no parent node clears are cleared (the root's row, and
    the first read's row of ``read_after``; ``_arrange`` clears each
    child's), and the history only when something was learned: a question
    of a few nodes touches a few cache lines, not 110 KB."""
    ctx[C_ROOT] = s[H_STACKP]
    mv[0, KILLER] = PASS
    mv[1, KILLER] = PASS
    if ctx[C_LEARNED] != 0:
        ctx[C_HISTORY : C_HISTORY + 2 * MAXPOS] = 0
        ctx[C_LEARNED] = 0
    ctx[C_ABORTED] = 0
    ctx[C_STOPPED] = 0
    ctx[C_ROOTNODES] = ctx[C_NODES]


@njit(cache=True, _nrt=False)
def _load_copy(s, hw, copies, copy_at, words, word_at, b):
    """Bring the board (s, hw) to board copy ``b``: the used part of its
    state ``copies[copy_at[b]:copy_at[b + 1]]`` and of its hash words."""
    lo, hi = copy_at[ix(b)], copy_at[ix(b + 1)]
    for k in range(hi - lo):
        s[ix(k)] = copies[ix(lo + k)]
    lo, hi = word_at[ix(b)], word_at[ix(b + 1)]
    for k in range(hi - lo):
        hw[ix(k)] = words[ix(lo + k)]


@njit(cache=True, _nrt=False, nogil=True)
def read_rows(
    s,
    hw,
    keys,
    ctx,
    mv,
    table,
    meta,
    busy,
    flag,
    rows,
    taken,
    copies,
    copy_at,
    words,
    word_at,
):
    """Entry point: one thread's share of the question rows ``rows`` (see
    ``Q_ATTACK``).  The thread takes the next row not yet taken
    (``taken[0]``, an atomic counter the threads of a batch share) until
    none is left, so it never returns to Python between questions.  A row
    with a board copy (``Q_BOARD`` >= 0) is read on the board brought there
    (``_load_copy``), else on (s, hw) as it is.  Each question attacks or
    defends the string at ``Q_TARGET`` from the root; the answers go into
    ``Q_PACKED``, ``Q_THEN`` (the string's defence, read after an attack
    that succeeds when ``Q_FOLLOW`` asks) and ``Q_ABORTED``.  A thread of
    a parallel read (``ctx[C_PARALLEL]`` set, ``ctx[C_THREAD]`` its
    number; one row a thread) raises ``flag`` when it finishes first; a
    thread stopped by another's flag answers 0 with ``ctx[C_STOPPED]`` set.
    Not done: a row split between the threads of a batch.  One ``_read``
    call site, as numba infers ``_read`` once a site."""
    loaded, i, follow = -1, 0, False
    while True:
        if not follow:
            i = atomic_add(taken, 0, 1)
            if i >= rows.shape[0]:
                return
            b = rows[ix(i), Q_BOARD]
            if b >= 0 and b != loaded:
                _load_copy(s, hw, copies, copy_at, words, word_at, b)
                loaded = b
        meta[kc.M_GEN] += rows[ix(i), Q_GEN]  # a lost increment would do no harm
        target = rows[ix(i), Q_TARGET]
        _root(s, ctx, mv)
        r = 0
        if s[ix(COLOR + target)] == BLACK or s[ix(COLOR + target)] == WHITE:
            attack = rows[ix(i), Q_ATTACK] != 0 and not follow
            r = _read(
                s,
                hw,
                keys,
                ctx,
                mv,
                table,
                meta,
                busy,
                flag,
                attack,
                np.int64(target),
                np.int64(EMPTY),
                np.int64(0),
                np.int64(WIN),
            )
        if ctx[C_PARALLEL] != 0 and ctx[C_STOPPED] == 0:
            if not ab.finish(flag, ctx[C_THREAD]):
                ctx[C_STOPPED] = 1  # another thread was first: its answer counts
        if follow:
            rows[ix(i), Q_THEN] = r
            rows[ix(i), Q_ABORTED] |= ctx[C_ABORTED]
            follow = False
        else:
            rows[ix(i), Q_PACKED] = r
            rows[ix(i), Q_ABORTED] = ctx[C_ABORTED]
            follow = rows[ix(i), Q_FOLLOW] != 0 and r >= MOVE_SPAN


@njit(cache=True, _nrt=False, nogil=True)
def read_after(s, hw, keys, ctx, mv, table, meta, busy, flag, attack, target, move):
    """does_attack / does_defend: play ``move`` for the side to read, then ask
    whether the other side still succeeds; return the mover's code (serial)."""
    _root(s, ctx, mv)
    mine = s[ix(COLOR + target)]
    if mine != BLACK and mine != WHITE:
        return 0
    played, kom = _play(s, hw, keys, ctx, i64(move), target, attack, i64(EMPTY))
    if played == 0:
        return 0
    if attack and s[ix(COLOR + target)] == EMPTY:
        code = WIN  # even into a snapback, as GNU Go answers
        if s[H_KO] != PASS and played == 1:
            code = KO_A
    else:
        code = invert(
            _read(
                s,
                hw,
                keys,
                ctx,
                mv,
                table,
                meta,
                busy,
                flag,
                not attack,
                np.int64(target),
                np.int64(kom),
                np.int64(0),
                np.int64(WIN),
            )
            // MOVE_SPAN
        )
    kb.popgo(s, hw, keys)
    if played == 2 and code > KO_B:
        code = KO_B
    return code
