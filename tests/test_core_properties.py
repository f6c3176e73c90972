"""Properties of the _core twins on generated text, and compiled/python parity."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st
from outcomes import outcome

# ---- strategies ---------------------------------------------------------------

# Every code point, lone surrogates and controls included.
ANY_CHAR = st.characters(exclude_categories=())
# What URI code trips over, weighted up.
TRICKY = st.sampled_from(
    list(":/?#[]@!$&'()*+,;=%-._~ aAzZfF09\x00\t\n\x7f\x80é\u20ac\ud800\U0001f600")
    + ["%2e", "%2E", "%41", "%7e", "%25", "%3a", "%ff", "%%3", "%4", "..", "../", "./", "//"]
    + ["http:", "HTTP://", "https://", ":80", ":443", ":0080", ":", "[::1]", "[V1.x%25Zz]"]
)
TEXT = st.lists(st.one_of(TRICKY, ANY_CHAR), max_size=30).map("".join)


# ---- RFC 3986 Appendix A as a regex (syntax check of results) -----------------

_UNRESERVED = r"[A-Za-z0-9\-._~]"
_PCT = r"%[0-9A-Fa-f]{2}"
_SUB = r"[!$&'()*+,;=]"
_PCHAR = rf"(?:{_UNRESERVED}|{_PCT}|{_SUB}|[:@])"
_SEGMENT = rf"{_PCHAR}*"
_SEGMENT_NZ = rf"{_PCHAR}+"
_SEGMENT_NZ_NC = rf"(?:{_UNRESERVED}|{_PCT}|{_SUB}|@)+"
_DEC_OCTET = r"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"
_IPV4 = rf"{_DEC_OCTET}(?:\.{_DEC_OCTET}){{3}}"
_H16 = r"[0-9A-Fa-f]{1,4}"
_LS32 = rf"(?:{_H16}:{_H16}|{_IPV4})"
_IPV6 = (
    "(?:"
    + "|".join(
        [
            rf"(?:{_H16}:){{6}}{_LS32}",
            rf"::(?:{_H16}:){{5}}{_LS32}",
            rf"(?:{_H16})?::(?:{_H16}:){{4}}{_LS32}",
            rf"(?:(?:{_H16}:){{0,1}}{_H16})?::(?:{_H16}:){{3}}{_LS32}",
            rf"(?:(?:{_H16}:){{0,2}}{_H16})?::(?:{_H16}:){{2}}{_LS32}",
            rf"(?:(?:{_H16}:){{0,3}}{_H16})?::{_H16}:{_LS32}",
            rf"(?:(?:{_H16}:){{0,4}}{_H16})?::{_LS32}",
            rf"(?:(?:{_H16}:){{0,5}}{_H16})?::{_H16}",
            rf"(?:(?:{_H16}:){{0,6}}{_H16})?::",
        ]
    )
    + ")"
)
_IPVFUTURE = rf"v[0-9A-Fa-f]+\.(?:{_UNRESERVED}|{_SUB}|:)+"
_HOST = rf"(?:\[(?:{_IPV6}|{_IPVFUTURE})\]|{_IPV4}|(?:{_UNRESERVED}|{_PCT}|{_SUB})*)"
_AUTHORITY = rf"(?:(?:{_UNRESERVED}|{_PCT}|{_SUB}|:)*@)?{_HOST}(?::[0-9]*)?"
_PATH_ABEMPTY = rf"(?:/{_SEGMENT})*"
_PATH_ABSOLUTE = rf"/(?:{_SEGMENT_NZ}(?:/{_SEGMENT})*)?"
_PATH_ROOTLESS = rf"{_SEGMENT_NZ}(?:/{_SEGMENT})*"
_PATH_NOSCHEME = rf"{_SEGMENT_NZ_NC}(?:/{_SEGMENT})*"
_QUERY = rf"(?:{_PCHAR}|[/?])*"
_SCHEME = r"[A-Za-z][A-Za-z0-9+\-.]*"
_HIER_PART = rf"(?://{_AUTHORITY}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_ROOTLESS}|)"
_RELATIVE_PART = rf"(?://{_AUTHORITY}{_PATH_ABEMPTY}|{_PATH_ABSOLUTE}|{_PATH_NOSCHEME}|)"
_TAIL = rf"(?:\?{_QUERY})?(?:#{_QUERY})?"
URI = re.compile(rf"{_SCHEME}:{_HIER_PART}{_TAIL}")
RELATIVE_REF = re.compile(rf"{_RELATIVE_PART}{_TAIL}")


def test_local_abnf_regex():
    # the regex above must itself be right for the property below to mean much
    for good in ["http://a/b/c/d;p?q", "g:h", "s://[::1]:80/", "s://[v7.x]", "a:", "s://u@1.2.3.4"]:
        assert URI.fullmatch(good), good
    for bad in ["1a:b", "http://a b/", "s://[::1::2]/", "a:%zz", "s://h:x/", ":a", "a:b#c#d"]:
        assert not URI.fullmatch(bad), bad
    for good in ["", "g", "../g", "//h", "?y", "#s", "g;x?y#s", "a/b:c"]:
        assert RELATIVE_REF.fullmatch(good), good
    for bad in ["a:b", "a b", "%", "[x]"]:
        assert not RELATIVE_REF.fullmatch(bad), bad


# Valid text built from the grammar's pieces.
_PCHARS = st.sampled_from(list("aZ09-._~!$&'()*+,;=:@") + ["%41", "%2F", "%7e", "%25"])
_SEGMENTS = st.lists(_PCHARS, max_size=4).map("".join) | st.sampled_from([".", ".."])
_NZ_SEGMENTS = st.lists(_PCHARS, min_size=1, max_size=4).map("".join) | st.sampled_from([".", ".."])
_NC_SEGMENTS = st.lists(_PCHARS.filter(lambda c: c != ":"), min_size=1, max_size=4).map(
    "".join
) | st.sampled_from([".", ".."])
_SCHEMES = st.sampled_from(["http", "HTTP", "s", "a+b.c-d", "g"])
_AUTHORITIES = st.sampled_from(
    ["a", "", "u:p@h.example:8080", "[::1]", "1.2.3.4:", "%41b", "[v1.x]", "h:080"]
)
_QUERIES = st.none() | st.lists(_PCHARS | st.sampled_from(["/", "?"]), max_size=4).map("".join)


@st.composite
def _paths(draw, first):
    segments = draw(st.lists(_SEGMENTS, max_size=5))
    kind = draw(st.sampled_from(["abempty", "absolute", "rootless", "empty"]))
    if kind == "abempty":
        return "".join("/" + s for s in segments)
    if kind == "absolute":
        return "/" + draw(_NZ_SEGMENTS) + "".join("/" + s for s in segments)
    if kind == "rootless":
        return draw(first) + "".join("/" + s for s in segments)
    return ""


def _path_for(authority, path):
    """path as it may follow the authority (None: there is none), §3.3."""
    if authority is not None and path and not path.startswith("/"):
        return "/" + path
    if authority is None and path.startswith("//"):
        # path-abempty with an empty first segment: without an authority,
        # "//" would start one, so the path must not begin that way
        return "/." + path
    return path


@st.composite
def absolute_uris(draw):
    scheme = draw(_SCHEMES)
    authority = draw(st.none() | _AUTHORITIES)
    path = _path_for(authority, draw(_paths(_NZ_SEGMENTS)))
    text = scheme + ":" + ("" if authority is None else "//" + authority) + path
    query, fragment = draw(_QUERIES), draw(_QUERIES)
    text += ("" if query is None else "?" + query) + ("" if fragment is None else "#" + fragment)
    assert URI.fullmatch(text), text
    return text


@st.composite
def relative_refs(draw):
    authority = draw(st.none() | _AUTHORITIES)
    path = _path_for(authority, draw(_paths(_NC_SEGMENTS)))
    text = ("" if authority is None else "//" + authority) + path
    query, fragment = draw(_QUERIES), draw(_QUERIES)
    text += ("" if query is None else "?" + query) + ("" if fragment is None else "#" + fragment)
    assert RELATIVE_REF.fullmatch(text), text
    return text


# ---- properties -------------------------------------------------------------------


@given(TEXT)
def test_unsplit_inverts_split(core, s):
    parts = core.split(s)
    assert core.unsplit(parts) == s
    assert core.unsplit(list(parts)) == s


@given(ANY_CHAR.flatmap(lambda c: st.text(alphabet=st.sampled_from([c, ":", "/", "?", "#"]))))
def test_split_components_are_substrings_in_order(core, s):
    scheme, authority, path, query, _ = core.split(s)
    assert scheme is None or (scheme and not set(":/?#") & set(scheme))
    assert authority is None or not set("/?#") & set(authority)
    assert not set("?#") & set(path)
    assert query is None or "#" not in query


@given(TEXT)
def test_split_authority_recomposes(core, s):
    userinfo, host, port = core.split_authority(s)
    assert (userinfo + "@" if userinfo is not None else "") + host + (
        ":" + port if port is not None else ""
    ) == s


@given(TEXT, st.booleans())
def test_normalize_is_idempotent(core, s, scheme_based):
    once = core.normalize(s, scheme_based=scheme_based)
    assert core.normalize(once, scheme_based=scheme_based) == once
    if scheme_based:
        assert core.equivalent(s, once)


@given(absolute_uris())
def test_normalize_keeps_valid_uris_valid(core, uri):
    once = core.normalize(uri)
    assert URI.fullmatch(once), once
    assert core.split(once).scheme == core.split(uri).scheme.lower()


@given(
    absolute_uris(), relative_refs() | absolute_uris(), st.booleans(), st.sampled_from([3986, 2396])
)
def test_resolve_of_valid_input_is_valid(core, base, ref, strict, rfc):
    target = core.resolve(base, ref, strict=strict, rfc=rfc)
    assert URI.fullmatch(target), (base, ref, target)
    parts = core.split(target)
    assert parts.scheme is not None
    assert parts.fragment == core.split(ref).fragment


@given(TEXT, TEXT)
def test_resolve_never_fails_on_an_absolute_base(core, tail, ref):
    target = core.resolve("s:" + tail.replace("#", ""), ref)
    # §5.2.2: the target takes the reference's scheme, or else the base's,
    # and always the reference's fragment.
    parts, ref_parts = core.split(target), core.split(ref)
    assert parts.scheme == (ref_parts.scheme if ref_parts.scheme is not None else "s")
    assert parts.fragment == ref_parts.fragment


@given(TEXT, st.text(alphabet=st.sampled_from(list("/?#:@a"))))
def test_percent_round_trip(core, s, safe):
    encoded = core.percent_encode(s, safe, errors="surrogatepass")
    assert encoded.isascii()
    assert core.percent_decode(encoded, errors="surrogatepass") == s


@given(st.binary(max_size=40))
def test_percent_decode_bytes_of_encoded_bytes(core, data):
    encoded = "".join(f"%{b:02x}" for b in data)
    assert core.percent_decode_bytes(encoded) == data
    assert core.percent_decode_bytes(encoded.encode()) == data


# ---- parity -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def same(twin_pair):
    """``same(name, *args)``: the _core twins' calls have the same outcome."""
    compiled, python = twin_pair("core")

    def check(name, *args, **kwargs):
        got = outcome(getattr(compiled, name), *args, **kwargs)
        want = outcome(getattr(python, name), *args, **kwargs)
        assert got == want, (name, args, kwargs)

    return check


@pytest.mark.parity
@given(TEXT)
def test_parity_split(same, s):
    same("split", s)
    same("split_authority", s)
    same("remove_dot_segments", s)
    same("unsplit", (s, s, s, s, s))


@pytest.mark.parity
@given(TEXT, st.booleans())
def test_parity_normalize(same, s, scheme_based):
    same("normalize", s, scheme_based=scheme_based)


@pytest.mark.parity
@given(TEXT, TEXT)
def test_parity_equivalent(same, a, b):
    same("equivalent", a, b)


@pytest.mark.parity
@given(TEXT, TEXT, st.booleans(), st.sampled_from([3986, 2396]))
def test_parity_resolve(same, base, ref, strict, rfc):
    same("resolve", base, ref, strict=strict, rfc=rfc)
    same("resolve", "http://a/b/c/d;p?q", ref, strict=strict, rfc=rfc)
    same("resolve", "S:" + base, ref, strict=strict, rfc=rfc)


@pytest.mark.parity
@given(absolute_uris(), relative_refs(), st.booleans(), st.sampled_from([3986, 2396]))
def test_parity_resolve_valid(same, base, ref, strict, rfc):
    same("resolve", base, ref, strict=strict, rfc=rfc)


@pytest.mark.parity
@given(
    TEXT,
    TEXT,
    st.sampled_from(["utf-8", "latin-1", "ascii", "utf-16"]),
    st.sampled_from(["strict", "replace", "surrogatepass", "ignore"]),
)
def test_parity_percent(same, s, safe, encoding, errors):
    same("percent_encode", s, safe)
    same("percent_encode", s, safe, encoding=encoding, errors=errors)
    same("percent_decode", s)
    same("percent_decode", s, encoding=encoding, errors=errors)
    same("percent_decode_bytes", s)
    same("percent_decode_bytes", s.encode("utf-8", "surrogatepass"))


@pytest.mark.parity
@given(st.one_of(st.none(), st.integers(), st.binary(), st.lists(st.none(), max_size=6)))
def test_parity_argument_errors(same, value):
    for name in ("split", "split_authority", "remove_dot_segments", "normalize", "unsplit"):
        same(name, value)
    same("percent_decode_bytes", value)
    same("resolve", "http://a", value)
    same("resolve", "http://a", "g", rfc=value)
    same("percent_encode", "a", value)
