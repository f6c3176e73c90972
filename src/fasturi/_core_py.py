"""The RFC 3986 engine, as the RFC writes it: Appendix B split, §5.3
recomposition, §5.2 resolution (and RFC 2396 §5.2 when asked), §5.2.4 dot
segments, §6.2.2 / §6.2.3 normalization and the §2.1 percent codecs.

This is the reference the compiled twin (``_core_c``) is tested against:
same names, same results, same exceptions.
"""

from __future__ import annotations

import re
from typing import Dict, Iterable, List, Optional, Tuple, Union

from ._errors import rfc_number, type_error
from ._types import InvalidURI, Split

__all__ = [
    "equivalent",
    "normalize",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "remove_dot_segments",
    "resolve",
    "split",
    "split_authority",
    "unsplit",
]

# Appendix B, verbatim; DOTALL because "." must also match line breaks there.
_APPENDIX_B = re.compile(r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?", re.DOTALL)

_HEXDIG = frozenset("0123456789ABCDEFabcdef")
# §2.3 unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
_UNRESERVED = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
_ASCII_LOWER = {c: c + 32 for c in range(ord("A"), ord("Z") + 1)}

# A "%hh" triplet that §6.2.2 changes: a lowercase hex digit, or an octet of
# unreserved (2D 2E 30-39 41-5A 5F 61-7A 7E).
_NEEDS_WORK = re.compile(
    r"%(?:[0-9A-F][a-f]|[a-f][0-9A-Fa-f]|2[DEde]|3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]|5[Ff]|7[Ee])"
)

# §6.2.3: the schemes whose defaults this module knows.
_DEFAULT_PORT = {"http": "80", "https": "443", "ws": "80", "wss": "443", "ftp": "21"}


def _lower(text: str) -> str:
    # Only ASCII letters fold: str.lower() would also fold non-ASCII letters
    # (and can change a string's length).
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


# ---- Appendix B and §5.3 --------------------------------------------------


_match_appendix_b = _APPENDIX_B.match
_new_tuple = tuple.__new__


def _split(s: str) -> Split:
    # Every group is optional or starred, so the pattern matches any string.
    # tuple.__new__ builds the Split without NamedTuple's per-call overhead.
    m = _match_appendix_b(s)
    assert m is not None
    return _new_tuple(Split, m.group(2, 4, 5, 7, 9))


def split(s: str) -> Split:
    """Split a URI reference into its five components (RFC 3986 Appendix B).

    ``None`` marks an undefined component, ``""`` an empty one.
    """
    if not isinstance(s, str):
        raise type_error("split", "s", s)
    return _split(s)


def _recompose(
    scheme: Optional[str],
    authority: Optional[str],
    path: Optional[str],
    query: Optional[str],
    fragment: Optional[str],
    guard: bool = True,
) -> str:
    # §5.3; None leaves a component (and its delimiter) out.  With guard, one
    # more step: a path starting with "//" and no authority would read back
    # as an authority, so it is written "/.//" (the same path once §5.2.4
    # runs).  Resolution and dot-segment removal can produce one.
    result: List[str] = []
    if scheme is not None:
        result += (scheme, ":")
    if authority is not None:
        result += ("//", authority)
    elif guard and path is not None and path.startswith("//"):
        result.append("/.")
    if path is not None:
        result.append(path)
    if query is not None:
        result += ("?", query)
    if fragment is not None:
        result += ("#", fragment)
    return "".join(result)


def unsplit(parts: Iterable[Optional[str]]) -> str:
    """Recompose ``(scheme, authority, path, query, fragment)`` (RFC 3986 §5.3).

    Components are emitted as given; ``None`` leaves one (and its delimiter)
    out.  ``unsplit(split(s)) == s`` for every string.
    """
    if isinstance(parts, (str, bytes, bytearray)):
        raise type_error("unsplit", "parts", parts, "a sequence of 5 items")
    try:
        items = tuple(parts)
    except TypeError:
        raise type_error("unsplit", "parts", parts, "a sequence of 5 items") from None
    if len(items) != 5:
        raise ValueError(f"unsplit() argument 'parts' must have 5 items, not {len(items)}")
    for index, item in enumerate(items):
        if item is not None and not isinstance(item, str):
            raise type_error("unsplit", "parts", item, "str or None", item=index)
    scheme, authority, path, query, fragment = items
    return _recompose(scheme, authority, path, query, fragment, guard=False)


def _split_authority(authority: str) -> Tuple[Optional[str], str, Optional[str]]:
    # §3.2: userinfo ends at the last "@" (it may not contain one, so a
    # second "@" belongs to it); the host is an IP-literal up to "]" or
    # runs to the last ":".
    before, at, rest = authority.rpartition("@")
    userinfo = before if at else None
    if rest.startswith("["):
        close = rest.find("]")
        if close >= 0 and rest.startswith(":", close + 1):
            return userinfo, rest[: close + 1], rest[close + 2 :]
        return userinfo, rest, None
    host, colon, port = rest.rpartition(":")
    if not colon:
        return userinfo, rest, None
    return userinfo, host, port


def split_authority(authority: str) -> Tuple[Optional[str], str, Optional[str]]:
    """Split an authority into ``(userinfo, host, port)`` (RFC 3986 §3.2).

    ``userinfo`` and ``port`` are ``None`` when their delimiter is absent.
    """
    if not isinstance(authority, str):
        raise type_error("split_authority", "authority", authority)
    return _split_authority(authority)


# ---- §5.2.4 -----------------------------------------------------------------


def _remove_dot_segments(path: str) -> str:
    # Steps A-D need a segment starting with "."; without one the path is
    # already free of dot segments.
    if "/." not in path and not path.startswith("."):
        return path
    # 2A and 2D can only apply at the start of the input: once step E has
    # moved a segment, the input always begins with "/".
    start = 0
    while True:
        if path.startswith("../", start):
            start += 3
        elif path.startswith("./", start):
            start += 2
        else:
            break
    path = path[start:]
    if path in (".", ".."):
        return ""
    # Up to the first "/." every step is 2E: that prefix moves to the output
    # as it is, and later "remove the last segment" steps shorten it to
    # prefix[:keep].
    cut = path.find("/.")
    if cut < 0:
        return path
    prefix, keep = path, cut
    # The rest of the output buffer, as the pieces step E moved ("/segment"
    # each), so "remove the last segment and its preceding '/'" is a pop.
    output: List[str] = []
    segments = path[cut:].split("/")
    last = len(segments) - 1
    for index in range(1, len(segments)):
        segment = segments[index]
        if segment == "." or segment == "..":
            if segment == "..":
                # 2C: "/../" or a final "/.." drops the last output segment
                if output:
                    output.pop()
                else:
                    keep = max(prefix.rfind("/", 0, keep), 0)
            # 2B, 2C: the dot segment is replaced by "/", which stays only
            # when nothing follows
            if index == last:
                output.append("/")
        else:
            # 2E: move "/segment" to the output
            output.append("/" + segment)
    return prefix[:keep] + "".join(output)


def remove_dot_segments(path: str) -> str:
    """Remove "." and ".." segments from a path (RFC 3986 §5.2.4)."""
    if not isinstance(path, str):
        raise type_error("remove_dot_segments", "path", path)
    return _remove_dot_segments(path)


def _remove_dot_segments_2396(path: str) -> str:
    # RFC 2396 §5.2 step 6 c)-g): "." segments go, "<segment>/.." pairs
    # cancel, and ".." that has nothing left to cancel stays (step g).  A
    # leading "/" is the root, which ".." never removes.
    segments = path.split("/")
    floor = 1 if path.startswith("/") else 0
    output = segments[:floor]
    last = len(segments) - 1
    for index in range(floor, len(segments)):
        segment = segments[index]
        if segment == ".":
            if index == last:  # 6d: a final "." leaves its "/"
                output.append("")
        elif segment == "..":
            if len(output) > floor and output[-1] != "..":  # 6e, 6f
                output.pop()
                if index == last:
                    output.append("")
            else:  # 6g: kept
                output.append("..")
        else:
            output.append(segment)
    return "/".join(output)


# ---- §5.2 -------------------------------------------------------------------


def _merge(base: Split, ref_path: str) -> str:
    # §5.2.3
    if base.authority is not None and base.path == "":
        return "/" + ref_path
    return base.path[: base.path.rfind("/") + 1] + ref_path


def _split_base(base: str) -> Split:
    b = _split(base)
    if b.scheme is None:
        # §5.2.1: only the scheme is required of a base URI
        raise InvalidURI("base URI must be absolute", 0, "absolute-URI")
    return b


def _resolve(base: str, ref: str, strict: bool, rfc2396: bool) -> str:
    return _resolve_split(_split_base(base), ref, strict, rfc2396)


def _resolve_split(b: Split, ref: str, strict: bool, rfc2396: bool) -> str:
    # §5.2.2 against a base already split (and known to have a scheme): a
    # batch splits its base once.
    assert b.scheme is not None
    scheme, authority, path, query, fragment = _split(ref)
    if rfc2396 and scheme is None and authority is None and path == "" and query is None:
        # RFC 2396 §5.2 step 2: a reference to the current document
        return _recompose(b.scheme, b.authority, b.path, b.query, fragment)
    if not strict and scheme is not None and _lower(scheme) == _lower(b.scheme):
        scheme = None  # §5.2.2: the non-strict "http:g" loophole
    if rfc2396:
        # RFC 2396 §5.2 steps 3-5 take absolute URIs, network paths and
        # absolute paths as written; only step 6 resolves dot segments.
        if scheme is None and authority is None and not path.startswith("/"):
            path = _remove_dot_segments_2396(_merge(b, path))
    elif scheme is not None or authority is not None:
        path = _remove_dot_segments(path)
    elif path == "":
        path = b.path
        if query is None:
            query = b.query
    elif path.startswith("/"):
        path = _remove_dot_segments(path)
    else:
        path = _remove_dot_segments(_merge(b, path))
    if scheme is None:
        scheme = b.scheme
        if authority is None:
            authority = b.authority
    return _recompose(scheme, authority, path, query, fragment)


def resolve(base: str, ref: str, *, strict: bool = True, rfc: int = 3986) -> str:
    """Resolve ``ref`` against ``base`` (RFC 3986 §5.2).

    ``strict=False`` ignores a reference scheme equal to the base's (§5.2.2);
    ``rfc=2396`` gives RFC 2396 §5.2 results (unresolvable ".." kept, absolute
    paths taken as written).  ``InvalidURI`` when ``base`` has no scheme.
    """
    if not isinstance(base, str):
        raise type_error("resolve", "base", base)
    if not isinstance(ref, str):
        raise type_error("resolve", "ref", ref)
    rfc2396 = rfc_number("resolve", rfc) == 2396
    return _resolve(base, ref, bool(strict), rfc2396)


# ---- §6.2.2 and §6.2.3 --------------------------------------------------------


# A triplet, its two hex digits captured: split() alternates text and digits.
_TRIPLET = re.compile(r"%([0-9A-Fa-f]{2})")
# The §6.2.2 form of each triplet on its own: decoded when unreserved, else
# with uppercase hex digits; _LOWER_TRIPLET also folds a decoded letter.
_NORMAL_TRIPLET = {
    a + b: chr(int(a + b, 16)) if chr(int(a + b, 16)) in _UNRESERVED else "%" + (a + b).upper()
    for a in _HEXDIG
    for b in _HEXDIG
}
_LOWER_TRIPLET = {
    pair: value.lower() if len(value) == 1 else value for pair, value in _NORMAL_TRIPLET.items()
}


def _normalize_component(text: str, lower: bool = False, host: bool = False) -> str:
    # §6.2.2.1: hex digits of a triplet uppercase (and the letters of scheme
    # and host lowercase); §6.2.2.2: a triplet of an unreserved character
    # decoded.  Malformed "%" stays, and a decoded hex digit that would turn
    # such a "%" into a triplet ("%%34" + "1") stays encoded, so that a
    # second normalization changes nothing.
    if "%" not in text:
        return _lower(text) if lower else text
    if not lower and _NEEDS_WORK.search(text) is None:
        return text  # every triplet is uppercase and reserved: nothing to do
    bracket = host and text.startswith("[")  # inside an IP-literal
    pieces = _TRIPLET.split(text)
    if text.count("%") == len(pieces) // 2 and not (bracket and "%25" in text):
        # Every "%" starts a triplet (and there is no ZoneID): each triplet
        # is normalized on its own, the text between only case-folded.
        pieces[1::2] = map((_LOWER_TRIPLET if lower else _NORMAL_TRIPLET).__getitem__, pieces[1::2])
        if lower:
            pieces[0::2] = map(_lower, pieces[0::2])
        return "".join(pieces)
    zone = False  # inside an RFC 6874 ZoneID, whose case is kept
    out: List[str] = []
    tail = ""  # the last two characters written
    i, n = 0, len(text)
    while i < n:
        j = text.find("%", i)
        if j < 0:
            j = n
        if j > i:
            run = text[i:j]
            if zone:
                close = run.find("]")
                if close >= 0:
                    zone = bracket = False
                    run = run[:close] + _lower(run[close:])
            elif lower:
                if bracket and "]" in run:
                    bracket = False
                run = _lower(run)
            out.append(run)
            tail = (tail + run)[-2:]
            i = j
            if i == n:
                break
        pair = text[i + 1 : i + 3]
        if len(pair) == 2 and pair[0] in _HEXDIG and pair[1] in _HEXDIG:
            char = chr(int(pair, 16))
            if char in _UNRESERVED and not (
                char in _HEXDIG
                and (
                    (len(tail) == 2 and tail[0] == "%" and tail[1] in _HEXDIG)
                    or (tail[-1:] == "%" and i + 3 < n and text[i + 3] in _HEXDIG)
                )
            ):
                piece = _lower(char) if lower and not zone else char
            else:
                piece = "%" + pair.upper()
                if bracket and piece == "%25":
                    zone = True
            i += 3
        else:
            piece = "%"
            i += 1
        out.append(piece)
        tail = (tail + piece)[-2:]
    return "".join(out)


def _drops_port(scheme: Optional[str], port: str) -> bool:
    # §6.2.3: an empty port, or the scheme's default compared as a number
    if port == "":
        return True
    default = _DEFAULT_PORT.get(scheme) if scheme is not None else None
    return default is not None and port.isascii() and port.isdigit() and port.lstrip("0") == default


def _normalize_authority(authority: str, scheme: Optional[str], scheme_based: bool) -> str:
    userinfo, host, port = _split_authority(authority)
    while port is not None:
        port = _normalize_component(port)
        if not (scheme_based and _drops_port(scheme, port)):
            break
        # A dropped port can uncover another in a malformed host ("a:80:80");
        # dropping that too keeps normalization idempotent.
        _, host, port = _split_authority(host)
    result: List[str] = []
    if userinfo is not None:
        result += (_normalize_component(userinfo), "@")
    result.append(_normalize_component(host, lower=True, host=True))
    if port is not None:
        result += (":", port)
    return "".join(result)


def _normalize(s: str, scheme_based: bool) -> str:
    scheme, authority, path, query, fragment = _split(s)
    if scheme is not None:
        scheme = _normalize_component(scheme, lower=True)
    if authority is not None:
        authority = _normalize_authority(authority, scheme, scheme_based)
    path = _normalize_component(path)
    # §6.2.2.3; a relative path without a scheme has no base to climb yet
    if scheme is not None or path.startswith("/"):
        path = _remove_dot_segments(path)
    if scheme_based and authority is not None and path == "" and scheme in _DEFAULT_PORT:
        path = "/"  # §6.2.3: an empty path is "/" for these schemes
    if query is not None:
        query = _normalize_component(query)
    if fragment is not None:
        fragment = _normalize_component(fragment)
    return _recompose(scheme, authority, path, query, fragment)


def normalize(s: str, *, scheme_based: bool = True) -> str:
    """Normalize a URI reference (RFC 3986 §6.2.2, then §6.2.3).

    Case, percent-encoding and dot segments always; with ``scheme_based``,
    also empty or default ports and the empty http(s)/ws(s)/ftp path.
    Idempotent on every string.
    """
    if not isinstance(s, str):
        raise type_error("normalize", "s", s)
    return _normalize(s, bool(scheme_based))


def equivalent(a: str, b: str) -> bool:
    """Are ``a`` and ``b`` equivalent after normalization (RFC 3986 §6.2)?"""
    if not isinstance(a, str):
        raise type_error("equivalent", "a", a)
    if not isinstance(b, str):
        raise type_error("equivalent", "b", b)
    return a == b or _normalize(a, True) == _normalize(b, True)


# ---- §2.1 -------------------------------------------------------------------

# safe -> (the written form of each octet, the octets written as themselves)
_ENCODE_TABLES: Dict[str, Tuple[Tuple[str, ...], bytes]] = {}


def _encode_table(safe: str) -> Tuple[Tuple[str, ...], bytes]:
    entry = _ENCODE_TABLES.get(safe)
    if entry is None:
        keep = _UNRESERVED | {c for c in safe if c.isascii()}
        table = tuple(chr(b) if chr(b) in keep else f"%{b:02X}" for b in range(256))
        entry = (table, "".join(sorted(keep)).encode("ascii"))
        if len(_ENCODE_TABLES) < 256:
            _ENCODE_TABLES[safe] = entry
    return entry


def percent_encode(
    s: str, safe: str = "", *, encoding: str = "utf-8", errors: str = "strict"
) -> str:
    """Percent-encode every octet outside unreserved and ``safe`` (RFC 3986 §2.1).

    The text is first encoded with ``encoding``/``errors``; only the ASCII
    characters of ``safe`` are honoured.  Hex digits are uppercase.
    """
    if not isinstance(s, str):
        raise type_error("percent_encode", "s", s)
    if not isinstance(safe, str):
        raise type_error("percent_encode", "safe", safe)
    if not isinstance(encoding, str):
        raise type_error("percent_encode", "encoding", encoding)
    if not isinstance(errors, str):
        raise type_error("percent_encode", "errors", errors)
    data = str.encode(s, encoding, errors)
    table, kept = _encode_table(safe)
    if not data.translate(None, kept):
        return data.decode("ascii")  # nothing to encode
    return "".join(map(table.__getitem__, data))


# A triplet, its two hex digits captured: split() alternates text and digits.
_TRIPLET_BYTES = re.compile(rb"%([0-9A-Fa-f]{2})")
_OCTET = {(a + b).encode(): bytes([int(a + b, 16)]) for a in _HEXDIG for b in _HEXDIG}


def _decode_bytes(data: bytes) -> bytes:
    pieces = _TRIPLET_BYTES.split(data)
    if len(pieces) == 1:
        return data
    pieces[1::2] = map(_OCTET.__getitem__, pieces[1::2])
    return b"".join(pieces)


def percent_decode_bytes(s: Union[str, bytes]) -> bytes:
    """Decode every ``%hh`` triplet to its octet (RFC 3986 §2.1).

    A ``str`` is UTF-8 encoded (``surrogatepass``) first; malformed ``%``
    sequences are kept.
    """
    if isinstance(s, str):
        data = str.encode(s, "utf-8", "surrogatepass")
    elif isinstance(s, bytes):
        data = bytes(s)
    else:
        raise type_error("percent_decode_bytes", "s", s, "str or bytes")
    return _decode_bytes(data)


def percent_decode(s: str, *, encoding: str = "utf-8", errors: str = "strict") -> str:
    """Decode ``%hh`` triplets and read the octets as ``encoding`` (RFC 3986 §2.1).

    Equal to ``percent_decode_bytes(s).decode(encoding, errors)``: malformed
    ``%`` sequences are kept, and undecodable octets follow ``errors``
    (``UnicodeDecodeError`` by default).
    """
    if not isinstance(s, str):
        raise type_error("percent_decode", "s", s)
    if not isinstance(encoding, str):
        raise type_error("percent_decode", "encoding", encoding)
    if not isinstance(errors, str):
        raise type_error("percent_decode", "errors", errors)
    return bytes.decode(_decode_bytes(str.encode(s, "utf-8", "surrogatepass")), encoding, errors)
