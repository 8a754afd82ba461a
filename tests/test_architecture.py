"""The package layers: imports point down only, and no module imports
itself back through others.

Layers, bottom first: ``kernel`` (numba), ``core`` (Position, Reader,
ReadingCache, SGF, coords, options), ``play`` (the session and the
player), ``gtp`` (the protocol and its command groups), ``tools``
(replay, compare, regress, bench, jobs), then ``cli``.  The package root
holds only ``__version__`` and may be imported from anywhere.  Imports
inside functions count: a lazy import is still a dependency.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent / "gogame"
LAYERS = {"kernel": 1, "core": 2, "play": 3, "gtp": 4, "tools": 5, "cli": 6, "__main__": 6}


def _modules():
    """module name -> (path, is_package) for every module of gogame."""
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        out[".".join(parts)] = (path, package)
    return out


MODULES = _modules()


def _imports(name, top_only=False):
    """The gogame modules that module ``name`` imports, anywhere in it (or
    at module level only)."""
    path, package = MODULES[name]
    base = name if package else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(), str(path))
    found = set()
    for node in tree.body if top_only else ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "gogame")
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = base.split(".")
                parts = parts[: len(parts) - node.level + 1]
                target = ".".join(parts + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != "gogame":
                continue
            for alias in node.names:
                sub = f"{target}.{alias.name}"
                found.add(sub if sub in MODULES else target)
    found.discard(name)
    return found


GRAPH = {name: _imports(name) for name in MODULES}


def layer(name):
    """The layer of a module: 0 for the package root."""
    parts = name.split(".")
    return 0 if len(parts) == 1 else LAYERS[parts[1]]


def test_every_module_has_a_layer():
    for name in MODULES:
        assert layer(name) >= 0, name
    assert len({name.split(".")[1] for name in MODULES if "." in name} - {"cli", "__main__"}) >= 4


@pytest.mark.parametrize("name", sorted(MODULES))
def test_imports_point_down(name):
    up = [t for t in GRAPH[name] if layer(t) > layer(name)]
    assert not up, f"{name} (layer {layer(name)}) imports upward: {up}"


def _cycle():
    """One import cycle as a list of modules, or None."""
    state = {}

    def visit(node, stack):
        state[node] = 1
        stack.append(node)
        for nxt in sorted(GRAPH[node]):
            if nxt not in GRAPH:
                continue
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt, stack)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(GRAPH):
        if node not in state:
            found = visit(node, [])
            if found:
                return found
    return None


def test_no_import_cycle():
    assert _cycle() is None, " -> ".join(_cycle())


def test_the_cycle_finder_finds_a_cycle():
    saved = dict(GRAPH)
    try:
        GRAPH["gogame.core.coords"] = GRAPH["gogame.core.coords"] | {"gogame.core.position"}
        GRAPH["gogame.core.position"] = GRAPH["gogame.core.position"] | {"gogame.core.coords"}
        assert _cycle() is not None
    finally:
        GRAPH.clear()
        GRAPH.update(saved)


def test_the_protocol_knows_nothing_of_the_engine():
    assert GRAPH["gogame.gtp.protocol"] == set()


def test_the_kernel_imports_only_the_kernel():
    for name in MODULES:
        if layer(name) == 1:
            assert all(layer(t) == 1 for t in GRAPH[name]), name


def test_light_modules_do_not_load_numba():
    """The CLI parses options before numba loads: what it imports at start-up
    (module-level imports, followed through gogame) must not import numba,
    nor numpy, so that ``gogame --version`` and GTP's first answers come at
    once."""
    seen, todo = set(), ["gogame.cli", "gogame.gtp.server", "gogame.tools.compare"]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        tree = ast.parse(MODULES[name][0].read_text())
        for node in tree.body:
            if isinstance(node, ast.Import | ast.ImportFrom):
                mods = (
                    [a.name for a in node.names]
                    if isinstance(node, ast.Import)
                    else [node.module or ""]
                )
                assert not any(m.split(".")[0] in ("numba", "numpy") for m in mods), name
        todo.extend(_imports(name, top_only=True))
    assert "gogame.core.options" in seen


MAX_FUNCTION_LINES = 80


def test_functions_fit_on_a_screen():
    """No function in gogame/ is longer than 80 lines (decorators excluded)."""
    long = []
    for name, (path, _) in MODULES.items():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = node.end_lineno - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{name}.{node.name}: {lines} lines")
    assert not long, long
