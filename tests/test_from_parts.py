"""URI.from_parts (both twins): §5.3 recomposition with per-component encoding."""

from __future__ import annotations

import pytest

from fasturi import InvalidURI

BUILT = [
    # the §3 example, and every component empty versus undefined
    (
        {
            "scheme": "foo",
            "host": "example.com",
            "port": 8042,
            "path": "/over/there",
            "query": "name=ferret",
            "fragment": "nose",
        },
        "foo://example.com:8042/over/there?name=ferret#nose",
    ),
    ({"scheme": "urn", "path": "example:animal:ferret:nose"}, "urn:example:animal:ferret:nose"),
    ({}, ""),
    ({"query": "", "fragment": ""}, "?#"),
    ({"scheme": "file", "host": "", "path": "/etc/hosts"}, "file:///etc/hosts"),
    ({"scheme": "http", "userinfo": "", "host": "", "port": ""}, "http://@:"),
    ({"host": "h"}, "//h"),
    ({"scheme": "mailto", "path": "John.Doe@example.com"}, "mailto:John.Doe@example.com"),
    ({"scheme": "h", "host": "a", "port": "0080"}, "h://a:0080"),  # port text kept as given
    # each component's own allowed set (§3.2.1, §3.2.2, §3.3, §3.4, §3.5)
    (
        {"scheme": "http", "userinfo": "us er:p@ss/?#[]", "host": "h"},
        "http://us%20er:p%40ss%2F%3F%23%5B%5D@h",
    ),
    ({"scheme": "http", "host": "ex ample.com:80@x"}, "http://ex%20ample.com%3A80%40x"),
    ({"scheme": "http", "host": "b\u00fccher.example"}, "http://b%C3%BCcher.example"),
    (
        {"scheme": "http", "host": "h", "path": "/a b/c:d@e;f=g?#[]"},
        "http://h/a%20b/c:d@e;f=g%3F%23%5B%5D",
    ),
    ({"scheme": "http", "host": "h", "query": "a=1&b=/?:@ #[]"}, "http://h?a=1&b=/?:@%20%23%5B%5D"),
    ({"scheme": "http", "host": "h", "fragment": "/?:@ #"}, "http://h#/?:@%20%23"),
    ({"path": "\u20ac\U0001f600"}, "%E2%82%AC%F0%9F%98%80"),
    ({"path": "\x00\x7f"}, "%00%7F"),
    # an existing valid %hh is kept as it is; a lone "%" is encoded
    (
        {"scheme": "http", "host": "h", "path": "/%7e%7E%2F%zz%4", "query": "%"},
        "http://h/%7e%7E%2F%25zz%254?%25",
    ),
    ({"scheme": "http", "host": "%41%"}, "http://%41%25"),
    # IPv6 hosts get their brackets; IP-literals are kept (RFC 6874 zones too)
    ({"scheme": "http", "host": "::1", "port": 80}, "http://[::1]:80"),
    ({"scheme": "http", "host": "2001:db8::7", "path": "/c=GB"}, "http://[2001:db8::7]/c=GB"),
    ({"scheme": "http", "host": "[::1]"}, "http://[::1]"),
    ({"scheme": "http", "host": "[v7.a:b]"}, "http://[v7.a:b]"),
    ({"scheme": "http", "host": "fe80::1%25eth0"}, "http://[fe80::1%25eth0]"),
    ({"scheme": "http", "host": "fe80::1%eth0"}, "http://[fe80::1%25eth0]"),
    ({"scheme": "http", "host": "fe80::1%eth 0"}, "http://[fe80::1%25eth%200]"),
    ({"scheme": "http", "host": "[fe80::1%25eth0]"}, "http://[fe80::1%25eth0]"),
    ({"scheme": "http", "host": "[::1"}, "http://%5B%3A%3A1"),  # not an IP-literal: a reg-name
    ({"scheme": "http", "host": "1::2::3"}, "http://1%3A%3A2%3A%3A3"),
    ({"scheme": "http", "host": "127.0.0.1"}, "http://127.0.0.1"),
    # §4.2: a colon in the first segment of a relative-path reference
    ({"path": "a:b/c:d"}, "a%3Ab/c:d"),
    ({"path": "a:b", "query": "q"}, "a%3Ab?q"),
    ({"scheme": "s", "path": "a:b"}, "s:a:b"),
    ({"path": "/a:b"}, "/a:b"),
    ({"host": "h", "path": "/a:b"}, "//h/a:b"),
]


@pytest.mark.parametrize(("parts", "want"), BUILT)
def test_from_parts(urimod, parts, want):
    u = urimod.URI.from_parts(**parts)
    assert type(u) is urimod.URI
    assert str(u) == want
    assert u.is_valid()


def test_components_read_back(urimod):
    u = urimod.URI.from_parts("http", "u:p", "h", 8080, "/a b", "q r", "f g")
    assert (u.scheme, u.userinfo, u.host, u.port, u.path, u.query, u.fragment) == (
        "http",
        "u:p",
        "h",
        8080,
        "/a%20b",
        "q%20r",
        "f%20g",
    )
    assert u.authority == "u:p@h:8080"


UNENCODED = [
    (
        {"scheme": "http", "host": "a b", "path": "/ c", "query": " ", "fragment": " "},
        "http://a b/ c? # ",
    ),
    ({"scheme": "http", "host": "::1"}, "http://[::1]"),  # brackets do not depend on encode
    ({"scheme": "http", "host": "fe80::1%25x"}, "http://[fe80::1%25x]"),
    ({"scheme": "http", "host": "[::1"}, "http://[::1"),
    ({"path": "a:b"}, "a%3Ab"),  # the path is still adjusted to parse back
]


@pytest.mark.parametrize(("parts", "want"), UNENCODED)
def test_without_encoding(urimod, parts, want):
    assert str(urimod.URI.from_parts(**parts, encode=False)) == want


@pytest.mark.parametrize(
    ("parts", "error"),
    [
        ({"scheme": ""}, InvalidURI),
        ({"scheme": "1http"}, InvalidURI),
        ({"scheme": "ht tp"}, InvalidURI),
        ({"host": "h", "port": "8o"}, InvalidURI),
        ({"host": "h", "port": -1}, ValueError),
        ({"host": "h", "path": "p"}, ValueError),  # §3.3: after an authority, "/" or nothing
        ({"scheme": "s", "path": "//p"}, ValueError),  # would read as an authority
        ({"path": "//p"}, ValueError),
        ({"userinfo": "u", "path": "/p"}, ValueError),  # userinfo needs a host
        ({"port": 80}, ValueError),
        ({"scheme": b"http"}, TypeError),
        ({"host": 1}, TypeError),
        ({"host": "h", "port": True}, TypeError),
        ({"host": "h", "port": 8.0}, TypeError),
        ({"path": "\ud800"}, UnicodeEncodeError),  # UTF-8 cannot encode a lone surrogate
    ],
)
def test_from_parts_errors(urimod, parts, error):
    with pytest.raises(error):
        urimod.URI.from_parts(**parts)


def test_scheme_error_position(urimod):
    with pytest.raises(InvalidURI) as err:
        urimod.URI.from_parts(scheme="ht tp", host="h")
    assert (err.value.position, err.value.rule) == (2, "scheme")


def test_type_error_message(urimod):
    with pytest.raises(TypeError) as err:
        urimod.URI.from_parts(query=3)
    assert str(err.value) == "from_parts() argument 'query' must be str or None, not int"
