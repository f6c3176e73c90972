"""query_param, query_params, remove_params, path_extension, path_hierarchy
and subdomain (docs/reference.md §1): their semantics on both twins, the
twins' agreement on generated text, and what they share with urllib.parse
and with each other."""

from __future__ import annotations

import itertools
import urllib.parse

import pytest
from corpus_files import FOLDER, lines
from hypothesis import given
from hypothesis import strategies as st

import fasturi


@pytest.fixture(scope="module")
def parts(twin):
    return twin("parts")


# ---- query_param -----------------------------------------------------------

QUERY_PARAM = [
    # (s, name, decoded, as written)
    ("http://h/p?a=1&b=2", "b", "2", "2"),
    ("http://h/p?a=1&b=2&a=3", "a", "1", "1"),  # the first of repeated keys
    ("http://h/p?a=b=c", "a", "b=c", "b=c"),  # '=' in a value
    ("http://h/p?a&b=2", "a", "", ""),  # a key without '='
    ("http://h/p?a=&b=2", "a", "", ""),
    ("http://h/p?=x", "", "x", "x"),  # an empty key
    ("http://h/p?&&", "", None, None),  # empty pieces are no field
    ("http://h/p?&a=1&", "a", "1", "1"),
    ("http://h/p", "a", None, None),  # no query
    ("http://h/p?", "a", None, None),  # an empty one
    ("http://h/p?a=1#b=2", "b", None, None),  # a '#' ends the query
    ("http://h/p#?a=1", "a", None, None),
    ("http://h/p?a=1#x", "a", "1", "1"),
    ("mailto:joe@example.org?subject=hi%20there", "subject", "hi there", "hi%20there"),
    ("?q=1", "q", "1", "1"),  # a relative reference
    ("http://h/?q=a+b%2Bc", "q", "a b+c", "a+b%2Bc"),  # '+' a space, %2B a '+'
    ("http://h/?a+b=1", "a b", "1", None),  # keys are decoded too
    ("http://h/?a%20b=1", "a b", "1", None),
    ("http://h/?a%20b=1", "a%20b", None, "1"),
    ("http://h/?a+b=1", "a+b", None, "1"),
    ("http://h/?q=%zz%4%", "q", "%zz%4%", "%zz%4%"),  # malformed '%' kept
    ("http://h/?q=%41%4a", "q", "AJ", "%41%4a"),
    ("http://h/?q=%C3%A9t%C3%A9", "q", "été", "%C3%A9t%C3%A9"),
    ("http://h/?q=%FF%C3x", "q", "\ufffd\ufffdx", "%FF%C3x"),  # invalid UTF-8 replaced
    ("http://h/?q=%ED%A0%80", "q", "\ufffd\ufffd\ufffd", "%ED%A0%80"),  # a surrogate's bytes
    ("http://h/?q=%F0%9F%98", "q", "\ufffd", "%F0%9F%98"),  # a truncated sequence: one
    ("http://例え.テスト/?ключ=значение&é=%C3%A9", "ключ", "значение", "значение"),
    ("http://例え.テスト/?ключ=значение&é=%C3%A9", "é", "é", "%C3%A9"),
    ("http://h/?a=\x00b&\x00=c", "\x00", "c", "c"),  # NUL is text
    ("http://h/?a=1;b=2", "a", "1;b=2", "1;b=2"),  # only '&' separates
]


@pytest.mark.parametrize(("s", "name", "decoded", "written"), QUERY_PARAM)
def test_query_param(parts, s, name, decoded, written):
    assert parts.query_param(s, name) == decoded
    assert parts.query_param(s, name, decode=True) == decoded
    assert parts.query_param(s, name, decode=False) == written


def test_query_param_of_lone_surrogates(parts):
    # text that is not an escape is read as its UTF-8 (surrogatepass), as
    # percent_decode reads it: a lone surrogate's bytes are replaced
    s = "http://h/?\ud800=1&a=\udc00x&b=%41\ud800"
    assert parts.query_param(s, "a") == "\ufffd\ufffd\ufffdx"
    assert parts.query_param(s, "b") == "A\ufffd\ufffd\ufffd"
    assert parts.query_param(s, "\ud800") is None
    assert parts.query_param(s, "\ufffd\ufffd\ufffd") == "1"
    assert parts.query_param(s, "\ud800", decode=False) == "1"
    assert parts.query_param(s, "a", decode=False) == "\udc00x"
    assert parts.query_params(s, decode=False) == [
        ("\ud800", "1"),
        ("a", "\udc00x"),
        ("b", "%41\ud800"),
    ]


def _bytes_cases():
    # every sequence of up to three bytes drawn from each UTF-8 byte class
    # boundary, and some of four
    edges = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF]
    edges += [0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF]
    for size in (1, 2, 3):
        yield from itertools.product(edges, repeat=size)
    for lead in (0xF0, 0xF1, 0xF4):
        for rest in itertools.product((0x80, 0x8F, 0x90, 0xBF, 0x41), repeat=3):
            yield (lead, *rest)


def test_decoding_replaces_as_python_does(parts):
    # form-decoded octets are read as bytes.decode(..., "replace") reads them
    for octets in _bytes_cases():
        data = bytes(octets)
        escaped = "".join(f"%{b:02X}" for b in data)
        want = data.decode("utf-8", "replace")
        assert parts.query_param("?k=" + escaped + "&x", "k") == want, data
        assert parts.query_params("?" + escaped + "=v") == [(want, "v")], data


# ---- query_params ------------------------------------------------------------

QUERY_PARAMS = [
    ("http://h/p", [], []),
    ("http://h/p?", [], []),
    ("http://h/p?&&", [], []),
    (
        "http://h/p?a=1&&b&c=&=d&e=f=g#x&y=z",
        None,
        [
            ("a", "1"),
            ("b", None),
            ("c", ""),
            ("", "d"),
            ("e", "f=g"),
        ],
    ),
    (
        "http://h/p?a+b=c+d&%41=%zz",
        [("a b", "c d"), ("A", "%zz")],
        [("a+b", "c+d"), ("%41", "%zz")],
    ),
    ("urn:x?k=v", [("k", "v")], [("k", "v")]),
]


@pytest.mark.parametrize(("s", "decoded", "written"), QUERY_PARAMS)
def test_query_params(parts, s, decoded, written):
    assert parts.query_params(s, decode=False) == written
    assert parts.query_params(s) == (written if decoded is None else decoded)


# ---- remove_params -----------------------------------------------------------

REMOVE_PARAMS = [
    ("http://h/p?a=1&utm_source=x&b=2#f", ["utm_*"], "http://h/p?a=1&b=2#f"),
    ("http://h/p?utm_source=x&a=1", ["utm_*"], "http://h/p?a=1"),
    ("http://h/p?a=1&utm_source=x", ["utm_*"], "http://h/p?a=1"),
    ("http://h/p?utm_source=x#f", ["utm_*"], "http://h/p#f"),  # left empty: no '?'
    ("http://h/p?utm_a=1&utm_b", ["utm_*"], "http://h/p"),
    ("http://h/p?", ["*"], "http://h/p?"),  # nothing removed: as it was
    ("http://h/p?a=1&&b=2", ["b"], "http://h/p?a=1&"),  # empty pieces kept
    ("http://h/p?&utm=1", ["utm"], "http://h/p"),
    ("http://h/p?&&utm=1", ["utm"], "http://h/p?&"),
    ("http://h/p?utm=1&", ["utm"], "http://h/p"),
    ("http://h/p?utm=1&&a", ["utm"], "http://h/p?&a"),
    ("http://h/p?A=1&a=2", ["a"], "http://h/p?A=1"),  # case matters
    (
        "http://h/p?x%5Fid=1&y=%41",
        ["x_id"],
        "http://h/p?y=%41",
    ),  # keys decoded; all else as written
    ("http://h/p?a+b=1&c=2", ["a b"], "http://h/p?c=2"),
    ("http://h/p?ab=1&abc=2&a=3", ["a?"], "http://h/p?abc=2&a=3"),  # '?' one character
    ("http://h/p?é=1&éé=2", ["?"], "http://h/p?éé=2"),  # a character, not a byte
    ("http://h/p?filter[a]=1&filter=2", ["filter[*]"], "http://h/p?filter=2"),  # '[' itself
    ("http://h/p?a=1&b=2", ["*"], "http://h/p"),
    ("http://h/p?=1&b=2", [""], "http://h/p?b=2"),  # an empty key
    ("http://h/p?a=1&b=2", [], "http://h/p?a=1&b=2"),
    ("http://h/p?a=1#b=2", ["b"], "http://h/p?a=1#b=2"),  # the fragment is no query
    ("mailto:x?subject=1&body=2", ["body"], "mailto:x?subject=1"),
    ("?a&b&a", ["a"], "?b"),
    ("http://h/p?a*b=1&axb=2", ["a*b"], "http://h/p"),
    ("http://h/p?x=1", ["**x**"], "http://h/p"),
]


@pytest.mark.parametrize(("s", "patterns", "want"), REMOVE_PARAMS)
def test_remove_params(parts, s, patterns, want):
    assert parts.remove_params(s, patterns) == want
    assert parts.remove_params(s, iter(patterns)) == want


def test_remove_params_returns_the_text_itself_when_nothing_goes(parts):
    s = "http://h/p?a=1&b=2&" + "x" * 10
    assert parts.remove_params(s, ["c", "d*"]) is s
    assert parts.remove_params(s, []) is s
    assert parts.remove_params("http://h/p", ["*"]) == "http://h/p"


# ---- path_extension ----------------------------------------------------------

PATH_EXTENSION = [
    ("http://h/a/b.tar.gz?x=1.2#y.z", "gz"),
    ("http://h/a/b.html", "html"),
    ("http://h/a/B.PDF", "PDF"),  # as written
    ("http://h/a/.bashrc", None),  # a leading dot starts no extension
    ("http://h/a/.config.json", "json"),
    ("http://h/a/..x.y", "y"),
    ("http://h/a/..x", "x"),  # the last '.' is not the first character
    ("http://h/a/b.", ""),  # a dot with nothing after it
    ("http://h/a/.", None),  # the dot-segments name no file
    ("http://h/a/..", None),
    ("http://h/a/...", ""),
    ("http://h/a/.a.", ""),
    ("http://h/a.b/c", None),  # only the last segment counts
    ("http://h/a.b/", None),
    ("http://h", None),  # an empty path
    ("http://h.com", None),  # the host is no path
    ("http://h/a/b.php;jsessionid=1", "php;jsessionid=1"),  # ';' is path text
    ("http://h/a/b%2Etxt", None),  # an escaped dot is no dot
    ("http://h/ä/ö.ü", "ü"),
    ("mailto:joe@example.org", "org"),  # its path
    ("b.c", "c"),
    ("urn:isbn:0451450523", None),
]


@pytest.mark.parametrize(("s", "want"), PATH_EXTENSION)
def test_path_extension(parts, s, want):
    assert parts.path_extension(s) == want


# ---- path_hierarchy ----------------------------------------------------------

PATH_HIERARCHY = [
    ("http://h/a/b/c", ["/a/", "/a/b/", "/a/b/c"]),
    ("https://example.com/browse/CONV-6788", ["/browse/", "/browse/CONV-6788"]),
    ("http://h/a/b/", ["/a/", "/a/b/"]),
    ("http://h/", ["/"]),
    ("http://h", []),
    ("", []),
    ("http://h//a", ["//", "//a"]),
    ("http://h/a//b", ["/a/", "/a//", "/a//b"]),
    ("http://h/a/b?c/d#e/f", ["/a/", "/a/b"]),
    ("a/b/c", ["a/", "a/b/", "a/b/c"]),
    ("mailto:joe@example.org", ["joe@example.org"]),
    ("http://h/%2F/x", ["/%2F/", "/%2F/x"]),
    ("http://h/ä/ö", ["/ä/", "/ä/ö"]),
]


@pytest.mark.parametrize(("s", "want"), PATH_HIERARCHY)
def test_path_hierarchy(parts, s, want):
    assert parts.path_hierarchy(s) == want


# ---- subdomain -------------------------------------------------------------

SUBDOMAIN = [
    ("http://a.b.example.co.uk/", False, "a.b"),
    ("https://user@WWW.Example.COM:443/x", False, "www"),  # lowercased
    ("http://example.co.uk/", False, ""),
    ("example.co.uk", False, ""),  # a bare host
    ("www.example.com:8080", False, "www"),
    ("http://www.example.com./", False, "www"),  # one trailing dot dropped
    ("http://co.uk/", False, None),  # a public suffix
    ("http://localhost/", False, None),
    ("http://1.2.3.4/", False, None),  # IP addresses
    ("http://[::1]/", False, None),
    ("mailto:joe@example.org", False, ""),  # read as a bare host, as registrable_domain does
    ("urn:a:b", False, None),
    ("http://a..example.com/", False, None),  # an empty label
    ("", False, None),
    ("a.b.blogspot.com", False, "a.b"),
    ("a.b.blogspot.com", True, "a"),  # the PRIVATE section
    ("b.blogspot.com", True, ""),
    ("http://www.食狮.公司.cn/", False, "www"),
    ("http://WWW.ÉCOLE.fr/", False, "www"),
]


@pytest.mark.parametrize(("s", "private", "want"), SUBDOMAIN)
def test_subdomain(parts, s, private, want):
    assert parts.subdomain(s, private=private) == want


def test_subdomain_and_registrable_domain_make_the_host(parts):
    for s in [s for s, _, _ in SUBDOMAIN] + lines(FOLDER / "urls.txt"):
        domain = fasturi.registrable_domain(s)
        sub = parts.subdomain(s)
        assert (sub is None) == (domain is None), s
        if sub:
            host = f"{sub}.{domain}"
            assert fasturi.registrable_domain(host) == domain, s
            assert parts.subdomain(host) == sub, s


# ---- arguments -----------------------------------------------------------------


def test_argument_types(parts):
    for name in ("query_params", "path_extension", "path_hierarchy", "subdomain"):
        with pytest.raises(TypeError, match=rf"^{name}\(\) argument 's' must be str, not bytes$"):
            getattr(parts, name)(b"http://a/")
    with pytest.raises(
        TypeError, match=r"^query_param\(\) argument 's' must be str, not NoneType$"
    ):
        parts.query_param(None, "a")
    with pytest.raises(
        TypeError, match=r"^query_param\(\) argument 'name' must be str, not bytes$"
    ):
        parts.query_param("?a=1", b"a")
    with pytest.raises(
        TypeError,
        match=r"^remove_params\(\) argument 'patterns' must be an iterable of str, not str$",
    ):
        parts.remove_params("?a=1", "a")
    with pytest.raises(
        TypeError, match=r"^remove_params\(\) argument 'patterns' item 1 must be str, not int$"
    ):
        parts.remove_params("?a=1", ["a", 1])
    with pytest.raises(TypeError, match=r"^remove_params\(\) argument 's' must be str, not int$"):
        parts.remove_params(1, ["a"])


def test_public_names_are_the_active_twin():
    from fasturi._impl import parts as active

    for name in (
        "query_param",
        "query_params",
        "remove_params",
        "path_extension",
        "path_hierarchy",
        "subdomain",
    ):
        assert getattr(fasturi, name) is getattr(active, name)


# ---- properties ----------------------------------------------------------------

QUERY_TEXT = st.text(st.sampled_from("ab=&%+#?/.2FC3A9éä\x00 *"), max_size=24)
ANY_TEXT = st.text(max_size=40)


@given(QUERY_TEXT)
def test_agrees_with_parse_qsl(s):
    # urllib.parse reads a query as decode=True does (parse_qsl keeps a
    # field without '=' as a blank value)
    query = fasturi.split(s).query
    if query is None:
        assert fasturi.query_params(s) == []
        return
    want = urllib.parse.parse_qsl(query, keep_blank_values=True, errors="replace")
    assert [(k, v or "") for k, v in fasturi.query_params(s)] == want


@given(QUERY_TEXT, st.text(st.sampled_from("ab%+ é"), max_size=3))
def test_query_param_is_the_first_of_query_params(s, name):
    for decode in (True, False):
        values = [v for k, v in fasturi.query_params(s, decode=decode) if k == name]
        want = None if not values else values[0] or ""
        assert fasturi.query_param(s, name, decode=decode) == want


@given(QUERY_TEXT, st.text(st.sampled_from("ab%+ é"), max_size=3))
def test_remove_params_removes_what_query_param_finds(s, name):
    out = fasturi.remove_params(s, [name])
    assert fasturi.query_param(out, name) is None
    fields = fasturi.query_params(s, decode=False)
    kept = [(k, v) for k, v in fields if fasturi.query_param(f"?{k}=", name) is None]
    assert fasturi.query_params(out, decode=False) == kept
    # all but the query, as it was
    a, b = fasturi.split(s), fasturi.split(out)
    assert (a.scheme, a.authority, a.path, a.fragment) == (
        b.scheme,
        b.authority,
        b.path,
        b.fragment,
    )


@given(ANY_TEXT)
def test_path_hierarchy_levels(s):
    path = fasturi.split(s).path
    levels = fasturi.path_hierarchy(s)
    assert all(path.startswith(level) for level in levels)
    assert levels == sorted(set(levels), key=len)
    assert (levels[-1] if levels else "") == path


@pytest.mark.parity
@given(
    st.one_of(
        ANY_TEXT, QUERY_TEXT, st.text(st.sampled_from("?&=%+#/.a\ud800\udfffé"), max_size=20)
    ),
    st.text(st.sampled_from("a%+é*?\ud800"), max_size=3),
)
def test_twins_agree(twin_pair, s, name):
    compiled, python = twin_pair("parts")
    for call in (
        lambda m: m.query_param(s, name),
        lambda m: m.query_param(s, name, decode=False),
        lambda m: m.query_params(s),
        lambda m: m.query_params(s, decode=False),
        lambda m: m.remove_params(s, [name, "x*"]),
        lambda m: m.path_extension(s),
        lambda m: m.path_hierarchy(s),
        lambda m: m.subdomain(s),
        lambda m: m.subdomain(s, private=True),
    ):
        assert call(compiled) == call(python)


@pytest.mark.parity
def test_twins_agree_on_the_corpus(twin_pair):
    compiled, python = twin_pair("parts")
    names = ["id", "q", "utm_source", "page", ""]
    for s in lines(FOLDER / "urls.txt"):
        for name in names:
            assert compiled.query_param(s, name) == python.query_param(s, name), s
        assert compiled.query_params(s) == python.query_params(s), s
        assert compiled.query_params(s, decode=False) == python.query_params(s, decode=False), s
        assert compiled.remove_params(s, ["utm_*", "?d"]) == python.remove_params(
            s, ["utm_*", "?d"]
        ), s
        assert compiled.path_extension(s) == python.path_extension(s), s
        assert compiled.path_hierarchy(s) == python.path_hierarchy(s), s
        assert compiled.subdomain(s) == python.subdomain(s), s


def test_huge_rows(parts):
    long_value = "v" * 200_000
    s = "http://h/" + "a/" * 5000 + "f.txt?" + "&".join(["x=1"] * 5000) + "&k=" + long_value
    assert parts.query_param(s, "k") == long_value
    assert parts.query_param(s, "k", decode=False) == long_value
    assert len(parts.query_params(s)) == 5001
    assert parts.remove_params(s, ["x"]).endswith("?k=" + long_value)
    assert parts.path_extension(s) == "txt"
    assert len(parts.path_hierarchy(s)) == 5001
    assert parts.query_param("?k=" + "%FF" * 50_000, "k") == "\ufffd" * 50_000
