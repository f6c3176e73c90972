"""The libraries fasturi is timed against: one table for ``fasturi bench``
and for the benchmark suite (``benchmarks/peers.py``).

A row is one call of one peer for one operation: the module it needs, how
to load the call (importing the module then, so an absent peer costs
nothing), the label ``fasturi bench`` prints, and a note wherever the peer
does more or less work than the fasturi function it is timed against.
Operations take one URI (``split``, ``uri``, ``normalize``, ``canonicalize``,
``is_valid``) or a base and a reference (``resolve``).
"""

from __future__ import annotations

import importlib
import urllib.parse
from typing import Any, Callable, Dict, NamedTuple, Tuple

# The stdlib's functions as they were when fasturi was imported: a later
# fasturi.parse.install() swaps the ones inside urllib.parse.
_URLLIB = {name: getattr(urllib.parse, name) for name in ("urlsplit", "urljoin")}


class PeerCall(NamedTuple):
    operation: str
    #: the peer's name in benchmark results (its import name)
    peer: str
    #: what ``fasturi bench`` prints for it
    label: str
    #: imports the peer and returns the call; ImportError when it is absent
    load: Callable[[], Callable[..., Any]]
    note: str = ""
    #: the benchmark case's suffix, when the call does more than the bare call
    variant: str = ""


#: Installed distribution of each peer, for the versions a report records.
DISTRIBUTIONS: Dict[str, str] = {
    "rfc3986": "rfc3986",
    "rfc3986_validator": "rfc3986-validator",
    "uritools": "uritools",
    "yarl": "yarl",
    "ada_url": "ada-url",
    "can_ada": "can-ada",
    "w3lib": "w3lib",
}


def _import(module: str) -> Any:
    # Peers are optional and untyped: imported by name, typed as Any.
    return importlib.import_module(module)


def _attr(module: str, name: str) -> Callable[[], Callable[..., Any]]:
    def load() -> Callable[..., Any]:
        return getattr(_import(module), name)  # type: ignore[no-any-return]

    return load


def _urllib(name: str) -> Callable[[], Callable[..., Any]]:
    return lambda: _URLLIB[name]


def _whatwg_components(module: str, parse: str) -> Callable[[], Callable[..., Any]]:
    """A WHATWG parse that then reads the five components fasturi.split gives."""

    def load() -> Callable[..., Any]:
        parse_url = getattr(_import(module), parse)

        def components(s: str) -> None:
            u = parse_url(s)
            u.protocol, u.host, u.pathname, u.search, u.hash  # noqa: B018

        return components

    return load


def _yarl_components() -> Callable[..., Any]:
    url = _import("yarl").URL

    def components(s: str) -> None:
        u = url(s)
        u.scheme, u.raw_authority, u.raw_path, u.raw_query_string, u.raw_fragment  # noqa: B018

    return components


def _yarl_join() -> Callable[..., Any]:
    url = _import("yarl").URL

    def join(base: str, ref: str) -> str:
        return str(url(base).join(url(ref)))

    return join


def _rfc3986_resolve() -> Callable[..., Any]:
    uri_reference = _import("rfc3986").uri_reference

    def resolve(base: str, ref: str) -> str:
        return uri_reference(ref).resolve_with(base).unsplit()  # type: ignore[no-any-return]

    return resolve


def _rfc3986_is_valid() -> Callable[..., Any]:
    uri_reference = _import("rfc3986").uri_reference
    failure = _import("rfc3986.exceptions").ValidationError
    # the library's documented check: every component against its rule
    checker = (
        _import("rfc3986.validators")
        .Validator()
        .check_validity_of("scheme", "userinfo", "host", "port", "path", "query", "fragment")
    )

    def is_valid(s: str) -> bool:
        try:
            checker.validate(uri_reference(s))
        except failure:
            return False
        return True

    return is_valid


def _rfc3986_validator() -> Callable[..., Any]:
    validate = _import("rfc3986_validator").validate_rfc3986

    def is_valid(s: str) -> bool:
        return validate(s, rule="URI_reference") is not None

    return is_valid


_WHATWG = (
    "WHATWG parse: also lowercases, percent-encodes, IDNA-maps the host and removes dot "
    "segments; rejects relative and some odd URLs"
)
_WHATWG_VALID = "WHATWG validity, a different grammar (accepts spaces, rejects relative refs)"
_YARL = "URL(s): urlsplit-style split, then requotes every component and removes dot segments"

PEERS: Tuple[PeerCall, ...] = (
    # split: the components of one URI
    PeerCall(
        "split",
        "urllib.parse",
        "urllib.parse.urlsplit",
        _urllib("urlsplit"),
        "urlsplit: lowercases the scheme, removes tab/CR/LF, checks a bracketed host; "
        "its cache (3.11+) misses on a corpus of distinct URLs",
    ),
    PeerCall(
        "split",
        "rfc3986",
        "rfc3986.uri_reference",
        _attr("rfc3986", "uri_reference"),
        "uri_reference: regex split into a URIReference namedtuple",
    ),
    PeerCall("split", "uritools", "uritools.urisplit", _attr("uritools", "urisplit")),
    PeerCall("split", "yarl", "yarl.URL", _yarl_components, _YARL, "components"),
    PeerCall(
        "split",
        "ada_url",
        "ada_url.URL",
        _whatwg_components("ada_url", "URL"),
        _WHATWG,
        "components",
    ),
    PeerCall(
        "split",
        "can_ada",
        "can_ada.parse",
        _whatwg_components("can_ada", "parse"),
        _WHATWG,
        "components",
    ),
    # uri: an object built from one URI
    PeerCall(
        "uri",
        "rfc3986",
        "rfc3986.uri_reference",
        _attr("rfc3986", "uri_reference"),
        "URIReference is a namedtuple: its components are built by the parse",
    ),
    PeerCall("uri", "yarl", "yarl.URL", _attr("yarl", "URL"), _YARL),
    PeerCall("uri", "can_ada", "can_ada.parse", _attr("can_ada", "parse"), _WHATWG),
    PeerCall(
        "uri",
        "can_ada",
        "can_ada.parse",
        _whatwg_components("can_ada", "parse"),
        _WHATWG,
        "components",
    ),
    # resolve: (base, reference)
    PeerCall(
        "resolve",
        "urllib.parse",
        "urllib.parse.urljoin",
        _urllib("urljoin"),
        "urljoin: RFC 3986 §5.2 for its uses_relative schemes; the base's split is served "
        "from urlsplit's cache when the base repeats",
    ),
    PeerCall(
        "resolve",
        "rfc3986",
        "rfc3986 resolve_with",
        _rfc3986_resolve,
        "uri_reference(ref).resolve_with(base).unsplit(): parses and validates both, builds "
        "a str; each call also issues a DeprecationWarning (ignored, as by default)",
    ),
    PeerCall("resolve", "uritools", "uritools.urijoin", _attr("uritools", "urijoin")),
    PeerCall(
        "resolve",
        "yarl",
        "yarl URL.join",
        _yarl_join,
        "str(URL(base).join(URL(ref))): requotes both, builds a str",
    ),
    PeerCall(
        "resolve",
        "ada_url",
        "ada_url.join_url",
        _attr("ada_url", "join_url"),
        "WHATWG join: also normalizes the result (case, percent-encoding, IDNA)",
    ),
    # normalize
    PeerCall(
        "normalize",
        "rfc3986",
        "rfc3986.normalize_uri",
        _attr("rfc3986", "normalize_uri"),
        "§6.2.2 case and dot segments only: no decoding of percent-encoded unreserved "
        "characters, no §6.2.3 default port",
    ),
    PeerCall(
        "normalize",
        "w3lib",
        "w3lib.url.canonicalize_url",
        _attr("w3lib.url", "canonicalize_url"),
        "canonicalize_url does more: sorts the query, drops the fragment, percent-encodes "
        "to UTF-8 and IDNA-encodes the host",
    ),
    PeerCall(
        "normalize",
        "ada_url",
        "ada_url.normalize_url",
        _attr("ada_url", "normalize_url"),
        "WHATWG serialization, through cffi; rejects relative and some odd URLs",
    ),
    # canonicalize
    PeerCall(
        "canonicalize",
        "w3lib",
        "w3lib.url.canonicalize_url",
        _attr("w3lib.url", "canonicalize_url"),
        "also IDNA-encodes the host and percent-encodes non-ASCII",
    ),
    # is_valid
    PeerCall(
        "is_valid",
        "rfc3986",
        "rfc3986 Validator",
        _rfc3986_is_valid,
        "checks each component against its rule, not the whole grammar",
    ),
    PeerCall(
        "is_valid",
        "rfc3986_validator",
        "rfc3986_validator",
        _rfc3986_validator,
        "one regular expression built from the Appendix A grammar",
    ),
    PeerCall(
        "is_valid", "ada_url", "ada_url.check_url", _attr("ada_url", "check_url"), _WHATWG_VALID
    ),
    PeerCall(
        "is_valid", "can_ada", "can_ada.can_parse", _attr("can_ada", "can_parse"), _WHATWG_VALID
    ),
)
