"""fasturi.arrow.whatwg_search_params: row i is the (name, value) pairs of
``fasturi.whatwg.parse(row, base).search_params``, as a list of structs,
for every input family; null in, null out; a row that fails to parse is
null; and the compiled kernel gives the reference kernel's rows."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pytest
from arrow_families import as_rows, families, needs_polars, pl
from corpus_files import FOLDER, lines
from hypothesis import given
from hypothesis import strategies as st
from unchecked import unchecked_strings

import fasturi.arrow as fa
from fasturi import whatwg
from fasturi._types import ArrowColumn

WPT = [
    c
    for c in json.loads((Path(__file__).parent / "wpt" / "urltestdata.json").read_text("utf-8"))
    if isinstance(c, dict)
]
ROWS = [c["input"].encode("utf-8", "replace").decode("utf-8") for c in WPT[:300]] + [
    None,
    "http://a/?x=1&y=%C3%A9+z&&q",
    "http://a/??a=b&=&c=#frag",
    "http://a/?%FF=%E9&%ED%A0%80&%F0%9F%92&%C3x",  # not UTF-8 once decoded
    "https://bücher.example/?q=ü",  # a host the C path leaves to the reference
    "sc:opaque?k=v",
    "",
    None,
]
BASE = "https://example.org/dir/file?q#f"


def _params(s, base):
    try:
        url = whatwg.parse(s, base)
    except whatwg.InvalidURL:
        return None
    return [{"name": name, "value": value} for name, value in url.search_params]


def _want(rows, base):
    return [None if s is None else _params(s, base) for s in rows]


def _type(text):
    return pa.list_(pa.struct([pa.field("name", text), pa.field("value", text)]))


def _rows(result):
    # pandas gives a list column's rows as arrays, or lists; as lists of dicts
    return [None if r is None else [dict(p) for p in r] for r in as_rows(result)]


@pytest.mark.parametrize("base", [None, BASE])
def test_rows_equal_the_url_search_params(base):
    want = _want(ROWS, base)
    assert any(w is None for w, s in zip(want, ROWS) if s is not None)  # failures are there
    assert any(w == [] for w in want)  # and URLs without a query
    for family, col in families(ROWS):
        assert _rows(fa.whatwg_search_params(col, base)) == want, family


_ESCAPES = st.lists(st.integers(0, 255).map("%{:02X}".format) | st.sampled_from("&=+a%é")).map(
    "".join
)


@given(query=_ESCAPES)
def test_any_escapes(query):
    # what the escapes decode to is UTF-8 or not, cut anywhere: U+FFFD for
    # each maximal subpart of what is not, as the scalar decoder gives it
    rows = ["http://h/?" + query, "http://h/?a=" + query + "&b"]
    assert fa.whatwg_search_params(rows).to_pylist() == _want(rows, None)


def test_every_byte_after_every_lead_byte():
    rows = [
        f"http://h/?{lead:02X}=%{lead:02X}%{c:02X}%BF&%{lead:02X}%{c:02X}"
        for lead in range(0x80, 0x100, 3)
        for c in range(0x70, 0x100, 5)
    ]
    assert fa.whatwg_search_params(rows).to_pylist() == _want(rows, None)


def test_types():
    col = pa.array(["http://a/?x=1", None, "x"], type=pa.large_string())
    out = fa.whatwg_search_params(col)
    assert out.type == _type(pa.large_string())
    assert out.to_pylist() == [[{"name": "x", "value": "1"}], None, None]
    assert fa.whatwg_search_params(["http://a/"]).type == _type(pa.string())
    empty = pa.chunked_array([], type=pa.string())
    assert fa.whatwg_search_params(empty).type == _type(pa.string())
    assert len(fa.whatwg_search_params(empty)) == 0
    assert fa.whatwg_search_params([None, None]).to_pylist() == [None, None]


def test_a_base_that_fails_fails_every_row():
    rows = ["?a=1", "http://a/?b=2"]
    assert fa.whatwg_search_params(rows, "not a base").to_pylist() == [None, None]
    assert fa.whatwg_search_params(rows, "http://h/").to_pylist() == [
        [{"name": "a", "value": "1"}],
        [{"name": "b", "value": "2"}],
    ]


@needs_polars
def test_pandas_and_polars_shapes():
    s = pd.Series(["http://A/?q=1", None], index=["x", "y"], name="url", dtype="string[pyarrow]")
    out = fa.whatwg_search_params(s)
    assert list(out.index) == ["x", "y"] and out.name == "url"
    assert _rows(out) == [[{"name": "q", "value": "1"}], None]
    p = fa.whatwg_search_params(pl.Series("u", ["ws://h/?a&b=c", None]))
    assert p.name == "u"
    assert p.to_list() == [[{"name": "a", "value": ""}, {"name": "b", "value": "c"}], None]


@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        (
            lambda: fa.whatwg_search_params(["x"], 3),
            TypeError,
            "whatwg_search_params() argument 'base' must be str or None, not int",
        ),
        (
            lambda: fa.whatwg_search_params(["x"], threads=0),
            ValueError,
            "whatwg_search_params() argument 'threads' must be at least 1, not 0",
        ),
        (
            lambda: fa.whatwg_search_params([b"x"]),
            TypeError,
            "whatwg_search_params() item 0 must be str or None, not bytes",
        ),
    ],
)
def test_argument_errors(call, error, message):
    with pytest.raises(error) as e:
        call()
    assert str(e.value) == message


def test_rows_that_are_not_utf8_are_named():
    col = unchecked_strings([b"http://a/?x", b"http://a/?\xff"])
    with pytest.raises(ValueError, match="row 1 is not valid UTF-8"):
        fa.whatwg_search_params(col)


@pytest.mark.parametrize(
    "base", [None, BASE, "https://bücher.example/dir/?x", "sc://host/p?q", "not a base"]
)
def test_corpus_rows_on_two_threads(base):
    # several row ranges, each on its own thread, laid end to end
    urls = lines(FOLDER / "urls.txt")[:6000]
    refs = [line.split("\t")[1] for line in lines(FOLDER / "refs.tsv")[:2000]]
    rows = urls + refs + [None, "?a=1&a=2", "http://0x7f.1/?ip=%31"]
    col = pa.array(rows, type=pa.string())
    assert fa.whatwg_search_params(col, base, threads=2).to_pylist() == _want(rows, base)


@pytest.mark.parity
def test_kernel_twins_agree(twin_pair):
    compiled, python = twin_pair("arrow")
    from fasturi import _whatwg_arrow_py

    assert python.whatwg_search_params is _whatwg_arrow_py.whatwg_search_params
    rows = lines(FOLDER / "urls.txt") + ROWS
    for typ in (pa.string(), pa.large_string()):
        col = pa.array(rows, type=typ)
        for base in (None, BASE):
            got, want = (
                pa.array(m.whatwg_search_params(ArrowColumn(*col.__arrow_c_array__()), 0, 2, base))
                for m in (compiled, python)
            )
            assert got.type == want.type
            assert got.equals(want)
