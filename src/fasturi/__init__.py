"""fasturi: RFC 3986 URIs, exactly and fast.

The public RFC 3986 API.  Each name is bound once to the active
implementation (``IMPLEMENTATION``: ``"compiled"`` or ``"python"``);
``fasturi.parse`` is the drop-in for ``urllib.parse``.
"""

from __future__ import annotations

from ._impl import IMPLEMENTATION, core, pipeline, psl, rules, surt_impl, uri
from ._impl import extract as _extract
from ._types import Finding, InvalidURI, Split

split = core.split
unsplit = core.unsplit
resolve = core.resolve
remove_dot_segments = core.remove_dot_segments
normalize = core.normalize
equivalent = core.equivalent
percent_encode = core.percent_encode
percent_decode = core.percent_decode
percent_decode_bytes = core.percent_decode_bytes

is_valid = rules.is_valid
validate = rules.validate
host_type = rules.host_type

URI = uri.URI
redact = uri.redact

canonicalize = pipeline.canonicalize
split_many = pipeline.split_many
normalize_many = pipeline.normalize_many
canonicalize_many = pipeline.canonicalize_many
resolve_many = pipeline.resolve_many
fingerprint = pipeline.fingerprint

# Crawler and archive tools (docs/crawler.md)
registrable_domain = psl.registrable_domain
public_suffix = psl.public_suffix
load_public_suffix_list = psl.load_public_suffix_list
public_suffix_list_version = psl.public_suffix_list_version
surt = surt_impl.surt

extract = _extract.extract

# Not hot: pure Python over the names above.
from ._audit import audit  # noqa: E402
from ._iri import iri_to_uri, uri_to_iri  # noqa: E402

__version__ = "0.1.0"

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
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "public_suffix",
    "public_suffix_list_version",
    "redact",
    "registrable_domain",
    "remove_dot_segments",
    "resolve",
    "resolve_many",
    "split",
    "split_many",
    "surt",
    "unsplit",
    "uri_to_iri",
    "validate",
]
