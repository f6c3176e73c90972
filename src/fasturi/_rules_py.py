"""ABNF validation, as the RFCs write it: RFC 3986 Appendix A (with the
RFC 6874 zone identifier), RFC 3987 §2.2 and RFC 2396 Appendix A.

Each rule below is its ABNF, transcribed one to one from the RFC quoted above
it.  Every rule is a regular language, so two exact engines run the same
transcription: a regular expression (``re``) answers "does it match", and
a Glushkov automaton, determinized lazily, finds the error position -- the
length of the longest prefix that some matching string starts with.

This is the reference the compiled twin (``_rules_c``) is tested against:
same names, same results, same exceptions.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Iterator
from typing import Union

from ._errors import rfc_number, type_error
from ._types import InvalidURI

__all__ = ["RULES_2396", "RULES_3986", "host_type", "is_valid", "validate"]


# ---- regular expressions over characters ---------------------------------


class _Node:
    """A regular expression over Unicode characters."""

    __slots__ = ()


class _Chars(_Node):
    """One character out of a set of inclusive code point ranges."""

    __slots__ = ("ranges",)

    def __init__(self, ranges: Iterable[tuple[int, int]]) -> None:
        merged: list[tuple[int, int]] = []
        for lo, hi in sorted(ranges):
            if merged and lo <= merged[-1][1] + 1:
                merged[-1] = (merged[-1][0], max(hi, merged[-1][1]))
            else:
                merged.append((lo, hi))
        self.ranges = tuple(merged)

    def __contains__(self, cp: int) -> bool:
        return any(lo <= cp <= hi for lo, hi in self.ranges)


class _Seq(_Node):
    __slots__ = ("items",)

    def __init__(self, items: tuple[_Node, ...]) -> None:
        self.items = items


class _Alt(_Node):
    __slots__ = ("items",)

    def __init__(self, items: tuple[_Node, ...]) -> None:
        self.items = items


class _Rep(_Node):
    __slots__ = ("hi", "item", "lo")

    def __init__(self, item: _Node, lo: int, hi: int | None) -> None:
        self.item, self.lo, self.hi = item, lo, hi


_Item = Union[_Node, str]


def _lit(text: str, *, fold: bool) -> _Node:
    """A quoted string; ``fold``: letters match either case (RFC 5234 §2.3)."""
    chars: list[_Node] = []
    for ch in text:
        cps = {ord(ch.lower()), ord(ch.upper())} if fold and ch.isascii() else {ord(ch)}
        chars.append(_Chars((cp, cp) for cp in cps))
    return chars[0] if len(chars) == 1 else _Seq(tuple(chars))


def _node(item: _Item) -> _Node:
    # Quoted strings of RFC 3986 / RFC 3987 are ABNF: case-insensitive.  The
    # RFC 2396 grammar below quotes no letters outside its alpha ranges.
    return _lit(item, fold=True) if isinstance(item, str) else item


def seq(*items: _Item) -> _Node:
    nodes = tuple(_node(i) for i in items)
    return nodes[0] if len(nodes) == 1 else _Seq(nodes)


def alt(*items: _Item) -> _Node:
    """Alternatives (``/``); single characters are merged into one set."""
    flat: list[_Node] = []
    for node in map(_node, items):
        flat.extend(node.items if isinstance(node, _Alt) else (node,))
    ranges = [r for node in flat if isinstance(node, _Chars) for r in node.ranges]
    rest = [node for node in flat if not isinstance(node, _Chars)]
    nodes = ([_Chars(ranges)] if ranges else []) + rest
    return nodes[0] if len(nodes) == 1 else _Alt(tuple(nodes))


def rep(item: _Item, lo: int = 0, hi: int | None = None) -> _Node:
    """``<lo>*<hi>item``; ``hi=None`` is unbounded."""
    return _Rep(_node(item), lo, hi)


def times(n: int, *items: _Item) -> _Node:
    """``n( item )``: exactly n repetitions."""
    return rep(seq(*items), n, n)


def opt(*items: _Item) -> _Node:
    """``[ item ]``."""
    return rep(seq(*items), 0, 1)


def span(lo: str, hi: str) -> _Node:
    """``%xLO-HI``: a code point range."""
    return _Chars([(ord(lo), ord(hi))])


def cps(*ranges: tuple[int, int]) -> _Node:
    return _Chars(ranges)


def one_of(chars: str) -> _Node:
    """Exactly these characters (case-sensitive)."""
    return _Chars((ord(c), ord(c)) for c in chars)


EMPTY = _Seq(())


# ---- RFC 3986 Appendix A ---------------------------------------------------

# ALPHA = %x41-5A / %x61-7A      (RFC 5234 Appendix B.1)
ALPHA = alt(span("A", "Z"), span("a", "z"))
# DIGIT = %x30-39
DIGIT = span("0", "9")
# HEXDIG = DIGIT / "A" / "B" / "C" / "D" / "E" / "F"   (case-insensitive)
HEXDIG = alt(DIGIT, "A", "B", "C", "D", "E", "F")

# sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
sub_delims = alt("!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=")
# gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@"
gen_delims = alt(":", "/", "?", "#", "[", "]", "@")
# reserved = gen-delims / sub-delims
reserved = alt(gen_delims, sub_delims)
# unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
unreserved = alt(ALPHA, DIGIT, "-", ".", "_", "~")
# pct-encoded = "%" HEXDIG HEXDIG
pct_encoded = seq("%", HEXDIG, HEXDIG)

# pchar = unreserved / pct-encoded / sub-delims / ":" / "@"
pchar = alt(unreserved, pct_encoded, sub_delims, ":", "@")
# query = *( pchar / "/" / "?" )
query = rep(alt(pchar, "/", "?"))
# fragment = *( pchar / "/" / "?" )
fragment = rep(alt(pchar, "/", "?"))

# segment = *pchar
segment = rep(pchar)
# segment-nz = 1*pchar
segment_nz = rep(pchar, 1)
# segment-nz-nc = 1*( unreserved / pct-encoded / sub-delims / "@" )
segment_nz_nc = rep(alt(unreserved, pct_encoded, sub_delims, "@"), 1)

# path-abempty = *( "/" segment )
path_abempty = rep(seq("/", segment))
# path-absolute = "/" [ segment-nz *( "/" segment ) ]
path_absolute = seq("/", opt(segment_nz, rep(seq("/", segment))))
# path-noscheme = segment-nz-nc *( "/" segment )
path_noscheme = seq(segment_nz_nc, rep(seq("/", segment)))
# path-rootless = segment-nz *( "/" segment )
path_rootless = seq(segment_nz, rep(seq("/", segment)))
# path-empty = 0<pchar>
path_empty = EMPTY
# path = path-abempty / path-absolute / path-noscheme / path-rootless / path-empty
path = alt(path_abempty, path_absolute, path_noscheme, path_rootless, path_empty)

# reg-name = *( unreserved / pct-encoded / sub-delims )
reg_name = rep(alt(unreserved, pct_encoded, sub_delims))

# dec-octet = DIGIT                 ; 0-9
#           / %x31-39 DIGIT         ; 10-99
#           / "1" 2DIGIT            ; 100-199
#           / "2" %x30-34 DIGIT     ; 200-249
#           / "25" %x30-35          ; 250-255
dec_octet = alt(
    DIGIT,
    seq(span("1", "9"), DIGIT),
    seq("1", times(2, DIGIT)),
    seq("2", span("0", "4"), DIGIT),
    seq("25", span("0", "5")),
)
# IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
IPv4address = seq(dec_octet, ".", dec_octet, ".", dec_octet, ".", dec_octet)

# h16 = 1*4HEXDIG
h16 = rep(HEXDIG, 1, 4)
# ls32 = ( h16 ":" h16 ) / IPv4address
ls32 = alt(seq(h16, ":", h16), IPv4address)


def _upto(n: int) -> _Node:
    """``[ *n( h16 ":" ) h16 ]``."""
    return opt(rep(seq(h16, ":"), 0, n), h16)


# IPv6address =                            6( h16 ":" ) ls32
#             /                       "::" 5( h16 ":" ) ls32
#             / [               h16 ] "::" 4( h16 ":" ) ls32
#             / [ *1( h16 ":" ) h16 ] "::" 3( h16 ":" ) ls32
#             / [ *2( h16 ":" ) h16 ] "::" 2( h16 ":" ) ls32
#             / [ *3( h16 ":" ) h16 ] "::"    h16 ":"   ls32
#             / [ *4( h16 ":" ) h16 ] "::"              ls32
#             / [ *5( h16 ":" ) h16 ] "::"              h16
#             / [ *6( h16 ":" ) h16 ] "::"
IPv6address = alt(
    seq(times(6, h16, ":"), ls32),
    seq("::", times(5, h16, ":"), ls32),
    seq(opt(h16), "::", times(4, h16, ":"), ls32),
    seq(_upto(1), "::", times(3, h16, ":"), ls32),
    seq(_upto(2), "::", times(2, h16, ":"), ls32),
    seq(_upto(3), "::", h16, ":", ls32),
    seq(_upto(4), "::", ls32),
    seq(_upto(5), "::", h16),
    seq(_upto(6), "::"),
)

# RFC 6874 §2: ZoneID = 1*( unreserved / pct-encoded )
ZoneID = rep(alt(unreserved, pct_encoded), 1)
# RFC 6874 §2: IPv6addrz = IPv6address "%25" ZoneID
IPv6addrz = seq(IPv6address, "%25", ZoneID)

# IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
IPvFuture = seq("v", rep(HEXDIG, 1), ".", rep(alt(unreserved, sub_delims, ":"), 1))

# IP-literal = "[" ( IPv6address / IPvFuture  ) "]"
# as updated by RFC 6874 §2:
# IP-literal = "[" ( IPv6address / IPv6addrz / IPvFuture  ) "]"
IP_literal = seq("[", alt(IPv6address, IPv6addrz, IPvFuture), "]")

# port = *DIGIT
port = rep(DIGIT)
# host = IP-literal / IPv4address / reg-name
host = alt(IP_literal, IPv4address, reg_name)
# userinfo = *( unreserved / pct-encoded / sub-delims / ":" )
userinfo = rep(alt(unreserved, pct_encoded, sub_delims, ":"))
# authority = [ userinfo "@" ] host [ ":" port ]
authority = seq(opt(userinfo, "@"), host, opt(":", port))

# scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )
scheme = seq(ALPHA, rep(alt(ALPHA, DIGIT, "+", "-", ".")))

# relative-part = "//" authority path-abempty
#               / path-absolute
#               / path-noscheme
#               / path-empty
relative_part = alt(seq("//", authority, path_abempty), path_absolute, path_noscheme, path_empty)
# relative-ref = relative-part [ "?" query ] [ "#" fragment ]
relative_ref = seq(relative_part, opt("?", query), opt("#", fragment))

# hier-part = "//" authority path-abempty
#           / path-absolute
#           / path-rootless
#           / path-empty
hier_part = alt(seq("//", authority, path_abempty), path_absolute, path_rootless, path_empty)
# absolute-URI = scheme ":" hier-part [ "?" query ]
absolute_URI = seq(scheme, ":", hier_part, opt("?", query))
# URI = scheme ":" hier-part [ "?" query ] [ "#" fragment ]
URI = seq(scheme, ":", hier_part, opt("?", query), opt("#", fragment))
# URI-reference = URI / relative-ref
URI_reference = alt(URI, relative_ref)


# ---- RFC 3987 §2.2 ---------------------------------------------------------

# ucschar = %xA0-D7FF / %xF900-FDCF / %xFDF0-FFEF
#         / %x10000-1FFFD / %x20000-2FFFD / %x30000-3FFFD
#         / %x40000-4FFFD / %x50000-5FFFD / %x60000-6FFFD
#         / %x70000-7FFFD / %x80000-8FFFD / %x90000-9FFFD
#         / %xA0000-AFFFD / %xB0000-BFFFD / %xC0000-CFFFD
#         / %xD0000-DFFFD / %xE1000-EFFFD
ucschar = cps(
    (0xA0, 0xD7FF),
    (0xF900, 0xFDCF),
    (0xFDF0, 0xFFEF),
    *((plane << 16, (plane << 16) | 0xFFFD) for plane in range(0x1, 0xE)),
    (0xE1000, 0xEFFFD),
)
# iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD
iprivate = cps((0xE000, 0xF8FF), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))

# iunreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" / ucschar
iunreserved = alt(ALPHA, DIGIT, "-", ".", "_", "~", ucschar)
# ipchar = iunreserved / pct-encoded / sub-delims / ":" / "@"
ipchar = alt(iunreserved, pct_encoded, sub_delims, ":", "@")
# iquery = *( ipchar / iprivate / "/" / "?" )
iquery = rep(alt(ipchar, iprivate, "/", "?"))
# ifragment = *( ipchar / "/" / "?" )
ifragment = rep(alt(ipchar, "/", "?"))

# isegment = *ipchar
isegment = rep(ipchar)
# isegment-nz = 1*ipchar
isegment_nz = rep(ipchar, 1)
# isegment-nz-nc = 1*( iunreserved / pct-encoded / sub-delims / "@" )
isegment_nz_nc = rep(alt(iunreserved, pct_encoded, sub_delims, "@"), 1)

# ipath-abempty = *( "/" isegment )
ipath_abempty = rep(seq("/", isegment))
# ipath-absolute = "/" [ isegment-nz *( "/" isegment ) ]
ipath_absolute = seq("/", opt(isegment_nz, rep(seq("/", isegment))))
# ipath-noscheme = isegment-nz-nc *( "/" isegment )
ipath_noscheme = seq(isegment_nz_nc, rep(seq("/", isegment)))
# ipath-rootless = isegment-nz *( "/" isegment )
ipath_rootless = seq(isegment_nz, rep(seq("/", isegment)))
# ipath-empty = 0<ipchar>
ipath_empty = EMPTY
# ipath = ipath-abempty / ipath-absolute / ipath-noscheme / ipath-rootless / ipath-empty
ipath = alt(ipath_abempty, ipath_absolute, ipath_noscheme, ipath_rootless, ipath_empty)

# ireg-name = *( iunreserved / pct-encoded / sub-delims )
ireg_name = rep(alt(iunreserved, pct_encoded, sub_delims))
# ihost = IP-literal / IPv4address / ireg-name
# (IP-literal as RFC 6874 updates it, so that every URI stays an IRI)
ihost = alt(IP_literal, IPv4address, ireg_name)
# iuserinfo = *( iunreserved / pct-encoded / sub-delims / ":" )
iuserinfo = rep(alt(iunreserved, pct_encoded, sub_delims, ":"))
# iauthority = [ iuserinfo "@" ] ihost [ ":" port ]
iauthority = seq(opt(iuserinfo, "@"), ihost, opt(":", port))

# irelative-part = "//" iauthority ipath-abempty
#                / ipath-absolute
#                / ipath-noscheme
#                / ipath-empty
irelative_part = alt(
    seq("//", iauthority, ipath_abempty), ipath_absolute, ipath_noscheme, ipath_empty
)
# irelative-ref = irelative-part [ "?" iquery ] [ "#" ifragment ]
irelative_ref = seq(irelative_part, opt("?", iquery), opt("#", ifragment))
# ihier-part = "//" iauthority ipath-abempty
#            / ipath-absolute
#            / ipath-rootless
#            / ipath-empty
ihier_part = alt(seq("//", iauthority, ipath_abempty), ipath_absolute, ipath_rootless, ipath_empty)
# absolute-IRI = scheme ":" ihier-part [ "?" iquery ]
absolute_IRI = seq(scheme, ":", ihier_part, opt("?", iquery))
# IRI = scheme ":" ihier-part [ "?" iquery ] [ "#" ifragment ]
IRI = seq(scheme, ":", ihier_part, opt("?", iquery), opt("#", ifragment))
# IRI-reference = IRI / irelative-ref
IRI_reference = alt(IRI, irelative_ref)


_RULES_3986: dict[str, _Node] = {
    "URI": URI,
    "hier-part": hier_part,
    "URI-reference": URI_reference,
    "absolute-URI": absolute_URI,
    "relative-ref": relative_ref,
    "relative-part": relative_part,
    "scheme": scheme,
    "authority": authority,
    "userinfo": userinfo,
    "host": host,
    "port": port,
    "IP-literal": IP_literal,
    "IPvFuture": IPvFuture,
    "IPv6address": IPv6address,
    "h16": h16,
    "ls32": ls32,
    "IPv4address": IPv4address,
    "dec-octet": dec_octet,
    "reg-name": reg_name,
    "path": path,
    "path-abempty": path_abempty,
    "path-absolute": path_absolute,
    "path-noscheme": path_noscheme,
    "path-rootless": path_rootless,
    "path-empty": path_empty,
    "segment": segment,
    "segment-nz": segment_nz,
    "segment-nz-nc": segment_nz_nc,
    "pchar": pchar,
    "query": query,
    "fragment": fragment,
    "pct-encoded": pct_encoded,
    "unreserved": unreserved,
    "reserved": reserved,
    "gen-delims": gen_delims,
    "sub-delims": sub_delims,
    "ALPHA": ALPHA,
    "DIGIT": DIGIT,
    "HEXDIG": HEXDIG,
    # RFC 6874
    "IPv6addrz": IPv6addrz,
    "ZoneID": ZoneID,
    # RFC 3987
    "IRI": IRI,
    "ihier-part": ihier_part,
    "IRI-reference": IRI_reference,
    "absolute-IRI": absolute_IRI,
    "irelative-ref": irelative_ref,
    "irelative-part": irelative_part,
    "iauthority": iauthority,
    "iuserinfo": iuserinfo,
    "ihost": ihost,
    "ireg-name": ireg_name,
    "ipath": ipath,
    "ipath-abempty": ipath_abempty,
    "ipath-absolute": ipath_absolute,
    "ipath-noscheme": ipath_noscheme,
    "ipath-rootless": ipath_rootless,
    "ipath-empty": ipath_empty,
    "isegment": isegment,
    "isegment-nz": isegment_nz,
    "isegment-nz-nc": isegment_nz_nc,
    "ipchar": ipchar,
    "iquery": iquery,
    "ifragment": ifragment,
    "iunreserved": iunreserved,
    "ucschar": ucschar,
    "iprivate": iprivate,
}


# ---- RFC 2396 Appendix A ---------------------------------------------------
# (Quoted strings there stand for exactly the character written, §1.6.)


class _RFC2396:
    """The RFC 2396 grammar (its own names: several clash with RFC 3986's)."""

    # lowalpha = "a" | "b" | ... | "z"
    lowalpha = span("a", "z")
    # upalpha = "A" | "B" | ... | "Z"
    upalpha = span("A", "Z")
    # digit = "0" | "1" | ... | "9"
    digit = span("0", "9")
    # alpha = lowalpha | upalpha
    alpha = alt(lowalpha, upalpha)
    # alphanum = alpha | digit
    alphanum = alt(alpha, digit)
    # hex = digit | "A" | "B" | "C" | "D" | "E" | "F" |
    #               "a" | "b" | "c" | "d" | "e" | "f"
    hex = alt(digit, one_of("ABCDEF"), one_of("abcdef"))
    # escaped = "%" hex hex
    escaped = seq("%", hex, hex)
    # mark = "-" | "_" | "." | "!" | "~" | "*" | "'" | "(" | ")"
    mark = alt("-", "_", ".", "!", "~", "*", "'", "(", ")")
    # unreserved = alphanum | mark
    unreserved = alt(alphanum, mark)
    # reserved = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | ","
    reserved = alt(";", "/", "?", ":", "@", "&", "=", "+", "$", ",")
    # uric = reserved | unreserved | escaped
    uric = alt(reserved, unreserved, escaped)
    # fragment = *uric
    fragment = rep(uric)
    # query = *uric
    query = rep(uric)

    # pchar = unreserved | escaped | ":" | "@" | "&" | "=" | "+" | "$" | ","
    pchar = alt(unreserved, escaped, ":", "@", "&", "=", "+", "$", ",")
    # param = *pchar
    param = rep(pchar)
    # segment = *pchar *( ";" param )
    segment = seq(rep(pchar), rep(seq(";", param)))
    # path_segments = segment *( "/" segment )
    path_segments = seq(segment, rep(seq("/", segment)))

    # port = *digit
    port = rep(digit)
    # IPv4address = 1*digit "." 1*digit "." 1*digit "." 1*digit
    IPv4address = seq(rep(digit, 1), ".", rep(digit, 1), ".", rep(digit, 1), ".", rep(digit, 1))
    # toplabel = alpha | alpha *( alphanum | "-" ) alphanum
    toplabel = alt(alpha, seq(alpha, rep(alt(alphanum, "-")), alphanum))
    # domainlabel = alphanum | alphanum *( alphanum | "-" ) alphanum
    domainlabel = alt(alphanum, seq(alphanum, rep(alt(alphanum, "-")), alphanum))
    # hostname = *( domainlabel "." ) toplabel [ "." ]
    hostname = seq(rep(seq(domainlabel, ".")), toplabel, opt("."))
    # host = hostname | IPv4address
    host = alt(hostname, IPv4address)
    # hostport = host [ ":" port ]
    hostport = seq(host, opt(":", port))
    # userinfo = *( unreserved | escaped | ";" | ":" | "&" | "=" | "+" | "$" | "," )
    userinfo = rep(alt(unreserved, escaped, ";", ":", "&", "=", "+", "$", ","))
    # server = [ [ userinfo "@" ] hostport ]
    server = opt(opt(userinfo, "@"), hostport)
    # reg_name = 1*( unreserved | escaped | "$" | "," | ";" | ":" | "@" | "&" | "=" | "+" )
    reg_name = rep(alt(unreserved, escaped, "$", ",", ";", ":", "@", "&", "=", "+"), 1)
    # authority = server | reg_name
    authority = alt(server, reg_name)

    # scheme = alpha *( alpha | digit | "+" | "-" | "." )
    scheme = seq(alpha, rep(alt(alpha, digit, "+", "-", ".")))
    # rel_segment = 1*( unreserved | escaped | ";" | "@" | "&" | "=" | "+" | "$" | "," )
    rel_segment = rep(alt(unreserved, escaped, ";", "@", "&", "=", "+", "$", ","), 1)
    # abs_path = "/"  path_segments
    abs_path = seq("/", path_segments)
    # rel_path = rel_segment [ abs_path ]
    rel_path = seq(rel_segment, opt(abs_path))
    # net_path = "//" authority [ abs_path ]
    net_path = seq("//", authority, opt(abs_path))
    # uric_no_slash = unreserved | escaped | ";" | "?" | ":" | "@" |
    #                 "&" | "=" | "+" | "$" | ","
    uric_no_slash = alt(unreserved, escaped, ";", "?", ":", "@", "&", "=", "+", "$", ",")
    # opaque_part = uric_no_slash *uric
    opaque_part = seq(uric_no_slash, rep(uric))
    # path = [ abs_path | opaque_part ]
    path = opt(alt(abs_path, opaque_part))
    # hier_part = ( net_path | abs_path ) [ "?" query ]
    hier_part = seq(alt(net_path, abs_path), opt("?", query))
    # relativeURI = ( net_path | abs_path | rel_path ) [ "?" query ]
    relativeURI = seq(alt(net_path, abs_path, rel_path), opt("?", query))
    # absoluteURI = scheme ":" ( hier_part | opaque_part )
    absoluteURI = seq(scheme, ":", alt(hier_part, opaque_part))
    # URI-reference = [ absoluteURI | relativeURI ] [ "#" fragment ]
    URI_reference = seq(opt(alt(absoluteURI, relativeURI)), opt("#", fragment))


_RULES_2396: dict[str, _Node] = {
    name.replace("URI_reference", "URI-reference"): node
    for name, node in vars(_RFC2396).items()
    if isinstance(node, _Node)
}

RULES_3986: frozenset[str] = frozenset(_RULES_3986)
RULES_2396: frozenset[str] = frozenset(_RULES_2396)


# ---- engine 1: "does it match" (a regular expression) -----------------------


def _char(cp: int) -> str:
    """One code point, safe in and out of a character class."""
    if cp < 0x80 and chr(cp).isalnum():
        return chr(cp)
    return f"\\x{cp:02x}" if cp < 0x100 else f"\\u{cp:04x}" if cp < 0x10000 else f"\\U{cp:08x}"


def _complement(ranges: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The code points (up to U+10FFFF) outside sorted, disjoint ranges."""
    out, nxt = [], 0
    for lo, hi in ranges:
        if lo > nxt:
            out.append((nxt, lo - 1))
        nxt = hi + 1
    if nxt <= 0x10FFFF:
        out.append((nxt, 0x10FFFF))
    return out


def _regex(node: _Node) -> str:
    """``node`` as an ``re`` pattern, grouped so that it can be quantified."""
    if isinstance(node, _Chars):
        ranges: list[tuple[int, int]] = list(node.ranges)
        negate = ""
        if len(ranges) == 1 and ranges[0][0] == ranges[0][1]:
            return _char(ranges[0][0])
        if sum(min(hi, 0xFFFF) + 1 - lo for lo, hi in ranges if lo <= 0xFFFF) > 0x8000:
            # re compiles a class code point by code point: a large one
            # (ucschar) is cheaper written as what it leaves out.
            ranges, negate = _complement(ranges), "^"
        cls = "".join(_char(lo) if lo == hi else f"{_char(lo)}-{_char(hi)}" for lo, hi in ranges)
        return f"[{negate}{cls}]"
    if isinstance(node, _Seq):
        return "(?:" + "".join(map(_regex, node.items)) + ")"
    if isinstance(node, _Alt):
        return "(?:" + "|".join(map(_regex, node.items)) + ")"
    assert isinstance(node, _Rep)
    item = node.item
    if node.hi is None and node.lo <= 1 and isinstance(item, _Alt):
        # *( C / R ) as ( C* R )* C*: the same language, but a run of plain
        # characters is one single-character loop that re's backtracking
        # scans quickly for the literal that follows.  Backtracking stays
        # linear because R (here always a pct-encoded, or RFC 2396's escaped)
        # starts with "%", which C never holds.
        chars, rest = item.items[0], item.items[1:]
        if isinstance(chars, _Chars):
            c = _regex(chars)
            r = _regex(_Alt(rest)) if len(rest) > 1 else _regex(rest[0])
            star = f"(?:{c}*{r})*{c}*"
            return f"(?:{_regex(item)}{star})" if node.lo else f"(?:{star})"
    hi = "" if node.hi is None else str(node.hi)
    return f"(?:{_regex(item)}){{{node.lo},{hi}}}"


def _without_percent(node: _Node) -> _Node | None:
    """The part of ``node``'s language free of "%" (None: nothing is left).

    Most text has no "%"; its pattern then has no pct-encoded alternatives
    and every run of characters is a single-character loop.
    """
    if isinstance(node, _Chars):
        ranges = [r for lo, hi in node.ranges for r in ((lo, min(hi, 0x24)), (max(lo, 0x26), hi))]
        left = _Chars((lo, hi) for lo, hi in ranges if lo <= hi)
        return left if left.ranges else None
    if isinstance(node, _Seq):
        items = [_without_percent(item) for item in node.items]
        return None if None in items else _Seq(tuple(i for i in items if i is not None))
    if isinstance(node, _Alt):
        kept = [i for i in map(_without_percent, node.items) if i is not None]
        return alt(*kept) if kept else None
    assert isinstance(node, _Rep)
    item = _without_percent(node.item)
    if item is None:
        return EMPTY if node.lo == 0 else None
    return _Rep(item, node.lo, node.hi)


# ---- engine 2: "where does it go wrong" (a Glushkov automaton) ------------

_State = frozenset[int]
_Summary = tuple[bool, set[int], set[int]]  # (nullable, first, last) of a node


class _Automaton:
    """The Glushkov automaton of a rule, determinized as it is walked.

    Every character set of the expression is one *position*.  After reading
    a prefix, the state is the set of positions the prefix can end on; it is
    empty exactly when no string matching the rule starts with the prefix
    (no part of these grammars is an empty language, so every position lies
    on a path to a match).
    """

    def __init__(self, node: _Node) -> None:
        self.sets: list[_Chars] = []
        self.follow: list[set[int]] = []
        start = self._position(_Chars(()))
        nullable, first, last = self._walk(node)
        self.follow[start] = first
        self.start: _State = frozenset((start,))
        self.final = frozenset(last | ({start} if nullable else set()))
        # The alphabet: code point intervals on which every set agrees.
        cuts = {0}
        for chars in self.sets:
            for lo, hi in chars.ranges:
                cuts.update((lo, hi + 1))
        self.cuts = sorted(cuts)
        self.delta: dict[tuple[_State, int], _State] = {}

    def _position(self, chars: _Chars) -> int:
        self.sets.append(chars)
        self.follow.append(set())
        return len(self.sets) - 1

    def _walk(self, node: _Node) -> _Summary:
        if isinstance(node, _Chars):
            p = self._position(node)
            return False, {p}, {p}
        if isinstance(node, _Alt):
            parts = [self._walk(item) for item in node.items]
            return (
                any(n for n, _, _ in parts),
                set().union(*(f for _, f, _ in parts)),
                set().union(*(lasts for _, _, lasts in parts)),
            )
        if isinstance(node, _Seq):
            return self._concat(self._walk(item) for item in node.items)
        assert isinstance(node, _Rep)
        item = node.item
        required = (self._walk(item) for _ in range(node.lo))
        more: Iterator[_Summary]
        if node.hi is None:
            more = (self._star(item) for _ in range(1))
        else:
            more = (self._optional(item) for _ in range(node.hi - node.lo))
        return self._concat(itertools.chain(required, more))

    def _concat(self, parts: Iterable[_Summary]) -> _Summary:
        nullable = True
        first: set[int] = set()
        last: set[int] = set()
        for n, f, lasts in parts:
            for p in last:
                self.follow[p] |= f
            if nullable:
                first |= f
            last = (last | lasts) if n else set(lasts)
            nullable = nullable and n
        return nullable, first, last

    def _star(self, item: _Node) -> _Summary:
        _, f, lasts = self._walk(item)
        for p in lasts:
            self.follow[p] |= f
        return True, f, lasts

    def _optional(self, item: _Node) -> _Summary:
        _, f, lasts = self._walk(item)
        return True, f, lasts

    def step(self, state: _State, ch: str) -> _State:
        cp = ord(ch)
        cut = self.cuts[bisect.bisect_right(self.cuts, cp) - 1]
        key = (state, cut)
        nxt = self.delta.get(key)
        if nxt is None:
            nxt = frozenset(q for p in state for q in self.follow[p] if cut in self.sets[q])
            self.delta[key] = nxt
        return nxt

    def error_position(self, s: str) -> int | None:
        """None when ``s`` matches, else the length of its longest viable prefix."""
        state = self.start
        for i, ch in enumerate(s):
            state = self.step(state, ch)
            if not state:
                return i
        return None if state & self.final else len(s)


# ---- the public functions ----------------------------------------------------

_GRAMMARS = {3986: _RULES_3986, 2396: _RULES_2396}
_patterns: dict[tuple[int, str, bool], re.Pattern[str]] = {}
_automata: dict[tuple[int, str], _Automaton] = {}


def _key(func: str, s: object, rule: object, rfc: object) -> tuple[int, str]:
    if not isinstance(s, str):
        raise type_error(func, "s", s)
    if not isinstance(rule, str):
        raise type_error(func, "rule", rule)
    number = rfc_number(func, rfc)
    if rule not in _GRAMMARS[number]:
        raise ValueError(f"unknown rule {rule!r} for RFC {number}")
    return number, rule


def _pattern(key: tuple[int, str], s: str) -> re.Pattern[str]:
    """The compiled rule; a lighter one for text without "%"."""
    plain = "%" not in s
    pattern = _patterns.get((*key, plain))
    if pattern is None:
        node = _GRAMMARS[key[0]][key[1]]
        part = _without_percent(node) if plain else node
        # "(?!)" never matches: the rule needs a "%" somewhere.
        pattern = re.compile("(?!)" if part is None else _regex(part))
        _patterns[(*key, plain)] = pattern
    return pattern


def _automaton(key: tuple[int, str]) -> _Automaton:
    automaton = _automata.get(key)
    if automaton is None:
        automaton = _automata[key] = _Automaton(_GRAMMARS[key[0]][key[1]])
    return automaton


def is_valid(s: str, rule: str = "URI-reference", *, rfc: int = 3986) -> bool:
    """Whether ``s`` matches the ABNF ``rule`` (RFC 3986 Appendix A, RFC 3987 §2.2;
    RFC 2396 Appendix A with ``rfc=2396``)."""
    return _pattern(_key("is_valid", s, rule, rfc), s).fullmatch(s) is not None


def validate(s: str, rule: str = "URI-reference", *, rfc: int = 3986) -> str:
    """Return ``s`` if it matches ``rule`` (as ``is_valid``), else raise ``InvalidURI``.

    The error's ``position`` is the length of the longest prefix of ``s`` that
    some string matching the rule starts with.
    """
    key = _key("validate", s, rule, rfc)
    if _pattern(key, s).fullmatch(s) is not None:
        return s
    p = _automaton(key).error_position(s)
    assert p is not None, "the two engines disagree"
    if p == len(s):
        raise InvalidURI(f"invalid {rule}: unexpected end at position {p}", p, rule)
    raise InvalidURI(f"invalid {rule} at position {p}: {s[p]!r}", p, rule)


def host_type(host: str) -> str | None:
    """What a host is (RFC 3986 §3.2.2): "IPv6" or "IPvFuture" for an
    IP-literal (RFC 6874 zone IDs allowed), "IPv4", "reg-name", or None."""
    if not isinstance(host, str):
        raise type_error("host_type", "host", host)
    if _pattern((3986, "IP-literal"), host).fullmatch(host):
        return "IPvFuture" if host[1] in "vV" else "IPv6"
    if _pattern((3986, "IPv4address"), host).fullmatch(host):
        return "IPv4"
    if _pattern((3986, "reg-name"), host).fullmatch(host):
        return "reg-name"
    return None
