"""urljoin, urldefrag, urlunsplit and urlunparse as Python 3.14 defines them.

From 3.14 the stdlib splits with ``None`` for a component that is missing
and ``""`` for one that is present but empty, and puts results together
from exactly what is defined: an empty query or fragment keeps its ``?`` or
``#``, and urlunparse decides on the ``//`` of an empty netloc from the path
before its params.  This model (plain Python, written from those rules) is
what the compiled 3.14 paths are compared with on the interpreters before
3.14, where they can only be switched on by hand, on inputs the compiled
code answers itself (no leading controls, tab/CR/LF, brackets or non-ASCII
netloc, which it hands to the running stdlib); .ci/run also runs the suite
on real 3.14 and 3.15, where the probes choose these paths themselves.
"""

from __future__ import annotations

from urllib.parse import DefragResult, urlsplit, uses_netloc, uses_relative

SCHEME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
# The compiled paths split as the running interpreter does, and the 3.9 and
# 3.10 here also take a scheme that starts with a digit, "+", "-" or ".".
FIRST_MUST_BE_LETTER = urlsplit(".:/").scheme == ""


def split_defined(url, allow_fragments=True):
    """(scheme, netloc, path, query, fragment) with None for a missing one."""
    scheme = netloc = query = fragment = None
    colon = url.find(":")
    if colon > 0 and (not FIRST_MUST_BE_LETTER or (url[0].isascii() and url[0].isalpha())):
        if all(c in SCHEME_CHARS for c in url[:colon]):
            scheme, url = url[:colon].lower(), url[colon + 1 :]
    if url[:2] == "//":
        ends = [i for i in (url.find(c, 2) for c in "/?#") if i >= 0]
        end = min(ends) if ends else len(url)
        netloc, url = url[2:end], url[end:]
    if allow_fragments and "#" in url:
        url, fragment = url.split("#", 1)
    if "?" in url:
        url, query = url.split("?", 1)
    return scheme, netloc, url, query, fragment


def compose(scheme, netloc, path, query, fragment):
    if netloc is not None:
        if path and path[:1] != "/":
            path = "/" + path
        path = "//" + netloc + path
    elif path[:2] == "//":
        path = "//" + path
    if scheme:
        path = scheme + ":" + path
    if query is not None:
        path += "?" + query
    if fragment is not None:
        path += "#" + fragment
    return path


def _netloc(scheme, netloc, path):
    if netloc:
        return netloc
    keeps = scheme and scheme in uses_netloc and (not path or path[:1] == "/")
    return "" if keeps else None


def urlunsplit(parts):
    scheme, netloc, path, query, fragment = parts
    return compose(scheme or None, _netloc(scheme, netloc, path), path, query or None,
                   fragment or None)  # fmt: skip


def urlunparse(parts):
    scheme, netloc, path, params, query, fragment = parts
    netloc = _netloc(scheme, netloc, path)  # decided before the params join the path
    if params:
        path = f"{path};{params}"
    return compose(scheme or None, netloc, path, query or None, fragment or None)


def _merge(base_path, path):
    if path[:1] == "/":
        segments = path.split("/")
    else:
        base_parts = base_path.split("/")
        if base_parts[-1]:  # a last segment that is not a directory goes
            del base_parts[-1]
        segments = base_parts + path.split("/")
        segments[1:-1] = [s for s in segments[1:-1] if s]
    resolved = []
    for seg in segments:
        if seg == "..":
            if resolved:
                resolved.pop()
        elif seg != ".":
            resolved.append(seg)
    if segments[-1] in (".", ".."):
        resolved.append("")
    return "/".join(resolved) or "/"


def urljoin(base, url, allow_fragments=True):
    if not base:
        return url
    if not url:
        return base
    bscheme, bnetloc, bpath, bquery, bfragment = split_defined(base, allow_fragments)
    scheme, netloc, path, query, fragment = split_defined(url, allow_fragments)
    if scheme is None:
        scheme = bscheme
    if scheme != bscheme or (scheme is not None and scheme not in uses_relative):
        return url
    if scheme is None or scheme in uses_netloc:
        if netloc:
            return compose(scheme, netloc, path, query, fragment)
        netloc = bnetloc
    if not path:
        if query is None:
            query = bquery
            if fragment is None:
                fragment = bfragment
        return compose(scheme, netloc, bpath, query, fragment)
    return compose(scheme, netloc, _merge(bpath, path), query, fragment)


def urldefrag(url):
    if "#" not in url:
        return DefragResult(url, "")
    scheme, netloc, path, query, fragment = split_defined(url)
    return DefragResult(compose(scheme, netloc, path, query, None), fragment or "")
