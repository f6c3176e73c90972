"""fasturi: RFC 3986 URIs, exactly and fast.

The public RFC 3986 API.  Each name is bound once to the active
implementation (``IMPLEMENTATION``: ``"compiled"`` or ``"python"``);
``fasturi.parse`` is the drop-in for ``urllib.parse``.

Names are bound when first read (PEP 562), so that importing the package
costs next to nothing: ``fasturi.parse``, which imports it too, loads only
what the drop-in needs.  The first RFC 3986 name read loads the chosen
twins; ``audit`` its checks (and, where a URI needs it, the URL Standard's
parser with the IDNA tables) on its first call; ``iri_to_uri`` and
``uri_to_iri`` the IRI module.
"""

# (no "from __future__ import annotations": dir(fasturi) shows only the
# API; the annotations that name what is imported for type checkers alone
# are strings)
from . import _impl

__version__ = "0.1.0"

# typing is not imported at run time (start-up); type checkers take this as true
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, List, Optional

    from ._audit import Parsers
    from ._impl import IMPLEMENTATION
    from ._impl import core as _core
    from ._impl import extract as _extract
    from ._impl import parts as _parts
    from ._impl import pipeline as _pipeline
    from ._impl import psl as _psl_twin
    from ._impl import rules as _rules
    from ._impl import surt_impl as _surt_twin
    from ._impl import uri as _uri
    from ._iri import iri_to_uri, uri_to_iri
    from ._types import Finding, InvalidURI, Split

    split = _core.split
    unsplit = _core.unsplit
    resolve = _core.resolve
    remove_dot_segments = _core.remove_dot_segments
    normalize = _core.normalize
    equivalent = _core.equivalent
    percent_encode = _core.percent_encode
    percent_decode = _core.percent_decode
    percent_decode_bytes = _core.percent_decode_bytes
    is_valid = _rules.is_valid
    validate = _rules.validate
    host_type = _rules.host_type
    URI = _uri.URI
    redact = _uri.redact
    canonicalize = _pipeline.canonicalize
    split_many = _pipeline.split_many
    normalize_many = _pipeline.normalize_many
    canonicalize_many = _pipeline.canonicalize_many
    resolve_many = _pipeline.resolve_many
    fingerprint = _pipeline.fingerprint
    registrable_domain = _psl_twin.registrable_domain
    public_suffix = _psl_twin.public_suffix
    load_public_suffix_list = _psl_twin.load_public_suffix_list
    public_suffix_list_version = _psl_twin.public_suffix_list_version
    surt = _surt_twin.surt
    query_param = _parts.query_param
    query_params = _parts.query_params
    remove_params = _parts.remove_params
    path_extension = _parts.path_extension
    path_hierarchy = _parts.path_hierarchy
    subdomain = _parts.subdomain
    extract = _extract.extract
del TYPE_CHECKING

# Each public name of a twin, and the twin (an ``_impl`` name) it is read from.
_FROM_TWINS = {
    "split": "core",
    "unsplit": "core",
    "resolve": "core",
    "remove_dot_segments": "core",
    "normalize": "core",
    "equivalent": "core",
    "percent_encode": "core",
    "percent_decode": "core",
    "percent_decode_bytes": "core",
    "is_valid": "rules",
    "validate": "rules",
    "host_type": "rules",
    "URI": "uri",
    "redact": "uri",
    "canonicalize": "pipeline",
    "split_many": "pipeline",
    "normalize_many": "pipeline",
    "canonicalize_many": "pipeline",
    "resolve_many": "pipeline",
    "fingerprint": "pipeline",
    # crawler and archive tools (docs/crawler.md)
    "registrable_domain": "psl",
    "public_suffix": "psl",
    "load_public_suffix_list": "psl",
    "public_suffix_list_version": "psl",
    "surt": "surt_impl",
    # what a log analyst reads out of a URI (query parameters, path, subdomain)
    "query_param": "parts",
    "query_params": "parts",
    "remove_params": "parts",
    "path_extension": "parts",
    "path_hierarchy": "parts",
    "subdomain": "parts",
    "extract": "extract",
}


def __getattr__(name: str) -> "Any":
    # (PEP 562: called for a name not bound yet; each is bound once)
    g = globals()
    if name in _FROM_TWINS or name == "IMPLEMENTATION":
        for public, twin in _FROM_TWINS.items():
            g[public] = getattr(getattr(_impl, twin), public)
        g["IMPLEMENTATION"] = _impl.IMPLEMENTATION
    elif name in ("Finding", "InvalidURI", "Split"):
        from ._types import Finding, InvalidURI, Split

        g.update(Finding=Finding, InvalidURI=InvalidURI, Split=Split)
    elif name in ("iri_to_uri", "uri_to_iri"):
        # (not hot: pure Python over the names above)
        from ._iri import iri_to_uri, uri_to_iri

        g.update(iri_to_uri=iri_to_uri, uri_to_iri=uri_to_iri)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return g[name]


def __dir__() -> "List[str]":
    return sorted(set(globals()) | set(__all__))


# audit()'s checks and the twins they read with, bound on its first call
_checks: "Optional[Callable[[Parsers, str], List[Finding]]]" = None
_parsers: "Optional[Parsers]" = None


def audit(s: str) -> "List[Finding]":
    """The RFC 3986 §7 hazards present in ``s``; empty for a clean URI.

    Findings come in this order of codes: ``invalid`` (§4.1),
    ``control-character``, ``password-in-userinfo`` (§7.5),
    ``userinfo-looks-like-host`` (§7.6), ``host-differs`` (§7.6: RFC
    3986, the WHATWG URL Standard and ``urllib.parse`` read different
    hosts), ``idna-mapped-host`` (§7.6: IDNA mapping turns the host into
    another name), ``ambiguous-ipv4`` (§7.4), ``ipv4-mapped-ipv6`` (§7.4:
    an IPv6 address that reaches an IPv4 one), ``encoded-delimiter`` and
    ``encoded-dot-segment`` (§7.3).
    """
    if _checks is None or _parsers is None:
        _bind_audit()
    return _checks(_parsers, s)  # type: ignore[misc,arg-type]


def _bind_audit() -> None:
    global _checks, _parsers
    from ._audit import Parsers
    from ._audit import audit as checks

    _parsers = Parsers(_impl.core, _impl.rules, lambda: _impl.whatwg)
    _checks = checks


__all__ = [
    "IMPLEMENTATION",
    "URI",
    "Finding",
    "InvalidURI",
    "Split",
    "audit",
    "canonicalize",
    "canonicalize_many",
    "equivalent",
    "extract",
    "fingerprint",
    "host_type",
    "iri_to_uri",
    "is_valid",
    "load_public_suffix_list",
    "normalize",
    "normalize_many",
    "path_extension",
    "path_hierarchy",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "public_suffix",
    "public_suffix_list_version",
    "query_param",
    "query_params",
    "redact",
    "registrable_domain",
    "remove_dot_segments",
    "remove_params",
    "resolve",
    "resolve_many",
    "split",
    "split_many",
    "subdomain",
    "surt",
    "unsplit",
    "uri_to_iri",
    "validate",
]
