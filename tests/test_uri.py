"""The URI value object (both twins): components, value semantics, methods."""

from __future__ import annotations

import copy
import gc
import pickle
import sys
import tracemalloc

import pytest
from rfc_examples import RFC_5_4_1, RFC_5_4_2

from fasturi import InvalidURI

# scheme, authority, userinfo, host, port, path, query, fragment
# fmt: off
COMPONENTS = {
    # §1.1.2
    "ftp://ftp.is.co.za/rfc/rfc1808.txt":
        ("ftp", "ftp.is.co.za", None, "ftp.is.co.za", None, "/rfc/rfc1808.txt", None, None),
    "http://www.ietf.org/rfc/rfc2396.txt":
        ("http", "www.ietf.org", None, "www.ietf.org", None, "/rfc/rfc2396.txt", None, None),
    "ldap://[2001:db8::7]/c=GB?objectClass?one":
        ("ldap", "[2001:db8::7]", None, "[2001:db8::7]", None, "/c=GB", "objectClass?one", None),
    "mailto:John.Doe@example.com":
        ("mailto", None, None, None, None, "John.Doe@example.com", None, None),
    "news:comp.infosystems.www.servers.unix":
        ("news", None, None, None, None, "comp.infosystems.www.servers.unix", None, None),
    "tel:+1-816-555-1212": ("tel", None, None, None, None, "+1-816-555-1212", None, None),
    "telnet://192.0.2.16:80/":
        ("telnet", "192.0.2.16:80", None, "192.0.2.16", 80, "/", None, None),
    "urn:oasis:names:specification:docbook:dtd:xml:4.1.2":
        ("urn", None, None, None, None, "oasis:names:specification:docbook:dtd:xml:4.1.2",
         None, None),
    # §3
    "foo://example.com:8042/over/there?name=ferret#nose":
        ("foo", "example.com:8042", None, "example.com", 8042, "/over/there", "name=ferret",
         "nose"),
    "urn:example:animal:ferret:nose":
        ("urn", None, None, None, None, "example:animal:ferret:nose", None, None),
    # §7.6
    "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm":
        ("ftp", "cnn.example.com&story=breaking_news@10.0.0.1",
         "cnn.example.com&story=breaking_news", "10.0.0.1", None, "/top_story.htm", None, None),
    # empty versus undefined (§5.3)
    "http://a/b?": ("http", "a", None, "a", None, "/b", "", None),
    "http://a/b#": ("http", "a", None, "a", None, "/b", None, ""),
    "http://a/b?#": ("http", "a", None, "a", None, "/b", "", ""),
    "file:///etc/hosts": ("file", "", None, "", None, "/etc/hosts", None, None),
    "http://@:/": ("http", "@:", "", "", None, "/", None, None),
    "http://u:p@h:/": ("http", "u:p@h:", "u:p", "h", None, "/", None, None),
    "": (None, None, None, None, None, "", None, None),
    "?": (None, None, None, None, None, "", "", None),
    "#": (None, None, None, None, None, "", None, ""),
    "//": (None, "", None, "", None, "", None, None),
    "//h": (None, "h", None, "h", None, "", None, None),
    ":x": (None, None, None, None, None, ":x", None, None),
    "a/b:c": (None, None, None, None, None, "a/b:c", None, None),
    "../g?y#s": (None, None, None, None, None, "../g", "y", "s"),
    # the authority split of docs/ARCHITECTURE.md
    "http://a@b@c:1/": ("http", "a@b@c:1", "a@b", "c", 1, "/", None, None),
    "http://[::1]:8080/": ("http", "[::1]:8080", None, "[::1]", 8080, "/", None, None),
    "http://[::1]x/": ("http", "[::1]x", None, "[::1]x", None, "/", None, None),
    "http://[::1/": ("http", "[::1", None, "[::1", None, "/", None, None),
    "http://a:b:80/": ("http", "a:b:80", None, "a:b", 80, "/", None, None),
    "http://u#@evil/": ("http", "u", None, "u", None, "", None, "@evil/"),
    "http://u?@evil/": ("http", "u", None, "u", None, "", "@evil/", None),
    # Appendix B takes any scheme text
    "1a b:x": ("1a b", None, None, None, None, "x", None, None),
    # non-ASCII of every str kind, NUL and a lone surrogate
    "h\u00e9://\u00e9@\u00e9:1/\u00e9?\u00e9#\u00e9":
        ("h\u00e9", "\u00e9@\u00e9:1", "\u00e9", "\u00e9", 1, "/\u00e9", "\u00e9", "\u00e9"),
    "x://\u20ac@[\u20ac]:2/\u20ac":
        ("x", "\u20ac@[\u20ac]:2", "\u20ac", "[\u20ac]", 2, "/\u20ac", None, None),
    "x://\U0001f600:3/?\U0001f600":
        ("x", "\U0001f600:3", None, "\U0001f600", 3, "/", "\U0001f600", None),
    "a\x00b://\ud800/\x00": ("a\x00b", "\ud800", None, "\ud800", None, "/\x00", None, None),
}
# fmt: on

NAMES = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


@pytest.mark.parametrize("text", sorted(COMPONENTS))
def test_components(urimod, text):
    u = urimod.URI(text)
    assert tuple(getattr(u, name) for name in NAMES) == COMPONENTS[text]
    assert str(u) == text


@pytest.mark.parametrize(
    ("text", "position", "char"),
    [
        ("http://a:8x/", 10, "x"),
        ("http://a:+80/", 9, "+"),
        ("//h:\u0663/", 4, "\u0663"),  # DIGIT is ASCII only
        ("http://u@[::1]:1\U0001f600/", 16, "\U0001f600"),
        ("http://a: 1", 9, " "),
    ],
)
def test_port_not_digits(urimod, text, position, char):
    u = urimod.URI(text)
    with pytest.raises(InvalidURI) as err:
        u.port  # noqa: B018
    assert (err.value.position, err.value.rule) == (position, "port")
    assert str(err.value) == f"invalid port at position {position}: {char!r}"
    # reading the rest never depends on the port
    assert u.host is not None


@pytest.mark.parametrize(
    ("text", "port"),
    [
        ("http://a:0/", 0),
        ("http://a:0080/", 80),
        ("http://a:65536/", 65536),  # port = *DIGIT: no range
        ("http://a:" + "9" * 18 + "/", 10**18 - 1),
        ("http://a:" + "9" * 19 + "/", 10**19 - 1),
        ("http://a:" + "1" * 30, int("1" * 30)),
    ],
)
def test_port_numbers(urimod, text, port):
    assert urimod.URI(text).port == port


def test_port_longer_than_int_conversion_limit(urimod):
    # int() refuses very long decimal strings; *DIGIT has no such limit.
    assert urimod.URI("//h:" + "7" * 9000).port == 7 * (10**9000 - 1) // 9


@pytest.mark.parametrize(
    ("text", "host_type", "zone_id"),
    [
        ("http://example.com/", "reg-name", None),
        ("http://127.0.0.1/", "IPv4", None),
        ("http://127.1/", "reg-name", None),  # §7.4: only dotted-decimal is IPv4address
        ("http://[::1]/", "IPv6", None),
        ("http://[fe80::1%25eth0]:8080/", "IPv6", "eth0"),
        ("http://[fe80::1%25%65th0]/", "IPv6", "%65th0"),
        ("http://[v7.a:b]/", "IPvFuture", None),
        ("http://a b/", None, None),
        ("file:///x", "reg-name", None),
        ("mailto:x@y", None, None),
        ("http://[fe80::1%eth0]/", None, None),  # RFC 6874 wants "%25"
        ("http://[fe80::1%25eth0/", None, None),  # no closing bracket
    ],
)
def test_host_type_and_zone_id(urimod, text, host_type, zone_id):
    u = urimod.URI(text)
    assert (u.host_type, u.zone_id) == (host_type, zone_id)


# -- value semantics -----------------------------------------------------


def test_equality_is_by_exact_text(urimod):
    URI = urimod.URI
    assert URI("http://a/b") == URI("http://a/b")
    assert URI("A:b") != URI("a:b")  # §6.2 comparison is equivalent()'s job
    assert not URI("A:b") == URI("a:b")  # noqa: SIM201 - __eq__, not __ne__
    assert URI("x") != "x"
    assert not URI("x") == "x"  # noqa: SIM201
    assert hash(URI("http://a/b")) == hash(URI("http://a/b"))
    assert len({URI("a:b"), URI("a:b"), URI("A:b")}) == 2


@pytest.mark.parity
def test_the_twins_are_not_equal_to_each_other(twin_pair):
    compiled, python = twin_pair("uri")
    assert compiled.URI("a:b") != python.URI("a:b")


def test_repr_str_pickle_copy(urimod):
    u = urimod.URI("http://a/'b'\u00e9")
    assert repr(u) == "URI(\"http://a/'b'\u00e9\")"
    assert str(u) == "http://a/'b'\u00e9"
    assert type(str(u)) is str
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(u, protocol))
        assert type(back) is urimod.URI and back == u
    assert copy.copy(u) is u
    assert copy.deepcopy(u) is u


def test_immutable(urimod):
    u = urimod.URI("http://a/")
    with pytest.raises(AttributeError):
        u.scheme = "ftp"
    with pytest.raises(AttributeError):
        u.anything = 1
    with pytest.raises(TypeError):
        type("Sub", (urimod.URI,), {})
    assert u.scheme == "http"


def test_str_subclass_is_kept_as_plain_text(urimod):
    class Text(str):
        def __str__(self):
            return "changed"

    u = urimod.URI(Text("http://a/"))
    assert type(str(u)) is str and str(u) == "http://a/"
    assert u == urimod.URI("http://a/")


@pytest.mark.parametrize("bad", [b"http://a/", None, 1, bytearray(b"x")])
def test_only_str(urimod, bad):
    with pytest.raises(TypeError) as err:
        urimod.URI(bad)
    assert str(err.value) == f"URI() argument 's' must be str, not {type(bad).__name__}"


# -- methods ---------------------------------------------------------------

BASE = "http://a/b/c/d;p?q"

# §5.4.1 and §5.4.2
RESOLUTION = RFC_5_4_1 + RFC_5_4_2


@pytest.mark.parametrize(("ref", "want"), RESOLUTION)
def test_resolve_rfc_examples(urimod, ref, want):
    base = urimod.URI(BASE)
    got = base.resolve(ref)
    assert type(got) is urimod.URI and str(got) == want
    assert str(base.resolve(urimod.URI(ref))) == want


def test_resolve_options(urimod):
    base = urimod.URI(BASE)
    # §5.4.2: the backwards-compatible reading of "http:g"
    assert str(base.resolve("http:g", strict=False)) == "http://a/b/c/g"
    # RFC 2396 Appendix C keeps ".." above the root
    assert str(base.resolve("../../../g", rfc=2396)) == "http://a/../g"
    with pytest.raises(InvalidURI):
        urimod.URI("a/b").resolve("c")  # §5.2.1: the base must have a scheme
    with pytest.raises(TypeError) as err:
        base.resolve(b"g")
    assert str(err.value) == "resolve() argument 'ref' must be str or URI, not bytes"


def test_normalize_and_equivalent(urimod):
    URI = urimod.URI
    # §6.2.2
    a, b = URI("example://a/b/c/%7Bfoo%7D"), URI("eXAMPLE://a/./b/../b/%63/%7bfoo%7d")
    assert a != b and a.equivalent(b) and b.equivalent(str(a))
    assert b.normalize() == a
    assert type(b.normalize()) is URI
    # §6.2.2.1
    assert URI("HTTP://www.EXAMPLE.com/").normalize() == URI("http://www.example.com/")
    # §6.2.3
    forms = [
        "http://example.com",
        "http://example.com/",
        "http://example.com:/",
        "http://example.com:80/",
    ]
    for form in forms:
        assert URI(form).normalize() == URI("http://example.com/")
        assert all(URI(form).equivalent(other) for other in forms)
    assert URI("http://example.com:80/").normalize(scheme_based=False) == URI(
        "http://example.com:80/"
    )
    assert not URI("http://a/b").equivalent("http://a/c")
    with pytest.raises(TypeError) as err:
        URI("a:b").equivalent(None)
    assert str(err.value) == "equivalent() argument 'other' must be str or URI, not NoneType"


@pytest.mark.parametrize(
    ("text", "absolute"),
    [
        ("http://a/b?q", True),
        ("http://a/b#f", False),
        ("http://a/b#", False),
        ("a:", True),
        ("//a/b", False),
        ("/b", False),
        ("", False),
    ],
)
def test_is_absolute(urimod, text, absolute):
    assert urimod.URI(text).is_absolute() is absolute


def test_is_valid_and_validate(urimod):
    URI = urimod.URI
    u = URI("http://a/b")
    assert u.is_valid() and u.is_valid("URI") and u.is_valid("absolute-URI")
    assert not URI("/b").is_valid("URI")
    assert URI("http://a/b#f").is_valid("URI") and not URI("http://a/b#f").is_valid("absolute-URI")
    assert u.validate() is u
    assert u.validate("absoluteURI", rfc=2396) is u
    with pytest.raises(InvalidURI) as err:
        URI("http://a b/").validate()
    assert (err.value.position, err.value.rule) == (8, "URI-reference")
    with pytest.raises(ValueError):
        u.is_valid("no-such-rule")


# -- replace --------------------------------------------------------------

REPLACE = [
    ("http://u@a:1/p?q#f", {"scheme": "https"}, "https://u@a:1/p?q#f"),
    ("http://u@a:1/p?q#f", {"scheme": None}, "//u@a:1/p?q#f"),
    ("http://u@a:1/p?q#f", {"authority": "b"}, "http://b/p?q#f"),
    ("http://u@a:1/p?q#f", {"authority": None}, "http:/p?q#f"),
    ("http://u@a:1/p?q#f", {"userinfo": None}, "http://a:1/p?q#f"),
    ("http://u@a:1/p?q#f", {"userinfo": "v:w"}, "http://v:w@a:1/p?q#f"),
    ("http://u@a:1/p?q#f", {"host": "[::1]"}, "http://u@[::1]:1/p?q#f"),
    ("http://u@a:1/p?q#f", {"host": None}, "http:/p?q#f"),
    ("http://u@a:1/p?q#f", {"port": 8080}, "http://u@a:8080/p?q#f"),
    ("http://u@a:1/p?q#f", {"port": ""}, "http://u@a:/p?q#f"),
    ("http://u@a:1/p?q#f", {"port": None}, "http://u@a/p?q#f"),
    ("http://u@a:1/p?q#f", {"path": "/x y"}, "http://u@a:1/x y?q#f"),  # as given
    ("http://u@a:1/p?q#f", {"path": None}, "http://u@a:1?q#f"),
    ("http://u@a:1/p?q#f", {"query": None, "fragment": ""}, "http://u@a:1/p#"),
    ("http://u@a:1/p?q#f", {"query": ""}, "http://u@a:1/p?#f"),
    ("http://u@a:1/p?q#f", {}, "http://u@a:1/p?q#f"),
    ("mailto:x", {"host": "h"}, "mailto://hx"),  # inserted as given
    ("mailto:x", {"host": "h", "path": "/x"}, "mailto://h/x"),
    ("/p", {"host": "h", "port": 1}, "//h:1/p"),
    ("http://[::1]x/", {"port": 2}, "http://[::1]x:2/"),
]


@pytest.mark.parametrize(("text", "changes", "want"), REPLACE)
def test_replace(urimod, text, changes, want):
    got = urimod.URI(text).replace(**changes)
    assert type(got) is urimod.URI and str(got) == want


def test_replace_errors(urimod):
    u = urimod.URI("http://a/")
    with pytest.raises(TypeError) as err:
        u.replace(authority="b", host="c")
    assert "authority" in str(err.value)
    with pytest.raises(TypeError) as err:
        u.replace(netloc="b")
    assert str(err.value) == "replace() got an unexpected keyword argument 'netloc'"
    with pytest.raises(TypeError) as err:
        u.replace(path=b"/x")
    assert str(err.value) == "replace() argument 'path' must be str or None, not bytes"
    with pytest.raises(TypeError):
        u.replace(port=True)
    with pytest.raises(ValueError):
        u.replace(port=-1)
    # userinfo and port live inside an authority, which needs a host
    with pytest.raises(ValueError):
        urimod.URI("mailto:x").replace(port=25)
    with pytest.raises(ValueError):
        u.replace(host=None, userinfo="u")


# -- memory ---------------------------------------------------------------


@pytest.mark.parity
def test_compiled_uri_memory_bound(twin_pair):
    """An unread compiled URI keeps at most its str plus 96 bytes alive."""
    compiled, python = twin_pair("uri")
    texts = [
        f"http{'s' * (i % 2)}://user{i}@host{i}.example:{i % 65536}/p/{i}?q={i}#f{i}"
        if i % 3
        else f"urn:x:\u00e9{i}"
        if i % 5
        else f"//h/\U0001f600{i}"
        for i in range(5000)
    ]

    def kept_alive(URI):
        gc.collect()
        tracemalloc.start()
        try:
            before = tracemalloc.get_traced_memory()[0]
            objs = [URI(t) for t in texts]
            built = tracemalloc.get_traced_memory()[0]
            for u in objs:
                (u.scheme, u.authority, u.userinfo, u.host, u.path, u.query, u.fragment)  # noqa: B018
            read = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        assert len(objs) == len(texts)
        return built - before - sys.getsizeof(objs), read - built

    compiled_bytes, compiled_growth = kept_alive(compiled.URI)
    # The texts already exist: a URI holds a reference to its str, not a
    # copy, so all it may add is its own fixed-size object.
    assert compiled_bytes <= 96 * len(texts)
    # Components read are sliced on demand and not cached.
    assert compiled_growth < 1024  # a few freelist entries, not one per URI
    assert compiled_bytes < kept_alive(python.URI)[0]
