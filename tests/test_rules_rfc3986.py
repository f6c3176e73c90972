"""RFC 3986 Appendix A (and RFC 6874's zone ID), rule by rule.

Each rule has text that matches it and text that does not, with the error
position: the length of the longest prefix that some matching text starts
with (the first offending character, or the length when the text ends too
early).
"""

from __future__ import annotations

import pickle

import pytest
from rfc_examples import RFC_1_1_2
from rule_cases import flat

from fasturi._types import InvalidURI

OK = None

CASES: dict[str, list[tuple[str, int | None]]] = {
    # URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
    "URI": [
        ("http://a/b", OK),
        ("a:", OK),
        ("a:b:c", OK),
        ("http://", OK),
        ("h+-.9:x", OK),
        ("x:?#", OK),
        ("x:/a//b", OK),
        ("file:///etc/hosts", OK),
        ("http://[fe80::a%25en1]", OK),
        ("", 0),
        ("1http://a", 0),
        ("//a", 0),
        ("http", 4),
        ("http//a", 4),
        ("ht tp:", 2),
        ("http://a b", 8),
        ("http://a/b c", 10),
        ("http://a#b#c", 10),
        ("http://[::1", 11),
        ("http://[::1]x", 12),
        ("http://[vg.x]", 9),
        # "a:8o" could still be a userinfo ("a:8o@h"); "/" ends that hope
        ("http://a:8o", 11),
        ("http://a:8o/", 11),
        ("http://u@h@x", 10),
        ("http://%zz", 8),
        ("http://a/%", 10),
        ("http://a/%4", 11),
        ("http://a/%4g", 11),
        ("http://\u00e9", 7),
    ],
    # hier-part = "//" authority path-abempty / path-absolute / path-rootless / path-empty
    "hier-part": [
        ("//a/b", OK),
        ("//", OK),
        ("/", OK),
        ("/a", OK),
        ("a/b", OK),
        ("a:b", OK),
        ("", OK),
        ("//a b", 3),
        ("//[", 3),
        ("a b", 1),
        ("?", 0),
        ("/a?b", 2),
        ("///a", OK),
    ],
    # URI-reference = URI / relative-ref
    "URI-reference": [
        ("", OK),
        ("http:g", OK),
        ("//[::1]", OK),
        ("http://[::1]", OK),
        ("?", OK),
        ("#", OK),
        ("a/b:c", OK),
        ("a b", 1),
        ("1a:b", 2),
        (":a", 0),
        ("http://a b", 8),
        ("#a#", 2),
        ("?a#b#", 4),
        ("%", 1),
        ("a%2", 3),
        ("[::1]", 0),
        ("a:b c", 3),
        ("\u00e9", 0),
        ("http://\u00e9", 7),
        ("a\x00", 1),
    ],
    # absolute-URI = scheme ":" hier-part [ "?" query ]
    "absolute-URI": [
        ("http://a/b?q", OK),
        ("a:", OK),
        ("urn:example:animal:ferret:nose", OK),
        ("http://a/b#f", 10),
        ("http://a#", 8),
        ("/a", 0),
        ("a", 1),
    ],
    # relative-ref = relative-part [ "?" query ] [ "#" fragment ]
    "relative-ref": [
        ("//a", OK),
        ("/a", OK),
        ("a", OK),
        ("", OK),
        ("?q", OK),
        ("#f", OK),
        ("a/b:c", OK),
        ("./a:b", OK),
        ("a:b", 1),
        ("http://a", 4),
        (" ", 0),
        ("#f#", 2),
        ("//a@b@c", 5),
    ],
    # relative-part = "//" authority path-abempty / path-absolute / path-noscheme / path-empty
    "relative-part": [
        ("//a/b", OK),
        ("/a", OK),
        ("a/b", OK),
        ("", OK),
        ("a:b", 1),
        ("?q", 0),
        ("//a?", 3),
        ("//a/b#", 5),
    ],
    # scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
    "scheme": [
        ("a", OK),
        ("A+-.1", OK),
        ("http", OK),
        ("z9", OK),
        ("", 0),
        ("1a", 0),
        ("+a", 0),
        ("a_b", 1),
        ("a:", 1),
        ("\u00e9", 0),
    ],
    # authority = [ userinfo "@" ] host [ ":" port ]
    "authority": [
        ("", OK),
        ("a", OK),
        ("a:80", OK),
        ("a:", OK),
        (":80", OK),
        ("u@h", OK),
        ("u:p@h:1", OK),
        ("u:p:q@h", OK),
        ("u@", OK),
        ("@", OK),
        ("h:80@", OK),
        ("[::1]", OK),
        ("[::1]:80", OK),
        ("u@[v1.a]", OK),
        ("1.2.3.4:8080", OK),
        ("%41", OK),
        ("!$&'()*+,;=", OK),
        ("a b", 1),
        ("a:b", 3),
        ("a:b/", 3),
        ("a:1:2", 5),
        ("u@h@", 3),
        ("[::1", 4),
        ("[::1]:8a", 7),
        ("[::1]@h", 5),
        ("%4", 2),
        ("%", 1),
        ("%g1", 1),
        ("a[", 1),
        ("u@h:8a", 5),
    ],
    # userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
    "userinfo": [
        ("", OK),
        ("user:pass", OK),
        ("%20", OK),
        ("!$&'()*+,;=:-._~", OK),
        ("u@", 1),
        ("a b", 1),
        ("%2", 2),
        ("[", 0),
    ],
    # host = IP-literal / IPv4address / reg-name
    "host": [
        ("", OK),
        ("example.com", OK),
        ("1.2.3.4", OK),
        ("1.2.3.256", OK),  # not an IPv4address, but a reg-name (§7.4)
        ("[::1]", OK),
        ("[v7.fe80::a+en1]", OK),
        ("[fe80::1%25eth0]", OK),
        ("%41", OK),
        ("a:80", 1),
        ("[::1]x", 5),
        ("[::1", 4),
        ("a@b", 1),
        ("[", 1),
        ("[]", 1),
        ("a b", 1),
        ("[::1%eth0]", 5),
        ("[fe80::1%25]", 11),
    ],
    # port = *DIGIT
    "port": [
        ("", OK),
        ("80", OK),
        ("0080", OK),
        ("65536", OK),
        ("8a", 1),
        ("-1", 0),
        (" 80", 0),
        ("\u0663", 0),  # ARABIC-INDIC DIGIT THREE is no DIGIT
    ],
    # IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture ) "]"  (RFC 6874)
    "IP-literal": [
        ("[::]", OK),
        ("[::1]", OK),
        ("[2001:db8::7]", OK),
        ("[v1.a]", OK),
        ("[V1.a]", OK),  # quoted ABNF strings are case-insensitive (RFC 5234 §2.3)
        ("[fe80::a%25en1]", OK),
        ("[fe80::1%25%41]", OK),
        ("[::ffff:1.2.3.4]", OK),
        ("", 0),
        ("::1", 0),
        ("[::1", 4),
        ("[v1]", 3),
        ("[v.x]", 2),
        ("[v1.]", 4),
        ("[1:2]", 4),
        ("[1::2]]", 6),
        ("[::1]:80", 5),
        ("[fe80::1%2]", 10),
        ("[fe80::1%25en1", 14),
        ("[fe80::1%25e n]", 12),
        ("[v1.a%25x]", 5),
    ],
    # IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    "IPvFuture": [
        ("v1.a", OK),
        ("vF.a:b", OK),
        ("V1.!", OK),
        ("v12ab.x~", OK),
        ("", 0),
        ("w1.a", 0),
        ("v.a", 1),
        ("v1", 2),
        ("v1.", 3),
        ("vg.a", 1),
        ("v1.a/", 4),
        ("v1.[", 3),
        ("v1.a%41", 4),
    ],
    # IPv6address (more in test_ip.py)
    "IPv6address": [
        ("::", OK),
        ("::1", OK),
        ("1:2:3:4:5:6:7:8", OK),
        ("1::", OK),
        ("::ffff:192.0.2.1", OK),
        ("2001:db8::7", OK),
        ("", 0),
        (":", 1),
        (":1", 1),
        ("1:2:3:4:5:6:7:8:9", 15),
        ("12345::", 4),
        ("1::2::3", 5),
        ("g::", 0),
        ("::1.2.3", 7),
        ("[::1]", 0),
    ],
    # h16 = 1*4HEXDIG
    "h16": [
        ("0", OK),
        ("ffff", OK),
        ("FfFf", OK),
        ("1a2B", OK),
        ("", 0),
        ("12345", 4),
        ("g", 0),
        ("1:", 1),
    ],
    # ls32 = ( h16 ":" h16 ) / IPv4address
    "ls32": [
        ("1:2", OK),
        ("ffff:ffff", OK),
        ("1.2.3.4", OK),
        ("255.255.255.255", OK),
        ("1", 1),
        ("1:", 2),
        ("1:2:3", 3),
        ("1.2.3", 5),
        ("01.2.3.4", 2),
        ("256.1.1.1", 3),
        ("1.2.3.256", 8),
        ("12345", 4),
        ("1:g", 2),
    ],
    # IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
    "IPv4address": [
        ("0.0.0.0", OK),
        ("255.255.255.255", OK),
        ("192.0.2.16", OK),
        ("9.99.199.249", OK),
        ("", 0),
        ("1.2.3", 5),
        ("1.2.3.4.5", 7),
        ("256.0.0.0", 2),
        ("01.0.0.0", 1),
        ("1..2.3", 2),
        ("1.2.3.4 ", 7),
        ("a.b.c.d", 0),
    ],
    # dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
    "dec-octet": [
        *[(str(v), OK) for v in (0, 9, 10, 99, 100, 199, 200, 249, 250, 255)],
        ("", 0),
        ("256", 2),
        ("260", 2),
        ("300", 2),
        ("1000", 3),
        ("2555", 3),
        ("00", 1),
        ("01", 1),
        ("-1", 0),
        ("a", 0),
    ],
    # reg-name = *( unreserved / pct-encoded / sub-delims )
    "reg-name": [
        ("", OK),
        ("example.com", OK),
        ("a-b_c~d", OK),
        ("%41%42", OK),
        ("!$&'()*+,;=", OK),
        ("a:b", 1),
        ("a b", 1),
        ("a@b", 1),
        ("%4", 2),
        ("%4x", 2),
        ("\u00e9", 0),
        ("[::1]", 0),
    ],
    # path = path-abempty / path-absolute / path-noscheme / path-rootless / path-empty
    "path": [
        ("", OK),
        ("/", OK),
        ("//", OK),
        ("a", OK),
        ("a/b", OK),
        ("/a/b/", OK),
        ("a:b/c", OK),
        ("%41/@:", OK),
        ("a?b", 1),
        ("/a#", 2),
        ("a b", 1),
        ("/%", 2),
    ],
    # path-abempty = *( "/" segment )
    "path-abempty": [
        ("", OK),
        ("/", OK),
        ("//", OK),
        ("/a/b", OK),
        ("/a:b", OK),
        ("a", 0),
        ("a/b", 0),
        ("/a?", 2),
        ("/a b", 2),
    ],
    # path-absolute = "/" [ segment-nz *( "/" segment ) ]
    "path-absolute": [
        ("/", OK),
        ("/a", OK),
        ("/a/", OK),
        ("/a//b", OK),
        ("/a:b", OK),
        ("", 0),
        ("//", 1),
        ("//a", 1),
        ("a", 0),
        ("/a?", 2),
    ],
    # path-noscheme = segment-nz-nc *( "/" segment )
    "path-noscheme": [
        ("a", OK),
        ("a/b", OK),
        ("a/b:c", OK),
        ("@/x", OK),
        ("%41", OK),
        ("", 0),
        (":", 0),
        ("a:b", 1),
        ("/a", 0),
        ("a?b", 1),
    ],
    # path-rootless = segment-nz *( "/" segment )
    "path-rootless": [
        ("a", OK),
        ("a:b", OK),
        ("a:b/c/", OK),
        (":", OK),
        ("", 0),
        ("/a", 0),
        ("a b", 1),
    ],
    # path-empty = 0<pchar>
    "path-empty": [
        ("", OK),
        ("a", 0),
        ("/", 0),
    ],
    # segment = *pchar
    "segment": [
        ("", OK),
        ("a", OK),
        ("a:b@c", OK),
        ("%20", OK),
        ("a/b", 1),
        ("?", 0),
    ],
    # segment-nz = 1*pchar
    "segment-nz": [
        ("a", OK),
        (":", OK),
        ("", 0),
        ("/", 0),
        ("a/", 1),
    ],
    # segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )
    "segment-nz-nc": [
        ("a", OK),
        ("@", OK),
        ("a@b", OK),
        ("", 0),
        (":", 0),
        ("a:b", 1),
    ],
    # pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
    "pchar": [
        ("a", OK),
        (":", OK),
        ("@", OK),
        ("%41", OK),
        ("!", OK),
        ("~", OK),
        ("", 0),
        ("/", 0),
        ("ab", 1),
        ("%4", 2),
        ("%", 1),
        ("%4g", 2),
        ("?", 0),
    ],
    # query = *( pchar / "/" / "?" )
    "query": [
        ("", OK),
        ("a=b&c=d", OK),
        ("/?:@", OK),
        ("%20", OK),
        ("objectClass?one", OK),
        ("#", 0),
        ("a b", 1),
        ("[", 0),
        ("a%", 2),
    ],
    # fragment = *( pchar / "/" / "?" )
    "fragment": [
        ("", OK),
        ("a/b?c", OK),
        ("!$", OK),
        ("#", 0),
        ("a#b", 1),
        ("%zz", 1),
    ],
    # pct-encoded = "%" HEXDIG HEXDIG
    "pct-encoded": [
        ("%41", OK),
        ("%aF", OK),
        ("%00", OK),
        ("", 0),
        ("%", 1),
        ("%4", 2),
        ("%g0", 1),
        ("%41a", 3),
        ("A", 0),
    ],
    # unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
    "unreserved": [
        *[(c, OK) for c in "aZ0-._~"],
        ("", 0),
        ("!", 0),
        ("ab", 1),
        ("%41", 0),
    ],
    # reserved = gen-delims / sub-delims
    "reserved": [
        *[(c, OK) for c in ":/?#[]@!$&'()*+,;="],
        ("", 0),
        ("a", 0),
        ("::", 1),
        ("%", 0),
    ],
    # gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"
    "gen-delims": [
        *[(c, OK) for c in ":/?#[]@"],
        ("", 0),
        ("!", 0),
    ],
    # sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
    "sub-delims": [
        *[(c, OK) for c in "!$&'()*+,;="],
        ("", 0),
        (":", 0),
    ],
    # ALPHA = %x41-5A / %x61-7A
    "ALPHA": [
        ("a", OK),
        ("Z", OK),
        ("", 0),
        ("1", 0),
        ("\u00e9", 0),
        ("ab", 1),
    ],
    # DIGIT = %x30-39
    "DIGIT": [
        ("0", OK),
        ("9", OK),
        ("", 0),
        ("a", 0),
        ("\u0663", 0),
    ],
    # HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
    "HEXDIG": [
        ("0", OK),
        ("a", OK),
        ("F", OK),
        ("f", OK),
        ("", 0),
        ("g", 0),
    ],
    # RFC 6874: IPv6addrz = IPv6address "%25" ZoneID
    "IPv6addrz": [
        ("fe80::1%25eth0", OK),
        ("::%25a", OK),
        ("fe80::a%25en1", OK),
        ("1::%25%2F", OK),
        ("fe80::1", 7),
        ("fe80::1%eth0", 8),
        ("fe80::1%25", 10),
        ("fe80::1%25e/", 11),
        ("[fe80::1%25e]", 0),
    ],
    # RFC 6874: ZoneID = 1*( unreserved / pct-encoded )
    "ZoneID": [
        ("eth0", OK),
        ("en1", OK),
        ("%2F", OK),
        ("a.b~c", OK),
        ("", 0),
        ("eth 0", 3),
        ("a%", 2),
        ("!", 0),
        (":", 0),
    ],
}

# RFC 3986 §1.1.2, §3, §3.3, §6.2.2, §6.2.3, §6.2.4 and §7.6.
RFC_EXAMPLES = [
    *RFC_1_1_2,
    "foo://example.com:8042/over/there?name=ferret#nose",
    "urn:example:animal:ferret:nose",
    "mailto:fred@example.com",
    "foo://info.example.com?fred",
    "http://localhost/",
    "example://a/b/c/%7Bfoo%7D",
    "eXAMPLE://a/./b/../b/%63/%7bfoo%7d",
    "HTTP://www.EXAMPLE.com/",
    "http://www.example.com/",
    "http://example.com",
    "http://example.com/",
    "http://example.com:/",
    "http://example.com:80/",
    "http://example.com/?",
    "mailto:Joe@Example.COM",
    "http://example.com/data",
    "http://example.com/data/",
    "ftp://cnn.example.com&story=breaking_news@10.0.0.1/top_story.htm",
    "http://a/b/c/d;p?q",
    "http://www.ics.uci.edu/pub/ietf/uri/#Related",
    "http://www.w3.org/Addressing/",
    # RFC 6874 §2
    "http://[fe80::a%25en1]",
]

# RFC 3986 §5.4: every reference resolved there is a URI-reference.
RFC_REFERENCES = [
    "g:h", "g", "./g", "g/", "/g", "//g", "?y", "g?y", "#s", "g#s", "g?y#s",
    ";x", "g;x", "g;x?y#s", "", ".", "./", "..", "../", "../g", "../..",
    "../../", "../../g", "../../../g", "../../../../g", "/./g", "/../g", "g.",
    ".g", "g..", "..g", "./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y",
    "g;x=1/../y", "g?y/./x", "g?y/../x", "g#s/./x", "g#s/../x", "http:g",
]  # fmt: skip

APPENDIX_A = {
    "URI", "hier-part", "URI-reference", "absolute-URI", "relative-ref",
    "relative-part", "scheme", "authority", "userinfo", "host", "port",
    "IP-literal", "IPvFuture", "IPv6address", "h16", "ls32", "IPv4address",
    "dec-octet", "reg-name", "path", "path-abempty", "path-absolute",
    "path-noscheme", "path-rootless", "path-empty", "segment", "segment-nz",
    "segment-nz-nc", "pchar", "query", "fragment", "pct-encoded", "unreserved",
    "reserved", "gen-delims", "sub-delims", "ALPHA", "DIGIT", "HEXDIG",
    "IPv6addrz", "ZoneID",
}  # fmt: skip
RFC_3987 = {
    "IRI", "ihier-part", "IRI-reference", "absolute-IRI", "irelative-ref",
    "irelative-part", "iauthority", "iuserinfo", "ihost", "ireg-name", "ipath",
    "ipath-abempty", "ipath-absolute", "ipath-noscheme", "ipath-rootless",
    "ipath-empty", "isegment", "isegment-nz", "isegment-nz-nc", "ipchar",
    "iquery", "ifragment", "iunreserved", "ucschar", "iprivate",
}  # fmt: skip


@pytest.mark.parametrize(("rule", "text", "want"), flat(CASES))
def test_rule(rules, rule, text, want):
    assert rules.is_valid(text, rule) is (want is None)
    assert rules.is_valid(text, rule, rfc=3986) is (want is None)
    if want is None:
        assert rules.validate(text, rule) is text
        return
    with pytest.raises(InvalidURI) as info:
        rules.validate(text, rule)
    assert info.value.position == want
    assert info.value.rule == rule


def test_every_rule_has_matching_and_failing_cases():
    assert set(CASES) == APPENDIX_A
    for rule, items in CASES.items():
        if rule != "path-empty":  # its only match is ""
            assert sum(want is None for _, want in items) >= 2, rule
        assert sum(want is not None for _, want in items) >= 2, rule


def test_rule_names(rules):
    assert rules.RULES_3986 == frozenset(APPENDIX_A | RFC_3987)
    assert isinstance(rules.RULES_3986, frozenset)


@pytest.mark.parametrize("uri", RFC_EXAMPLES)
def test_rfc_examples_are_uris(rules, uri):
    assert rules.is_valid(uri, "URI")
    assert rules.is_valid(uri)
    assert rules.validate(uri, "URI") is uri


@pytest.mark.parametrize("ref", RFC_REFERENCES)
def test_rfc_5_4_references(rules, ref):
    assert rules.is_valid(ref)
    assert rules.is_valid(ref, "URI-reference")
    # §4.2: only "g:h" and "http:g" are URIs; the others are relative-refs.
    assert rules.is_valid(ref, "URI") is (ref in ("g:h", "http:g"))
    assert rules.is_valid(ref, "relative-ref") is (ref not in ("g:h", "http:g"))


def test_rfc_5_4_base_is_absolute(rules):
    assert rules.is_valid("http://a/b/c/d;p?q", "absolute-URI")


def test_default_rule_is_uri_reference(rules):
    assert rules.is_valid("?y")
    assert not rules.is_valid("a b")
    with pytest.raises(InvalidURI) as info:
        rules.validate("a b")
    assert info.value.rule == "URI-reference"


def test_messages(rules):
    with pytest.raises(InvalidURI, match=r"^invalid URI-reference at position 8: ' '$") as info:
        rules.validate("http://a b")
    assert str(info.value) == "invalid URI-reference at position 8: ' '"
    with pytest.raises(InvalidURI) as info:
        rules.validate("http://[::1", "URI")
    assert str(info.value) == "invalid URI: unexpected end at position 11"
    assert (info.value.position, info.value.rule) == (11, "URI")
    with pytest.raises(InvalidURI) as info:
        rules.validate("a\ud800", "scheme")
    assert str(info.value) == "invalid scheme at position 1: '\\ud800'"


def test_invalid_uri_is_value_error_and_pickles(rules):
    with pytest.raises(ValueError) as info:
        rules.validate("%", "pct-encoded")
    err = pickle.loads(pickle.dumps(info.value))
    assert (str(err), err.position, err.rule) == (str(info.value), 1, "pct-encoded")


def test_validate_returns_its_argument(rules):
    class Text(str):
        pass

    text = Text("http://a/b")
    assert rules.validate(text) is text
    assert rules.is_valid(text)


@pytest.mark.parametrize("func", ["is_valid", "validate"])
def test_argument_types(rules, func):
    f = getattr(rules, func)
    with pytest.raises(TypeError, match=rf"^{func}\(\) argument 's' must be str, not bytes$"):
        f(b"http://a")
    with pytest.raises(TypeError, match=rf"^{func}\(\) argument 's' must be str, not NoneType$"):
        f(None)
    with pytest.raises(TypeError, match=rf"^{func}\(\) argument 'rule' must be str, not int$"):
        f("a", 3)
    with pytest.raises(ValueError, match=r"^unknown rule 'URL' for RFC 3986$"):
        f("a", "URL")
    with pytest.raises(ValueError, match=r"^unknown rule 'absoluteURI' for RFC 3986$"):
        f("a", "absoluteURI")
    with pytest.raises(
        ValueError, match=rf"^{func}\(\) argument 'rfc' must be 3986 or 2396, not 1808$"
    ):
        f("a", rfc=1808)
    with pytest.raises(TypeError, match=rf"^{func}\(\) argument 'rfc' must be int, not str$"):
        f("a", rfc="3986")
    for rfc in (True, False):  # (True == 1: but it names no RFC)
        with pytest.raises(TypeError, match=rf"^{func}\(\) argument 'rfc' must be int, not bool$"):
            f("a", rfc=rfc)
    with pytest.raises(TypeError):
        f("a", "URI", 3986)  # rfc is keyword-only


def test_long_text(rules):
    # Past any small buffer, ASCII and not.
    path = "/seg" * 5_000
    assert rules.is_valid("http://a" + path)
    assert rules.is_valid("http://a" + path + "?\u00e9", "IRI")
    with pytest.raises(InvalidURI) as info:
        rules.validate("http://a" + path + " ")
    assert info.value.position == 8 + len(path)
    with pytest.raises(InvalidURI) as info:
        rules.validate("http://a" + path + "\U0001f600")
    assert info.value.position == 8 + len(path)


def test_nul_and_controls(rules):
    for c in "\x00\t\n\r\x1f\x7f\x85 ":
        assert not rules.is_valid("http://a/" + c + "b")
        with pytest.raises(InvalidURI) as info:
            rules.validate("http://a/" + c + "b")
        assert info.value.position == 9
