"""The engine's options, one rule each: cache budget, hash scheme, hash
bits, thread count, level, seconds, rules and on/off switches.

Every face (the CLI, ``gogame gtp``'s options, ``gogame-param``, the
tools) validates through these functions, so one value is accepted or
refused the same way everywhere.  Each rule takes text (or a number) and
returns the value, or raises ``ValueError`` with a one-line reason;
``argtype`` turns a rule into an argparse type.  Light: this module loads
no numba, so options are checked before the kernel starts.
"""

import argparse
import math
import os
from collections.abc import Callable
from typing import Any

SCHEMES = ("double", "full", "single")  # cache key schemes; kernel/cache.py maps them to codes
MAX_MB = 65536  # the largest cache budget, in MB (MiB)
MAX_THREADS = 1024
MAX_LEVEL = 20


def physical_mb() -> float:
    """The machine's physical memory in MB (``MAX_MB`` when it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    except (ValueError, OSError, AttributeError):
        return float(MAX_MB)


def cache_mb(text: Any) -> float:
    """A cache budget in MB: finite, >= 0, at most ``MAX_MB`` and at most
    the physical memory."""
    try:
        mb = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"cache size must be a number of MB, not {text!r}") from None
    if not (mb >= 0 and mb <= MAX_MB):
        raise ValueError(f"cache size must be between 0 and {MAX_MB} MB, not {text}")
    if mb > physical_mb():
        raise ValueError(
            f"cache size {text} MB is more than this machine's memory ({physical_mb():.0f} MB)"
        )
    return mb


def scheme(text: Any) -> str:
    """A cache key scheme: one of ``SCHEMES``."""
    if text not in SCHEMES:
        raise ValueError(f"unknown hash scheme {text!r} (choose from {', '.join(SCHEMES)})")
    return text


def _integer(text: Any, low: int, high: int, what: str) -> int:
    """An integer ``low..high`` given as text of ASCII digits (a sign
    allowed) or as an int; never a bool or a float with a fraction."""
    if isinstance(text, bool):
        raise ValueError(f"{what} must be an integer {low}..{high}, not {text!r}")
    if isinstance(text, int):
        n = text
    else:
        s = str(text).strip()
        digits = s[1:] if s[:1] in "+-" else s
        if not (digits.isascii() and digits.isdigit()):
            raise ValueError(f"{what} must be an integer {low}..{high}, not {text!r}")
        n = int(s)
    if not low <= n <= high:
        raise ValueError(f"{what} must be an integer {low}..{high}, not {n}")
    return n


def hash_bits(text: Any) -> int:
    """Bits of hash word 0 the cache uses: 1..64."""
    return _integer(text, 1, 64, "hash bits")


def cores() -> int:
    """The cores this process may run on (its CPU affinity), 1..``MAX_THREADS``:
    the default number of reading threads where threads pay off."""
    try:
        n = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not on Linux
        n = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, n))


def searchers(n: int) -> int:
    """The reading threads a session or a replay runs for ``n`` asked: at
    most the cores.  More threads than cores only take turns on them, and
    a thread that waits keeps its moves marked busy for the others, so
    they were slower than as many threads as cores (docs/threads.md)."""
    return max(1, min(n, cores()))


def threads(text: Any) -> int:
    """Reading threads: 1..``MAX_THREADS``."""
    return _integer(text, 1, MAX_THREADS, "thread count")


def jobs(text: Any) -> int:
    """Processes working at once: 1..64."""
    return _integer(text, 1, 64, "process count")


def level(text: Any) -> int:
    """Reading depths as GNU Go's ``--level``: 0..``MAX_LEVEL``."""
    return _integer(text, 0, MAX_LEVEL, "level")


def seconds(text: Any) -> float:
    """A time in seconds: finite and > 0."""
    try:
        x = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(x) and x > 0):
        raise ValueError(f"seconds must be finite and > 0, not {text}")
    return x


RULES = ("chinese", "japanese")  # final_score's counting: area, territory


def rules(text: Any) -> str:
    """The counting of ``final_score``: chinese (area) or japanese (territory)."""
    name = str(text).strip().lower()
    if name not in RULES:
        raise ValueError(f"rules must be chinese or japanese, not {text!r}")
    return name


def on_off(text: Any) -> bool:
    """A switch: ``on`` / ``off`` (also true/false, yes/no, 1/0), any case."""
    name = str(text).strip().lower()
    if name in ("on", "true", "yes", "1"):
        return True
    if name in ("off", "false", "no", "0"):
        return False
    raise ValueError(f"must be on or off, not {text!r}")


def argtype(rule: Callable[[str], Any]) -> Callable[[str], Any]:
    """An argparse ``type=`` from a rule: its ValueError becomes argparse's
    one-line error (exit status 2)."""

    def parse(text: str) -> Any:
        try:
            return rule(text)
        except ValueError as e:
            raise argparse.ArgumentTypeError(str(e)) from None

    parse.__name__ = rule.__name__
    return parse


def add_cache_arguments(parser: argparse.ArgumentParser, default_mb: float | None = 8.0) -> None:
    """``--cache-mb``, ``--hash`` and ``--hash-bits``, the same for every
    command that reads (``default_mb`` None: the session's default)."""
    shown = 8 if default_mb is None else f"{default_mb:g}"
    parser.add_argument(
        "--cache-mb",
        type=argtype(cache_mb),
        default=default_mb,
        metavar="MB",
        help=f"reading cache budget in MB (default {shown}; 0: no cache)",
    )
    parser.add_argument(
        "--hash",
        choices=SCHEMES,
        default="double",
        help="cache key scheme (default double; single: the unverified control)",
    )
    add_hash_bits(parser)


def add_hash_bits(parser: argparse.ArgumentParser) -> None:
    """The ``--hash-bits K`` option, the same for every command that reads."""
    parser.add_argument(
        "--hash-bits",
        type=argtype(hash_bits),
        default=64,
        metavar="K",
        help="use only K bits of hash word 0 (collision experiment)",
    )
