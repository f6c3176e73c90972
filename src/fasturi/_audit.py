"""RFC 3986 §7 hazards in a URI reference.

Plain Python over one implementation's split, ABNF and URL Standard twins,
which the caller hands in (``Parsers``): ``fasturi.audit`` the running
ones, the reference column kernels the reference ones; this module imports
no twin and does not choose one.  A valid reference is first scoped
(``_scope``), so that the costly checks (the host as three parsers read it)
run only where they could find something.  Each check
reports at most one finding per component (the first occurrence, its
position in the text, and how many there are), so a hostile URI with
thousands of escapes still gives a short list.
"""

from __future__ import annotations

import functools
import ipaddress
import re
import unicodedata
import urllib.parse
from types import ModuleType
from typing import Callable, List, NamedTuple, Optional, Tuple

from ._errors import type_error
from ._types import Finding, InvalidURI, InvalidURL, Split

__all__ = ["Parsers", "audit"]


class Parsers(NamedTuple):
    """The twins a reference is read with: ``core`` (split, percent codec),
    ``rules`` (the ABNF), and ``whatwg``, which gives the URL Standard's
    (imported when a check first needs it: with it come the IDNA tables)."""

    core: ModuleType
    rules: ModuleType
    whatwg: Callable[[], ModuleType]


# CTL = %x00-1F / %x7F (RFC 5234 B.1), raw or percent-encoded.
_RAW_CONTROL = re.compile("[\x00-\x1f\x7f]")
_ENCODED_CONTROL = re.compile("%(?:[01][0-9A-Fa-f]|7[Ff])")

# gen-delims = ":" / "/" / "?" / "#" / "[" / "]" / "@" (§2.2), plus "\",
# which §7.3 names among the characters file systems give a meaning to.
_ENCODED_DELIMITER = re.compile("%(?:3[AaFf]|2[Ff]|23|5[BbCcDd]|40)")

# §7.3: what a back end that decodes too early turns into "." or "/".
_ENCODED_DOT_OR_SLASH = re.compile("%(?:2[EeFf]|5[Cc])")
_DECODED = {"2e": ".", "2f": "/", "5c": "\\"}

# §7.4: one dotted part as C reads a number: hexadecimal after 0x,
# octal after a leading 0, decimal otherwise.
_C_NUMBER = re.compile("0[xX][0-9A-Fa-f]*|0[0-7]*|[1-9][0-9]*")
# Full stops that IDNA mapping (UTS #46) turns into ".".
_IDEOGRAPHIC_STOPS = str.maketrans({"\u3002": ".", "\uff0e": ".", "\uff61": "."})

# A host name as people read one: LDH labels, the last alphabetic (a TLD).
_HOST_NAME = re.compile(
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+([A-Za-z]{2,}|xn--[A-Za-z0-9-]+)\.?"
)
_LEADING_NAME = re.compile("[A-Za-z0-9.-]*")
# Two labels pass for a host name when the last is a top-level domain a
# reader knows: any two letters (country codes), IDNA, or one of these;
# "john.doe" stays a user name, "paypal.com" does not.
_TLD_WORDS = (
    "com net org edu gov mil int info biz name pro mobi app dev io cloud online site xyz top"
    " shop example test invalid localhost local internal corp home lan arpa"
)
_KNOWN_TLDS = frozenset(_TLD_WORDS.split())


def audit(p: Parsers, s: str) -> list[Finding]:
    """``fasturi.audit(s)`` (whose docstring lists the codes), read with ``p``."""
    if not isinstance(s, str):
        raise type_error("audit", "s", s)
    findings: list[Finding] = []
    parts = p.core.split(s)
    valid = _check_invalid(p, s, findings)
    scope = _scope(p, s, parts) if valid else _ALL
    if scope == _NOTHING:
        return findings
    _check_controls(s, not valid, findings)
    path_start = _path_start(parts)
    if scope == _ALL:
        # (where the authority begins: read only where there is one)
        _check_authority(p, s, parts, path_start - len(parts.authority or ""), findings)
    _check_encoded_delimiters("path", parts.path, path_start, findings)
    _check_dot_segments(parts.path, path_start, findings)
    return findings


def _path_start(parts: Split) -> int:
    """Where the path of the reference split into ``parts`` begins."""
    start = 0 if parts.scheme is None else len(parts.scheme) + 1
    return start if parts.authority is None else start + 2 + len(parts.authority)


def _check_authority(
    p: Parsers, s: str, parts: Split, authority_start: int, findings: list[Finding]
) -> None:
    host: Optional[str] = None
    if parts.authority is not None:
        userinfo, host, _ = p.core.split_authority(parts.authority)
        if userinfo is not None:
            _check_password(userinfo, authority_start, findings)
            _check_userinfo_host(p, userinfo, host, authority_start, findings)
    if parts.scheme is not None:
        _check_host_differs(p, s, parts.scheme.lower() == "file", host, findings)
    if parts.authority is not None:
        assert host is not None
        _check_idna_mapped(p, host, findings)
        _check_ipv4(p, host, findings)
        _check_ipv4_mapped(host, findings)
        _check_encoded_delimiters("authority", parts.authority, authority_start, findings)


# What audit() could find in a valid URI reference (_scope).
_NOTHING, _ESCAPES, _ALL = 0, 1, 2
# Schemes whose URLs the URL Standard gives a host however few slashes
# follow ("http:x" reads the host "x"); file's host stays empty.
_SPECIAL_SCHEMES = frozenset(("http", "https", "ws", "wss", "ftp"))
# What inet_aton() could read as a number (_C_NUMBER's, and its dots).
_NUMBERS = re.compile("[0-9][0-9A-Fa-fXx.]*")
# In a path: an encoded delimiter, or an encoded "." (a dot segment's part).
_PATH_ESCAPE = re.compile("%(?:2[3EeFf]|3[AaFf]|40|5[BbCcDd])")


def _scope(p: Parsers, s: str, parts: Split) -> int:
    """What ``audit`` could find in ``s``, a valid URI reference split into
    ``parts``: ``_ALL`` where a finding about the authority or the host is
    possible, else ``_ESCAPES`` where a percent-encoded control is, or an
    encoded delimiter or "." in the path, else ``_NOTHING``.

    The authority's findings each need a "%", "@" or an IPvFuture ("[v",
    which urllib.parse reads without its brackets) in it, an IP-literal
    with "ffff" (an IPv4-mapped address has it), or a host that inet_aton()
    could read as a number but is no dotted-decimal IPv4address, or a file
    URL's ":" (a drive letter to the URL Standard); RFC 3986, the URL
    Standard and urllib.parse read one host from any other authority, and no
    host without one, except the URL Standard under a special scheme
    ("http:x", "http:///x"); and a host beyond ASCII, which IDNA could map
    to another name, makes the reference invalid.  The
    command line's block path runs ``audit`` only on the rows this is not
    ``_NOTHING`` for (csrc/fasturi_cli.h: fu_audit_scope, the same test over
    UTF-8 bytes), and on those it is ``_ESCAPES`` for only writes the
    findings of the facts the kernels found (``_escape_findings``).
    """
    authority = parts.authority
    scheme = None if parts.scheme is None else parts.scheme.lower()
    if authority is not None and (
        "%" in authority
        or "@" in authority
        or "[v" in authority.lower()
        or (authority.startswith("[") and "ffff" in authority.lower())
        or (
            _NUMBERS.fullmatch(authority.partition(":")[0]) is not None
            and p.rules.host_type(authority.partition(":")[0]) != "IPv4"
        )
        # the URL Standard reads "file://c:/" as a drive letter, no host
        or (scheme == "file" and ":" in authority)
    ):
        return _ALL
    if not authority and scheme in _SPECIAL_SCHEMES:
        return _ALL
    if _ENCODED_CONTROL.search(s) or _PATH_ESCAPE.search(parts.path):
        return _ESCAPES
    return _NOTHING


def _also(count: int) -> str:
    return "" if count == 1 else f" (and {count - 1} more)"


def _check_invalid(p: Parsers, s: str, findings: list[Finding]) -> bool:
    """Whether ``s`` is a valid URI reference (else the finding)."""
    try:
        p.rules.validate(s, "URI-reference")
    except InvalidURI as exc:
        at = exc.position
        if at < len(s):
            what = f"the character {_quoted(s[at])} at position {at} is not allowed there"
        else:
            what = f"it ends too early, at position {at}"
        findings.append(
            Finding("invalid", "4.1", f"The text is not a valid URI reference: {what}.")
        )
        return False
    return True


def _check_controls(s: str, raw_too: bool, findings: list[Finding]) -> None:
    # raw_too: where s is valid, it has none raw.  (Each kind is sought once
    # where s has none, as nearly every URI: what precedes the first one is
    # not scanned again.)
    raw = _RAW_CONTROL.search(s) if raw_too and not s.isprintable() else None
    if raw:
        p = raw.start()
        count = len(_RAW_CONTROL.findall(s, p))
        findings.append(
            Finding(
                "control-character",
                "7.3",
                f"The control character U+{ord(s[p]):04X} appears at position {p}{_also(count)};"
                " control characters are not allowed in a URI and a protocol may act on them.",
            )
        )
    found = _first(_ENCODED_CONTROL, s)
    if found:
        findings.append(_encoded_control(s, *found))


def _first(pattern: re.Pattern[str], text: str) -> Optional[Tuple[int, int]]:
    """Where ``pattern`` first matches ``text``, and how many times it does."""
    m = pattern.search(text) if "%" in text else None
    return (m.start(), len(pattern.findall(text, m.start()))) if m else None


def _encoded_control(s: str, at: int, count: int) -> Finding:
    return Finding(
        "control-character",
        "7.3",
        f"The percent-encoded control character {s[at : at + 3]} appears at position"
        f" {at}{_also(count)}; decoding it yields a raw control"
        " character that a back end may act on.",
    )


def _check_password(userinfo: str, start: int, findings: list[Finding]) -> None:
    # §3.2.1: the password is what follows the first ":".  The message never
    # repeats it.
    colon = userinfo.find(":")
    if colon < 0:
        return
    kind = "an empty password" if colon == len(userinfo) - 1 else "a password"
    findings.append(
        Finding(
            "password-in-userinfo",
            "7.5",
            f"The userinfo has {kind} after the ':' at position {start + colon}; passwords"
            " in URIs are deprecated because URIs are displayed and logged in clear text.",
        )
    )


def _check_userinfo_host(
    p: Parsers, userinfo: str, host: str, start: int, findings: list[Finding]
) -> None:
    decoded = p.core.percent_decode(userinfo, errors="replace")
    name = _LEADING_NAME.match(decoded).group()  # type: ignore[union-attr]
    if not (
        _looks_like_host_name(name)
        or name.lower() == "localhost"
        or ("." in name and _inet_aton(name) is not None)
    ):
        return
    findings.append(
        Finding(
            "userinfo-looks-like-host",
            "7.6",
            f"The userinfo at position {start} begins with {_quoted(name)}, which looks like a"
            f" host, but the host is {_quoted(host)}; a reader may mistake which one the URI"
            " names.",
        )
    )


def _looks_like_host_name(name: str) -> bool:
    m = _HOST_NAME.fullmatch(name)
    if m is None:
        return False
    tld = m.group(1).lower()
    labels = name.rstrip(".").count(".") + 1
    return labels >= 3 or len(tld) == 2 or tld.startswith("xn--") or tld in _KNOWN_TLDS


def _check_host_differs(
    p: Parsers, s: str, is_file: bool, rfc3986_host: Optional[str], findings: list[Finding]
) -> None:
    """Which host each parser reads: RFC 3986 (Appendix B and §3.2.2), the
    WHATWG URL Standard (what browsers and browser-like clients connect
    to) and this Python's urllib.parse.  Hosts are compared as the URL
    Standard's host parser reads them (case, percent-encoding, IDNA and IPv4
    number forms aside: those are the same host, and so are "localhost" and
    no host in a file URL, as the URL Standard's file host state has it); a
    parser that rejects the URL gives no answer, and "no host" is one."""
    answers: List[Tuple[str, Optional[str]]] = [("RFC 3986", rfc3986_host or None)]
    try:
        answers.append(("the WHATWG URL Standard", p.whatwg().parse(s).hostname or None))
    except InvalidURL:
        pass
    try:
        answers.append(("urllib.parse", urllib.parse.urlsplit(s).hostname or None))
    except ValueError:
        pass
    # (each host read once: the parsers mostly read the same one)
    keys = {_host_key(p, host) for host in {host for _, host in answers}}
    if is_file and "localhost" in keys:
        keys = {None if key == "localhost" else key for key in keys}
    if len(keys) < 2:
        return
    said = ", ".join(
        f"{name} {'reads no host' if host is None else f'reads the host {_quoted(host)}'}"
        for name, host in answers
    )
    findings.append(
        Finding(
            "host-differs",
            "7.6",
            f"Parsers disagree on the host: {said}; a check made with one parser and a request"
            " made with another reach different hosts.",
        )
    )


# (hosts repeat from line to line, and their parse is a costly one)
@functools.lru_cache(maxsize=1 << 10)
def _host_key(p: Parsers, host: Optional[str]) -> Optional[str]:
    """The host as the URL Standard's host parser reads it (as a special
    URL's), or as written, lowercased, where it fails."""
    if host is None:
        return None
    if ":" in host and not host.startswith("["):  # urllib.parse drops the brackets
        host = f"[{host}]"
    try:
        return p.whatwg().host_parse(host)  # type: ignore[no-any-return]
    except InvalidURL:
        return host.lower()


def _check_ipv4(p: Parsers, host: str, findings: list[Finding]) -> None:
    if host.startswith("[") or p.rules.host_type(host) == "IPv4":
        return
    text = host
    if "%" in text:
        text = p.core.percent_decode(text, errors="replace")
    if not text.isascii():
        # Host parsers map compatibility forms (fullwidth digits, ideographic
        # full stops) before they read an address.
        text = unicodedata.normalize("NFKC", text).translate(_IDEOGRAPHIC_STOPS)
    address = _inet_aton(text)
    if address is None:
        return
    dotted = ".".join(str(address >> shift & 0xFF) for shift in (24, 16, 8, 0))
    findings.append(
        Finding(
            "ambiguous-ipv4",
            "7.4",
            f"The host {_quoted(host)} is not a dotted-decimal IPv4 address, but resolvers that"
            " accept"
            f" octal, hexadecimal, integer or short dotted forms read it as {dotted}.",
        )
    )


def _check_idna_mapped(p: Parsers, host: str, findings: list[Finding]) -> None:
    """A host beyond ASCII that the URL Standard's domain to ASCII (UTS #46
    mapping: compatibility forms, full stops, characters it ignores, case)
    turns into another name than its own text spells: what browsers reach
    is that name ("ⓖⓞⓞⓖⓛⓔ.com" is "google.com").  A name spelled in
    Unicode that only becomes its A-labels ("bücher.de") is no finding."""
    if host.startswith("["):
        return
    text = p.core.percent_decode(host, errors="replace") if "%" in host else host
    if text.isascii():  # mapped by case alone (and xn-- labels are as written)
        return
    try:
        name = p.whatwg().host_parse(text)
    except InvalidURL:  # browsers reach nothing: no other name
        return
    if p.rules.host_type(name) == "IPv4":  # a number: ambiguous-ipv4's
        return
    spelled = []
    for label in text.split("."):
        label = label.lower()
        try:
            spelled.append(label if label.isascii() else "xn--" + label.encode("punycode").decode())
        except UnicodeError:
            return
    if ".".join(spelled) == name:
        return
    findings.append(
        Finding(
            "idna-mapped-host",
            "7.6",
            f"The host {_quoted(host)} is not the name it spells: IDNA mapping (UTS #46, as the URL"
            f" Standard and browsers apply it) makes it {_quoted(_unicode_name(name))}; a check"
            " made on the text as written and a request made by a browser reach different"
            " names.",
        )
    )


def _unicode_name(name: str) -> str:
    """``name`` with each A-label (xn--) shown as its Unicode label."""
    labels = []
    for label in name.split("."):
        if label.startswith("xn--"):
            try:
                label = label[4:].encode("ascii").decode("punycode")
            except UnicodeError:
                pass
        labels.append(label)
    return ".".join(labels)


def _check_ipv4_mapped(host: str, findings: list[Finding]) -> None:
    """An IPv4-mapped IPv6 address (RFC 4291 §2.5.5.2, ::ffff:0:0/96): a
    connection to it reaches the IPv4 address in its last 32 bits, which a
    check of IPv4 addresses alone (a loopback or private range) does not
    see."""
    if not (host.startswith("[") and "ffff" in host.lower()):
        return
    literal = host[1:].removesuffix("]").partition("%")[0]  # (RFC 6874 zone ID)
    try:
        address = ipaddress.IPv6Address(literal).ipv4_mapped
    except ValueError:  # an IPvFuture, or not an address
        return
    if address is None:
        return
    findings.append(
        Finding(
            "ipv4-mapped-ipv6",
            "7.4",
            f"The host {_quoted(host)} is an IPv4-mapped IPv6 address (RFC 4291 §2.5.5.2): a"
            f" connection to it reaches the IPv4 address {address}{_ipv4_kind(address)}, which"
            " a check of IPv4 addresses alone does not see.",
        )
    )


def _ipv4_kind(address: ipaddress.IPv4Address) -> str:
    for kind, yes in (
        ("loopback", address.is_loopback),
        ("unspecified: this host", address.is_unspecified),
        ("link-local, where cloud metadata services listen", address.is_link_local),
        ("private", address.is_private),
        ("multicast", address.is_multicast),
        ("reserved", address.is_reserved),
    ):
        if yes:
            return f" ({kind})"
    return ""


def _inet_aton(text: str) -> Optional[int]:
    """The address the C library's inet_aton() reads from ``text`` (§7.4).

    One to four dotted parts, each decimal, octal (leading 0) or hexadecimal
    (leading 0x); the last part fills the bytes the others leave.  One
    trailing dot is accepted, as URL host parsers do.
    """
    text = text.removesuffix(".")
    parts = text.split(".")
    if len(parts) > 4:
        return None
    values = []
    for part in parts:
        if not _C_NUMBER.fullmatch(part):
            return None
        if part[:2] in ("0x", "0X"):
            digits, base = part[2:], 16
        elif part.startswith("0"):
            digits, base = part, 8
        else:
            digits, base = part, 10
        digits = digits.lstrip("0")
        if len(digits) > 11:  # beyond 32 bits in any base, and keeps int() cheap
            return None
        values.append(int(digits or "0", base))
    *leading, last = values
    if any(v > 0xFF for v in leading) or last >= 1 << 8 * (4 - len(leading)):
        return None
    address = last
    for i, v in enumerate(leading):
        address |= v << 8 * (3 - i)
    return address


def _quoted(text: str) -> str:
    """``text`` in single quotes for a message, each character that is not
    printable as \\xHH, \\uHHHH or \\UHHHHHHHH; not ``repr()``, whose
    doubled backslashes the command line's TSV would escape again."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return f"'{text}'"


def _check_encoded_delimiters(
    component: str, text: str, start: int, findings: list[Finding]
) -> None:
    found = _first(_ENCODED_DELIMITER, text)
    if found:
        at, count = found
        findings.append(_encoded_delimiter(component, text[at : at + 3], start + at, count))


def _encoded_delimiter(component: str, escape: str, at: int, count: int) -> Finding:
    char = chr(int(escape[1:], 16))
    return Finding(
        "encoded-delimiter",
        "7.3",
        f"The {component} contains {escape} (an encoded {_quoted(char)}) at position"
        f" {at}{_also(count)}; a back end that decodes before"
        " splitting may take it for a delimiter.",
    )


def _check_dot_segments(path: str, start: int, findings: list[Finding]) -> None:
    found = _dot_segments(path)
    if found:
        at, segment, dot_segment, count = found
        findings.append(_encoded_dot_segment(segment, start + at, dot_segment, count))


def _dot_segments(path: str) -> Optional[Tuple[int, str, str, int]]:
    """The path segments that decode to a dot segment: the first one's
    offset in ``path``, its text and dot segment, and how many there are."""
    hits = []
    offset = 0
    for segment in path.split("/"):
        if "%" in segment:
            decoded = _ENCODED_DOT_OR_SLASH.sub(lambda m: _DECODED[m.group()[1:].lower()], segment)
            pieces = re.split(r"[/\\]", decoded)
            dots = [p for p in pieces if p in (".", "..")]
            if dots:
                hits.append((offset, segment, dots[0]))
        offset += len(segment) + 1
    return (*hits[0], len(hits)) if hits else None


def _encoded_dot_segment(segment: str, at: int, dot_segment: str, count: int) -> Finding:
    return Finding(
        "encoded-dot-segment",
        "7.3",
        f"The path segment {_quoted(segment)} at position {at}{_also(count)} decodes to the dot"
        f" segment {_quoted(dot_segment)}; a back end that decodes before removing dot segments may"
        " reach outside the intended directory.",
    )


# ---- the command line's share of the work ----------------------------------------
# Its block path has the compiled kernels find, for a line whose scope is
# _ESCAPES (nearly every line with a finding, in logs), the facts of its
# findings (csrc/fasturi_cli.h: fu_audit_escapes); only the messages are
# written here, by the functions audit() writes them with.

# (control_at, controls, delimiter_at, delimiters, segment_at, segment_end,
# segments, dots): where the first of each kind is, and how many there are
# (0: none); a dot segment's kind is its length, 1 or 2.
EscapeFacts = Tuple[int, int, int, int, int, int, int, int]


def _escape_facts(p: Parsers, s: str) -> Optional[EscapeFacts]:
    """The facts of ``audit(s)`` where ``s`` is a valid URI reference of
    scope ``_ESCAPES``, else None: the reference of the compiled kernels'."""
    if not p.rules.is_valid(s):
        return None
    parts = p.core.split(s)
    if _scope(p, s, parts) != _ESCAPES:
        return None
    path_start = _path_start(parts)
    control = _first(_ENCODED_CONTROL, s) or (0, 0)
    delimiter = _first(_ENCODED_DELIMITER, parts.path)
    if delimiter:
        delimiter = (path_start + delimiter[0], delimiter[1])
    dots = _dot_segments(parts.path)
    segment = (0, 0, 0, 0)
    if dots:
        offset, text, dot_segment, count = dots
        segment = (path_start + offset, path_start + offset + len(text), count, len(dot_segment))
    return (*control, *(delimiter or (0, 0)), *segment)


def _escape_findings(s: str, facts: EscapeFacts) -> list[Finding]:
    """``audit(s)`` from the facts ``_escape_facts(s)`` gives."""
    control_at, controls, delimiter_at, delimiters, segment_at, segment_end, segments, dots = facts
    findings: list[Finding] = []
    if controls:
        findings.append(_encoded_control(s, control_at, controls))
    if delimiters:
        escape = s[delimiter_at : delimiter_at + 3]
        findings.append(_encoded_delimiter("path", escape, delimiter_at, delimiters))
    if segments:
        segment = s[segment_at:segment_end]
        findings.append(_encoded_dot_segment(segment, segment_at, "." * dots, segments))
    return findings
