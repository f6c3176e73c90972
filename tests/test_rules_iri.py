"""RFC 3987 §2.2: the IRI rules, and the exact code point ranges of ucschar
and iprivate.  Text of every str kind (Latin-1, UCS-2 with lone surrogates,
UCS-4) goes through the same rules."""

from __future__ import annotations

import pytest
from rule_cases import flat
from test_rules_rfc3986 import CASES as URI_CASES
from test_rules_rfc3986 import RFC_EXAMPLES, RFC_REFERENCES

from fasturi._types import InvalidURI

OK = None
E = "\u00e9"  # LATIN SMALL LETTER E WITH ACUTE: a ucschar
P = "\ue000"  # first code point of the BMP private use area: an iprivate

CASES: dict[str, list[tuple[str, int | None]]] = {
    # IRI = scheme ":" ihier-part [ "?" iquery ] [ "#" ifragment ]
    "IRI": [
        # RFC 3987 §3.1, §3.2, §3.2.1, §5.3.2.1 (XML notation spelled out)
        ("http://r\u00e9sum\u00e9.example.org", OK),
        ("http://example.com/\U00010300\U00010301\U00010302", OK),
        ("http://www.example.org/red%09ros\u00e9#red", OK),
        ("example://a/b/c/%7Bfoo%7D/ros\u00e9", OK),
        ("http://\u7d0d\u8c46.example.org/%E2%80%AE", OK),
        ("http://www.example.org/D\u00fcrst", OK),
        ("http://validator.w3.org/check?uri=http%3A%2F%2Fr\u00e9sum\u00e9.example.org", OK),
        ("http://a/?" + P, OK),
        ("http://[fe80::1%25eth0]/" + E, OK),
        # iprivate only in the query
        ("http://a/" + P, 9),
        ("http://a/#" + P, 10),
        ("http://" + P, 7),
        ("h" + E + ":x", 1),
        ("http://a/\ud800", 9),
        ("http://a/\x85", 9),
        ("http://a/\ufffe", 9),
        ("http://[" + E + "]", 8),
        # could still be a iuserinfo ("a:\u0663@h")
        ("http://a:\u0663", 10),
    ],
    # ihier-part = "//" iauthority ipath-abempty / ipath-absolute / ipath-rootless / ipath-empty
    "ihier-part": [
        ("//" + E + "/" + E, OK),
        (E + ":x", OK),
        ("/" + E, OK),
        ("", OK),
        ("//" + P, 2),
        ("?" + E, 0),
    ],
    # IRI-reference = IRI / irelative-ref
    "IRI-reference": [
        (E, OK),
        ("//h\u00f4te/p", OK),
        ("?" + P, OK),
        ("#" + E, OK),
        ("", OK),
        ("http://a/b", OK),
        (P, 0),
        ("#" + P, 1),
        (E + ":x", 1),
        ("a b", 1),
    ],
    # absolute-IRI = scheme ":" ihier-part [ "?" iquery ]
    "absolute-IRI": [
        ("http://" + E + "/?" + P, OK),
        ("urn:" + E, OK),
        ("http://a#" + E, 8),
        (E + ":", 0),
    ],
    # irelative-ref = irelative-part [ "?" iquery ] [ "#" ifragment ]
    "irelative-ref": [
        (E + "/" + E + ":x", OK),
        ("//" + E, OK),
        ("?" + P + "#" + E, OK),
        (E + ":x", 1),
        ("#" + P, 1),
    ],
    # irelative-part = "//" iauthority ipath-abempty / ipath-absolute / ipath-noscheme / ipath-empty
    "irelative-part": [
        (E, OK),
        ("//" + E + "/a", OK),
        ("/" + E, OK),
        ("", OK),
        ("?", 0),
        (E + ":", 1),
    ],
    # iauthority = [ iuserinfo "@" ] ihost [ ":" port ]
    "iauthority": [
        (E, OK),
        ("\u00fc@h\u00f4te:80", OK),
        ("[::1]", OK),
        ("", OK),
        (P, 0),
        ("h:" + E, 3),
        ("[" + E + "]", 1),
    ],
    # iuserinfo = *( iunreserved / pct-encoded / sub-delims / ":" )
    "iuserinfo": [
        (E + ":p", OK),
        ("", OK),
        (P, 0),
        ("a@", 1),
    ],
    # ihost = IP-literal / IPv4address / ireg-name
    "ihost": [
        ("h\u00f4te.example", OK),
        ("[::1]", OK),
        ("1.2.3.4", OK),
        ("", OK),
        ("h\u00f4te:80", 4),
        ("\ud800", 0),
    ],
    # ireg-name = *( iunreserved / pct-encoded / sub-delims )
    "ireg-name": [
        (E, OK),
        ("%C3%A9", OK),
        ("", OK),
        (P, 0),
        ("a\x85", 1),
    ],
    # ipath = ipath-abempty / ipath-absolute / ipath-noscheme / ipath-rootless / ipath-empty
    "ipath": [
        (E + "/" + E, OK),
        ("/\U00010000", OK),
        ("", OK),
        (P, 0),
        ("a?", 1),
    ],
    # ipath-abempty = *( "/" isegment )
    "ipath-abempty": [
        ("/" + E, OK),
        ("", OK),
        (E, 0),
        ("/" + P, 1),
    ],
    # ipath-absolute = "/" [ isegment-nz *( "/" isegment ) ]
    "ipath-absolute": [
        ("/" + E, OK),
        ("/", OK),
        ("//", 1),
        (E, 0),
    ],
    # ipath-noscheme = isegment-nz-nc *( "/" isegment )
    "ipath-noscheme": [
        (E, OK),
        (E + "/a:b", OK),
        (E + ":", 1),
        ("", 0),
    ],
    # ipath-rootless = isegment-nz *( "/" isegment )
    "ipath-rootless": [
        (E + ":", OK),
        ("a/" + E, OK),
        ("", 0),
        ("/" + E, 0),
    ],
    # ipath-empty = 0<ipchar>
    "ipath-empty": [
        ("", OK),
        (E, 0),
        ("a", 0),
    ],
    # isegment = *ipchar
    "isegment": [
        (E, OK),
        ("", OK),
        (E + "/", 1),
        (P, 0),
    ],
    # isegment-nz = 1*ipchar
    "isegment-nz": [
        (E, OK),
        (":", OK),
        ("", 0),
        (P, 0),
    ],
    # isegment-nz-nc = 1*( iunreserved / pct-encoded / sub-delims / "@" )
    "isegment-nz-nc": [
        (E + "@", OK),
        (E, OK),
        (":", 0),
        (E + ":", 1),
    ],
    # ipchar = iunreserved / pct-encoded / sub-delims / ":" / "@"
    "ipchar": [
        (E, OK),
        ("%41", OK),
        ("@", OK),
        (P, 0),
        (E + E, 1),
        ("", 0),
    ],
    # iquery = *( ipchar / iprivate / "/" / "?" )
    "iquery": [
        (P, OK),
        ("\U000f0000", OK),
        ("\U0010fffd", OK),
        (E + "/?", OK),
        ("", OK),
        ("#", 0),
        ("\ud800", 0),
        ("\U0010fffe", 0),
    ],
    # ifragment = *( ipchar / "/" / "?" )
    "ifragment": [
        (E, OK),
        ("", OK),
        (P, 0),
        ("a#", 1),
    ],
    # iunreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar
    "iunreserved": [
        ("a", OK),
        (E, OK),
        ("~", OK),
        ("!", 0),
        (P, 0),
        ("", 0),
    ],
    # ucschar (ranges tested below)
    "ucschar": [
        (E, OK),
        ("\U00010000", OK),
        ("a", 0),
        (P, 0),
        ("", 0),
        (E + E, 1),
    ],
    # iprivate (ranges tested below)
    "iprivate": [
        (P, OK),
        ("\U00100000", OK),
        (E, 0),
        ("a", 0),
        ("", 0),
    ],
}

# ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
#         / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
#         / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
#         / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
#         / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
#         / %xD0000-DFFFD / %xE1000-EFFFD
UCSCHAR = [(0xA0, 0xD7FF), (0xF900, 0xFDCF), (0xFDF0, 0xFFEF)]
UCSCHAR += [(p << 16, (p << 16) + 0xFFFD) for p in range(1, 14)] + [(0xE1000, 0xEFFFD)]
# iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
IPRIVATE = [(0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD)]


def _edges(ranges):
    """Every range's ends and the code points just outside them."""
    points = {0x41, 0x7F, 0x80, 0x9F, 0xD800, 0xDBFF, 0xDC00, 0xDFFF, 0x10FFFF}
    for lo, hi in ranges:
        points |= {lo - 1, lo, hi, hi + 1}
    return sorted(p for p in points if 0 <= p <= 0x10FFFF)


def _inside(cp, ranges):
    return any(lo <= cp <= hi for lo, hi in ranges)


@pytest.mark.parametrize(("rule", "text", "want"), flat(CASES))
def test_rule(rules, rule, text, want):
    assert rules.is_valid(text, rule) is (want is None)
    if want is None:
        assert rules.validate(text, rule) is text
        return
    with pytest.raises(InvalidURI) as info:
        rules.validate(text, rule)
    assert info.value.position == want
    assert info.value.rule == rule


def test_every_rule_has_cases(rules):
    iri_rules = {r for r in rules.RULES_3986 if r not in URI_CASES}
    assert set(CASES) == iri_rules
    assert len(iri_rules) == 25


@pytest.mark.parametrize("cp", _edges(UCSCHAR + IPRIVATE), ids=lambda cp: f"U+{cp:04X}")
def test_code_point_ranges(rules, cp):
    ch = chr(cp)
    ucs, private = _inside(cp, UCSCHAR), _inside(cp, IPRIVATE)
    assert rules.is_valid(ch, "ucschar") is ucs
    assert rules.is_valid(ch, "iprivate") is private
    assert rules.is_valid(ch, "iunreserved") is (ucs or ch.isalnum() and ch.isascii())
    assert rules.is_valid("a" + ch, "isegment") is (ucs or ch == "A")
    assert rules.is_valid(ch, "iquery") is (ucs or private or ch == "A")
    assert rules.is_valid(ch, "ifragment") is (ucs or ch == "A")
    # RFC 3986 rules take no character beyond U+007F
    assert rules.is_valid(ch, "segment") is (ch == "A")


@pytest.mark.parametrize("uri", RFC_EXAMPLES + RFC_REFERENCES)
def test_every_uri_is_an_iri(rules, uri):
    assert rules.is_valid(uri, "IRI-reference")
    if rules.is_valid(uri, "URI"):
        assert rules.is_valid(uri, "IRI")


@pytest.mark.parametrize(
    ("uri_rule", "iri_rule"),
    [
        ("URI", "IRI"),
        ("URI-reference", "IRI-reference"),
        ("authority", "iauthority"),
        ("host", "ihost"),
        ("path", "ipath"),
        ("query", "iquery"),
        ("fragment", "ifragment"),
    ],
)
def test_uri_cases_hold_for_iris(rules, uri_rule, iri_rule):
    # On ASCII text the i-rules are the RFC 3986 rules (§2.2).
    for text, want in URI_CASES[uri_rule]:
        if text.isascii():
            assert rules.is_valid(text, iri_rule) is (want is None), text


def test_iris_are_not_uris(rules):
    iri = "http://r\u00e9sum\u00e9.example.org"
    assert rules.is_valid(iri, "IRI")
    with pytest.raises(InvalidURI) as info:
        rules.validate(iri, "URI")
    assert info.value.position == 8
    assert str(info.value) == "invalid URI at position 8: '\u00e9'"


@pytest.mark.parametrize(
    "text",
    [
        "http://a/" + "\u00e9" * 300,  # Latin-1
        "http://a/" + "\u7d0d" * 300,  # UCS-2
        "http://a/" + "\U00010300" * 300,  # UCS-4
    ],
    ids=["kind1", "kind2", "kind4"],
)
def test_long_text_of_each_kind(rules, text):
    assert rules.is_valid(text, "IRI")
    assert not rules.is_valid(text, "URI")
    with pytest.raises(InvalidURI) as info:
        rules.validate(text + "\ud800", "IRI")
    assert info.value.position == len(text)
    with pytest.raises(InvalidURI) as info:
        rules.validate(text + "?" + P + "#" + P, "IRI")
    assert info.value.position == len(text) + 3


def test_surrogates_and_noncharacters(rules):
    for ch in ("\ud800", "\udfff", "\ud83d\ude00", "\ufdd0", "\uffff", "\x80", "\x9f"):
        assert not rules.is_valid("http://a/" + ch, "IRI")
        with pytest.raises(InvalidURI) as info:
            rules.validate("http://a/" + ch, "IRI")
        assert info.value.position == 9
