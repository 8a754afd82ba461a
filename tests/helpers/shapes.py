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


# reading.tst 54 (reading02.sgf) after Black's H2 and White's J2: Black's
# E2 string (liberties D2, F1) races the white C2 string (liberties C1,
# D2) and D1; Black's atari at C1 is a self-atari (its one liberty B1)
# until B1 fills in first.  Black's A2 group does not race C2.
CHAIN_BACKFILL = """
. . . . . . . . .
. . . . . . . . .
. . . . . . . O O
X X . . . . . O .
. X . . . . . O O
X X X X X X . O .
. X O O O X X O O
X X O . X O O X O
. . . O X . . . .
"""

# White's lone F9 on the edge; Black's D9-D8 (three liberties) touches
# White's E8, which shares two liberties with F9.  White's D7 blocks its
# one escape (the mined gnugo-l2-19x19-s1902-m070-H19 after F19, G18 and
# F18, cut to 9x9): tests/core/test_reader.py and test_prover.py.
FRIEND_THREE = """
. . . X . O . . .
. . O X O . X . .
X X O . X . . X .
. O O . . . . . .
O . . . . . . . .
X O . . . . X . .
X O . O . . . . .
X X O . . . . . .
. X . . . . . . .
"""

# White's H6-H7-J7-J8-J9-H9 (liberties G9 and H8); its friend F8-G8 touches
# both.  Black's E8-E9-F9 (liberties D9, E7, G9) escapes at E7 alone, and
# White's block there takes D7 (a ko): the mined
# olympiad2003-gnugo_vs_neurogo-m250-H16 (proven 3 E17), cut to 9x9.
FRIEND_THREE_CAPTURE = """
. . . . X X . O O
. . O O X O O . O
. . O X . X X O O
. . O O X . X O X
. . O X . X . X X
. O X . X X . X .
. O X X X . X . X
. . X X O O . X .
. X . O . . . X .
"""

# White's D9 string has two liberties: E9, its eye, and G9, where either
# side's stone is a self-atari (Black's joins H9, one liberty J9).  Black's
# C9 string around it has four liberties (B9, B8, B7 and J9) and White's
# wall holds it: White must shorten it first to win the race (9x9).
RACE_FOUR = """
O . X O . O . X .
O . X O O O O O X
O . X X X X X X X
O O O O O O O O O
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
. . . . . . . . .
"""

# A held-out mined game (gogame-vs-gnugo-l6-19x19-s7502 after move 90 and
# P19 J18 K19 J15), its top edge shifted to columns A-L: White's target
# E10-F10-F9-G9-H9-F8 has three liberties (E11, F11, G10) and races
# Black's C9-C8-D8-E8-E9 (B9, D9); White's C10 touches that neighbour
# with two liberties, B10 and C11. Black's B10 ataris it with no escape
# (White's C11 leaves one liberty): the race atari (11x11).
RACE_ATARI = """
. . . X . . . O X . .
. . O X O O . X . X .
O . X . X O O O X X .
. O X X X O X X O O O
X O O O O X X X . X .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
. . . . . . . . . . .
"""

# White's lone A3 (liberties A4, A2): Black filling A4 would join A5 with
# two liberties, B4 and B5; filling A2 would have A1 alone. White's B5
# (or B4, A1) makes the fill a self-atari: the answers to the fill, as a
# held-out game's proven B8 (7x7).
FILL_ANSWER = """
. O X X X . .
O X X . X . .
X . . X . . .
. . . X X . .
O X X O . . .
. O O . . . .
. . . . . . .
"""

# A held-out 9x9 game (gnugo-l10-9x9-s8024 after move 25 and G5 H5 G4 H3
# G2 H2 H1 F2 G1 J2 J3, White to attack): Black's G6-H6-H5-J5-H4-H3-H2-J2
# has two liberties, J4, where a white stone would join J3 with no
# liberty and take nothing (an eye), and J1, which it shares with
# White's G5-G4-G3-G2-G1-H1 (liberties F3, F1, J1). White captures only
# by filling J1, so Black wins the race by filling F3 or F1 first: an eye
# race; the proof's F3 (9x9).
EYE_RACE = """
. . . . . . . . .
. . . . . . . . .
. . . . . O O O O
. . O . . O X X O
O . O O X X O X X
X O . X . X O X .
X X X . . . O X O
. . . . X X O X X
. . . . . . O O .
"""

# A held-out 9x9 game (gogame-vs-gnugo-l5-9x9-s8106 after move 60 and F2,
# then Black's J1, which took H1 in a ko), White to attack: Black's
# G1-G2-H2-G3-H3-F3-G4 has two liberties, F1 and H1.  A white stone on F1
# would be a suicide, which ties the target to Black's C2-D2-E2-D1-E1-D3
# (liberties C1, F1); on C1 too, which ties that one to B1 (A1, C1).
# The superstring's one liberty White can fill is A1: GNU Go's proven
# `2 A1` (9x9; the set-up position has no ko point).
SUPERSTRING = """
. . . X . X X . .
. . O X . X . X .
. X X . . . X . .
. X O X X . X O .
. . . . X X O O .
. O O O O O X O O
O . O X O X X X O
O O X X X O X X O
. X . X X . X . X
"""
