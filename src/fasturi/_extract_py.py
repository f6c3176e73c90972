"""URIs in running text: RFC 3986 Appendix C, RFC 2396 Appendix E and F.

The reference twin of ``_extract_c``; both return the same list for every
``str``.  What counts as a URI in running text:

Characters.  A URI's *body characters* are the ASCII characters RFC 3986
allows (``unreserved``, ``reserved`` and ``%``) plus the non-ASCII
characters RFC 3987 allows in IRIs (``ucschar`` and ``iprivate``), less the
*text delimiters*: Unicode spaces, the General Punctuation block
U+2000-U+206F (em dash, curly quotes, bullets, ellipsis, bidi controls) but
for its hyphens and en dash U+2010-U+2013, and the quotation marks,
brackets and sentence punctuation of CJK and fullwidth text (see
``_TEXT_DELIMITER_RANGES``).  Everything else (space, controls,
``"<>\\^`{|}``, lone surrogates, noncharacters) ends a URI.

Bare URIs.  At each ``:`` the scheme is the longest run of
``ALPHA / DIGIT / "+" / "-" / "."`` before it (not reaching into the
previous URI), less any leading characters before its first ``ALPHA`` (so
``12:30`` has none).  The run stops at the previous ``:``, so
``jdbc:mysql://h/db`` gives ``mysql://h/db``.  The form must look like a
URI, so that prose with colons (``Note: foo``, ``Re:subject``) is left
alone:

- any scheme followed by ``//`` and at least one more body character
  (``http://``, ``s3://``, ``file:///``), or
- a scheme of ``OPAQUE_SCHEMES`` (``mailto:``, ``urn:``, ``news:``,
  ``tel:``, ``data:``, ``file:``, ...; case-insensitive) followed by at least
  one body character.

The URI runs over body characters (when the character before the scheme is
``'``, also up to the next ``'``, as in ``href='...'``).  Then trailing
``. , ; : ! ? '`` are dropped, and so is a trailing ``)`` or ``]`` while the
URI holds more closing than opening ones, so a Wikipedia-style
``.../Python_(language)`` keeps its parenthesis and ``(see http://a/b)``
loses it.  If nothing is left after ``scheme:`` (or ``scheme://``) there is
no URI.

Wrapped URIs (Appendix C).  ``<`` then optional whitespace, an optional
``URL:`` prefix (any case) and whitespace, then a scheme, ``:``, and body
characters or ASCII whitespace (space, tab, CR, LF, FF, VT) up to ``>``: the
whitespace is dropped (it breaks long URIs across lines) and so are the
wrappers.  Nothing is trimmed: the brackets delimit.  The result must pass
the same form test as a bare URI; otherwise the ``<`` is ordinary text and
the URIs inside are found bare.  Double quotes need no rule: ``"`` is not a
body character.  A hyphen before a line break is kept.

Abbreviated URLs (RFC 2396 Appendix F, ``abbreviated=True`` only).  ``www.``
or ``ftp.`` (any case) not preceded by a letter, digit, non-ASCII body
character or one of ``-._~%@/:+``, then at least two dot-separated labels of
letters, digits, ``-`` or non-ASCII body characters (``www.w3.org``), an
optional ``:port`` of digits, and optionally ``/``, ``?`` or ``#`` and body
characters (trimmed as above).  A host or port followed by a letter, digit,
``-``, ``_``, ``~``, ``@`` or ``%`` is part of some other token (a file
name, an e-mail address) and is skipped.  The result gets
``http://`` (``www.``) or ``ftp://`` (``ftp.``) in front.

URIs never overlap; they are returned in text order.  Nothing is decoded:
HTML character references stay as written.
"""

from __future__ import annotations

import re
from string import ascii_letters, digits

from ._errors import type_error

__all__ = ["OPAQUE_SCHEMES", "extract"]

# Registered schemes whose URIs are commonly written without "//" (RFC 6068
# mailto, RFC 8141 urn, RFC 5538 news, RFC 3966 tel, RFC 2397 data, RFC 8089
# file, ...).  Any other scheme needs "//" to count as a URI in prose.
OPAQUE_SCHEMES = frozenset(
    {
        "about",
        "bitcoin",
        "cid",
        "data",
        "fax",
        "file",
        "geo",
        "info",
        "magnet",
        "mailto",
        "mid",
        "news",
        "sip",
        "sips",
        "sms",
        "tag",
        "tel",
        "urn",
        "xmpp",
    }
)

# Where a URI can be recognised: a scheme's ":", Appendix C's "<", and the
# first letter of Appendix F's "www." / "ftp.".
_TRIGGER = re.compile("[:<]")
_TRIGGER_ABBREVIATED = re.compile("[:<wWfF]")
_ALPHA = frozenset(ascii_letters)
_DIGIT = frozenset(digits)
# scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )  (RFC 3986 §3.1)
_SCHEME = frozenset(ascii_letters + digits + "+-.")
# unreserved / gen-delims / sub-delims, and "%" of pct-encoded (§2)
_BODY_ASCII = frozenset(ascii_letters + digits + "-._~" + ":/?#[]@" + "!$&'()*+,;=" + "%")
# Appendix C: "spaces, line-breaks, tabs, etc."
_SPACE = frozenset(" \t\n\r\f\v")
# Sentence punctuation that follows a URI in prose rather than ending it.
_TRIM = frozenset(".,;:!?'")
_LABEL_ASCII = frozenset(ascii_letters + digits + "-")
# A "www."/"ftp." preceded by one of these is inside some other token.
_NOT_BEFORE_ABBREVIATED = frozenset(ascii_letters + digits + "-._~%@/:+")
# A host (or port) followed by one of these is part of some other token.
_NOT_AFTER_HOST = frozenset(ascii_letters + digits + "-_~@%")

# Non-ASCII characters that delimit text although RFC 3987 allows them.
_TEXT_DELIMITER_RANGES = (
    (0x00A0, 0x00A0),  # NO-BREAK SPACE
    (0x00AB, 0x00AB),  # guillemets
    (0x00BB, 0x00BB),
    (0x1680, 0x1680),  # OGHAM SPACE MARK
    # General Punctuation: spaces, em dash, quotes, bullets, bidi controls;
    # not the hyphens and en dash of names (Wikipedia's "Fisher–Yates")
    (0x2000, 0x200F),
    (0x2014, 0x206F),
    (0x3000, 0x3003),  # ideographic space, comma, full stop
    (0x3008, 0x3011),  # CJK angle, corner and lenticular brackets
    (0x3014, 0x301F),  # CJK tortoise-shell brackets, quotation marks
    (0xFEFF, 0xFEFF),  # ZERO WIDTH NO-BREAK SPACE
    (0xFF01, 0xFF01),  # fullwidth ! ( ) , : ; ? [ ] { } and halfwidth CJK punctuation
    (0xFF08, 0xFF09),
    (0xFF0C, 0xFF0C),
    (0xFF1A, 0xFF1B),
    (0xFF1F, 0xFF1F),
    (0xFF3B, 0xFF3B),
    (0xFF3D, 0xFF3D),
    (0xFF5B, 0xFF5B),
    (0xFF5D, 0xFF5D),
    (0xFF5F, 0xFF64),
)


def _is_text_delimiter(cp: int) -> bool:
    return any(lo <= cp <= hi for lo, hi in _TEXT_DELIMITER_RANGES)


def _is_ucs_or_private(cp: int) -> bool:
    """RFC 3987 §2.2 ucschar / iprivate (for cp >= 0x80)."""
    if cp < 0xA0 or 0xD800 <= cp <= 0xDFFF:
        return False
    if cp <= 0xFFFF:
        # U+FDD0-U+FDEF and U+FFF0-U+FFFF are in neither rule.
        return not (0xFDD0 <= cp <= 0xFDEF or cp >= 0xFFF0)
    if cp & 0xFFFE == 0xFFFE:  # the last two code points of every plane
        return False
    return not 0xE0000 <= cp <= 0xE0FFF  # plane 14 starts ucschar at U+E1000


def _is_body(ch: str) -> bool:
    """A character that can be part of a URI in text."""
    cp = ord(ch)
    if cp < 0x80:
        return ch in _BODY_ASCII
    return _is_ucs_or_private(cp) and not _is_text_delimiter(cp)


def _is_label(ch: str) -> bool:
    """A character of a host-name label in an abbreviated URL."""
    if ord(ch) < 0x80:
        return ch in _LABEL_ASCII
    return _is_body(ch)


def _starts_with_word(text: str, pos: int, word: str) -> bool:
    """``text[pos:]`` starts with the ASCII ``word``, in any ASCII case."""
    chunk = text[pos : pos + len(word)]
    return chunk.isascii() and chunk.lower() == word


def _has_form(scheme: str, after_colon: str) -> bool:
    """The bare-URI form test: ``scheme://x...`` or ``opaque:x...``."""
    if after_colon.startswith("//"):
        return len(after_colon) > 2
    return len(after_colon) > 0 and scheme.lower() in OPAQUE_SCHEMES


def _trim(text: str, start: int, end: int, minimum: int) -> int:
    """End of text[start:end] without trailing sentence punctuation."""
    counts: dict[str, int] | None = None
    while end > minimum:
        ch = text[end - 1]
        if ch in _TRIM:
            end -= 1
        elif ch == ")" or ch == "]":
            if counts is None:
                # Only trimmed punctuation has gone: the counts of the
                # brackets in what is left stay exact from here on.
                counts = {c: text.count(c, start, end) for c in "()[]"}
            if counts[ch] <= counts["(" if ch == ")" else "["]:
                break
            counts[ch] -= 1
            end -= 1
        else:
            break
    return end


def _body_end(text: str, pos: int, quote: bool) -> int:
    n = len(text)
    while pos < n and _is_body(text[pos]) and not (quote and text[pos] == "'"):
        pos += 1
    return pos


def _bare(text: str, colon: int, floor: int) -> tuple[int, int, int]:
    """The bare URI whose scheme ends at ``colon``: (start, end, resume).

    ``start == end`` means none; scanning resumes at ``resume``.
    """
    start = colon
    while start > floor and text[start - 1] in _SCHEME:
        start -= 1
    while start < colon and text[start] not in _ALPHA:
        start += 1
    if start == colon:
        return colon, colon, colon + 1
    scheme = text[start:colon]
    if text.startswith("//", colon + 1):
        minimum = colon + 3
    elif scheme.lower() in OPAQUE_SCHEMES:
        minimum = colon + 1
    else:
        return colon, colon, colon + 1
    quote = start > 0 and text[start - 1] == "'"
    scanned = _body_end(text, colon + 1, quote)
    end = _trim(text, start, scanned, minimum)
    if end <= minimum:
        # Nothing but punctuation after the scheme: no letter in there can
        # start another URI, so resume past it.
        return colon, colon, scanned
    return start, end, end


def _wrapped(text: str, lt: int) -> tuple[str, int] | None:
    """Appendix C ``<URI>`` (or ``<URL:URI>``) at ``lt``: (URI, resume)."""
    n = len(text)
    pos = lt + 1
    while pos < n and text[pos] in _SPACE:
        pos += 1
    if _starts_with_word(text, pos, "url:"):
        pos += 4
        while pos < n and text[pos] in _SPACE:
            pos += 1
    start = pos
    if pos >= n or text[pos] not in _ALPHA:
        return None
    while pos < n and text[pos] in _SCHEME:
        pos += 1
    if pos >= n or text[pos] != ":":
        return None
    colon = pos
    pos += 1
    while pos < n and (_is_body(text[pos]) or text[pos] in _SPACE):
        pos += 1
    if pos >= n or text[pos] != ">":
        return None
    body = "".join(ch for ch in text[colon + 1 : pos] if ch not in _SPACE)
    scheme = text[start:colon]
    if not _has_form(scheme, body):
        return None
    return scheme + ":" + body, pos + 1


def _abbreviated(text: str, at: int) -> tuple[str, int] | None:
    """RFC 2396 Appendix F ``www.host/path`` or ``ftp.host`` at ``at``."""
    if _starts_with_word(text, at, "www."):
        scheme = "http://"
    elif _starts_with_word(text, at, "ftp."):
        scheme = "ftp://"
    else:
        return None
    if at > 0:
        before = text[at - 1]
        if before in _NOT_BEFORE_ABBREVIATED or (ord(before) >= 0x80 and _is_body(before)):
            return None
    n = len(text)
    pos = at + 4
    labels = 0
    while pos < n and _is_label(text[pos]):
        while pos < n and _is_label(text[pos]):
            pos += 1
        labels += 1
        if pos + 1 < n and text[pos] == "." and _is_label(text[pos + 1]):
            pos += 1
        else:
            break
    if labels < 2:
        return None
    if pos + 1 < n and text[pos] == ":" and text[pos + 1] in _DIGIT:
        pos += 1
        while pos < n and text[pos] in _DIGIT:
            pos += 1
    if pos < n and text[pos] in _NOT_AFTER_HOST:
        return None
    end = pos
    if pos < n and text[pos] in "/?#":
        quote = at > 0 and text[at - 1] == "'"
        end = _trim(text, at, _body_end(text, pos, quote), pos)
    return scheme + text[at:end], end


def extract(text: str, *, abbreviated: bool = False) -> list[str]:
    """URIs in running text (RFC 3986 Appendix C, RFC 2396 Appendix E).

    ``abbreviated=True`` also finds RFC 2396 Appendix F forms
    (``www.w3.org/x`` gives ``http://www.w3.org/x``).  The module docstring
    defines exactly what counts as a URI.
    """
    if not isinstance(text, str):
        raise type_error("extract", "text", text)
    if type(text) is not str:
        text = str.__str__(text)  # the plain text: a subclass's methods play no part
    trigger = _TRIGGER_ABBREVIATED if abbreviated else _TRIGGER
    found: list[str] = []
    floor = 0  # end of the last URI found: the next one starts at or after it
    match = trigger.search(text)
    while match is not None:
        pos = match.start()
        ch = text[pos]
        if ch == ":":
            start, end, resume = _bare(text, pos, floor)
            if start < end:
                found.append(text[start:end])
                floor = end
            pos = resume
        else:
            hit = _wrapped(text, pos) if ch == "<" else _abbreviated(text, pos)
            if hit is None:
                pos += 1
            else:
                found.append(hit[0])
                pos = floor = hit[1]
        match = trigger.search(text, pos)
    return found
