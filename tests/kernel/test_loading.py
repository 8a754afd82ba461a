"""Kernels loaded from numba's cache without numba's compiler registries
(``gogame.kernel.loading``), and other packages' functions loaded as usual."""

import os
import subprocess
import sys
import textwrap

import pytest
from numba.core import caching

from gogame.kernel import loading

# a fresh process on the warm cache this test session's kernels fill
READ = """
import sys
from gogame.core.position import Position
from gogame.core.reader import Reader
from gogame.core.reading_cache import ReadingCache
p = Position(9)
for v, c in (("E5", "b"), ("E4", "w"), ("D5", "w"), ("F5", "w")):
    p.play(v, c)
print(Reader(cache=ReadingCache(1)).attack(p, "E5")[0])
print("numba.np.arraymath" in sys.modules)
from numba.core.runtime import rtsys
print(rtsys._init)  # the NRT: set up for the playouts only
"""
#   . W .      Black's E5 has one liberty, E6: attack answers 1.
#   W B W
#   . W .


def _fresh(code, **kw):
    run = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        timeout=600,
        **kw,
    )
    assert run.returncode == 0, run.stderr
    return run.stdout.split()


def test_installed_over_numba_s_loader():
    assert loading.INSTALLED
    assert caching.Cache.load_overload is loading._load_overload


def test_a_warm_process_reads_without_the_registries():
    _fresh(READ)  # the first process may compile; the second one loads
    answer, registries, nrt = _fresh(READ)
    assert answer == "1"
    assert registries == "False"
    assert nrt == "False"


def test_other_packages_load_the_usual_way(tmp_path):
    """A function of another module, cached, loads through numba's own
    loader: the registries are installed first."""
    (tmp_path / "other.py").write_text(
        "from numba import njit\n\n@njit(cache=True)\ndef twice(x):\n    return 2 * x\n"
    )
    code = """
    import sys
    import gogame.kernel.loading  # installed; numba's cache is gogame's folder
    import other
    print(other.twice(21), "numba.np.arraymath" in sys.modules)
    """
    env = dict(os.environ, PYTHONPATH=str(tmp_path))
    _fresh(code, env=env, cwd=tmp_path)  # compiles
    assert _fresh(code, env=env, cwd=tmp_path) == ["42", "True"]


def _kernel_modules():
    import gogame.kernel as package

    folder = os.path.dirname(package.__file__)
    names = sorted(f[:-3] for f in os.listdir(folder) if f.endswith(".py") and f != "__init__.py")
    return folder, [f"gogame.kernel.{n}" for n in names]


def test_only_the_nrt_modules_allocate():
    """A kernel outside ``loading.NRT_MODULES`` is loaded without the NRT,
    so each is compiled with ``_nrt=False`` ..."""
    import importlib

    from numba.core.registry import CPUDispatcher

    checked = 0
    for name in _kernel_modules()[1]:
        module = importlib.import_module(name)
        for value in vars(module).values():
            if isinstance(value, CPUDispatcher) and value.__module__ == name:
                checked += 1
                if name not in loading.NRT_MODULES:
                    assert value.targetoptions.get("_nrt") is False, (name, value.__name__)
    assert checked > 100


def test_no_kernel_without_the_nrt_imports_one_with_it():
    """... and calls none that allocates (its library would link that
    code in): no such module imports an NRT module."""
    import ast

    folder, names = _kernel_modules()
    nrt = {m.rpartition(".")[2] for m in loading.NRT_MODULES}
    for name in names:
        if name in loading.NRT_MODULES:
            continue
        path = os.path.join(folder, name.rpartition(".")[2] + ".py")
        tree = ast.parse(open(path).read())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                imported = {node.module or ""} | {a.name for a in node.names}
            elif isinstance(node, ast.Import):
                imported = {a.name for a in node.names}
            else:
                continue
            leaves = {i.rpartition(".")[2] for i in imported}
            assert not leaves & nrt, (name, leaves & nrt)


def test_a_typed_helper_keeps_one_signature():
    """``loading.typed``: a caller passing int32 and literal integers, and
    a call from Python with other integer types, leave the one declared
    signature (numba casts the arguments) instead of compiling more."""
    import numpy as np
    from numba import njit

    from gogame.core.position import Position
    from gogame.kernel import board

    @njit(cache=False, _nrt=False)
    def caller(s, p):
        return board.libs_after(s, p, 1, 6) + board.libs_after(s, np.int32(p), np.int32(2), 3)

    pos = Position(5)
    p = pos.pos("C3")
    assert caller(pos.s, np.int32(p)) == 4 + 3  # four liberties; the second caps at 3
    assert board.libs_after(pos.s, np.int16(p), np.uint8(1), 6) == 4
    signatures = board.libs_after.signatures
    assert [str(sig) for sig in signatures] == [
        "(Array(int32, 1, 'C', False, aligned=True), int64, int64, int64)"
    ]
    assert not board.libs_after._can_compile


def test_typed_is_njit_with_the_signature_on_another_numba(monkeypatch):
    """Without the dispatcher methods ``typed`` replaces, the signature is
    made at once, as ``njit(sig)`` makes it."""
    monkeypatch.setattr(loading, "_SEALED", ("a_method_numba_lacks",))

    @loading.typed("(int64,)", _nrt=False)
    def twice(x):
        return 2 * x

    assert len(twice.signatures) == 1 and twice(21) == 42


class _Locator:
    """A stand-in for numba's cache locator: its folder, and its checks."""

    def __init__(self, path):
        self.path = str(path)

    def get_cache_path(self):
        return self.path


def test_each_cache_folder_is_checked_once(monkeypatch, tmp_path):
    """numba checks its cache folder (made, then a file written there) for
    every function it decorates; once per folder is enough, and a folder
    that went away is checked (made) again."""
    assert caching._CacheLocator.ensure_cache_path is loading._ensure_cache_path
    checked = []
    monkeypatch.setattr(loading, "_checked_paths", set())
    monkeypatch.setattr(loading, "_numba_ensure", lambda self: checked.append(self.path))
    a, b = _Locator(tmp_path / "a"), _Locator(tmp_path / "b")
    os.makedirs(a.path)
    os.makedirs(b.path)
    for locator in (a, a, b, a, b):
        loading._ensure_cache_path(locator)
    assert checked == [a.path, b.path]
    os.rmdir(a.path)
    loading._ensure_cache_path(a)
    assert checked == [a.path, b.path, a.path]


def test_a_folder_numba_cannot_use_is_not_trusted(monkeypatch, tmp_path):
    """A failed check raises as numba's does (its locator then gives up
    the folder) and is not remembered as passed."""

    def refuse(self):
        raise PermissionError(self.path)

    monkeypatch.setattr(loading, "_checked_paths", set())
    monkeypatch.setattr(loading, "_numba_ensure", refuse)
    locator = _Locator(tmp_path)
    for _ in range(2):
        with pytest.raises(PermissionError):
            loading._ensure_cache_path(locator)
    assert loading._checked_paths == set()
