"""Dedup keys and batch functions, over the reference core.

``canonicalize`` builds a crawler's key on top of RFC 3986 §6.2 normalization;
the ``*_many`` functions apply one operation to every item of an iterable.
The compiled twin (``_pipeline_c``) does the same in one pass of the
compiled core.
"""

from __future__ import annotations

from typing import Any, Callable, FrozenSet, Iterable, List, Optional, Tuple

from . import _core_py as _core
from . import _w3lib_py
from ._errors import item_error, rfc_error, type_error
from ._types import Split

_Rules = Tuple[FrozenSet[bytes], Tuple[bytes, ...]]


def _iterate(func: str, name: str, items: Any) -> Any:
    # A str is an iterable of one-character strings: batching its characters
    # is never what the caller meant.
    if isinstance(items, (str, bytes)):
        raise type_error(func, name, items, "an iterable of str")
    try:
        return iter(items)
    except TypeError:
        raise type_error(func, name, items, "an iterable of str") from None


def _is_sequence(items: Any) -> bool:
    # A list or tuple can be read twice: first by the fast path, a list
    # comprehension over the unchecked function (which raises TypeError on
    # the first item that is not a str), then, only if that happened, by the
    # loop that checks and reports each item.
    return type(items) is list or type(items) is tuple


def _checked(func: str, name: str, items: Any, skip: bool, fn: Callable[[str], Any]) -> List[Any]:
    # fn on every item that is a str; any other item gives None (skip) or a
    # TypeError naming its index, which is len(out): each item read appends
    # one result.
    out: List[Any] = []
    append = out.append
    for item in _iterate(func, name, items):
        if isinstance(item, str):
            append(fn(item))
        elif skip:
            append(None)
        else:
            raise item_error(func, len(out), item)
    return out


def _skip_bad(func: str, errors: object) -> bool:
    if errors == "raise":
        return False
    if errors == "none":
        return True
    raise ValueError(f"{func}() argument 'errors' must be 'raise' or 'none', not {errors!r}")


def _drop_rules(func: str, drop_params: Any) -> _Rules:
    """Split ``drop_params`` into exact names and ``*`` prefixes, as UTF-8."""
    exact = set()
    prefixes: List[bytes] = []
    for name in _iterate(func, "drop_params", drop_params):
        if not isinstance(name, str):
            raise TypeError(
                f"{func}() argument 'drop_params' items must be str, not {type(name).__name__}"
            )
        # surrogatepass: names are compared as the bytes percent_decode_bytes
        # gives, which encodes text the same way.
        if name.endswith("*"):
            prefixes.append(name[:-1].encode("utf-8", "surrogatepass"))
        else:
            exact.add(name.encode("utf-8", "surrogatepass"))
    return frozenset(exact), tuple(prefixes)


def _is_dropped(field: str, rules: _Rules) -> bool:
    exact, prefixes = rules
    name = _core.percent_decode_bytes(field.partition("=")[0])
    return name in exact or any(name.startswith(p) for p in prefixes)


def _key(s: str, sort_query: bool, drop_fragment: bool, rules: _Rules) -> str:
    text = _core.normalize(s)
    # Appendix B: the fragment starts at the first "#" and the query at the
    # first "?" before it.  Normalization decodes only unreserved characters
    # (§6.2.2.2), so it never adds or removes either delimiter.
    head, hash_sign, fragment = text.partition("#")
    path_part, question, query = head.partition("?")
    if question and (sort_query or rules[0] or rules[1]):
        fields = query.split("&")
        if rules[0] or rules[1]:
            fields = [f for f in fields if not _is_dropped(f, rules)]
        if sort_query:
            # Python orders str by code point, which is the byte order of
            # their UTF-8 (surrogatepass) encodings.
            fields.sort()
        if fields:
            head = path_part + "?" + "&".join(fields)
        else:
            head = path_part  # every field was dropped: the "?" goes too
    if drop_fragment or not hash_sign:
        return head
    return head + "#" + fragment


def _preset(func: str, preset: Optional[str], sort_query: object, drop_params: Any) -> bool:
    """Whether ``preset`` asks for w3lib's key (which always sorts, drops nothing)."""
    if preset is None:
        return False
    if preset != "w3lib":
        raise ValueError(f"{func}() argument 'preset' must be None or 'w3lib', not {preset!r}")
    if not sort_query or _drop_rules(func, drop_params) != (frozenset(), ()):
        raise ValueError(
            f"{func}() with preset='w3lib' always sorts the query and drops no parameter"
        )
    return True


def canonicalize(
    s: str,
    *,
    sort_query: bool = True,
    drop_fragment: bool = True,
    drop_params: Iterable[str] = (),
    preset: Optional[str] = None,
) -> str:
    """A dedup key: ``normalize(s)`` (§6.2.2, §6.2.3) with its query sorted and filtered.

    The query's ``&``-separated fields are stably sorted by the byte order of
    their normalized text; a field whose name (the text before its first
    ``=``, percent-decoded) equals one of ``drop_params``, or starts with one
    that ends in ``*`` (``"utm_*"``), is removed, and a query left with no
    field loses its ``?``.  An empty query that had nothing dropped keeps its
    ``?`` (§6.2.3).  Equivalent URIs always get the same key.

    ``preset="w3lib"`` gives ``w3lib.url.canonicalize_url(s)``'s key instead
    (``drop_fragment=False``: its ``keep_fragments=True``); see
    docs/crawler.md.
    """
    if not isinstance(s, str):
        raise type_error("canonicalize", "s", s)
    if _preset("canonicalize", preset, sort_query, drop_params):
        return _w3lib_py.key(s, not drop_fragment)
    rules = _drop_rules("canonicalize", drop_params)
    return _key(s, bool(sort_query), bool(drop_fragment), rules)


# ---- XXH64 (xxHash's specification, doc/xxhash_spec.md) ------------------

_M64 = (1 << 64) - 1
_P1 = 0x9E3779B185EBCA87
_P2 = 0xC2B2AE3D27D4EB4F
_P3 = 0x165667B19E3779F9
_P4 = 0x85EBCA77C2B2AE63
_P5 = 0x27D4EB2F165667C5


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (64 - r))) & _M64


def _round(acc: int, lane: int) -> int:
    return _rotl((acc + lane * _P2) & _M64, 31) * _P1 & _M64


def xxh64(data: bytes, seed: int = 0) -> int:
    """XXH64 of ``data``: lanes are little-endian 64-bit words."""
    n = len(data)
    i = 0
    if n >= 32:
        # four accumulators over 32-byte stripes
        v = [(seed + _P1 + _P2) & _M64, (seed + _P2) & _M64, seed & _M64, (seed - _P1) & _M64]
        while i + 32 <= n:
            for k in range(4):
                v[k] = _round(v[k], int.from_bytes(data[i + 8 * k : i + 8 * k + 8], "little"))
            i += 32
        h = (_rotl(v[0], 1) + _rotl(v[1], 7) + _rotl(v[2], 12) + _rotl(v[3], 18)) & _M64
        for lane in v:
            h = ((h ^ _round(0, lane)) * _P1 + _P4) & _M64
    else:
        h = (seed + _P5) & _M64
    h = (h + n) & _M64
    # the rest: 8-byte lanes, a 4-byte lane, single bytes
    while i + 8 <= n:
        h ^= _round(0, int.from_bytes(data[i : i + 8], "little"))
        h = (_rotl(h, 27) * _P1 + _P4) & _M64
        i += 8
    if i + 4 <= n:
        h ^= int.from_bytes(data[i : i + 4], "little") * _P1 & _M64
        h = (_rotl(h, 23) * _P2 + _P3) & _M64
        i += 4
    while i < n:
        h ^= data[i] * _P5 & _M64
        h = _rotl(h, 11) * _P1 & _M64
        i += 1
    # avalanche
    h ^= h >> 33
    h = h * _P2 & _M64
    h ^= h >> 29
    h = h * _P3 & _M64
    h ^= h >> 32
    return h


def fingerprint(
    s: str,
    *,
    sort_query: bool = True,
    drop_fragment: bool = True,
    drop_params: Iterable[str] = (),
    preset: Optional[str] = None,
) -> int:
    """A stable unsigned 64-bit hash of ``canonicalize(s, ...)``: XXH64, seed 0,
    of the key's UTF-8 bytes (lone surrogates as ``surrogatepass`` writes them).
    """
    if not isinstance(s, str):
        raise type_error("fingerprint", "s", s)
    if _preset("fingerprint", preset, sort_query, drop_params):
        text = _w3lib_py.key(s, not drop_fragment)
    else:
        rules = _drop_rules("fingerprint", drop_params)
        text = _key(s, bool(sort_query), bool(drop_fragment), rules)
    return xxh64(text.encode("utf-8", "surrogatepass"))


def split_many(uris: Iterable[str], *, errors: str = "raise") -> List[Optional[Split]]:
    """``split`` (Appendix B) applied to every item of ``uris``.

    An item that is not a ``str`` raises ``TypeError`` naming its 0-based
    index (``"split_many() item 3 must be str, not int"``); the results so far
    are discarded and an iterator is left where it stopped.  With
    ``errors="none"`` such an item gives ``None`` and the batch goes on.
    """
    skip = _skip_bad("split_many", errors)
    # The batch checks each item's type itself, so it calls the unchecked
    # _split.
    split = _core._split
    if _is_sequence(uris):
        try:
            return [split(item) for item in uris]
        except TypeError:
            pass
    return _checked("split_many", "uris", uris, skip, split)


def normalize_many(
    uris: Iterable[str], *, scheme_based: bool = True, errors: str = "raise"
) -> List[Optional[str]]:
    """``normalize`` (§6.2.2, §6.2.3) applied to every item of ``uris``.

    A non-``str`` item raises ``TypeError`` naming its index, or gives
    ``None`` with ``errors="none"`` (as ``split_many``).
    """
    skip = _skip_bad("normalize_many", errors)
    normalize = _core._normalize  # unchecked, as in split_many
    scheme_based = bool(scheme_based)
    if _is_sequence(uris):
        try:
            return [normalize(item, scheme_based) for item in uris]
        except TypeError:
            pass
    return _checked(
        "normalize_many", "uris", uris, skip, lambda item: normalize(item, scheme_based)
    )


def canonicalize_many(
    uris: Iterable[str],
    *,
    sort_query: bool = True,
    drop_fragment: bool = True,
    drop_params: Iterable[str] = (),
    errors: str = "raise",
    preset: Optional[str] = None,
) -> List[Optional[str]]:
    """``canonicalize`` applied to every item of ``uris``, options read once.

    A non-``str`` item raises ``TypeError`` naming its index, or gives
    ``None`` with ``errors="none"`` (as ``split_many``).
    """
    skip = _skip_bad("canonicalize_many", errors)
    if _preset("canonicalize_many", preset, sort_query, drop_params):
        keep = not drop_fragment
        return _checked(
            "canonicalize_many", "uris", uris, skip, lambda item: _w3lib_py.key(item, keep)
        )
    rules = _drop_rules("canonicalize_many", drop_params)
    sort_query = bool(sort_query)
    drop_fragment = bool(drop_fragment)
    if _is_sequence(uris):
        try:
            return [_key(item, sort_query, drop_fragment, rules) for item in uris]
        except TypeError:
            pass
    return _checked(
        "canonicalize_many",
        "uris",
        uris,
        skip,
        lambda item: _key(item, sort_query, drop_fragment, rules),
    )


def resolve_many(
    base: str,
    refs: Iterable[str],
    *,
    strict: bool = True,
    rfc: int = 3986,
    errors: str = "raise",
) -> List[Optional[str]]:
    """``resolve(base, ref)`` (§5.2) for every item of ``refs``.

    ``base`` is checked before any item is read: ``InvalidURI`` when it has
    no scheme (§5.2.1).  A non-``str`` item raises ``TypeError`` naming its
    index, or gives ``None`` with ``errors="none"`` (as ``split_many``).
    """
    skip = _skip_bad("resolve_many", errors)
    if not isinstance(base, str):
        raise type_error("resolve_many", "base", base)
    if rfc != 3986 and rfc != 2396:
        raise rfc_error("resolve_many", rfc)
    strict = bool(strict)
    rfc2396 = rfc == 2396
    parts = _core._split_base(base)  # InvalidURI for a relative base
    resolve = _core._resolve_split
    if _is_sequence(refs):
        try:
            return [resolve(parts, item, strict, rfc2396) for item in refs]
        except TypeError:
            pass
    return _checked(
        "resolve_many", "refs", refs, skip, lambda item: resolve(parts, item, strict, rfc2396)
    )


__all__ = [
    "canonicalize",
    "canonicalize_many",
    "fingerprint",
    "normalize_many",
    "resolve_many",
    "split_many",
    "xxh64",
]
