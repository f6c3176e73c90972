"""Fuzz targets: each checks an invariant, not just "no crash".

Every target takes the fuzzer's bytes, derives its inputs with the plain
``Reader`` decoder below (so the targets also run without atheris, as
regression tests do), and raises ``AssertionError`` when an invariant breaks:

- the compiled twin returns what the pure-Python twin returns, or raises the
  same exception type with the same message;
- ``unsplit(split(s)) == s``, ``str(URI(s)) == s``, ``split_authority``
  pieces rebuild the authority, normalize is idempotent, ``canonicalize``
  gives equivalent URIs one key, the batch functions equal the loop,
  ``URI.from_parts`` builds a valid reference that reads back what it was
  given;
- ``fasturi.parse.X(...) == urllib.parse.X(...)`` (value, type, exception
  type and message), with the keyword options varied too.

Inputs: the texts come first, then option bytes; a missing option byte means
the default, so a seed (texts only) exercises the defaults.
"""

from __future__ import annotations

import importlib.util
import os
import sys
import urllib.parse
import warnings
from pathlib import Path
from typing import Any, Callable, Optional

_SRC = Path(__file__).resolve().parents[1] / "src"
# A checkout fuzzes its in-place build, unless told to fuzz the installed
# package (.ci/fuzz does, in a venv where the package was built by pip).
if (
    os.environ.get("FASTURI_FUZZ_INSTALLED") != "1"
    and (_SRC / "fasturi" / "__init__.py").exists()
    and str(_SRC) not in sys.path
):
    sys.path.insert(0, str(_SRC))

from fasturi import (  # noqa: E402
    _core_c,
    _core_py,
    _extract_c,
    _extract_py,
    _pipeline_c,
    _pipeline_py,
    _rules_c,
    _rules_py,
    _uri_c,
    _uri_py,
)
from fasturi import parse as fparse  # noqa: E402
from fasturi.arrow import WHATWG_FIELDS  # noqa: E402

if fparse.IMPLEMENTATION != "compiled":
    raise ImportError("fasturi.parse is not compiled: build the extensions first")


def outcome(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> tuple[str, Any]:
    """What a call gives: ("ok", value) or ("raise", (type, message)).

    A URI result is compared by its text: each twin has its own URI class."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = fn(*args, **kwargs)
        if type(value).__name__ == "URI":
            return ("ok", ("URI", str(value)))
        return ("ok", value)
    except Exception as exc:  # noqa: BLE001 - type and message are the observables
        return ("raise", (type(exc), str(exc)))


def same(a: Callable[..., Any], b: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Assert two implementations agree on one call; return the value (or None)."""
    got, want = outcome(a, *args, **kwargs), outcome(b, *args, **kwargs)
    assert got == want, f"{a.__qualname__}{args!r} {kwargs!r}: {got!r} != {want!r}"
    if want[0] == "ok":
        assert type(got[1]) is type(want[1]), f"{args!r}: result types differ"
    return got[1] if got[0] == "ok" else None


# ---- inputs -----------------------------------------------------------------


class Reader:
    """Turns fuzzer bytes into strings with the characters URIs break on.

    Printable ASCII is itself, so the strings libFuzzer learns from the
    comparisons in the instrumented code ("//", "%25", "http") work as they
    are; the other byte values are shortcuts to what URI code gets wrong."""

    # 00-1F: delimiters, controls and the characters near them (32).
    ALPHABET = ":/?#[]@%.\t\r\n\x00\\ \x7f\x1f\x0c-_~!$&'()*+,;="
    # E0-EF: the base of a block of 256 code points.  Surrogates, specials
    # and noncharacters; the spaces, punctuation, quotes and brackets
    # (General Punctuation, CJK, fullwidth) that end a URI in running text;
    # RFC 3987 ucschar / iprivate edges; combining marks; bidi controls.
    BLOCKS = (
        0xD7F0,
        0xDBF0,
        0xDFF0,
        0xFDC0,
        0xFEF0,
        0xFFF0,
        0x1FF0,
        0x2000,
        0x2F00,
        0x3000,
        0xFF00,
        0xF800,
        0x0300,
        0x0100,
        0x1680,
        0x0600,
    )

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.pos = 0

    def byte(self) -> int:
        if self.pos >= len(self.data):
            return -1
        self.pos += 1
        return self.data[self.pos - 1]

    def option(self) -> int:
        """An option byte: 0 (the defaults) when the input has run out."""
        return max(self.byte(), 0)

    def text(self, limit: int = 512) -> str:
        """Byte classes: 00-1F troublemakers, 20-BF the code point itself
        (ASCII, C1 controls, Latin-1), C0-DF Latin-1 and beyond, E0-EF one
        byte more: a code point in one of BLOCKS, F0-FE two bytes more: any
        code point (astral too), FF ends the text."""
        out: list[str] = []
        while len(out) < limit:
            b = self.byte()
            if b < 0 or b == 0xFF:
                break
            if b < 0x20:
                out.append(self.ALPHABET[b])
            elif b < 0xC0:
                out.append(chr(b))
            elif b < 0xE0:
                out.append(chr(0xC0 + (b & 0x1F) * 7))  # U+00C0-U+0199
            elif b < 0xF0:
                out.append(chr(self.BLOCKS[b & 0xF] + max(self.byte(), 0)))
            else:
                hi, lo = max(self.byte(), 0), max(self.byte(), 0)
                out.append(chr(min(0x10FFFF, (hi << 8 | lo) * 17)))
        return "".join(out)


def pick(options: tuple[Any, ...], n: int) -> Any:
    return options[n % len(options)]


ENCODINGS = ("utf-8", "latin-1", "ascii", "utf-16", "cp1252", "utf-8")
ERRORS = (
    "strict",
    "replace",
    "ignore",
    "surrogatepass",
    "surrogateescape",
    "backslashreplace",
    "xmlcharrefreplace",
)


# ---- targets ----------------------------------------------------------------


def split(data: bytes) -> None:
    s = Reader(data).text()
    parts = same(_core_c.split, _core_py.split, s)
    assert _core_c.unsplit(parts) == s
    assert _core_c.unsplit(list(parts)) == s == _core_py.unsplit(parts)
    for authority in (s, parts.authority):
        if authority is None:
            continue
        userinfo, host, port = same(_core_c.split_authority, _core_py.split_authority, authority)
        # the pieces are slices around one "@" and one ":" (ARCHITECTURE.md)
        rebuilt = ("" if userinfo is None else userinfo + "@") + host
        rebuilt += "" if port is None else ":" + port
        assert rebuilt == authority, f"split_authority({authority!r}) loses text"
    for path in (s, parts.path):
        same(_core_c.remove_dot_segments, _core_py.remove_dot_segments, path)


COMPONENTS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
RULE_NAMES = tuple(sorted(_rules_py.RULES_3986))


def _from_parts(u: Any, r: Reader) -> None:
    """``URI.from_parts`` on the (raw, unvalidated) components of ``u``."""
    opt = r.option()
    port: Optional[int] = None
    try:
        port = u.port
    except ValueError:
        pass
    kwargs: dict[str, Any] = {
        "scheme": u.scheme,
        "userinfo": u.userinfo,
        "host": u.host,
        "port": port,
        "path": u.path,
        "query": u.query,
        "fragment": u.fragment,
    }
    for i, name in enumerate(("scheme", "userinfo", "host", "query", "fragment")):
        if opt >> i & 1:
            kwargs[name] = None
    if kwargs["host"] is None:
        kwargs["userinfo"] = kwargs["port"] = None
    encode = not opt & 0x80
    made = same(_uri_c.URI.from_parts, _uri_py.URI.from_parts, **kwargs, encode=encode)
    if made is None or not encode:
        return
    text = made[1]
    assert _rules_py.is_valid(text), f"from_parts({kwargs!r}) -> {text!r} is not a URI-reference"
    back = _uri_py.URI(text)
    # Encoding only writes %HH for the UTF-8 octets of a character (and %3A
    # for a scheme-like colon), so the octets each component stands for stay.
    for name in ("userinfo", "path", "query", "fragment"):
        given, got = kwargs[name], getattr(back, name)
        if name == "userinfo" and kwargs["host"] is None:
            continue
        assert (given is None) == (got is None) or (name == "path"), (name, kwargs, text)
        if given is not None and got is not None:
            assert _core_py.percent_decode_bytes(got) == _core_py.percent_decode_bytes(given), (
                f"from_parts: {name} {given!r} reads back as {got!r} in {text!r}"
            )
    assert back.scheme == kwargs["scheme"], (kwargs, text)
    assert back.port == kwargs["port"], (kwargs, text)
    # Built again from what it reads back, the text does not change.
    again = same(
        _uri_c.URI.from_parts,
        _uri_py.URI.from_parts,
        back.scheme,
        back.userinfo,
        back.host,
        back.port,
        back.path,
        back.query,
        back.fragment,
    )
    assert again == ("URI", text), f"from_parts not stable: {text!r} -> {again!r}"


def uri(data: bytes) -> None:
    r = Reader(data)
    s, t = r.text(), r.text()
    uc, up = _uri_c.URI(s), _uri_py.URI(s)
    assert str(uc) == s == str(up)
    for name in COMPONENTS + ("host_type", "zone_id"):
        same(lambda u=uc, n=name: getattr(u, n), lambda u=up, n=name: getattr(u, n))
    same(uc.is_absolute, up.is_absolute)
    same(uc.redact, up.redact)
    same(uc.redact, up.redact, t)
    opt = r.option()
    for based in (True, False):
        same(uc.normalize, up.normalize, scheme_based=based)
    same(uc.equivalent, up.equivalent, t)
    same(uc.resolve, up.resolve, t, strict=not opt & 1, rfc=2396 if opt & 2 else 3986)
    rule = pick(RULE_NAMES, opt)
    same(uc.is_valid, up.is_valid, rule)
    same(uc.validate, up.validate, rule)
    # replace: one or two components, each from t's pieces, t itself or None
    tp = _uri_py.URI(t)
    changes = {}
    for n in (opt, r.option()):
        name = pick(COMPONENTS, n)
        if name == "port":
            changes[name] = pick((None, len(t), str(len(t)), t), n >> 4)
        else:
            changes[name] = pick((getattr(tp, name), t, None), n >> 4)
    same(uc.replace, up.replace, **changes)
    _from_parts(up, r)
    _from_parts(tp, r)


def resolve(data: bytes) -> None:
    r = Reader(data)
    base, ref = r.text(), r.text()
    for kwargs in ({}, {"strict": False}, {"rfc": 2396}, {"strict": False, "rfc": 2396}):
        same(_core_c.resolve, _core_py.resolve, base, ref, **kwargs)
        same(_core_c.resolve, _core_py.resolve, "http://a/b/c/d;p?q", ref, **kwargs)
        same(_core_c.resolve, _core_py.resolve, ref, base, **kwargs)
    # a base with each part, so every branch of §5.2.2 sees the reference
    same(_core_c.resolve, _core_py.resolve, "s:" + base, ref)
    same(_core_c.resolve, _core_py.resolve, "s://" + base, ref)


def normalize(data: bytes) -> None:
    s = Reader(data).text()
    for based in (True, False):
        once = same(_core_c.normalize, _core_py.normalize, s, scheme_based=based)
        if once is not None:
            assert _core_c.normalize(once, scheme_based=based) == once, "not idempotent"
            assert _core_c.equivalent(s, once) if based else True, (
                "s not equivalent to normalize(s)"
            )
    t = Reader(data[::-1]).text()
    same(_core_c.equivalent, _core_py.equivalent, s, t)

    # canonicalize (docs/reference.md §1): normalize, then sort / filter the query
    opt = data[0] if data else 0
    drop = tuple(f.partition("=")[0] for f in t.split("&")[: opt & 3])
    if opt & 4:
        drop = tuple(d[:2] + "*" for d in drop)
    kwargs = {"sort_query": not opt & 8, "drop_fragment": not opt & 16, "drop_params": drop}
    key = same(_pipeline_c.canonicalize, _pipeline_py.canonicalize, s, **kwargs)
    if key is not None:
        # equivalent URIs get one key, and the key is its own key
        assert _pipeline_c.canonicalize(_core_c.normalize(s), **kwargs) == key
        assert _pipeline_c.canonicalize(key, **kwargs) == key, "canonicalize not idempotent"
        if _core_c.equivalent(s, t):
            assert _pipeline_c.canonicalize(t, **kwargs) == key

    # the batch functions equal the loop over the single ones
    items = [s, t, s]
    same(_pipeline_c.split_many, _pipeline_py.split_many, items)
    assert _pipeline_c.split_many(iter(items)) == [_core_c.split(x) for x in items]
    same(_pipeline_c.normalize_many, _pipeline_py.normalize_many, items, scheme_based=not opt & 32)
    assert _pipeline_c.normalize_many(items) == [_core_c.normalize(x) for x in items]
    same(_pipeline_c.canonicalize_many, _pipeline_py.canonicalize_many, items, **kwargs)
    same(
        _pipeline_c.resolve_many,
        _pipeline_py.resolve_many,
        "http://a/b/c/d;p?q",
        items,
        strict=not opt & 64,
        rfc=2396 if opt & 128 else 3986,
    )
    same(_pipeline_c.resolve_many, _pipeline_py.resolve_many, s, [t])


RULES = tuple((name, 3986) for name in sorted(_rules_py.RULES_3986)) + tuple(
    (name, 2396) for name in sorted(_rules_py.RULES_2396)
)


def validate(data: bytes) -> None:
    r = Reader(data)
    rule, rfc = RULES[max(r.byte(), 0) % len(RULES)]
    s = r.text()
    same(_rules_c.is_valid, _rules_py.is_valid, s, rule, rfc=rfc)
    same(_rules_c.host_type, _rules_py.host_type, s)
    errs = []
    for mod in (_rules_c, _rules_py):
        try:
            assert mod.validate(s, rule, rfc=rfc) is s
            errs.append(None)
        except ValueError as exc:
            pos = getattr(exc, "position", None)
            assert pos is not None and 0 <= pos <= len(s), f"{s!r} {rule}: position {pos}"
            assert not mod.is_valid(s, rule, rfc=rfc)
            errs.append((type(exc), exc.args, pos, getattr(exc, "rule", None)))
    assert errs[0] == errs[1], f"{s!r} {rule} rfc={rfc}: {errs[0]} != {errs[1]}"
    if errs[1] is not None:
        # position: the longest prefix that can still be completed, so the
        # text up to it is never rejected earlier
        pos = errs[1][2]
        try:
            _rules_py.validate(s[:pos], rule, rfc=rfc)
        except ValueError as exc:
            assert exc.position == pos, f"{s!r} {rule}: prefix {s[:pos]!r} fails at {exc.position}"
    same(_rules_c.is_valid, _rules_py.is_valid, s, "URI-reference", rfc=2396)
    same(_rules_c.is_valid, _rules_py.is_valid, s, "IRI-reference")


def percent(data: bytes) -> None:
    r = Reader(data)
    s, safe = r.text(), r.text(8)
    same(_core_c.percent_encode, _core_py.percent_encode, s, safe)
    same(_core_c.percent_encode, _core_py.percent_encode, s, safe, errors="surrogatepass")
    same(_core_c.percent_decode, _core_py.percent_decode, s)
    same(_core_c.percent_decode, _core_py.percent_decode, s, errors="replace")
    same(_core_c.percent_decode_bytes, _core_py.percent_decode_bytes, s)
    same(_core_c.percent_decode_bytes, _core_py.percent_decode_bytes, data)
    enc = _core_c.percent_encode(s, errors="surrogatepass")
    assert _core_c.percent_decode(enc, errors="surrogatepass") == s
    assert _core_c.percent_decode_bytes(enc) == s.encode("utf-8", "surrogatepass")
    opt = r.option()
    encoding, errors = pick(ENCODINGS, opt), pick(ERRORS, opt >> 3)
    same(_core_c.percent_encode, _core_py.percent_encode, s, safe, encoding=encoding, errors=errors)
    same(_core_c.percent_decode, _core_py.percent_decode, s, encoding=encoding, errors=errors)
    # a second decode of the unambiguous encoding gives the same text back
    assert (
        _core_c.percent_encode(
            _core_c.percent_decode(enc, errors="surrogatepass"), errors="surrogatepass"
        )
        == enc
    )


_NOT_IN_URI = frozenset(' \t\r\n\f\v\x00"<>\\^`{|}')


def extract(data: bytes) -> None:
    s = Reader(data).text(2048)
    for abbreviated in (False, True):
        found = same(_extract_c.extract, _extract_py.extract, s, abbreviated=abbreviated)
        if found is not None and not abbreviated:
            for u in found:
                # Appendix C: what is extracted is made of URI characters (the
                # whitespace of a wrapped <...> is dropped) and has a scheme
                assert ":" in u and not _NOT_IN_URI.intersection(u), f"extract({s!r}) -> {found!r}"


PARSE_STR = (
    "urlsplit",
    "urlparse",
    "urldefrag",
    "quote",
    "quote_plus",
    "unquote",
    "unquote_plus",
    "unquote_to_bytes",
    "parse_qs",
    "parse_qsl",
)
SEPARATORS = ("&", ";", "&&", "=", "a")


def _urlencode(mod: Any, query: Any, **kwargs: Any) -> Any:
    # quote_via defaults to the module's own quote_plus; pass the module's own
    via = kwargs.pop("via", None)
    if via is not None:
        kwargs["quote_via"] = getattr(mod, via)
    return mod.urlencode(query, **kwargs)


def parse(data: bytes) -> None:
    r = Reader(data)
    s, t = r.text(), r.text()
    for name in PARSE_STR:
        same(getattr(fparse, name), getattr(urllib.parse, name), s)
    same(fparse.urljoin, urllib.parse.urljoin, s, t)
    same(fparse.urljoin, urllib.parse.urljoin, "http://a/b/c/d;p?q", t)
    same(fparse.urlunsplit, urllib.parse.urlunsplit, ("a", s, t, "", s))
    b = s.encode("utf-8", "surrogatepass")
    for name in ("urlsplit", "urlparse", "quote_from_bytes", "unquote_to_bytes", "parse_qsl"):
        same(getattr(fparse, name), getattr(urllib.parse, name), b)

    # the options, and the round trips the stdlib documents
    opt, opt2 = r.option(), r.option()
    frag = not opt & 1
    parts = same(fparse.urlsplit, urllib.parse.urlsplit, s, t[:8], frag)
    if parts is not None:
        same(fparse.urlunsplit, urllib.parse.urlunsplit, parts)
    parts6 = same(fparse.urlparse, urllib.parse.urlparse, s, t[:8], frag)
    if parts6 is not None:
        same(fparse.urlunparse, urllib.parse.urlunparse, parts6)
        same(fparse.urlunparse, urllib.parse.urlunparse, (t, s, t, s, t, s))
    same(fparse.urljoin, urllib.parse.urljoin, s, t, frag)
    same(fparse.urljoin, urllib.parse.urljoin, b, t.encode("utf-8", "surrogatepass"))
    same(fparse.urldefrag, urllib.parse.urldefrag, b)
    encoding, errors = pick(ENCODINGS, opt >> 1), pick(ERRORS, opt >> 4)
    safe = t[:8]
    for name in ("quote", "quote_plus"):
        same(getattr(fparse, name), getattr(urllib.parse, name), s, safe, encoding, errors)
        same(getattr(fparse, name), getattr(urllib.parse, name), b, safe)
    same(fparse.quote_from_bytes, urllib.parse.quote_from_bytes, b, safe)
    for name in ("unquote", "unquote_plus"):
        same(getattr(fparse, name), getattr(urllib.parse, name), s, encoding, errors)
    same(fparse.unquote, urllib.parse.unquote, b)
    qs_kwargs = {
        "keep_blank_values": bool(opt2 & 1),
        "strict_parsing": bool(opt2 & 2),
        "encoding": encoding,
        "errors": errors,
        "max_num_fields": (opt2 >> 2 & 7) or None,
        "separator": pick(SEPARATORS, opt2 >> 5),
    }
    for name in ("parse_qs", "parse_qsl"):
        same(getattr(fparse, name), getattr(urllib.parse, name), s, **qs_kwargs)
        same(getattr(fparse, name), getattr(urllib.parse, name), b, **qs_kwargs)
    pairs = urllib.parse.parse_qsl(s, keep_blank_values=True)
    via = (None, "quote", "quote_plus")[opt2 % 3]
    enc_kwargs = {
        "doseq": bool(opt2 & 4),
        "safe": safe,
        "encoding": encoding,
        "errors": errors,
        "via": via,
    }
    for query in (
        pairs,
        dict(pairs),
        [(k, [v, t]) for k, v in pairs],
        [(k.encode("utf-8", "surrogatepass"), v) for k, v in pairs],
    ):
        same(
            lambda q, **kw: _urlencode(fparse, q, **kw),
            lambda q, **kw: _urlencode(urllib.parse, q, **kw),
            query,
            **enc_kwargs,
        )


def _column(r: Reader, raw: bool) -> Any:
    """Rows as an Arrow column: texts (lone surrogates left out: Arrow text
    is UTF-8) and nulls, or with ``raw`` the fuzzer's bytes as they are,
    unvalidated UTF-8 in a string array, as a careless producer leaves it."""
    import pyarrow as pa

    rows: list[Any] = []
    while r.pos < len(r.data) and len(rows) < 8:
        kind = r.option()
        if kind % 7 == 0:
            rows.append(None)
        elif raw:
            n = r.option() % 24
            rows.append(r.data[r.pos : r.pos + n])
            r.pos += n
        else:
            rows.append(r.text(64).encode("utf-8", "replace").decode("utf-8"))
    if raw:
        binary = pa.array(rows, type=pa.binary())
        col = pa.Array.from_buffers(pa.string(), len(binary), binary.buffers())
    else:
        col = pa.array(
            rows, type=pick((pa.string(), pa.large_string(), pa.string_view()), r.option())
        )
    start = r.option() % (len(col) + 1)
    return col.slice(start)


def _on_threads(kernel: Any, col: Any, threads: int, args: tuple[Any, ...]) -> Any:
    import pyarrow as pa

    from fasturi._types import ArrowColumn

    return pa.array(kernel(ArrowColumn(*col.__arrow_c_array__()), 0, threads, *args))


def _kernels_agree(col: Any, threads: int, calls: Any) -> None:
    """Each (kernel, arguments) of ``calls``: the compiled column kernel
    gives what the reference kernel gives, or raises as it does, on ``col``
    (its rows numbered from 5) on ``threads``."""
    import pyarrow as pa

    from fasturi import _arrow_c, _arrow_py
    from fasturi._types import ArrowColumn

    def run(kernel: Any, *args: Any) -> Any:
        return pa.array(kernel(ArrowColumn(*col.__arrow_c_array__()), 5, threads, *args))

    for name, args in calls:
        got = outcome(run, getattr(_arrow_c, name), *args)
        want = outcome(run, getattr(_arrow_py, name), *args)
        assert got == want, f"{name}{args!r} on {col!r}: {got!r} != {want!r}"


def arrow(data: bytes) -> None:
    """fasturi.arrow's compiled kernels against the reference kernels, on
    one chunk of generated rows (or raw, possibly invalid, UTF-8)."""
    import pyarrow as pa

    from fasturi import _arrow_c, _arrow_py
    from fasturi._types import ArrowColumn

    r = Reader(data)
    col = _column(r, raw=bool(r.option() & 1))
    opt = r.option()
    threads = 1 + opt % 3

    fields = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
    rule, rfc = pick(RULES, r.option())
    _kernels_agree(
        col,
        threads,
        (
            ("split", (fields[opt % 8 :] or fields,)),
            ("normalize", (bool(opt & 8),)),
            ("canonicalize", (bool(opt & 16), bool(opt & 32), ("a", "utm_*"))),
            ("is_valid", (rule, rfc)),
            ("error_position", (rule, rfc)),
            ("resolve_one", ("http://a/b/c/d;p?q", bool(opt & 64), pick((3986, 2396), opt >> 7))),
            ("percent_decode", (pick(("strict", "replace", "ignore"), opt),)),
        ),
    )
    same_bases = outcome(
        lambda: pa.array(
            _arrow_c.resolve_each(
                ArrowColumn(*col.__arrow_c_array__()),
                ArrowColumn(*col.__arrow_c_array__()),
                0,
                1,
                True,
                3986,
            )
        )
    )
    want_bases = outcome(
        lambda: pa.array(
            _arrow_py.resolve_each(
                ArrowColumn(*col.__arrow_c_array__()),
                ArrowColumn(*col.__arrow_c_array__()),
                0,
                1,
                True,
                3986,
            )
        )
    )
    assert same_bases == want_bases, f"resolve_each on {col!r}: {same_bases!r} != {want_bases!r}"
    if r.option() % 4 == 0 and len(col):
        # The rows repeated past two ranges (2,048 rows each), so that
        # several threads take ranges and join them: the one thread's answer.
        many = pa.concat_arrays([col] * (4200 // len(col) + 1))
        for name, args in (
            ("split", (fields,)),
            ("normalize", (True,)),
            ("canonicalize", (True, True, ())),
            ("percent_decode", ("replace",)),
        ):
            one, several = (
                outcome(_on_threads, getattr(_arrow_c, name), many, n, args) for n in (1, 3)
            )
            assert one == several, f"{name}{args!r} on 3 threads: {several!r} != {one!r}"


def crawler(data: bytes) -> None:
    """The crawler tools (docs/reference.md §4), compiled twin against the reference:
    on one text, then as column forms over a chunk of rows (raw, possibly
    invalid, UTF-8 too) on one to three threads."""

    from fasturi import _psl_c, _psl_py, _surt_c, _surt_py, _w3lib_c, _w3lib_py

    r = Reader(data)
    s = r.text()
    opt = r.option()
    same(_surt_c.surt, _surt_py.surt, s)
    for private in (False, True):
        same(_psl_c.registrable_domain, _psl_py.registrable_domain, s, private=private)
        same(_psl_c.public_suffix, _psl_py.public_suffix, s, private=private)
    same(_w3lib_c.key, _w3lib_py.key, s, bool(opt & 1))
    same(_pipeline_c.fingerprint, _pipeline_py.fingerprint, s, preset="w3lib")
    same(
        _pipeline_c.fingerprint,
        _pipeline_py.fingerprint,
        s,
        sort_query=not opt & 2,
        drop_fragment=not opt & 4,
    )

    col = _column(r, raw=bool(r.option() & 1))
    threads = 1 + opt % 3

    _kernels_agree(
        col,
        threads,
        (
            ("surt", ()),
            ("registrable_domain", (bool(opt & 8),)),
            ("public_suffix", (bool(opt & 8),)),
            ("canonicalize_w3lib", (bool(opt & 1),)),
            # (the w3lib preset always sorts the query: the public function
            # refuses other options before it calls a kernel)
            ("fingerprint", (not opt & 2, not opt & 4, (), None)),
            ("fingerprint", (True, not opt & 4, (), "w3lib")),
        ),
    )


# Labels IDNA treats apart: Punycode prefixes and bodies, and the code
# points of every UTS #46 and nameprep class (mapped, ignored, deviation,
# disallowed, marks, joiners, viramas, right-to-left, the four dots).
IDNA_PIECES = (
    "xn--",
    "XN--",
    "zca",
    "fa-hia",
    "8i7caa",
    "ls8h",
    "\u00df",
    "\u03c2",
    "\u0130",
    "\u00ad",
    "\u200c",
    "\u200d",
    "\u094d",
    "\u0915",
    "\u0300",
    "\u0316",
    "\u05d0",
    "\u0627",
    "\u0661",
    "\u06f1",
    "\u3002",
    "\uff0e",
    "\uff61",
    "\u2488",
    "\ufb01",
    "\uac00",
    "\u1100",
    "\u1161",
    "\U00011f00",
    "\U000105d2\u0307",
    "\U00010d50",
    "\U0003e8ac",
    "\U00010570",
    "\U0002f868",
)


def idna(data: bytes) -> None:
    """The URL Standard's IDNA, compiled twin against the reference:
    domain_to_ascii (beStrict false and true) and domain_to_unicode, on text
    with IDNA's pieces spliced in; and IDNA 2003 in C against Python's idna
    codec (bytes.decode("utf-8", "ignore").encode("idna")) on its bytes."""

    from fasturi import _idna_c, _idna_py

    r = Reader(data)
    s = r.text()
    opt = r.option()
    pieces = [IDNA_PIECES[b % len(IDNA_PIECES)] for b in r.data[:4]] if opt & 1 else []
    s = "".join(pieces[:2]) + s + "".join(pieces[2:])
    for strict in (False, True):
        same(_idna_c.domain_to_ascii, _idna_py.domain_to_ascii, s, be_strict=strict)
    same(_idna_c.domain_to_unicode, _idna_py.domain_to_unicode, s)
    raw = s.encode("utf-8", "surrogatepass")
    got = _idna_c._idna2003(raw)
    if got is not NotImplemented:
        try:
            want = raw.decode("utf-8", "ignore").encode("idna")
        except UnicodeError:
            want = None
        assert got == want, (raw, got, want)


def parts(data: bytes) -> None:
    """query_param, query_params, remove_params, path_extension,
    path_hierarchy and subdomain: compiled twin against the reference on one
    text (a name or glob from a second), then as column forms over a chunk
    of rows (raw, possibly invalid, UTF-8 too) on one to three threads."""

    from fasturi import _parts_c, _parts_py

    r = Reader(data)
    s = r.text()
    name = r.text(8)
    opt = r.option()
    decode = not opt & 1
    same(_parts_c.query_param, _parts_py.query_param, s, name, decode=decode)
    same(_parts_c.query_params, _parts_py.query_params, s, decode=decode)
    same(_parts_c.remove_params, _parts_py.remove_params, s, [name, "utm_*"])
    same(_parts_c.path_extension, _parts_py.path_extension, s)
    same(_parts_c.path_hierarchy, _parts_py.path_hierarchy, s)
    same(_parts_c.subdomain, _parts_py.subdomain, s, private=bool(opt & 2))

    col = _column(r, raw=bool(r.option() & 1))
    threads = 1 + opt % 3
    _kernels_agree(
        col,
        threads,
        (
            ("query_param", (name, decode)),
            ("query_params", (decode,)),
            ("remove_params", ((name, "?*"),)),
            ("path_extension", ()),
            ("path_hierarchy", ()),
            ("subdomain", (bool(opt & 2),)),
        ),
    )


def _whatwg_view(mod: Any, s: Any, base: Any) -> Any:
    url = mod.parse(s, base)
    return tuple(getattr(url, name) for name in WHATWG_FIELDS)


# The URL class's setters, URL.replace's keywords.
_WHATWG_SETTERS = (
    "href",
    "protocol",
    "username",
    "password",
    "host",
    "hostname",
    "port",
    "pathname",
    "search",
    "hash",
)


def _whatwg_replaced(mod: Any, s: Any, changes: Any) -> Any:
    url = mod.parse(s).replace(**changes)
    return tuple(getattr(url, name) for name in WHATWG_FIELDS)


def whatwg(data: bytes) -> None:
    """fasturi.whatwg, compiled twin against the reference (the URL
    Standard's state machine): parse with and without a base (every getter,
    or the same exception and message), can_parse, resolve, and the setters
    (URL.replace with one to three of them, their values from the input);
    then the column forms on a chunk of generated or raw rows, 1-3
    threads."""

    from fasturi import _whatwg_c, _whatwg_py

    r = Reader(data)
    s = r.text()
    base = r.text(96) if r.option() & 1 else None
    for b in (None, base):
        got = outcome(_whatwg_view, _whatwg_c, s, b)
        assert got == outcome(_whatwg_view, _whatwg_py, s, b), (s, b, got)
        same(_whatwg_c.can_parse, _whatwg_py.can_parse, s, b)
    if base is not None:
        same(_whatwg_c.resolve, _whatwg_py.resolve, base, s)
    changes = {pick(_WHATWG_SETTERS, r.option()): r.text(24) for _ in range(1 + r.option() % 3)}
    for url in (s, base, "http://u:p@example.com:81/a/b?q#f", "file:///C:/x", "sc://h/p"):
        if url is not None:
            got = outcome(_whatwg_replaced, _whatwg_c, url, changes)
            want = outcome(_whatwg_replaced, _whatwg_py, url, changes)
            assert got == want, (url, changes, got)

    col = _column(r, raw=bool(r.option() & 1))
    opt = r.option()
    threads = 1 + opt % 3
    col_base = base if opt & 8 else None

    fields = list(WHATWG_FIELDS[opt % len(WHATWG_FIELDS) :])
    _kernels_agree(
        col,
        threads,
        (
            ("whatwg_href", (col_base,)),
            ("whatwg_can_parse", (col_base,)),
            ("whatwg_split", (fields, col_base)),
            ("whatwg_replace", (tuple(changes.items()),)),
        ),
    )


_duckdb_con: Any = None


def _native_duckdb() -> Any:
    global _duckdb_con
    if _duckdb_con is None:
        import fasturi.duckdb

        _duckdb_con = fasturi.duckdb.connect(config={"threads": 2})
    return _duckdb_con


def duckdb(data: bytes) -> None:
    """fasturi's DuckDB extension against the compiled column kernels (the
    Arrow path's): every native function on a chunk of generated rows (raw,
    possibly invalid, UTF-8 too), the same values or both refusing the
    chunk's text, never a crash; uri_resolve against a text and row by row;
    the query parameter functions with a name (and glob) from the input."""
    import duckdb as db
    import pyarrow as pa

    import fasturi.duckdb
    from fasturi import arrow as fa

    r = Reader(data)
    base = r.text(64).encode("utf-8", "replace").decode("utf-8")
    name = r.text(8).encode("utf-8", "replace").decode("utf-8")
    col = _column(r, raw=bool(r.option() & 1))
    con = _native_duckdb()
    con.register("fuzz", pa.table({"i": pa.array(range(len(col)), pa.int32()), "u": col}))

    def native(call: str, *params: Any) -> Any:
        return con.execute(f"SELECT {call} FROM fuzz ORDER BY i", list(params)).fetchall()

    def column(values: Any) -> Any:
        return [(v,) for v in values.to_pylist()]

    try:
        checks: list[tuple[str, tuple[Any, ...], Callable[[], Any]]] = [
            ("uri_normalize(u)", (), lambda: column(fa.normalize(col))),
            ("uri_canonicalize(u)", (), lambda: column(fa.canonicalize(col))),
            ("uri_fingerprint(u)", (), lambda: column(fa.fingerprint(col))),
            ("uri_is_valid(u)", (), lambda: column(fa.is_valid(col))),
            ("uri_registrable_domain(u)", (), lambda: column(fa.registrable_domain(col))),
            ("uri_public_suffix(u)", (), lambda: column(fa.public_suffix(col))),
            ("uri_split(u)", (), lambda: column(fa.split(col, fa.FIELDS))),
            ("uri_resolve(?, u)", (base,), lambda: column(fa.resolve(base, col))),
            ("uri_resolve(u, ?)", (base,), lambda: column(fa.resolve(col, [base] * len(col)))),
            ("uri_query_params(u)", (), lambda: column(fa.query_params(col))),
            ("uri_query_params(u, false)", (), lambda: column(fa.query_params(col, decode=False))),
            ("uri_query_param(u, ?)", (name,), lambda: column(fa.query_param(col, name))),
            (
                "uri_query_param(u, ?, false)",
                (name,),
                lambda: column(fa.query_param(col, name, decode=False)),
            ),
            (
                "uri_remove_params(u, ?)",
                ([name, "utm_*"],),
                lambda: column(fa.remove_params(col, [name, "utm_*"])),
            ),
            ("uri_path_extension(u)", (), lambda: column(fa.path_extension(col))),
            ("uri_path_hierarchy(u)", (), lambda: column(fa.path_hierarchy(col))),
            ("uri_subdomain(u)", (), lambda: column(fa.subdomain(col))),
        ]
        checks += [
            (f"uri_{f}(u)", (), lambda f=f: column(fa.split(col, (f,)).field(0)))
            for f in ("scheme", "host", "port", "path", "query", "fragment")
        ]
        for call, args, want in checks:
            got = outcome(native, call, *args)
            expected = outcome(want)
            if got[0] != "ok":  # a refused chunk: its text is not UTF-8 there too
                assert got[1][0] is db.InvalidInputException, (call, got)
                assert "is not valid UTF-8" in got[1][1], (call, got)
                assert expected[0] == "raise" and "not valid UTF-8" in expected[1][1], expected
            else:
                assert got == expected, f"{call} on {col!r}: {got!r} != {expected!r}"
    finally:
        con.unregister("fuzz")
    assert fasturi.duckdb.NATIVE  # (the extension was loaded, not the Arrow path)


def polars(data: bytes) -> None:
    """fasturi.polars's plugin expressions against its Python path (the
    fasturi.arrow kernels through map_batches) on a column of generated or
    raw rows (polars keeps unvalidated UTF-8 it is handed), one chunk or
    two, in memory or streamed: the same values, or both refusing the rows'
    text, never a crash."""
    import polars as pl

    import fasturi.polars
    from fasturi import arrow as fa

    r = Reader(data)
    base = r.text(64).encode("utf-8", "replace").decode("utf-8")
    name = r.text(8).encode("utf-8", "replace").decode("utf-8")
    opt = r.option()
    col = pl.from_arrow(_column(r, raw=bool(opt & 1)))
    assert isinstance(col, pl.Series)
    if opt & 2 and len(col) > 1:  # two chunks
        cut = r.option() % len(col)
        col = pl.concat([col.slice(0, cut), col.slice(cut)], rechunk=False)
    df = pl.DataFrame({"url": col, "base": pl.Series([base] * len(col), dtype=pl.String)})
    engine = "streaming" if opt & 4 else "in-memory"
    url = pl.col("url").uri
    fields = [f for i, f in enumerate(fa.FIELDS) if (opt >> 3) & (1 << i)] or ["path"]
    builds = [
        lambda: url.split(fields),
        lambda: url.normalize(scheme_based=not opt & 8),
        lambda: url.canonicalize(drop_params=["a", "b*"], sort_query=not opt & 16),
        lambda: url.is_valid("URI" if opt & 32 else "URI-reference"),
        lambda: url.error_position(rfc=2396 if opt & 64 else 3986),
        lambda: url.percent_decode(),
        lambda: url.resolve(base, strict=not opt & 128),
        lambda: pl.col("base").uri.resolve(pl.col("url")),
        lambda: url.registrable_domain(private=bool(opt & 8)),
        lambda: url.public_suffix(),
        lambda: url.fingerprint(drop_fragment=not opt & 16),
        lambda: url.query_param(name, decode=not opt & 32),
        lambda: url.remove_params([name, "utm_*"]),
        lambda: url.path_extension(),
        lambda: url.subdomain(private=bool(opt & 64)),
        *[lambda f=f: getattr(url, f)() for f in fa.FIELDS],
    ]

    def run(expr: Any) -> Any:
        return df.lazy().select(expr.alias("out")).collect(engine=engine)["out"].to_list()

    saved = fasturi.polars._PLUGIN
    for build in builds:
        native = build()
        fasturi.polars._PLUGIN = None
        try:
            python = build()
        finally:
            fasturi.polars._PLUGIN = saved
        assert "fasturi.polars_plugin" in str(native)
        got, want = outcome(run, native), outcome(run, python)
        if got[0] == "ok" or want[0] == "ok":
            assert got == want, f"{native} on {col.to_list()!r}: {got!r} != {want!r}"
        else:  # both refuse: a row's text (or its decoded escapes) is not UTF-8
            for refused in (got, want):
                assert "not valid UTF-8" in refused[1][1] or "can't decode" in refused[1][1], (
                    refused
                )


TARGETS: dict[str, Callable[[bytes], None]] = {
    f.__name__: f
    for f in (
        split,
        uri,
        resolve,
        normalize,
        validate,
        percent,
        extract,
        parse,
        arrow,
        crawler,
        idna,
        parts,
        whatwg,
    )
}
# the DuckDB extension, where duckdb is installed and fasturi built it
if importlib.util.find_spec("duckdb") is not None:
    from fasturi._duckdb_ext import extension_file

    if extension_file() is not None:
        TARGETS["duckdb"] = duckdb
# the polars plugin, where polars is installed and fasturi built it
if importlib.util.find_spec("polars") is not None:
    import fasturi.polars as _fasturi_polars

    if _fasturi_polars.plugin_path() is not None:
        TARGETS["polars"] = polars
