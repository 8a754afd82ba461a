"""Property and diagram tests of the board kernel against tests/refboard.py.

The kernel is driven only through ``gogame.position.Position``; every
observable (colours, ko point, captures, legality, strings, liberties, hash
words) is compared with the slow pure-Python ``RefBoard`` after each move.

Diagrams are written top row first, X = black, O = white, '.' = empty; a
lower-case letter (not 'o' or 'x') names an empty point for the test.
"""
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from refboard import IllegalMove, RefBoard, other

from gogame.kernel.board import BLACK, WHITE
from gogame.position import HashMismatchError, IllegalMoveError, Position

GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"
MAX_MOVES = 400

PROPERTY = settings(
    deadline=None,
    max_examples=60,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much],
)
BRIEF = settings(PROPERTY, max_examples=6)


# --------------------------------------------------------------- helpers
def gtp(pt):
    return "PASS" if pt is None else f"{GTP_COLUMNS[pt[1]]}{pt[0] + 1}"


def as_pt(x):
    """Normalise a kernel answer (tuple of numpy ints, ...) to (int, int)/None."""
    return None if x is None else (int(x[0]), int(x[1]))


def describe(moves):
    return " ".join(f"{'BW'[c - 1]}{gtp(pt)}" for pt, c in moves)


def reference_legal(ref):
    """{color: set of legal points} on the reference board."""
    return {c: set(ref.legal_moves(c)) for c in (BLACK, WHITE)}


def differences(p, ref, legality=True):
    """Everything observable in which the kernel differs from the reference.

    legality: False, True, or a precomputed reference_legal(ref)."""
    diffs = []
    points = ref.points()
    for pt in points:
        if p.color_at(pt) != ref.color(pt):
            diffs.append(f"colour at {pt}: kernel {p.color_at(pt)}, ref {ref.color(pt)}")
    if as_pt(p.ko) != ref.ko:
        diffs.append(f"ko: kernel {p.ko}, ref {ref.ko}")
    for c in (BLACK, WHITE):
        if p.captures(c) != ref.captures[c]:
            diffs.append(f"captures({c}): kernel {p.captures(c)}, ref {ref.captures[c]}")
    if legality:
        if legality is True:
            legality = reference_legal(ref)
        for c in (BLACK, WHITE):
            ref_legal = legality[c]
            kern_legal = {pt for pt in points if p.is_legal(pt, c)}
            for pt in sorted(kern_legal - ref_legal):
                diffs.append(f"is_legal({pt}, {c}): kernel True, ref False")
            for pt in sorted(ref_legal - kern_legal):
                diffs.append(f"is_legal({pt}, {c}): kernel False, ref True")
            if not p.is_legal(None, c):
                diffs.append(f"is_legal(None, {c}): kernel False")
    done = set()
    for pt in sorted(ref.stones()):
        if pt in done:
            continue
        stones = sorted(ref.string(pt))
        libs = sorted(ref.liberties(pt))
        done.update(stones)
        for q in stones:
            if [as_pt(x) for x in p.string_stones(q)] != stones:
                diffs.append(f"string_stones({q}): kernel {p.string_stones(q)}, ref {stones}")
            if [as_pt(x) for x in p.findlib(q)] != libs:
                diffs.append(f"findlib({q}): kernel {p.findlib(q)}, ref {libs}")
            if p.countlib(q) != len(libs):
                diffs.append(f"countlib({q}): kernel {p.countlib(q)}, ref {len(libs)}")
    if p.hash != p.recompute_hash():
        diffs.append(f"hash {p.hash} != recompute_hash() {p.recompute_hash()}")
    return diffs


def assert_same(p, ref, context="", legality=True):
    diffs = differences(p, ref, legality)
    assert not diffs, (
        f"{context}\nreference (* = ko point):\n{ref.diagram()}\n"
        f"kernel:\n{p.diagram()}\n" + "\n".join(diffs[:30]))


def assert_hash_ok(p, context=""):
    w = p.hash
    assert len(w) == 2 and all(isinstance(x, int) and 0 <= x < 2 ** 64 for x in w), w
    assert w == p.recompute_hash(), f"{context}: hash {w} != recompute {p.recompute_hash()}"


def quiet_order(size, seq):
    """Reorder seq (a list of (pt, color)) so that every move is legal and
    captures nothing, preferring seq's order; None if no such order is found."""
    board = RefBoard(size)
    pending, out = list(seq), []
    while pending:
        for i, (pt, c) in enumerate(pending):
            trial = board.copy()
            try:
                if trial.play(pt, c):
                    continue          # it would capture
            except IllegalMove:
                continue
            board = trial
            out.append(pending.pop(i))
            break
        else:
            return None
    return out


class Boards:
    """A kernel Position and a RefBoard set up from the same diagram."""

    def __init__(self, diagram, reverse=False, check=True):
        rows = [line.split() for line in diagram.strip("\n").splitlines() if line.strip()]
        size = len(rows)
        assert all(len(r) == size for r in rows), "diagram must be square"
        self.size = size
        self.names = {}
        stones = []
        for i, row in enumerate(rows):
            r = size - 1 - i
            for c, ch in enumerate(row):
                if ch == "X":
                    stones.append(((r, c), BLACK))
                elif ch == "O":
                    stones.append(((r, c), WHITE))
                elif ch != ".":
                    assert ch.islower() and ch not in "ox", f"bad diagram char {ch!r}"
                    self.names[ch] = (r, c)
        if reverse:
            stones.reverse()
        order = quiet_order(size, stones)
        assert order is not None, "diagram cannot be set up without captures"
        self.setup_moves = order
        self.p = Position(size)
        self.ref = RefBoard(size)
        for pt, c in order:
            assert not self.ref.play(pt, c)
            self.p.play(pt, c)
        if check:
            self.check("after setup")

    def pt(self, where):
        return self.names[where] if isinstance(where, str) else where

    def play(self, where, color):
        """Play on both boards (both must agree it is legal); return captures."""
        pt = self.pt(where)
        captured = self.ref.play(pt, color)
        self.p.play(pt, color)
        self.check(f"after {'BW'[color - 1]} {pt}")
        return captured

    def refuse(self, where, color):
        """Both boards must refuse the move; the kernel must not change."""
        pt = self.pt(where)
        assert not self.ref.is_legal(pt, color), "diagram error: ref allows it"
        assert not self.p.is_legal(pt, color), f"kernel allows {pt} for {color}"
        before = self.p.snapshot()
        with pytest.raises(IllegalMoveError):
            self.p.play(pt, color)
        assert self.p.snapshot() == before, "failed play changed the kernel"
        assert not self.p.trymove(pt, color)
        assert self.p.snapshot() == before, "failed trymove changed the kernel"
        assert self.p.stackp == 0

    def check(self, context=""):
        assert_same(self.p, self.ref, context)


# ----------------------------------------------------------- strategies
twice_flag = st.integers(0, 15).map(lambda i: i == 15)   # shrinks to "alternate"


@st.composite
def games(draw, sizes=st.integers(2, 19), max_moves=MAX_MOVES):
    """(size, [(pt or None, color), ...]): legal moves and passes, colours
    alternating except for an occasional same-colour-twice move."""
    size = draw(sizes)
    n = draw(st.integers(0, max_moves))
    ref = RefBoard(size)
    moves, last = [], WHITE
    for _ in range(n):
        color = last if draw(twice_flag) else other(last)
        legal = ref.legal_moves(color)
        i = draw(st.integers(0, len(legal)))        # len(legal) means pass
        pt = legal[i] if i < len(legal) else None
        ref.play(pt, color)
        moves.append((pt, color))
        last = color
    return size, moves


small_first = st.one_of(st.integers(2, 6), st.integers(2, 19))


def replay(size, moves):
    p, ref = Position(size), RefBoard(size)
    for pt, c in moves:
        ref.play(pt, c)
        p.play(pt, c)
    return p, ref


# ------------------------------------------------------ property tests
def run_game_against_reference(size, moves):
    p, ref = Position(size), RefBoard(size)
    assert p.size == size
    assert_same(p, ref, "empty board")
    seen = {}                       # (stones, ko) -> hash words
    for k, (pt, c) in enumerate(moves):
        context = f"move {k + 1}: {'BW'[c - 1]} {gtp(pt)} {pt}"
        ref.play(pt, c)
        p.play(pt, c)
        legal = reference_legal(ref)
        assert_same(p, ref, context, legality=legal)
        # Illegal moves are refused and change nothing.
        before = p.snapshot()
        stones = ref.stones()
        for color in (BLACK, WHITE):
            bad = [q for q in ref.points() if q not in stones and q not in legal[color]]
            if stones:
                bad.append(min(stones))          # an occupied point
            for q in bad:
                with pytest.raises(IllegalMoveError):
                    p.play(q, color)
                assert p.snapshot() == before, f"{context}: refused {q} changed the kernel"
        # Same stones and ko point <=> same words.
        key = (frozenset(stones.items()), ref.ko)
        seen.setdefault(key, p.hash)
        assert seen[key] == p.hash, f"{context}: same position, different words"
    words = {}
    for key, w in seen.items():
        assert w not in words, f"two positions share the words {w}"
        words[w] = key


@PROPERTY
@given(games(sizes=small_first))
def test_random_games_match_reference(game):
    run_game_against_reference(*game)


@BRIEF
@given(games(sizes=st.integers(20, 25), max_moves=40))
def test_random_games_match_reference_large_boards(game):
    run_game_against_reference(*game)


@st.composite
def games_with_tries(draw, sizes=small_first, max_moves=150):
    size, moves = draw(games(sizes=sizes, max_moves=max_moves))
    ref = RefBoard(size)
    for pt, c in moves:
        ref.play(pt, c)
    depth = draw(st.integers(1, 30))
    tries, last = [], moves[-1][1] if moves else WHITE
    while len([t for t in tries if t[2]]) < depth:
        color = last if draw(twice_flag) else other(last)
        legal = ref.legal_moves(color)
        illegal = [q for q in ref.points() if q not in legal]
        if illegal and draw(st.integers(0, 7)) == 7:
            tries.append((illegal[draw(st.integers(0, len(illegal) - 1))], color, False))
            continue
        i = draw(st.integers(0, len(legal)))
        pt = legal[i] if i < len(legal) else None
        ref.play(pt, color)
        tries.append((pt, color, True))
        last = color
    return size, moves, tries


@PROPERTY
@given(games_with_tries())
def test_trymove_popgo_restores_exactly(case):
    size, moves, tries = case
    p, ref = replay(size, moves)
    saved = [(p.snapshot(), p.hash, ref.copy())]
    for pt, c, legal in tries:
        before = p.snapshot()
        ok = p.trymove(pt, c)
        assert ok == legal, f"trymove({pt}, {c}) returned {ok}"
        if not ok:
            assert p.snapshot() == before, f"illegal trymove({pt}, {c}) changed the kernel"
            continue
        ref.play(pt, c)
        assert p.stackp == len(saved)
        assert_same(p, ref, f"after trymove {pt} {c} at depth {p.stackp}",
                    legality=size <= 9)
        saved.append((p.snapshot(), p.hash, ref.copy()))
    saved.pop()
    while saved:
        snap, words, r = saved.pop()
        p.popgo()
        assert p.stackp == len(saved)
        assert p.hash == words, f"popgo to depth {p.stackp}: words differ"
        assert p.snapshot() == snap, f"popgo to depth {p.stackp}: state differs"
        assert_same(p, r, f"after popgo to depth {p.stackp}", legality=False)


@PROPERTY
@given(games(sizes=small_first, max_moves=150))
def test_undo_takes_back_plays(game):
    size, moves = game
    p, ref = Position(size), RefBoard(size)
    p.check_hashing = True
    states = [ref.copy()]
    for pt, c in moves:
        ref.play(pt, c)
        p.play(pt, c)
        states.append(ref.copy())
    states.pop()
    while states:
        p.undo()
        assert_same(p, states.pop(), f"after undo back to move {len(states)}",
                    legality=size <= 7)
    with pytest.raises(Exception) as e:
        p.undo()
    assert e.type.__name__ == "CannotUndoError" or issubclass(e.type, IndexError)


@st.composite
def transposed_games(draw):
    """A sequence of non-capturing moves, and a different order of the same
    moves (with passes sprinkled in) that also captures nothing."""
    size = draw(st.integers(2, 13))
    n = draw(st.integers(1, 60))
    ref, moves, color = RefBoard(size), [], BLACK
    for _ in range(n):
        if draw(twice_flag):
            color = other(color)
        quiet = [pt for pt in ref.legal_moves(color) if not ref.copy().play(pt, color)]
        if not quiet:
            break
        pt = quiet[draw(st.integers(0, len(quiet) - 1))]
        ref.play(pt, color)
        moves.append((pt, color))
        color = other(color)
    order = quiet_order(size, draw(st.permutations(moves)))
    assume(order is not None)
    for i in draw(st.lists(st.integers(0, len(order)), max_size=6)):
        order.insert(i, (None, draw(st.sampled_from([BLACK, WHITE]))))
    return size, moves, order


@PROPERTY
@given(transposed_games())
def test_move_order_does_not_change_words(case):
    size, moves, order = case
    p1, r1 = replay(size, moves)
    p2, r2 = replay(size, order)
    assert r1.stones() == r2.stones() and r1.ko is None and r2.ko is None
    assert_hash_ok(p1, "first order")
    assert_hash_ok(p2, "second order")
    assert p1.hash == p2.hash, f"{describe(moves)}\nvs\n{describe(order)}"


# --------------------------------------------------- diagram: ko tests
# Black 'a' = (2, 2) takes the white stone at (2, 1) and is left with that
# single liberty: a ko, with the ko point at (2, 1).
KO4 = """
    . X O .
    X O a O
    . X O .
    . . . .
"""
KO4_TAKEN = """
    . X O .
    X . X O
    . X O .
    . . . .
"""


def test_simple_ko_capture_and_forbidden_retake():
    g = Boards(KO4)
    assert g.play("a", BLACK) == {(2, 1)}
    assert as_pt(g.p.ko) == (2, 1)
    g.refuse((2, 1), WHITE)                 # the retake
    assert g.p.captures(WHITE) == 1 and g.p.captures(BLACK) == 0


def test_ko_retake_legal_after_intervening_moves():
    g = Boards(KO4)
    g.play("a", BLACK)
    g.play((0, 0), WHITE)                   # ko threat
    g.play((0, 3), BLACK)                   # answer
    assert g.p.ko is None
    assert g.play((2, 1), WHITE) == {(2, 2)}
    assert as_pt(g.p.ko) == (2, 2)          # the retake is a ko capture too
    g.refuse((2, 2), BLACK)


def test_pass_clears_ko_and_same_colour_may_retake():
    g = Boards(KO4)
    g.play("a", BLACK)
    g.play(None, WHITE)
    assert g.p.ko is None
    g.play(None, BLACK)
    assert g.play((2, 1), WHITE) == {(2, 2)}


def test_ko_point_only_forbids_a_capturing_move():
    g = Boards(KO4)
    g.play("a", BLACK)
    # Black may fill the ko point (it captures nothing) even right away.
    assert g.p.is_legal((2, 1), BLACK)
    g.play((2, 1), BLACK)
    assert g.p.ko is None


def test_same_colour_moving_again_clears_ko():
    g = Boards(KO4)
    g.play("a", BLACK)
    g.play((0, 0), BLACK)                   # black moves twice
    assert g.p.ko is None
    assert g.play((2, 1), WHITE) == {(2, 2)}


def test_corner_ko_on_3x3():
    g = Boards("""
        O a O
        X O .
        . . .
    """)
    assert g.play("a", BLACK) == {(2, 0)}
    assert as_pt(g.p.ko) == (2, 0)
    g.refuse((2, 0), WHITE)


# Two kos: black 'a' = (5, 2) takes (5, 1); black 'b' = (1, 5) takes (1, 4).
DOUBLE_KO = """
    . X O . . . .
    X O a O . . .
    . X O . . . .
    . . . . . . .
    . . . . X O .
    . . . X O b O
    . . . . X O .
"""


def test_double_ko_and_ko_replaced_by_another():
    g = Boards(DOUBLE_KO)
    words = {g.p.hash}
    g.play("a", BLACK)
    assert as_pt(g.p.ko) == (5, 1)
    g.refuse((5, 1), WHITE)
    g.play((3, 3), WHITE)                   # threat
    words.add(g.p.hash)
    g.play("b", BLACK)                      # second ko capture replaces the ko
    assert as_pt(g.p.ko) == (1, 4)
    words.add(g.p.hash)
    g.play((5, 1), WHITE)                   # first ko no longer forbidden
    assert as_pt(g.p.ko) == (5, 2)
    words.add(g.p.hash)
    g.refuse((5, 2), BLACK)
    g.play(None, BLACK)
    words.add(g.p.hash)
    g.play((1, 4), WHITE)                   # retake the second ko
    assert as_pt(g.p.ko) == (1, 5)
    words.add(g.p.hash)
    g.play((5, 2), BLACK)                   # and retake the first one
    assert as_pt(g.p.ko) == (5, 1)
    words.add(g.p.hash)
    assert len(words) == 7


def test_same_stones_with_and_without_ko_have_different_words():
    g = Boards(KO4)
    g.play("a", BLACK)
    with_ko = g.p.hash
    no_ko = Boards(KO4_TAKEN)               # same stones, set up quietly
    assert no_ko.p.ko is None
    assert g.ref.stones() == no_ko.ref.stones()
    assert with_ko[0] != no_ko.p.hash[0] and with_ko[1] != no_ko.p.hash[1], \
        "the ko point must enter both words"
    g.play(None, WHITE)                     # the pass clears the ko ...
    assert g.p.hash == no_ko.p.hash         # ... and gives the quiet words
    g.p.undo()                              # taking the pass back restores it
    assert as_pt(g.p.ko) == (2, 1)
    assert g.p.hash == with_ko
    assert_hash_ok(g.p)


def test_ko_position_reached_by_different_setup_orders():
    g1, g2 = Boards(KO4), Boards(KO4, reverse=True)
    assert g1.setup_moves != g2.setup_moves
    g1.play("a", BLACK)
    g2.play(None, WHITE)
    g2.play("a", BLACK)
    assert as_pt(g1.p.ko) == as_pt(g2.p.ko) == (2, 1)
    assert g1.p.hash == g2.p.hash


def test_trymove_into_ko_and_back():
    g = Boards(KO4)
    before = g.p.snapshot()
    assert g.p.trymove(g.pt("a"), BLACK)
    assert as_pt(g.p.ko) == (2, 1)
    assert not g.p.trymove((2, 1), WHITE)   # forbidden retake inside reading
    assert g.p.trymove((0, 0), WHITE)
    assert g.p.trymove((0, 3), BLACK)
    assert g.p.trymove((2, 1), WHITE)       # allowed now
    assert as_pt(g.p.ko) == (2, 2)
    assert_hash_ok(g.p)
    for _ in range(4):
        g.p.popgo()
    assert g.p.stackp == 0 and g.p.ko is None
    assert g.p.snapshot() == before


# ------------------------------------------- diagram: captures, suicide
def test_single_stone_suicide_refused():
    g = Boards("""
        a O .
        O . .
        . . .
    """)
    g.refuse("a", BLACK)
    assert g.p.is_legal(g.pt("a"), WHITE)


def test_multi_stone_suicide_refused():
    g = Boards("""
        X X O .
        a O . .
        O . . .
        . . . .
    """)
    g.refuse("a", BLACK)


def test_capture_that_saves_a_self_atari_is_legal():
    g = Boards("""
        a O X .
        O X . .
        X . . .
        . . . .
    """)
    assert g.play("a", BLACK) == {(3, 1), (2, 0)}
    assert g.p.ko is None                   # two stones taken: no ko
    assert g.p.countlib(g.pt("a")) == 2


def test_snapback():
    g = Boards("""
        . . . .
        X X X X
        O O O X
        a b O X
    """)
    g.play("b", BLACK)                      # throw-in
    assert g.play("a", WHITE) == {(0, 1)}
    assert g.p.ko is None                   # capturing stone joined a string
    assert g.play("b", BLACK) == {(0, 0), (1, 0), (1, 1), (1, 2), (0, 2)}
    assert g.p.captures(WHITE) == 5 and g.p.captures(BLACK) == 1


def test_corner_and_edge_captures():
    g = Boards("""
        O a . b .
        X . X O X
        . . . c .
        . . . . .
        . . . . .
    """)
    assert g.play("a", BLACK) == {(4, 0)}   # corner
    assert g.p.ko is None
    g.play("b", BLACK)
    assert g.play("c", BLACK) == {(3, 3)}   # edge-adjacent stone
    assert g.p.captures(WHITE) == 2


def test_edge_capture_on_first_line():
    g = Boards("""
        . . . . .
        . . . . .
        . . . . .
        . . a . .
        . X O X .
    """)
    assert g.play("a", BLACK) == {(0, 2)}
    assert g.p.ko is None


def test_captures_in_different_orders_give_equal_words():
    diagram = """
        . . . . .
        . . . . .
        . . . . .
        a . . . b
        O X . X O
    """
    g1, g2, g3 = Boards(diagram), Boards(diagram), Boards(diagram)
    g1.play("a", BLACK)
    g1.play("b", BLACK)
    g2.play("b", BLACK)
    g2.play(None, WHITE)
    g2.play("a", BLACK)
    g3.play("a", BLACK)
    g3.play((4, 2), WHITE)
    g3.play("b", BLACK)
    g3.p.undo()
    g3.p.undo()
    g3.ref = g1.ref.copy()
    g3.ref.play(None, BLACK)
    g3.ref.captures = [0, 0, 1]
    assert g1.p.hash == g2.p.hash
    assert g1.p.captures(WHITE) == g2.p.captures(WHITE) == 2
    quiet = Boards("""
        . . . . .
        . . . . .
        . . . . .
        X . . . X
        . X . X .
    """)
    assert quiet.p.hash == g1.p.hash        # no captures at all, same stones


def test_2x2_board():
    g = Boards("""
        . .
        O X
    """)
    assert g.play((1, 0), BLACK) == {(0, 0)}
    assert g.p.ko is None                   # capturing stone has 2 liberties
    g.refuse((0, 0), WHITE)                 # suicide
    g.refuse((1, 1), WHITE)                 # suicide
    g.play((0, 0), BLACK)
    g.refuse((1, 1), BLACK)                 # filling the last point: suicide
    assert g.p.is_legal(None, WHITE)


def test_2x2_capture_two_stones():
    g = Boards("""
        . O
        X .
    """)
    g.play((0, 1), BLACK)
    assert g.play((1, 0), WHITE) == {(0, 0), (0, 1)}
    assert g.p.ko is None
    assert g.p.captures(BLACK) == 2


def test_3x3_capture_in_the_middle():
    g = Boards("""
        . X .
        X O X
        . a .
    """)
    assert g.play("a", BLACK) == {(1, 1)}
    assert g.p.ko is None
    g.refuse((1, 1), WHITE)                 # suicide, not ko: no capture


# ------------------------------------------------------- check_hashing
def test_check_hashing_catches_a_corrupted_word_on_play():
    g = Boards(KO4)
    g.p.check_hashing = True
    g.play((0, 0), WHITE)                   # fine while the words are right
    g.p.hw[0] ^= 1
    with pytest.raises(HashMismatchError) as e:
        g.p.play((0, 3), BLACK)
    msg = str(e.value)
    assert "D1" in msg or "(0, 3)" in msg, f"message does not name the move: {msg}"


def test_check_hashing_catches_a_corrupted_word_on_trymove():
    g = Boards(KO4)
    g.p.check_hashing = True
    g.p.hw[1] ^= 1 << 63
    with pytest.raises(HashMismatchError) as e:
        g.p.trymove(g.pt("a"), BLACK)
    msg = str(e.value)
    assert "C3" in msg or "(2, 2)" in msg, f"message does not name the move: {msg}"


@BRIEF
@given(games_with_tries(max_moves=100))
def test_check_hashing_silent_when_words_are_right(case):
    size, moves, tries = case
    p = Position(size)
    p.check_hashing = True
    for pt, c in moves:
        p.play(pt, c)
    for pt, c, legal in tries:
        assert p.trymove(pt, c) == legal
    while p.stackp:
        p.popgo()
    for _ in moves:
        p.undo()
    assert p.hash == Position(size).hash


def test_diagram_is_text():
    g = Boards(KO4)
    d = g.p.diagram()
    assert isinstance(d, str) and d.count("\n") >= g.size - 1


@BRIEF
@given(games(sizes=st.integers(2, 7), max_moves=60))
def test_reference_legal_moves_shortcut_agrees_with_trial_play(game):
    size, moves = game
    ref = RefBoard(size)
    for pt, c in moves:
        ref.play(pt, c)
        for color in (BLACK, WHITE):
            assert ref.legal_moves(color) == [q for q in ref.points() if ref.is_legal(q, color)]


@PROPERTY
@given(games(sizes=small_first, max_moves=150))
def test_libs_after_counts_what_a_move_would_leave(game):
    """``libs_after`` (no move played) equals the liberties the reference
    board gives the mover's string after the move, capped at MAXLIBS; a
    suicide counts 0.  Ko retakes count as if allowed."""
    from gogame.kernel.board import EMPTY, libs_after
    from gogame.kernel.layout import MAXLIBS
    size, moves = game
    p, ref = replay(size, moves)
    for pt in ref.points():
        if ref.color(pt) != EMPTY:
            continue
        for c in (BLACK, WHITE):
            trial = ref.copy()
            trial.ko = None
            try:
                trial.play(pt, c)
                want = min(len(trial.liberties(pt)), MAXLIBS)
            except IllegalMove:
                want = 0
            got = libs_after(p.s, p.pos(pt), c, MAXLIBS)
            assert got == want, f"{gtp(pt)} for {c} after {describe(moves)}"


def _assert_capture_wins_agrees(p, ref, context):
    """Every string in atari on ``p``: the reader's shortcut (no move
    played) against playing the capture and scoring it."""
    from gogame.kernel import reading as kr
    from gogame.kernel.board import EMPTY
    from gogame.kernel.layout import H_CAPT
    for pt in ref.points():
        c = ref.color(pt)
        if c == EMPTY or len(ref.liberties(pt)) != 1:
            continue
        (lib,) = ref.liberties(pt)
        attacker = 3 - c
        want = False
        lost = p.s[H_CAPT + c]
        if p.trymove(lib, attacker):
            taken = p.s[H_CAPT + c] - lost
            want = kr._capture_code(p.s, p.pos(lib), EMPTY, c, taken) == kr.WIN
            p.popgo()
        got = kr._capture_wins(p.s, p.pos(lib), attacker)
        assert got == want, f"capture at {gtp(lib)} by {attacker} {context}"


# Black's capture at a joins J1 and leaves two stones with one liberty: it
# takes two stones (a capture); at b, joining A2-B2, it takes one (a
# snapback).
CAPTURES_INTO_ATARI = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    O O . . . . . . .
    X X O . X X X O O
    O b O . X O O a X
"""


def test_capture_wins_in_captures_into_atari():
    g = Boards(CAPTURES_INTO_ATARI)
    _assert_capture_wins_agrees(g.p, g.ref, "in CAPTURES_INTO_ATARI")


@PROPERTY
@given(games(sizes=small_first, max_moves=150))
def test_capture_wins_agrees_with_playing_the_capture(game):
    """The reader's one-liberty shortcut decides, without playing, whether
    capturing a string in atari scores WIN (legal, no snapback, no ko); it
    must agree with playing the capture and scoring it (``_capture_code``
    with no komaster)."""
    size, moves = game
    p, ref = replay(size, moves)
    _assert_capture_wins_agrees(p, ref, f"after {describe(moves)}")


def _assert_safe_moves_are_safe(size, moves):
    """The reader's shortcut below the root (``_safe_extension``, then
    ``_safe_capture``): a move it names is legal and, played, leaves the
    owner's string at least ``_safe_libs`` liberties (trivially safe one ply
    down)."""
    import numpy as np
    from gogame.kernel import board as kb
    from gogame.kernel import reading as kr
    from gogame.kernel.layout import COLOR, NLIB, ORIGIN, PASS
    p, ref = replay(size, moves)
    ctx, mv = kr.new_context()[:2]
    nbr = np.zeros(24, np.int32)
    safe = kr._safe_libs(ctx, 1)
    for pt in ref.points():
        o = p.s[ORIGIN + p.pos(pt)]
        if p.s[COLOR + p.pos(pt)] not in (BLACK, WHITE) or o != p.pos(pt):
            continue
        owner = p.s[COLOR + o]
        k = kb.neighbour_strings(p.s, o, 3 - owner, nbr)
        kr._forget_counts(mv, 0)
        m = kr._safe_extension(p.s, mv, 0, o, safe)
        if m == PASS:
            m = kr._safe_capture(p.s, nbr, k, o, owner, safe)
        if m == PASS:
            continue
        move = next(q for q in ref.points() if p.pos(q) == m)
        assert p.trymove(move, owner), f"{gtp(move)} illegal after {describe(moves)}"
        assert p.s[NLIB + p.s[ORIGIN + o]] >= safe, f"{gtp(move)} after {describe(moves)}"
        p.popgo()


@PROPERTY
@given(games(sizes=small_first, max_moves=150))
def test_safe_move_leaves_the_string_trivially_safe(game):
    _assert_safe_moves_are_safe(*game)


# Black's C1 string ends with nine liberties, more than its list keeps: the
# listed B1, taken by White's last move, is no liberty any more.
STALE_LIBERTY_LIST = ("BD3 WD4 BC2 WF4 BC1 WA1 BC6 WB1 BB5 WF3 BD1 WE5 BE1 WA5 BF2 WA2 "
                      "BD6 WB2 BA4 BC3 WD2 WB4 BE3 WA6 BC4 WA3 BF1 WB3 BC5 WA4 BE2 BB6 WB1")


def test_safe_move_with_a_liberty_list_that_is_not_exact():
    from gogame.coords import parse_gtp
    moves = [(parse_gtp(m[1:], 6), BLACK if m[0] == "B" else WHITE)
             for m in STALE_LIBERTY_LIST.split()]
    _assert_safe_moves_are_safe(6, moves)
