"""The key of ``w3lib.url.canonicalize_url`` (scrapy's request fingerprints).

``key(s, keep_fragment)`` is ``canonicalize(s, preset="w3lib")``: the
reference the compiled ``_w3lib_c`` is tested against, and the path it
takes for the inputs its C code leaves aside (userinfo, IP literals,
non-ASCII hosts).  The steps, in w3lib's order:

1. C0 controls and spaces are stripped from both ends when there are any,
   and tabs, CR and LF removed everywhere; the scheme (letters, digits,
   ``+-.`` after a letter, before the first ``:``) is lowercased; for the
   special schemes (http, https, ws, wss, ftp, file) a ``\\`` before the
   query is a ``/``;
2. the authority is read as ``urllib.parse`` reads a netloc (``ValueError``
   for an unbalanced ``[``, an invalid bracketed host, or a port that is
   not a number in 0-65535); the userinfo is re-encoded, the host
   lowercased and written in IDNA A-labels (after NFKC), the port written
   as a number;
3. path, query and fragment are percent-encoded as UTF-8 where w3lib finds
   characters unsafe; a special-scheme URL with a query and no path gets
   the path ``/``; ``;params`` in the last segment are kept aside;
4. the query's fields (split on ``&``, empty ones dropped) are decoded with
   ``+`` as space, sorted as (name, value) byte strings and re-encoded (only
   unreserved characters kept, space as ``+``, every field with ``=``);
5. the path's escapes are decoded except ``%25``, ``%2F``, ``%3B`` and
   ``%3F`` and what is unsafe re-encoded (uppercase hex); an empty path is
   ``/``; dot segments are removed from a path starting with ``/``;
6. the fragment goes (unless kept), an IPv6 host is written in its
   RFC 5952 form, and the parts are joined as ``urllib.parse.urlunparse``
   joins them.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from typing import FrozenSet, List, Optional, Tuple

from . import _core_py as _core

_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
_SCHEME = re.compile(r"([a-zA-Z][a-zA-Z0-9+\-.]*):")
SPECIAL = frozenset({"ftp", "file", "http", "https", "ws", "wss"})
# urllib.parse's scheme lists, as fixed here (they are module constants
# there, and w3lib reads them at import)
USES_PARAMS = frozenset(
    [
        "",
        "ftp",
        "hdl",
        "prospero",
        "http",
        "imap",
        "https",
        "shttp",
        "rtsp",
        "rtsps",
        "rtspu",
        "sip",
        "sips",
        "mms",
        "sftp",
        "tel",
    ]
)
USES_NETLOC = frozenset(
    [
        "",
        "ftp",
        "http",
        "gopher",
        "nntp",
        "telnet",
        "imap",
        "wais",
        "file",
        "mms",
        "https",
        "shttp",
        "snews",
        "prospero",
        "rtsp",
        "rtsps",
        "rtspu",
        "rsync",
        "svn",
        "svn+ssh",
        "sftp",
        "nfs",
        "git",
        "git+ssh",
        "ws",
        "wss",
        "itms-services",
    ]
)

_UNRESERVED = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~"
_SUB_DELIMS = b"!$&'()*+,;="
# what each part keeps as it is (everything else is %XX)
USERINFO_SAFE = frozenset(_UNRESERVED + b"!$&'()*+,")
PATH_SAFE = frozenset(_UNRESERVED + _SUB_DELIMS + b":/?@%")
QUERY_SAFE = PATH_SAFE
SPECIAL_QUERY_SAFE = PATH_SAFE - {ord("'")}
FRAGMENT_SAFE = PATH_SAFE
# step 5's re-encoding also keeps "[", "]" and "|"
PATH_SAFE_AGAIN = PATH_SAFE | frozenset(b"[]|")
FIELD_SAFE = frozenset(_UNRESERVED)


def _quote(data: bytes, safe: FrozenSet[int], plus: bool = False) -> str:
    out = []
    for c in data:
        if c in safe:
            out.append(chr(c))
        elif plus and c == 0x20:
            out.append("+")
        else:
            out.append("%%%02X" % c)
    return "".join(out)


def _unquote(data: bytes, plus: bool = False) -> bytes:
    # "+" is no hex digit: reading it as " " first makes no escape and
    # breaks none
    return _core.percent_decode_bytes(data.replace(b"+", b" ") if plus else data)


def _check_bracketed(netloc: str) -> None:
    # the host after the last "@": "[" only first, only ":port" after "]",
    # and inside an IPv6 address or an IPvFuture
    hostinfo = netloc.rpartition("@")[2]
    before, bracket, inside = hostinfo.partition("[")
    if bracket:
        if before:
            raise ValueError("Invalid IPv6 URL")
        host, _, after = inside.partition("]")
        if after and not after.startswith(":"):
            raise ValueError("Invalid IPv6 URL")
    else:
        host = hostinfo.partition(":")[0]
    if host.startswith(("v", "V")):
        if not re.fullmatch(r"v[a-fA-F0-9]+\..+", host, re.S):
            raise ValueError("IPvFuture address is invalid")
        return
    if isinstance(ipaddress.ip_address(host), ipaddress.IPv4Address):
        raise ValueError("An IPv4 address cannot be in brackets")


def _nfkc(netloc: str) -> str:
    return unicodedata.normalize("NFKC", netloc.translate(str.maketrans("", "", "@:#?")))


def _check_nfkc(netloc: str) -> None:
    # A non-ASCII netloc whose NFKC form gains a delimiter is refused.
    if not netloc or netloc.isascii():
        return
    cleaned = netloc.translate(str.maketrans("", "", "@:#?"))
    normalized = unicodedata.normalize("NFKC", cleaned)
    if cleaned != normalized and re.search(r"[/?#@:\\]", normalized):
        raise ValueError(f"netloc {netloc!r} contains invalid characters under NFKC normalization")


class _Parts:
    __slots__ = (
        "scheme",
        "netloc",
        "path",
        "query",
        "fragment",
        "user",
        "password",
        "host",
        "port",
    )
    scheme: str
    netloc: str
    path: str
    query: str
    fragment: str
    user: Optional[str]
    password: Optional[str]
    host: str
    port: Optional[int]


def _split(url: str) -> _Parts:
    """w3lib's own urlsplit (step 1 and the reading of step 2)."""
    p = _Parts()
    url = url.translate(_TAB_NEWLINE).lstrip(_C0_OR_SPACE)
    scheme = ""
    m = _SCHEME.match(url)
    if m:
        scheme = m.group(1).lower()
        url = url[m.end() :]
    if scheme in SPECIAL and "\\" in url:
        cut = min([i for i in (url.find("?"), url.find("#")) if i >= 0], default=len(url))
        url = url[:cut].replace("\\", "/") + url[cut:]
    start = 2 if url.startswith("//") else 0
    question = url.find("?", start)
    hash_at = url.find("#", start)
    netloc = ""
    bracketed = False
    if start == 2:
        delim = len(url)
        for at in (url.find("/", 2), question, hash_at):
            if 0 < at < delim:
                delim = at
        opened = 2 <= url.find("[", 2) < delim
        closed = 2 <= url.find("]", 2) < delim
        if opened != closed:
            raise ValueError("Invalid IPv6 URL")
        netloc = url[2:delim]
        if opened:
            _check_bracketed(netloc)
            bracketed = True
        url = url[delim:]
        question = question - delim if question >= 0 else -1
        hash_at = hash_at - delim if hash_at >= 0 else -1
    _check_nfkc(netloc)
    fragment = query = ""
    if hash_at >= 0:
        url, fragment = url[:hash_at], url[hash_at + 1 :]
    if question >= 0:
        # a "?" inside the fragment leaves an empty query
        url, query = url[:question], url[question + 1 :]
    userinfo, at_sign, hostinfo = netloc.rpartition("@")
    user: Optional[str] = None
    password: Optional[str] = None
    if at_sign:
        user, colon, pw = userinfo.partition(":")
        password = pw if colon else None
    if bracketed:
        host, _, port = hostinfo.partition("[")[2].partition("]")
        port = port.partition(":")[2]
    else:
        host, _, port = hostinfo.partition(":")
    name, percent, zone = host.partition("%")
    p.scheme, p.netloc, p.path, p.query, p.fragment = scheme, netloc, url, query, fragment
    p.user, p.password, p.host = user, password, name.lower() + percent + zone
    p.port = None
    if port:
        if not (port.isascii() and port.isdigit()):
            raise ValueError(f"Port could not be cast to integer value as {port}")
        p.port = int(port)
        if p.port > 65535:
            raise ValueError("Port out of range 0-65535")
    return p


def _idna_host(host: str) -> str:
    if host.isascii():
        return host
    try:
        return _nfkc(host).encode("idna").decode("ascii")
    except UnicodeError:
        # too long or empty labels: the host as it is (UnicodeEncodeError
        # if it cannot be UTF-8, as w3lib raises)
        host.encode()
        return host


def _remove_dot_segments(path: str) -> str:
    # RFC 3986 §5.2.4 for a path starting with "/"
    if "/." not in path:
        return path
    segments = path[1:].split("/")
    output: List[str] = []
    for segment in segments[:-1]:
        if segment == "..":
            if output:
                output.pop()
        elif segment != ".":
            output.append(segment)
    last = segments[-1]
    if last in ("..", "."):
        if last == ".." and output:
            output.pop()
        output.append("")
    else:
        output.append(last)
    return "/" + "/".join(output)


def _keep_escapes(path: str) -> bytes:
    # decodes every escape but %25, %2F, %3B, %3F, which stay (uppercase)
    if "%" not in path:
        return path.encode()
    for escape, kept in (
        ("%25", "%2525"),
        ("%2f", "%252F"),
        ("%2F", "%252F"),
        ("%3b", "%253B"),
        ("%3B", "%253B"),
        ("%3f", "%253F"),
        ("%3F", "%253F"),
    ):
        path = path.replace(escape, kept)
    return _unquote(path.encode())


def _query(query: str) -> str:
    fields: List[Tuple[bytes, bytes]] = []
    for field in query.encode().split(b"&"):
        if field:
            name, _, value = field.partition(b"=")
            fields.append((_unquote(name, True), _unquote(value, True)))
    fields.sort()
    return "&".join(
        _quote(name, FIELD_SAFE, True) + "=" + _quote(value, FIELD_SAFE, True)
        for name, value in fields
    )


def _ipv6(netloc: str) -> str:
    if "[" not in netloc:
        return netloc
    start = netloc.index("[")
    end = netloc.find("]", start)
    if end < 0:
        return netloc
    try:
        address = ipaddress.ip_address(netloc[start + 1 : end])
    except ValueError:
        return netloc
    if not isinstance(address, ipaddress.IPv6Address):
        return netloc
    return f"{netloc[:start]}[{address}]{netloc[end + 1 :]}"


def _join(scheme: str, netloc: str, path: str, query: str, fragment: str) -> str:
    if netloc:
        if path and not path.startswith("/"):
            path = "/" + path
        path = "//" + netloc + path
    elif path.startswith("//") or (
        scheme in USES_NETLOC and scheme and (not path or path.startswith("/"))
    ):
        path = "//" + path
    return (
        (scheme + ":" if scheme else "")
        + path
        + ("?" + query if query else "")
        + ("#" + fragment if fragment else "")
    )


def key(s: str, keep_fragment: bool = False) -> str:
    """``w3lib.url.canonicalize_url(s, keep_fragments=keep_fragment)``."""
    if any(c in _C0_OR_SPACE for c in s):
        s = s.strip(_C0_OR_SPACE).translate(_TAB_NEWLINE)
    p = _split(s)
    special = p.scheme in SPECIAL
    netloc = ""
    if p.user is not None:
        netloc = _quote(_unquote(p.user.encode()), USERINFO_SAFE)
        if p.password is not None:
            netloc += ":" + _quote(_unquote(p.password.encode()), USERINFO_SAFE)
        netloc += "@"
    if ":" in p.host:
        p.host.encode("ascii")  # an IPv6 host must be ASCII
        netloc += "[" + p.host + "]"
    else:
        netloc += _idna_host(p.host)
    if p.port is not None:
        netloc += ":" + str(p.port)
    path = _quote(p.path.encode(), PATH_SAFE)
    query = _quote(p.query.encode(), SPECIAL_QUERY_SAFE if special else QUERY_SAFE)
    fragment = _quote(p.fragment.encode(), FRAGMENT_SAFE)
    if not path and query and special:
        path = "/"
    params = ""
    if p.scheme in USES_PARAMS:
        semi = path.find(";", path.rfind("/") + 1)
        if semi >= 0:
            path, params = path[:semi], path[semi + 1 :]
    if query:
        query = _query(query)
    path = _quote(_keep_escapes(path), PATH_SAFE_AGAIN) if path else "/"
    if path.startswith("/"):
        path = _remove_dot_segments(path)
    userinfo, at, host = netloc.rpartition("@")
    host = host.lower()
    if host.endswith(":"):
        host = host[:-1]
    netloc = _ipv6(userinfo + at + host)
    if params:
        path = path + ";" + params
    return _join(p.scheme, netloc, path, query, fragment if keep_fragment else "")
