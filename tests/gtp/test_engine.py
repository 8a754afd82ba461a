"""The GTP engine in process (gogame.gtp.engine): ids and response framing,
the administrative commands, error strings, an unchanged position after
every error, the reading commands over a fake reader, threads, and any
input answered well (hypothesis).  The process on pipes is tested in
tests/gtp/test_server.py, the protocol layer in test_protocol.py."""

import io
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gogame.gtp.engine import GtpEngine
from gogame.gtp.protocol import preprocess
from gogame.play.session import Engine
from tests.helpers.gtp import RESPONSE


class FakeReader:
    """Answers set by the test; records the queries."""

    def __init__(self):
        self.nodes = self.trymoves = self.depth_offset = self.node_limit = 0
        self.level = 10
        self.answers = {}
        self.calls = []

    def _answer(self, name, *args):
        self.calls.append((name,) + args)
        answer = self.answers[name]
        if isinstance(answer, BaseException):
            raise answer
        return answer(*args) if callable(answer) else answer

    def attack(self, position, pt):
        return self._answer("attack", position, pt)

    def find_defense(self, position, pt):
        return self._answer("find_defense", position, pt)

    def ladder_attack(self, position, pt):
        return self._answer("ladder_attack", position, pt)

    def does_attack(self, position, pt, move):
        return self._answer("does_attack", position, pt, move)

    def does_defend(self, position, pt, move):
        return self._answer("does_defend", position, pt, move)


def make(size=9, reader=None, **kw):
    return GtpEngine(session=Engine(size, reader=reader or FakeReader(), **kw))


def ask(engine, line):
    response = engine.send(line)
    assert RESPONSE.match(response), repr(response)
    return response


def body(response):
    """The text after '=id ' / '?id ', without the final blank line."""
    return response.split(" ", 1)[1][:-2]


def state(engine):
    """What must not change after an error."""
    return (
        body(engine.send("showboard")),
        body(engine.send("gogame-hash")),
        engine.session.position.stackp,
        engine.session.to_move,
        engine.session.komi,
    )


# ------------------------------------------------------------- framing
@pytest.mark.parametrize("line", ["", "\n", "   \t ", "# interrupt", "  # x", "\r\n", "\x01\x02"])
def test_blank_and_comment_lines_get_no_response(line):
    assert make().send(line) == ""


@pytest.mark.parametrize(
    "line, response",
    [
        ("name", "= gogame\n\n"),
        ("0 name", "=0 gogame\n\n"),
        ("007 name", "=7 gogame\n\n"),
        ("12345678901234567890 name", "=12345678901234567890 gogame\n\n"),
        ("7", "?7 syntax error\n\n"),
        ("-1 name", "? unknown command\n\n"),
        ("1.5 name", "? unknown command\n\n"),
        ("\u00b2 name", "? unknown command\n\n"),  # a Unicode digit is not an id
        ("NAME", "? unknown command\n\n"),
        ("name\u00a0", "? unknown command\n\n"),  # only spaces and tabs separate
        ("\u3000", "? unknown command\n\n"),
        ("3 frobnicate", "?3 unknown command\n\n"),
        ("4 kata-raw-nn all", "?4 unknown command\n\n"),
        ("5 quit", "=5 \n\n"),
        ("\t9\tname\t# with a comment\r", "=9 gogame\n\n"),
    ],
)
def test_ids_and_framing(line, response):
    assert make().send(line) == response


# ---------------------------------------------------------- administrative
def test_administrative_commands():
    e = make()
    assert e.send("protocol_version") == "= 2\n\n"
    assert e.send("name") == "= gogame\n\n"
    assert re.match(r"= \d+\.\d+", e.send("version"))
    assert e.send("known_command play") == "= true\n\n"
    assert e.send("known_command play extra") == "= true\n\n"
    assert e.send("known_command genmove") == "= true\n\n"
    assert e.send("known_command kata-raw-nn") == "= false\n\n"
    assert e.send("known_command kata-analyze") == "= true\n\n"
    assert e.send("known_command") == "= false\n\n"
    assert e.send("known_command gogame-hash") == "= true\n\n"
    assert re.match(r"= \d+\.\d{3}\n\n\Z", e.send("cputime"))
    assert not e.disconnect
    assert e.send("quit") == "= \n\n" and e.disconnect


def test_list_commands_is_accurate(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # printsgf FILE writes there
    e = make()
    listed = body(e.send("list_commands")).split("\n")
    required = {
        "protocol_version",
        "name",
        "version",
        "known_command",
        "list_commands",
        "quit",
        "boardsize",
        "clear_board",
        "komi",
        "play",
        "undo",
        "showboard",
        "loadsgf",
        "trymove",
        "tryko",
        "popgo",
        "increase_depths",
        "decrease_depths",
        "attack",
        "defend",
        "ladder_attack",
        "does_attack",
        "does_defend",
        "countlib",
        "findlib",
        "worm_stones",
        "color",
        "is_legal",
        "all_legal",
        "reset_reading_node_counter",
        "get_reading_node_counter",
        "reset_trymove_counter",
        "get_trymove_counter",
        "cputime",
        "gogame-hash",
        "gogame-check_hashing",
    }
    assert required <= set(listed)
    assert len(listed) == len(set(listed)) and "genmove" in listed
    e.session.clock.default = 0.05
    for name in listed:
        assert e.send(f"known_command {name}") == "= true\n\n"
    # every listed command answers (success or a proper error), none is unknown
    fake = e.session.reader
    fake.answers = {k: (0, None) for k in ("attack", "find_defense", "ladder_attack")}
    fake.answers.update(does_attack=0, does_defend=0)
    for args in ("", " b", " e5", " b e5", " e5 e6"):
        for name in listed:
            if name == "quit":
                continue
            response = ask(e, name + args)
            assert "unknown command" not in response, name + args
    assert not e.disconnect


# ------------------------------------------------------------- error strings
ERRORS = [
    ("boardsize", "syntax error"),
    ("boardsize x", "syntax error"),
    ("boardsize 9.5", "syntax error"),
    ("boardsize 1", "unacceptable size"),
    ("boardsize 26", "unacceptable size"),
    ("boardsize -9", "unacceptable size"),
    ("komi", "syntax error"),
    ("komi abc", "syntax error"),
    ("komi nan", "syntax error"),
    ("komi 1e400", "syntax error"),
    ("play", "syntax error"),
    ("play b", "syntax error"),
    ("play x e5", "syntax error"),
    ("play b z9", "syntax error"),
    ("play b e10", "syntax error"),
    ("play b i5", "syntax error"),
    ("play b resign", "syntax error"),
    ("play w c5", "illegal move"),  # occupied
    ("play w a1", "illegal move"),  # suicide
    ("play b e5", "illegal move"),  # ko retake
    ("loadsgf", "syntax error"),
    ("loadsgf /no/such/file.sgf", "cannot load file"),
    ("loadsgf {bad}", "cannot load file"),
    ("loadsgf {good} 0", "syntax error"),
    ("loadsgf {good} x1y", "syntax error"),
    ("loadsgf {good} Z25", "cannot load file"),
    ("attack", "invalid coordinate"),
    ("attack z9", "invalid coordinate"),
    ("attack pass", "invalid coordinate"),
    ("attack e5", "vertex must not be empty"),
    ("defend e5", "vertex must not be empty"),
    ("countlib e5", "vertex must not be empty"),
    ("findlib zz", "invalid coordinate"),
    ("findlib e5", "vertex must not be empty"),
    ("ladder_attack e5", "vertex must not be empty"),
    ("ladder_attack c5", "string must have exactly 2 liberties"),
    ("does_attack", "invalid coordinate"),
    ("does_attack c5 b5", "move vertex must be empty"),
    ("does_attack e5 j9", "string vertex must not be empty"),
    ("does_attack e5", "invalid coordinate"),
    ("does_defend c5 b5", "move vertex must be empty"),
    ("worm_stones e5", "worm_stones called on an empty vertex"),
    ("worm_stones zz", "invalid coordinate"),
    ("color", "invalid coordinate"),
    ("color k10", "invalid coordinate"),
    ("is_legal", "invalid color or coordinate"),
    ("is_legal b", "invalid color or coordinate"),
    ("is_legal q e5", "invalid color or coordinate"),
    ("all_legal", "invalid color"),
    ("all_legal e5", "invalid color"),
    ("trymove b", "invalid color or coordinate"),
    ("trymove b c5", "illegal move"),
    ("tryko b pass", "invalid color or coordinate"),
    ("tryko b c5", "illegal move"),
    ("popgo", "Stack empty."),
    ("gogame-check_hashing maybe", "syntax error"),
    ("frobnicate", "unknown command"),
]

# the position the error commands run on: white has just taken a ko at D5,
# so black may not retake at E5 at once; white A1 would be suicide.
#     C D E F
#   6 . X O .
#   5 X O . O
#   4 . X O .
KO_MOVES = [
    ("b", "d6"),
    ("b", "c5"),
    ("b", "d4"),
    ("b", "e5"),
    ("w", "e6"),
    ("w", "f5"),
    ("w", "e4"),
    ("b", "a2"),
    ("b", "b1"),
    ("w", "d5"),
]


def build(tmp_path):
    e = make()
    good = tmp_path / "good.sgf"
    good.write_text("(;SZ[9];B[cd];W[dd])")
    bad = tmp_path / "bad.sgf"
    bad.write_text("(;SZ[9];B[cd];W[cd])")
    for c, v in KO_MOVES:
        assert e.send(f"play {c} {v}") == "= \n\n", (c, v)
    assert e.session.position.ko == (4, 4)
    return e, str(good), str(bad)


@pytest.mark.parametrize("command, message", ERRORS, ids=[c for c, _ in ERRORS])
def test_error_strings_and_unchanged_position(tmp_path, command, message):
    e, good, bad = build(tmp_path)
    before = state(e)
    response = ask(e, "11 " + command.format(good=good, bad=bad))
    assert response == f"?11 {message}\n\n"
    assert state(e) == before


def test_undo_errors_change_nothing():
    e = make()
    before = state(e)
    assert ask(e, "undo") == "? cannot undo\n\n"
    assert state(e) == before
    ask(e, "play b e5")
    ask(e, "trymove w d5")
    before = state(e)
    assert ask(e, "undo") == "? cannot undo\n\n"  # not while a trymove is on
    assert state(e) == before
    ask(e, "popgo")
    assert ask(e, "undo") == "= \n\n"
    assert body(e.send("color e5")) == "empty"


def test_successes_next_to_the_errors(tmp_path):
    e, good, bad = build(tmp_path)
    assert ask(e, "tryko b e5") == "= \n\n"  # the ko retake, as after a threat
    assert ask(e, "color d5") == "= empty\n\n"
    assert ask(e, "popgo") == "= \n\n"
    assert ask(e, "color d5") == "= white\n\n"
    assert ask(e, "is_legal b e5") == "= 0\n\n"
    assert ask(e, "is_legal w e5") == "= 1\n\n"
    assert ask(e, "is_legal b pass") == "= 1\n\n"
    assert ask(e, "play b pass") == "= \n\n"  # a pass clears the ko
    assert ask(e, "is_legal b e5") == "= 1\n\n"
    assert ask(e, f"loadsgf {good}") == "= black\n\n"
    assert ask(e, f"loadsgf {good} 2") == "= white\n\n"
    assert ask(e, f"loadsgf {good} d6") == "= white\n\n"
    assert ask(e, "komi -3.5") == "= \n\n" and ask(e, "get_komi") == "= -3.5\n\n"
    assert ask(e, "boardsize 25") == "= \n\n"
    assert ask(e, "play b Z25") == "= \n\n"
    assert ask(e, "query_boardsize") == "= 25\n\n"
    assert ask(e, "get_komi") == "= -3.5\n\n"


def test_showboard_starts_with_a_newline_like_gnu_go():
    e = make(5)
    ask(e, "play b c3")
    assert e.send("3 showboard") == (
        "=3 \n"
        "   A B C D E\n"
        " 5 . . . . . 5\n"
        " 4 . + . + . 4\n"
        " 3 . . X . . 3\n"
        " 2 . + . + . 2     WHITE (O) has captured 0 stones\n"
        " 1 . . . . . 1     BLACK (X) has captured 0 stones\n"
        "   A B C D E\n\n"
    )


def test_vertex_lists_and_colours():
    # 5 . . . . .
    # 4 . X X . .
    # 3 . X O . .
    # 2 . . . O .
    # 1 . . . . .
    e = make(5)
    for c, v in (("b", "B4"), ("b", "C4"), ("b", "B3"), ("w", "C3"), ("w", "D2")):
        ask(e, f"play {c} {v}")
    assert ask(e, "findlib b3") == "= B5 C5 A4 D4 A3 B2\n\n"
    assert ask(e, "countlib c4") == "= 6\n\n"
    assert ask(e, "worm_stones") == "= B4 C4 B3\nC3\nD2\n\n"
    assert ask(e, "worm_stones white") == "= C3\nD2\n\n"
    assert ask(e, "worm_stones B") == "= B4 C4 B3\n\n"
    assert ask(e, "worm_stones c4") == "= B4 C4 B3\n\n"
    assert ask(e, "color b4") == "= black\n\n"
    assert ask(e, "color D2") == "= white\n\n"
    assert ask(e, "clear_board") == "= \n\n"
    assert ask(e, "worm_stones") == "= \n\n"
    assert (
        ask(e, "all_legal b")
        == "= " + " ".join(f"{c}{r}" for r in range(5, 0, -1) for c in "ABCDE") + "\n\n"
    )


# ------------------------------------------------------------------ reading
@pytest.mark.parametrize(
    "answer, text",
    [
        ((0, None), "0"),
        ((0, (3, 3)), "0"),
        ((1, (0, 6)), "1 G1"),
        ((2, (18, 3)), "2 D19"),
        ((3, (4, 4)), "3 E5"),
        ((1, None), "1 PASS"),
    ],
)
def test_reading_answers_as_gnu_go_prints_them(answer, text):
    e = make(19)
    ask(e, "play b f1")
    ask(e, "play w e1")
    fake = e.session.reader
    fake.answers = {"attack": answer, "find_defense": answer, "ladder_attack": answer}
    assert ask(e, "attack f1") == f"= {text}\n\n"
    assert ask(e, "5 defend F1") == f"=5 {text}\n\n"
    assert ask(e, "ladder_attack f1") == f"= {text}\n\n"  # F1 has 2 liberties
    assert [c[0] for c in fake.calls] == ["attack", "find_defense", "ladder_attack"]
    assert all(c[1] is e.session.position and c[2] == (0, 5) for c in fake.calls)


def test_does_attack_takes_move_then_string_as_gnu_go():
    e = make(9)
    ask(e, "play b e5")
    fake = e.session.reader
    fake.answers = {"does_attack": 3, "does_defend": 0}
    assert ask(e, "does_attack e6 e5") == "= 3\n\n"
    assert ask(e, "does_defend d5 e5") == "= 0\n\n"
    assert fake.calls == [
        ("does_attack", e.session.position, (4, 4), (5, 4)),
        ("does_defend", e.session.position, (4, 4), (4, 3)),
    ]


def test_counters_and_depths():
    e = make(9)
    fake = e.session.reader
    fake.nodes, fake.trymoves = 1234, 7
    assert ask(e, "get_reading_node_counter") == "= 1234\n\n"
    assert ask(e, "reset_reading_node_counter") == "= \n\n"
    assert ask(e, "get_reading_node_counter") == "= 0\n\n"
    assert ask(e, "get_trymove_counter") == "= 7\n\n"
    assert ask(e, "trymove b e5") == "= \n\n"
    assert ask(e, "get_trymove_counter") == "= 8\n\n"
    assert ask(e, "reset_trymove_counter") == "= \n\n"
    assert ask(e, "get_trymove_counter") == "= 0\n\n"
    for _ in range(3):
        ask(e, "increase_depths")
    ask(e, "decrease_depths")
    assert fake.depth_offset == 2


def test_a_failing_reader_answers_an_error_and_restores_the_position():
    e = make(9)
    ask(e, "play b e5")
    before = state(e)

    def bad(position, pt):
        position.trymove((0, 0), 2)
        position.trymove((0, 1), 1)
        raise RuntimeError("boom\nsecond line")

    e.session.reader.answers = {
        "attack": bad,
        "find_defense": NotImplementedError(),
        "ladder_attack": lambda position, pt: (position.trymove((8, 8), 2), (1, None))[1],
    }
    assert ask(e, "4 attack e5") == "?4 internal error: RuntimeError: boom\n\n"
    assert state(e) == before
    assert ask(e, "defend e5").startswith("? defend not implemented")
    assert state(e) == before
    ask(e, "play w e6")
    ask(e, "play w f5")  # E5 now has 2 liberties
    before = state(e)
    assert ask(e, "ladder_attack e5").startswith("? internal error")
    assert state(e) == before


def test_check_hashing_and_hash_commands():
    e = make(9)
    h0 = body(e.send("gogame-hash"))
    assert re.fullmatch(r"[0-9a-f]{16} [0-9a-f]{16}", h0)
    assert ask(e, "gogame-check_hashing") == "= off\n\n"
    assert ask(e, "gogame-check_hashing on") == "= \n\n"
    assert ask(e, "gogame-check_hashing") == "= on\n\n"
    assert e.session.position.check_hashing
    ask(e, "play b e5")
    h1 = body(e.send("gogame-hash"))
    assert h1 != h0
    assert ask(e, "undo") == "= \n\n"
    assert body(e.send("gogame-hash")) == h0
    ask(e, "boardsize 7")
    assert e.session.position.check_hashing  # the setting outlives the board
    # a corrupted word is found, reported on one line, and the move taken back
    e.session.position.hw[1] ^= 1 << 33
    before = body(e.send("showboard"))
    response = ask(e, "play b d4")
    assert response.startswith("? internal error: HashMismatchError: hash mismatch")
    assert body(e.send("showboard")) == before
    assert ask(e, "play b d4") == "= \n\n"
    assert ask(e, "gogame-check_hashing OFF") == "= \n\n"


# ---------------------------------------------------------------- threads
def test_gtp_threads_answer_and_report_per_thread_counters():
    e = GtpEngine(session=Engine(9, threads=2))
    for move in ("b d4", "b d5", "w e5", "w e4", "b f4", "b e3"):
        assert e.send(f"play {move}") == "= \n\n"
    assert e.send("attack e4").startswith("= 1 ")
    lines = e.send("gogame-thread_stats")[2:-2].split("\n")
    assert [ln.split()[:2] for ln in lines] == [["thread", "0"], ["thread", "1"]]
    nodes = sum(int(ln.split()[ln.split().index("nodes") + 1]) for ln in lines)
    assert e.send("get_reading_node_counter") == f"= {nodes}\n\n"


# ---------------------------------------------------------------- fuzzing
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(
        st.one_of(
            st.binary(max_size=40).map(lambda b: b.decode("utf-8", "replace")),
            st.text(max_size=30),
            st.tuples(
                st.sampled_from(
                    [
                        "play",
                        "trymove",
                        "tryko",
                        "is_legal",
                        "attack",
                        "countlib",
                        "findlib",
                        "worm_stones",
                        "popgo",
                        "undo",
                        "boardsize",
                        "komi",
                        "color",
                        "all_legal",
                        "does_attack",
                        "loadsgf",
                        "known_command",
                        "showboard",
                        "1 play",
                        "gogame-hash",
                    ]
                ),
                st.lists(
                    st.sampled_from(
                        [
                            "b",
                            "w",
                            "B",
                            "white",
                            "e5",
                            "E6",
                            "a1",
                            "t19",
                            "pass",
                            "PASS",
                            "z",
                            "9",
                            "-1",
                            "2.5",
                            "#",
                            "\t",
                            "\x00",
                            "\u00e9",
                            "j9",
                            "d4",
                        ]
                    ),
                    max_size=3,
                ),
            ).map(lambda t: " ".join([t[0]] + t[1])),
        ),
        max_size=25,
    )
)
def test_any_input_gets_well_formed_answers_and_never_kills_the_engine(lines):
    e = fuzz_engine()
    for line in lines:
        response = e.send(line)
        if response:
            assert RESPONSE.match(response), (line, response)
        else:
            assert preprocess(line).strip() == "", line
    assert e.send("name") == "= gogame\n\n"
    while e.session.position.stackp:
        e.send("popgo")


_FUZZ = []


def fuzz_engine():
    if not _FUZZ:
        fake = FakeReader()
        fake.answers = {
            "attack": (1, (0, 0)),
            "find_defense": (0, None),
            "ladder_attack": (1, None),
            "does_attack": 1,
            "does_defend": 2,
        }
        _FUZZ.append(make(9, reader=fake))
    e = _FUZZ[0]
    e.disconnect = False
    e.send("boardsize 9")
    return e


# -------------------------------------------- bugs the fuzzer found


def test_an_id_of_5000_digits_is_echoed():
    e = GtpEngine(session=Engine(9))
    assert e.send("9" * 5000 + " name") == "=" + "9" * 5000 + " gogame\n\n"
    assert e.send("0" * 5000 + "12 name") == "=12 gogame\n\n"
    assert e.send("9" * 5000) == "?" + "9" * 5000 + " syntax error\n\n"


def test_loadsgf_until_of_5000_digits_loads_the_whole_game(tmp_path):
    game = tmp_path / "g.sgf"
    game.write_bytes(b"(;SZ[9];B[ee];W[dd])")
    e = GtpEngine(session=Engine(9))
    assert e.send(f"loadsgf {game} {'9' * 5000}") == "= black\n\n"
    assert len(e.session.position.moves()) == 2


def test_cold_start_compiles_the_playouts_first_for_a_game(monkeypatch):
    """The kernels compile behind the session in the order the waiting
    command needs them; the reader is marked ready once loaded."""
    import threading

    from gogame.core import reader
    from gogame.gtp import engine as gtp_engine
    from gogame.play import player, session

    order = []
    monkeypatch.setattr(session, "warm_up_loading", lambda: order.append("loading"))
    monkeypatch.setattr(reader, "warm_up", lambda moves=True: order.append("reader"))
    monkeypatch.setattr(reader, "warm_up_moves", lambda: order.append("moves"))
    monkeypatch.setattr(player, "warm_up", lambda: order.append("playouts"))
    for playing, expected in (
        (True, ["playouts", "loading", "reader", "moves"]),
        (False, ["loading", "reader", "moves", "playouts"]),
    ):
        order.clear()
        ready = threading.Event()
        before, behind = gtp_engine.warm_plan(set(), playing)
        gtp_engine._warm_kernels(before + behind, ready)
        assert not before and order == expected and ready.is_set()
    plan = gtp_engine.warm_plan
    every = set(gtp_engine.KERNELS)
    # all cached: the first command waits for what it uses only, nothing behind
    assert plan(every, False) == (("reader",), ())
    assert plan(every, True) == (("playouts", "reader"), ())
    # a cache half filled (a first session that ended early): the cached
    # group needed now loads first, the missing ones compile behind
    assert plan({"reader"}, False) == (("reader",), ("loading", "moves", "playouts"))
    assert plan({"loading", "reader", "moves"}, True) == (("reader",), ("playouts",))
    assert {"genmove", "boardsize", "kata-analyze"} <= gtp_engine.PLAYING
    assert not {"attack", "loadsgf", "defend"} & gtp_engine.PLAYING


def test_a_helper_compiles_the_reader_beside_the_other_groups(monkeypatch):
    """With a child compiling the reader's groups (a cold start on two
    cores), the start-up thread does the others first, then loads the
    reader's once the child has exited -- also when it failed (they then
    compile here)."""
    import subprocess
    import sys
    import threading

    from gogame.core import reader, warming
    from gogame.gtp import engine as gtp_engine
    from gogame.play import player, session

    order = []
    helper = None
    monkeypatch.setattr(session, "warm_up_loading", lambda: order.append("loading"))
    monkeypatch.setattr(reader, "warm_up", lambda moves=True: order.append(helper.poll()))
    monkeypatch.setattr(reader, "warm_up_moves", lambda: order.append("moves"))
    monkeypatch.setattr(player, "warm_up", lambda: order.append("playouts"))
    for playing, status, expected in (
        (True, 0, ["playouts", "loading", 0, "moves"]),
        (False, 3, ["loading", "playouts", 3, "moves"]),
    ):
        order.clear()
        ready = threading.Event()
        code = f"import time; time.sleep(0.3); raise SystemExit({status})"
        helper = subprocess.Popen([sys.executable, "-c", code])
        _, behind = gtp_engine.warm_plan(set(), playing)
        gtp_engine._warm_kernels(behind, ready, helper)
        assert order == expected and ready.is_set()
    hung = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    warming.finish(hung, timeout=0.2)  # killed: the reader compiles here
    assert hung.returncode is not None


def test_the_reader_helper_starts_only_where_it_can_help(monkeypatch):
    """Two cores or more, and another group to compile beside it."""
    from gogame.core import warming
    from gogame.gtp import engine as gtp_engine

    started = []
    monkeypatch.setattr(warming, "start", lambda step: started.append(step) or step)
    monkeypatch.setattr(gtp_engine.options, "cores", lambda: 2)
    assert gtp_engine._reader_helper(("reader", "moves")) is None
    assert gtp_engine._reader_helper(("loading", "reader", "moves")) == "reading"
    monkeypatch.setattr(gtp_engine.options, "cores", lambda: 1)
    assert gtp_engine._reader_helper(("loading", "reader", "moves")) is None
    assert started == ["reading"]


def test_a_reading_question_waits_for_the_reader_helper():
    """While a child compiles the reader, a reading command waits for it
    (here: an event set after 0.3 s) instead of compiling it again."""
    import threading
    import time

    from gogame.play.session import Engine as Session

    e = GtpEngine(session=Session(9))
    assert e.send("play b E5").startswith("=")
    e._reader_helped = helped = threading.Event()
    threading.Timer(0.3, helped.set).start()
    start = time.perf_counter()
    assert e.send("attack E5") == "= 0\n\n"
    assert time.perf_counter() - start >= 0.25 and helped.is_set()


def _stub_start_up(monkeypatch, cached=None):
    """The start-up thread with no kernel to load or probe: numba's cache
    holds the groups ``cached`` (default: all of them)."""
    from gogame.gtp import engine as gtp_engine

    groups = set(gtp_engine.KERNELS) if cached is None else set(cached)
    monkeypatch.setattr(gtp_engine, "_warm_kernels", lambda *a: None)
    monkeypatch.setattr(gtp_engine, "_skip_optional_probes", lambda: None)
    monkeypatch.setattr(gtp_engine, "_cached_groups", lambda: groups)


def test_commands_wait_for_the_start_up_session_before_they_run(monkeypatch):
    """Only the session-free commands run beside the start-up thread; any
    other waits for its session before its handler imports anything (two
    threads importing numba at once can deadlock)."""
    import threading

    gate = threading.Event()

    def factory():
        gate.wait(10)
        return Engine(9)

    _stub_start_up(monkeypatch)
    e = GtpEngine(factory=factory)
    seen = []
    e.commands["showboard"] = lambda args: seen.append(e._session is not None) or ""
    e.prewarm()
    assert e.send("name") == "= gogame\n\n" and e._session is None
    threading.Timer(0.2, gate.set).start()
    assert e.send("showboard") == "= \n\n"
    assert seen == [True]


def test_genmove_does_not_wait_for_a_reader_not_ready():
    """While the reader's kernels compile (a cold start), genmove plays
    without the reader: it is not even made."""
    from gogame.play.session import Engine as Session

    e = GtpEngine(session=Session(9))
    e.session.clock.default = 0.2
    e.session.reader_ready = lambda: False
    move = e.send("genmove b")[2:].strip()
    assert move not in ("PASS", "resign") and e.session._reader is None
    e.session.reader_ready = lambda: True
    e.send("genmove w")
    assert e.session._reader is not None


# A start that reads: the reader's group loaded (its warm-up stubbed: no
# kernel loads or compiles), and what that brought in.
READ_START = """
import sys
from gogame import cli
from gogame.core import reader
from gogame.gtp import engine
cli.build_parser()
reader.warm_up = lambda moves=True: None
engine._warm_kernels(("reader",))
print(" ".join(m for m in ("gogame.play.player", "multiprocessing") if m in sys.modules))
"""


def test_a_start_that_reads_imports_neither_playouts_nor_workers():
    """The playouts' modules load when a game needs them, and the workers'
    pool when ``replay`` or ``mine`` starts one: neither delays the first
    reading answer (about 40 ms and 10 ms of a 0.5 s warm start)."""
    import subprocess
    import sys

    run = subprocess.run(
        [sys.executable, "-c", READ_START], capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == ""


def test_the_start_up_makes_the_reader_and_maps_its_cache(monkeypatch):
    """With the reader's kernels cached, the start-up thread makes the
    session's reader and touches its cache table before the first command
    runs, so that the first question waits for neither."""
    from gogame.core.reading_cache import ReadingCache
    from gogame.gtp import engine as gtp_engine

    touched = []
    monkeypatch.setattr(ReadingCache, "touch", lambda self: touched.append(self))
    for cached, made in ((set(gtp_engine.KERNELS), True), ({"loading"}, False)):
        touched.clear()
        _stub_start_up(monkeypatch, cached)
        e = GtpEngine(factory=lambda: Engine(9), stand_in=None)
        e.prewarm()
        e.finish_prewarm(10)
        reader = e.session._reader  # handed over
        assert (reader is not None) == made
        assert touched == ([reader.cache] if made else [])


def test_a_reader_that_cannot_be_made_at_start_up_fails_the_first_question(monkeypatch):
    """The start-up's early reader is only a head start: when making it
    fails, the session is still handed over and the reading question
    reports the failure."""
    from gogame.play import session as play_session

    def broken(self):
        raise MemoryError("no room for the cache")

    monkeypatch.setattr(play_session.Engine, "reader", property(broken))
    _stub_start_up(monkeypatch)
    log = io.StringIO()
    made = []
    e = GtpEngine(factory=lambda: made.append(1) or Engine(9), stand_in=None, log=log)
    e.prewarm()
    assert e.send("play b E5") == "= \n\n"
    assert e.send("attack E5").startswith("? internal error: MemoryError")
    assert made == [1] and "start-up failed" not in log.getvalue()
