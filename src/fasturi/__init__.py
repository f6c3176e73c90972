"""fasturi: RFC 3986 URIs, exactly and fast.

The public RFC 3986 API.  Each name is bound once to the active
implementation (``IMPLEMENTATION``: ``"compiled"`` or ``"python"``);
``fasturi.parse`` is the drop-in for ``urllib.parse``.
"""

from ._impl import IMPLEMENTATION
from ._impl import core as _core
from ._impl import extract as _extract
from ._impl import parts as _parts
from ._impl import pipeline as _pipeline
from ._impl import psl as _psl_twin
from ._impl import rules as _rules
from ._impl import surt_impl as _surt_twin
from ._impl import uri as _uri
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

# Crawler and archive tools (docs/crawler.md)
registrable_domain = _psl_twin.registrable_domain
public_suffix = _psl_twin.public_suffix
load_public_suffix_list = _psl_twin.load_public_suffix_list
public_suffix_list_version = _psl_twin.public_suffix_list_version
surt = _surt_twin.surt

# What a log analyst reads out of a URI (query parameters, path, subdomain)
query_param = _parts.query_param
query_params = _parts.query_params
remove_params = _parts.remove_params
path_extension = _parts.path_extension
path_hierarchy = _parts.path_hierarchy
subdomain = _parts.subdomain

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
