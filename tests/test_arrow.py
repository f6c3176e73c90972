"""fasturi.arrow (docs/reference.md §6): row i of every result is the scalar function of
row i, for every input family, both implementations, any thread count."""

from __future__ import annotations

import random
from importlib.resources import files

import pandas as pd
import pyarrow as pa
import pytest
from arrow_families import as_rows, families, needs_nanoarrow, needs_polars, pl
from hypothesis import given
from hypothesis import strategies as st
from unchecked import unchecked_strings

import fasturi
import fasturi.arrow
from fasturi._types import ArrowColumn

CORPUS = files("fasturi").joinpath("data", "urls.txt").read_text("utf-8").splitlines()
ODD = [
    "",
    "http://a/b?",
    "http://a/b#",
    "HTTP://User:Pw@Ex.COM:0080/%7e/./a/../b?%41=1&b=%zz#F",
    "https://[fe80::1%25Eth0]:443/p",
    "http://例え.テスト/パス?q=é#\U0001f600",
    "a\x00b://c/\x00",
    "//host:/",
    "mailto:Joe@Example.COM",
    "?b=2&a=1&utm_source=x&a=0",
    "%E2%82%AC%zz%",
    "caf%C3%A9%FF",
    "http://a/" + "x/" * 3000,
    "x" * 70_000,
    "../../g;x?y#s",
    "[::1]:8080",
    "http:g",
]
CASES = CORPUS[:400] + ODD
FIELDS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


def _fields(s):
    u = fasturi.split(s)
    auth = fasturi._impl.core.split_authority(u.authority) if u.authority is not None else None
    comp = {f: getattr(u, f) for f in ("scheme", "authority", "path", "query", "fragment")}
    for i, f in enumerate(("userinfo", "host", "port")):
        comp[f] = None if auth is None else auth[i]
    return comp


def _position(s, rule="URI-reference", rfc=3986):
    try:
        fasturi.validate(s, rule, rfc=rfc)
    except fasturi.InvalidURI as e:
        return e.position
    return None


def _decode(s, errors="strict"):
    return fasturi.percent_decode_bytes(s).decode("utf-8", errors)


BASE = "http://a/b/c/d;p?q"
SCALAR = {
    "normalize": (lambda fa, c: fa.normalize(c), fasturi.normalize),
    "normalize_plain": (
        lambda fa, c: fa.normalize(c, scheme_based=False),
        lambda s: fasturi.normalize(s, scheme_based=False),
    ),
    "canonicalize": (
        lambda fa, c: fa.canonicalize(c, drop_params=("utm_*", "b")),
        lambda s: fasturi.canonicalize(s, drop_params=("utm_*", "b")),
    ),
    "canonicalize_keep": (
        lambda fa, c: fa.canonicalize(c, sort_query=False, drop_fragment=False),
        lambda s: fasturi.canonicalize(s, sort_query=False, drop_fragment=False),
    ),
    "is_valid": (lambda fa, c: fa.is_valid(c), fasturi.is_valid),
    "is_valid_iri": (
        lambda fa, c: fa.is_valid(c, "IRI-reference"),
        lambda s: fasturi.is_valid(s, "IRI-reference"),
    ),
    "is_valid_2396": (
        lambda fa, c: fa.is_valid(c, "absoluteURI", rfc=2396),
        lambda s: fasturi.is_valid(s, "absoluteURI", rfc=2396),
    ),
    "error_position": (lambda fa, c: fa.error_position(c), _position),
    "error_position_iri": (
        lambda fa, c: fa.error_position(c, "IRI"),
        lambda s: _position(s, "IRI"),
    ),
    "resolve": (lambda fa, c: fa.resolve(BASE, c), lambda s: fasturi.resolve(BASE, s)),
    "resolve_2396": (
        lambda fa, c: fa.resolve(BASE, c, strict=False, rfc=2396),
        lambda s: fasturi.resolve(BASE, s, strict=False, rfc=2396),
    ),
    "percent_decode": (
        lambda fa, c: fa.percent_decode(c, errors="replace"),
        lambda s: _decode(s, "replace"),
    ),
    "split": (lambda fa, c: fa.split(c, fields=FIELDS), _fields),
}


def _expected(name, rows):
    fn = SCALAR[name][1]
    return [None if s is None else fn(s) for s in rows]


ROWS = CASES + [None, "http://x/", None]


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_rows_equal_the_scalar_function(arrow, name):
    want = _expected(name, ROWS)
    for family, col in families(ROWS):
        assert as_rows(SCALAR[name][0](arrow, col)) == want, family


@given(
    st.lists(st.one_of(st.none(), st.text(st.characters(exclude_categories=["Cs"]))), max_size=12)
)
def test_generated_rows_equal_the_scalar_function(arrow, rows):
    for name, (call, _) in SCALAR.items():
        want = _expected(name, rows)
        assert call(arrow, rows).to_pylist() == want, name
        assert call(arrow, pa.array(rows, type=pa.string_view())).to_pylist() == want, name


def test_split_at_block_edges(arrow):
    # (the kernel's scan also checks UTF-8 on its loads: "\x80" is é's
    # second byte, so the rows hold non-ASCII at every place too)
    from test_split import block_edge_texts

    rows = [t.replace("\x80", "é") for t in block_edge_texts()]
    want = [_fields(s) for s in rows]
    for family, col in families(rows):
        assert as_rows(arrow.split(col, fields=FIELDS)) == want, family


@pytest.mark.parametrize("threads", [1, 2])
def test_split_reads_no_byte_past_the_column(arrow, threads):
    # The compiled split copies a row's fields 16 bytes at a time, reading
    # past them where the column's text goes on.  Here the text is a bytes
    # object ending with the last row (which the sanitizer run watches),
    # rows of every length up to a few blocks end it, and a slice stops
    # short of it.
    rng = random.Random(3986)
    parts = ["http://", "a.b", "/p", "?q=1", "#f", "%41", "é", ":", "//", "x" * 40]
    rows = ["".join(rng.choice(parts) for _ in range(rng.randrange(12))) for _ in range(5000)]
    rows += ["h://a/" + "p" * n + "?" + "q" * (n % 7) for n in range(80)]
    col = unchecked_strings([r.encode() for r in rows])
    want = [_fields(r) for r in rows]
    assert arrow.split(col, fields=FIELDS, threads=threads).to_pylist() == want
    cut = col.slice(10, len(rows) - 50)
    assert arrow.split(cut, fields=FIELDS, threads=threads).to_pylist() == want[10:-40]


def test_result_types(arrow):
    col = pa.array(["http://a/b"], type=pa.large_string())
    assert arrow.normalize(col).type == pa.large_string()
    assert arrow.normalize(col.cast(pa.string())).type == pa.string()
    assert arrow.normalize(col.cast(pa.string_view())).type == pa.string()
    assert arrow.is_valid(col).type == pa.bool_()
    assert arrow.error_position(col).type == pa.int32()
    assert arrow.split(col, fields=["host", "port"]).type == pa.struct(
        [("host", pa.large_string()), ("port", pa.large_string())]
    )
    assert isinstance(arrow.normalize(pa.chunked_array([], type=pa.string())), pa.ChunkedArray)


def test_split_of_string_views_gives_views_into_the_column(arrow):
    rows = ["http://example.com/a/long/path?query=1#frag", None, "gs://b/f.txt", "", "x" * 40]
    col = pa.array(rows * 50, type=pa.string_view())
    want = arrow.split(col.cast(pa.string()), fields=FIELDS).to_pylist()
    out = arrow.split(col, fields=FIELDS)
    # (pyarrow before 22 cannot export views safely: they are read as string)
    kind = pa.string() if fasturi.arrow._VIEW_EXPORT_CRASHES else pa.string_view()
    assert out.type == pa.struct([(f, kind) for f in FIELDS])
    assert out.to_pylist() == want
    out.validate(full=True)
    # the result keeps the column's buffers alive once the column is gone
    sliced = arrow.split(col.slice(3, 180), fields=FIELDS, threads=2)
    del col
    import gc

    gc.collect()
    assert sliced.to_pylist() == want[3:183]
    # several data buffers (as pyarrow concatenates views), all-inline rows
    joined = pa.concat_arrays([pa.array(rows, type=pa.string_view())] * 3)
    assert arrow.split(joined, fields=FIELDS).to_pylist() == want[:15]
    short = pa.array(["a:b", None, "//h/p?q#f"], type=pa.string_view())
    assert arrow.split(short).to_pylist() == arrow.split(short.cast(pa.string())).to_pylist()


def test_pandas_keeps_index_and_name(arrow):
    s = pd.Series(["HTTP://A/./b", None], index=["x", "y"], name="url", dtype="string[pyarrow]")
    out = arrow.normalize(s)
    assert list(out.index) == ["x", "y"] and out.name == "url"
    assert out.tolist()[0] == "http://a/b" and out.isna().tolist() == [False, True]
    frame = arrow.split(s, fields=["scheme", "host"])
    assert list(frame.columns) == ["scheme", "host"] and list(frame.index) == ["x", "y"]
    assert frame.loc["x", "host"] == "A"
    # object dtype with None and NaN
    obj = pd.Series(["http://a", None, float("nan")], dtype=object)
    assert arrow.is_valid(obj).tolist()[0] is True
    assert arrow.is_valid(obj).isna().tolist() == [False, True, True]


@needs_polars
def test_polars_keeps_name_and_struct(arrow):
    s = pl.Series("u", ["http://a:1/p", None])
    out = arrow.split(s, fields=["host", "port"])
    assert out.name == "u" and out.dtype == pl.Struct({"host": pl.String, "port": pl.String})
    assert out.to_list() == [{"host": "a", "port": "1"}, None]


@pytest.mark.parametrize("threads", [2, 3, 8])
def test_threads_give_the_same_result(arrow, threads):
    rows = (CORPUS + ODD + [None]) * 10  # enough rows for several ranges
    col = pa.array(rows, type=pa.string())
    assert arrow.normalize(col, threads=threads).equals(arrow.normalize(col, threads=1))
    assert arrow.canonicalize(col, drop_params=["utm_*"], threads=threads).equals(
        arrow.canonicalize(col, drop_params=["utm_*"], threads=1)
    )
    assert arrow.split(col, fields=FIELDS, threads=threads).equals(
        arrow.split(col, fields=FIELDS, threads=1)
    )
    assert arrow.is_valid(col, threads=threads).equals(arrow.is_valid(col, threads=1))
    assert arrow.error_position(col, threads=threads).equals(arrow.error_position(col, threads=1))
    assert arrow.resolve(BASE, col, threads=threads).equals(arrow.resolve(BASE, col, threads=1))
    assert arrow.percent_decode(col, errors="replace", threads=threads).equals(
        arrow.percent_decode(col, errors="replace", threads=1)
    )


@pytest.mark.parametrize("typ", [pa.string(), pa.large_string()])
@pytest.mark.parametrize(
    "rows",
    [
        # the first range's rows, which size the result, far shorter than the rest
        ["a:"] * 3000 + ["HTTP://H/" + "%7e/./p" * 300 + "?q#f"] * 3000,
        # a range with no text at all, first or last
        [None] * 4100 + ["http://h/p?q#f"] * 4100,
        ["http://h/p?q#f"] * 4100 + [None] * 4100,
        ["", "x"] * 4100,
    ],
    ids=["long-after-short", "nulls-first", "nulls-last", "empty"],
)
def test_threads_join_uneven_ranges(arrow, rows, typ):
    col = pa.array(rows, type=typ)
    for threads in (2, 3, 4):
        assert arrow.normalize(col, threads=threads).equals(arrow.normalize(col, threads=1))
        assert arrow.split(col, threads=threads).equals(arrow.split(col, threads=1))
        assert arrow.canonicalize(col, threads=threads).equals(arrow.canonicalize(col, threads=1))


def test_results_of_megabytes_in_reused_memory(arrow):
    # Results of 4 MiB and more get memory of the kernels' own, kept when
    # released for the next such result: results kept alive stay intact
    # while later ones reuse what earlier ones released, and a buffer that
    # outgrows its guess (short rows first, long ones after) grows in place.
    short = [f"http://h.example/{i:08d}" for i in range(2000)]
    long = [f"HTTP://H.example/{i}/" + "seg/./x/../" * 30 + f"?q={i}#f" for i in range(60000)]
    col = pa.array(short + long)
    want_norm = [fasturi.normalize(u) for u in short + long]
    want_path = [fasturi.split(u).path for u in short + long]
    kept = []
    for round_ in range(3):
        for threads in (1, 2):
            norm = arrow.normalize(col, threads=threads)
            parts = arrow.split(col, threads=threads)
            kept.append((norm, parts))
            if round_ == 1:
                kept.pop(0)  # released: its memory goes back to be reused
    for norm, parts in kept:
        assert norm.to_pylist() == want_norm
        assert parts.field("path").to_pylist() == want_path


def test_resolve_against_a_column_of_bases(arrow):
    bases = pa.array([BASE, "relative/base", None, "http://x/y/"])
    refs = pa.chunked_array([["g", "g"], ["g", None]])
    assert arrow.resolve(bases, refs).to_pylist() == ["http://a/b/c/g", None, None, None]
    assert arrow.resolve("no-scheme", ["g", None]).to_pylist() == [None, None]
    with pytest.raises(ValueError, match="argument 'base' cannot be encoded as UTF-8"):
        arrow.resolve("http://a/\ud800/", ["g"])
    with pytest.raises(ValueError, match="3 rows"):
        arrow.resolve(["http://a/", "http://b/", "http://c/"], ["g"])
    # a page's links share its base, in runs; equal text in other buffers too
    page = ["http://a/b/", "http://a/b/", "http://a/c/", "http://a/b/", None, "x:/", "x:/"]
    links = ["d", "../e", "d", "?q", "d", "f", None]
    want = [None if b is None or r is None else fasturi.resolve(b, r) for b, r in zip(page, links)]
    assert arrow.resolve(page, links).to_pylist() == want
    assert arrow.resolve(pa.chunked_array([page[:2], page[2:]]), links).to_pylist() == want
    # bases cut as the references are, of any string type or sliced, are
    # read where they lie
    for typ in (pa.string(), pa.large_string(), pa.string_view()):
        bases = pa.chunked_array([page[:3], page[3:]], type=typ)
        assert arrow.resolve(bases, pa.chunked_array([links[:3], links[3:]])).to_pylist() == want
    sliced = pa.array(["http://other/"] + page).slice(1)
    assert arrow.resolve(sliced, links).to_pylist() == want


def _invalid_utf8():
    return unchecked_strings([b"ok", b"b\xff", b"zz"])


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_invalid_utf8_row_is_named(arrow, name):
    with pytest.raises(ValueError, match="row 1 is not valid UTF-8"):
        SCALAR[name][0](arrow, _invalid_utf8())
    chunked = pa.chunked_array([pa.array(["a", "b"]), _invalid_utf8()])
    with pytest.raises(ValueError, match="row 3 is not valid UTF-8"):
        SCALAR[name][0](arrow, chunked)


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_invalid_utf8_early_in_a_long_row_is_named(arrow, name):
    # the bad bytes in the first 64 of a row of 128 or more, ASCII after
    # them: the row's ASCII check reads 64 bytes at a time
    col = unchecked_strings([b"ok", b"http://a/\xff\xfe" + b"x" * 60 + b"/" + b"y" * 70])
    with pytest.raises(ValueError, match="row 1 is not valid UTF-8"):
        SCALAR[name][0](arrow, col)


def test_percent_decode_strict_names_the_row(arrow):
    with pytest.raises(UnicodeDecodeError, match="invalid start byte in row 2") as info:
        arrow.percent_decode(pa.chunked_array([["a"], ["%C3%A9", "x%FFy"]]))
    assert info.value.start == 1 and info.value.object == b"x\xffy"
    assert arrow.percent_decode(["x%FFy%C3"], errors="ignore").to_pylist() == ["xy"]
    # the first row to fail is the one named, whichever way it fails
    col = unchecked_strings([b"x%FF", b"b\xff"])
    with pytest.raises(UnicodeDecodeError, match="in row 0"):
        arrow.percent_decode(col)
    col = unchecked_strings([b"b\xff", b"x%FF"])
    with pytest.raises(ValueError, match="row 0 is not valid UTF-8"):
        arrow.percent_decode(col)


@pytest.mark.parametrize(
    "col, message",
    [
        (pa.array([1, 2]), "must be a string column, not int64"),
        (pa.array([b"x"]), "must be a string column, not binary"),
        pytest.param(
            pl and pl.Series([1.5]), "must be a string column, not double", marks=needs_polars
        ),
        (pd.Series([1, 2]), "must be a string column, not int64"),
        (42, "must be an Arrow string column or a list of str, not int"),
        ("http://a", "must be an Arrow string column or a list of str, not str"),
        ([b"x"], "item 0 must be str or None, not bytes"),
    ],
)
def test_other_types_raise_type_error_naming_the_type(arrow, col, message):
    with pytest.raises(TypeError, match=message):
        arrow.normalize(col)


def test_argument_errors(arrow):
    with pytest.raises(ValueError, match="unknown field 'bogus'"):
        arrow.split(["x"], fields=["bogus"])
    with pytest.raises(ValueError, match="unknown rule"):
        arrow.is_valid(["x"], "no-such-rule")
    with pytest.raises(ValueError, match="threads"):
        arrow.normalize(["x"], threads=0)
    with pytest.raises(ValueError, match="errors"):
        arrow.percent_decode(["x"], errors="surrogateescape")


def test_null_and_dictionary_columns(arrow):
    assert arrow.normalize(pa.array([None, None])).to_pylist() == [None, None]
    cat = pa.array(["HTTP://A", "HTTP://A", None]).dictionary_encode()
    assert arrow.normalize(cat).to_pylist() == ["http://a/", "http://a/", None]


@needs_nanoarrow
def test_capsule_only_objects(arrow):
    import nanoarrow as na

    out = arrow.normalize(na.c_array(["HTTP://A/./b", None], na.string()))
    assert out.to_pylist() == ["http://a/b", None]


def test_text_stream_kernels(arrow):
    # what the command line's block path is made of
    k = arrow._kernels
    col, count, bad, starts = k.lines(b"a\r\nb\xffz\n\n\xef\xbb\xbfc\r")
    assert (count, bad, list(starts)) == (4, [(1, 3, 6)], [0, 3, 7, 8, 13])
    assert pa.array(col).to_pylist() == ["a", "", "\ufeffc\r"]  # (takes the capsules)
    assert [*k.lines(b"")[1:3], list(k.lines(b"")[3])] == [0, [], [0]]
    col = k.lines(b"HTTP://A/./b\r\n\nx")[0]
    assert k.join_lines(k.normalize(col, 0, 1, True)) == b"http://a/b\n\nx\n"
    parts = k.split(
        ArrowColumn(*pa.array(["h://u@x:1/p\tq?a\\b", None, "r\n"]).__arrow_c_array__()),
        0,
        1,
        ("scheme", "userinfo", "port", "path", "query"),
    )
    assert k.join_tsv(parts, 5) == (
        b"h\tu\t1\t/p\\tq\ta\\\\b\n\\N\t\\N\t\\N\t\\N\t\\N\n\\N\t\\N\t\\N\tr\\n\t\\N\n"
    )


@pytest.mark.compiled
def test_corrupt_buffers_raise_naming_the_row():
    # What a careless producer can hand over without pyarrow validating it:
    # the compiled kernels check what the C Data Interface lets them check.
    from fasturi import _arrow_c

    backwards = pa.array([0, 3, 1, 4], type=pa.int32()).buffers()[1]
    col = pa.Array.from_buffers(pa.string(), 3, [None, backwards, pa.py_buffer(b"abcd")])
    with pytest.raises(ValueError, match="row 1 has offsets outside its Arrow buffers"):
        _arrow_c.normalize(ArrowColumn(*col.__arrow_c_array__()), 0, 1, True)
    # a view naming a variadic buffer that is not there, and one past the
    # end of its buffer
    import struct

    data = pa.py_buffer(b"x" * 40)
    for index, offset in ((3, 0), (0, 30)):
        views = pa.py_buffer(struct.pack("<i4sii", 20, b"xxxx", index, offset))
        col = pa.Array.from_buffers(pa.string_view(), 1, [None, views, data])
        with pytest.raises(ValueError, match="row 0 has offsets outside"):
            _arrow_c.split(ArrowColumn(*col.__arrow_c_array__()), 0, 1, ("path",))


@pytest.mark.compiled
def test_kernels_from_many_threads_at_once(arrow):
    # The kernels share no state: Python threads calling them together, each
    # call itself on two threads, all get the single-threaded answers.
    import threading

    col = pa.array((CORPUS + ODD + [None]) * 3, type=pa.string())
    want = [arrow.normalize(col, threads=1), arrow.split(col, threads=1)]
    errors = []

    def hammer():
        try:
            for _ in range(3):
                assert arrow.normalize(col, threads=2).equals(want[0])
                assert arrow.split(col, threads=2).equals(want[1])
        except BaseException as exc:  # reported below
            errors.append(exc)

    workers = [threading.Thread(target=hammer) for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert not errors, errors
