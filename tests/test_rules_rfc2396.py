"""RFC 2396 Appendix A (``rfc=2396``), rule by rule, with its own names.

The grammar is ambiguous in places (authority = server | reg_name, the
optional final "." of a hostname, toplabel against domainlabel): text matches
when any derivation does, and the error position is the length of the
longest prefix that some matching text starts with.
"""

from __future__ import annotations

import pytest
from rule_cases import flat

from fasturi._types import InvalidURI

OK = None

CASES: dict[str, list[tuple[str, int | None]]] = {
    # URI-reference = [ absoluteURI | relativeURI ] [ "#" fragment ]
    "URI-reference": [
        ("", OK),
        ("#s", OK),
        ("http://a/b/c/d;p?q", OK),
        ("http:?q", OK),  # an opaque_part may start with "?"
        ("http://exa_mple.com/", OK),  # "//..." is also an abs_path
        ("http:", 5),
        ("mailto:", 7),
        # Appendix C resolves "?y", but Appendix A cannot derive it: a
        # relativeURI needs a net_path, abs_path or rel_path first.
        ("?y", 0),
        ("a b", 1),
        ("1a:b", 2),
        ("~user:x", 5),
        ("http://a b", 8),
        ("#a#b", 2),
        ("g#s#", 3),
        ("http://[::1]/", 7),
        ("%", 1),
        ("a:b c", 3),
        ("{x}", 0),
        ("a\u00e9", 1),
    ],
    # absoluteURI = scheme ":" ( hier_part | opaque_part )
    "absoluteURI": [
        ("http://a/b?q", OK),
        ("mailto:a@b", OK),
        ("urn:x:y", OK),
        ("g:h", OK),
        ("a:%20", OK),
        ("g", 1),
        ("http:", 5),
        ("http://a#f", 8),
        ("/a", 0),
        ("1:x", 0),
    ],
    # relativeURI = ( net_path | abs_path | rel_path ) [ "?" query ]
    "relativeURI": [
        ("g", OK),
        ("/g", OK),
        ("//g", OK),
        ("g?y", OK),
        (";x", OK),
        ("a/b:c", OK),
        ("", 0),
        ("?y", 0),
        ("g:h", 1),
        ("g#s", 1),
        ("a b", 1),
    ],
    # hier_part = ( net_path | abs_path ) [ "?" query ]
    "hier_part": [
        ("/a", OK),
        ("//a/b?q", OK),
        ("//", OK),
        ("/", OK),
        ("a", 0),
        ("", 0),
        ("/a#", 2),
    ],
    # net_path = "//" authority [ abs_path ]
    "net_path": [
        ("//", OK),
        ("//a", OK),
        ("//a/b", OK),
        ("//u@h:80/p", OK),
        ("//a;b/c", OK),
        ("//a:b:c", OK),
        ("/a", 1),
        ("", 0),
        ("/", 1),
        ("//a b", 3),
        ("//a?", 3),
        ("//[::1]", 2),
    ],
    # abs_path = "/"  path_segments
    "abs_path": [
        ("/", OK),
        ("/a/b;p/c;q;r", OK),
        ("//", OK),
        ("/a:b", OK),
        ("", 0),
        ("a", 0),
        ("/a?b", 2),
        ("/a b", 2),
    ],
    # rel_path = rel_segment [ abs_path ]
    "rel_path": [
        ("a", OK),
        ("a/b", OK),
        (";x", OK),
        ("a;b/c", OK),
        ("", 0),
        ("/a", 0),
        ("a:b", 1),
        ("a/b c", 3),
    ],
    # rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+" | "$" | "," )
    "rel_segment": [
        ("a", OK),
        (";@&=+$,", OK),
        ("%41", OK),
        ("", 0),
        (":", 0),
        ("a/b", 1),
        ("a:b", 1),
    ],
    # scheme = alpha *( alpha | digit | "+" | "-" | "." )
    "scheme": [
        ("http", OK),
        ("a+b-c.d", OK),
        ("", 0),
        ("1a", 0),
        ("a_b", 1),
    ],
    # authority = server | reg_name
    "authority": [
        ("", OK),
        ("a", OK),
        ("u@h:80", OK),
        ("a:b:c", OK),
        ("$,;:@&=+", OK),
        ("exa_mple.com", OK),  # a reg_name, though no hostname
        ("a b", 1),
        ("a/b", 1),
        ("[::1]", 0),
        ("%4", 2),
    ],
    # reg_name = 1*( unreserved | escaped | "$" | "," | ";" | ":" | "@" | "&" | "=" | "+" )
    "reg_name": [
        ("a", OK),
        ("exa_mple", OK),
        ("u@h", OK),
        ("", 0),
        ("a/", 1),
        ("a?b", 1),
    ],
    # server = [ [ userinfo "@" ] hostport ]
    "server": [
        ("", OK),
        ("h", OK),
        ("h:80", OK),
        ("u@h", OK),
        ("u:p@h.example.com:8080", OK),
        ("1.2.3.4", OK),
        ("a.b.", OK),
        ("u;x@h", OK),
        ("u@", 2),
        # still a possible userinfo ("exa_mple.com@h"), never a hostport
        ("exa_mple.com", 12),
        ("h:8a", 4),
        ("u@h@", 3),
        ("u@-h", 2),
        ("h/", 1),
        ("u@h:8a", 5),
    ],
    # userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" | "+" | "$" | "," )
    "userinfo": [
        ("", OK),
        ("u:p", OK),
        (";:&=+$,", OK),
        ("%20", OK),
        ("u@", 1),
        ("u/", 1),
        ("%2", 2),
    ],
    # hostport = host [ ":" port ]
    "hostport": [
        ("h", OK),
        ("h:80", OK),
        ("h:", OK),
        ("1.2.3.4:80", OK),
        ("a.b.:1", OK),
        ("1.2.3.4", OK),
        ("", 0),
        ("h:8a", 3),
        ("1.2.3:80", 5),
        ("-h", 0),
        ("h_", 1),
        ("u@h", 1),
    ],
    # host = hostname | IPv4address
    "host": [
        ("a", OK),
        ("a.b", OK),
        ("a.b.", OK),
        ("www.example.com", OK),
        ("1.2.3.4", OK),
        ("a1-b2.c", OK),
        ("999.999.999.999", OK),  # 1*digit: no range in RFC 2396
        ("", 0),
        ("1.2.3", 5),
        ("a..b", 2),
        ("-a", 0),
        ("a-", 2),
        ("a-.b", 2),
        ("1a", 2),
        ("a.1", 3),
        ("a_b", 1),
        ("1.2.3.4.", 8),
        ("a:80", 1),
    ],
    # hostname = *( domainlabel "." ) toplabel [ "." ]
    "hostname": [
        ("a", OK),
        ("a.b.c", OK),
        ("a.b.", OK),
        ("a-b.c-d", OK),
        ("x1.y2", OK),
        ("1.a", OK),
        ("1", 1),
        ("1.2.3.4", 7),
        ("a..b", 2),
        (".a", 0),
        ("a.-b", 2),
        ("a b", 1),
        ("a.b..", 4),
    ],
    # domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum
    "domainlabel": [
        ("a", OK),
        ("1", OK),
        ("a-1", OK),
        ("1-a", OK),
        ("a--b", OK),
        ("", 0),
        ("-a", 0),
        ("a-", 2),
        ("a.", 1),
        ("a-.", 2),
    ],
    # toplabel = alpha | alpha *( alphanum | "-" ) alphanum
    "toplabel": [
        ("a", OK),
        ("a1", OK),
        ("a-1", OK),
        ("a--b", OK),
        ("", 0),
        ("1", 0),
        ("1a", 0),
        ("a-", 2),
    ],
    # IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit
    "IPv4address": [
        ("1.2.3.4", OK),
        ("999.0.0.00", OK),
        ("0.0.0.0", OK),
        ("", 0),
        ("1.2.3", 5),
        ("1..2.3", 2),
        ("a.1.1.1", 0),
        ("1.2.3.4.", 7),
        ("1.2.3.4.5", 7),
    ],
    # port = *digit
    "port": [
        ("", OK),
        ("80", OK),
        ("000", OK),
        ("a", 0),
        ("8 0", 1),
    ],
    # path = [ abs_path | opaque_part ]
    "path": [
        ("", OK),
        ("/a", OK),
        ("a", OK),
        ("a:b", OK),
        ("?x", OK),
        ("#", 0),
        ("a#", 1),
        ("/a?b", 2),
    ],
    # path_segments = segment *( "/" segment )
    "path_segments": [
        ("", OK),
        ("a/b", OK),
        ("a;p/b;q", OK),
        ("/", OK),
        ("a?b", 1),
        ("a b", 1),
    ],
    # segment = *pchar *( ";" param )
    "segment": [
        ("", OK),
        ("a", OK),
        ("a;p;q", OK),
        (";", OK),
        ("a:b@c", OK),
        ("a/b", 1),
        ("a?b", 1),
    ],
    # param = *pchar
    "param": [
        ("", OK),
        ("p=1", OK),
        (":@&=+$,", OK),
        (";", 0),
        ("a/", 1),
    ],
    # pchar = unreserved | escaped | ":" | "@" | "&" | "=" | "+" | "$" | ","
    "pchar": [
        ("a", OK),
        (":", OK),
        ("%41", OK),
        ("", 0),
        (";", 0),
        ("/", 0),
        ("ab", 1),
    ],
    # query = *uric
    "query": [
        ("", OK),
        ("a=b&c", OK),
        ("/?;:@&=+$,", OK),
        ("#", 0),
        ("[", 0),
        (" ", 0),
    ],
    # fragment = *uric
    "fragment": [
        ("", OK),
        ("a/b?c", OK),
        ("#", 0),
        ("a#", 1),
    ],
    # uric = reserved | unreserved | escaped
    "uric": [
        (";", OK),
        ("a", OK),
        ("%41", OK),
        ("/", OK),
        ("", 0),
        ("#", 0),
        ("aa", 1),
        ("[", 0),
        ("%4", 2),
    ],
    # uric_no_slash = unreserved | escaped | ";" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | ","
    "uric_no_slash": [
        ("a", OK),
        ("?", OK),
        (";", OK),
        ("%41", OK),
        ("", 0),
        ("/", 0),
        ("#", 0),
    ],
    # opaque_part = uric_no_slash *uric
    "opaque_part": [
        ("a", OK),
        ("a/b", OK),
        ("?x", OK),
        ("a:b/c?d", OK),
        ("", 0),
        ("/a", 0),
        ("a#", 1),
    ],
    # reserved = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | ","
    "reserved": [
        *[(c, OK) for c in ";/?:@&=+$,"],
        ("", 0),
        ("a", 0),
        ("[", 0),
        ("#", 0),
    ],
    # unreserved = alphanum | mark
    "unreserved": [
        *[(c, OK) for c in "aZ9-_.!~*'()"],
        ("", 0),
        ("$", 0),
        (";", 0),
    ],
    # mark = "-" | "_" | "." | "!" | "~" | "*" | "'" | "(" | ")"
    "mark": [
        *[(c, OK) for c in "-_.!~*'()"],
        ("", 0),
        ("a", 0),
        ("1", 0),
        ("$", 0),
    ],
    # escaped = "%" hex hex
    "escaped": [
        ("%41", OK),
        ("%ff", OK),
        ("", 0),
        ("%", 1),
        ("%4g", 2),
        ("41", 0),
    ],
    # hex = digit | "A" | "B" | "C" | "D" | "E" | "F" | "a" | "b" | "c" | "d" | "e" | "f"
    "hex": [
        ("0", OK),
        ("a", OK),
        ("F", OK),
        ("", 0),
        ("g", 0),
        ("G", 0),
    ],
    # alphanum = alpha | digit
    "alphanum": [
        ("a", OK),
        ("9", OK),
        ("", 0),
        ("-", 0),
    ],
    # alpha = lowalpha | upalpha
    "alpha": [
        ("a", OK),
        ("Z", OK),
        ("", 0),
        ("0", 0),
    ],
    # lowalpha = "a" | "b" | ... | "z"
    "lowalpha": [
        ("a", OK),
        ("z", OK),
        ("", 0),
        ("A", 0),
    ],
    # upalpha = "A" | "B" | ... | "Z"
    "upalpha": [
        ("A", OK),
        ("Z", OK),
        ("", 0),
        ("a", 0),
    ],
    # digit = "0" | "1" | ... | "9"
    "digit": [
        ("0", OK),
        ("9", OK),
        ("", 0),
        ("a", 0),
    ],
}

# RFC 2396 §1.3 and §4.1.
RFC_EXAMPLES = [
    "ftp://ftp.is.co.za/rfc/rfc1808.txt",
    "gopher://spinaltap.micro.umn.edu/00/Weather/California/Los%20Angeles",
    "http://www.math.uio.no/faq/compression-faq/part1.html",
    "mailto:mduerst@ifi.unizh.ch",
    "news:comp.infosystems.www.servers.unix",
    "telnet://melvyl.ucop.edu/",
    "http://www.ics.uci.edu/pub/ietf/uri/#Related",
    "http://www.XEROX.com",
]

# RFC 2396 Appendix C ("?y" excepted, see above; "<>" is the empty reference).
APPENDIX_C = [
    "g:h", "g", "./g", "g/", "/g", "//g", "g?y", "#s", "g#s", "g?y#s", ";x",
    "g;x", "g;x?y#s", ".", "./", "..", "../", "../g", "../..", "../../",
    "../../g", "", "../../../g", "../../../../g", "/./g", "/../g", "g.", ".g",
    "g..", "..g", "./../g", "./g/.", "g/./h", "g/../h", "g;x=1/./y",
    "g;x=1/../y", "g?y/./x", "g?y/../x", "g#s/./x", "g#s/../x", "http:g",
]  # fmt: skip


@pytest.mark.parametrize(("rule", "text", "want"), flat(CASES))
def test_rule(rules, rule, text, want):
    assert rules.is_valid(text, rule, rfc=2396) is (want is None)
    if want is None:
        assert rules.validate(text, rule, rfc=2396) is text
        return
    with pytest.raises(InvalidURI) as info:
        rules.validate(text, rule, rfc=2396)
    assert info.value.position == want
    assert info.value.rule == rule


def test_every_rule_has_matching_and_failing_cases(rules):
    assert set(CASES) == rules.RULES_2396
    for rule, items in CASES.items():
        assert sum(want is None for _, want in items) >= 2, rule
        assert sum(want is not None for _, want in items) >= 2, rule


def test_rule_names(rules):
    assert rules.RULES_2396 == frozenset(CASES)
    assert len(rules.RULES_2396) == 40
    assert isinstance(rules.RULES_2396, frozenset)


@pytest.mark.parametrize("uri", RFC_EXAMPLES)
def test_rfc_examples(rules, uri):
    assert rules.is_valid(uri, rfc=2396)
    absolute, _, _ = uri.partition("#")  # a fragment is outside absoluteURI
    assert rules.is_valid(absolute, "absoluteURI", rfc=2396)


@pytest.mark.parametrize("ref", APPENDIX_C)
def test_appendix_c_references(rules, ref):
    assert rules.is_valid(ref, "URI-reference", rfc=2396)


def test_names_differ_from_rfc_3986(rules):
    with pytest.raises(ValueError, match=r"^unknown rule 'URI' for RFC 2396$"):
        rules.is_valid("a:b", "URI", rfc=2396)
    with pytest.raises(ValueError, match=r"^unknown rule 'hier-part' for RFC 2396$"):
        rules.validate("/a", "hier-part", rfc=2396)
    assert rules.is_valid("/a", "hier_part", rfc=2396)


def test_differences_from_rfc_3986(rules):
    # IP-literals came with RFC 2732 / RFC 3986.
    assert rules.is_valid("http://[::1]/")
    assert not rules.is_valid("http://[::1]/", rfc=2396)
    # A query-only reference is new in RFC 3986.
    assert rules.is_valid("?y") and not rules.is_valid("?y", rfc=2396)
    # "http:" needs a hier_part or an opaque_part in RFC 2396.
    assert rules.is_valid("http:") and not rules.is_valid("http:", rfc=2396)
    # RFC 2396's mark characters are sub-delims or unreserved in RFC 3986.
    assert rules.is_valid("!", "unreserved", rfc=2396)
    assert not rules.is_valid("!", "unreserved")


def test_message(rules):
    with pytest.raises(InvalidURI) as info:
        rules.validate("a.1", "hostname", rfc=2396)
    assert str(info.value) == "invalid hostname: unexpected end at position 3"
    with pytest.raises(InvalidURI) as info:
        rules.validate("a..b", "hostname", rfc=2396)
    assert str(info.value) == "invalid hostname at position 2: '.'"
