"""The kernel indexes its arrays through ``ix`` (``kernel/layout.py``): in
every ``@njit`` function of ``gogame/kernel``, an index that reads a
variable is written ``ix(...)``, so that numba emits no check for a
negative index.  This test reads the sources; a new ``s[COLOR + p]`` in a
kernel fails it."""

import ast
from pathlib import Path

import pytest

import gogame.kernel

KERNEL = Path(gogame.kernel.__file__).parent
MODULES = sorted(p.name for p in KERNEL.glob("*.py"))


def _njit_functions(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef):
            for d in node.decorator_list:
                f = d.func if isinstance(d, ast.Call) else d
                if getattr(f, "id", getattr(f, "attr", None)) in ("njit", "typed"):
                    yield node
                    break


def _variable(node: ast.AST) -> bool:
    """Does the index read a variable?  Upper-case names (``COLOR``) and a
    module's upper-case attributes (``kc.S_HITS``) are constants."""
    if isinstance(node, ast.Attribute) and node.attr.isupper():
        return False
    if isinstance(node, ast.Name):
        return not node.id.isupper()
    return any(_variable(child) for child in ast.iter_child_nodes(node))


def _wrapped(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and getattr(node.func, "id", None) == "ix"


def unwrapped_indices(source: str) -> list[tuple[int, str]]:
    """(line, subscript) of each variable index, in an ``@njit`` function,
    that is not wrapped in ``ix``."""
    found = []
    for function in _njit_functions(ast.parse(source)):
        for node in ast.walk(function):
            if not isinstance(node, ast.Subscript):
                continue
            parts = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
            for part in parts:
                if isinstance(part, ast.Slice) or _wrapped(part) or not _variable(part):
                    continue
                found.append((node.lineno, ast.unparse(node)))
    return found


def test_the_check_finds_a_plain_index():
    source = (
        "@njit(cache=True)\n"
        "def f(s, mv, p, k):\n"
        "    return s[COLOR + p] + s[ix(COLOR + p)] + s[H_W] + s[kc.S_HITS] + mv[ix(k), 3]"
        " + mv[k, 3] + s[1:p].sum()\n"
        "def python_side(rows, k):\n"
        "    return rows[k]\n"
    )
    assert sorted(unwrapped_indices(source)) == [(3, "mv[k, 3]"), (3, "s[COLOR + p]")]


@pytest.mark.parametrize("module", MODULES)
def test_variable_indices_go_through_ix(module):
    assert unwrapped_indices((KERNEL / module).read_text()) == []
