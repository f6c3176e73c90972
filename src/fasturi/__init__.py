"""fasturi: RFC 3986 URIs, exactly and fast.

The public RFC 3986 API.  Each name is bound once to the active
implementation (``IMPLEMENTATION``: ``"compiled"`` or ``"python"``);
``fasturi.parse`` is the drop-in for ``urllib.parse``.
"""

from __future__ import annotations

from ._impl import IMPLEMENTATION, core, rules, uri
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

from ._audit import audit  # noqa: E402  (builds on the names above)

__version__ = "0.1.0"

__all__ = [
    "IMPLEMENTATION",
    "URI",
    "Finding",
    "InvalidURI",
    "Split",
    "audit",
    "equivalent",
    "host_type",
    "is_valid",
    "normalize",
    "percent_decode",
    "percent_decode_bytes",
    "percent_encode",
    "redact",
    "remove_dot_segments",
    "resolve",
    "split",
    "unsplit",
    "validate",
]
