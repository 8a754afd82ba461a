"""GNU Go 3.8, the oracle of several tests, where it is installed."""

import os

import pytest

GNUGO = "/usr/games/gnugo"
HAVE_GNUGO = os.access(GNUGO, os.X_OK)

# The marks of a test that runs GNU Go: the ``gnugo`` marker, and a skip
# where it is not installed (``pytestmark = GNUGO_MARKS`` for a module).
GNUGO_MARKS = [pytest.mark.gnugo, pytest.mark.skipif(not HAVE_GNUGO, reason="GNU Go not installed")]


def needs_gnugo(test):
    """Decorator: GNUGO_MARKS on one test."""
    for mark in GNUGO_MARKS:
        test = mark(test)
    return test
