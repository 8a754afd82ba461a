"""Installing as a new user does: a venv, ``pip install .``, a command that
compiles kernels, then ``pip install -e .`` over it, then ``gogame
--version`` from another folder.

numba's cache must land in the per-user cache folder, never inside
site-packages: files left there once turned the reinstalled package into
a namespace package without ``__init__.py`` that shadowed the editable
install.  The venv sees the system's packages (numpy, numba, sgfmill,
pygtp); pip fetches only the build backend, as it does for a user.
"""

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
GAME = ROOT / "sgf" / "gnugo-l1-9x9-s101.sgf"

pytestmark = pytest.mark.slow


def _run(argv, cwd, env):
    out = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=900)
    assert out.returncode == 0, f"{argv}: {out.returncode}\n{out.stdout}\n{out.stderr}"
    return out.stdout


def _site_packages(venv):
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    return pathlib.Path(
        subprocess.check_output([venv / "bin" / "python", "-c", code], text=True).strip()
    )


def test_reinstall_leaves_a_working_gogame(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "PYTHONPATH")}
    env["XDG_CACHE_HOME"] = str(tmp_path / "cache")
    pip = [
        venv / "bin" / "python",
        "-m",
        "pip",
        "install",
        "-q",
        "--no-deps",
        "--disable-pip-version-check",
    ]
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()

    _run([*pip, str(ROOT)], elsewhere, env)
    _run([venv / "bin" / "gogame", "replay", "--moves", "10", str(GAME)], elsewhere, env)
    installed = _site_packages(venv) / "gogame"
    assert (installed / "__init__.py").exists()
    assert (installed / "play" / "data" / "patterns3x3.txt").exists(), "package data missing"
    assert not list(installed.rglob("*.nb[ic]")), "numba wrote its cache into site-packages"
    assert list((tmp_path / "cache" / "gogame" / "numba").rglob("*.nbi"))

    _run([*pip, "-e", str(ROOT)], elsewhere, env)
    assert not installed.exists(), "the old install left a folder behind"
    assert _run([venv / "bin" / "gogame", "--version"], elsewhere, env).startswith("gogame ")
    assert _run([venv / "bin" / "python", "-m", "gogame", "--version"], elsewhere, env)
