"""Normalization and the comparison ladder (RFC 3986 §6.2)."""

from __future__ import annotations

import pytest


# §6.2.2: "could reasonably consider the following two URIs equivalent"
def test_syntax_based_example(core):
    a = "example://a/b/c/%7Bfoo%7D"
    b = "eXAMPLE://a/./b/../b/%63/%7bfoo%7d"
    assert core.normalize(a) == a
    assert core.normalize(b) == a
    assert core.equivalent(a, b)


# §6.2.2.1
def test_case_normalization(core):
    assert core.normalize("HTTP://www.EXAMPLE.com/") == "http://www.example.com/"
    assert core.equivalent("HTTP://www.EXAMPLE.com/", "http://www.example.com/")
    assert core.normalize("http://a/%3a%2f%c3%a9?%3b#%5e") == "http://a/%3A%2F%C3%A9?%3B#%5E"


# §6.2.3: "the following four URIs are equivalent", the second the normal form
SCHEME_BASED = [
    "http://example.com",
    "http://example.com/",
    "http://example.com:/",
    "http://example.com:80/",
]


@pytest.mark.parametrize("uri", SCHEME_BASED)
def test_scheme_based_example(core, uri):
    assert core.normalize(uri) == "http://example.com/"
    for other in SCHEME_BASED:
        assert core.equivalent(uri, other)


def test_empty_components_are_kept(core):
    # §6.2.3: "http://example.com/?" cannot be assumed equivalent to them
    assert core.normalize("http://example.com/?") == "http://example.com/?"
    assert not core.equivalent("http://example.com/?", "http://example.com/")
    # nor can two URIs that differ only by the suffix "#"
    assert core.normalize("http://example.com/#") == "http://example.com/#"
    assert not core.equivalent("http://example.com/#", "http://example.com/")
    assert core.normalize("http://a/b?#") == "http://a/b?#"
    assert core.normalize("http://@a/") == "http://@a/"
    assert core.normalize("file:///x") == "file:///x"


def test_equivalent_ladder(core):
    assert core.equivalent("HTTP://a.COM:80/%7euser", "http://a.com/~user")
    assert core.equivalent("http://a.com/~user", "HTTP://a.COM:80/%7euser")
    assert core.equivalent("x", "x")
    assert core.equivalent("a/../b", "a/../b")  # simple string comparison first
    assert not core.equivalent("a/../b", "b")
    assert not core.equivalent("http://a/b", "http://a/B")  # paths are case-sensitive
    assert not core.equivalent("http://a/%2F", "http://a//")  # reserved stays encoded
    assert not core.equivalent("http://u@a/", "http://U@a/")
    assert core.equivalent("http://a:0080", "http://A/")


HEXDIG = "0123456789ABCDEFabcdef"
UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"


def test_every_triplet(core):
    # §2.3 / §6.2.2.2: decoded exactly when the octet is unreserved, else kept
    # with uppercase hex digits (§6.2.2.1); in the host a decoded letter is
    # also lowercased.
    for a in HEXDIG:
        for b in HEXDIG:
            octet = chr(int(a + b, 16))
            kept = "%" + (a + b).upper()
            want = octet if octet in UNRESERVED else kept
            host = octet.lower() if octet in UNRESERVED else kept
            text = f"http://%{a}{b}/x%{a}{b}y?%{a}{b}#%{a}{b}"
            assert core.normalize(text) == f"http://{host}/x{want}y?{want}#{want}"


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # §6.2.2.2: unreserved octets decoded, everywhere
        ("http://a/%41%7A%30%2D%2E%5F%7E", "http://a/Az0-._~"),
        ("%7euser", "~user"),
        ("http://%75%73%65%72@%48%4F%53%54/?%71#%66", "http://user@host/?q#f"),
        ("%68ttp://a/", "http://a/"),
        # reserved and non-ASCII octets stay encoded, hex uppercased
        ("http://a/%2f%3F%23%5b%25%c3%a9%ff", "http://a/%2F%3F%23%5B%25%C3%A9%FF"),
        # malformed "%" is left as it is
        ("http://a/%zz%4%%x%", "http://a/%zz%4%%x%"),
        ("http://a/%G1%1G", "http://a/%G1%1G"),
        # §6.2.2.3 after decoding: %2E is a dot
        ("http://a/b/%2e%2E/c", "http://a/c"),
        ("http://a/./b/../c/.", "http://a/c/"),
        ("/a/./b/../c", "/a/c"),  # a path starting with "/" has its dots removed
        ("a/./b/../c", "a/./b/../c"),  # a rootless relative path is kept
        ("../a", "../a"),
        ("foo:a/../b", "foo:/b"),  # with a scheme, a rootless path goes through §5.2.4
        ("foo:a/./b", "foo:a/b"),
        # host only is lowercased; userinfo, path, query, fragment keep case
        ("HTTP://User:PW@Example.COM/Path?Q#F", "http://User:PW@example.com/Path?Q#F"),
        ("mailto:Joe@Example.COM", "mailto:Joe@Example.COM"),
        ("//EXAMPLE.com/A", "//example.com/A"),
        # IP literals: letters lowercased, an RFC 6874 zone ID keeps its case
        ("http://[FE80::ABCD]/", "http://[fe80::abcd]/"),
        ("http://[FE80::A%25En0]/", "http://[fe80::a%25En0]/"),
        ("http://[FE80::A%25En%30]/", "http://[fe80::a%25En0]/"),
        ("http://[FE80::A%25%45n0]X/", "http://[fe80::a%25En0]x/"),
        ("http://[V1.AB:CD]/", "http://[v1.ab:cd]/"),
        ("http://A%25B/", "http://a%25b/"),  # no brackets, no zone
        # case folding never reaches the hex digits of a kept triplet
        ("%3aB%41://%3aX%41/", "%3Aba://%3Axa/"),
        ("http://[%3a%25%3a]/", "http://[%3A%25%3A]/"),
        # non-ASCII passes through unchanged (no IDNA, no case folding)
        ("http://ÉXAMPLE.com/Ü?ö#ä", "http://Éxample.com/Ü?ö#ä"),
        ("HTTP://\u212a.com/\U0001f600", "http://\u212a.com/\U0001f600"),
        ("http://a/\ud800/../%41", "http://a/A"),
        ("http://a/\x00?\x00", "http://a/\x00?\x00"),
        # at the edges of "normal already" (copied whole): one thing more
        # and the URI goes the long way round
        ("http://a.example/b.c/d.e?f.g#h.i", "http://a.example/b.c/d.e?f.g#h.i"),
        ("http://a.example/.well-known/x", "http://a.example/.well-known/x"),
        ("http://a/b/.", "http://a/b/"),
        ("http://a/b/..", "http://a/"),
        ("http://a/b/.c/..d", "http://a/b/.c/..d"),
        ("foo:.", "foo:"),
        ("http://a.examplE/", "http://a.example/"),
        ("hTtp://a/", "http://a/"),
        ("http://a:/", "http://a/"),
        ("http://a:8080/", "http://a:8080/"),
        ("http://u@a.example:80", "http://u@a.example/"),
        ("http://a", "http://a/"),
        ("foo://a", "foo://a"),
        ("http://A@a/?B#C", "http://A@a/?B#C"),
        ("http://a/" + "b" * 40 + "%7e", "http://a/" + "b" * 40 + "~"),
        (
            "http://" + "x" * 40 + "@" + "y" * 40 + ":1/",
            "http://" + "x" * 40 + "@" + "y" * 40 + ":1/",
        ),
        ("http://" + "X" * 20 + ".example/", "http://" + "x" * 20 + ".example/"),
        # anything at all
        ("", ""),
        ("%", "%"),
        ("#%7E", "#~"),
        (":", ":"),
    ],
)
def test_normalize(core, text, want):
    assert core.normalize(text) == want
    assert core.normalize(want) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("http://a:80/", "http://a/"),
        ("http://a:0080/", "http://a/"),
        ("http://a:00080/", "http://a/"),
        ("http://a:%38%30/", "http://a/"),  # decoded first, then compared
        ("http://a:443/", "http://a:443/"),
        ("http://a:8080/", "http://a:8080/"),
        ("http://a:800/", "http://a:800/"),
        ("http://a:8/", "http://a:8/"),
        ("http://a:0/", "http://a:0/"),
        ("http://a:x/", "http://a:x/"),
        ("http://a:\u0668\u0660/", "http://a:\u0668\u0660/"),  # not ASCII digits
        ("https://a:443/", "https://a/"),
        ("https://a:80/", "https://a:80/"),
        ("ws://a:80/", "ws://a/"),
        ("wss://a:443/", "wss://a/"),
        ("ftp://a:21/", "ftp://a/"),
        ("HTTP://a:80", "http://a/"),
        ("gopher://a:70/", "gopher://a:70/"),  # defaults are known for five schemes
        ("foo://a:/", "foo://a/"),  # an empty port goes for every scheme
        ("//a:/", "//a/"),
        ("//a:80/", "//a:80/"),
        ("http://u@[::1]:80/", "http://u@[::1]/"),
        ("http://[::1]:/", "http://[::1]/"),
        # an empty path is "/" for these schemes with an authority
        ("https://a", "https://a/"),
        ("ws://a?x", "ws://a/?x"),
        ("wss://a#x", "wss://a/#x"),
        ("ftp://a", "ftp://a/"),
        ("foo://a", "foo://a"),
        ("http:", "http:"),
        ("http:?x", "http:?x"),
        ("http://", "http:///"),
        # dropping a port can uncover another in a malformed host
        ("http://a:80:80/", "http://a/"),
        ("http://a:80:/", "http://a/"),
        ("http://a:x:80/", "http://a:x/"),
    ],
)
def test_scheme_based(core, text, want):
    assert core.normalize(text) == want
    assert core.normalize(want) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        ("HTTP://A:80", "http://a:80"),
        ("http://a:/", "http://a:/"),
        ("http://a", "http://a"),
        ("http://a/./b/%7e", "http://a/b/~"),
    ],
)
def test_syntax_based_only(core, text, want):
    assert core.normalize(text, scheme_based=False) == want
    assert core.normalize(want, scheme_based=False) == want


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # Decoding "%34" would make "%" + "4" + "1" a triplet, which a second
        # pass would decode: it stays encoded, so one pass is final.
        ("%%341", "%%341"),
        ("%4%31", "%4%31"),
        ("%%34%31", "%4%31"),
        ("http://a/%%34%31x", "http://a/%4%31x"),
        ("http://a/%%34g", "http://a/%4g"),
        ("http://a/%%2E", "http://a/%."),
        # a "//" path without an authority would read back as one
        ("http:/..//x", "http:/.//x"),
        ("/..//x", "/.//x"),
        ("http:/.//x", "http:/.//x"),
        ("http://a/..//x", "http://a//x"),
    ],
)
def test_one_pass_is_final(core, text, want):
    assert core.normalize(text) == want
    assert core.normalize(want) == want


def test_large_inputs(core):
    assert core.normalize("http://a/" + "../" * 100_000 + "x") == "http://a/x"
    assert core.normalize("http://a/" + "x/../" * 100_000) == "http://a/"
    big = "http://a/" + "%7e" * 200_000
    assert core.normalize(big) == "http://a/" + "~" * 200_000
    huge = "http://a/" + "b" * 10_000_000
    assert core.normalize(huge) == huge


def test_type_errors(core):
    with pytest.raises(TypeError) as info:
        core.normalize(b"http://a")
    assert str(info.value) == "normalize() argument 's' must be str, not bytes"
    with pytest.raises(TypeError) as info:
        core.equivalent("a", 1)
    assert str(info.value) == "equivalent() argument 'b' must be str, not int"
    with pytest.raises(TypeError) as info:
        core.equivalent(None, "a")
    assert str(info.value) == "equivalent() argument 'a' must be str, not NoneType"
    with pytest.raises(TypeError):
        core.normalize("http://a", True)  # scheme_based is keyword-only
