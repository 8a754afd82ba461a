"""Fixtures shared by every test folder.  Plain helpers (paths, diagrams,
the reference board, question scripts, GNU Go) live in tests/helpers/ and
are imported as ``tests.helpers.<module>``."""

import pytest

from tests.helpers.paths import shared_path


@pytest.fixture(scope="session")
def reading_tst():
    """GNU Go's regress/reading.tst in ../shared (the test skips without it)."""
    return shared_path("regress", "gnugo", "reading.tst")


@pytest.fixture(scope="session")
def gnugo_regress():
    """GNU Go's regress/ folder in ../shared: .tst files and games/."""
    return shared_path("regress", "gnugo")
