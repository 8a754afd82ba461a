"""The reading cache for Python callers: a byte budget, a scheme, statistics.

``ReadingCache(budget_mb, scheme, hash_bits, size, policy)`` owns the kernel
table and its meta array (see ``gogame.kernel.cache`` for layouts and the
replacement policy).  ``full`` entries hold the packed board, so its table
is laid out for one board size and ``for_size`` re-lays it (empty) when the
size changes; ``double`` and ``single`` entries do not depend on the size,
so their table and its entries stay (the reader puts the board size in
every question).  A budget of 0 (or one smaller
than a 2-entry bucket) disables caching.  Statistics are counted per reader
(thread) and summed by the caller; ``stats`` adds what the table itself
knows (capacity, bytes, entries in use).  Bad arguments raise ValueError.

Budget limits (``parse_budget``): a number of MB (MiB), finite, >= 0, at
most ``MAX_MB`` (65536) and at most the machine's physical memory; anything
else is refused with a one-line message.  The budget bounds the table alone:
the process needs a baseline on top (Python, numpy, numba and the compiled
kernel; measured by ``scripts/bench_memory.py``, see the README).
"""
import os

from .kernel import cache as kc

SCHEME_NAMES = tuple(kc.SCHEMES)
POLICY_NAMES = tuple(kc.POLICIES)
MAX_MB = 65536


def physical_mb():
    """The machine's physical memory in MB (MAX_MB when it cannot be read)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**20
    except (ValueError, OSError, AttributeError):
        return float(MAX_MB)


def parse_budget(text):
    """A cache size in MB: a finite float >= 0, at most MAX_MB and at most
    the physical memory; ValueError (one line) otherwise."""
    try:
        mb = float(text)
    except (TypeError, ValueError):
        raise ValueError(f"cache size must be a number of MB, not {text!r}") from None
    if not (mb >= 0 and mb <= MAX_MB):
        raise ValueError(f"cache size must be between 0 and {MAX_MB} MB, not {text}")
    if mb > physical_mb():
        raise ValueError(f"cache size {text} MB is more than this machine's memory "
                         f"({physical_mb():.0f} MB)")
    return mb


class ReadingCache:
    def __init__(self, budget_mb=8.0, scheme="double", hash_bits=64, size=19,
                 policy="depth-age"):
        if scheme not in kc.SCHEMES:
            raise ValueError(f"unknown hash scheme {scheme!r} ({', '.join(SCHEME_NAMES)})")
        if policy not in kc.POLICIES:
            raise ValueError(f"unknown replacement policy {policy!r} ({', '.join(POLICY_NAMES)})")
        try:
            bits = int(hash_bits)
        except (TypeError, ValueError):
            raise ValueError(f"hash bits must be an integer 1..64, not {hash_bits!r}") from None
        if isinstance(hash_bits, bool) or not 1 <= bits <= 64 or bits != float(hash_bits):
            raise ValueError(f"hash bits must be an integer 1..64, not {hash_bits!r}")
        self.budget_mb = parse_budget(budget_mb)
        self.scheme = scheme
        self.policy = policy
        self.hash_bits = bits
        self.size = None
        self.for_size(size)

    @property
    def budget_bytes(self):
        return int(self.budget_mb * 2**20)

    def for_size(self, size):
        """Make the table fit boards of ``size``: re-laid (empty) when its
        entry size changes with it (``full``), kept otherwise."""
        if size != self.size:
            old, self.size = self.size, size
            if old is not None and (kc.words_per_entry(kc.SCHEMES[self.scheme], old)
                                    == kc.words_per_entry(kc.SCHEMES[self.scheme], size)):
                return self
            self.table, self.meta = kc.new_cache(self.budget_bytes, kc.SCHEMES[self.scheme],
                                                 size, self.hash_bits, kc.POLICIES[self.policy])
        return self

    def clear(self):
        self.table[:] = 0

    @property
    def capacity(self):
        return int(self.meta[kc.M_CAPACITY])

    @property
    def bytes_per_entry(self):
        return 8 * int(self.meta[kc.M_WPE])

    @property
    def bytes_allocated(self):
        return int(self.table.nbytes)

    def stats(self, counters=None):
        """Table facts plus the reading counters ``counters`` (probes, hits,
        stores, replacements, collisions), if given."""
        out = {"scheme": self.scheme, "cache_mb": self.budget_mb, "hash_bits": self.hash_bits,
               "policy": self.policy, "capacity": self.capacity,
               "bytes_per_entry": self.bytes_per_entry, "bytes_allocated": self.bytes_allocated,
               "entries_in_use": int(kc.entries_in_use(self.table, self.meta))}
        if counters is not None:
            probes, hits, stores, replacements, collisions = (int(x) for x in counters)
            out.update(probes=probes, hits=hits, misses=probes - hits, stores=stores,
                       replacements=replacements, collisions=collisions)
        return out
