"""The key of ``w3lib.url.canonicalize_url`` (scrapy's request fingerprints).

``key(s, keep_fragment)`` is ``canonicalize(s, preset="w3lib")``: the
reference twin of the compiled ``_w3lib_c``.  Steps 1 and 2 (the split
and the authority) are ``_w3lib``'s, shared by both twins.  The steps, in
w3lib's order:

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

from typing import List, Tuple

from . import _w3lib
from ._w3lib import (
    C0_OR_SPACE,
    FIELD_SAFE,
    FRAGMENT_SAFE,
    PATH_SAFE,
    PATH_SAFE_AGAIN,
    QUERY_SAFE,
    SPECIAL,
    SPECIAL_QUERY_SAFE,
    TAB_NEWLINE,
    USES_NETLOC,
    USES_PARAMS,
    quote,
    unquote,
)

__all__ = ["key"]


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
    return unquote(path.encode())


def _query(query: str) -> str:
    fields: List[Tuple[bytes, bytes]] = []
    for field in query.encode().split(b"&"):
        if field:
            name, _, value = field.partition(b"=")
            fields.append((unquote(name, True), unquote(value, True)))
    fields.sort()
    return "&".join(
        quote(name, FIELD_SAFE, True) + "=" + quote(value, FIELD_SAFE, True)
        for name, value in fields
    )


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
    if any(c in C0_OR_SPACE for c in s):
        s = s.strip(C0_OR_SPACE).translate(TAB_NEWLINE)
    p = _w3lib.split(s)
    special = p.scheme in SPECIAL
    netloc = _w3lib.netloc(p.netloc)
    path = quote(p.path.encode(), PATH_SAFE)
    query = quote(p.query.encode(), SPECIAL_QUERY_SAFE if special else QUERY_SAFE)
    fragment = quote(p.fragment.encode(), FRAGMENT_SAFE)
    if not path and query and special:
        path = "/"
    params = ""
    if p.scheme in USES_PARAMS:
        semi = path.find(";", path.rfind("/") + 1)
        if semi >= 0:
            path, params = path[:semi], path[semi + 1 :]
    if query:
        query = _query(query)
    path = quote(_keep_escapes(path), PATH_SAFE_AGAIN) if path else "/"
    if path.startswith("/"):
        path = _remove_dot_segments(path)
    if params:
        path = path + ";" + params
    return _join(p.scheme, netloc, path, query, fragment if keep_fragment else "")
