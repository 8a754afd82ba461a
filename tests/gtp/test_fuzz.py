"""GTP fuzzing of the engine (gogame.gtp) with hypothesis, through
scripts/fuzz_gtp.py's checker: every non-blank line answered once and well
formed, the id echoed, the position unchanged after every error, the engine
alive.  The checker itself is tested on engines broken on purpose, so a
pass means something."""

import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gogame.gtp.engine import GtpEngine
from gogame.gtp.protocol import GtpError
from gogame.play.session import Engine
from tests.helpers.paths import load_script

fuzz_gtp = load_script("fuzz_gtp")


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    """A folder to run in (printsgf and kin may write files) with hostile SGFs."""
    folder = tmp_path_factory.mktemp("fuzz")
    cwd = os.getcwd()
    os.chdir(folder)
    yield folder, fuzz_gtp.hostile_files(folder)
    os.chdir(cwd)


@pytest.fixture(scope="module")
def fuzzer(workdir):
    folder, files = workdir
    transport = fuzz_gtp.InProcess(str(folder), timeout=60)
    names = fuzz_gtp._command_names(transport)
    return fuzz_gtp.Fuzz(transport, fuzz_gtp.Generator(random.Random(0), names, files))


def no_lf(b):
    return b.replace(b"\n", b"")


TOKENS = st.sampled_from(
    [
        "play",
        "b",
        "w",
        "e5",
        "A1",
        "pass",
        "undo",
        "trymove",
        "popgo",
        "boardsize",
        "9",
        "0",
        "-1",
        "loadsgf",
        "komi",
        "nan",
        "#",
        "\t",
        "\u00e9",
        "\u3000",
        "countlib",
        "showboard",
        "1",
        "007",
    ]
)
LINES = st.one_of(
    st.binary(max_size=60).map(no_lf),
    st.text(max_size=40).map(lambda t: no_lf(t.encode("utf-8", "surrogatepass"))),
    st.lists(TOKENS, max_size=5).map(lambda ts: " ".join(ts).encode()),
    st.integers(0, 2**32).map(lambda seed: None),  # a line from the script's generator
)


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(LINES, min_size=1, max_size=20), st.integers(0, 2**32))
def test_any_lines_are_answered_well_and_errors_change_nothing(fuzzer, lines, seed):
    fuzzer.gen.rng.seed(seed)
    lines = [fuzzer.gen.line() if line is None else line for line in lines]
    lines = [
        ln
        for ln in lines
        if fuzz_gtp.command_name(ln) is None
        or not fuzz_gtp.EXCLUDED.match(fuzz_gtp.command_name(ln))
    ]
    failures = fuzzer.stats["failures"]
    assert fuzzer.batch(lines)
    assert fuzzer.stats["failures"] == failures
    assert fuzzer.t.exchange(b"name\n", 1) == [b"= gogame\n\n"]


def test_the_subprocess_on_pipes_survives_a_short_run():
    stats = fuzz_gtp.fuzz("process", 400, seed=7, timeout=120)
    assert stats["failures"] == 0 and stats["lines"] == 400
    assert stats["answered"] > 300 and stats["errors"] > 50  # the run did something


# ------------------------------------------------------ the reference
@pytest.mark.parametrize(
    "line, want",
    [
        (b"", None),
        (b"  \t ", None),
        (b"# interrupt", None),
        (b"\x00\x01\r", None),
        (b"name", ""),
        (b"7 name", "7"),
        (b"007 name", "7"),
        (b"0 x", "0"),
        (b"12", "12"),
        (b"1\x002 name", "12"),
        (b"\xff name", ""),
        (b"\xc2\x85", None),
        (b"\xc2\xa0", ""),
        (b"#1 name", None),
        (b"x" * (fuzz_gtp.MAX_LINE + 5), ""),
    ],
)
def test_expected_id_follows_gtp_preprocessing(line, want):
    assert fuzz_gtp.expected_id(line) == want


@pytest.mark.parametrize(
    "resp, want, problem",
    [
        (b"= ok\n\n", "", None),
        (b"=3 \nA\nB\n\n", "3", None),
        (b"?3 bad\n\n", "3", None),
        (b"=ok\n\n", "", "first line"),
        (b"= ok\n", "", "blank line"),
        (b"=4 ok\n\n", "3", "id"),
        (b"= a\n\nb\n\n", "", "blank line inside"),
        (b"= a\n \n\n", "", "blank line inside"),
        (b"= \xff\n\n", "", "UTF-8"),
    ],
)
def test_response_problem(resp, want, problem):
    got = fuzz_gtp.response_problem(resp, want)
    assert (got is None) if problem is None else (problem in got)


# ------------------------------------- the checker catches broken engines
class Broken(GtpEngine):
    """Faults on purpose: ``play`` that fails after playing, ``twice``
    answered twice, ``silent`` not answered, ``noid`` without its id."""

    def cmd_play(self, args):
        super().cmd_play(args)
        raise GtpError("illegal move")

    def send(self, message):
        name = fuzz_gtp.command_name(message.rstrip("\n").encode())
        if name == "twice":
            return "= a\n\n= b\n\n"
        if name == "silent":
            return ""
        if name == "noid":
            return "= x\n\n"
        return super().send(message)


class BrokenTransport(fuzz_gtp.InProcess):
    def __init__(self):
        self.log = open(os.devnull, "w")
        from gogame.gtp import server as gtp

        self.gtp = gtp
        self.engine = Broken(session=Engine(9), log=self.log)


@pytest.mark.parametrize(
    "line, why",
    [
        (b"play b e5", "the position changed after an error"),
        (b"twice", "state check"),
        (b"silent", "no response"),
        (b"5 noid", "id ''"),
    ],
)
def test_the_checker_catches_each_fault(workdir, line, why, capsys):
    folder, files = workdir
    f = fuzz_gtp.Fuzz(BrokenTransport(), fuzz_gtp.Generator(random.Random(0), ["name"], files))
    f.batch([b"showboard"])  # a known state first
    f.batch([line])
    assert f.stats["failures"] >= 1
    assert why in capsys.readouterr().err


# ------------------------------------------ the fuzzer's own sandbox
@pytest.mark.parametrize(
    "line, outside",
    [
        (b"printsgf /dev/null", True),
        (b"7 printsgf\t/dev/stdin", True),
        (b"printsgf ../x", True),
        (b"printsgf /", True),
        (b"printsgf game.sgf", False),
        (b"loadsgf /dev/zero", False),
    ],
)
def test_the_fuzzer_never_lets_printsgf_write_outside_its_folder(line, outside):
    gen = fuzz_gtp.Generator(random.Random(0), ["printsgf"], ["/tmp/fuzzdir/a.sgf"])
    assert gen.writes_outside(line, fuzz_gtp.command_name(line)) == outside
