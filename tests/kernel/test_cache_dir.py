"""Where numba's cache goes (``gogame.kernel.cache_dir``): outside the
package, in a folder named after a hash of the kernel sources."""

import os
import pathlib
import shutil

import pytest

from gogame import kernel


def test_the_cache_is_outside_the_package():
    package = pathlib.Path(kernel.__file__).resolve().parent.parent
    assert not pathlib.Path(kernel.CACHE_DIR).resolve().is_relative_to(package)
    assert os.path.basename(kernel.CACHE_DIR) == "gogame-" + kernel.source_key()


def test_the_key_changes_with_any_kernel_source(tmp_path, monkeypatch):
    copy = tmp_path / "kernel"
    shutil.copytree(
        pathlib.Path(kernel.__file__).parent, copy, ignore=shutil.ignore_patterns("__pycache__")
    )
    monkeypatch.setattr(kernel, "_HERE", copy)
    before = kernel.source_key()
    assert before == kernel.source_key()
    init = copy / "__init__.py"  # compiles nothing: an edit keeps the cache
    init.write_text(init.read_text() + "\n# a comment\n")
    assert kernel.source_key() == before
    board = copy / "board.py"
    board.write_text(board.read_text() + "\n# a changed callee\n")
    assert kernel.source_key() != before


def test_numba_cache_dir_is_honoured(tmp_path, monkeypatch):
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    path = kernel.cache_dir()
    assert path == str(tmp_path / ("gogame-" + kernel.source_key()))
    monkeypatch.setenv("NUMBA_CACHE_DIR", path)  # a child process sees its parent's choice
    assert kernel.cache_dir() == path


def test_the_per_user_folder_by_default(tmp_path, monkeypatch):
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert kernel.cache_dir() == str(
        tmp_path / "gogame" / "numba" / ("gogame-" + kernel.source_key())
    )


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere")
def test_an_unwritable_home_falls_back_to_the_temporary_folder(tmp_path, monkeypatch):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o500)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(locked))
    assert not kernel.cache_dir().startswith(str(locked))


def test_an_unwritable_folder_is_not_chosen(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(blocker))
    assert not kernel.cache_dir().startswith(str(blocker))


def test_cached_names_the_compiled_entry_points(tmp_path, monkeypatch):
    monkeypatch.setattr(kernel, "CACHE_DIR", str(tmp_path))
    assert kernel.cache_is_cold()
    assert not kernel.cached("reading.read_rows")
    folder = tmp_path / "kernel_0123"
    folder.mkdir()
    (folder / "reading.read_rows-1299.py311.nbi").write_bytes(b"")
    assert not kernel.cache_is_cold()
    assert kernel.cached("reading.read_rows")
    assert not kernel.cached("reading.read_rows", "playout.search")


def test_skip_optional_probes_leaves_scipy_and_cffi_importable():
    """In a fresh process: numba's registries load without importing
    scipy.linalg or cffi, the board kernel works, and both import after."""
    import subprocess
    import sys

    code = """
import sys
from gogame import kernel
kernel.skip_optional_probes()
assert "numba.np.arraymath" in sys.modules and "scipy.linalg" not in sys.modules
assert "cffi" not in sys.modules and "pycparser" not in sys.modules
assert all(name not in sys.modules for name in kernel._PROBES)
from gogame.core.position import Position
p = Position(9); p.play("E5", "b"); assert p.countlib("E5") == 4
import importlib.util
if importlib.util.find_spec("cffi") is not None:  # installed: it imports again
    import cffi
    cffi.FFI()
try:
    import scipy
except ImportError:
    print("no scipy"); raise SystemExit(0)
import scipy.linalg.cython_blas
print("scipy", scipy.__version__)
"""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(("scipy", "no scipy"))
