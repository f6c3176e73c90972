"""What each public import loads: the modules, not the time (benchmarks/
startup.py measures that).  ``import fasturi`` loads the package and the
switch of ``_impl``; ``import fasturi.parse`` what the drop-in needs and
nothing ``urllib.parse`` does not load but itself; the first RFC 3986 name
read, the chosen twins; WHATWG (and the IDNA tables), audit, the IRI module,
the command line's commands and the engines load when first used.  Each is
run in a fresh interpreter (of this run's implementation)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from fasturi._impl import NO_EXTENSIONS

COMPILED = not NO_EXTENSIONS

# Modules a Cython extension module brings: the runtime module Cython shares
# between the modules it built (named for its version), and its helper.
_CYTHON = re.compile(r"_cython_\d+_\d+(_\d+)*[a-z0-9]*|cython_runtime")

# The twins the first RFC 3986 name loads, and what they import.
CORE = {
    "fasturi._errors",
    "fasturi._types",
    "fasturi._uri",  # what both URI twins share
    "fasturi._psl",  # the list file
    "fasturi._surt",  # surt's rare steps
    "fasturi._w3lib",  # what both w3lib preset twins share
}
_TWINS = ("core", "extract", "parts", "pipeline", "psl", "rules")
if COMPILED:
    CORE |= {f"fasturi._{stem}_c" for stem in _TWINS}
    # (_idna_c: surt's IDNA 2003, which _surt_c cimports)
    CORE |= {"fasturi._surt_c", "fasturi._uri_c", "fasturi._w3lib_c", "fasturi._idna_c"}
else:
    CORE |= {f"fasturi._{stem}_py" for stem in _TWINS}
    CORE |= {"fasturi._surt_py", "fasturi._uri_py", "fasturi._w3lib_py"}

NEVER_AT_START = {"idna", "pyarrow", "pandas", "polars", "duckdb", "tqdm", "json", "argparse"}


def _loaded(code: str) -> set[str]:
    """The modules ``code`` loads in a fresh interpreter."""
    program = (
        "import sys\n"
        "before = set(sys.modules)\n"
        f"{code}\n"
        "sys.stdout.write(' '.join(sorted(set(sys.modules) - before)))\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    return set(proc.stdout.split())


def _ours(modules: set[str]) -> set[str]:
    return {m for m in modules if m == "fasturi" or m.startswith("fasturi.")}


def test_import_fasturi():
    loaded = _loaded("import fasturi")
    assert _ours(loaded) == {"fasturi", "fasturi._impl"}
    # (__future__: the annotations of the two modules)
    assert loaded - {"fasturi", "fasturi._impl", "__future__"} == set()


def test_import_fasturi_parse():
    # the drop-in loads only itself, its compiled twins and what
    # urllib.parse loads, whatever that is on this Python
    stdlib = _loaded("import urllib.parse")
    loaded = _loaded("import fasturi.parse")
    ours = {"fasturi", "fasturi._impl", "fasturi.parse"}
    allowed = {"__future__"}
    if COMPILED:
        # (_stdstate: what of urllib.parse's module state the compiled
        # twins' answers depend on)
        ours |= {"fasturi._parse_c", "fasturi._quote_c", "fasturi._stdstate"}
        # unicodedata: urllib.parse's own NFKC check, which the compiled
        # twin runs once at import to learn what this stdlib does;
        # _stdstate reads the stdlib's code (opcode)
        allowed |= {"unicodedata", "opcode", "_opcode", "_opcode_metadata"}
    assert _ours(loaded) == ours
    others = {m for m in loaded - stdlib - ours if not _CYTHON.fullmatch(m)}
    assert others <= allowed, others


def test_the_first_rfc_3986_name_loads_the_twins():
    loaded = _loaded("import fasturi\nfasturi.split")
    ours = _ours(loaded) - {"fasturi", "fasturi._impl"}
    assert ours == CORE
    assert not loaded & NEVER_AT_START
    # the twins of the other implementation are not loaded
    assert not {m for m in ours if m.endswith("_c" if NO_EXTENSIONS else "_py")} - {
        "fasturi._core_py"
    }


@pytest.mark.compiled
def test_the_compiled_build_imports_no_pure_twin():
    loaded = _loaded("import fasturi\nfasturi.split")
    assert not {m for m in loaded if m.startswith("fasturi.") and m.endswith("_py")}


# Every name of fasturi.whatwg used, and audit on URLs that need the URL
# Standard's host parser (host-differs, idna-mapped-host), the column
# kernels where pyarrow is installed.
_WHATWG_EVERYTHING = r"""
import copy, pickle
import fasturi, fasturi.whatwg as w
url = w.parse("HTTP://B\u00dcCHER.example:80/a/../b?x=1&y=%41#f", "http://base/")
getters = ("href", "origin", "protocol", "username", "password", "host", "hostname",
           "port", "pathname", "search", "hash")
assert [getattr(url, name) for name in getters]
assert url.search_params.get("y") == "A"
url = url.replace(pathname="/c", search="?q=\ud800", host="\u24d6.example", hash="")
assert pickle.loads(pickle.dumps(url)) == copy.copy(url) == url
assert w.can_parse("a", "http://b/") and not w.can_parse("http://[::1")
assert w.resolve("http://a/b/c", "../d") == "http://a/d"
try:
    w.parse("http://a b/")
except w.InvalidURL:
    pass
params = w.SearchParams("?a=1&b=2")
params.append("c\ud800", "3")
params.set("a", "4")
params.delete("b")
params.sort()
assert params.has("a") and params.get_all("a") == ["4"] and len(params) == 2
assert list(params) == params.items() and params.keys() and params.values()
assert pickle.loads(pickle.dumps(params)) == params
assert str(w.SearchParams({"k": "v"})) == str(w.SearchParams([("k", "v")])) == "k=v"
assert str(w.SearchParams(b"k=v")) == "k=v"
assert w.domain_to_ascii("B\u00fccher.example") == "xn--bcher-kva.example"
assert w.domain_to_unicode("xn--bcher-kva.example") == "b\u00fccher.example"
for text in ("http://a.example\\@b.example/", "http://\u24d6\u24de\u24de\u24d6.com/",
             "http://[::ffff:127.0.0.1]/", "http://0x7f.1/", "http://\ud800.example/"):
    fasturi.audit(text)
try:
    import pyarrow
except ImportError:
    pass
else:
    import fasturi.arrow as fa
    col = pyarrow.array(["http://b\u00fccher.example/?a=1", None, "nope", "http://0x7f.1\\x"])
    fa.whatwg_href(col, "http://base/")
    fa.whatwg_can_parse(col)
    fa.whatwg_split(col)
    fa.whatwg_search_params(col)
    fa.whatwg_replace(col, pathname="/z", host="\u24d6.example")
"""


@pytest.mark.compiled
def test_the_compiled_url_standard_imports_no_pure_twin():
    # the compiled twins of the URL Standard parse every input in C and
    # share with the reference only modules that are neither twin
    loaded = _loaded(_WHATWG_EVERYTHING)
    assert {"fasturi._whatwg_c", "fasturi._search_params_c", "fasturi._idna_c"} <= loaded
    assert not {m for m in loaded if m.endswith("_py")}
    assert "fasturi._idna_tables" not in loaded


def test_whatwg_loads_on_first_use():
    loaded = _loaded("import fasturi.whatwg")
    twin = "fasturi._whatwg_c" if COMPILED else "fasturi._whatwg_py"
    assert {twin, "fasturi.whatwg"} <= loaded
    assert "fasturi._audit" not in loaded and "fasturi.arrow" not in loaded


def test_audit_loads_on_first_use_and_whatwg_only_where_it_needs_it():
    clean = _loaded("import fasturi\nfasturi.audit('http://example.com/a')")
    assert "fasturi._audit" in clean
    assert not {m for m in clean if m.startswith("fasturi._whatwg")} and "idna" not in clean
    host = _loaded("import fasturi\nfasturi.audit('http://a.example\\\\@b.example/')")
    twin = "fasturi._whatwg_c" if COMPILED else "fasturi._whatwg_py"
    assert twin in host


def test_iri_loads_on_first_use():
    assert "fasturi._iri" not in _loaded("import fasturi\nfasturi.split")
    assert "fasturi._iri" in _loaded("import fasturi\nfasturi.iri_to_uri")


def test_the_command_line_version_and_help_load_the_parser_only():
    version = _loaded(
        "from fasturi._cli import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass"
    )
    # (the implementation the version names is looked up: the twins load)
    assert (
        _ours(version)
        == {
            "fasturi",
            "fasturi._impl",
            "fasturi._cli",
            "fasturi._cli_parser",
        }
        | CORE
    )
    assert not version & (NEVER_AT_START - {"argparse"})
    helped = _loaded(
        "from fasturi._cli import main\n"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n        main(['--help'])\n    except SystemExit:\n        pass"
    )
    assert _ours(helped) == {"fasturi", "fasturi._impl", "fasturi._cli", "fasturi._cli_parser"}


def test_engines_load_when_imported():
    loaded = _loaded("import fasturi, fasturi.parse, fasturi.whatwg\nfasturi.split")
    assert not {m for m in loaded if m.split(".")[0] in ("pyarrow", "pandas", "polars", "duckdb")}
    assert not {"fasturi.arrow", "fasturi.pandas", "fasturi.polars", "fasturi.duckdb"} & loaded
