"""Sabaki's client library against ``gogame gtp``: runs tests/node/sabaki.test.js
(attach, pipelined sync with undo, a whole 7x7 game, lz-analyze stopped by
protocol_version).  Skips when node or tests/node/node_modules (``npm
install`` there; .ci/run does it) is missing."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NODE_DIR = os.path.join(ROOT, "tests", "node")


def test_sabaki_client_drives_the_engine():
    node = shutil.which("node")
    if node is None:
        pytest.skip("node not installed")
    if not os.path.isdir(os.path.join(NODE_DIR, "node_modules", "@sabaki", "gtp")):
        pytest.skip("@sabaki/gtp not installed (npm install in tests/node)")
    env = dict(os.environ, GOGAME_PYTHON=sys.executable, GOGAME_ROOT=ROOT)
    run = subprocess.run([node, "sabaki.test.js"], cwd=NODE_DIR, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    for check in ("attach: ok", "sync with undo: ok", "full game:",
                  "lz-analyze stopped by protocol_version"):
        assert check in run.stdout
