"""Option values shared by the commands (gogame.core.options): the cache
budget in MB, refused with one line when impossible."""

import pytest

from gogame.core import options
from gogame.core.options import MAX_MB, physical_mb
from gogame.core.options import cache_mb as parse_budget


@pytest.mark.parametrize("bad", [-1, -0.001, float("nan"), float("inf"), 1e9, "x", None, "1e6"])
def test_bad_budget_refused(bad):
    with pytest.raises(ValueError):
        parse_budget(bad)


@pytest.mark.parametrize("mb", ["-1", "nan", "inf", "1e9", "65537", "x"])
def test_impossible_cache_budget_is_refused_with_one_line(mb):
    with pytest.raises(ValueError) as info:
        parse_budget(mb)
    assert "\n" not in str(info.value)


def test_good_budget_accepted():
    assert parse_budget("0.25") == 0.25


def test_budget_over_the_physical_memory_is_refused():
    over = physical_mb() + 1
    if over > MAX_MB:
        pytest.skip("this machine has more memory than MAX_MB")
    with pytest.raises(ValueError, match="more than this machine's memory"):
        parse_budget(str(over))
    assert parse_budget(str(min(1024, physical_mb() / 2))) > 0


def test_the_scheme_names_are_the_kernels():
    """The option rule and the kernel's codes name the same schemes."""
    from gogame.kernel import cache as kc

    assert options.SCHEMES == tuple(kc.SCHEMES)


def test_threads_are_capped_at_the_cores(monkeypatch):
    """A session runs at most as many reading threads as the process has
    cores; asking for fewer gets that many."""
    monkeypatch.setattr(options, "cores", lambda: 2)
    assert [options.searchers(n) for n in (1, 2, 4, 16)] == [1, 2, 2, 2]
    monkeypatch.setattr(options, "cores", lambda: 16)
    assert options.searchers(4) == 4


def test_rules_are_named():
    assert options.rules(" Japanese ") == "japanese" and options.rules("chinese") == "chinese"
    with pytest.raises(ValueError, match="chinese or japanese"):
        options.rules("ing")
