"""The numba kernel: arrays in, codes out, no Python objects.

Modules: ``layout`` (the state array and the padded 1-D geometry),
``zobrist`` (the two key tables and from-scratch hashing), ``board``
(strings, captures, ko, trymove/popgo through the change stack), ``cache``
(the reading cache; ``pages`` allocates its table on huge-page
boundaries), ``reading`` (attack and defence), ``abdada`` (the
currently-searching table of parallel reading), ``playout`` (the player).

The board, cache, reading and ABDADA functions are compiled with
``_nrt=False``: they allocate nothing, and without numba's reference
counting every array argument and slice no longer costs an atomic
increment and decrement of the array's meminfo -- 28 % of the reading time
before (perf on reading.tst), 1.3-1.4x faster after.  ``playout``
allocates, so it keeps the runtime.
"""
