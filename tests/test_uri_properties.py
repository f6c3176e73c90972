"""Properties of URI for any text (Hypothesis)."""

from __future__ import annotations

import importlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from outcomes import outcome

# Delimiters, escapes and case that make URI texts interesting, mixed with
# any code point (lone surrogates and NUL included) so all str kinds occur.
URI_CHARS = st.sampled_from(list(":/?#[]@%!$&'()*+,;=.-_~ aAzZ09fF\x00\x7f\u00e9\u20ac\U0001f600"))
ANY_CHAR = st.characters(min_codepoint=0, max_codepoint=0x10FFFF, blacklist_categories=())
TEXT = st.text(st.one_of(URI_CHARS, URI_CHARS, ANY_CHAR), max_size=40)
PIECES = st.sampled_from(
    [
        "http:",
        "HTTP:",
        "//",
        "u:p@",
        "[::1]",
        "[fe80::1%25en0]",
        ":80",
        ":",
        "%41",
        "%7e",
        "%2F",
        "/./",
        "/../",
        "?",
        "#",
        "a",
        "B",
        ".",
    ]
)
URI_LIKE = st.lists(st.one_of(PIECES, TEXT.map(lambda t: t[:3])), max_size=8).map("".join)
TEXTS = st.one_of(TEXT, URI_LIKE)

NAMES = (
    "scheme",
    "authority",
    "userinfo",
    "host",
    "port",
    "path",
    "query",
    "fragment",
    "host_type",
    "zone_id",
)
BASE = "http://a/b/c/d;p?q"


def _read(call):
    # Each twin has its own URI class: a URI is compared by its text.
    value = call()
    return ("URI", str(value)) if type(value).__name__ == "URI" else value


def observe(mod, s):
    u = mod.URI(s)
    seen = {name: outcome(_read, lambda name=name: getattr(u, name)) for name in NAMES}
    seen.update(
        str=str(u),
        repr=repr(u),
        hash=hash(u) == hash(mod.URI(s)),
        is_absolute=u.is_absolute(),
        is_valid=outcome(_read, u.is_valid),
        validate=outcome(_read, u.validate),
        normalize=outcome(_read, u.normalize),
        redact=outcome(_read, u.redact),
        replace=outcome(_read, lambda: u.replace(fragment="z", port=None)),
        resolve=outcome(_read, lambda: u.resolve("g/../h?x")),
        resolve_against=outcome(_read, lambda: mod.URI(BASE).resolve(s)),
        equivalent=outcome(_read, lambda: u.equivalent(s.upper())),
        redact_fn=outcome(_read, lambda: mod.redact(s, "x")),
    )
    return seen


@given(TEXTS)
def test_text_round_trips(urimod, s):
    u = urimod.URI(s)
    assert str(u) == s
    assert urimod.URI(str(u)) == u
    # §5.3 recomposition of the components gives back the text, too.
    text = ""
    if u.scheme is not None:
        text += u.scheme + ":"
    if u.authority is not None:
        port = u.authority[len(u.host) + (0 if u.userinfo is None else len(u.userinfo) + 1) :]
        assert port == "" or port.startswith(":")
        text += "//" + ("" if u.userinfo is None else u.userinfo + "@") + u.host + port
    text += u.path
    if u.query is not None:
        text += "?" + u.query
    if u.fragment is not None:
        text += "#" + u.fragment
    assert text == s


@pytest.mark.parity
@given(TEXTS)
def test_twins_agree(twin_pair, s):
    compiled, python = twin_pair("uri")
    assert observe(compiled, s) == observe(python, s)


@given(TEXTS, TEXTS)
def test_equivalence_is_reflexive_and_symmetric(urimod, a, b):
    ua, ub = urimod.URI(a), urimod.URI(b)
    assert ua.equivalent(ua) and ua.equivalent(a)
    assert ua.equivalent(ub) == ub.equivalent(ua) == ua.equivalent(b) == ub.equivalent(a)


# Components for from_parts: anything UTF-8 can encode (no lone surrogates).
PART = st.text(st.one_of(URI_CHARS, st.characters(blacklist_categories=("Cs",))), max_size=12)
SCHEME = st.from_regex(r"[A-Za-z][A-Za-z0-9+.-]{0,6}", fullmatch=True)
HOST = st.one_of(
    PART,
    st.sampled_from(
        [
            "::1",
            "fe80::1%eth0",
            "fe80::1%25x",
            "::%41",
            "[v1.x]",
            "127.0.0.1",
            "[::1]",
            "[::1",
            "1::2::3",
        ]
    ),
)
PORT = st.one_of(
    st.integers(min_value=0, max_value=10**6), st.from_regex(r"[0-9]{0,6}", fullmatch=True)
)


@given(
    scheme=st.none() | SCHEME,
    userinfo=st.none() | PART,
    host=st.none() | HOST,
    port=st.none() | PORT,
    path=PART,
    query=st.none() | PART,
    fragment=st.none() | PART,
)
def test_from_parts_validates_and_reads_back(
    urimod, scheme, userinfo, host, port, path, query, fragment
):
    core = importlib.import_module(urimod.__name__.replace("_uri_", "_core_"))
    if host is None:
        userinfo = port = None
        if path.startswith("//"):  # would read as an authority
            path = path.lstrip("/")
    elif path:
        path = "/" + path
    u = urimod.URI.from_parts(scheme, userinfo, host, port, path, query, fragment)
    assert u.is_valid("URI-reference")

    def same(read, given):
        assert (read is None) == (given is None)
        if given is not None:
            # Only encoding happened: the octets are the ones given.
            assert core.percent_decode_bytes(read) == core.percent_decode_bytes(given)

    assert u.scheme == scheme
    same(u.userinfo, userinfo)
    if host is not None and u.host.startswith("[") and not host.startswith("["):
        # an IPv6 address given without brackets; a zone after a bare "%"
        # (RFC 4007 text) is carried as "%25" + the encoded zone (RFC 6874)
        assert u.host_type == "IPv6"
        address, percent, zone = host.partition("%")
        if u.host == f"[{host}]":
            assert not percent or zone.startswith("25")
        else:
            assert u.host == f"[{address}%25{u.zone_id}]"
            assert core.percent_decode_bytes(u.zone_id) == zone.encode()
    else:
        same(u.host, host)
    assert u.port == (None if port in (None, "") else int(port))
    same(u.path, path)
    same(u.query, query)
    same(u.fragment, fragment)
