"""The reading cache for Python callers: a byte budget, a scheme, statistics.

``ReadingCache(budget_mb, scheme, hash_bits)`` owns the kernel table and its
meta array (see ``gogame.kernel.cache`` for layouts and the replacement
policy).  The table is laid out for one board size; ``for_size`` re-lays it
(empty) when the size changes.  A budget of 0 disables caching.  Statistics
are counted per reader (thread) and summed by the caller; ``stats`` adds
what the table itself knows (capacity, bytes, entries in use).
"""
from .kernel import cache as kc

SCHEME_NAMES = tuple(kc.SCHEMES)


def parse_budget(text):
    """A cache size in MB: a finite float >= 0 and at most 65536 (ValueError)."""
    mb = float(text)
    if not (mb >= 0 and mb <= 65536):
        raise ValueError(f"cache size must be between 0 and 65536 MB, not {text}")
    return mb


class ReadingCache:
    def __init__(self, budget_mb=8.0, scheme="double", hash_bits=64, size=19):
        if scheme not in kc.SCHEMES:
            raise ValueError(f"unknown hash scheme {scheme!r} (double, full, single)")
        if not 1 <= int(hash_bits) <= 64:
            raise ValueError("hash bits must be 1..64")
        self.budget_mb = parse_budget(budget_mb)
        self.scheme = scheme
        self.hash_bits = int(hash_bits)
        self.size = None
        self.for_size(size)

    @property
    def budget_bytes(self):
        return int(self.budget_mb * 2**20)

    def for_size(self, size):
        """Make the table fit boards of ``size`` (cleared if it changes)."""
        if size != self.size:
            self.size = size
            self.table, self.meta = kc.new_cache(self.budget_bytes, kc.SCHEMES[self.scheme],
                                                 size, self.hash_bits)
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
               "capacity": self.capacity, "bytes_per_entry": self.bytes_per_entry,
               "bytes_allocated": self.bytes_allocated,
               "entries_in_use": int(kc.entries_in_use(self.table, self.meta))}
        if counters is not None:
            probes, hits, stores, replacements, collisions = (int(x) for x in counters)
            out.update(probes=probes, hits=hits, misses=probes - hits, stores=stores,
                       replacements=replacements, collisions=collisions)
        return out
