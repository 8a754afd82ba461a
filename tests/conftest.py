"""Shared test set-up: tests/ on sys.path (for refboard), paths to data.

Third-party data lives in ../shared beside the checkout and is never copied
into the repo; tests that need it skip cleanly when it is absent.
"""
import pathlib
import sys

import pytest

TESTS = pathlib.Path(__file__).parent
ROOT = TESTS.parent
SHARED = ROOT.parent / "shared"
sys.path.insert(0, str(TESTS))


def shared_path(*parts):
    """A path under ../shared, or skip the test when it is not there."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present")
    return path


def project_games():
    return sorted((ROOT / "sgf").glob("*.sgf"))
