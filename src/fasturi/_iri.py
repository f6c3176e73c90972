"""IRI <-> URI conversion (RFC 3987 §3.1 and §3.2).

``iri_to_uri`` follows §3.1: no normalization (step 1 variant c: the input
is already Unicode text); every ``ucschar`` or ``iprivate`` character
becomes the ``%HH`` triplets of its UTF-8 octets (uppercase hex); so do the
ASCII characters a URI cannot hold (controls, space and ``<>"{}|\\^```, the
conversion §3.1 allows), while ``%``, ``#``, ``[``, ``]`` and everything a
URI allows stay as they are, so the mapping is the identity on URIs and
idempotent.  A reg-name host with non-ASCII labels is converted, label by
label, to IDNA A-labels (§3.1's ToASCII option, done with IDNA2008 and the
UTS #46 mapping of the ``idna`` package); a host that is not a DNS name
(IDNA refuses one of its labels, or it holds ``%`` or sub-delims) gets the
plain UTF-8 percent-encoding instead.

``uri_to_iri`` follows §3.2: percent-encoded octets are decoded where they
form strictly valid UTF-8 for characters an IRI may show; those of ``%``,
``reserved`` and the ASCII a URI forbids stay as written; octets that are
not valid UTF-8, and characters that are not appropriate (§2.2: not
``ucschar``, or ``iprivate`` outside the query; §4.1: bidi formatting
characters; §6.1: Unicode spaces and invisible format characters, categories
Zs/Zl/Zp/Cf), are re-encoded with uppercase hex (as the §3.2.1 example
``%e2%80%ae`` -> ``%E2%80%AE``).  Percent-encoded unreserved ASCII is
decoded (§3.2 step 2).  Host labels that are valid IDNA A-labels become
U-labels (§3.2.1's ToUnicode option).

Both raise ``InvalidURI`` (a ``ValueError``) for text no IRI can hold: a
code point outside ``ucschar`` / ``iprivate`` above ASCII (lone surrogates,
noncharacters such as U+FFFE, U+FDD0, C1 controls), a bidirectional
formatting character (§4.1: LRM, RLM, LRE, RLE, LRO, RLO, PDF, and ALM and
the isolates), or, for ``iri_to_uri``, a host label that breaks the IDNA
bidi rule (§4.2, RFC 5893).  Bidi shape within other components (§4.2) is a
SHOULD there and is not enforced.
"""

from __future__ import annotations

import re
import unicodedata

from ._errors import type_error
from ._types import InvalidURI

__all__ = ["iri_to_uri", "uri_to_iri"]

# RFC 3986 Appendix B, with positions kept.
_APPENDIX_B = re.compile(
    r"(?:([^:/?#]+):)?(?://([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?", re.DOTALL
)

_HEX = frozenset("0123456789abcdefABCDEF")
# unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"  (RFC 3986 §2.3)
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
# reserved = gen-delims / sub-delims  (§2.2)
_RESERVED = frozenset(":/?#[]@!$&'()*+,;=")
# The ASCII a URI may hold as it is: unreserved, reserved and "%".
_URI_ASCII = _UNRESERVED | _RESERVED | {"%"}
_SUB_DELIMS = frozenset("!$&'()*+,;=")

# §4.1: "IRIs MUST NOT contain bidirectional formatting characters (LRM,
# RLM, LRE, RLE, LRO, RLO, and PDF)"; ALM and the isolates LRI, RLI, FSI,
# PDI came later and do the same.
_BIDI_FORMATTING = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
# Full stops that IDNA treats as label separators (RFC 3490 §3.1).
_DOTS = re.compile("[.\u3002\uff0e\uff61]")


def _is_ucschar(cp: int) -> bool:
    """RFC 3987 §2.2 ucschar."""
    if cp < 0xA0 or 0xD800 <= cp <= 0xF8FF:
        return False
    if cp <= 0xFFFF:
        return not (0xFDD0 <= cp <= 0xFDEF or cp >= 0xFFF0)
    if cp & 0xFFFE == 0xFFFE:
        return False
    return cp < 0xE0000 or 0xE1000 <= cp < 0xF0000


def _is_iprivate(cp: int) -> bool:
    """RFC 3987 §2.2 iprivate = %xE000-F8FF / %xF0000-FFFFD / %x100000-10FFFD."""
    return 0xE000 <= cp <= 0xF8FF or (cp >= 0xF0000 and cp & 0xFFFE != 0xFFFE)


def _check_text(func: str, s: object) -> str:
    if not isinstance(s, str):
        raise type_error(func, "s", s)
    if type(s) is not str:
        s = str.__str__(s)  # the plain text: a subclass's methods play no part
    if s.isascii():
        return s
    for pos, ch in enumerate(s):
        cp = ord(ch)
        if cp < 0x80:
            continue
        if ch in _BIDI_FORMATTING:
            raise InvalidURI(
                f"invalid IRI-reference at position {pos}: {ch!r} "
                f"(U+{cp:04X} is a bidirectional formatting character, RFC 3987 §4.1)",
                pos,
                "IRI-reference",
            )
        if not (_is_ucschar(cp) or _is_iprivate(cp)):
            raise InvalidURI(
                f"invalid IRI-reference at position {pos}: {ch!r} "
                f"(U+{cp:04X} is neither ucschar nor iprivate, RFC 3987 §2.2)",
                pos,
                "IRI-reference",
            )
    return s


def _spans(s: str) -> tuple[tuple[int, int] | None, tuple[int, int] | None]:
    """(host span, query span) of ``s`` by Appendix B and the authority split."""
    m = _APPENDIX_B.match(s)
    assert m is not None  # every group is optional: the pattern matches any str
    host = None
    if m.group(2) is not None:
        start, end = m.span(2)
        at = s.rfind("@", start, end)
        if at >= 0:
            start = at + 1
        if s.startswith("[", start):
            close = s.find("]", start, end)
            host_end = close + 1 if close >= 0 else end
        else:
            colon = s.rfind(":", start, end)
            host_end = colon if colon >= 0 else end
        host = (start, host_end)
    query = m.span(4) if m.group(4) is not None else None
    return host, query


# ---- IRI -> URI (§3.1) ------------------------------------------------------


def _encode(text: str) -> str:
    """§3.1 step 2 (and the optional ASCII step): %HH of UTF-8 octets."""
    if all(ch in _URI_ASCII for ch in text):
        return text
    out = []
    for ch in text:
        if ch in _URI_ASCII:
            out.append(ch)
        else:
            out.append("".join(f"%{b:02X}" for b in ch.encode("utf-8")))
    return "".join(out)


def _host_to_ascii(host: str, position: int) -> str:
    """A reg-name with non-ASCII labels as IDNA A-labels, or percent-encoded."""
    if any(ch == "%" or ch in _SUB_DELIMS for ch in host):
        return _encode(host)
    import idna

    labels = []
    for label in _DOTS.split(host):
        if label.isascii():
            labels.append(label)
            continue
        try:
            labels.append(idna.encode(label, uts46=True).decode("ascii"))
        except idna.IDNABidiError as exc:
            raise InvalidURI(
                f"invalid IRI-reference at position {position}: host {host!r} breaks "
                f"the IDNA bidi rule (RFC 3987 §4.2, RFC 5893): {exc}",
                position,
                "ihost",
            ) from None
        except (idna.IDNAError, UnicodeError):
            # not a DNS name: §3.1's general mapping applies to all of it
            return _encode(host)
    return ".".join(labels)


def iri_to_uri(s: str) -> str:
    """Map an IRI reference to a URI reference (RFC 3987 §3.1).

    Non-ASCII host labels become IDNA A-labels; see the module docstring.
    Raises ``InvalidURI`` for code points no IRI may hold.
    """
    s = _check_text("iri_to_uri", s)
    if s.isascii():
        return _encode(s)
    host, _query = _spans(s)
    if host is None or s.startswith("[", host[0]) or s[host[0] : host[1]].isascii():
        return _encode(s)
    start, end = host
    return _encode(s[:start]) + _host_to_ascii(s[start:end], start) + _encode(s[end:])


# ---- URI -> IRI (§3.2) ------------------------------------------------------


def _appropriate(ch: str, in_query: bool) -> bool:
    """§3.2 step 4: may this decoded character appear in the IRI?"""
    cp = ord(ch)
    if not (_is_ucschar(cp) or (in_query and _is_iprivate(cp))):
        return False  # §2.2
    if ch in _BIDI_FORMATTING:
        return False  # §4.1
    # §6.1: look-alikes of space and invisible characters
    return unicodedata.category(ch) not in ("Zs", "Zl", "Zp", "Cf")


def _triplets(octets: bytes) -> str:
    return "".join(f"%{b:02X}" for b in octets)


def _utf8_length(lead: int) -> int:
    """Length of the UTF-8 sequence a lead octet starts (RFC 3629 §4), or 0."""
    if 0xC2 <= lead <= 0xDF:
        return 2
    if 0xE0 <= lead <= 0xEF:
        return 3
    if 0xF0 <= lead <= 0xF4:
        return 4
    return 0


def _decode_octets(octets: bytes, in_query: bool, out: list[str]) -> None:
    """§3.2 steps 3-5 for a run of percent-encoded octets of 0x80 and up."""
    i = 0
    while i < len(octets):
        length = _utf8_length(octets[i])
        if length and i + length <= len(octets):
            chunk = octets[i : i + length]
            try:
                ch = chunk.decode("utf-8")  # strict: no overlongs, surrogates
            except UnicodeDecodeError:
                pass
            else:
                out.append(ch if _appropriate(ch, in_query) else _triplets(chunk))
                i += length
                continue
        out.append(_triplets(octets[i : i + 1]))  # step 3: not UTF-8
        i += 1


def _decode(text: str, in_query: bool) -> str:
    """§3.2 steps 2-5 on one part of a URI."""
    if "%" not in text:
        return text
    out: list[str] = []
    pending = bytearray()  # octets of 0x80 and up awaiting steps 3-5
    i, n = 0, len(text)
    while i < n:
        if text[i] == "%" and _is_triplet(text, i):
            value = int(text[i + 1 : i + 3], 16)
            if value >= 0x80:
                pending.append(value)
            else:
                _decode_octets(bytes(pending), in_query, out)
                pending.clear()
                ch = chr(value)
                # step 2: all but "%", reserved and the ASCII URIs forbid;
                # a hex digit right after a stray "%" stays encoded, or the
                # two would read as a new triplet.
                stray = "%" in "".join(out[-2:])[-2:] and ch in _HEX
                out.append(ch if ch in _UNRESERVED and not stray else text[i : i + 3])
            i += 3
            continue
        if pending:
            _decode_octets(bytes(pending), in_query, out)
            pending.clear()
        out.append(text[i])
        i += 1
    _decode_octets(bytes(pending), in_query, out)
    return "".join(out)


def _is_triplet(text: str, i: int) -> bool:
    """pct-encoded = "%" HEXDIG HEXDIG at ``i``."""
    return i + 2 < len(text) and text[i + 1] in _HEX and text[i + 2] in _HEX


def _host_to_unicode(host: str) -> str:
    """A-labels of a reg-name as U-labels (RFC 3987 §3.2.1, ToUnicode)."""
    if "xn--" not in host.lower():
        return host
    import idna

    labels = host.split(".")
    for k, label in enumerate(labels):
        if label[:4].lower() == "xn--" and label.isascii():
            try:
                labels[k] = idna.decode(label)
            except (idna.IDNAError, UnicodeError):
                pass  # not a valid A-label: kept as written
    return ".".join(labels)


def uri_to_iri(s: str) -> str:
    """Convert a URI reference to an IRI reference (RFC 3987 §3.2).

    Percent-encoded UTF-8 is decoded where the RFC allows; host A-labels
    become U-labels.  See the module docstring.
    """
    s = _check_text("uri_to_iri", s)
    host, query = _spans(s)
    parts = []
    pos = 0
    if host is not None:
        start, end = host
        parts.append(_decode(s[pos:start], False))
        decoded = _decode(s[start:end], False)
        if not s.startswith("[", start):
            decoded = _host_to_unicode(decoded)
        parts.append(decoded)
        pos = end
    if query is not None:
        start, end = query
        parts.append(_decode(s[pos:start], False))
        parts.append(_decode(s[start:end], True))
        pos = end
    parts.append(_decode(s[pos:], False))
    return "".join(parts)
