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

The budget, scheme and hash bits are checked by ``core.options``.  The
budget bounds the table alone: the process needs a baseline on top
(Python, numpy, numba and the compiled kernel; measured by
``scripts/bench_memory.py``, see docs/reliability.md).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..kernel import cache as kc
from . import options

POLICY_NAMES = tuple(kc.POLICIES)


class ReadingCache:
    """A kernel cache table and its meta array, with the options that made them."""

    def __init__(
        self,
        budget_mb: float = 8.0,
        scheme: str = "double",
        hash_bits: int = 64,
        size: int = 19,
        policy: str = "depth-age",
    ) -> None:
        scheme = options.scheme(scheme)
        if policy not in kc.POLICIES:
            raise ValueError(f"unknown replacement policy {policy!r} ({', '.join(POLICY_NAMES)})")
        bits = options.hash_bits(hash_bits)
        self.budget_mb = options.cache_mb(budget_mb)
        self.scheme = scheme
        self.policy = policy
        self.hash_bits = bits
        self.size: int | None = None
        self.for_size(size)

    @property
    def budget_bytes(self) -> int:
        return int(self.budget_mb * 2**20)

    def for_size(self, size: int) -> ReadingCache:
        """Make the table fit boards of ``size``: re-laid (empty) when its
        entry size changes with it (``full``), kept otherwise."""
        if size != self.size:
            old, self.size = self.size, size
            if old is not None and (
                kc.words_per_entry(kc.SCHEMES[self.scheme], old)
                == kc.words_per_entry(kc.SCHEMES[self.scheme], size)
            ):
                return self
            self.table, self.meta = kc.new_cache(
                self.budget_bytes,
                kc.SCHEMES[self.scheme],
                size,
                self.hash_bits,
                kc.POLICIES[self.policy],
            )
        return self

    def touch(self) -> None:
        """Write every 4 KB page of the table once, with the value it
        holds, so that the operating system maps its memory now rather than
        at a question's first probes (a huge page's first write may wait
        for the kernel to compact memory).  Entries are unchanged."""
        step = 4096 // self.table.itemsize
        self.table[::step] = self.table[::step].copy()

    def clear(self) -> None:
        """Empty every entry (the table stays allocated)."""
        self.table[:] = 0

    @property
    def capacity(self) -> int:
        return int(self.meta[kc.M_CAPACITY])

    @property
    def bytes_per_entry(self) -> int:
        return 8 * int(self.meta[kc.M_WPE])

    @property
    def bytes_allocated(self) -> int:
        return int(self.table.nbytes)

    def stats(self, counters: Sequence[int] | None = None) -> dict:
        """Table facts plus the reading counters ``counters`` (probes, hits,
        stores, replacements, collisions), if given."""
        out = {
            "scheme": self.scheme,
            "cache_mb": self.budget_mb,
            "hash_bits": self.hash_bits,
            "policy": self.policy,
            "capacity": self.capacity,
            "bytes_per_entry": self.bytes_per_entry,
            "bytes_allocated": self.bytes_allocated,
            "entries_in_use": int(kc.entries_in_use(self.table, self.meta)),
        }
        if counters is not None:
            probes, hits, stores, replacements, collisions = (int(x) for x in counters)
            out.update(
                probes=probes,
                hits=hits,
                misses=probes - hits,
                stores=stores,
                replacements=replacements,
                collisions=collisions,
            )
        return out
