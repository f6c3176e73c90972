"""Each compiled module has its twin's public names and signatures, and its
``.pyi`` says the same.

A twin pair (``_x_c`` / ``_x_py``) must be interchangeable: same ``__all__``,
and every function, class and method with the same parameters (names,
kinds, defaults).  ``_parse_c`` and ``_quote_c`` have the stdlib itself as
their twin: their functions take exactly the running ``urllib.parse``'s
parameters.  The stubs are read with ``ast`` (``if sys.version_info``
branches taken as on this interpreter) and compared the same way.
"""

from __future__ import annotations

import ast
import importlib
import inspect
import sys
import urllib.parse
from pathlib import Path

import pytest

pytestmark = pytest.mark.compiled

TWINS = (
    "core",
    "rules",
    "uri",
    "pipeline",
    "extract",
    "arrow",
    "psl",
    "surt",
    "search_params",
    "idna",
    "w3lib",
    "parts",
)
STDLIB_TWINS = {
    "parse": ("urlsplit", "urlparse", "urlunsplit", "urlunparse", "urljoin", "urldefrag"),
    "quote": (
        "quote",
        "quote_plus",
        "quote_from_bytes",
        "unquote",
        "unquote_plus",
        "unquote_to_bytes",
        "urlencode",
        "parse_qs",
        "parse_qsl",
    ),
}
MISSING = object()


def _default(value):
    # A callable default (urlencode's quote_via) is its twin's function of
    # the same name, not the same object.
    if callable(value):
        return ("function", value.__name__)
    return value


def params(fn):
    """(name, kind, default) of each parameter: what a caller can rely on."""
    return [
        (
            p.name,
            p.kind,
            MISSING if p.default is inspect.Parameter.empty else _default(p.default),
        )
        for p in inspect.signature(fn).parameters.values()
    ]


def members(cls):
    """The public members of a class: a method's parameters, or "attribute"."""
    out = {}
    for name in dir(cls):
        if name.startswith("_"):
            continue
        raw = inspect.getattr_static(cls, name)
        if isinstance(raw, (classmethod, staticmethod)):
            out[name] = params(getattr(cls, name))
        elif inspect.isroutine(raw):
            out[name] = params(getattr(cls, name))[1:]  # less self
        else:
            out[name] = "attribute"
    return out


def public(module):
    """Every name of __all__, described as above."""
    out = {}
    for name in module.__all__:
        value = getattr(module, name)
        if isinstance(value, type):
            out[name] = ("class", members(value))
        elif callable(value):
            out[name] = ("function", params(value))
        else:
            out[name] = ("value", type(value))
    return out


# ---- the stubs -------------------------------------------------------------------


def _version_test(node):
    """The value of ``sys.version_info <op> (x, y)`` on this interpreter."""
    code = compile(ast.Expression(node), "<stub>", "eval")
    return eval(code, {"sys": sys})  # noqa: S307 - a comparison from our own stub


def _body(nodes):
    """The stub's statements, with version branches resolved."""
    for node in nodes:
        if isinstance(node, ast.If):
            yield from _body(node.body if _version_test(node.test) else node.orelse)
        else:
            yield node


def _stub_default(node):
    if isinstance(node, ast.Constant) and node.value is Ellipsis:
        return "..."
    if isinstance(node, ast.Name):
        return ("function", node.id)
    return ast.literal_eval(node)


def _stub_params(fn: ast.FunctionDef, method: bool):
    a = fn.args
    positional = a.posonlyargs + a.args
    defaults = [MISSING] * (len(positional) - len(a.defaults)) + [
        _stub_default(d) for d in a.defaults
    ]
    out = [(p.arg, inspect.Parameter.POSITIONAL_ONLY, d) for p, d in zip(a.posonlyargs, defaults)]
    out += [
        (p.arg, inspect.Parameter.POSITIONAL_OR_KEYWORD, d)
        for p, d in zip(a.args, defaults[len(a.posonlyargs) :])
    ]
    if a.vararg:
        out.append((a.vararg.arg, inspect.Parameter.VAR_POSITIONAL, MISSING))
    out += [
        (p.arg, inspect.Parameter.KEYWORD_ONLY, MISSING if d is None else _stub_default(d))
        for p, d in zip(a.kwonlyargs, a.kw_defaults)
    ]
    if a.kwarg:
        out.append((a.kwarg.arg, inspect.Parameter.VAR_KEYWORD, MISSING))
    return out[1:] if method else out


def stub(path: Path):
    """__all__ and the functions and classes a .pyi declares, described as above."""
    tree = ast.parse(path.read_text("utf-8"))
    names, out = None, {}
    for node in _body(tree.body):
        if isinstance(node, ast.Assign) and [t.id for t in node.targets] == ["__all__"]:
            names = ast.literal_eval(node.value)
        elif isinstance(node, ast.FunctionDef):
            declared = _stub_params(node, method=False)
            # of @overload variants, the one that names every parameter
            if node.name not in out or len(declared) > len(out[node.name][1]):
                out[node.name] = ("function", declared)
        elif isinstance(node, ast.ClassDef):
            cls = {}
            for item in _body(node.body):
                if not isinstance(item, ast.FunctionDef) or item.name.startswith("_"):
                    continue
                decorators = {getattr(d, "id", None) for d in item.decorator_list}
                if "property" in decorators:
                    cls[item.name] = "attribute"
                else:
                    cls[item.name] = _stub_params(item, method="staticmethod" not in decorators)
            out[node.name] = ("class", cls)
        elif isinstance(node, ast.AnnAssign):
            out[node.target.id] = ("value", None)
    return names, out


def _pyi(stem):
    module = importlib.import_module(f"fasturi._{stem}_c")
    return Path(module.__file__).parent / f"_{stem}_c.pyi"


# ---- the tests -----------------------------------------------------------------


@pytest.mark.parametrize("stem", TWINS)
def test_compiled_twin_has_the_python_twins_names_and_signatures(stem):
    compiled = importlib.import_module(f"fasturi._{stem}_c")
    python = importlib.import_module(f"fasturi._{stem}_py")
    assert sorted(compiled.__all__) == sorted(python.__all__)
    assert public(compiled) == public(python)


@pytest.mark.parametrize("stem", TWINS)
def test_stub_declares_the_compiled_twin(stem):
    compiled = importlib.import_module(f"fasturi._{stem}_c")
    names, declared = stub(_pyi(stem))
    assert sorted(names) == sorted(compiled.__all__)
    actual = public(compiled)
    for name, (kind, _) in actual.items():
        if kind == "value":
            actual[name] = ("value", None)
    got = {name: declared[name] for name in compiled.__all__ if name in declared}
    # a method's stub default may be a literal or "...": compare by presence
    assert _presence(got) == _presence(actual)
    for name, (kind, ps) in declared.items():
        if kind == "function" and name in actual:
            for (n, _k, d), (_, _, want) in zip(ps, actual[name][1]):
                assert d in ("...", want), (stem, name, n)


def test_dropin_takes_the_running_stdlibs_parameters():
    # what fasturi.parse binds: on a stdlib with 3.15's keywords, the _kw forms
    import fasturi.parse

    for name in STDLIB_TWINS["parse"] + STDLIB_TWINS["quote"]:
        ours = getattr(fasturi.parse, name)
        assert params(ours) == params(fasturi.parse._original(name)), name


KEYWORDS = {
    "urlsplit": "missing_as_none",
    "urlparse": "missing_as_none",
    "urldefrag": "missing_as_none",
    "urlunsplit": "keep_empty",
    "urlunparse": "keep_empty",
}


@pytest.mark.parametrize("name", sorted(KEYWORDS))
def test_keyword_forms_add_only_the_keyword(name):
    # The _kw form is the plain one plus the 3.15 keyword, with this
    # stdlib's defaults: bound where the stdlib has the keyword, it then
    # takes exactly the stdlib's parameters.
    from fasturi import _parse_c

    plain, kw = params(getattr(_parse_c, name)), params(getattr(_parse_c, name + "_kw"))
    std = {n: d for n, _, d in params(getattr(urllib.parse, name))}
    assert [(n, k) for n, k, _ in kw[:-1]] == [(n, k) for n, k, _ in plain]
    assert [d for n, _, d in kw[:-1]] == [std.get(n, d) for n, _, d in plain]
    assert kw[-1][:2] == (KEYWORDS[name], inspect.Parameter.KEYWORD_ONLY)
    assert _parse_c.KEYWORD[name] == (KEYWORDS[name] in std)


@pytest.mark.parametrize("stem", sorted(STDLIB_TWINS))
def test_dropin_stub_declares_the_compiled_functions(stem):
    compiled = importlib.import_module(f"fasturi._{stem}_c")
    _, declared = stub(_pyi(stem))
    for name in STDLIB_TWINS[stem]:
        kind, ps = declared[name]
        want = params(getattr(compiled, name))
        assert [(n, k) for n, k, _ in ps] == [(n, k) for n, k, _ in want], name
        for (_, _, d), (_, _, w) in zip(ps, want):
            assert d in ("...", w), name


def _presence(described):
    """Parameters by name and kind, defaults by presence only."""
    out = {}
    for name, (kind, ps) in described.items():
        if kind == "function":
            out[name] = (kind, [(n, k, d is MISSING) for n, k, d in ps])
        elif kind == "class":
            out[name] = (
                kind,
                {
                    m: p if p == "attribute" else [(n, k, d is MISSING) for n, k, d in p]
                    for m, p in ps.items()
                },
            )
        else:
            out[name] = (kind, None)
    return out
