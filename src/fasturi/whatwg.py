"""fasturi.whatwg: URLs the way browsers parse them (the WHATWG URL Standard).

Not RFC 3986: the URL Standard's basic URL parser, its host parser (domain
to ASCII by UTS #46, IPv4 in all its number forms, IPv6, opaque hosts),
percent-encode sets, serializer and origin.  ``parse`` returns an immutable
``URL`` with the standard's getters (and its setters, through
``URL.replace``); ``InvalidURL`` (a ``ValueError``) names the validation
error that failed the parse.  ``SearchParams`` is the standard's
URLSearchParams, with its application/x-www-form-urlencoded parser and
serializer.  ``domain_to_ascii`` and ``domain_to_unicode`` are the
standard's IDNA operations.
"""

from __future__ import annotations

from ._impl import idna as _idna
from ._impl import search_params as _search_params
from ._impl import whatwg as _whatwg
from ._types import InvalidURL

URL = _whatwg.URL
parse = _whatwg.parse
can_parse = _whatwg.can_parse
resolve = _whatwg.resolve
SearchParams = _search_params.SearchParams
domain_to_ascii = _idna.domain_to_ascii
domain_to_unicode = _idna.domain_to_unicode

__all__ = [
    "URL",
    "InvalidURL",
    "SearchParams",
    "can_parse",
    "domain_to_ascii",
    "domain_to_unicode",
    "parse",
    "resolve",
]
