"""Properties of the _rules twins, with Hypothesis.

- The twins agree on every text and rule (result, exception, message, position).
- Text generated from the RFCs' own grammar text (parsed here, apart from
  either twin) matches its rule.
- The error position p is where the text dies: s[:p] can still be completed
  (a prefix of a match only ever fails by ending), and nothing written after
  s[:p + 1] gets past p.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from outcomes import outcome

from fasturi import _rules_py
from fasturi._types import InvalidURI

# RFC 3986 Appendix A; IP-literal as RFC 6874 §2 updates it, and its two new
# rules; the RFC 5234 Appendix B.1 core rules it uses.
RFC3986 = r"""
URI           = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
hier-part     = "//" authority path-abempty
              / path-absolute
              / path-rootless
              / path-empty
URI-reference = URI / relative-ref
absolute-URI  = scheme ":" hier-part [ "?" query ]
relative-ref  = relative-part [ "?" query ] [ "#" fragment ]
relative-part = "//" authority path-abempty
              / path-absolute
              / path-noscheme
              / path-empty
scheme        = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
authority     = [ userinfo "@" ] host [ ":" port ]
userinfo      = *( unreserved / pct-encoded / sub-delims / ":" )
host          = IP-literal / IPv4address / reg-name
port          = *DIGIT
IP-literal    = "[" ( IPv6address / IPv6addrz / IPvFuture  ) "]"
ZoneID        = 1*( unreserved / pct-encoded )
IPv6addrz     = IPv6address "%25" ZoneID
IPvFuture     = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
IPv6address   =                            6( h16 ":" ) ls32
              /                       "::" 5( h16 ":" ) ls32
              / [               h16 ] "::" 4( h16 ":" ) ls32
              / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
              / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
              / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
              / [ *4( h16 ":" ) h16 ] "::"              ls32
              / [ *5( h16 ":" ) h16 ] "::"              h16
              / [ *6( h16 ":" ) h16 ] "::"
h16           = 1*4HEXDIG
ls32          = ( h16 ":" h16 ) / IPv4address
IPv4address   = dec-octet "." dec-octet "." dec-octet "." dec-octet
dec-octet     = DIGIT                 ; 0-9
              / %x31-39 DIGIT         ; 10-99
              / "1" 2DIGIT            ; 100-199
              / "2" %x30-34 DIGIT     ; 200-249
              / "25" %x30-35          ; 250-255
reg-name      = *( unreserved / pct-encoded / sub-delims )
path          = path-abempty    ; begins with "/" or is empty
              / path-absolute   ; begins with "/" but not "//"
              / path-noscheme   ; begins with a non-colon segment
              / path-rootless   ; begins with a segment
              / path-empty      ; zero characters
path-abempty  = *( "/" segment )
path-absolute = "/" [ segment-nz *( "/" segment ) ]
path-noscheme = segment-nz-nc *( "/" segment )
path-rootless = segment-nz *( "/" segment )
path-empty    = 0<pchar>
segment       = *pchar
segment-nz    = 1*pchar
segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )
              ; non-zero-length segment without any colon ":"
pchar         = unreserved / pct-encoded / sub-delims / ":" / "@"
query         = *( pchar / "/" / "?" )
fragment      = *( pchar / "/" / "?" )
pct-encoded   = "%" HEXDIG HEXDIG
unreserved    = ALPHA / DIGIT / "-" / "." / "_" / "~"
reserved      = gen-delims / sub-delims
gen-delims    = ":" / "/" / "?" / "#" / "[" / "]" / "@"
sub-delims    = "!" / "$" / "&" / "'" / "(" / ")"
              / "*" / "+" / "," / ";" / "="
ALPHA         = %x41-5A / %x61-7A
DIGIT         = %x30-39
HEXDIG        = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"
"""

# RFC 3987 §2.2, the rules that differ from RFC 3986.
RFC3987 = r"""
IRI            = scheme ":" ihier-part [ "?" iquery ]
                      [ "#" ifragment ]
ihier-part     = "//" iauthority ipath-abempty
               / ipath-absolute
               / ipath-rootless
               / ipath-empty
IRI-reference  = IRI / irelative-ref
absolute-IRI   = scheme ":" ihier-part [ "?" iquery ]
irelative-ref  = irelative-part [ "?" iquery ] [ "#" ifragment ]
irelative-part = "//" iauthority ipath-abempty
                    / ipath-absolute
               / ipath-noscheme
               / ipath-empty
iauthority     = [ iuserinfo "@" ] ihost [ ":" port ]
iuserinfo      = *( iunreserved / pct-encoded / sub-delims / ":" )
ihost          = IP-literal / IPv4address / ireg-name
ireg-name      = *( iunreserved / pct-encoded / sub-delims )
ipath          = ipath-abempty   ; begins with "/" or is empty
               / ipath-absolute  ; begins with "/" but not "//"
               / ipath-noscheme  ; begins with a non-colon segment
               / ipath-rootless  ; begins with a segment
               / ipath-empty     ; zero characters
ipath-abempty  = *( "/" isegment )
ipath-absolute = "/" [ isegment-nz *( "/" isegment ) ]
ipath-noscheme = isegment-nz-nc *( "/" isegment )
ipath-rootless = isegment-nz *( "/" isegment )
ipath-empty    = 0<ipchar>
isegment       = *ipchar
isegment-nz    = 1*ipchar
isegment-nz-nc = 1*( iunreserved / pct-encoded / sub-delims
                     / "@" )
               ; non-zero-length segment without any colon ":"
ipchar         = iunreserved / pct-encoded / sub-delims / ":"
               / "@"
iquery         = *( ipchar / iprivate / "/" / "?" )
ifragment      = *( ipchar / "/" / "?" )
iunreserved    = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar
ucschar        = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
               / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
               / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
               / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
               / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
               / %xD0000-DFFFD / %xE1000-EFFFD
iprivate       = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
"""

# RFC 2396 Appendix A.
RFC2396 = r"""
URI-reference = [ absoluteURI | relativeURI ] [ "#" fragment ]
absoluteURI   = scheme ":" ( hier_part | opaque_part )
relativeURI   = ( net_path | abs_path | rel_path ) [ "?" query ]
hier_part     = ( net_path | abs_path ) [ "?" query ]
opaque_part   = uric_no_slash *uric
uric_no_slash = unreserved | escaped | ";" | "?" | ":" | "@" |
                "&" | "=" | "+" | "$" | ","
net_path      = "//" authority [ abs_path ]
abs_path      = "/"  path_segments
rel_path      = rel_segment [ abs_path ]
rel_segment   = 1*( unreserved | escaped |
                    ";" | "@" | "&" | "=" | "+" | "$" | "," )
scheme        = alpha *( alpha | digit | "+" | "-" | "." )
authority     = server | reg_name
reg_name      = 1*( unreserved | escaped | "$" | "," |
                    ";" | ":" | "@" | "&" | "=" | "+" )
server        = [ [ userinfo "@" ] hostport ]
userinfo      = *( unreserved | escaped |
                   ";" | ":" | "&" | "=" | "+" | "$" | "," )
hostport      = host [ ":" port ]
host          = hostname | IPv4address
hostname      = *( domainlabel "." ) toplabel [ "." ]
domainlabel   = alphanum | alphanum *( alphanum | "-" ) alphanum
toplabel      = alpha | alpha *( alphanum | "-" ) alphanum
IPv4address   = 1*digit "." 1*digit "." 1*digit "." 1*digit
port          = *digit
path          = [ abs_path | opaque_part ]
path_segments = segment *( "/" segment )
segment       = *pchar *( ";" param )
param         = *pchar
pchar         = unreserved | escaped |
                ":" | "@" | "&" | "=" | "+" | "$" | ","
query         = *uric
fragment      = *uric
uric          = reserved | unreserved | escaped
reserved      = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" |
                "$" | ","
unreserved    = alphanum | mark
mark          = "-" | "_" | "." | "!" | "~" | "*" | "'" |
                "(" | ")"
escaped       = "%" hex hex
hex           = digit | "A" | "B" | "C" | "D" | "E" | "F" |
                        "a" | "b" | "c" | "d" | "e" | "f"
alphanum      = alpha | digit
alpha         = lowalpha | upalpha
lowalpha = "a" | "b" | "c" | "d" | "e" | "f" | "g" | "h" | "i" |
           "j" | "k" | "l" | "m" | "n" | "o" | "p" | "q" | "r" |
           "s" | "t" | "u" | "v" | "w" | "x" | "y" | "z"
upalpha  = "A" | "B" | "C" | "D" | "E" | "F" | "G" | "H" | "I" |
           "J" | "K" | "L" | "M" | "N" | "O" | "P" | "Q" | "R" |
           "S" | "T" | "U" | "V" | "W" | "X" | "Y" | "Z"
digit    = "0" | "1" | "2" | "3" | "4" | "5" | "6" | "7" |
           "8" | "9"
"""

# ---- a small reader of the grammar text, into Hypothesis strategies --------

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<str>"[^"]*")
      | (?P<num>%x[0-9A-Fa-f]+(?:-[0-9A-Fa-f]+)?)
      | (?P<prose><[^>]*>)
      | (?P<rep>\d*\*\d*|\d+)
      | (?P<name>[A-Za-z][A-Za-z0-9_-]*)
      | (?P<op>[/|()\[\]])
    )""",
    re.VERBOSE,
)


def _strip_comment(line: str) -> str:
    quoted = False
    for i, c in enumerate(line):
        if c == '"':
            quoted = not quoted
        elif c == ";" and not quoted:
            return line[:i]
    return line


def _rules_of(text: str) -> dict[str, str]:
    """name -> definition, comments removed, continuation lines joined."""
    rules: dict[str, str] = {}
    name = None
    for line in text.splitlines():
        line = _strip_comment(line)
        if not line.strip():
            continue
        if line[0].isspace():
            assert name is not None
            rules[name] += " " + line.strip()
        else:
            name, _, body = line.partition("=")
            name = name.strip()
            rules[name] = body.strip()
    return rules


def _tokens(body: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    while body[pos:].strip():
        m = _TOKEN.match(body, pos)
        assert m is not None, body[pos:]
        kind = m.lastgroup
        assert kind is not None
        out.append((kind, m.group(kind)))
        pos = m.end()
    return out


class _Reader:
    """RFC 5234 §4 (or RFC 2396 §1.6, with "|"): alternation, concatenation,
    repetition, option, group, quoted string, %x value, prose <rule>."""

    def __init__(self, tokens, refer, fold):
        self.tokens, self.pos, self.refer, self.fold = tokens, 0, refer, fold

    def peek(self):
        return self.tokens[self.pos] if self.pos < len(self.tokens) else (None, None)

    def take(self):
        self.pos += 1
        return self.tokens[self.pos - 1]

    def alternation(self):
        options = [self.concatenation()]
        while self.peek() in (("op", "/"), ("op", "|")):
            self.take()
            options.append(self.concatenation())
        return options[0] if len(options) == 1 else st.one_of(options)

    def concatenation(self):
        parts = []
        while self.peek()[0] in ("str", "num", "prose", "rep", "name") or self.peek() in (
            ("op", "("),
            ("op", "["),
        ):
            parts.append(self.repetition())
        return st.tuples(*parts).map("".join)

    def repetition(self):
        lo, hi = 1, 1
        if self.peek()[0] == "rep":
            rep = self.take()[1]
            if "*" in rep:
                a, b = rep.split("*")
                lo, hi = int(a or 0), (int(b) if b else None)
            else:
                lo = hi = int(rep)
        element = self.element()
        if (lo, hi) == (1, 1):
            return element
        return st.lists(element, min_size=lo, max_size=lo + 3 if hi is None else hi).map("".join)

    def element(self):
        kind, value = self.take()
        if kind == "name":
            return self.refer(value)
        if kind == "prose":
            return self.refer(value[1:-1])
        if kind == "str":
            chars = value[1:-1]
            if not self.fold:
                return st.just(chars)
            # RFC 5234 §2.3: quoted strings are case-insensitive
            return st.tuples(*(st.sampled_from(sorted({c.lower(), c.upper()})) for c in chars)).map(
                "".join
            )
        if kind == "num":
            lo, _, hi = value[2:].partition("-")
            return st.integers(int(lo, 16), int(hi or lo, 16)).map(chr)
        if value == "(":
            inner = self.alternation()
            assert self.take() == ("op", ")")
            return inner
        assert value == "["
        inner = self.alternation()
        assert self.take() == ("op", "]")
        return st.one_of(st.just(""), inner)


def _grammar(*texts: str, fold: bool) -> dict[str, st.SearchStrategy[str]]:
    defs: dict[str, str] = {}
    for text in texts:
        defs.update(_rules_of(text))
    strategies: dict[str, st.SearchStrategy[str]] = {}

    def refer(name):
        return st.deferred(lambda: strategies[name])

    for name, body in defs.items():
        reader = _Reader(_tokens(body), refer, fold)
        strategies[name] = reader.alternation()
        assert reader.pos == len(reader.tokens), name
    return strategies


GEN_3986 = _grammar(RFC3986, RFC3987, fold=True)
GEN_2396 = _grammar(RFC2396, fold=False)
GENERATORS = {3986: GEN_3986, 2396: GEN_2396}
ALL_RULES = [(r, 3986) for r in sorted(GEN_3986)] + [(r, 2396) for r in sorted(GEN_2396)]

# ---- arbitrary text ---------------------------------------------------------

# Pieces that URIs are made of, and that break them.
TOKENS = list("aAzZ09vVfF+-._~!$&'()*,;=:/?#[]@% ") + [
    "%2", "%41", "%25", "%zz", "::", "//", "http:", "1.2.3.4", "255", "256", "01",
    "[", "]", "[::1]", "fe80::1", "v1.", "@", ":80", "..", "a-", "-a",
]  # fmt: skip
ODD = [
    "\x00", "\t", "\n", "\x7f", "\x80", "\x85", "\x9f", "\xa0", "\u00e9", "\u0663",
    "\u7d0d", "\ud7ff", "\ud800", "\udbff", "\udc00", "\udfff", "\ue000", "\uf8ff",
    "\uf900", "\ufdd0", "\ufdf0", "\uffef", "\ufffe", "\U00010300", "\U0001fffe",
    "\U000e0fff", "\U000e1000", "\U000f0000", "\U0010fffd", "\U0010ffff",
]  # fmt: skip

pieces = st.one_of(st.sampled_from(TOKENS), st.sampled_from(ODD), st.characters())
texts = st.lists(pieces, max_size=16).map("".join)
rule_names = st.sampled_from(ALL_RULES)


@st.composite
def generated(draw, rules=rule_names):
    """(rule, rfc, text) with text made from the rule's grammar text."""
    rule, rfc = draw(rules)
    return rule, rfc, draw(GENERATORS[rfc][rule])


@st.composite
def near_misses(draw):
    """Generated text with a few characters inserted, deleted or replaced."""
    rule, rfc, text = draw(generated())
    for _ in range(draw(st.integers(0, 3))):
        i = draw(st.integers(0, len(text)))
        piece = draw(pieces)
        op = draw(st.sampled_from(["insert", "delete", "replace"]))
        if op == "insert":
            text = text[:i] + piece + text[i:]
        elif op == "delete":
            text = text[:i] + text[i + 1 :]
        else:
            text = text[:i] + piece + text[i + 1 :]
    return rule, rfc, text


@st.composite
def anything(draw):
    rule, rfc = draw(rule_names)
    return rule, rfc, draw(texts)


cases = st.one_of(near_misses(), anything())


def _position(rules, text, rule, rfc):
    """None when text matches, else the error position."""
    try:
        rules.validate(text, rule, rfc=rfc)
    except InvalidURI as e:
        assert e.rule == rule
        return e.position
    return None


def _verdict(rules, text, rule, rfc):
    """is_valid's answer and validate's outcome (validate returns its argument)."""
    valid = rules.is_valid(text, rule, rfc=rfc)
    validated = outcome(rules.validate, text, rule, rfc=rfc)
    if validated[0] == "return":
        assert rules.validate(text, rule, rfc=rfc) is text
    return valid, validated


# ---- the properties ------------------------------------------------------------


def test_grammar_text_names_every_rule(rules):
    assert set(GEN_3986) == rules.RULES_3986
    assert set(GEN_2396) == rules.RULES_2396


@pytest.mark.parity
@given(case=cases)
def test_twins_agree(twin_pair, case):
    compiled, python = twin_pair("rules")
    rule, rfc, text = case
    assert _verdict(compiled, text, rule, rfc) == _verdict(python, text, rule, rfc)
    assert compiled.host_type(text) == python.host_type(text)


# Each example below is checked against every twin this run tests
# (every_twin): drawing text from the grammar costs more than checking it.
IRI_OF = {"URI": "IRI", "URI-reference": "IRI-reference", "absolute-URI": "absolute-IRI"}


@settings(max_examples=max(50, settings().max_examples // 2))
@given(case=generated(), cut=st.integers(0, 1000), tail=texts)
def test_generated_text_matches_and_its_prefixes_are_viable(every_twin, case, cut, tail):
    rule, rfc, text = case
    prefix = text[: cut % (len(text) + 1)]
    for rules in every_twin("rules"):
        assert rules.is_valid(text, rule, rfc=rfc)
        assert rules.validate(text, rule, rfc=rfc) is text
        # A prefix of a match can only fail by ending too early...
        assert _position(rules, prefix, rule, rfc) in (None, len(prefix))
        # ... and whatever follows it, the error is not inside it.
        p = _position(rules, prefix + tail, rule, rfc)
        assert p is None or p >= len(prefix)
        if rfc == 3986 and rule in IRI_OF:
            assert rules.is_valid(text, IRI_OF[rule])  # every URI is an IRI


@given(case=cases, tail=texts)
def test_error_position_is_where_the_text_dies(every_twin, case, tail):
    rule, rfc, text = case
    # The python twin answers "does it match" with re and "where does it
    # fail" with its automaton: both must read the grammar the same way.
    matches = _rules_py._automaton((rfc, rule)).error_position(text) is None
    assert matches is _rules_py.is_valid(text, rule, rfc=rfc)
    for rules in every_twin("rules"):
        if rules.is_valid(text):
            assert rules.is_valid(text, "IRI-reference")  # every URI is an IRI
        p = _position(rules, text, rule, rfc)
        if p is None:
            continue
        assert 0 <= p <= len(text)
        # s[:p] is viable: what follows it cannot make the error come sooner.
        q = _position(rules, text[:p] + tail, rule, rfc)
        assert q is None or q >= p
        if p < len(text):
            # s[:p + 1] is not: nothing after it gets past p.
            dead = text[: p + 1] + tail
            assert not rules.is_valid(dead, rule, rfc=rfc)
            assert _position(rules, dead, rule, rfc) == p


WORDS = ["", "a", "::", "1.2.3.4", "[::1]", "%41", "%4", "\u00e9", "\ue000", "\ud800", ":80"]
WORDS += ["http://u@h:80/p?q#f", "//h/p", "v1.x", "[fe80::1%25e]", "a.b.", "g;x=1", "-"]


@pytest.mark.parity
@pytest.mark.parametrize(("rule", "rfc"), ALL_RULES, ids=[f"{r}-{n}" for r, n in ALL_RULES])
def test_twins_agree_on_every_rule(twin_pair, rule, rfc):
    # A fixed sweep, so that every rule is compared on every run.
    compiled, python = twin_pair("rules")
    for a in WORDS:
        for b in WORDS:
            text = a + b
            assert _verdict(compiled, text, rule, rfc) == _verdict(python, text, rule, rfc)


# Long runs of one class are read 16 bytes at a time where the CPU can: a
# character that ends the run is found at every place of a block, and in the
# last, partial block (read as the overlapping last 16 bytes).
ENDERS = ['"', " ", "\x7f", "\x00", "é", "%", "%zz", "#", "[", "/", "?", ":", "@"]


@pytest.mark.parity
@pytest.mark.parametrize("ender", ENDERS)
def test_twins_agree_on_long_runs(twin_pair, ender):
    compiled, python = twin_pair("rules")
    rules = [("URI-reference", 3986), ("IRI-reference", 3986), ("query", 3986), ("reg-name", 3986),
             ("segment", 3986), ("URI-reference", 2396)]  # fmt: skip
    for before in range(0, 40, 3):
        for after in (0, 1, 15, 16, 17, 33):
            for prefix in ("", "http://", "http://" + "h" * 20 + "/", "//u:p@"):
                text = prefix + "a" * before + ender + "b" * after
                for rule, rfc in rules:
                    want = _verdict(python, text, rule, rfc)
                    assert _verdict(compiled, text, rule, rfc) == want, (text, rule, rfc)
