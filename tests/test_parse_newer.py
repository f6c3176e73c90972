"""The compiled paths for newer Pythons' urllib.parse, forced on this one.

fasturi._parse_c probes the running stdlib at import and picks, for each of
urlunsplit/urlunparse, urljoin and urldefrag, the rules it follows.  The
3.14 rules (missing components kept apart from empty ones) and the 3.15
keywords cannot be probed into on an older interpreter, so these tests
switch the paths on by hand and compare them with tables of 3.14's results
and with a model of its rules (tests/newer_urllib.py); the split cache's
first-use admission of stdlib-answered calls is checked against lru_cache.
"""

from __future__ import annotations

import contextlib
import urllib.parse

import newer_urllib as newer
import pytest
from hypothesis import given
from hypothesis import strategies as st

pytestmark = pytest.mark.compiled

BASE = "http://a/b/c/d;p?q"

# (base, reference, 3.14's urljoin); the first ones are where 3.13 differs
JOIN_314 = [
    ("http://a/b?q", "?", "http://a/b?"),
    ("a/b", "c", "a/c"),
    ("http://a/b?q#f", "#", "http://a/b?q#"),
    ("http://a/b", "#", "http://a/b#"),
    ("http://a/b?q", "?#", "http://a/b?#"),
    ("http://a/b?q#f", "http:", "http://a/b?q#f"),
    ("http:/b/c", "d", "http:/b/d"),
    ("http:///b/c", "d", "http:///b/d"),
    ("//a/b", "c", "//a/c"),
    ("http://a/b/c;p?q", ";x", "http://a/b/;x"),
    ("foo:/b", "c", "c"),
    # RFC 3986 §5.4.1, where both agree
    (BASE, "g", "http://a/b/c/g"),
    (BASE, "./g", "http://a/b/c/g"),
    (BASE, "g/", "http://a/b/c/g/"),
    (BASE, "/g", "http://a/g"),
    (BASE, "//g", "http://g"),
    (BASE, "?y", "http://a/b/c/d;p?y"),
    (BASE, "g?y", "http://a/b/c/g?y"),
    (BASE, "#s", "http://a/b/c/d;p?q#s"),
    (BASE, "g#s", "http://a/b/c/g#s"),
    (BASE, ";x", "http://a/b/c/;x"),
    (BASE, "", BASE),
    (BASE, ".", "http://a/b/c/"),
    (BASE, "..", "http://a/b/"),
    (BASE, "../..", "http://a/"),
    (BASE, "../../../g", "http://a/g"),
    (BASE, "g;x=1/../y", "http://a/b/c/y"),
    (BASE, "http:g", "http://a/b/c/g"),
    (BASE, "https:g", "https:g"),
]

DEFRAG_314 = [
    ("http://a/b?#c", ("http://a/b?", "c")),
    ("http:///b#c", ("http:///b", "c")),
    ("http:#c", ("http:", "c")),
    ("http://a/b#c", ("http://a/b", "c")),
    ("HTTP://a#", ("http://a", "")),
    ("http:b;p#c", ("http:b;p", "c")),
    ("x", ("x", "")),
]

UNPARSE_314 = [
    (("http", "", "", "p", "", ""), "http:///;p"),
    (("http", "", "x", "p", "", ""), "http:x;p"),
    (("foo", "", "", "p", "", ""), "foo:;p"),
    (("http", "h", "", "p", "q", "f"), "http://h/;p?q#f"),
    (("http", "", "", "", "", ""), "http://"),
]

UNSPLIT_314 = [
    (("http", "", "", "", ""), "http://"),
    (("http", "", "x", "", ""), "http:x"),
    (("", "", "//x", "", ""), "////x"),
    (("http", "h", "x", "q", "f"), "http://h/x?q#f"),
    (("mailto", "", "a@b", "", ""), "mailto:a@b"),
]


@contextlib.contextmanager
def paths_314():
    """fasturi._parse_c with the 3.14 paths switched on (restored after)."""
    from fasturi import _parse_c

    old = _parse_c._modes(join=1, defrag=1, unsplit=3)
    try:
        yield _parse_c
    finally:
        _parse_c._modes(**old)


@pytest.fixture
def parse_c():
    with paths_314() as forced:
        yield forced


def test_model_gives_the_tables():
    # the model reads the rules as the tables do
    for base, ref, want in JOIN_314:
        assert newer.urljoin(base, ref) == want, (base, ref)
    for url, want in DEFRAG_314:
        assert newer.urldefrag(url) == want, url
    for parts, want in UNPARSE_314:
        assert newer.urlunparse(parts) == want, parts
    for parts, want in UNSPLIT_314:
        assert newer.urlunsplit(parts) == want, parts


@pytest.mark.parametrize(("base", "ref", "want"), JOIN_314)
def test_join_314(parse_c, base, ref, want):
    assert parse_c.urljoin(base, ref) == want


@pytest.mark.parametrize(("url", "want"), DEFRAG_314)
def test_defrag_314(parse_c, url, want):
    got = parse_c.urldefrag(url)
    assert type(got) is urllib.parse.DefragResult
    assert got == want


@pytest.mark.parametrize(("parts", "want"), UNPARSE_314)
def test_unparse_314(parse_c, parts, want):
    assert parse_c.urlunparse(parts) == want


@pytest.mark.parametrize(("parts", "want"), UNSPLIT_314)
def test_unsplit_314(parse_c, parts, want):
    assert parse_c.urlunsplit(parts) == want


def test_this_python_is_probed_to_its_own_rules():
    # On this interpreter the tables' first rows are answered the old way:
    # the probes chose the rules of the stdlib that runs.
    from fasturi import _parse_c

    assert _parse_c.urljoin("http://a/b?q", "?") == urllib.parse.urljoin("http://a/b?q", "?")
    assert _parse_c.urldefrag("http://a/b?#c") == urllib.parse.urldefrag("http://a/b?#c")
    parts = ("http", "", "", "p", "", "")
    assert _parse_c.urlunparse(parts) == urllib.parse.urlunparse(parts)


# Text the compiled code answers itself: no leading controls or tab/CR/LF,
# no brackets, an ASCII netloc.
PIECE = st.text(st.sampled_from(list("ab/.:?#;@%=")), max_size=12)
URL = st.one_of(
    PIECE,
    st.tuples(st.sampled_from(["http:", "https:", "ftp:", "foo:", "HTTP:", ""]), PIECE).map(
        "".join
    ),
    st.tuples(st.sampled_from(["http://", "//", "http:///", "file:"]), PIECE).map("".join),
)


@given(URL, URL, st.booleans())
def test_join_follows_the_314_rules(base, ref, allow_fragments):
    with paths_314() as parse_c:
        got = parse_c.urljoin(base, ref, allow_fragments)
    assert got == newer.urljoin(base, ref, allow_fragments)


@given(URL)
def test_defrag_follows_the_314_rules(url):
    with paths_314() as parse_c:
        got = parse_c.urldefrag(url)
    assert got == newer.urldefrag(url)


SCHEMES = st.sampled_from(["", "http", "foo", "mailto", "file"])


@given(SCHEMES, PIECE, PIECE, PIECE, PIECE, PIECE)
def test_unsplit_and_unparse_follow_the_314_rules(scheme, net, path, params, q, f):
    parts = (scheme, net, path, params, q, f)
    with paths_314() as parse_c:
        unsplit = parse_c.urlunsplit((scheme, net, path, q, f))
        unparse = parse_c.urlunparse(parts)
    assert unsplit == newer.urlunsplit((scheme, net, path, q, f))
    assert unparse == newer.urlunparse(parts)


# ---- 3.15's keywords -------------------------------------------------------------

URLS = ["http://u@a:80/b;p?q#f", "a/b?#", "//x", "", "mailto:a@b"]


def test_keyword_forms_answer_the_default_as_the_plain_ones():
    from fasturi import _parse_c as p

    for url in URLS:
        assert p.urlsplit_kw(url) == p.urlsplit(url)
        assert p.urlsplit_cached_kw(url) == p.urlsplit(url)
        assert p.urlparse_kw(url, "", False) == p.urlparse(url, "", False)
        assert p.urldefrag_kw(url) == p.urldefrag(url)
        assert p.urlunsplit_kw(p.urlsplit(url)) == p.urlunsplit(p.urlsplit(url))
        assert p.urlunparse_kw(p.urlparse(url)) == p.urlunparse(p.urlparse(url))


@pytest.mark.parametrize(
    ("name", "args", "keyword"),
    [
        ("urlsplit_kw", ("http://a",), "missing_as_none"),
        ("urlsplit_cached_kw", ("http://a",), "missing_as_none"),
        ("urlparse_kw", ("http://a",), "missing_as_none"),
        ("urldefrag_kw", ("http://a#f",), "missing_as_none"),
        ("urlunsplit_kw", (("http", "a", "", "", ""),), "keep_empty"),
        ("urlunparse_kw", (("http", "a", "", "", "", ""),), "keep_empty"),
    ],
)
def test_keyword_forms_hand_other_values_to_the_stdlib(name, args, keyword):
    # A value other than the default is the stdlib's to answer: a stdlib
    # without the keyword raises its own TypeError, which shows the call
    # went there; one with it gives its own answer.
    from fasturi import _parse_c

    std = getattr(urllib.parse, name.replace("_cached", "")[: -len("_kw")])
    if not _parse_c.KEYWORD[std.__name__]:
        with pytest.raises(TypeError, match=keyword):
            getattr(_parse_c, name)(*args, **{keyword: True})
        return
    ours = getattr(_parse_c, name)(*args, **{keyword: True})
    theirs = std(*args, **{keyword: True})
    assert ours == theirs
    assert getattr(ours, "_keep_empty", None) == getattr(theirs, "_keep_empty", None)


def test_keywords_are_found_in_a_signature():
    from fasturi import _parse_c

    def newer_split(url, scheme=None, allow_fragments=True, *, missing_as_none=False):
        raise AssertionError

    def older_split(url, scheme="", allow_fragments=True):
        raise AssertionError

    assert _parse_c._has_keyword(newer_split, "missing_as_none")
    assert not _parse_c._has_keyword(older_split, "missing_as_none")
    assert not _parse_c._has_keyword(newer_split, "scheme")  # positional, not keyword-only
    assert _parse_c._default(newer_split, 0, None, "") is None
    assert _parse_c._default(newer_split, 0, "missing_as_none", True) is False


def test_scheme_none_splits_as_empty_when_switched_on():
    from fasturi import _parse_c

    old = _parse_c._modes(scheme_none=True)
    try:
        assert _parse_c.urlsplit("a/b", None) == urllib.parse.urlsplit("a/b", "")
        assert _parse_c.urlsplit(b"//x/y", None) == urllib.parse.urlsplit(b"//x/y", "")
    finally:
        _parse_c._modes(**old)


# ---- the split cache and the stdlib's warnings -----------------------------------


def test_a_call_the_stdlib_answers_is_kept_from_its_first_use():
    # lru_cache keeps every first call, so a repeated call the stdlib warns
    # about warns once; the compiled cache keeps such calls at once too.
    import fasturi.parse as fp

    std = urllib.parse.urlsplit
    if not hasattr(std, "cache_info"):  # before 3.11: no cache on either side
        assert not hasattr(fp.urlsplit, "cache_info")
        return
    for split in (fp.urlsplit, std):
        split.cache_clear()
        for _ in range(3):
            split("http://a\t/b")  # a tab to remove: answered by the stdlib's own code
            split(" http://a/b")  # leading space: the stdlib's code too
    ours, theirs = fp.urlsplit.cache_info(), std.cache_info()
    assert (ours.hits, ours.misses, ours.currsize) == (theirs.hits, theirs.misses, 2)
