"""The rare steps of SURT canonicalization, shared by both ``_surt`` twins.

Session-ID removal is a handful of regular expressions (the compiled twin
calls these only when a path or query holds what one of them needs), and
IDNA is the stdlib's codec, its answers for recent hosts remembered: the
reference's, and the compiled twin's for the hosts its C IDNA 2003 leaves
to the running Python (code points Unicode 3.2 does not assign); neither
is hot.
"""

from __future__ import annotations

import functools
import re

# A path segment like "(S(24 chars))/" or "(24 chars)/" before an .aspx page
# (ASP.NET cookieless sessions); the segment is dropped.
_PATH_SESSION = (
    re.compile(rb"^(.*/)(\((?:[a-z]\([0-9a-z]{24}\))+\)/)([^\?]+\.aspx.*)$", re.I),
    re.compile(rb"^(.*/)(\([0-9a-z]{24}\)/)([^\?]+\.aspx.*)$", re.I),
)

# Session-ID query fields (Java, PHP, generic, ASP, ColdFusion); the field
# and the "&" after it are dropped.
_QUERY_SESSION = (
    re.compile(rb"^(.*)(?:jsessionid=[0-9a-zA-Z]{32})(?:&(.*))?$", re.I),
    re.compile(rb"^(.*)(?:phpsessid=[0-9a-zA-Z]{32})(?:&(.*))?$", re.I),
    re.compile(rb"^(.*)(?:sid=[0-9a-zA-Z]{32})(?:&(.*))?$", re.I),
    re.compile(rb"^(.*)(?:aspsessionid[a-zA-Z]{8}=[a-zA-Z]{24})(?:&(.*))?$", re.I),
    re.compile(rb"^(.*)(?:cfid=[^&]+&cftoken=[^&]+)(?:&(.*))?$", re.I),
)


def strip_path_session(path: bytes) -> bytes:
    """The path without an ASP.NET session segment."""
    for pattern in _PATH_SESSION:
        m = pattern.match(path)
        if m:
            path = m.group(1) + m.group(3)
    return path


def strip_query_session(query: bytes) -> bytes:
    """The query without its session-ID fields."""
    for pattern in _QUERY_SESSION:
        m = pattern.match(query)
        if m:
            query = m.group(1) + (m.group(2) or b"")
    return query


def idna_host(host: bytes) -> bytes:
    """A non-ASCII host in A-labels (IDNA 2003), or as it is when that fails."""
    # a crawl repeats its hosts, and the codec is pure Python (about 13 us
    # a host): hosts of DNS length are remembered
    return _idna_cached(host) if len(host) <= 255 else _idna(host)


def _idna(host: bytes) -> bytes:
    try:
        return host.decode("utf-8", "ignore").encode("idna")
    except UnicodeError:
        return host


_idna_cached = functools.lru_cache(maxsize=4096)(_idna)
