"""The crawler tools (docs/reference.md §4) on odd text: empty, NUL and other
controls, huge, non-ASCII, invalid escapes, lone surrogates.  The compiled
twin reads such text through its C paths (SIMD scans, fixed scratch
sizes), so it must give exactly the pure twin's answer or exception, for
the scalar functions and for the column forms."""

from __future__ import annotations

from types import SimpleNamespace

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fasturi.arrow

ODD = [
    "",
    " ",
    "\x00",
    "http://\x00/",
    "http://a.com/\x00?\x00=\x00#\x00",
    "http://a.com\t/b\n?c\r=d",
    "\t\n http://a.com/ \x0b\x0c",
    "%",
    "%%%",
    "http://a.com/%",
    "http://a.com/%g0%0g%%41",
    "http://%41%2e%42.com/%2e%2E/x",
    "http://a.com/?%=%&%%=&=&&",
    "http://a.com/?" + "&" * 40,
    "http://" + "a." * 200 + "com/",
    "http://" + "." * 50 + "/",
    "http://www." + "x" * 70000 + ".com/",
    "http://a.com/" + "%41/" * 5000 + "?" + "b=%42&" * 3000,
    "http://a.com/" + "/." * 3000 + "/.." * 3000,
    "http://a.com/" + "é" * 3000,
    "http://例え.テスト/パス?q=é#😀",
    "http://xn--r8jz45g.xn--zckzah/",
    "http://\ud800.com/\udfff",
    "http://a.com/\ud800?\udc00",
    "\ud800",
    "http://[::1]/",
    "http://[::1%eth0]/",
    "http://[::ffff:1.2.3.4]:80/",
    "http://[" + "1:" * 100 + "]/",
    "http://[",
    "http://]",
    "http://a.com:99999999999999999999/",
    "http://a.com:/",
    "http://@:@/",
    "http://u:p@[::1]:8080/x",
    "http://1.2.3.4/",
    "http://0x7f.1/",
    "http://4294967296/",
    "http://00000000000000000000001.2/",
    "filedesc://x",
    "ftp://a.com/x;y;z",
    "mailto:a@b.com",
    "a:b:c:d",
    ":",
    "//a.com",
    "http:////a.com/",
    "http://http://https://a.com/",
    "HTTP://A.COM/",
    "hTtPs:x",
    "http:",
    "https:",
    "httpS://a/b",
    "http+x://a",
    "http:/a",
    "https//a",
]


def _outcome(fn, *args, **kwargs):
    try:
        return fn(*args, **kwargs)
    except (ValueError, TypeError) as exc:  # UnicodeEncodeError included
        return type(exc)


def _calls(fasturi_module):
    return [
        ("registrable_domain", fasturi_module.registrable_domain, {}),
        ("registrable_domain-private", fasturi_module.registrable_domain, {"private": True}),
        ("public_suffix", fasturi_module.public_suffix, {}),
        ("surt", fasturi_module.surt, {}),
        ("canonicalize-w3lib", fasturi_module.canonicalize, {"preset": "w3lib"}),
        (
            "canonicalize-w3lib-fragment",
            fasturi_module.canonicalize,
            {"preset": "w3lib", "drop_fragment": False},
        ),
        ("fingerprint-w3lib", fasturi_module.fingerprint, {"preset": "w3lib"}),
    ]


def _twins(twin_pair):
    # the compiled and the pure functions, by the names fasturi gives them
    (psl_c, psl_py), (surt_c, surt_py) = twin_pair("psl"), twin_pair("surt")
    pipe_c, pipe_py = twin_pair("pipeline")
    return _names(psl_c, surt_c, pipe_c), _names(psl_py, surt_py, pipe_py)


def _names(psl, surt, pipe):
    return SimpleNamespace(
        registrable_domain=psl.registrable_domain,
        public_suffix=psl.public_suffix,
        surt=surt.surt,
        canonicalize=pipe.canonicalize,
        fingerprint=pipe.fingerprint,
    )


@pytest.mark.parity
@pytest.mark.parametrize("text", ODD, ids=range(len(ODD)))
def test_odd_text_same_in_both_twins(twin_pair, text):
    compiled, pure = _twins(twin_pair)
    for (name, fn_c, options), (_, fn_py, _) in zip(_calls(compiled), _calls(pure)):
        assert _outcome(fn_c, text, **options) == _outcome(fn_py, text, **options), name


PIECES = st.sampled_from(
    [
        "http://",
        "https://",
        "ftp://",
        "x:",
        "www.",
        "a",
        "B",
        ".",
        "..",
        "/",
        "/.",
        "?",
        "&",
        "=",
        "#",
        "%",
        "%2",
        "%41",
        "%2e",
        "%2F",
        "%E9",
        "%ZZ",
        "@",
        ":",
        ":80",
        "[",
        "]",
        "::1",
        ";",
        "+",
        " ",
        "\t",
        "\x00",
        "\x7f",
        "é",
        "例",
        "\ud800",
        "co.uk",
        "com",
        "sid=1",
        "(",
        ".aspx",
        "1",
        "0x",
    ]
)


@pytest.mark.parity
@given(st.lists(PIECES, max_size=30).map("".join))
def test_generated_text_same_in_both_twins(twin_pair, text):
    compiled, pure = _twins(twin_pair)
    for (name, fn_c, options), (_, fn_py, _) in zip(_calls(compiled), _calls(pure)):
        assert _outcome(fn_c, text, **options) == _outcome(fn_py, text, **options), name


COLUMN_CALLS = [
    ("registrable_domain", lambda a, col: a.registrable_domain(col), {}),
    ("public_suffix", lambda a, col: a.public_suffix(col, private=True), {"private": True}),
    ("surt", lambda a, col: a.surt(col), {}),
    ("canonicalize-w3lib", lambda a, col: a.canonicalize(col, preset="w3lib"), {}),
    ("fingerprint-w3lib", lambda a, col: a.fingerprint(col, preset="w3lib"), {}),
]


def _column_rows(call, arrow, text):
    return call(arrow, pa.array([text, None], type=pa.string())).to_pylist()


@pytest.mark.parametrize("name", [name for name, _, _ in COLUMN_CALLS])
def test_odd_rows_in_columns(arrow, name):
    # each odd row (valid UTF-8) alone, so a refused one names only itself
    call = {n: c for n, c, _ in COLUMN_CALLS}[name]
    scalar = {
        "registrable_domain": fasturi.registrable_domain,
        "public_suffix": lambda s: fasturi.public_suffix(s, private=True),
        "surt": fasturi.surt,
        "canonicalize-w3lib": lambda s: fasturi.canonicalize(s, preset="w3lib"),
        "fingerprint-w3lib": lambda s: fasturi.fingerprint(s, preset="w3lib"),
    }[name]
    for text in ODD:
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            continue  # no Arrow string holds a lone surrogate
        want = _outcome(scalar, text)
        got = _outcome(_column_rows, call, arrow, text)
        if isinstance(want, type):
            assert got is want, text[:50]
        else:
            assert got == [want, None], text[:50]


# A byte to escape, or to lowercase, at every place around the compiled
# scans' 16-byte blocks, in the host, the path and the query.
BLOCK_TEXT = [
    f"http://{'H' * (k % 20)}x.CoM/{'P' * k}{odd}Q/?{'A' * k}={odd}"
    for k in range(0, 40)
    for odd in ("%", "#", " ", "é", "\x7f", "%41", "Z", "/./", "//", "/../", "%2F%2e")
]


@pytest.mark.parity
def test_block_edges_same_in_both_twins(twin_pair):
    compiled, pure = _twins(twin_pair)
    for text in BLOCK_TEXT:
        for (name, fn_c, options), (_, fn_py, _) in zip(_calls(compiled), _calls(pure)):
            assert _outcome(fn_c, text, **options) == _outcome(fn_py, text, **options), (
                name,
                text,
            )
