"""Appendix B split, §5.3 recomposition and the §3.2 authority split."""

from __future__ import annotations

import gc
import pickle
import random
import re
import sys

import pytest
from outcomes import outcome

from fasturi._types import Split

# Appendix B's worked example, the §1.1.2 examples and §3's diagram.
EXAMPLES = [
    (
        "http://www.ics.uci.edu/pub/ietf/uri/#Related",
        ("http", "www.ics.uci.edu", "/pub/ietf/uri/", None, "Related"),
    ),
    ("ftp://ftp.is.co.za/rfc/rfc1808.txt", ("ftp", "ftp.is.co.za", "/rfc/rfc1808.txt", None, None)),
    (
        "http://www.ietf.org/rfc/rfc2396.txt",
        ("http", "www.ietf.org", "/rfc/rfc2396.txt", None, None),
    ),
    (
        "ldap://[2001:db8::7]/c=GB?objectClass?one",
        ("ldap", "[2001:db8::7]", "/c=GB", "objectClass?one", None),
    ),
    ("mailto:John.Doe@example.com", ("mailto", None, "John.Doe@example.com", None, None)),
    (
        "news:comp.infosystems.www.servers.unix",
        ("news", None, "comp.infosystems.www.servers.unix", None, None),
    ),
    ("tel:+1-816-555-1212", ("tel", None, "+1-816-555-1212", None, None)),
    ("telnet://192.0.2.16:80/", ("telnet", "192.0.2.16:80", "/", None, None)),
    (
        "urn:oasis:names:specification:docbook:dtd:xml:4.1.2",
        ("urn", None, "oasis:names:specification:docbook:dtd:xml:4.1.2", None, None),
    ),
    (
        "foo://example.com:8042/over/there?name=ferret#nose",
        ("foo", "example.com:8042", "/over/there", "name=ferret", "nose"),
    ),
    ("urn:example:animal:ferret:nose", ("urn", None, "example:animal:ferret:nose", None, None)),
]

# Empty is not undefined (§5.3): each delimiter alone defines its component.
EMPTY_VS_UNDEFINED = [
    ("", (None, None, "", None, None)),
    ("http://a/b", ("http", "a", "/b", None, None)),
    ("http://a/b?", ("http", "a", "/b", "", None)),
    ("http://a/b#", ("http", "a", "/b", None, "")),
    ("http://a/b?#", ("http", "a", "/b", "", "")),
    ("http://", ("http", "", "", None, None)),
    ("http:", ("http", None, "", None, None)),
    ("//", (None, "", "", None, None)),
    ("?", (None, None, "", "", None)),
    ("#", (None, None, "", None, "")),
    ("///", (None, "", "/", None, None)),
]

# Appendix B's scheme is any non-empty text before the first ":" that has no
# "/", "?" or "#": the split does not validate.
SCHEME_EDGES = [
    ("1a b:x", ("1a b", None, "x", None, None)),
    (":x", (None, None, ":x", None, None)),
    ("a/b:c", (None, None, "a/b:c", None, None)),
    ("a?b:c", (None, None, "a", "b:c", None)),
    ("a#b:c", (None, None, "a", None, "b:c")),
    ("a:b:c", ("a", None, "b:c", None, None)),
    ("./a:b", (None, None, "./a:b", None, None)),
    ("HTTP://A", ("HTTP", "A", "", None, None)),
]

ODD_TEXT = [
    # The fragment runs to the end, line breaks included (Appendix B's ".*").
    ("a:b#x\ny", ("a", None, "b", None, "x\ny")),
    ("a:b?x\ny#z", ("a", None, "b", "x\ny", "z")),
    ("s://h\x00/p\x00?q\x00#f\x00", ("s", "h\x00", "/p\x00", "q\x00", "f\x00")),
    ("http://h/?a?b#c#d?e", ("http", "h", "/", "a?b", "c#d?e")),
    ("http://[::1]:80/p", ("http", "[::1]:80", "/p", None, None)),
    ("é://ü/ö?ä#ß", ("é", "ü", "/ö", "ä", "ß")),
    ("x://\u20ac/\U0001f600?\ud800#\udfff", ("x", "\u20ac", "/\U0001f600", "\ud800", "\udfff")),
    (" http://a b/ ", (" http", "a b", "/ ", None, None)),
]


@pytest.mark.parametrize(("text", "parts"), EXAMPLES + EMPTY_VS_UNDEFINED + SCHEME_EDGES + ODD_TEXT)
def test_split(core, text, parts):
    result = core.split(text)
    assert type(result) is Split
    assert result == parts
    assert all(part is None or type(part) is str for part in result)
    assert core.unsplit(result) == text


# Appendix B itself, the regular expression the RFC gives.
APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?", re.DOTALL)


def block_edge_texts():
    """Delimiters at every place around the first block edges of the byte
    scans (which take 16 bytes at a time, a text's last 16 overlapping the
    block before), and random mixes of them."""
    for n in range(50):
        for at in range(n):
            for d in (":", "/", "?", "#", "//", "://", "\x80"):
                yield ("a" * at + d + "b" * n)[:n]
    rng = random.Random(3986)
    for _ in range(3000):
        yield "".join(
            rng.choice(["a", ":", "/", "//", "?", "#", "é"]) for _ in range(rng.randrange(40))
        )


def test_split_at_block_edges_is_appendix_b(core):
    for text in block_edge_texts():
        assert core.split(text) == APPENDIX_B.match(text).group(2, 4, 5, 7, 9), text


def test_split_result_is_a_real_split(core):
    result = core.split("http://a/b?c#d")
    assert (result.scheme, result.authority, result.path, result.query, result.fragment) == (
        "http",
        "a",
        "/b",
        "c",
        "d",
    )
    assert isinstance(result, tuple) and len(result) == 5
    assert result == Split("http", "a", "/b", "c", "d")
    assert hash(result) == hash(Split("http", "a", "/b", "c", "d"))
    assert result._replace(query=None) == Split("http", "a", "/b", None, "d")
    assert repr(result) == (
        "Split(scheme='http', authority='a', path='/b', query='c', fragment='d')"
    )
    again = pickle.loads(pickle.dumps(result))
    assert again == result and type(again) is Split


@pytest.mark.compiled
def test_compiled_splits_stay_out_of_the_collector():
    # A program that keeps millions of Splits must not have the cyclic GC
    # walk them: they hold only str and None, so they cannot be in a cycle.
    from fasturi import _core_c

    # all path: the Split holds text itself.  Made at run time: a constant
    # of the code is immortal where there is no GIL, and its count fixed.
    text = "".join(["relative/path/", "x" * 100])
    before = sys.getrefcount(text)
    result = _core_c.split(text)
    assert not gc.is_tracked(result)
    held = sys.getrefcount(text)
    assert held == before + 1
    assert result.path is text
    # ... and reference counting still frees them as soon as they are dropped.
    del result
    assert sys.getrefcount(text) == before


def test_split_of_a_str_subclass_gives_plain_str(core):
    class Text(str):
        pass

    result = core.split(Text("http://a/b"))
    assert result == ("http", "a", "/b", None, None)
    assert all(type(part) is str for part in result if part is not None)
    assert type(core.split(Text("abc")).path) is str


def test_split_large_input(core):
    path = "/" + "a" * 1_000_000
    assert core.split("http://h" + path + "?q#f") == ("http", "h", path, "q", "f")


@pytest.mark.parametrize("value", [b"http://a", None, 3, ["a"]])
def test_split_type_error(core, value):
    with pytest.raises(TypeError) as info:
        core.split(value)
    assert str(info.value) == f"split() argument 's' must be str, not {type(value).__name__}"


# ---- unsplit (§5.3) -----------------------------------------------------


@pytest.mark.parametrize(
    ("parts", "text"),
    [
        (("http", "a", "/b", "c", "d"), "http://a/b?c#d"),
        (("http", "a", "/b", "", ""), "http://a/b?#"),
        (("http", None, "b", None, None), "http:b"),
        ((None, None, "", None, None), ""),
        ((None, "", "", None, None), "//"),
        ((None, None, "", "", None), "?"),
        ((None, None, "", None, ""), "#"),
        (("s", "h", None, None, None), "s://h"),  # path None reads as empty
        # emitted as given: §5.3 does not escape or check
        (("a b", "c/d", "e?f", "g#h", "i"), "a b://c/de?f?g#h#i"),
        (("é", "ü", "/\U0001f600", "\ud800", "ß"), "é://ü/\U0001f600?\ud800#ß"),
    ],
)
def test_unsplit(core, parts, text):
    assert core.unsplit(parts) == text
    assert core.unsplit(list(parts)) == text
    assert core.unsplit(iter(parts)) == text
    assert core.unsplit(Split(*parts)) == text


def test_unsplit_wrong_length(core):
    with pytest.raises(ValueError) as info:
        core.unsplit(("a", "b", "c"))
    assert str(info.value) == "unsplit() argument 'parts' must have 5 items, not 3"
    with pytest.raises(ValueError):
        core.unsplit([None] * 6)


@pytest.mark.parametrize("parts", ["abcde", b"abcde", 5, None])
def test_unsplit_needs_a_sequence(core, parts):
    with pytest.raises(TypeError) as info:
        core.unsplit(parts)
    assert str(info.value) == (
        f"unsplit() argument 'parts' must be a sequence of 5 items, not {type(parts).__name__}"
    )


def test_unsplit_item_type(core):
    with pytest.raises(TypeError) as info:
        core.unsplit(("http", "a", b"/b", None, None))
    assert str(info.value) == "unsplit() argument 'parts' item 2 must be str or None, not bytes"
    with pytest.raises(TypeError):
        core.unsplit((1, None, "", None, None))


# ---- split_authority (§3.2) -----------------------------------------------


@pytest.mark.parametrize(
    ("authority", "parts"),
    [
        ("example.com", (None, "example.com", None)),
        ("example.com:8042", (None, "example.com", "8042")),
        ("user:pass@example.com:80", ("user:pass", "example.com", "80")),
        ("a@b@c", ("a@b", "c", None)),  # userinfo ends at the last "@"
        ("u@", ("u", "", None)),
        ("@h", ("", "h", None)),
        ("h:", (None, "h", "")),  # empty port, not undefined
        ("h:1:2", (None, "h:1", "2")),  # the port follows the last ":"
        ("", (None, "", None)),
        ("[::1]", (None, "[::1]", None)),
        ("[::1]:8080", (None, "[::1]", "8080")),
        ("[::1]:", (None, "[::1]", "")),
        ("[::1]x", (None, "[::1]x", None)),  # text after "]" that is not a port
        ("[::1]x:80", (None, "[::1]x:80", None)),
        ("[::1", (None, "[::1", None)),
        ("u@[fe80::1%25eth0]:443", ("u", "[fe80::1%25eth0]", "443")),
        ("[v1.x:y]:9", (None, "[v1.x:y]", "9")),
        ("ü@é:0", ("ü", "é", "0")),
        # long ones, whose last "@" and ":" are looked for 16 bytes at a time
        ("u" * 15 + "@" + "h" * 16 + ":1", ("u" * 15, "h" * 16, "1")),
        ("@" + "h" * 40, ("", "h" * 40, None)),
        ("u@" + "h" * 14 + ":", ("u", "h" * 14, "")),
        ("h" * 17, (None, "h" * 17, None)),
        ("a:b@" * 9 + "h" * 31 + ":" + "9" * 16, ("a:b@" * 8 + "a:b", "h" * 31, "9" * 16)),
        ("ü" * 20 + "@x:" + "1" * 20, ("ü" * 20, "x", "1" * 20)),
    ],
)
def test_split_authority(core, authority, parts):
    result = core.split_authority(authority)
    assert type(result) is tuple
    assert result == parts


def test_split_authority_type_error(core):
    with pytest.raises(TypeError) as info:
        core.split_authority(None)
    assert str(info.value) == "split_authority() argument 'authority' must be str, not NoneType"


@pytest.mark.parity
def test_authority_parts_inside_longer_text(twin_pair):
    # An authority's last "@" and ":" are looked for in the 16 bytes ending
    # where it ends, which reach back into the scheme: what lies there must
    # not count.
    compiled, python = twin_pair("uri")
    schemes = ["h", "http", "svn+ssh", "x" * 13, "s" * 20]
    authorities = [
        "",
        "h",
        "h:",
        ":1",
        "@",
        "u@h",
        "u:p@h:8",
        "@h:",
        "a@b@c:d",
        "[::1]:8",
        "h" * 15,
    ]
    for scheme in schemes:
        for auth in authorities:
            for rest in ("", "/p", "?q:@", "#f@:"):
                s = f"{scheme}://{auth}{rest}"
                got, want = compiled.URI(s), python.URI(s)
                assert (got.userinfo, got.host) == (want.userinfo, want.host), s
                assert outcome(lambda u: u.port, got) == outcome(lambda u: u.port, want), s
