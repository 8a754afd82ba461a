"""Sabaki's client library against ``gogame gtp``: runs tests/node/sabaki.test.js
(attach, pipelined sync with undo, a whole 7x7 game, lz-analyze stopped by
protocol_version).  Skips when node or tests/node/node_modules (``npm
install`` there; .ci/run does it) is missing."""

import os
import shutil
import subprocess
import sys

import pytest

from tests.helpers.paths import ROOT, TESTS

NODE_DIR = TESTS / "node"


@pytest.mark.slow
def test_sabaki_client_drives_the_engine():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    if not (NODE_DIR / "node_modules" / "@sabaki" / "gtp").is_dir():
        pytest.skip("@sabaki/gtp not installed (npm install in tests/node)")
    env = dict(os.environ, GOGAME_PYTHON=sys.executable, GOGAME_ROOT=str(ROOT))
    run = subprocess.run(
        [node, "sabaki.test.js"], cwd=NODE_DIR, env=env, capture_output=True, text=True, timeout=600
    )
    assert run.returncode == 0, run.stdout + run.stderr
    for check in (
        "attach: ok",
        "sync with undo: ok",
        "full game:",
        "lz-analyze stopped by protocol_version",
    ):
        assert check in run.stdout
