"""The w3lib preset's rules (``canonicalize(s, preset="w3lib")``, the key
of ``w3lib.url.canonicalize_url``), shared by both twins: the characters
each part keeps, w3lib's own split of a URL (step 1), and its reading and
canonical form of the authority (step 2).  ``_w3lib_py`` states every
step; the compiled ``_w3lib_c`` runs them in C and calls ``netloc`` only
for the authorities its C leaves aside (IP literals but plain IPv6
addresses, bad ports, hosts that need the running Python's Unicode), and
``split`` for text holding lone surrogates, which w3lib refuses.
"""

from __future__ import annotations

import ipaddress
import re
import unicodedata
from typing import FrozenSet, Optional
from urllib.parse import unquote_to_bytes

C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
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


def quote(data: bytes, safe: FrozenSet[int], plus: bool = False) -> str:
    """data with what safe lacks as %XX (a space as \"+\" when plus)."""
    out = []
    for c in data:
        if c in safe:
            out.append(chr(c))
        elif plus and c == 0x20:
            out.append("+")
        else:
            out.append("%%%02X" % c)
    return "".join(out)


def unquote(data: bytes, plus: bool = False) -> bytes:
    """data with each %XX decoded (a "+" first as a space when plus)."""
    # "+" is no hex digit: reading it as " " first makes no escape and
    # breaks none
    return unquote_to_bytes(data.replace(b"+", b" ") if plus else data)


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


class Parts:
    """w3lib's split of a URL: the scheme (lowercased) and the other parts
    as written (the authority "" where there is none)."""

    __slots__ = ("scheme", "netloc", "path", "query", "fragment")

    def __init__(self, scheme: str, netloc: str, path: str, query: str, fragment: str) -> None:
        self.scheme, self.netloc, self.path = scheme, netloc, path
        self.query, self.fragment = query, fragment


def split(url: str) -> Parts:
    """w3lib's own urlsplit (step 1): tabs and newlines removed, leading C0
    controls and spaces stripped, the scheme, a special scheme's "\\"
    before the query as "/", then //authority, path, query, fragment."""
    url = url.translate(TAB_NEWLINE).lstrip(C0_OR_SPACE)
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
    if start == 2:
        delim = len(url)
        for at in (url.find("/", 2), question, hash_at):
            if 0 < at < delim:
                delim = at
        netloc = url[2:delim]
        url = url[delim:]
        question = question - delim if question >= 0 else -1
        hash_at = hash_at - delim if hash_at >= 0 else -1
    fragment = query = ""
    if hash_at >= 0:
        url, fragment = url[:hash_at], url[hash_at + 1 :]
    if question >= 0:
        # a "?" inside the fragment leaves an empty query
        url, query = url[:question], url[question + 1 :]
    return Parts(scheme, netloc, url, query, fragment)


def netloc(text: str) -> str:
    """The key's authority (step 2) for the authority text of a URL, as
    w3lib reads it (urllib.parse's netloc rules) and writes it; raises
    ValueError where w3lib does (UnicodeEncodeError for a lone surrogate)."""
    opened, closed = "[" in text, "]" in text
    if opened != closed:
        raise ValueError("Invalid IPv6 URL")
    if opened:
        _check_bracketed(text)
    _check_nfkc(text)
    userinfo, at_sign, hostinfo = text.rpartition("@")
    user: Optional[str] = None
    password: Optional[str] = None
    if at_sign:
        user, colon, pw = userinfo.partition(":")
        password = pw if colon else None
    if opened:
        host, _, port_text = hostinfo.partition("[")[2].partition("]")
        port_text = port_text.partition(":")[2]
    else:
        host, _, port_text = hostinfo.partition(":")
    name, percent, zone = host.partition("%")
    host = name.lower() + percent + zone
    port: Optional[int] = None
    if port_text:
        if not (port_text.isascii() and port_text.isdigit()):
            raise ValueError(f"Port could not be cast to integer value as {port_text}")
        port = int(port_text)
        if port > 65535:
            raise ValueError("Port out of range 0-65535")
    out = ""
    if user is not None:
        out = quote(unquote(user.encode()), USERINFO_SAFE)
        if password is not None:
            out += ":" + quote(unquote(password.encode()), USERINFO_SAFE)
        out += "@"
    if ":" in host:
        host.encode("ascii")  # an IPv6 host must be ASCII
        out += "[" + host + "]"
    else:
        out += idna_host(host)
    if port is not None:
        out += ":" + str(port)
    userinfo, at, host = out.rpartition("@")
    host = host.lower()
    if host.endswith(":"):
        host = host[:-1]
    return _ipv6(userinfo + at + host)


def idna_host(host: str) -> str:
    """The host in A-labels (IDNA 2003, after NFKC), or as it is where the
    codec refuses it."""
    if host.isascii():
        return host
    try:
        return _nfkc(host).encode("idna").decode("ascii")
    except UnicodeError:
        # too long or empty labels: the host as it is (UnicodeEncodeError
        # if it cannot be UTF-8, as w3lib raises)
        host.encode()
        return host


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
