"""Tactical reading for Python callers: attack, defend, ladders, with ko codes.

``Reader`` holds the reading settings (depths, node limit), the counters and
scratch arrays; every query takes the ``Position`` to read.  Answers use GNU
Go's GTP codes: 0 fails, 1 WIN, 2 KO_A (wins a ko this side takes first),
3 KO_B (wins only a ko that needs a threat); moves are (row, col) or None
(a success without a needed move, printed PASS).  The position is unchanged
after every query.
"""
UNDER CONSTRUCTION
