"""What a log analyst reads out of a URI, reference twin of ``_parts_c``.

Every function takes the RFC 3986 components of Appendix B's split (so a
``#`` always ends the query, and a URI without an authority still has a
path and a query), and answers from them:

* the query is split on ``&``; a field is a non-empty piece, its key the
  text before its first ``=``, its value the text after it (none without
  ``=``).  Empty pieces (``&&``, a leading or trailing ``&``) are no field,
  as ``urllib.parse.parse_qsl`` reads them.
* decoded (``decode=True``), a key or value is read as
  ``application/x-www-form-urlencoded``: ``+`` is a space, then every valid
  ``%hh`` is its octet (a malformed ``%`` stays as written), and the octets
  are read as UTF-8, each maximal invalid subsequence one U+FFFD (as
  ``bytes.decode(..., "replace")``; text that is not an escape counts as its
  UTF-8, a lone surrogate as its ``surrogatepass`` bytes, as in
  ``percent_decode``).
* the path's last segment is the text after its last ``/``; the
  registrable domain is ``registrable_domain``'s, from the same host.
"""

from __future__ import annotations

import re
from typing import Iterable, List, Optional, Pattern, Tuple

from . import _core_py as _core
from . import _psl_py as _psl
from ._errors import type_error


def _fields(query: Optional[str]) -> List[Tuple[str, Optional[str]]]:
    """The query's fields, each (key, value) as written; value None without '='."""
    if query is None:
        return []
    fields: List[Tuple[str, Optional[str]]] = []
    for piece in query.split("&"):
        if piece:
            key, eq, value = piece.partition("=")
            fields.append((key, value if eq else None))
    return fields


def _form_decode(text: str) -> str:
    """``application/x-www-form-urlencoded`` decoding of a key or a value."""
    if text.isascii() and "%" not in text and "+" not in text:
        return text  # (nothing to decode: the common case, answered at once)
    return _core.percent_decode(text.replace("+", " "), errors="replace")


def _check_s(func: str, s: object) -> None:
    if not isinstance(s, str):
        raise type_error(func, "s", s)


def query_param(s: str, name: str, *, decode: bool = True) -> Optional[str]:
    """The value of the first query field whose key is ``name``.

    ``""`` for a field without ``=``; None when no field has that key or
    there is no query.  ``decode=True`` compares and returns keys and values
    form-decoded, ``decode=False`` as written.
    """
    _check_s("query_param", s)
    if not isinstance(name, str):
        raise type_error("query_param", "name", name)
    for key, value in _fields(_core.split(s).query):
        if (_form_decode(key) if decode else key) == name:
            if value is None:
                return ""
            return _form_decode(value) if decode else value
    return None


def query_params(s: str, *, decode: bool = True) -> List[Tuple[str, Optional[str]]]:
    """Every query field in order, as (key, value); value None without ``=``.

    ``decode=True`` form-decodes keys and values, ``decode=False`` gives
    them as written.  ``[]`` when there is no query.
    """
    _check_s("query_params", s)
    fields = _fields(_core.split(s).query)
    if not decode:
        return fields
    return [(_form_decode(k), None if v is None else _form_decode(v)) for k, v in fields]


def _glob(pattern: str) -> Pattern[str]:
    # '*' any run of characters, '?' one character, all else itself
    parts = (".*" if c == "*" else "." if c == "?" else re.escape(c) for c in pattern)
    return re.compile("".join(parts), re.DOTALL)


def _patterns(func: str, patterns: object) -> Tuple[str, ...]:
    if isinstance(patterns, (str, bytes)) or not hasattr(patterns, "__iter__"):
        raise type_error(func, "patterns", patterns, "an iterable of str")
    given = tuple(patterns)
    for i, p in enumerate(given):
        if not isinstance(p, str):
            raise type_error(func, "patterns", p, "str", item=i)
    return given


def remove_params(s: str, patterns: Iterable[str]) -> str:
    """``s`` without the query fields whose form-decoded key matches one of
    the glob ``patterns`` (``*`` any run of characters, ``?`` one).

    Everything else is kept byte for byte, empty pieces included; a query
    that loses every piece loses its ``?``.  ``s`` itself when nothing
    matches.
    """
    _check_s("remove_params", s)
    globs = [_glob(p) for p in _patterns("remove_params", patterns)]
    parts = _core.split(s)
    if parts.query is None or not globs:
        return s
    pieces = parts.query.split("&")
    kept = [
        piece
        for piece in pieces
        if not piece or not any(g.fullmatch(_form_decode(piece.partition("=")[0])) for g in globs)
    ]
    if len(kept) == len(pieces):
        return s
    query = "&".join(kept)
    return _core.unsplit(parts._replace(query=query if query else None))


def path_extension(s: str) -> Optional[str]:
    """The text after the last ``.`` of the path's last segment, as written.

    None when that segment has no ``.``, when its last ``.`` is its first
    character (``.bashrc``), and for the dot-segments ``.`` and ``..``
    (RFC 3986 §3.3), which name no file.
    """
    _check_s("path_extension", s)
    segment = _core.split(s).path.rpartition("/")[2]
    dot = segment.rfind(".")
    if dot <= 0 or segment == "..":
        return None
    return segment[dot + 1 :]


def path_hierarchy(s: str) -> List[str]:
    """The path's prefixes that end at each ``/`` but a leading one, then the
    whole path when it does not end there: ``/a/b/c`` gives ``["/a/",
    "/a/b/", "/a/b/c"]``, ``/`` gives ``["/"]``, an empty path ``[]``."""
    _check_s("path_hierarchy", s)
    path = _core.split(s).path
    levels = [path[: i + 1] for i, c in enumerate(path) if c == "/" and i > 0]
    if path and (not levels or levels[-1] != path):
        levels.append(path)
    return levels


def subdomain(s: str, *, private: bool = False) -> Optional[str]:
    """The host's labels before its registrable domain, lowercased, as
    ``registrable_domain`` finds it (``s`` a URI or a bare host).

    ``""`` when the host is its registrable domain; None when it has none
    (IP addresses, public suffixes, no host).
    """
    _check_s("subdomain", s)
    domain = _psl.registrable_domain(s, private=private)
    if domain is None:
        return None
    labels = _psl._labels(s)  # the host lowercased, one trailing dot dropped
    assert labels is not None
    host = ".".join(labels)
    return host[: len(host) - len(domain) - 1] if len(host) > len(domain) else ""


__all__ = [
    "path_extension",
    "path_hierarchy",
    "query_param",
    "query_params",
    "remove_params",
    "subdomain",
]
