"""Diagrams that several test files share (tests/helpers/diagrams.py parses
them)."""

# Black 'a' = (2, 2) takes the white stone at (2, 1) and is left with that
# single liberty: a ko, with the ko point at (2, 1).
KO4 = """
    . X O .
    X O a O
    . X O .
    . . . .
"""
# The same stones after the ko capture, set up quietly: no ko point.
KO4_TAKEN = """
    . X O .
    X . X O
    . X O .
    . . . .
"""

# White C4 in atari; black D4 takes it and makes a ko (7x7).
KO_POSITION = """
. . . . . . .
. . . . . . .
. . X O . . .
. X O . O . .
. . X O . . .
. . . . . . .
. . . . . . .
"""

# White E4-E3, two liberties (E5, F4), caught in a ladder (9x9).
LADDER = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . X O . . . .
. . . X O X . . .
. . . . X . . . .
. . . . . . . . .
"""

# White has just taken the ko at B3: C3 is the point where black would
# retake (SGF IL[cc] marks it illegal for black), 5x5.
KO5 = """
. . . . .
. X O . .
X O . O .
. X O . .
. . . . .
"""

# Several weak strings of both colours on 9x9: some can be captured, some
# saved (the capturable-strings gfx and the player's tactical priors).
WEAK_STRINGS = """
    . . . . . . . . .
    . X O . . . . . .
    . O X X O . . . .
    . . O X O . . . .
    . . . O . . X . .
    . . . . . . O X .
    . . X . . . . O .
    . . . . . . . . .
    . . . . . . . . .
"""
