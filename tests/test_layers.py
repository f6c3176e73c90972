"""fasturi's modules import one another one way: the graph of their imports
(every import statement, at module level or in a function, and every
cimport of the .pyx files, which imports that module when it loads) has no
cycle.  Lower layers never reach up: ``_types`` and ``_errors`` import no
fasturi module, the twins never import the module that chooses them
(``_impl``), and ``_audit`` takes the twins it reads with from its caller.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import fasturi

# The sources (an installed package has no .pyx files beside its modules).
SRC = Path(__file__).resolve().parent.parent / "src" / "fasturi"
if not SRC.is_dir():
    SRC = Path(fasturi.__file__).parent
PACKAGE = "fasturi"


def _modules() -> dict[str, Path]:
    """Each module of the package by name (``fasturi`` for its __init__)."""
    found = {}
    for path in sorted([*SRC.glob("*.py"), *SRC.glob("*.pyx")]):
        name = PACKAGE if path.stem == "__init__" else f"{PACKAGE}.{path.stem}"
        found[name] = path
    return found


def _imported(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The package's modules that module ``name`` imports."""
    targets: set[str] = set()

    def add(dotted: str, names: list[str]) -> None:
        # "from fasturi import _x" names a module; "from fasturi._x import y" its module
        for n in names:
            if f"{dotted}.{n}" in modules:
                targets.add(f"{dotted}.{n}")
        if dotted in modules and (dotted != PACKAGE or not names):
            targets.add(dotted)

    text = path.read_text("utf-8")
    if path.suffix == ".py":
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.ImportFrom):
                base = PACKAGE if node.level else ""
                dotted = ".".join(p for p in (base, node.module or "") if p)
                if node.level > 1:
                    raise AssertionError(f"{name}: a relative import beyond the package")
                if dotted.split(".")[0] == PACKAGE:
                    add(dotted, [a.name for a in node.names])
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.split(".")[0] == PACKAGE:
                        add(alias.name, [])
    else:  # Cython: "from fasturi._x cimport y", "from fasturi import _x", "cimport fasturi._x"
        # (the names: a parenthesized list over lines, else the rest of the line)
        for m in re.finditer(r"^\s*from\s+([\w.]+)\s+c?import\s+(\([^)]*\)|[^\n#]*)", text, re.M):
            if m.group(1).split(".")[0] == PACKAGE:
                names = m.group(2).strip("()").split(",")
                add(m.group(1), [n.split()[0] for n in names if n.strip()])
        for m in re.finditer(r"^\s*c?import\s+(fasturi[\w.]*)", text, re.M):
            add(m.group(1), [])
    targets.discard(name)
    return targets


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: _imported(name, path, modules) for name, path in modules.items()}


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_cycle():
    assert _cycles(_graph()) == []


def test_the_graph_is_read_whole():
    # the reading above finds the imports it must (a parser that found none
    # would find no cycle either)
    graph = _graph()
    assert {"fasturi._core_c", "fasturi._rules_c", "fasturi._core_py"} <= graph["fasturi._impl"]
    assert "fasturi._types" in graph["fasturi._core_c"]  # a .pyx import
    assert "fasturi._idna_c" in graph["fasturi._surt_c"]  # a cimport
    # (an import on the line after another's names)
    assert "fasturi._search_params_c" in graph["fasturi._whatwg_c"]
    assert "fasturi._impl" in graph["fasturi"]
    assert "fasturi._audit" in graph["fasturi"]  # (in a function)
    assert len(graph) >= 50


def test_a_cycle_is_found():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert _cycles(graph) == [["a", "b", "c"]]


def test_lower_layers_do_not_reach_up():
    graph = _graph()
    assert graph["fasturi._types"] == set()
    assert graph["fasturi._errors"] == set()
    assert "fasturi._impl" not in graph["fasturi._audit"]
    twins = [name for name in graph if re.search(r"_(c|py)$", name)]
    assert len(twins) > 20
    for name in twins:
        assert "fasturi._impl" not in graph[name], name
        assert PACKAGE not in graph[name], name


def _reach(graph: dict[str, set[str]], name: str) -> set[str]:
    """The modules that loading ``name`` loads (its imports, theirs, ...)."""
    seen: set[str] = set()
    todo = [name]
    while todo:
        for w in graph.get(todo.pop(), ()):
            if w not in seen:
                seen.add(w)
                todo.append(w)
    return seen


def test_a_compiled_module_never_needs_a_pure_twin():
    # what both twins of a pair use lives in a module that is neither twin
    # (_whatwg_percent, _webidl, _w3lib, ...): the compiled build loads no
    # reference twin
    graph = _graph()
    compiled = [name for name in graph if name.endswith("_c")]
    assert {"fasturi._whatwg_c", "fasturi._search_params_c", "fasturi._arrow_c"} <= set(compiled)
    for name in compiled:
        assert {m for m in _reach(graph, name) if m.endswith("_py")} == set(), name


def test_reach_follows_imports_of_imports():
    graph = {"a": {"b"}, "b": {"c"}, "c": set(), "d": {"a"}}
    assert _reach(graph, "d") == {"a", "b", "c"}
