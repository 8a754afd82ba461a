"""The reading cache: exact reuse, statistics, byte budget, schemes, torn entries.

The central property: the cache changes node counts and time, never an
answer.  Reading answers (code and move) must be identical with the cache
off, ``double`` and ``full``, at every budget (tiny ones force replacement),
with either replacement policy, and with ``hash_bits`` so small that tags
collide all the time.  ``single`` (no verification) is the control: with few
hash bits its undetected collisions change answers.

Questions: every string with at most 3 liberties, attacked and defended, at
moves 40, 80 and 120 of the repo's games in sgf/ (those the uncached reader
answers within a node limit), and the attack/defend questions of GNU Go's
reading.tst (../shared, skipped when absent).
"""
import functools

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from conftest import project_games, shared_path
from gogame.cache import ReadingCache, parse_budget
from gogame.kernel import cache as kc
from gogame.kernel import reading as kr
from gogame.kernel.layout import BLACK, WHITE
from gogame.position import Position
from gogame.reading import Reader
from gogame.sgfio import load_game

NODE_LIMIT = 20000          # questions the uncached reader answers within this
BUDGETS_MB = (0.001, 0.01, 0.1, 1.0, 16.0)
SIZES = (9, 13, 19)


# ---------------------------------------------------------------- positions
def from_diagram(text, ko=None):
    """A Position from an ASCII diagram: X black, O white, . empty, one row a
    line, top row first (GNU Go's showboard without coordinates)."""
    rows = [line.split() for line in text.strip().splitlines()]
    size = len(rows)
    assert all(len(r) == size for r in rows), "diagram must be square"
    p = Position(size)
    stones = {}
    for i, row in enumerate(rows):
        for col, mark in enumerate(row):
            if mark in "XO":
                stones[(size - 1 - i, col)] = BLACK if mark == "X" else WHITE
    p.setup(stones)
    if ko is not None:
        p.set_ko(ko)
    return p


@functools.lru_cache(maxsize=None)
def _game(path):
    return load_game(str(path))


def position_at(path, until=None):
    """The game at ``path`` before move number ``until`` (int), before the
    move at vertex ``until`` (GTP string), or at its end (None)."""
    g = _game(path)
    p = Position(g.size)
    for ev in g.events:
        if ev[0] == "setup":
            p.setup(ev[1])
        elif ev[0] == "ko":
            p.set_ko(ev[1])
        else:
            _, pt, color, number = ev
            if isinstance(until, int) and number >= until:
                break
            if isinstance(until, str) and pt is not None and p.pos(until) == p.pos(pt):
                break
            if pt is not None:
                p.play(pt, color)
    return p


def weak_strings(p, maxlibs=3):
    """One stone of every string with at most ``maxlibs`` liberties."""
    seen, out = set(), []
    for pt in sorted(p.stones()):
        if pt not in seen:
            seen.update(p.string_stones(pt))
            if p.countlib(pt) <= maxlibs:
                out.append(pt)
    return out


# ------------------------------------------------------- question scripts
# A script is a list of steps run in order on one Reader:
#   ("load", path, until) | ("trymove"|"tryko", color, vertex) | ("popgo",)
#   | ("play", color, vertex) | ("depth", delta) | ("ask", key, kind, vertex)
# Running it gives {key: (code, move)} for the "ask" steps.

def run_script(script, reader):
    answers = {}
    pos = None
    for step in script:
        op = step[0]
        if op == "load":
            pos = position_at(step[1], step[2])
        elif op == "trymove":
            assert pos.trymove(step[2], step[1])
        elif op == "tryko":
            assert pos.tryko(step[2], step[1])
        elif op == "popgo":
            pos.popgo()
        elif op == "play":
            pos.play(step[2], step[1])
        elif op == "depth":
            reader.depth_offset += step[1]
        else:
            _, key, kind, vertex = step
            if reader.node_limit:
                reader.nodes = 0      # the node limit counts from here
            answers[key] = getattr(reader, kind)(pos, vertex)
            if reader.node_limit and reader.aborted:
                answers[key] = None
    return answers


def drop_aborted(script, answers):
    return [s for s in script if s[0] != "ask" or answers[s[1]] is not None]


def sgf_script(games=None, moves=(40, 80, 120)):
    script = []
    for path in games or project_games():
        for move in moves:
            script.append(("load", path, move))
            p = position_at(path, move)
            for pt in weak_strings(p):
                for kind in ("attack", "find_defense"):
                    script.append(("ask", (path.name, move, pt, kind), kind, pt))
    return script


def tst_script(path):
    """The attack/defend questions of a GNU Go .tst file, with its set-up."""
    base = path.parent
    script = []
    for line in path.read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        parts = line.split()
        if parts[0].isdigit():
            if parts[1] in ("attack", "defend"):
                kind = "attack" if parts[1] == "attack" else "find_defense"
                script.append(("ask", int(parts[0]), kind, parts[2]))
        elif parts[0] == "loadsgf":
            script.append(("load", base / parts[1], _until(parts[2]) if len(parts) > 2 else None))
        elif parts[0] in ("trymove", "tryko", "play"):
            script.append((parts[0], parts[1], parts[2]))
        elif parts[0] == "popgo":
            script.append(("popgo",))
        elif parts[0] in ("increase_depths", "decrease_depths"):
            script.append(("depth", 1 if parts[0][0] == "i" else -1))
    return script


def _until(arg):
    return int(arg) if arg.isdigit() else arg


def answered(script, **cache_args):
    """(answers, reader) for ``script`` with a fresh Reader and cache;
    ``reader.nodes`` is the total over the script."""
    reader = Reader(cache=ReadingCache(**cache_args))
    return run_script(script, reader), reader


@pytest.fixture(scope="module")
def sgf_questions():
    """(script, uncached answers) over the repo's games."""
    script = sgf_script()
    base = run_script(script, Reader(node_limit=NODE_LIMIT))
    script = drop_aborted(script, base)
    return script, {k: v for k, v in base.items() if v is not None}


@pytest.fixture(scope="module")
def tst_questions():
    path = shared_path("regress", "gnugo", "reading.tst")
    script = tst_script(path)
    base = run_script(script, Reader(node_limit=NODE_LIMIT))
    script = drop_aborted(script, base)
    return script, {k: v for k, v in base.items() if v is not None}


def differences(answers, base):
    return {k: (base[k], answers[k]) for k in base if answers[k] != base[k]}


def check_stats(reader):
    """The counters add up; every miss is a node searched and stored."""
    st_ = reader.cache_stats()
    assert st_["hits"] + st_["misses"] == st_["probes"]
    assert 0 <= st_["hits"] <= st_["probes"]
    assert st_["misses"] == reader.nodes, "a probe that misses must count one node"
    assert st_["stores"] == reader.nodes, "every node searched (no node limit) is stored"
    assert st_["stores"] >= st_["replacements"] >= 0
    assert 0 <= st_["collisions"] <= st_["probes"]
    assert 0 <= st_["entries_in_use"] <= st_["capacity"]
    assert st_["bytes_allocated"] == st_["capacity"] * st_["bytes_per_entry"]
    assert st_["bytes_allocated"] <= int(st_["cache_mb"] * 2**20)
    return st_


# ----------------------------------------------------- identical answers
def test_question_set_is_substantial(sgf_questions):
    script, base = sgf_questions
    assert len(base) > 500
    assert any(code for code, _ in base.values()) and any(not code for code, _ in base.values())


@pytest.mark.parametrize("scheme", ["double", "full"])
@pytest.mark.parametrize("budget", BUDGETS_MB)
def test_same_answers_any_budget(sgf_questions, scheme, budget):
    script, base = sgf_questions
    answers, reader = answered(script, budget_mb=budget, scheme=scheme)
    assert differences(answers, base) == {}
    st_ = check_stats(reader)
    assert st_["hits"] > 0 and st_["collisions"] == 0
    if budget <= 0.01:
        assert st_["replacements"] > 0, "a tiny budget must force replacement"


@pytest.mark.parametrize("scheme", ["double", "full"])
@pytest.mark.parametrize("budget", [0.001, 0.05])
def test_same_answers_way0_policy(sgf_questions, scheme, budget):
    script, base = sgf_questions
    answers, reader = answered(script, budget_mb=budget, scheme=scheme, policy="way0")
    assert differences(answers, base) == {}
    check_stats(reader)


def test_cache_saves_nodes(sgf_questions):
    script, base = sgf_questions
    off = Reader()
    run_script(script, off)
    assert off.cache_counters == (0, 0, 0, 0, 0)
    _, on = answered(script, budget_mb=16, scheme="double")
    assert on.nodes < off.nodes / 2


@pytest.mark.parametrize("scheme,budget", [("double", 0.001), ("full", 0.01), ("double", 16.0),
                                           ("full", 16.0)])
def test_same_answers_reading_tst(tst_questions, scheme, budget):
    script, base = tst_questions
    assert len(base) > 75                      # a third of reading.tst at least
    answers, reader = answered(script, budget_mb=budget, scheme=scheme)
    assert differences(answers, base) == {}
    check_stats(reader)


KO_POSITION = """
. . . . . . .
. . . . . . .
. . X O . . .
. X O . O . .
. . X O . . .
. . . . . . .
. . . . . . .
"""

LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X O . . . .
. . . X O X . . .
. . . . X . . . .
. . . . . . . . .
"""


@pytest.mark.parametrize("diagram", [KO_POSITION, LADDER], ids=["ko", "ladder"])
def test_same_answers_hand_positions(diagram):
    p = from_diagram(diagram)
    targets = weak_strings(p, 4)
    assert targets

    def ask(reader):
        return [(f(p, t)) for t in targets
                for f in (reader.attack, reader.find_defense, reader.ladder_attack)]
    base = ask(Reader())
    for scheme in ("double", "full", "single"):
        for budget in (0.001, 1.0):
            reader = Reader(cache=ReadingCache(budget, scheme, size=p.size))
            assert ask(reader) == base
            assert ask(reader) == base          # again, from a warm cache
            check_stats(reader)


def test_ko_position_reads_a_ko():
    """The hand-built ko position really is one (a capture that makes a ko)."""
    p = from_diagram(KO_POSITION)
    assert p.countlib((3, 2)) == 1             # white C4 in atari
    assert p.trymove((3, 3), BLACK) and p.ko == (3, 2)
    p.popgo()


# ---------------------------------------------- hash bits and collisions
@pytest.mark.parametrize("scheme", ["double", "full"])
@pytest.mark.parametrize("bits", [1, 8, 12])
def test_few_hash_bits_collisions_detected(sgf_questions, scheme, bits):
    script, base = sgf_questions
    answers, reader = answered(script, budget_mb=1.0, scheme=scheme, hash_bits=bits)
    st_ = check_stats(reader)
    assert st_["collisions"] > 0
    assert differences(answers, base) == {}


def test_single_scheme_undetected_collisions_change_answers(sgf_questions):
    """The control: key word 0 alone, 12 bits of it.  Hash keys come from
    fixed seeds, so this is deterministic; it changes hundreds of answers."""
    script, base = sgf_questions
    answers, reader = answered(script, budget_mb=1.0, scheme="single", hash_bits=12)
    st_ = reader.cache_stats()
    assert st_["collisions"] == 0              # nothing to detect them with
    assert len(differences(answers, base)) > 0


def test_single_scheme_full_bits_is_exact(sgf_questions):
    script, base = sgf_questions
    answers, _ = answered(script, budget_mb=1.0, scheme="single")
    assert differences(answers, base) == {}


# ----------------------------------------------------------- byte budget
@settings(max_examples=200, deadline=None)
@given(budget=st.integers(0, 1 << 22), scheme=st.sampled_from(sorted(kc.SCHEMES.values())),
       size=st.sampled_from(SIZES))
def test_budget_bytes_never_exceeded(budget, scheme, size):
    table, meta = kc.new_cache(budget, scheme, size)
    bpe = 8 * kc.words_per_entry(scheme, size)
    assert table.nbytes <= budget
    assert table.nbytes == meta[kc.M_CAPACITY] * bpe
    assert meta[kc.M_CAPACITY] % 2 == 0
    assert budget // bpe - 1 <= meta[kc.M_CAPACITY] <= budget // bpe


@settings(max_examples=100, deadline=None)
@given(mb=st.floats(0, 64), scheme=st.sampled_from(["double", "full", "single"]),
       size=st.sampled_from(SIZES))
def test_budget_mb_never_exceeded(mb, scheme, size):
    c = ReadingCache(mb, scheme, size=size)
    assert c.bytes_allocated <= mb * 2**20
    assert c.capacity * c.bytes_per_entry == c.bytes_allocated
    assert c.capacity >= int(mb * 2**20) // c.bytes_per_entry - 1
    c.for_size(9 if size != 9 else 19)
    assert c.bytes_allocated <= mb * 2**20


def test_entry_sizes():
    for size in SIZES:
        assert ReadingCache(1, "double", size=size).bytes_per_entry == 24
        assert ReadingCache(1, "single", size=size).bytes_per_entry == 16
    assert [ReadingCache(1, "full", size=n).bytes_per_entry for n in SIZES] == [56, 80, 128]
    # the goal: double holds >= 4.5x the entries of full per MB at 19x19
    assert ReadingCache(1, "double").capacity >= 4.5 * ReadingCache(1, "full").capacity


def test_zero_and_tiny_budgets_disable():
    p = from_diagram(LADDER)
    for mb in (0, 1e-6):
        r = Reader(cache=ReadingCache(mb, "full", size=9))
        assert r.cache.capacity == 0 and r.cache.bytes_allocated == 0
        r.attack(p, (3, 4))
        assert r.cache_stats()["entries_in_use"] == 0


@pytest.mark.parametrize("bad", [-1, -0.001, float("nan"), float("inf"), 1e9, "x", None, "1e6"])
def test_bad_budget_refused(bad):
    with pytest.raises(ValueError):
        ReadingCache(bad)
    with pytest.raises(ValueError):
        parse_budget(bad)


@pytest.mark.parametrize("kwargs", [dict(scheme="triple"), dict(scheme="DOUBLE"),
                                    dict(scheme=None), dict(hash_bits=0),
                                    dict(hash_bits=65), dict(hash_bits=8.5),
                                    dict(hash_bits="x"), dict(policy="lru")])
def test_bad_scheme_or_bits_refused(kwargs):
    with pytest.raises(ValueError):
        ReadingCache(1.0, **kwargs)


def test_good_arguments_accepted():
    assert parse_budget("0.25") == 0.25
    c = ReadingCache("2", "full", hash_bits="10", size=13, policy="way0")
    assert (c.budget_mb, c.hash_bits, c.policy) == (2.0, 10, "way0")


# ------------------------------------------- kernel-level: keys, verification
def _probe(cache, p, q, hw=None):
    stats = np.zeros(5, np.int64)
    pk = np.zeros(32, np.int64)
    r = kc.probe(cache.table, cache.meta, stats, p.s, p.hw if hw is None else hw, q, pk)
    return int(r), stats


def _store(cache, p, q, result, work=10, hw=None):
    stats = np.zeros(5, np.int64)
    pk = np.zeros(32, np.int64)
    kc.store(cache.table, cache.meta, stats, p.s, p.hw if hw is None else hw, q, pk,
             result, work)
    return stats


def _entry(cache, p, q, result=None):
    """Start index of the entry holding question ``q`` (stored with
    ``result``, default RESULT)."""
    b = _bucket_of(cache, p, q) * 2
    wpe = int(cache.meta[kc.M_WPE])
    for way in range(2):
        e = (b + way) * wpe
        data = int(cache.table[e + (1 if cache.scheme == "single" else 2)])
        if data & 0xFFFFFFFF == (RESULT if result is None else result):
            return e
    raise AssertionError("entry not found")


RESULT = 5 * 4096 + 123
Q = int(kc.question_word(1, 60, 0, 0, 0, 777))


@settings(max_examples=300, deadline=None)
@given(routine=st.integers(0, 7), target=st.integers(0, 1023), komaster=st.integers(0, 3),
       kom_pos=st.integers(0, 1023), stackp=st.integers(0, 1023),
       settings_id=st.integers(0, (1 << 18) - 1))
def test_question_word_fields_do_not_overlap(routine, target, komaster, kom_pos, stackp,
                                             settings_id):
    q = int(kc.question_word(routine, target, komaster, kom_pos, stackp, settings_id))
    assert (q & 7, q >> 3 & 1023, q >> 13 & 3, q >> 15 & 1023, q >> 25 & 1023,
            q >> 35) == (routine, target, komaster, kom_pos, stackp, settings_id)
    assert 0 <= q < 1 << 53                    # room for the ko point in ``full``


def test_depth_settings_ids_distinct():
    """The reader's settings id (part of every question) must tell apart every
    depth setting that levels and increase/decrease_depths can produce."""
    seen = {}
    r = Reader()
    for level in range(1, 11):
        for offset in range(-12, 13):
            r.level, r.depth_offset = level, offset
            r._prepare(Position(9))
            sid = int(r.ctx[kr.C_SETTINGS])
            assert seen.setdefault(sid, r.depths) == r.depths
    assert len(seen) > 20


@pytest.mark.parametrize("scheme,kept", [("double", True), ("single", True), ("full", False)])
def test_size_change_keeps_entries_unless_they_hold_the_board(scheme, kept):
    """``double`` and ``single`` entries do not depend on the board size, so
    a size change keeps the table and what it holds; ``full`` re-lays it."""
    p = from_diagram(LADDER)
    c = ReadingCache(0.01, scheme, size=9)
    _store(c, p, Q, RESULT)
    table = c.table
    c.for_size(19)
    assert (c.table is table) == kept
    assert c.stats()["entries_in_use"] == (1 if kept else 0)
    assert c.bytes_allocated <= 0.01 * 2**20


def test_board_size_is_part_of_every_question():
    """The same stones on two board sizes hash alike (one stone on the same
    kernel index), so the size is in the settings id of every question."""
    a, b = Position(9), Position(19)
    a.play(a.pt(24), BLACK)                 # B2 on 9x9
    b.play(b.pt(24), BLACK)                 # C1 on 19x19
    assert (a.pt(24), b.pt(24)) == ((1, 1), (0, 2)) and a.hash == b.hash
    r = Reader()
    ids = set()
    for size in SIZES:
        r._prepare(Position(size))
        ids.add(int(r.ctx[kr.C_SETTINGS]))
    assert len(ids) == len(SIZES)


@pytest.mark.parametrize("scheme", ["double", "full", "single"])
def test_store_then_probe(scheme):
    p = from_diagram(LADDER)
    c = ReadingCache(0.01, scheme, size=9)
    assert _probe(c, p, Q)[0] == -1
    _store(c, p, Q, RESULT)
    r, stats = _probe(c, p, Q)
    assert r == RESULT and list(stats) == [1, 1, 0, 0, 0]
    assert _probe(c, p, Q + 1)[0] == -1        # another question
    assert c.stats()["entries_in_use"] == 1
    c.clear()
    assert _probe(c, p, Q)[0] == -1 and c.stats()["entries_in_use"] == 0


def _colliding_hw(p, q, q2):
    """Hash words that give question ``q2`` exactly the keys ``q`` has on
    ``p``: a full 128-bit key collision, which only ``full`` can detect."""
    hw = p.hw.copy()
    for word, salt in enumerate((kc.SALT0, kc.SALT1)):
        hw[word] ^= (kc._mix(np.uint64(q) ^ salt) ^ kc._mix(np.uint64(q2) ^ salt))
    return hw


@pytest.mark.parametrize("change", ["board", "ko", "routine", "target", "komaster",
                                    "kom_pos", "stackp", "settings"])
def test_full_verifies_board_ko_and_question(change):
    p = from_diagram(KO_POSITION)
    fields = dict(routine=1, target=p.pos((3, 2)), komaster=0, kom_pos=0, stackp=0,
                  settings=777)
    q = int(kc.question_word(*fields.values()))
    caches = {s: ReadingCache(0.01, s, size=7) for s in ("double", "full")}
    for c in caches.values():
        _store(c, p, q, RESULT)
        assert _probe(c, p, q)[0] == RESULT
    p2, q2 = p, q
    if change == "board":
        p2 = from_diagram(KO_POSITION)
        p2.setup({(0, 0): BLACK})
    elif change == "ko":
        p2 = from_diagram(KO_POSITION, ko=(3, 3))
    else:
        fields[change] += 1
        q2 = int(kc.question_word(*fields.values()))
    hw = _colliding_hw(p, q, q2) if q2 != q else p.hw.copy()
    if p2 is not p:
        hw[:2] = p.hw[:2]                      # same hash words, other position
    r, stats = _probe(caches["full"], p2, q2, hw)
    assert r == -1 and stats[4] == 1, "full must detect the collision"
    r, stats = _probe(caches["double"], p2, q2, hw)
    assert r == RESULT, "double trusts its two words (that is the experiment)"


@pytest.mark.parametrize("scheme", ["double", "full", "single"])
def test_torn_entry_reads_as_miss(scheme):
    p = from_diagram(LADDER)
    c = ReadingCache(0.01, scheme, size=9)
    _store(c, p, Q, RESULT)
    e = _entry(c, p, Q)
    wpe = int(c.meta[kc.M_WPE])
    for word in range(wpe):
        for flip in (1, 1 << 17, 1 << 40, 1 << 62, -1):
            if scheme == "full" and word == 0:
                flip |= 1                      # the sequence word: odd = being written
            saved = int(c.table[e + word])
            c.table[e + word] ^= flip
            r, stats = _probe(c, p, Q)
            assert r == -1, f"word {word} flipped by {flip:#x} must read as a miss"
            assert stats[0] == 1 and stats[1] == 0
            c.table[e + word] = saved
            assert _probe(c, p, Q)[0] == RESULT


# Write order of each layout: a concurrent reader may see any prefix.
WRITE_ORDER = {"double": [2, 0, 1], "single": [1, 0]}


@pytest.mark.parametrize("scheme", ["double", "full", "single"])
def test_half_written_entry_reads_as_miss(scheme):
    """Overwrite question A's entry with question B's, word by word in the
    order ``store`` writes them; every state before the last answers
    neither question (a concurrent reader sees a miss, never a wrong hit)."""
    p = from_diagram(LADDER)
    c = ReadingCache(0.001, scheme, size=9)          # a few buckets
    wpe = int(c.meta[kc.M_WPE])
    qa = Q
    qb = next(q for q in range(Q + 1, Q + 100000) if _bucket_of(c, p, q) == _bucket_of(c, p, qa))
    _store(c, p, qb, RESULT + 1)
    e = _entry(c, p, qb, RESULT + 1)
    new = c.table[e:e + wpe].copy()
    c.clear()
    _store(c, p, qa, RESULT)
    assert _entry(c, p, qa) == e                     # way 0 of the same bucket
    old = c.table[e:e + wpe].copy()
    if scheme == "full":
        seq = int(old[0]) | 1                        # odd while being written
        new[0] = seq + 1
        states = [{0: seq}]
        for w in range(1, wpe):
            states.append({**states[-1], w: int(new[w])})
    else:
        states = [{w: int(new[w]) for w in WRITE_ORDER[scheme][:k]}
                  for k in range(1, len(WRITE_ORDER[scheme]))]
    for state in states:
        c.table[e:e + wpe] = old
        for w, v in state.items():
            c.table[e + w] = v
        assert _probe(c, p, qa)[0] == -1, state
        assert _probe(c, p, qb)[0] == -1, state
    c.table[e:e + wpe] = new
    assert _probe(c, p, qb)[0] == RESULT + 1
    assert _probe(c, p, qa)[0] == -1


def _bucket_of(c, p, q):
    k0, _ = kc.question_keys(p.hw, np.int64(q), c.meta[kc.M_MASK])
    return int(kc._bucket(c.meta, k0)) // 2


# ----------------------------------------------------------- replacement
def test_replacement_policy_keeps_deep_entries():
    """depth-age: a cheap entry does not evict the expensive one in way 0;
    way0: it does.  Old generations count as empty."""
    p = from_diagram(LADDER)
    for policy, kept in (("depth-age", True), ("way0", False)):
        c = ReadingCache(0.001, "double", size=9, hash_bits=1, policy=policy)
        stats = _store(c, p, Q, RESULT, work=5000)
        same_bucket = [q for q in range(Q + 1, Q + 200)
                       if int(kc.question_keys(p.hw, np.int64(q), c.meta[kc.M_MASK])[0])
                       == int(kc.question_keys(p.hw, np.int64(Q), c.meta[kc.M_MASK])[0])]
        # only ``hash_bits`` = 1: same tag, so these all share the bucket
        for q in same_bucket[:3]:
            stats += _store(c, p, q, 7, work=3)
        assert (_probe(c, p, Q)[0] == RESULT) == kept, policy
        assert stats[2] == 4 and stats[3] >= 2
    c = ReadingCache(0.001, "double", size=9, hash_bits=1)
    _store(c, p, Q, RESULT, work=5000)
    c.meta[kc.M_GEN] += 1                      # a new root query
    _store(c, p, same_bucket[0], 7, work=1)
    assert _probe(c, p, Q)[0] == -1 and _probe(c, p, same_bucket[0])[0] == 7


# ------------------------------------------------------------- benchmark
def test_bench_cache_json(capsys):
    import json

    from gogame.cli import main
    assert main(["bench", "cache", "--json", "--seconds", "0.01"]) == 0
    out = json.loads(capsys.readouterr().out)
    for size in ("9", "13", "19"):
        row = out["boards"][size]
        for scheme in ("double", "full", "single"):
            cell = row[scheme]
            assert cell["bytes_per_entry"] * cell["entries_per_mb"] <= 2**20
            assert cell["stores_per_second"] > 0 and cell["probes_per_second"] > 0
            assert 0.3 < cell["probe_hit_rate"] <= 0.5
        assert row["ratio_double_full"] == pytest.approx(
            row["double"]["entries_per_mb"] / row["full"]["entries_per_mb"], rel=1e-3)
    assert out["boards"]["19"]["double"]["entries_per_mb"] >= 4.5 * out["boards"]["19"]["full"]["entries_per_mb"]
    assert out["goal_19x19_double_vs_full"]["met"]
