"""fasturi.parse against the running interpreter's urllib.parse: the split and
join family (urlsplit, urlparse, urlunsplit, urlunparse, urljoin, urldefrag)
and the other names of the module that are not the quote family
(the deprecated split* helpers, unwrap, to_bytes).

Every comparison is of the value with the type of each part spelled out
(str vs bytes, SplitResult vs SplitResultBytes), of the exception type and
message, and of the warnings raised.  The run without FASTURI_NO_EXTENSIONS
compares the compiled functions; the pure run compares the stdlib's own
functions, re-exported, with themselves and checks that they are re-exported.
"""

from __future__ import annotations

import sys
import urllib.parse as std
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st
from outcomes import outcome
from rfc_examples import RFC_5_4_1, RFC_5_4_2

import fasturi.parse as fp
from fasturi._impl import NO_EXTENSIONS

SPLIT_FAMILY = ("urlsplit", "urlparse", "urlunsplit", "urlunparse", "urljoin", "urldefrag")
LEGACY = [
    name
    for name in (
        "splittype",
        "splithost",
        "splituser",
        "splitpasswd",
        "splitport",
        "splitnport",
        "splitquery",
        "splittag",
        "splitattr",
        "splitvalue",
        "unwrap",
        "to_bytes",
    )
    if hasattr(std, name)
]
RFC3986_BASE = "http://a/b/c/d;p?q"


@pytest.fixture(autouse=True)
def _stdlib_untouched():
    # compare against the stdlib's own functions, whatever other tests did
    fp.uninstall()


def same(name, *args, **kwargs):
    ours = outcome(getattr(fp, name), *args, **kwargs)
    theirs = outcome(getattr(std, name), *args, **kwargs)
    assert ours == theirs, (name, args, kwargs)
    return ours


# ---------------------------------------------------------------------------
# Strategies: text with everything urllib.parse treats specially.

SPECIAL = [
    *"abcXYZ019+-.:/?#[]@%;=&~!$'()*,_ ",
    "\t",
    "\n",
    "\r",
    "\x00",
    "\x01",
    "\x1f",
    "\x7f",
    "\x0b",
    "\x0c",
    "\xa0",
    "\xe9",
    "\xff",
    "\u0130",
    "\u4e2d",
    "\u3002",
    "\u2028",
    "\U0001f600",
    "\ud800",
    "\udfff",
    # characters whose NFKC form holds a delimiter (the netloc check)
    "\uff0f",
    "\u2100",
    "\uff03",
    "\ufe13",
    "\uff1f",
    "\uff20",
    "\uff1a",
    "\u2101",
    "\u30d5\u309a",
    "\u00bd",
    "\u2474",
]
TEXT = st.lists(st.sampled_from(SPECIAL), max_size=30).map("".join)
SCHEMES = st.sampled_from(
    [
        "http",
        "HTTP",
        "https",
        "HtTpS",
        "ftp",
        "file",
        "mailto",
        "svn+ssh",
        "git+https",
        "foo",
        "a1",
        "1a",
        "+x",
        "-a",
        "a.b",
        "tel",
        "sip",
        "itms-services",
        "ws",
        "urn",
        "data",
        "",
        "\xe9",
        "a b",
        "h\tttp",
    ]
)
HOSTS = st.sampled_from(
    [
        "a",
        "example.com",
        "Example.COM",
        "[::1]",
        "[::1]:80",
        "[v1.x]",
        "[V1.x]",
        "[v1.]",
        "[1.2.3.4]",
        "[::1",
        "::1]",
        "[fe80::1%25eth0]",
        "[fe80::1%eth0]",
        "[zz]",
        "[]",
        "[::ffff:1.2.3.4]",
        "[::1]x",
        "x[::1]",
        "u@[::1]",
        "[u]@h",
        "\u2100.com",
        "a\uff03b",
        "\u30d5\u309a:80",
        "\u30d5\u309a\ufe1380",
        "b\xfccher.de",
        "host:80",
        "host:",
        "host:0x50",
        "host:-1",
        "host:65536",
        "u:p@h",
        "u:p:q@h:1",
        "@h",
        "a@b@c",
        ":80",
        "h%41",
        "h\x00",
        "",
    ]
)
PATHS = (
    st.sampled_from(
        [
            "",
            "/",
            "/p",
            "/a/b/c",
            "/a;p",
            "/a;p/b;q",
            ";p",
            "a;b",
            "//x",
            "///x",
            "/./a/../b",
            "../a",
            "./",
            ".",
            "..",
            "/%2e%2e/",
            "/a b",
            "/\xe9",
            "/\u4e2d;\u4e2d",
        ]
    )
    | TEXT
)
OPT = st.sampled_from(["", None]) | TEXT


@st.composite
def urls(draw):
    if draw(st.booleans()):
        return draw(TEXT)
    lead = draw(st.sampled_from(["", "", "", " ", "\x00", "\t ", "\x1f", "\n"]))
    scheme = draw(SCHEMES)
    out = lead + (scheme + ":" if scheme or draw(st.booleans()) else "")
    if draw(st.booleans()):
        out += "//" + draw(HOSTS)
    out += draw(PATHS)
    query = draw(OPT)
    if query is not None:
        out += "?" + query
    frag = draw(OPT)
    if frag is not None:
        out += "#" + frag
    if draw(st.integers(0, 9)) == 0:
        # tab/CR/LF anywhere: removed by the stdlib before splitting
        i = draw(st.integers(0, len(out)))
        out = out[:i] + draw(st.sampled_from(["\t", "\r", "\n"])) + out[i:]
    return out


URLS = urls()
SCHEME_ARGS = st.sampled_from(["", "http", "HTTPS", " http ", "h\ttp", "\x00", "ftp ", "\xe9"])
FLAGS = st.sampled_from([True, False, 1, 0])


def as_bytes(s: str, encoding: str) -> bytes:
    return s.encode(encoding, "surrogatepass" if encoding == "utf-8" else "replace")


# ---------------------------------------------------------------------------
# The split family.


def test_functions_are_the_compiled_ones_or_the_stdlib_ones():
    for name in SPLIT_FAMILY:
        if NO_EXTENSIONS:
            assert getattr(fp, name) is getattr(std, name), name
        else:
            assert getattr(fp, name) is not getattr(std, name), name
            assert type(getattr(fp, name)).__name__ == "cython_function_or_method", name
    for name in LEGACY:
        assert getattr(fp, name) is getattr(std, name), name


@given(URLS, SCHEME_ARGS, FLAGS)
def test_urlsplit_urlparse_urldefrag(url, scheme, allow_fragments):
    for name in ("urlsplit", "urlparse"):
        same(name, url)
        same(name, url, scheme)
        same(name, url, scheme, allow_fragments)
        same(name, url, allow_fragments=allow_fragments)
    same("urldefrag", url)


@given(URLS)
def test_results_read_and_round_trip_the_same(url):
    """hostname, port, username, password, geturl(), encode() read the same,
    and urlunsplit/urlunparse put either result back together the same."""
    for name, unsplit in (("urlsplit", "urlunsplit"), ("urlparse", "urlunparse")):
        if same(name, url)[0] != "return":
            continue
        ours, theirs = getattr(fp, name)(url), getattr(std, name)(url)
        for attr in ("hostname", "port", "username", "password"):
            assert outcome(getattr, ours, attr) == outcome(getattr, theirs, attr), attr
        assert outcome(ours.geturl) == outcome(theirs.geturl)
        assert outcome(ours.encode) == outcome(theirs.encode)
        same(unsplit, ours)
        same(unsplit, theirs)


@given(
    URLS, st.sampled_from(["ascii", "utf-8", "latin-1"]), st.sampled_from([b"", b"ftp", "", "x"])
)
def test_bytes(url, encoding, scheme):
    data = as_bytes(url, encoding)
    for name in ("urlsplit", "urlparse", "urldefrag"):
        same(name, data)
        same(name, bytearray(data))
    for name in ("urlsplit", "urlparse"):
        same(name, data, scheme)
    same("urljoin", data, b"g/../h?x#y")
    same("urljoin", b"http://a/b/c", data)
    same("urljoin", data, "http:g")  # mixing str and bytes


@given(URLS, URLS, FLAGS)
def test_urljoin(base, ref, allow_fragments):
    same("urljoin", base, ref)
    same("urljoin", base, ref, allow_fragments)
    same("urljoin", RFC3986_BASE, ref)
    same("urljoin", base, "../g;x?y#s")


@given(
    st.lists(st.sampled_from(["", ".", "..", "a", "b;c", "%2e", "..."]), max_size=12),
    st.lists(st.sampled_from(["", ".", "..", "g", "h;x"]), max_size=12),
    st.sampled_from(["", "/"]),
    st.sampled_from(["http://a", "ftp://a", "foo://a", "http:"]),
)
def test_urljoin_dot_segments(base_segs, ref_segs, lead, prefix):
    base = prefix + "/" + "/".join(base_segs)
    ref = lead + "/".join(ref_segs)
    same("urljoin", base, ref)


@given(
    st.lists(
        st.sampled_from(["", ".", "..", "a", "\xe9", "\u015d", "\U0001f600", "b;c"]), max_size=10
    ),
    st.lists(st.sampled_from(["", ".", "..", "g", "\u011d", "\U0001f600"]), max_size=10),
    st.sampled_from(["", "/"]),
)
def test_urljoin_merged_paths_of_every_width(base_segs, ref_segs, lead):
    """A merged path is copied as runs of the text its segments came from:
    in every str width, and where the base and the reference are one str."""
    base = "http://a/" + "/".join(base_segs)
    ref = lead + "/".join(ref_segs)
    same("urljoin", base, ref)
    same("urljoin", base, base)
    same("urljoin", ref, ref)


COMPONENT = (
    st.sampled_from(["", "http", "HTTP", "mailto", "foo", "h", "//x", "/x", "x", "a;b"]) | TEXT
)


@given(st.tuples(*[COMPONENT] * 5), st.tuples(*[COMPONENT] * 6))
def test_urlunsplit_urlunparse(five, six):
    same("urlunsplit", five)
    same("urlunsplit", list(five))
    same("urlunparse", six)
    same("urlunparse", list(six))
    same("urlunsplit", tuple(as_bytes(c, "utf-8") for c in five))
    same("urlunparse", tuple(as_bytes(c, "utf-8") for c in six))


@given(TEXT)
def test_legacy_helpers(text):
    """The deprecated split* helpers (re-exported): same values and warnings."""
    for name in LEGACY:
        if name == "splitnport":
            same(name, text)
            same(name, text, 80)
        else:
            same(name, text)


# ---------------------------------------------------------------------------
# Cases written out: odd argument types, mixed types, long inputs.

ODD_ARGS = [
    (None,),
    (0,),
    ([],),
    ({},),
    (1.5,),
    (b"",),
    ("",),
    (bytearray(b"http://a/b"),),
    (memoryview(b"http://a/b"),),
    ("http://a/b", b"x"),
    (b"http://a/b", "x"),
    ("x", None),
    ("x", 1),
    ("x", "", "yes"),
    ("x", "", None),
    ("x", "", []),
    ("x", b""),
    (b"x", b""),
    (type("S", (str,), {})("http://a/b?q"),),
    ("http://a/b", type("S", (str,), {})("x")),
    ("http://\xe9\xe9/",),
    (b"http://\xc3\xa9/",),
    ("\x00 \x1fhttp://a/\tb\nc\rd",),
]


@pytest.mark.parametrize("args", ODD_ARGS, ids=repr)
@pytest.mark.parametrize("name", ["urlsplit", "urlparse"])
def test_split_odd_arguments(name, args):
    same(name, *args)


@pytest.mark.parametrize(
    "args",
    [
        (None, "x"),
        ("x", None),
        ("", None),
        (None, ""),
        (b"", "x"),
        ("", b"x"),
        (b"http://a/", "b"),
        ("http://a/", b"b"),
        (b"http://a/b", b"../c"),
        (0, "x"),
        ("http://a/b", "c", None),
        ("http://a/b", "c", "no"),
        ([], "x"),
        ("http://a", []),
        ("http://[::1/", "x"),
        ("http://a/", "http://[::1/"),
        ("x", "http://\u2100/"),
        ("http://\u2100/", "x"),
    ],
    ids=repr,
)
def test_urljoin_odd_arguments(args):
    same("urljoin", *args)


@pytest.mark.parametrize(
    "parts",
    [
        (),
        ("a",) * 4,
        ("a",) * 6,
        ("a",) * 7,
        ("http", b"h", "/p", "", ""),
        ("http", None, "/", "", ""),
        [b"http", b"h", b"/p", b"q", b"f"],
        ("http", "", "", "", "", ""),
        "abcde",
        "abcdef",
        ("http", "h", "p", None, None),
        (None, None, None, None, None),
        (type("S", (str,), {})("http"), "h", "p", "", ""),
    ],
    ids=repr,
)
@pytest.mark.parametrize("name", ["urlunsplit", "urlunparse"])
def test_unsplit_odd_arguments(name, parts):
    same(name, parts)


@pytest.mark.parametrize("name", ["urlunsplit", "urlunparse"])
def test_unsplit_iterators(name):
    for text in ("abcde", "abcdef"):
        assert outcome(getattr(fp, name), iter(text)) == outcome(getattr(std, name), iter(text))
        assert outcome(getattr(fp, name), (c for c in text)) == outcome(
            getattr(std, name), (c for c in text)
        )


@pytest.mark.parametrize(
    "url", [None, b"a#b", bytearray(b"a#b"), "a#b", "", 0, "#", "http://[::1#x"]
)
def test_urldefrag_odd_arguments(url):
    same("urldefrag", url)


LONG = [
    "http://a/" + "b" * 200_000,
    "http://" + "h" * 100_000 + "/p",
    "https://a/" + "x/" * 30_000 + "?" + "q=1&" * 10_000 + "#" + "f" * 10_000,
    "http://a/" + "\u4e2d" * 50_000 + "?\U0001f600",
    "http://[" + "1:" * 20_000 + "]/",
    "http://\u2100" * 1000,
    " " * 10_000 + "http://a/b",
    "a" * 100_000 + ":b",
    ";" * 50_000,
    "http://a/b\t" * 5_000,
]


@pytest.mark.parametrize("url", LONG, ids=lambda u: f"{len(u)} chars")
def test_long_inputs(url):
    for name in ("urlsplit", "urlparse", "urldefrag"):
        same(name, url)
    same("urljoin", url, "../" * 20_000 + "g")
    same("urljoin", "http://a/" + "b/" * 20_000, url)
    same("urljoin", url, "x;y" * 10_000)


def test_many_dot_segments():
    same("urljoin", "http://a/" + "b/" * 5000 + "c", "../" * 4000 + "d/./e/..")
    same("urljoin", "http://a/b/c", "/" + "./" * 5000 + "x/" * 5000)
    same("urljoin", "http://a" + "//" * 3000, "." + "/.." * 3000)


# RFC 3986 §5.4: the stdlib's urljoin gives every §5.4.1/§5.4.2 answer except
# "http:g", where it takes §5.2.2's backward-compatible path ("for backward
# compatibility ... a parser may ... ignore a scheme that is the same").
RFC3986_EXAMPLES = RFC_5_4_1 + [
    (ref, "http://a/b/c/g" if ref == "http:g" else want) for ref, want in RFC_5_4_2
]


@pytest.mark.parametrize(("ref", "want"), RFC3986_EXAMPLES)
def test_rfc3986_5_4_examples(ref, want):
    assert fp.urljoin(RFC3986_BASE, ref) == want
    same("urljoin", RFC3986_BASE, ref)
    same("urljoin", RFC3986_BASE.encode(), ref.encode())


@pytest.mark.parametrize(
    ("url", "want"),
    [
        # the security fixes this module must carry exactly as the stdlib does
        (" \x00https://a/b", ("https", "a", "/b", "", "")),
        ("ht\ttp://a\r/b\n", ("http", "a", "/b", "", "")),
        ("http://a/b#c", ("http", "a", "/b", "", "c")),
    ],
)
def test_stripping(url, want):
    assert tuple(fp.urlsplit(url)) == want
    same("urlsplit", url)


@pytest.mark.parametrize(
    "url",
    [
        "http://[::1/",
        "http://::1]/",
        "http://\u2100.com/",
        "http://a\uff03b/",
        "http://x\uff0fy/",
        "http://[1.2.3.4]/",
        "http://[v1]/",
        "http://[zz]/",
        "http://[v1.x]/",
        "http://x[::1]/",
    ],
)
def test_errors(url):
    same("urlsplit", url)
    if url in ("http://[::1/", "http://::1]/"):
        with pytest.raises(ValueError, match="Invalid IPv6 URL"):
            fp.urlsplit(url)
    if "\u2100" in url or "\uff03" in url or "\uff0f" in url:
        with pytest.raises(ValueError, match="under NFKC normalization"):
            fp.urlsplit(url)
    same("urlparse", url)
    same("urljoin", url, "x")
    same("urljoin", "http://a/", url)


def test_scheme_must_start_with_a_letter_from_3_11():
    result = fp.urlsplit("1a:b")
    if sys.version_info >= (3, 11):
        assert result.scheme == ""
    same("urlsplit", "1a:b")


# urllib.parse's result classes
RESULT_CLASSES = (
    "SplitResult",
    "ParseResult",
    "DefragResult",
    "SplitResultBytes",
    "ParseResultBytes",
    "DefragResultBytes",
)


def test_result_classes_are_the_stdlib_ones():
    assert type(fp.urlsplit("http://a/b")) is std.SplitResult
    assert type(fp.urlparse("http://a/b")) is std.ParseResult
    assert type(fp.urldefrag("http://a/b#c")) is std.DefragResult
    assert type(fp.urlsplit(b"http://a/b")) is std.SplitResultBytes
    assert type(fp.urlparse(b"http://a/b")) is std.ParseResultBytes
    assert type(fp.urldefrag(b"http://a/b#c")) is std.DefragResultBytes
    for name in RESULT_CLASSES:
        assert getattr(fp, name) is getattr(std, name)
    r = fp.urlsplit("http://u:p@H:8080/x?q#f")
    assert hash(r) == hash(tuple(r)) and r == tuple(r)
    assert {r: 1}[std.urlsplit("http://u:p@H:8080/x?q#f")] == 1
    assert r._replace(path="/y").geturl() == "http://u:p@H:8080/y?q#f"
    assert (r.hostname, r.port, r.username, r.password) == ("h", 8080, "u", "p")
    import copy
    import pickle

    assert pickle.loads(pickle.dumps(r)) == r and type(pickle.loads(pickle.dumps(r))) is type(r)
    assert copy.deepcopy(r) == r


def test_every_public_name():
    names = set(std.__all__) | set(RESULT_CLASSES) | set(LEGACY)
    names |= {"uses_relative", "uses_netloc", "uses_params", "scheme_chars", "clear_cache"}
    for name in names:
        assert hasattr(fp, name), name
    assert fp.__all__ == std.__all__
    assert fp.uses_netloc is std.uses_netloc  # extending the list reaches both


def test_scheme_lists_are_read_live():
    std.uses_netloc.append("fasturi-test")
    std.uses_relative.append("fasturi-test")
    std.uses_params.append("fasturi-test")
    try:
        assert fp.urlunsplit(("fasturi-test", "", "/p", "", "")) == "fasturi-test:///p"
        assert fp.urljoin("fasturi-test://h/a/b", "c") == "fasturi-test://h/a/c"
        assert fp.urlparse("fasturi-test:/a;b").params == "b"
        same("urlunsplit", ("fasturi-test", "", "/p", "", ""))
        same("urljoin", "fasturi-test://h/a/b", "../c;d")
    finally:
        std.uses_netloc.remove("fasturi-test")
        std.uses_relative.remove("fasturi-test")
        std.uses_params.remove("fasturi-test")
    assert fp.urlunsplit(("fasturi-test", "", "/p", "", "")) == "fasturi-test:/p"


def test_scheme_lists_rebound_are_read():
    # a module global replaced (not mutated) is read on the next call too
    fp.urljoin("http://h/a/b", "c")  # a read of the lists before the change
    saved = std.uses_relative, std.uses_netloc
    std.uses_relative = [s for s in saved[0] if s != "http"]
    try:
        assert fp.urljoin("http://h/a/b", "c") == "c"
        same("urljoin", "http://h/a/b", "c")
        std.uses_netloc = [s for s in saved[1] if s != "https"]
        same("urljoin", "https://h/a/b", "//g/c")
    finally:
        std.uses_relative, std.uses_netloc = saved
    assert fp.urljoin("http://h/a/b", "c") == "http://h/a/c"


JOIN_BASES = [
    "http://a/b/c;p?q#f",
    "http://a/b/c;p?q#f",  # the same text, another object below
    "https://h/x/y/",
    "http://[::1]/a/b",
    "http://a/b;p/c?q",
    "foo:/b/c",
    "//a/b/c#f",
    "http://a/b",
]


@pytest.mark.parametrize("allow_fragments", [True, False])
def test_join_to_one_base_many_times(allow_fragments):
    # a crawler's pattern: every link of a page joined to the page's URL,
    # with the base repeated, alternated, and equal under other objects
    refs = ["g", "../g", "?y", "#s", "", "//g", "g;x?y#s", "http:g", "."]
    for base in JOIN_BASES:
        for copy in (base, "".join(list(base))):
            for ref in refs:
                same("urljoin", copy, ref, allow_fragments)
                same("urljoin", copy, ref, not allow_fragments)
                same("urljoin", "http://z/q/r", ref, allow_fragments)


def test_split_cache_interface():
    """What callers of the stdlib's lru_cache use, on either implementation."""
    if not hasattr(std.urlsplit, "cache_info"):
        assert not hasattr(fp.urlsplit, "cache_info")  # 3.9, 3.10: no lru_cache
        return
    maxsize = std.urlsplit.cache_info().maxsize
    fp.urlsplit.cache_clear()
    info = fp.urlsplit.cache_info()
    assert info == (0, 0, maxsize, 0)
    assert type(info) is type(std.urlsplit.cache_info())
    for _ in range(3):
        fp.urlsplit("http://cache.test/a")
    assert fp.urlsplit.cache_info().hits >= 1
    assert fp.urlsplit.cache_info().hits + fp.urlsplit.cache_info().misses == 3
    with pytest.raises(TypeError, match="unhashable"):
        fp.urlsplit(["x"])
    with pytest.raises(TypeError, match="unhashable"):
        fp.urlsplit("x", [])
    fp.clear_cache()
    assert fp.urlsplit.cache_info() == (0, 0, maxsize, 0)
    assert fp.urlsplit.cache_parameters() == std.urlsplit.cache_parameters()
    wrapped = fp.urlsplit.__wrapped__
    assert wrapped("HTTP://a/b") == std.urlsplit.__wrapped__("HTTP://a/b")
    assert fp.urlsplit.cache_info().misses == 0  # __wrapped__ bypasses the cache
    import inspect

    assert str(inspect.signature(fp.urlsplit)) == str(inspect.signature(std.urlsplit))


@pytest.mark.parity
def test_compiled_split_cache_keeps_repeated_keys():
    """The compiled cache: least recently used out, a key kept from its
    second use on (see fasturi.parse)."""
    if not hasattr(std.urlsplit, "cache_info"):
        return
    maxsize = std.urlsplit.cache_info().maxsize
    fp.urlsplit.cache_clear()
    fp.urlsplit("http://cache.test/a")
    kept = fp.urlsplit("http://cache.test/a")
    assert fp.urlsplit("http://cache.test/a") is kept
    assert fp.urlsplit.cache_info() == (1, 2, maxsize, 1)
    # typed keys: bytes, and other arguments, are entries of their own
    for args in ((b"http://cache.test/a",), ("http://cache.test/a", "", False)):
        fp.urlsplit(*args)
        assert fp.urlsplit(*args) is fp.urlsplit(*args)
    assert fp.urlsplit.cache_info() == (3, 6, maxsize, 3)
    for i in range(3 * maxsize):
        fp.urlsplit(f"http://cache.test/{i}")
        fp.urlsplit(f"http://cache.test/{i}")
    assert fp.urlsplit.cache_info().currsize == maxsize
    hits = fp.urlsplit.cache_info().hits
    fp.urlsplit(f"http://cache.test/{2 * maxsize}")  # among the newest: kept
    assert fp.urlsplit.cache_info().hits == hits + 1
    fp.urlsplit(f"http://cache.test/{2 * maxsize - 1}")  # one older: gone
    assert fp.urlsplit.cache_info().hits == hits + 1
    fp.urlsplit.cache_clear()


@pytest.mark.parity
def test_split_cache_keeps_its_entries_when_a_call_raises():
    """A repeated call that raises makes no room in a full cache: every
    entry stays, as with the stdlib's lru_cache."""
    if not hasattr(std.urlsplit, "cache_info"):
        return
    maxsize = std.urlsplit.cache_info().maxsize
    fp.urlsplit.cache_clear()
    for i in range(maxsize):
        fp.urlsplit(f"http://full.test/{i}")
        fp.urlsplit(f"http://full.test/{i}")
    assert fp.urlsplit.cache_info().currsize == maxsize
    for bad in ("http://[::1/", b"http://caf\xc3\xa9.test/"):
        for _ in range(3):
            with pytest.raises(ValueError):
                fp.urlsplit(bad)
    assert fp.urlsplit.cache_info().currsize == maxsize
    hits = fp.urlsplit.cache_info().hits
    fp.urlsplit("http://full.test/0")  # the oldest entry: still there
    assert fp.urlsplit.cache_info().hits == hits + 1
    fp.urlsplit.cache_clear()


@pytest.mark.compiled
def test_every_hot_name_is_compiled():
    """The compiled build answers every hot name itself on each interpreter
    tested: the import-time probes accepted a mode for each.  (A probe that
    rejects one leaves the name exact but as slow as the stdlib.)"""
    import fasturi._parse_c as compiled

    assert all(compiled.COMPILED.values()), compiled.COMPILED
    slow = [name for name in fp._HOT if type(getattr(fp, name)).__name__ == "function"]
    assert not slow, f"handed to the stdlib: {slow}"


def test_introspection_matches_the_stdlib():
    for name in SPLIT_FAMILY:
        ours, theirs = getattr(fp, name), getattr(std, name)
        assert ours.__name__ == theirs.__name__
        assert ours.__module__ == "urllib.parse"
        assert ours.__doc__ == theirs.__doc__


def test_quoter_deprecation_is_forwarded():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        removed = not hasattr(std, "Quoter")
    if removed:  # 3.14 removed it: then the drop-in has none either
        assert not hasattr(fp, "Quoter")
        return
    if not hasattr(std, "__getattr__"):
        assert fp.Quoter is std.Quoter
        return
    with pytest.warns(DeprecationWarning, match="Quoter will be removed"):
        assert fp.Quoter is std._Quoter
    with pytest.raises(AttributeError):
        fp.this_does_not_exist  # noqa: B018
