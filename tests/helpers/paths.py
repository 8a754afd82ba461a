"""Paths to the checkout and to data.

Third-party data lives in ../shared beside the checkout and is never copied
into the repo; tests that need it skip cleanly when it is absent.
"""

import importlib.util
import pathlib

import pytest

TESTS = pathlib.Path(__file__).resolve().parent.parent
ROOT = TESTS.parent
SHARED = ROOT.parent / "shared"


def shared_path(*parts):
    """A path under ../shared, or skip the test when it is not there."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} not present")
    return path


def project_games():
    """The games in the repo's sgf/ folder (not sgf/matches), sorted."""
    return sorted((ROOT / "sgf").glob("*.sgf"))


def load_script(name):
    """The module of ``scripts/NAME.py``, loaded from the checkout (the
    scripts are not a package)."""
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
