"""Tactical reading for Python callers: attack, defend, ladders, with ko codes.

``Reader`` holds the reading settings (depths, node limit), the counters and
scratch arrays; every query takes the ``Position`` to read and a string given
by any of its stones.  Answers use GNU Go's GTP codes: 0 fails, 1 WIN, 2 KO_A
(wins a ko this side takes first), 3 KO_B (wins only a ko that needs a
threat); moves are (row, col), or None for a success that needs no move
(printed PASS).  The position is unchanged after every query.
"""


class Reader:
    """Reading settings and counters (API being implemented)."""

    def __init__(self, level=10, node_limit=0):
        self.level = level
        self.depth_offset = 0        # increase_depths / decrease_depths
        self.node_limit = node_limit
        self.nodes = 0               # reading nodes (routines entered after a cache miss)
        self.trymoves = 0

    def attack(self, position, pt):
        """-> (code, move): can the string at ``pt`` be captured, attacker first?"""
        raise NotImplementedError

    def find_defense(self, position, pt):
        """-> (code, move): can the string at ``pt`` be saved, owner first?"""
        raise NotImplementedError

    def ladder_attack(self, position, pt):
        """-> (code, move): can the string be captured in a ladder (atari chase)?"""
        raise NotImplementedError

    def does_attack(self, position, pt, move):
        """-> code: does the attacker's ``move`` capture the string?"""
        raise NotImplementedError

    def does_defend(self, position, pt, move):
        """-> code: does the owner's ``move`` save the string?"""
        raise NotImplementedError
