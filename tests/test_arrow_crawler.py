"""The column forms of the crawler tools (docs/reference.md §4 in fasturi.arrow): row i
of every result is the scalar function of row i, both implementations, with
nulls, slices, large_string and string_view, and each input family."""

from __future__ import annotations

from importlib.resources import files

import pandas as pd
import pyarrow as pa
import pytest
from arrow_families import pl
from unchecked import unchecked_strings

import fasturi

CORPUS = files("fasturi").joinpath("data", "urls.txt").read_text("utf-8").splitlines()
ODD = [
    "",
    "https://a.b.blogspot.com/x",
    "http://www.食狮.公司.cn/",
    "http://1.2.3.4/",
    "http://[::1]/",
    "HTTP://User:Pw@WWW.Ex.CO.UK:0080/%7e/./a/../b?b=1&a=2#F",
    "mailto:Joe@Example.COM",
    "http://例え.テスト/パス?q=é#\U0001f600",
    "http://a.com/(S(lit3py55t21z5v55vlm25s55))/x.aspx?b=2&sid=9&cfid=1&cftoken=2",
    "  \t",
    "filedesc://x.arc",
    # non-ASCII only in a long row's first 64 bytes (the row's ASCII check
    # once lost them)
    "http://b\u00fccher.example/" + "x" * 64 + "/" + "y" * 64,
    "https://" + "\u00aa" * 21 + ";" * 39 + "z." + ";" * 47 + ".com/x",
]
ROWS = CORPUS[:300] + ODD + [None]


def _scalar(fn, rows):
    return [None if r is None else fn(r) for r in rows]


CASES = {
    "registrable_domain": (
        lambda arrow, col: arrow.registrable_domain(col),
        lambda s: fasturi.registrable_domain(s),
    ),
    "registrable_domain-private": (
        lambda arrow, col: arrow.registrable_domain(col, private=True),
        lambda s: fasturi.registrable_domain(s, private=True),
    ),
    "public_suffix": (
        lambda arrow, col: arrow.public_suffix(col, private=True),
        lambda s: fasturi.public_suffix(s, private=True),
    ),
    "surt": (lambda arrow, col: arrow.surt(col), fasturi.surt),
    "canonicalize-w3lib": (
        lambda arrow, col: arrow.canonicalize(col, preset="w3lib", drop_fragment=False),
        lambda s: fasturi.canonicalize(s, preset="w3lib", drop_fragment=False),
    ),
    "fingerprint": (
        lambda arrow, col: arrow.fingerprint(col, drop_params=["utm_*"]),
        lambda s: fasturi.fingerprint(s, drop_params=["utm_*"]),
    ),
    "fingerprint-w3lib": (
        lambda arrow, col: arrow.fingerprint(col, preset="w3lib"),
        lambda s: fasturi.fingerprint(s, preset="w3lib"),
    ),
}
# the rows surt and w3lib reject (a port that is not a number) are left out
# of these tables: see test_rejected_row_is_named
GOOD = [r for r in ROWS if r is None or ":x" not in r]


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("typ", [pa.string(), pa.large_string(), pa.string_view()])
def test_rows_equal_the_scalar(arrow, name, typ):
    column, scalar = CASES[name]
    col = pa.array(GOOD, type=typ)
    got = column(arrow, col)
    assert got.to_pylist() == _scalar(scalar, GOOD)
    if name.startswith("fingerprint"):
        assert got.type == pa.uint64()
    else:
        assert got.type == (pa.large_string() if typ == pa.large_string() else pa.string())


@pytest.mark.parametrize("name", sorted(CASES))
def test_slices_and_chunks(arrow, name):
    column, scalar = CASES[name]
    sliced = pa.array(GOOD, type=pa.string()).slice(7, 50)
    assert column(arrow, sliced).to_pylist() == _scalar(scalar, GOOD[7:57])
    chunked = pa.chunked_array([GOOD[:10], GOOD[10:]], type=pa.string())
    out = column(arrow, chunked)
    assert isinstance(out, pa.ChunkedArray)
    assert out.to_pylist() == _scalar(scalar, GOOD)


def test_families(arrow):
    rows = ["https://www.bbc.co.uk/x", None, "http://a.b.example.com/"]
    want = ["bbc.co.uk", None, "example.com"]
    assert arrow.registrable_domain(rows).to_pylist() == want
    if pl is not None:  # (none on a free-threaded interpreter: arrow_families)
        out = arrow.registrable_domain(pl.Series("u", rows))
        assert isinstance(out, pl.Series) and out.to_list() == want
    series = pd.Series(rows, index=[5, 6, 7], dtype="string[pyarrow]")
    out = arrow.fingerprint(series)
    assert isinstance(out, pd.Series) and list(out.index) == [5, 6, 7]
    assert out[5] == fasturi.fingerprint(rows[0])


@pytest.mark.parametrize("threads", [1, 2])
def test_fingerprint_of_empty_first_rows(arrow, threads):
    # a range whose first row is "" has written no key yet: the sanitizer
    # run checks that no memory is touched through the empty buffer
    rows = ["", None, "", "http://a/b?x=1#f"] * 600
    for options in ({}, {"drop_fragment": False}, {"sort_query": False}):
        got = arrow.fingerprint(rows, threads=threads, **options)
        assert got.to_pylist() == _scalar(lambda s, o=options: fasturi.fingerprint(s, **o), rows)


@pytest.mark.parametrize("threads", [1, 2])
def test_threads(arrow, threads):
    col = pa.array(GOOD)
    assert arrow.surt(col, threads=threads).to_pylist() == _scalar(fasturi.surt, GOOD)
    # enough rows for two ranges, non-ASCII hosts (the GIL taken) in both
    rows = GOOD * 40
    want = _scalar(lambda s: fasturi.public_suffix(s, private=True), rows)
    got = arrow.public_suffix(pa.array(rows), private=True, threads=threads)
    assert got.to_pylist() == want
    # the w3lib preset: IP literals and non-ASCII hosts (the reference's)
    # in both ranges
    for drop in (True, False):
        got = arrow.canonicalize(rows, preset="w3lib", drop_fragment=drop, threads=threads)
        want = [
            None if s is None else fasturi.canonicalize(s, preset="w3lib", drop_fragment=drop)
            for s in rows
        ]
        assert got.to_pylist() == want
    got = arrow.fingerprint(rows, preset="w3lib", threads=threads)
    assert got.to_pylist() == _scalar(lambda s: fasturi.fingerprint(s, preset="w3lib"), rows)


def test_rejected_row_is_named(arrow):
    rows = ["http://a.com/", None, "http://a.com:x/"]
    with pytest.raises(ValueError, match=r"^row 2: surt\(\) port is not a number"):
        arrow.surt(rows)
    with pytest.raises(ValueError, match=r"^row 2: "):
        arrow.canonicalize(rows, preset="w3lib")
    with pytest.raises(ValueError, match=r"^row 2: "):
        arrow.fingerprint(rows, preset="w3lib")


@pytest.mark.parametrize("threads", [1, 2])
def test_first_rejected_row_is_named(arrow, threads):
    # refused rows in each of two ranges: the first one is named
    rows = ["http://a.com/"] * 9000
    rows[3000] = "http://a.com:99999/"
    rows[7000] = "http://[::1/"
    with pytest.raises(ValueError, match=r"^row 3000: Port out of range"):
        arrow.canonicalize(rows, preset="w3lib", threads=threads)
    with pytest.raises(ValueError, match=r"^row 3000: Port out of range"):
        arrow.fingerprint(rows, preset="w3lib", threads=threads)
    rows[3000] = "http://a.com/"
    with pytest.raises(ValueError, match=r"^row 7000: Invalid IPv6 URL"):
        arrow.canonicalize(rows, preset="w3lib", threads=threads)
    rows[3000] = "http://a.com:99999/"
    with pytest.raises(ValueError, match=r"^row 3000: surt\(\) port out of range"):
        arrow.surt(rows, threads=threads)
    rows[3000] = "http://a.com/"
    rows[7000] = "http://a.com:8x/"
    with pytest.raises(ValueError, match=r"^row 7000: surt\(\) port is not a number: '8x'"):
        arrow.surt(rows, threads=threads)


def test_preset_checks(arrow):
    with pytest.raises(ValueError, match=r"^fingerprint\(\) with preset='w3lib'"):
        arrow.fingerprint(["http://a/"], preset="w3lib", sort_query=False)
    with pytest.raises(ValueError, match=r"^canonicalize\(\) argument 'preset'"):
        arrow.canonicalize(["http://a/"], preset="scrapy")


@pytest.mark.parametrize(
    "bad",
    [
        b"\xffhttp://a.com/",  # first byte
        b"  \xe9http://a.com/",  # after the spaces stripped
        b"http://a\xff.com/",  # host, a short row
        b"http://a.com/" + b"p" * 40 + b"\xc3",  # a long row's last byte (cut sequence)
        b"http://a.com/p#frag\xff",  # the fragment, which the key never reads
        b"http://a.com/p#" + b"f" * 80 + b"\xed\xa0\x80",  # an encoded surrogate, far past "#"
        b"http://a.com/p\tq\xff",  # after a tab
        b"http://a.com/" + b"\n" * 20 + b"\x80" + b"x" * 20,  # after newlines, in a block
        b"filedesc://x\xff.arc",  # a CDX header, kept as it is
        b"http://a.com:8x/\xff",  # a refused port: the UTF-8 error comes first
    ],
)
def test_surt_rows_not_utf8_are_named(arrow, bad):
    # surt's column form checks a row's UTF-8 from its own copy of the row:
    # every place a byte from 0x80 can stand is seen, wherever the copy stops
    col = unchecked_strings([b"http://ok.example/", bad, b"http://b.com/"])
    with pytest.raises(ValueError, match="^row 1 is not valid UTF-8"):
        arrow.surt(col)


def test_surt_rows_of_valid_utf8_past_the_copy_are_kept(arrow):
    # the same places holding valid UTF-8: each row's scalar key
    rows = [
        "http://a.com/p#fr\u00e4g",
        "http://a.com/p\tq\u00e9",
        "filedesc://x\u00e9.arc",
        "  \u00e9http://a.com/",
        "http://a.com/" + "p" * 40 + "\u00e9",
    ]
    assert arrow.surt(pa.array(rows)).to_pylist() == [fasturi.surt(r) for r in rows]
