"""The column forms of query_param, query_params, remove_params,
path_extension, path_hierarchy and subdomain (docs/reference.md §6): row i
of every result is the scalar function of row i, both implementations, with
nulls, slices, large_string, string_view, every input family and thread
count, and hostile rows."""

from __future__ import annotations

from importlib.resources import files

import pyarrow as pa
import pytest
from arrow_families import as_rows, families, needs_polars, pl
from corpus_files import FOLDER, lines
from hypothesis import given
from hypothesis import strategies as st
from unchecked import unchecked_strings

import fasturi

CORPUS = files("fasturi").joinpath("data", "urls.txt").read_text("utf-8").splitlines()
ODD = [
    "",
    "?",
    "?&&",
    "http://h/p?a=1&&b&c=&=d&e=f=g#x&y=z",
    "http://h/p?q=a+b%2Bc&utm_source=x&q=2#f",
    "http://h/p?q=%FF%C3x&%ED%A0%80=%F0%9F%98&a%20b=1",
    "http://h/p?q=%zz%4%&utm%5Fmedium=y",
    "mailto:joe@example.org?subject=hi%20there",
    "http://例え.テスト/パス/ファイル.テキスト?ключ=значение&é=%C3%A9",
    "http://www.食狮.公司.cn/",
    "http://WWW.Example.CO.UK./a/.bashrc",
    "http://1.2.3.4/a.b/",
    "http://[::1]/x.",
    "a\x00b?\x00=\x00#\x00",
    "http://h/a/..",
    "//host/a//b",
    "http://h/" + "seg/" * 300 + "f.txt?" + "&".join(f"k{i}=v{i}" for i in range(300)),
    "x" * 70_000,
    "?k=" + "%FF" * 3000,
]
ROWS = CORPUS[:400] + ODD + [None, "http://x/?a=1", None]


def _pairs(s, decode=True):
    return [{"key": k, "value": v} for k, v in fasturi.query_params(s, decode=decode)]


CASES = {
    "query_param": (
        lambda fa, c, **kw: fa.query_param(c, "q", **kw),
        lambda s: fasturi.query_param(s, "q"),
    ),
    "query_param-written": (
        lambda fa, c, **kw: fa.query_param(c, "a%20b", decode=False, **kw),
        lambda s: fasturi.query_param(s, "a%20b", decode=False),
    ),
    "query_param-empty-name": (
        lambda fa, c, **kw: fa.query_param(c, "", **kw),
        lambda s: fasturi.query_param(s, ""),
    ),
    "query_params": (lambda fa, c, **kw: fa.query_params(c, **kw), _pairs),
    "query_params-written": (
        lambda fa, c, **kw: fa.query_params(c, decode=False, **kw),
        lambda s: _pairs(s, decode=False),
    ),
    "remove_params": (
        lambda fa, c, **kw: fa.remove_params(c, ["utm_*", "?", "q"], **kw),
        lambda s: fasturi.remove_params(s, ["utm_*", "?", "q"]),
    ),
    "remove_params-none": (
        lambda fa, c, **kw: fa.remove_params(c, [], **kw),
        lambda s: fasturi.remove_params(s, []),
    ),
    "path_extension": (lambda fa, c, **kw: fa.path_extension(c, **kw), fasturi.path_extension),
    "path_hierarchy": (lambda fa, c, **kw: fa.path_hierarchy(c, **kw), fasturi.path_hierarchy),
    "subdomain": (lambda fa, c, **kw: fa.subdomain(c, **kw), fasturi.subdomain),
    "subdomain-private": (
        lambda fa, c, **kw: fa.subdomain(c, private=True, **kw),
        lambda s: fasturi.subdomain(s, private=True),
    ),
}


def _expected(name, rows):
    fn = CASES[name][1]
    return [None if s is None else fn(s) for s in rows]


def _text(typ):
    return pa.large_string() if typ == pa.large_string() else pa.string()


def _type(name, typ):
    text = _text(typ)
    if name.startswith("query_params"):
        item = pa.struct([("key", text), ("value", text)])
    elif name == "path_hierarchy":
        item = text
    else:
        return text
    return pa.large_list(item) if text == pa.large_string() else pa.list_(item)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("typ", [pa.string(), pa.large_string(), pa.string_view()])
def test_rows_equal_the_scalar_function(arrow, name, typ):
    got = CASES[name][0](arrow, pa.array(ROWS, type=typ))
    assert got.type == _type(name, typ)
    got.validate(full=True)  # (offsets, validity and UTF-8 of every buffer, children too)
    assert got.to_pylist() == _expected(name, ROWS)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_family(arrow, name):
    rows = ROWS[:50] + ODD[:16] + [None]
    want = _expected(name, rows)
    for family, col in families(rows):
        assert as_rows(CASES[name][0](arrow, col)) == want, family


@pytest.mark.parametrize("name", sorted(CASES))
def test_slices_chunks_and_nulls(arrow, name):
    call = CASES[name][0]
    sliced = pa.array(ROWS, type=pa.string()).slice(7, 70)
    assert call(arrow, sliced).to_pylist() == _expected(name, ROWS[7:77])
    chunked = pa.chunked_array([ROWS[:10], ROWS[10:], []], type=pa.string())
    out = call(arrow, chunked)
    assert isinstance(out, pa.ChunkedArray) and out.to_pylist() == _expected(name, ROWS)
    assert call(arrow, pa.array([None, None], type=pa.string())).to_pylist() == [None, None]
    empty = call(arrow, pa.chunked_array([], type=pa.string()))
    assert empty.to_pylist() == [] and empty.type == _type(name, pa.string())


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("typ", [pa.string(), pa.large_string()])
def test_threads(arrow, threads, typ):
    # enough rows for several ranges, cut where an element's validity byte
    # is shared by two ranges (uneven numbers of fields a row), with null
    # rows and non-ASCII hosts (the GIL taken) in each
    rows = (ROWS[:397] + ["?a", "?a=1&b&c=3", None, "http://WWW.ÉCOLE.fr/?x"]) * 16
    col = pa.array(rows, type=typ)
    for name, (call, _) in CASES.items():
        got = call(arrow, col, threads=threads)
        got.validate(full=True)
        assert got.to_pylist() == _expected(name, rows), name


def test_threads_keyword(arrow):
    for call, _ in CASES.values():
        with pytest.raises(ValueError, match="threads"):
            call(arrow, ["x"], threads=0)


@given(
    st.lists(
        st.one_of(
            st.none(),
            st.text(st.characters(exclude_categories=["Cs"]), max_size=20),
            st.text(st.sampled_from("?&=%+#/.aé2FC3"), max_size=20),
        ),
        max_size=12,
    )
)
def test_generated_rows(arrow, rows):
    for name, (call, _) in CASES.items():
        assert call(arrow, rows).to_pylist() == _expected(name, rows), name


@pytest.mark.parity
def test_twins_agree_on_the_corpus():
    # the whole corpus where it is here (tests/corpus_files.py), both kernels
    import fasturi.arrow as fa
    from fasturi import _arrow_c, _arrow_py

    rows = lines(FOLDER / "urls.txt") + ODD + [None]
    col = pa.array(rows)
    saved = fa._kernels
    try:
        for name, (call, _) in CASES.items():
            fa._kernels = _arrow_c
            compiled = call(fa, col, threads=2)
            fa._kernels = _arrow_py
            assert compiled.equals(call(fa, col)), name
    finally:
        fa._kernels = saved


@pytest.mark.parametrize("name", sorted(CASES))
def test_invalid_utf8_row_is_named(arrow, name):
    col = unchecked_strings([b"?q=1", b"?q=b\xff", b"zz"])
    with pytest.raises(ValueError, match="row 1 is not valid UTF-8"):
        CASES[name][0](arrow, col)
    chunked = pa.chunked_array([pa.array(["a", "b"]), col])
    with pytest.raises(ValueError, match="row 3 is not valid UTF-8"):
        CASES[name][0](arrow, chunked)
    # bad bytes in the first 64 of a long row
    col = unchecked_strings([b"ok", b"http://a/\xff\xfe?q=" + b"x" * 60 + b"/" + b"y" * 70])
    with pytest.raises(ValueError, match="row 1 is not valid UTF-8"):
        CASES[name][0](arrow, col)


@pytest.mark.parametrize("name", sorted(CASES))
def test_lone_surrogates_in_a_list_are_named(arrow, name):
    with pytest.raises(ValueError, match="item 1 cannot be encoded as UTF-8"):
        CASES[name][0](arrow, ["?q=1", "?q=\ud800"])


def test_argument_errors(arrow):
    with pytest.raises(TypeError, match=r"query_param\(\) argument 'name' must be str, not bytes"):
        arrow.query_param(["?a=1"], b"a")
    with pytest.raises(
        TypeError, match=r"remove_params\(\) argument 'patterns' must be an iterable of str"
    ):
        arrow.remove_params(["?a=1"], "a")
    with pytest.raises(TypeError, match=r"remove_params\(\) argument 'patterns' item 0"):
        arrow.remove_params(["?a=1"], [None])
    with pytest.raises(TypeError, match="must be a string column, not int64"):
        arrow.path_hierarchy(pa.array([1]))
    # a generator of patterns is read once, for every chunk
    col = pa.chunked_array([["?a=1&b=2"], ["?b=1&a=2"]])
    got = arrow.remove_params(col, (p for p in ["a"]))
    assert got.to_pylist() == ["?b=2", "?b=1"]
    # a name with a lone surrogate matches no key
    assert arrow.query_param(["?\ufffd=1"], "\ud800").to_pylist() == [None]


@needs_polars
def test_polars_list_type(arrow):
    rows = ["http://h/a/b?x=1&y", None]
    out = arrow.query_params(pl.Series("u", rows))
    assert isinstance(out, pl.Series) and out.name == "u"
    assert out.to_list() == [[{"key": "x", "value": "1"}, {"key": "y", "value": None}], None]


def test_pandas_list_type(arrow):
    import pandas as pd

    rows = ["http://h/a/b?x=1&y", None]
    series = pd.Series(rows, index=[4, 5], dtype="string[pyarrow]")
    out = arrow.path_hierarchy(series)
    assert isinstance(out, pd.Series) and list(out.index) == [4, 5]
    assert list(out[4]) == ["/a/", "/a/b"]


def test_huge_rows(arrow):
    # a path of 3,000 levels: 45 MB of prefixes (the function's own size)
    path = "/" + "abcdefghi/" * 3_000
    got = arrow.path_hierarchy([None, path, "/x"], threads=1)
    assert got.value_lengths().to_pylist() == [None, 3_000, 1]
    levels = got[1].values
    assert levels[0].as_py() == "/abcdefghi/" and levels[-1].as_py() == path
    assert levels[1234].as_py() == path[: 10 * 1235 + 1]
    value = "v" * 1_000_000
    assert arrow.query_param(["?k=" + value], "k").to_pylist() == [value]
