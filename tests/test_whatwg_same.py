"""csrc/fasturi_whatwg_same.h's fu_ww_same: the inputs it proves serialize to
themselves (an http or https URL written as the URL Standard writes it),
each of its conditions met just inside (taken: the href is the input, or the
input and "/") and just outside (not taken: the full parser's).  Either way
the URL is the reference's and ada's, scalar and in the column kernels,
whose whatwg_href loops over the rows fu_ww_same takes in C."""

from __future__ import annotations

import sys

import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fasturi._whatwg_py as reference
import fasturi.arrow as fa
from fasturi import whatwg

P = "/" + "p" * 20  # a path long enough for any input to be 17 bytes

# (input, taken): each condition of fu_ww_same's, just inside and just outside.
CASES = [
    # the scheme and its slashes, exactly
    ("http://example.com/a", True),
    ("https://example.com/a", True),
    ("HTTP://example.com/a", False),
    ("hTtps://example.com/a", False),
    ("http:/example.com/abc", False),
    ("http:///example.com/a", False),
    ("http:\\\\example.com/a", False),
    ("http:\\/example.com/a", False),
    ("ws://example.com/abcd", False),
    ("wss://example.com/abc", False),
    ("ftp://example.com/abc", False),
    ("httpx://example.com/a", False),
    ("https:example.com/abc", False),
    # 17 bytes at least
    ("http://a.bc/defgh", True),
    ("http://a.bc/defg", False),
    ("https://istio.io/", True),
    ("https://istio.io", False),
    ("http://abcdefghij", True),
    ("http://abcdefghi", False),
    # the host: a-z 0-9 "-" ".", no trailing ".", the last label not
    # starting with a digit ("xn--" labels included: an ASCII domain is
    # kept as written)
    ("http://Example.com" + P, False),
    ("http://examplE.com" + P, False),
    ("http://exa_mple.com" + P, False),
    ("http://ex%61mple.com" + P, False),
    ("http://user@example.com" + P, False),
    ("http://user:pw@example.com" + P, False),
    ("http://:pw@example.com" + P, False),
    ("http://@example.com" + P, False),
    ("http://xn--n3h.net" + P, True),
    ("http://a.xn--n3h.net" + P, True),
    ("http://xn--a" + P, True),
    ("http://a--b.example.com" + P, True),
    ("http://a-b.example.com" + P, True),
    ("http://-a.example-.com" + P, True),
    ("http://a-.-b.com" + P, True),
    ("http://a..b.example" + P, True),
    ("http://.example.com" + P, True),
    ("http://example.com." + P, False),
    ("http://example.com.." + P, False),
    ("http://." + P, False),
    ("http://example.1com" + P, False),
    ("http://example.com1" + P, True),
    ("http://1example.com" + P, True),
    ("http://1.2.3.4" + P, False),
    ("http://1.2.3" + P, False),
    ("http://0x7f.1" + P, False),
    ("http://12345" + P, False),
    ("http://a.b.c.0x" + P, False),
    ("http://[::1]" + P, False),
    ("http://exa mple.com" + P, False),
    ("http://exämple.com" + P, False),
    ("http://" + P, False),
    ("http:///" + P, False),
    # hosts across the scan's 32-byte windows, "-" pairs and dots at their edges
    ("http://" + "a" * 31 + P, True),
    ("http://" + "a" * 32 + P, True),
    ("http://" + "a" * 33 + P, True),
    ("http://" + "a" * 70 + ".com" + P, True),
    ("http://" + "a" * 30 + "-" + "-b" + P, True),
    ("http://" + "a" * 31 + "-" + "-b" + P, True),
    ("http://" + "a" * 32 + "--b" + P, True),
    ("http://" + "a" * 31 + "." + "xn--9a" + P, True),
    ("http://" + "a" * 31 + "-b-c" + P, True),
    ("http://" + "a" * 31 + ".9b" + P, False),
    ("http://" + "a" * 31 + ".b9" + P, True),
    ("http://" + "a" * 32 + "." + P, False),
    ("http://9" + "a" * 40 + P, False),
    ("http://9" + "a" * 40 + ".b" + P, True),
    ("http://a." + "9" * 40 + P, False),
    ("http://" + "a" * 32, True),
    ("http://" + "a" * 31, True),
    ("http://" + "a" * 33, True),
    ("https://" + "b" * 64, True),
    ("https://" + "b" * 63 + "-", True),
    ("https://" + "b" * 63 + ".", False),
    # the port: 1 to 5 digits, no leading zero, at most 65535, not the default
    ("http://example.com:8080" + P, True),
    ("http://example.com:8080", True),
    ("http://example.com:1" + P, True),
    ("http://example.com:80" + P, False),
    ("https://example.com:443" + P, False),
    ("http://example.com:443" + P, True),
    ("https://example.com:80" + P, True),
    ("http://example.com:0" + P, False),
    ("http://example.com:08080" + P, False),
    ("http://example.com:00" + P, False),
    ("http://example.com:65535" + P, True),
    ("http://example.com:65536" + P, False),
    ("http://example.com:99999" + P, False),
    ("http://example.com:123456" + P, False),
    ("http://example.com:" + P, False),
    ("http://example.com:", False),
    ("http://example.com:8a" + P, False),
    ("http://example.com:8080?q=1", False),
    ("http://example.com:8080#f", False),
    ("http://example.com::8080" + P, False),
    ("http://" + "a" * 30 + ":8080" + P, True),
    ("http://" + "a" * 32 + ":8080", True),
    # no path: the serializer writes "/"; a query or fragment after the host
    # is the full parser's
    ("http://example.com", True),
    ("https://example.com", True),
    ("http://example.com?q=1", False),
    ("http://example.com#frag", False),
    # dot segments, spelt any way, and what only looks like one
    ("http://example.com/./abc", False),
    ("http://example.com/../abc", False),
    ("http://example.com/.abc/d", False),
    ("http://example.com/abc/.", False),
    ("http://example.com/abc/..", False),
    ("http://example.com/%2e/abc", False),
    ("http://example.com/%2E%2e/a", False),
    ("http://example.com/%2E/abc", False),
    ("http://example.com/abc/%2E", False),
    ("http://example.com/%2E%2E/a", False),
    ("http://example.com/.%2E/ab", False),
    ("http://example.com/.%2e/ab", False),
    ("http://example.com/a/%2e", False),
    ("http://example.com/%2eabc/", False),
    ("http://example.com/a%2ebc/", False),
    ("http://example.com/a.b/c.d", True),
    ("http://example.com/a./b..", True),
    ("http://example.com/a%2fb/c", True),
    ("http://example.com/abc%2", True),
    ("http://example.com/abc%", True),
    ("http://example.com/abc%2f", True),
    ("http://example.com/ab%zz", True),
    ("http://example.com/a?x=/./", True),
    ("http://example.com/a?x=%2e", True),
    ("http://example.com/a#/../b", True),
    ("http://example.com/a#%2e%2e", True),
    ("http://example.com/a?b#/./", True),
    # queries and fragments: which comes first, empty ones
    ("http://example.com/a?", True),
    ("http://example.com/a#", True),
    ("http://example.com/a?#", True),
    ("http://example.com/a#?", True),
    ("http://example.com/a?b?c#d#e", True),
    ("http://example.com/a#b?c", True),
    ("http://example.com/?", True),
    ("http://example.com/#", True),
    # leading and trailing C0 control or space, tab and newline anywhere
    (" http://example.com/abc", False),
    ("http://example.com/abc ", False),
    ("http://example.com/abc\x00", False),
    ("http://example.com/abc\x1f", False),
    ("http://example.com/a\tbc", False),
    ("http://example.com/a\nbc", False),
    ("http://example.com/a\rbc", False),
    ("http://exam\tple.com/abc", False),
]
# Each byte in the path, the query and the fragment (at the start, middle
# and end of each): the bytes of the percent-encode sets' (and backslash)
# are not taken, wherever they are; every other printable ASCII byte is.
NOT_TAKEN = " \"<>\\^`{}'\x7f\x01\x1f\u00e9\u20ac"
TAKEN = "!$&()*+,-.:;=@[]_|~%/?#AZaz09"
for c in NOT_TAKEN + TAKEN:
    for where in ("/p{c}q/r", "/{c}pq", "/pq/{c}", "/p?q{c}r", "/p?{c}", "/p#q{c}r", "/p#{c}"):
        path = where.format(c=c)
        in_path = path.split("?")[0].split("#")[0]
        plain = "/." not in in_path and "%2e" not in in_path.lower()
        CASES.append(("http://example.com" + path, c not in NOT_TAKEN and plain))


def _getters(url):
    return tuple(getattr(url, name) for name in fa.WHATWG_FIELDS)


def _reference(text, base=None):
    try:
        return _getters(reference.parse(text, base))
    except reference.InvalidURL:
        return None


def _ours(text, base=None):
    try:
        return _getters(whatwg.parse(text, base))
    except whatwg.InvalidURL:
        return None


def _ada(text, base=None):
    ada_url = pytest.importorskip("ada_url")
    try:
        return _getters(ada_url.URL(text, base))
    except ValueError:
        return None


@pytest.mark.parametrize("text, taken", CASES)
def test_the_url_is_the_reference_s(text, taken):
    assert _ours(text) == _reference(text)
    assert _ours(text, "https://base.example/dir/x?y#z") == _reference(
        text, "https://base.example/dir/x?y#z"
    )


@pytest.mark.skipif(sys.version_info < (3, 10), reason="ada-url 4 needs Python 3.10")
@pytest.mark.parametrize("text, taken", CASES)
def test_and_ada_s(text, taken):
    assert _ours(text) == _ada(text)


@pytest.mark.parity
@pytest.mark.parametrize("text, taken", CASES)
def test_taken_just_inside_each_condition(text, taken):
    from fasturi import _whatwg_c

    got = _whatwg_c._same(text)
    assert (got is not None) == taken
    if got is None:
        return
    href, parts = got
    assert href in (text, text + "/")
    # the full parser's answer (a trailing space: not taken, then trimmed)
    full = _whatwg_c.parse(text + " ")
    assert href == full.href
    assert parts == _whatwg_c._parts(full)
    assert _getters(_whatwg_c.parse(text)) == _getters(full)


def _paths():
    """Paths, queries and fragments around the scan's 64-byte window and
    16-byte blocks: every length to 140, with "?", "#", "%2e", "/." and a
    byte never taken at each edge."""
    for n in range(1, 141):
        yield "/" + "x" * (n - 1)
        yield "/" + "x" * (n - 1) + "?q"
        yield "/" + "x" * (n - 1) + "#f"
        yield "/" + "x" * max(n - 2, 0) + "/.y"
        yield "/" + "x" * max(n - 2, 0) + "%2ey"
        yield "/" + "x" * max(n - 2, 0) + "%2E"
        yield "/" + "x" * max(n - 2, 0) + "%2"
        yield "/" + "x" * max(n - 2, 0) + "^y"
        yield "/a?" + "x" * n + "/./%2e"
        yield "/a#" + "x" * n + "`"
        yield "/a?" + "x" * n + "#" + "y" * n + "?"


@pytest.mark.parity
@pytest.mark.parametrize("host", ["example.com", "a" * 40 + ".io:8443"])
def test_lengths_around_the_blocks(host):
    from fasturi import _whatwg_c

    for path in _paths():
        for scheme in ("http://", "https://"):
            text = scheme + host + path
            got = _whatwg_c._same(text)
            want = _reference(text)
            assert _ours(text) == want, text
            if got is not None:
                full = _whatwg_c.parse(text + " ")
                assert got == (full.href, _whatwg_c._parts(full)), text
                assert got[0] == want[0], text
            # what fu_ww_same leaves is what the rule says it leaves
            plain = "/." not in path.split("?")[0].split("#")[0] and not any(
                c in path for c in "^`"
            )
            plain = plain and "%2e" not in path.split("?")[0].split("#")[0].lower()
            assert (got is not None) == plain, text


@pytest.fixture
def sse2():
    """fu_ww_same's SSE2 form in the compiled twin, for one test (the CPU
    chooses SSSE3 where it has it)."""
    from fasturi import _whatwg_c

    was = _whatwg_c._ssse3(False)
    yield
    _whatwg_c._ssse3(was)


@pytest.mark.parity
def test_the_sse2_form_takes_the_same(sse2):
    from fasturi import _whatwg_c

    assert not _whatwg_c._ssse3()
    for text, taken in CASES:
        got = _whatwg_c._same(text)
        assert (got is not None) == taken, text
        if got is not None:
            full = _whatwg_c.parse(text + " ")
            assert got == (full.href, _whatwg_c._parts(full)), text
    for host in ("example.com", "a" * 40 + ".io:8443"):
        for path in _paths():
            text = "https://" + host + path
            got = _whatwg_c._same(text)
            assert _ours(text) == _reference(text), text
            if got is not None:
                full = _whatwg_c.parse(text + " ")
                assert got == (full.href, _whatwg_c._parts(full)), text


_ALPHABET = "abcxyz019-.:/?#%2eE" + "AZ_~@!'^`{} \t\\"


@pytest.mark.parity
@given(
    st.sampled_from(["http://", "https://", "HTTP://", "http:/"]),
    st.text(st.sampled_from("abz09-.:"), max_size=40),
    st.text(st.sampled_from(_ALPHABET), max_size=150),
)
def test_generated_near_the_shape(scheme, host, rest):
    from fasturi import _whatwg_c

    text = scheme + host + rest
    assert _ours(text) == _reference(text)
    got = _whatwg_c._same(text)
    if got is not None:
        full = _whatwg_c.parse(text + " ")
        assert got == (full.href, _whatwg_c._parts(full))


@pytest.mark.parametrize("base", [None, "https://base.example/dir/x?y#z", "not a base"])
def test_the_column_kernels_rows(base):
    rows = [text for text, _ in CASES]
    rows = rows[:40] + [None] + rows[40:] + [None, ""]
    want = []
    for text in rows:
        got = None if text is None else _ours(text, base)
        want.append(None if got is None else got[0])
    for typ in (pa.string(), pa.large_string(), pa.string_view()):
        col = pa.array(rows, type=typ)
        assert fa.whatwg_href(col, base).to_pylist() == want, typ
        assert fa.whatwg_href(col, base, threads=2).to_pylist() == want, typ
        # a slice: the column's offset into its buffers
        padded = pa.array(["http://pad.example/x", None] + rows, type=typ)
        assert fa.whatwg_href(padded.slice(2), base).to_pylist() == want, typ
        split = fa.whatwg_split(col, base=base, fields=["href", "host", "pathname", "search"])
        assert [None if r is None else r["href"] for r in split.to_pylist()] == want


def test_many_rows_grow_the_buffer():
    # whatwg_href's loop stops where its buffer has no room: the kernel
    # grows it and goes on
    rows = ["https://example.com/" + "p" * (i % 300) + "?q=" + str(i) for i in range(20000)]
    assert fa.whatwg_href(rows).to_pylist() == rows
    assert fa.whatwg_href(pa.array(rows, type=pa.large_string())).to_pylist() == rows


@pytest.mark.compiled
def test_most_of_the_corpus_is_taken():
    from corpus_files import FOLDER, lines

    from fasturi import _whatwg_c

    urls = lines(FOLDER / "urls.txt")
    taken = sum(_whatwg_c._same(u) is not None for u in urls)
    assert taken > 0.9 * len(urls)
