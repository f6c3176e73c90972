"""fasturi.arrow's WHATWG column forms (API.md §9): row i is the scalar
function of row i (fasturi.whatwg), for every input family; null in, null
out; a row that fails to parse is null (False for can_parse)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from arrow_families import as_rows, families, pl
from corpus_files import FOLDER, lines
from hypothesis import given
from hypothesis import strategies as st
from unchecked import unchecked_strings

import fasturi.arrow as fa
from fasturi import whatwg

WPT = [
    c
    for c in json.loads((Path(__file__).parent / "wpt" / "urltestdata.json").read_text("utf-8"))
    if isinstance(c, dict)
]
ROWS = [c["input"].encode("utf-8", "replace").decode("utf-8") for c in WPT[:300]] + [
    None,
    "http://127.0.0.1:6666\\@1.1.1.1",
    "",
    None,
    "HTTPS://faß.EXAMPLE/%7e?q=é#x",
]
BASE = "https://example.org/dir/file?q#f"


def _href(s, base):
    try:
        return whatwg.parse(s, base).href
    except whatwg.InvalidURL:
        return None


def _split(s, base, fields):
    try:
        url = whatwg.parse(s, base)
    except whatwg.InvalidURL:
        return None
    return {f: getattr(url, f) for f in fields}


def _replaced(s, changes):
    try:
        return whatwg.parse(s).replace(**changes).href
    except whatwg.InvalidURL:
        return None


# whatwg_replace's keywords: each setter, several in one call (applied in
# order), a host beyond ASCII, an href that fails (null rows), none at all
CHANGES = [
    {"search": "q=1"},
    {"hash": ""},
    {"pathname": "/a b/../c", "hash": "x"},
    {"host": "example.org:8080"},
    {"hostname": "bücher.example", "protocol": "wss"},
    {"href": "http://x/y", "port": 81},
    {"href": "not a url"},
    {"username": "u", "password": "p:@", "port": ""},
    {"protocol": "file", "pathname": "C|/x"},
    {},
]


@pytest.mark.parametrize("changes", CHANGES, ids=str)
def test_replace_rows_equal_the_scalar_replace(changes):
    want = [None if s is None else _replaced(s, changes) for s in ROWS]
    assert any(h is None for h, s in zip(want, ROWS) if s is not None)  # failures are there
    for family, col in families(ROWS):
        assert as_rows(fa.whatwg_replace(col, **changes)) == want, family


@pytest.mark.parametrize("base", [None, BASE])
def test_rows_equal_the_scalar_functions(base):
    href = [None if s is None else _href(s, base) for s in ROWS]
    can = [None if s is None else whatwg.can_parse(s, base) for s in ROWS]
    split = [None if s is None else _split(s, base, fa.WHATWG_FIELDS) for s in ROWS]
    assert any(h is None for h, s in zip(href, ROWS) if s is not None)  # failures are there
    for family, col in families(ROWS):
        assert as_rows(fa.whatwg_href(col, base)) == href, family
        assert as_rows(fa.whatwg_can_parse(col, base)) == can, family
        assert as_rows(fa.whatwg_split(col, base=base)) == split, family


@given(st.lists(st.one_of(st.none(), st.text(st.characters(exclude_categories=["Cs"])))))
def test_generated_rows(rows):
    assert fa.whatwg_href(rows, BASE).to_pylist() == [
        None if s is None else _href(s, BASE) for s in rows
    ]
    assert fa.whatwg_can_parse(rows).to_pylist() == [
        None if s is None else whatwg.can_parse(s) for s in rows
    ]


def test_types_and_fields():
    col = pa.array(["http://a:1/p?q", None, "x"], type=pa.large_string())
    out = fa.whatwg_split(col, fields=["hostname", "port", "search"])
    assert out.type == pa.struct(
        [pa.field(f, pa.large_string()) for f in ("hostname", "port", "search")]
    )
    assert out.to_pylist() == [{"hostname": "a", "port": "1", "search": "?q"}, None, None]
    assert fa.whatwg_href(col).type == pa.large_string()
    assert fa.whatwg_can_parse(col).type == pa.bool_()
    empty = pa.chunked_array([], type=pa.string())
    assert fa.whatwg_split(empty, fields=["href"]).type == pa.struct(
        [pa.field("href", pa.string())]
    )
    assert len(fa.whatwg_href(empty)) == 0


def test_a_base_that_fails_fails_every_row():
    rows = ["x", "http://a/"]
    assert fa.whatwg_href(rows, "not a base").to_pylist() == [None, None]
    assert fa.whatwg_can_parse(rows, "not a base").to_pylist() == [False, False]
    assert fa.whatwg_can_parse(rows, "sc:opaque").to_pylist() == [False, True]


def test_pandas_and_polars_shapes():
    s = pd.Series(["http://A/b", None], index=["x", "y"], name="url", dtype="string[pyarrow]")
    out = fa.whatwg_href(s)
    assert list(out.index) == ["x", "y"] and out.name == "url"
    frame = fa.whatwg_split(s, fields=["hostname", "pathname"])
    assert list(frame.columns) == ["hostname", "pathname"] and frame.loc["x", "hostname"] == "a"
    if pl is not None:  # (none on a free-threaded interpreter: arrow_families)
        p = fa.whatwg_split(pl.Series("u", ["ws://h:81/", None]), fields=["host", "origin"])
        assert p.name == "u" and p.to_list() == [{"host": "h:81", "origin": "ws://h:81"}, None]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: fa.whatwg_href(["x"], 3),
            TypeError,
            "whatwg_href() argument 'base' must be str or None, not int",
        ),
        (
            lambda: fa.whatwg_split(["x"], fields="href"),
            TypeError,
            "whatwg_split() argument 'fields' must be an iterable of field names, not str",
        ),
        (
            lambda: fa.whatwg_split(["x"], fields=["scheme"]),
            ValueError,
            "whatwg_split() unknown field 'scheme'; fields are " + ", ".join(fa.WHATWG_FIELDS),
        ),
        (
            lambda: fa.whatwg_split(["x"], fields=[]),
            ValueError,
            "whatwg_split() argument 'fields' must name at least one field",
        ),
        (
            lambda: fa.whatwg_split(["x"], fields=["href", "href"]),
            ValueError,
            "whatwg_split() argument 'fields' names a field twice",
        ),
        (
            lambda: fa.whatwg_replace(["x"], scheme="http"),
            TypeError,
            "whatwg_replace() got an unexpected keyword argument 'scheme'; the setters are "
            "href, protocol, username, password, host, hostname, port, pathname, search, hash",
        ),
        (
            lambda: fa.whatwg_replace(["x"], search=1),
            TypeError,
            "whatwg_replace() argument 'search' must be str or bytes, not int",
        ),
        (
            lambda: fa.whatwg_replace(["x"], port=True),
            TypeError,
            "whatwg_replace() argument 'port' must be str, bytes or int, not bool",
        ),
        (
            lambda: fa.whatwg_can_parse(["x"], threads=0),
            ValueError,
            "whatwg_can_parse() argument 'threads' must be at least 1, not 0",
        ),
        (
            lambda: fa.whatwg_can_parse([b"x"]),
            TypeError,
            "whatwg_can_parse() item 0 must be str or None, not bytes",
        ),
    ],
)
def test_argument_errors(call, error, message):
    with pytest.raises(error) as e:
        call()
    assert str(e.value) == message


def test_rows_that_are_not_utf8_are_named():
    col = unchecked_strings([b"http://a/", b"http://\xff/"])
    with pytest.raises(ValueError, match="row 1 is not valid UTF-8"):
        fa.whatwg_href(col)


# Bases the C path takes, and ones it leaves to the reference (an IDNA
# host, a "blob" URL, one with no special scheme), or that fail.
CORPUS_BASES = [
    None,
    BASE,
    "https://user:pw@EXAMPLE.com:8443/a/b/../c?x#y",
    "https://bücher.example/dir/",
    "blob:https://example.org/uuid",
    "sc://host/p/q",
    "not a base",
]


@pytest.mark.parametrize("base", CORPUS_BASES)
def test_corpus_rows_on_two_threads(base):
    # several row ranges, each on its own thread; every row as the scalar
    # functions give it, the rows the C path leaves to fasturi.whatwg too
    urls = lines(FOLDER / "urls.txt")[:5000]
    refs = [line.split("\t")[1] for line in lines(FOLDER / "refs.tsv")[:2000]]
    rows = urls + refs + [None, "http://[::1]/", "http://xn--nxasmq6b.example/", "http://0x7f.1/"]
    col = pa.array(rows, type=pa.string())
    fields = ["href", "origin", "host", "port", "pathname", "search", "hash"]
    assert fa.whatwg_href(col, base, threads=2).to_pylist() == [
        None if s is None else _href(s, base) for s in rows
    ]
    assert fa.whatwg_can_parse(col, base, threads=2).to_pylist() == [
        None if s is None else whatwg.can_parse(s, base) for s in rows
    ]
    assert fa.whatwg_split(col, fields, base, threads=2).to_pylist() == [
        None if s is None else _split(s, base, fields) for s in rows
    ]
    if base is None:
        changes = {"search": "q=1", "hostname": "bücher.example", "pathname": "a/./b"}
        assert fa.whatwg_replace(col, threads=2, **changes).to_pylist() == [
            None if s is None else _replaced(s, changes) for s in rows
        ]
