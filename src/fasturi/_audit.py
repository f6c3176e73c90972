"""RFC 3986 §7 hazards in a URI reference.

Plain Python over the active split and ABNF twins; a valid reference is
first scoped (``_scope``), so that the costly checks (the host as three
parsers read it) run only where they could find something.  Each check
reports at most one finding per component (the first occurrence, its
position in the text, and how many there are), so a hostile URI with
thousands of escapes still gives a short list.
"""

from __future__ import annotations

import functools
import re
import unicodedata
import urllib.parse
from typing import List, Optional, Tuple

from ._errors import type_error
from ._impl import core, rules, whatwg
from ._types import Finding, InvalidURI, InvalidURL, Split

__all__ = ["audit"]

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


def audit(s: str) -> list[Finding]:
    """The RFC 3986 §7 hazards present in ``s``; empty for a clean URI.

    Findings come in this order of codes: ``invalid`` (§4.1),
    ``control-character``, ``password-in-userinfo`` (§7.5),
    ``userinfo-looks-like-host`` (§7.6), ``host-differs`` (§7.6: RFC
    3986, the WHATWG URL Standard and ``urllib.parse`` read different
    hosts), ``ambiguous-ipv4`` (§7.4), ``encoded-delimiter`` and
    ``encoded-dot-segment`` (§7.3).
    """
    if not isinstance(s, str):
        raise type_error("audit", "s", s)
    findings: list[Finding] = []
    parts = core.split(s)
    valid = _check_invalid(s, findings)
    scope = _scope(s, parts) if valid else _ALL
    if scope == _NOTHING:
        return findings
    _check_controls(s, not valid, findings)
    path_start = _path_start(parts)
    if scope == _ALL:
        # (where the authority begins: read only where there is one)
        _check_authority(s, parts, path_start - len(parts.authority or ""), findings)
    _check_encoded_delimiters("path", parts.path, path_start, findings)
    _check_dot_segments(parts.path, path_start, findings)
    return findings


def _path_start(parts: Split) -> int:
    """Where the path of the reference split into ``parts`` begins."""
    start = 0 if parts.scheme is None else len(parts.scheme) + 1
    return start if parts.authority is None else start + 2 + len(parts.authority)


def _check_authority(s: str, parts: Split, authority_start: int, findings: list[Finding]) -> None:
    host: Optional[str] = None
    if parts.authority is not None:
        userinfo, host, _ = core.split_authority(parts.authority)
        if userinfo is not None:
            _check_password(userinfo, authority_start, findings)
            _check_userinfo_host(userinfo, host, authority_start, findings)
    if parts.scheme is not None:
        _check_host_differs(s, parts.scheme.lower() == "file", host, findings)
    if parts.authority is not None:
        assert host is not None
        _check_ipv4(host, findings)
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


def _scope(s: str, parts: Split) -> int:
    """What ``audit`` could find in ``s``, a valid URI reference split into
    ``parts``: ``_ALL`` where a finding about the authority or the host is
    possible, else ``_ESCAPES`` where a percent-encoded control is, or an
    encoded delimiter or "." in the path, else ``_NOTHING``.

    The authority's findings each need a "%", "@" or an IPvFuture ("[v",
    which urllib.parse reads without its brackets) in it, or a host that
    inet_aton() could read as a number but is no dotted-decimal IPv4address,
    or a file URL's ":" (a drive letter to the URL Standard); RFC 3986, the URL Standard and urllib.parse read one host
    from any other authority, and no host without one, except the URL
    Standard under a special scheme ("http:x", "http:///x").  The
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
        or (
            _NUMBERS.fullmatch(authority.partition(":")[0]) is not None
            and rules.host_type(authority.partition(":")[0]) != "IPv4"
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


def _check_invalid(s: str, findings: list[Finding]) -> bool:
    """Whether ``s`` is a valid URI reference (else the finding)."""
    try:
        rules.validate(s, "URI-reference")
    except InvalidURI as exc:
        p = exc.position
        if p < len(s):
            what = f"the character {s[p]!r} at position {p} is not allowed there"
        else:
            what = f"it ends too early, at position {p}"
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


def _check_userinfo_host(userinfo: str, host: str, start: int, findings: list[Finding]) -> None:
    decoded = core.percent_decode(userinfo, errors="replace")
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
            f"The userinfo at position {start} begins with {name!r}, which looks like a host,"
            f" but the host is {host!r}; a reader may mistake which one the URI names.",
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
    s: str, is_file: bool, rfc3986_host: Optional[str], findings: list[Finding]
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
        answers.append(("the WHATWG URL Standard", whatwg.parse(s).hostname or None))
    except InvalidURL:
        pass
    try:
        answers.append(("urllib.parse", urllib.parse.urlsplit(s).hostname or None))
    except ValueError:
        pass
    # (each host read once: the parsers mostly read the same one)
    keys = {_host_key(host) for host in {host for _, host in answers}}
    if is_file and "localhost" in keys:
        keys = {None if key == "localhost" else key for key in keys}
    if len(keys) < 2:
        return
    said = ", ".join(
        f"{name} {'reads no host' if host is None else f'reads the host {host!r}'}"
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
def _host_key(host: Optional[str]) -> Optional[str]:
    """The host as the URL Standard's host parser reads it (as a special
    URL's), or as written, lowercased, where it fails."""
    if host is None:
        return None
    if ":" in host and not host.startswith("["):  # urllib.parse drops the brackets
        host = f"[{host}]"
    try:
        return whatwg.host_parse(host)
    except InvalidURL:
        return host.lower()


def _check_ipv4(host: str, findings: list[Finding]) -> None:
    if host.startswith("[") or rules.host_type(host) == "IPv4":
        return
    text = host
    if "%" in text:
        text = core.percent_decode(text, errors="replace")
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
            f"The host {host!r} is not a dotted-decimal IPv4 address, but resolvers that accept"
            f" octal, hexadecimal, integer or short dotted forms read it as {dotted}.",
        )
    )


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
        f"The {component} contains {escape} (an encoded {char!r}) at position"
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
        f"The path segment {segment!r} at position {at}{_also(count)} decodes to the dot"
        f" segment {dot_segment!r}; a back end that decodes before removing dot segments may"
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


def _escape_facts(s: str) -> Optional[EscapeFacts]:
    """The facts of ``audit(s)`` where ``s`` is a valid URI reference of
    scope ``_ESCAPES``, else None: the reference of the compiled kernels'."""
    if not rules.is_valid(s):
        return None
    parts = core.split(s)
    if _scope(s, parts) != _ESCAPES:
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
