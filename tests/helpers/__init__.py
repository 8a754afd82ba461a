"""Helpers shared by the tests: paths to data, ASCII diagrams, the reference
board, reading-question scripts, GNU Go."""
