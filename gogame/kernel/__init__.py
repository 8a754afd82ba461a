"""The numba kernel: arrays in, codes out, no Python objects.

Modules: ``layout`` (the state array and the padded 1-D geometry),
``zobrist`` (the two key tables and from-scratch hashing), ``board``
(strings, captures, ko, trymove/popgo through the change stack).
"""
