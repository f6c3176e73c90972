"""SURT keys (Sort-friendly URI Reordering Transform), reference twin of ``_surt_c``.

``surt(s)`` is the key web archives index captures by (CDX files), with the
canonicalization the ``surt`` package applies by default (the Internet
Archive's, after Google's Safe Browsing rules) and its output form
``host,reversed,labels)/path?query``:

1. the text is UTF-8; surrounding ASCII whitespace goes, and every tab, CR
   and LF; ``http://`` is assumed when no scheme is written, and repeated
   ``http(s)://`` prefixes keep the last;
2. the host: percent-decoded until stable, IDNA (A-labels) when not ASCII,
   ``..`` folded, outer dots dropped, numeric hosts read as IPv4 (one
   number, or dotted decimal or octal parts, as ``inet_aton``), lowercased,
   a leading ``www``/``www2``... label dropped; userinfo and the default
   port (80, 443) dropped;
3. the path: percent-decoded until stable, dot segments and empty segments
   removed, lowercased, ASP.NET session segments dropped, a trailing ``/``
   dropped; the query: percent-decoded until stable, session-ID fields
   dropped, lowercased, fields sorted by (name, value); both re-encoded
   (everything outside printable ASCII, plus ``%`` and ``#``);
4. the fragment dropped; the host's labels reversed and joined by ``,``.
"""

from __future__ import annotations

import re
from typing import List, Optional, Tuple

from . import _core_py as _core
from . import _surt

_SCHEME = re.compile(rb"[a-zA-Z][a-zA-Z0-9+.-]*:")
_WHITESPACE = b" \t\n\r\x0b\x0c"
_REMOVED = b"\t\n\r"
# Printable ASCII except "%" and "#" stays as it is.
_KEPT = frozenset(range(0x21, 0x7F)) - {ord("%"), ord("#")}
_DEFAULT_PORT = {b"http": 80, b"https": 443}
_WWW = re.compile(rb"www\d*\.")


def _unescape(data: bytes) -> bytes:
    """Percent-decoded until nothing changes ("%2541" -> "%41" -> "A")."""
    while True:
        once = _core.percent_decode_bytes(data)
        if once == data:
            return data
        data = once


def _escape(data: bytes) -> bytes:
    return b"".join(bytes((c,)) if c in _KEPT else b"%%%02X" % c for c in data)


def _split(url: bytes) -> Tuple[bytes, bytes, bytes, bytes]:
    """(scheme, authority, path, query) of a URL that starts with a scheme."""
    m = _SCHEME.match(url)
    assert m is not None
    scheme, rest = url[: m.end() - 1], url[m.end() :]
    rest = rest.partition(b"#")[0]
    authority = b""
    if rest.startswith(b"//"):
        end = len(rest)
        for delimiter in b"/?":
            at = rest.find(delimiter, 2)
            if 0 <= at < end:
                end = at
        authority, rest = rest[2:end], rest[end:]
    path, _, query = rest.partition(b"?")
    return scheme, authority, path, query


def _host_port(authority: bytes) -> Tuple[Optional[bytes], Optional[int]]:
    # As urllib.parse reads a netloc: after the last "@"; a bracketed host,
    # else up to the first ":"; the host lowercased up to a "%" zone.
    hostinfo = authority.rstrip(b":").rpartition(b"@")[2]
    _, bracket, inside = hostinfo.partition(b"[")
    if bracket:
        host, _, after = inside.partition(b"]")
        port_text = after.partition(b":")[2]
    else:
        host, _, port_text = hostinfo.partition(b":")
    port = None
    if port_text:
        if not port_text.isdigit():
            raise ValueError(f"surt() port is not a number: {port_text.decode('latin-1')!r}")
        port = int(port_text)
        if port > 65535:
            raise ValueError("surt() port out of range 0-65535")
    name, percent, zone = host.partition(b"%")
    return (name.lower() + percent + zone) or None, port or None


def _inet_aton(host: bytes) -> Optional[bytes]:
    """A numeric host as IPv4 dotted quad, the way inet_aton reads it."""
    parts = host.split(b".")
    values = []
    for part in parts:
        if len(part) > 1 and part.startswith(b"0"):
            if not all(c in b"01234567" for c in part):
                return None
            values.append(int(part, 8))
        else:
            values.append(int(part))
    # a.b.c.d: bytes; a.b.c: the last 16 bits; a.b: 24; a: 32
    last_bits = 32 - 8 * (len(values) - 1)
    if any(v > 255 for v in values[:-1]) or values[-1] >= 1 << last_bits:
        return None
    number = 0
    for v in values[:-1]:
        number = number << 8 | v
    number = number << last_bits | values[-1]
    return _dotted(number)


def _dotted(number: int) -> bytes:
    return b".".join(b"%d" % (number >> shift & 255) for shift in (24, 16, 8, 0))


_DECIMAL_IP = re.compile(rb"[1-9][0-9]*(\.[0-9]+){0,3}")
_OCTAL_IP = re.compile(rb"0[0-7]*(\.[0-7]+){0,3}")


def _ip(host: bytes) -> Optional[bytes]:
    if host.isdigit():
        return _dotted(int(host) & 0xFFFFFFFF)  # one number: its low 32 bits
    if _DECIMAL_IP.fullmatch(host) or _OCTAL_IP.fullmatch(host):
        return _inet_aton(host)
    return None


def _canonical_host(host: bytes) -> bytes:
    host = _unescape(host)
    if not host.isascii():
        host = _surt.idna_host(host)
    host = host.replace(b"..", b".").strip(b".")
    ip = _ip(host)
    if ip is not None:
        return ip
    host = _escape(host).lower()
    m = _WWW.match(host)
    return host[m.end() :] if m else host


def _canonical_path(path: bytes) -> bytes:
    # Dot segments, and empty segments except a final one, go.
    kept: List[bytes] = []
    for segment in path.split(b"/")[1:]:
        if segment == b".":
            continue
        if segment == b"..":
            if kept:
                kept.pop()
            else:
                kept.append(segment)
        else:
            kept.append(segment)
    if not kept:
        return b"/"
    return b"/" + b"".join(p + b"/" for p in kept[:-1] if p) + kept[-1]


def _sort_query(query: bytes) -> bytes:
    # By (name, value), a field without "=" before one with an empty value.
    if len(query) <= 1:
        return query
    fields = [tuple(field.split(b"=", 1)) for field in query.split(b"&")]
    fields.sort()
    return b"&".join(b"=".join(field) for field in fields)


def surt(s: str) -> str:
    """The SURT key of ``s`` (the ``surt`` package's default form).

    ``ValueError`` when the port is not a number in 0-65535.
    """
    if not isinstance(s, str):
        raise TypeError(f"surt() argument 's' must be str, not {type(s).__name__}")
    # (any str: a lone surrogate as surrogatepass writes it, escaped below)
    url = s.encode("utf-8", "surrogatepass")
    if not url.strip(_WHITESPACE):
        return "-"
    if url.startswith(b"filedesc"):
        return s
    url = url.strip(_WHITESPACE)
    url = bytes(c for c in url if c not in _REMOVED)
    if not _SCHEME.match(url):
        url = b"http://" + url
    # "http://https://host/" is "https://host/"
    while url.startswith((b"http://http://", b"http://https://")) or url.startswith(
        (b"https://http://", b"https://https://")
    ):
        url = url[url.index(b"//") + 2 :]
    scheme, authority, path_text, query_text = _split(url)
    host, port = _host_port(authority)
    path: Optional[bytes] = path_text or None
    query: Optional[bytes] = query_text or None
    if scheme.startswith(b"http") and host is None and path is not None:
        # "http:////host/path": the host is the first non-empty segment
        host, _, rest = path.lstrip(b"/").partition(b"/")
        path = b"/" + rest

    if host:
        host = _canonical_host(host)
    if path is not None:
        path = _unescape(path)
        if host:
            path = _canonical_path(path)
        path = _escape(path).lower()
        if path:
            path = _surt.strip_path_session(path)
            if len(path) > 1 and path.endswith(b"/"):
                path = path[:-1]
    elif host:
        path = b"/"
    if query is not None:
        query = _surt.strip_query_session(_escape(_unescape(query))).lower()
        query = _sort_query(query) or None
    if port is not None and port == _DEFAULT_PORT.get(scheme.lower()):
        port = None

    if host:
        key = b",".join(reversed(host.split(b".")))
        if port is not None:
            key += b":%d" % port
        key += b")"
    else:
        key = scheme + b":"
    if path:
        key += path
    elif query is not None:
        key += b"/"
    if query is not None:
        key += b"?" + query
    return key.decode("ascii")


__all__ = ["surt"]
