"""fasturi.whatwg beyond the WPT data: the URL Standard's own examples, the
URL object (immutable, hashable, equal by href, pickled), str and bytes in,
the errors, and properties of the parser (idempotence of href)."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fasturi import whatwg
from fasturi._types import WHATWG_FIELDS
from fasturi.whatwg import URL, InvalidURL

# ---- the standard's examples ----------------------------------------------

# Hosts: the host parser's parse-serialize round trip (example-host-parsing),
# isOpaque false through a special URL, true through a non-special one.
HOST_EXAMPLES = [
    # input, output (isOpaque false), output (isOpaque true); None = failure
    ("EXAMPLE.COM", "example.com", "EXAMPLE.COM"),
    ("example%2Ecom", "example.com", "example%2Ecom"),
    ("faß.example", "xn--fa-hia.example", "fa%C3%9F.example"),
    ("0", "0.0.0.0", "0"),
    ("%30", "0.0.0.0", "%30"),
    ("0x", "0.0.0.0", "0x"),
    ("0xffffffff", "255.255.255.255", "0xffffffff"),
    ("[0:0::1]", "[::1]", "[::1]"),
    ("[0:0::1%5D", None, None),
    ("[0:0::%31]", None, None),
    ("09", None, "09"),
    ("example.255", None, "example.255"),
    ("example^example", None, None),
]


@pytest.mark.parametrize(("host", "special", "opaque"), HOST_EXAMPLES)
def test_host_parsing_examples(host, special, opaque):
    for scheme, want in (("https", special), ("sc", opaque)):
        text = f"{scheme}://{host}/"
        if want is None:
            with pytest.raises(InvalidURL):
                whatwg.parse(text)
        else:
            assert whatwg.parse(text).hostname == want


# The URL parsing examples table (example-url-parsing): input, base, output.
URL_EXAMPLES = [
    ("https:example.org", None, "https://example.org/"),
    ("https://////example.com///", None, "https://example.com///"),
    ("https://example.com/././foo", None, "https://example.com/foo"),
    ("hello:world", "https://example.com/", "hello:world"),
    ("https:example.org", "https://example.com/", "https://example.com/example.org"),
    ("\\example\\..\\demo/.\\", "https://example.com/", "https://example.com/demo/"),
    ("example", "https://example.com/demo", "https://example.com/example"),
    ("file:///C|/demo", None, "file:///C:/demo"),
    ("..", "file:///C:/demo", "file:///C:/"),
    ("file://loc%61lhost/", None, "file:///"),
    ("https://user:password@example.org/", None, "https://user:password@example.org/"),
    ("https://example.org/foo bar", None, "https://example.org/foo%20bar"),
    ("https://EXAMPLE.com/../x", None, "https://example.com/x"),
    ("https://ex ample.org/", None, None),
    ("example", None, None),
    ("https://example.com:demo", None, None),
    ("http://[www.example.com]/", None, None),
    ("https://example.org//", None, "https://example.org//"),
    ("https://example.com/[]?[]#[]", None, "https://example.com/[]?[]#[]"),
    ("https://example/%?%#%", None, "https://example/%?%#%"),
    ("https://example/%25?%25#%25", None, "https://example/%25?%25#%25"),
]


@pytest.mark.parametrize(("input", "base", "want"), URL_EXAMPLES)
def test_url_parsing_examples(input, base, want):
    if want is None:
        assert not whatwg.can_parse(input, base)
    else:
        assert whatwg.parse(input, base).href == want


def test_components_of_the_standards_table():
    u = whatwg.parse("https://localhost:8000/search?q=text#hello")
    assert (u.protocol, u.hostname, u.port, u.pathname, u.search, u.hash) == (
        "https:",
        "localhost",
        "8000",
        "/search",
        "?q=text",
        "#hello",
    )
    u = whatwg.parse("urn:isbn:9780307476463")
    assert (u.host, u.pathname, u.search, u.hash, u.origin) == (
        "",
        "isbn:9780307476463",
        "",
        "",
        "null",
    )
    u = whatwg.parse("file:///ada/Analytical%20Engine/README.md")
    assert (u.host, u.pathname) == ("", "/ada/Analytical%20Engine/README.md")


def test_origin():
    assert whatwg.parse("https://EXAMPLE.com:443/x").origin == "https://example.com"
    assert whatwg.parse("ws://a:81/").origin == "ws://a:81"
    assert whatwg.parse("file:///etc").origin == "null"
    assert whatwg.parse("blob:https://whatwg.org/d0360e2f").origin == "https://whatwg.org"
    assert whatwg.parse("blob:ftp://whatwg.org/x").origin == "null"
    assert whatwg.parse("blob:d0360e2f").origin == "null"


def test_the_issues_confusion_input():
    # urllib.parse's host here is 1.1.1.1; a browser connects to 127.0.0.1
    u = whatwg.parse("http://127.0.0.1:6666\\@1.1.1.1")
    assert (u.hostname, u.port, u.pathname) == ("127.0.0.1", "6666", "/@1.1.1.1")


def test_ipv4_number_forms():
    for host in ("0x7f.1", "127.1", "0177.0.0.1", "2130706433", "0x7f000001", "127.0.0.1."):
        assert whatwg.parse(f"http://{host}/").hostname == "127.0.0.1", host
    with pytest.raises(InvalidURL) as e:
        whatwg.parse("http://256.256.256.256/")
    assert e.value.reason == "IPv4-out-of-range-part"
    # a long decimal part is out of range, not an int() error
    assert not whatwg.can_parse("http://1." + "9" * 5000 + "/")


def test_long_port_is_out_of_range():
    with pytest.raises(InvalidURL) as e:
        whatwg.parse("http://a:" + "9" * 5000 + "/")
    assert e.value.reason == "port-out-of-range"
    assert whatwg.parse("http://a:" + "0" * 5000 + "80/").port == ""
    assert whatwg.parse("http://a:" + "0" * 5000 + "/").port == "0"


def test_ipv6_forms():
    cases = {
        "[::ffff:192.168.0.1]": "[::ffff:c0a8:1]",
        "[1:0:0:2::3:0]": "[1::2:0:0:3:0]",
        "[0:0:0:0:0:0:0:0]": "[::]",
        "[1:2:3:4:5:6:7:8]": "[1:2:3:4:5:6:7:8]",
        "[::1.2.3.4]": "[::102:304]",
    }
    for host, want in cases.items():
        assert whatwg.parse(f"http://{host}/").hostname == want
    for host in (
        "[1:2:3:4:5:6:7:8:9]",
        "[::1::]",
        "[:1]",
        "[1:2:3:4:5:6:7:1.2.3.4]",
        "[::01.2.3.4]",
    ):
        assert not whatwg.can_parse(f"http://{host}/"), host


# ---- the URL object ----------------------------------------------------------


def test_url_is_a_value():
    a = whatwg.parse("HTTP://Example.COM:80/a/./b")
    b = whatwg.parse("http://example.com/a/b")
    assert a == b and hash(a) == hash(b) and str(a) == a.href == "http://example.com/a/b"
    assert a != whatwg.parse("http://example.com/a/b#")
    assert a != "http://example.com/a/b"
    assert repr(a) == "URL('http://example.com/a/b')"
    assert len({a, b}) == 1
    with pytest.raises(AttributeError):
        a.href = "x"  # type: ignore[misc]
    with pytest.raises(AttributeError):
        a._href = "x"
    with pytest.raises(TypeError):
        URL("http://a/")
    assert type(a).__module__ == "fasturi.whatwg"


def test_a_url_made_by_new_alone_is_safe_to_read():
    # not how URLs are made, but reading one must not crash the interpreter
    u = URL.__new__(URL)
    for getter in WHATWG_FIELDS:
        try:
            getattr(u, getter)
        except (AttributeError, TypeError):  # (unset: the reference raises, so may this)
            pass


def test_url_pickles_and_copies():
    u = whatwg.parse("blob:https://a.example:8080/x?y#z")
    for v in (pickle.loads(pickle.dumps(u)), copy.copy(u), copy.deepcopy(u)):
        assert v == u
        assert [getattr(v, g) for g in ("origin", "host", "port", "search", "hash")] == [
            getattr(u, g) for g in ("origin", "host", "port", "search", "hash")
        ]


def test_bytes_input_is_utf8():
    assert whatwg.parse("http://a/é".encode()) == whatwg.parse("http://a/é")
    assert whatwg.parse(b"x", b"http://a/b/c").href == "http://a/b/x"
    # what is not UTF-8 becomes U+FFFD (the Encoding Standard's UTF-8 decode)
    assert whatwg.parse(b"http://a/\xff").pathname == "/%EF%BF%BD"
    assert whatwg.resolve(b"http://a/b/c", b"../d") == "http://a/d"


def test_lone_surrogates_are_replaced():
    # Web IDL's USVString conversion
    assert whatwg.parse("http://a/\ud800").pathname == "/%EF%BF%BD"
    assert not whatwg.can_parse("http://\udfff/")


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: whatwg.parse(1), "parse() argument 'input' must be str or bytes, not int"),
        (lambda: whatwg.parse("x", 1.5), "parse() argument 'base' must be str or bytes, not float"),
        (
            lambda: whatwg.can_parse(None),
            "can_parse() argument 'input' must be str or bytes, not NoneType",
        ),
        (
            lambda: whatwg.resolve(None, "x"),
            "resolve() argument 'base' must be str or bytes, not NoneType",
        ),
        (
            lambda: whatwg.resolve("http://a/", 3),
            "resolve() argument 'ref' must be str or bytes, not int",
        ),
    ],
)
def test_type_errors(call, message):
    with pytest.raises(TypeError) as e:
        call()
    assert str(e.value) == message


def test_invalid_url_names_the_reason():
    with pytest.raises(ValueError) as e:
        whatwg.parse("http://a:99999/")
    assert isinstance(e.value, InvalidURL)
    assert e.value.reason == "port-out-of-range"
    assert str(e.value) == "invalid URL: the port is greater than 65535 (port-out-of-range)"
    assert pickle.loads(pickle.dumps(e.value)).reason == "port-out-of-range"
    reasons = {
        "x": "missing-scheme-non-relative-URL",
        "http://": "host-missing",
        "http://a:b/": "port-invalid",
        "sc://a b/": "host-invalid-code-point",
        "http://[::1/": "IPv6-unclosed",
        "http://\u00ad/": "domain-to-ASCII",
        "http://a%25b/": "domain-to-ASCII",
        "http://1.2.3.4.5/": "IPv4-too-many-parts",
    }
    for text, reason in reasons.items():
        with pytest.raises(InvalidURL) as e:
            whatwg.parse(text)
        assert e.value.reason == reason, text
    with pytest.raises(InvalidURL) as e:
        whatwg.parse("x", "not a base")
    assert e.value.reason == "missing-scheme-non-relative-URL"
    assert "base URL" in str(e.value)


def test_resolve_is_parse_with_a_base():
    assert whatwg.resolve("http://a/b/c/d;p?q", "../../../g") == "http://a/g"
    assert whatwg.resolve("http://a/b/c/d;p?q", "g:h") == "g:h"
    assert whatwg.resolve("http://a/b", "//x\\y") == "http://x/y"
    with pytest.raises(InvalidURL):
        whatwg.resolve("a:opaque", "b")


# ---- properties ------------------------------------------------------------

URL_TEXT = st.lists(
    st.sampled_from(list("ab:/\\?#@[]%.0x19 \t-é\u00adß") + ["%2e", "%41", "xn--", "::"]),
    max_size=30,
).map("".join)


@given(st.sampled_from(["http://", "sc:", "sc://", "file:", "", "HTTPS://h"]), URL_TEXT)
def test_href_reparses_to_itself(prefix, rest):
    # "If that string is then parsed, the result will equal the URL that
    # was serialized" (URL Standard, URLs).
    try:
        u = whatwg.parse(prefix + rest, "http://base.example/p/q")
    except InvalidURL:
        return
    again = whatwg.parse(u.href)
    assert again == u
