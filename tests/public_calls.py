"""Every public function with inputs that take each of its paths, including
ones that raise.  Shared by the leak and thread-safety tests."""

from __future__ import annotations

import fasturi
import fasturi.parse as fp
from fasturi import whatwg
from fasturi._types import WHATWG_FIELDS

TEXTS = [
    "http://u:p@Example.COM:80/a/./b/../%7euser?q=1&utm_source=x#frag",
    "https://[fe80::1%25eth0]:8443/%E2%82%AC?x",
    "mailto:someone@example.org",
    "../../g;x=1/./y?",
    "",
    "\x00 \t\r\n[::1",
    "http://caf\u00e9.example/\u65e5\u672c?\U0001f600",
    "%zz%4\ud800x",
    "//host:notaport/p",
    "a" * 300 + "://" + "/.." * 50,
]
BYTES = [t.encode("utf-8", "surrogatepass") for t in TEXTS]
BASE = "http://a/b/c/d;p?q"


def _uri_reads(s):
    u = fasturi.URI(s)
    out = [
        u.scheme,
        u.authority,
        u.userinfo,
        u.host,
        u.path,
        u.query,
        u.fragment,
        u.host_type,
        u.zone_id,
        str(u),
        hash(u),
        u.is_absolute(),
    ]
    try:
        out.append(u.port)
    except ValueError as exc:
        out.append(type(exc))
    return out


def _uri_methods(s):
    u = fasturi.URI(s)
    return [
        u.resolve("g/../h?x"),
        u.normalize(),
        u.equivalent(s),
        u.redact(),
        u.is_valid(),
        u.replace(fragment="z"),
    ]


def _whatwg_reads(s):
    u = whatwg.parse(s, BASE)
    return [whatwg.can_parse(s), whatwg.resolve(BASE, s), str(u), hash(u)] + [
        getattr(u, g) for g in WHATWG_FIELDS
    ]


def _whatwg_replace(s):
    u = whatwg.parse(BASE)
    return [
        u.replace(pathname=s, search=s, hash=s),
        u.replace(host=s, port=s, username=s, password=s),
        u.replace(protocol=s, hostname=s),
    ]


def _search_params(s):
    p = whatwg.SearchParams(s)
    p.append(s, s)
    p.set("q", s)
    q = whatwg.SearchParams([(s, s), ("a", "b")])
    q.sort()
    p.delete(s)
    return [str(p), p.get("q"), p.get_all(s), p.has(s, s), str(q), list(q)]


def _outcome(f, *args, **kwargs):
    # (a domain one of the calls refuses must not hide what the others give)
    try:
        return f(*args, **kwargs)
    except ValueError as exc:
        return (type(exc), str(exc))


CALLS = {
    "split": lambda s: fasturi.split(s),
    "unsplit": lambda s: fasturi.unsplit(fasturi.split(s)),
    "URI": _uri_reads,
    "URI-methods": _uri_methods,
    "from_parts": lambda s: fasturi.URI.from_parts(scheme="http", host="h", path="/" + s),
    "resolve": lambda s: fasturi.resolve(BASE, s),
    "resolve-2396": lambda s: fasturi.resolve(BASE, s, rfc=2396, strict=False),
    "remove_dot_segments": lambda s: fasturi.remove_dot_segments(s),
    "normalize": lambda s: fasturi.normalize(s),
    "equivalent": lambda s: fasturi.equivalent(s, s.upper()),
    "canonicalize": lambda s: fasturi.canonicalize(s, drop_params=("utm_*",)),
    "is_valid": lambda s: [
        fasturi.is_valid(s),
        fasturi.is_valid(s, "IRI-reference"),
        fasturi.is_valid(s, "URI-reference", rfc=2396),
    ],
    "validate": lambda s: fasturi.validate(s, "URI"),
    "host_type": lambda s: fasturi.host_type(s),
    "percent_encode": lambda s: fasturi.percent_encode(s, "/"),
    "percent_decode": lambda s: fasturi.percent_decode(s),
    "percent_decode_bytes": lambda s: fasturi.percent_decode_bytes(s),
    "audit": lambda s: fasturi.audit(s),
    "redact": lambda s: fasturi.redact(s),
    "extract": lambda s: fasturi.extract("see <" + s + "> and " + s + ".", abbreviated=True),
    "iri_to_uri": lambda s: fasturi.iri_to_uri(s),
    "uri_to_iri": lambda s: fasturi.uri_to_iri(s),
    "split_many": lambda s: fasturi.split_many([s, s]),
    "normalize_many": lambda s: fasturi.normalize_many([s, 3], errors="none"),
    "canonicalize_many": lambda s: fasturi.canonicalize_many(iter([s])),
    "resolve_many": lambda s: fasturi.resolve_many(BASE, [s, s]),
    "registrable_domain": lambda s: [
        fasturi.registrable_domain(s),
        fasturi.public_suffix(s, private=True),
    ],
    "surt": lambda s: fasturi.surt(s),
    "query": lambda s: [
        fasturi.query_param(s, "q"),
        fasturi.query_param(s, "x", decode=False),
        fasturi.query_params(s),
        fasturi.query_params(s, decode=False),
        fasturi.remove_params(s, ["utm_*", "q"]),
    ],
    "path-parts": lambda s: [
        fasturi.path_extension(s),
        fasturi.path_hierarchy(s),
        fasturi.subdomain(s),
        fasturi.subdomain(s, private=True),
    ],
    "canonicalize-w3lib": lambda s: fasturi.canonicalize_many([s, s], preset="w3lib"),
    "fingerprint": lambda s: [
        fasturi.fingerprint(s),
        fasturi.fingerprint(s, preset="w3lib", drop_fragment=False),
    ],
    "urlsplit": lambda s: fp.urlsplit(s),
    "urlparse": lambda s: fp.urlparse(s),
    "urlunsplit": lambda s: fp.urlunsplit(fp.urlsplit(s)),
    "urlunparse": lambda s: fp.urlunparse(fp.urlparse(s)),
    "urljoin": lambda s: fp.urljoin(BASE, s),
    "urldefrag": lambda s: fp.urldefrag(s),
    "quote": lambda s: [fp.quote(s), fp.quote_plus(s, safe="/")],
    "unquote": lambda s: [fp.unquote(s), fp.unquote_plus(s), fp.unquote_to_bytes(s)],
    "parse_qs": lambda s: [fp.parse_qs(s), fp.parse_qsl(s, keep_blank_values=True)],
    "urlencode": lambda s: fp.urlencode({"a": s, "b": [s, 1]}, doseq=True),
    "whatwg": _whatwg_reads,
    "whatwg-replace": _whatwg_replace,
    "search_params": _search_params,
    "domain": lambda s: [
        _outcome(whatwg.domain_to_ascii, s),
        _outcome(whatwg.domain_to_ascii, s, be_strict=True),
        whatwg.domain_to_unicode(s),
    ],
    "bytes": None,  # filled below: the same functions on bytes input
}


def _bytes_calls(b):
    return [
        fp.urlsplit(b),
        fp.urlparse(b),
        fp.urljoin(b"http://a/b", b),
        fp.quote_from_bytes(b),
        fp.unquote_to_bytes(b),
        fp.parse_qsl(b),
        fasturi.percent_decode_bytes(b),
        whatwg.can_parse(b, b"http://a/b"),
    ]


CALLS["bytes"] = _bytes_calls


def inputs(name):
    return BYTES if name == "bytes" else TEXTS


def call(name, arg):
    """The call's observable outcome: its value, or the exception type."""
    try:
        return ("ok", CALLS[name](arg))
    except (ValueError, TypeError, UnicodeError) as exc:
        return ("raise", type(exc), str(exc))
