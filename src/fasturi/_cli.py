"""The ``fasturi`` command line: RFC 3986 operations over lines of text.

Input is read as bytes, one line at a time, so memory stays flat however long
the stream; each line is decoded as UTF-8 on its own, and a line that is not
valid UTF-8 is reported on stderr and skipped.
"""

from __future__ import annotations

import argparse
import json
import os
import stat
import sys
from typing import IO, Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple

import fasturi

# Lines handed to one batch call: large enough to amortize the call, small
# enough that memory does not grow with the input.
CHUNK = 4096

FIELDS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")
SPLIT_DEFAULT = "scheme,authority,path,query,fragment"

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2

_EPILOG_COMMON = """\
Input: the named files, or standard input for "-" (the default), one URI per
line, UTF-8.  A line that is not valid UTF-8 is reported on stderr with its
line number and skipped; the exit status is then 1.  A trailing CR (CRLF line
ends) and a byte-order mark at the start of a file are ignored.
"""


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # None (no console), or closed
        return False


class _Line:
    """A decoded input line and where it came from."""

    __slots__ = ("source", "number", "text")

    def __init__(self, source: str, number: int, text: str) -> None:
        self.source = source
        self.number = number
        self.text = text


class _Run:
    """State shared by one command run: output, diagnostics, exit status."""

    def __init__(self, command: str, args: argparse.Namespace) -> None:
        self.command = command
        self.args = args
        self.out = sys.stdout.buffer
        self.status = EXIT_OK
        self.many_sources = len(args.files) > 1
        # Someone typing lines wants each answer at once, not a chunk later.
        self.line_buffered = bool(getattr(args, "line_buffered", False)) or (
            "-" in args.files and _is_terminal(sys.stdin)
        )

    def warn(self, message: str) -> None:
        sys.stderr.write(f"fasturi {self.command}: {message}\n")
        sys.stderr.flush()

    def found(self) -> None:
        """Something the command reports was found (exit status 1)."""
        if self.status == EXIT_OK:
            self.status = EXIT_FOUND

    def fail(self) -> None:
        self.status = EXIT_ERROR

    def where(self, line: _Line) -> str:
        return f"{line.source}:{line.number}" if self.many_sources else str(line.number)

    def write(self, rows: List[str]) -> None:
        if rows:
            # surrogateescape: BASE and file names come from argv, which the
            # interpreter decodes that way; their bytes go back out unchanged.
            self.out.write(("\n".join(rows) + "\n").encode("utf-8", "surrogateescape"))
            if self.line_buffered:
                self.out.flush()


# ---- input ---------------------------------------------------------------


def _source_size(path: str) -> Optional[int]:
    try:
        st = os.stat(path) if path != "-" else os.fstat(sys.stdin.fileno())
    except (OSError, ValueError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def _progress(run: _Run, paths: Sequence[str]) -> Any:
    """A tqdm bar on stderr when it is a terminal, or None."""
    if run.args.no_progress or not _is_terminal(sys.stderr):
        return None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]
    except ImportError:  # a dependency, but a bar is no reason to stop
        return None
    sizes = [_source_size(p) for p in paths]
    total = None if any(s is None for s in sizes) else sum(s or 0 for s in sizes)
    return tqdm(
        total=total,
        unit="B",
        unit_scale=True,
        unit_divisor=1024,
        file=sys.stderr,
        delay=0.5,
        leave=False,
        desc=run.command,
    )


def _lines(run: _Run, paths: Sequence[str]) -> Iterator[_Line]:
    """Decoded lines of every input, reporting (and skipping) bad ones."""
    bar = _progress(run, paths)
    try:
        for path in paths:
            if path == "-":
                stream: IO[bytes] = sys.stdin.buffer
                name = "<stdin>"
            else:
                try:
                    stream = open(path, "rb")  # noqa: SIM115 - closed below
                except OSError as exc:
                    run.warn(f"cannot read {path}: {exc.strerror or exc}")
                    run.fail()
                    continue
                name = path
            try:
                yield from _decode(run, stream, name, bar)
            finally:
                if stream is not sys.stdin.buffer:
                    stream.close()
    finally:
        if bar is not None:
            bar.close()


def _decode(run: _Run, stream: IO[bytes], name: str, bar: Any) -> Iterator[_Line]:
    number = 0
    pending = 0
    for raw in stream:
        number += 1
        if bar is not None:
            pending += len(raw)
            if pending >= 1 << 16:
                bar.update(pending)
                pending = 0
        if raw.endswith(b"\n"):
            raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            run.warn(
                f"{name}:{number}: invalid UTF-8 at byte {exc.start} "
                f"({raw[exc.start : exc.start + 1]!r}); line skipped"
            )
            run.found()
            continue
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        yield _Line(name, number, text)
    if bar is not None and pending:
        bar.update(pending)


def _chunks(run: _Run, lines: Iterable[_Line]) -> Iterator[List[_Line]]:
    size = 1 if run.line_buffered else CHUNK
    chunk: List[_Line] = []
    for line in lines:
        chunk.append(line)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk


# ---- output --------------------------------------------------------------


def _tsv(value: Optional[str]) -> str:
    """One TSV field: ``\\N`` for undefined, escapes for tab/newline/CR/backslash."""
    if value is None:
        return "\\N"
    if "\\" in value or "\t" in value or "\n" in value or "\r" in value:
        value = (
            value.replace("\\", "\\\\")
            .replace("\t", "\\t")
            .replace("\n", "\\n")
            .replace("\r", "\\r")
        )
    return value


def _json(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False)


# ---- commands ------------------------------------------------------------

# A command turns a chunk of lines into output rows; it may call run.found().
Handler = Callable[[_Run, List[_Line]], List[str]]


def _apply(
    run: _Run,
    chunk: List[_Line],
    batch: Callable[[List[str]], List[Any]],
    single: Callable[[str], Any],
) -> List[Tuple[_Line, Any]]:
    """``batch`` over the chunk's texts; if it raises, each line alone.

    A line whose own call raises is reported and skipped, so one surprising
    line never ends the stream.
    """
    try:
        return list(zip(chunk, batch([line.text for line in chunk])))
    except Exception:  # noqa: BLE001 - isolated below, line by line
        pass
    pairs = []
    for line in chunk:
        try:
            pairs.append((line, single(line.text)))
        except Exception as exc:  # noqa: BLE001 - reported, stream goes on
            run.warn(f"{line.source}:{line.number}: {type(exc).__name__}: {exc}; line skipped")
            run.found()
    return pairs


def _split_handler(run: _Run) -> Handler:
    fields = _parse_fields(run.args.fields)
    need_authority = any(f in ("userinfo", "host", "port") for f in fields)
    split_authority = fasturi._impl.core.split_authority

    def row(parts: fasturi.Split) -> List[Optional[str]]:
        values: Dict[str, Optional[str]] = parts._asdict()
        if need_authority:
            if parts.authority is None:
                values.update(userinfo=None, host=None, port=None)
            else:
                userinfo, host, port = split_authority(parts.authority)
                values.update(userinfo=userinfo, host=host, port=port)
        return [values[f] for f in fields]

    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        pairs = _apply(run, chunk, fasturi.split_many, fasturi.split)
        if run.args.json:
            return [_json(dict(zip(fields, row(parts)))) for _, parts in pairs]
        return ["\t".join(_tsv(v) for v in row(parts)) for _, parts in pairs]

    if run.args.header and not run.args.json:
        run.write(["\t".join(fields)])
    return handle


def _parse_fields(text: str) -> List[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    bad = [n for n in names if n not in FIELDS]
    if bad or not names:
        raise _UsageError(
            f"unknown field {bad[0]!r}; choose from {', '.join(FIELDS)}"
            if bad
            else "--fields needs at least one field"
        )
    return names


def _mapping_handler(
    key_in: str, key_out: str, batch: Callable[[List[str]], List[Any]], single: Callable[[str], Any]
) -> Handler:
    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        pairs = _apply(run, chunk, batch, single)
        if run.args.json:
            return [_json({key_in: line.text, key_out: result}) for line, result in pairs]
        return [result for _, result in pairs]

    return handle


def _normalize_handler(run: _Run) -> Handler:
    scheme_based = not run.args.no_scheme_based
    return _mapping_handler(
        "uri",
        "normalized",
        lambda texts: fasturi.normalize_many(texts, scheme_based=scheme_based),
        lambda text: fasturi.normalize(text, scheme_based=scheme_based),
    )


def _canonicalize_handler(run: _Run) -> Handler:
    options: Dict[str, Any] = dict(
        sort_query=not run.args.keep_query_order,
        drop_fragment=not run.args.keep_fragment,
        drop_params=tuple(run.args.drop_param or ()),
    )
    return _mapping_handler(
        "uri",
        "canonical",
        lambda texts: fasturi.canonicalize_many(texts, **options),
        lambda text: fasturi.canonicalize(text, **options),
    )


def _resolve_handler(run: _Run) -> Handler:
    base: str = run.args.base
    options: Dict[str, Any] = dict(strict=not run.args.non_strict, rfc=run.args.rfc)
    try:
        fasturi.resolve(base, "", **options)
    except ValueError as exc:
        raise _UsageError(f"BASE {base!r}: {exc}") from None
    return _mapping_handler(
        "ref",
        "resolved",
        lambda texts: fasturi.resolve_many(base, texts, **options),
        lambda text: fasturi.resolve(base, text, **options),
    )


def _validate_handler(run: _Run) -> Handler:
    rule, rfc = run.args.rule, run.args.rfc
    try:
        fasturi.is_valid("", rule, rfc=rfc)
    except ValueError as exc:
        raise _UsageError(str(exc)) from None

    def check(text: str) -> Optional[fasturi.InvalidURI]:
        if fasturi.is_valid(text, rule, rfc=rfc):
            return None
        try:
            fasturi.validate(text, rule, rfc=rfc)
        except fasturi.InvalidURI as exc:
            return exc
        # is_valid and validate disagree: never expected, but never silent.
        raise AssertionError(f"is_valid() and validate() disagree on {text!r}")

    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        rows = []
        for line, error in _apply(run, chunk, lambda texts: [check(t) for t in texts], check):
            if error is None:
                continue
            run.found()
            if run.args.json:
                rows.append(
                    _json(
                        {
                            "file": line.source,
                            "line": line.number,
                            "uri": line.text,
                            "position": error.position,
                            "rule": error.rule,
                            "message": str(error),
                        }
                    )
                )
            else:
                rows.append(
                    "\t".join((run.where(line), str(error.position), error.rule, _tsv(line.text)))
                )
        return rows

    return handle


def _audit_handler(run: _Run) -> Handler:
    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        rows = []
        audit = fasturi.audit
        for line, findings in _apply(run, chunk, lambda texts: [audit(t) for t in texts], audit):
            if not findings:
                continue
            run.found()
            if run.args.json:
                rows.append(
                    _json(
                        {
                            "file": line.source,
                            "line": line.number,
                            "uri": line.text,
                            "findings": [f._asdict() for f in findings],
                        }
                    )
                )
            else:
                rows.extend(
                    "\t".join(
                        (run.where(line), f.code, f.section, _tsv(f.message), _tsv(line.text))
                    )
                    for f in findings
                )
        return rows

    return handle


def _extract_lines(lines: Iterable[_Line], limit: int = 1 << 16) -> Iterator[_Line]:
    """Join a line with the next ones while a ``<`` is still open (bounded).

    RFC 3986 Appendix C lets a delimited URI run over several lines
    (``<http://example.com/very/\\n long/path>``), so such lines go to
    ``extract`` together; a block never grows much past ``limit`` characters.
    """
    parts: List[str] = []
    first: Optional[_Line] = None
    size = 0
    still_open = False
    for line in lines:
        if first is None:
            first = line
        parts.append(line.text)
        size += len(line.text) + 1
        lt, gt = line.text.rfind("<"), line.text.rfind(">")
        if lt != gt:  # the line has a "<" or a ">": the later one decides
            still_open = lt > gt
        if not still_open or size >= limit:
            yield first if len(parts) == 1 else _Line(first.source, first.number, "\n".join(parts))
            parts, first, size, still_open = [], None, 0, False
    if first is not None:
        yield _Line(first.source, first.number, "\n".join(parts))


def _extract_handler(run: _Run) -> Handler:
    abbreviated = run.args.abbreviated

    def find(text: str) -> List[str]:
        return fasturi.extract(text, abbreviated=abbreviated)

    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        rows: List[str] = []
        for line, uris in _apply(run, chunk, lambda texts: [find(t) for t in texts], find):
            if run.args.json:
                rows.extend(
                    _json({"file": line.source, "line": line.number, "uri": u}) for u in uris
                )
            else:
                rows.extend(uris)
        return rows

    return handle


class _UsageError(Exception):
    """A bad option value found after parsing (exit status 2)."""


def _stream(run: _Run, handler: Handler) -> None:
    lines: Iterable[_Line] = _lines(run, run.args.files)
    if run.command == "extract":
        lines = _extract_lines(lines)
    for chunk in _chunks(run, lines):
        run.write(handler(run, chunk))


HANDLERS: Dict[str, Callable[[_Run], Handler]] = {
    "split": _split_handler,
    "normalize": _normalize_handler,
    "canonicalize": _canonicalize_handler,
    "resolve": _resolve_handler,
    "validate": _validate_handler,
    "audit": _audit_handler,
    "extract": _extract_handler,
}


# ---- bench ---------------------------------------------------------------

OPERATIONS = (
    "split",
    "resolve",
    "normalize",
    "canonicalize",
    "is_valid",
    "urlsplit",
    "urljoin",
    "quote",
)

# (operation, label, kind, factory, note).  kind "url" takes each URL, "pair"
# each (base, reference), "batch"/"pages" one call for all URLs / per page.
# A factory imports its library and returns the function, so an absent peer
# costs nothing and is reported as such.
_Entry = Tuple[str, str, str, Callable[[], Callable[..., Any]], str]


def _fasturi_parse(name: str) -> Callable[[], Callable[..., Any]]:
    def factory() -> Callable[..., Any]:
        from fasturi import parse

        return getattr(parse, name)  # type: ignore[no-any-return]

    return factory


def _peer(module: str) -> Any:
    # Peers are optional and untyped: imported by name, typed as Any.
    import importlib

    return importlib.import_module(module)


def _rfc3986_resolve() -> Callable[..., Any]:
    ref = _peer("rfc3986").uri_reference
    return lambda base, r: ref(r).resolve_with(base).unsplit()


def _rfc3986_valid() -> Callable[..., Any]:
    rfc3986 = _peer("rfc3986")
    failure = _peer("rfc3986.exceptions").ValidationError
    checker = (
        _peer("rfc3986.validators")
        .Validator()
        .check_validity_of("scheme", "userinfo", "host", "port", "path", "query", "fragment")
    )
    ref = rfc3986.uri_reference

    def is_valid(s: str) -> bool:
        try:
            checker.validate(ref(s))
        except failure:
            return False
        return True

    return is_valid


def _rfc3986_validator() -> Callable[..., Any]:
    validate = _peer("rfc3986_validator").validate_rfc3986
    return lambda s: validate(s, rule="URI_reference")


def _yarl_resolve() -> Callable[..., Any]:
    url = _peer("yarl").URL
    return lambda base, r: str(url(base).join(url(r)))


def _module_attr(module: str, name: str) -> Callable[[], Callable[..., Any]]:
    def factory() -> Callable[..., Any]:
        return getattr(_peer(module), name)  # type: ignore[no-any-return]

    return factory


def _fasturi_attr(name: str) -> Callable[[], Callable[..., Any]]:
    return lambda: getattr(fasturi, name)


_WHATWG = "WHATWG parser: normalizes while parsing, rejects what it cannot parse"
_REQUOTE = "builds a URL object, validates and requotes"

BENCH: List[_Entry] = [
    ("split", "fasturi.split", "url", _fasturi_attr("split"), ""),
    ("split", "fasturi.split_many", "batch", _fasturi_attr("split_many"), "one call per corpus"),
    (
        "split",
        "urllib.parse.urlsplit",
        "url",
        _module_attr("urllib.parse", "urlsplit"),
        "lru_cache of 128 entries, missed on this corpus",
    ),
    ("split", "rfc3986.uri_reference", "url", _module_attr("rfc3986", "uri_reference"), ""),
    ("split", "uritools.urisplit", "url", _module_attr("uritools", "urisplit"), ""),
    ("split", "yarl.URL", "url", _module_attr("yarl", "URL"), _REQUOTE),
    ("split", "ada_url.URL", "url", _module_attr("ada_url", "URL"), _WHATWG),
    ("split", "can_ada.parse", "url", _module_attr("can_ada", "parse"), _WHATWG),
    ("resolve", "fasturi.resolve", "pair", _fasturi_attr("resolve"), ""),
    (
        "resolve",
        "fasturi.resolve_many",
        "pages",
        _fasturi_attr("resolve_many"),
        "one call per page (shared base)",
    ),
    ("resolve", "urllib.parse.urljoin", "pair", _module_attr("urllib.parse", "urljoin"), ""),
    ("resolve", "rfc3986 resolve_with", "pair", _rfc3986_resolve, "validates the base"),
    ("resolve", "uritools.urijoin", "pair", _module_attr("uritools", "urijoin"), ""),
    ("resolve", "yarl URL.join", "pair", _yarl_resolve, _REQUOTE),
    ("resolve", "ada_url.join_url", "pair", _module_attr("ada_url", "join_url"), _WHATWG),
    ("normalize", "fasturi.normalize", "url", _fasturi_attr("normalize"), ""),
    (
        "normalize",
        "fasturi.normalize_many",
        "batch",
        _fasturi_attr("normalize_many"),
        "one call per corpus",
    ),
    (
        "normalize",
        "rfc3986.normalize_uri",
        "url",
        _module_attr("rfc3986", "normalize_uri"),
        "case and dot segments only, no percent-decoding of unreserved",
    ),
    (
        "normalize",
        "ada_url.normalize_url",
        "url",
        _module_attr("ada_url", "normalize_url"),
        _WHATWG,
    ),
    ("canonicalize", "fasturi.canonicalize", "url", _fasturi_attr("canonicalize"), ""),
    (
        "canonicalize",
        "fasturi.canonicalize_many",
        "batch",
        _fasturi_attr("canonicalize_many"),
        "one call per corpus",
    ),
    (
        "canonicalize",
        "w3lib.url.canonicalize_url",
        "url",
        _module_attr("w3lib.url", "canonicalize_url"),
        "also percent-encodes and IDNA-encodes",
    ),
    ("is_valid", "fasturi.is_valid", "url", _fasturi_attr("is_valid"), ""),
    (
        "is_valid",
        "rfc3986 Validator",
        "url",
        _rfc3986_valid,
        "checks each component, not the whole grammar",
    ),
    ("is_valid", "rfc3986_validator", "url", _rfc3986_validator, "one regular expression"),
    (
        "is_valid",
        "ada_url.check_url",
        "url",
        _module_attr("ada_url", "check_url"),
        "WHATWG validity, a different question",
    ),
    (
        "is_valid",
        "can_ada.can_parse",
        "url",
        _module_attr("can_ada", "can_parse"),
        "WHATWG validity, a different question",
    ),
    ("urlsplit", "fasturi.parse.urlsplit", "url", _fasturi_parse("urlsplit"), ""),
    ("urlsplit", "urllib.parse.urlsplit", "url", _module_attr("urllib.parse", "urlsplit"), ""),
    ("urljoin", "fasturi.parse.urljoin", "pair", _fasturi_parse("urljoin"), ""),
    ("urljoin", "urllib.parse.urljoin", "pair", _module_attr("urllib.parse", "urljoin"), ""),
    ("quote", "fasturi.parse.quote", "url", _fasturi_parse("quote"), "each URL quoted whole"),
    (
        "quote",
        "urllib.parse.quote",
        "url",
        _module_attr("urllib.parse", "quote"),
        "each URL quoted whole",
    ),
]


def _data_lines(name: str, path: Optional[str]) -> List[str]:
    if path is None:
        from importlib.resources import files

        raw = files("fasturi").joinpath("data", name).read_bytes()
    else:
        with open(path, "rb") as f:
            raw = f.read()
    return [line for line in raw.decode("utf-8", "replace").splitlines() if line]


def _runner(kind: str, func: Callable[..., Any]) -> Callable[[Any], int]:
    """A pass over the corpus returning how many items raised."""
    if kind == "setup":
        return lambda _: (func(), 0)[1]
    if kind == "batch":
        return lambda urls: len(func(urls)) * 0
    if kind == "pages":
        return lambda pages: sum(len(func(base, refs)) * 0 for base, refs in pages)

    if kind == "pair":

        def run_pairs(pairs: List[Tuple[str, str]]) -> int:
            failed = 0
            for base, ref in pairs:
                try:
                    func(base, ref)
                except Exception:  # noqa: BLE001 - a peer rejecting input is counted
                    failed += 1
            return failed

        return run_pairs

    def run_urls(urls: List[str]) -> int:
        failed = 0
        for url in urls:
            try:
                func(url)
            except Exception:  # noqa: BLE001 - a peer rejecting input is counted
                failed += 1
        return failed

    return run_urls


def _clock() -> Callable[[], int]:
    # CPU time of this process where it is precise (POSIX): a busy machine
    # then delays a pass without inflating it.  Windows counts process time
    # in 15.6 ms ticks, so there the wall clock is the better measure.
    import time

    return time.process_time_ns if os.name == "posix" else time.perf_counter_ns


def _time(run: Callable[[Any], int], data: Any, rounds: int) -> Tuple[int, int]:
    """Best of ``rounds`` passes in nanoseconds, and the failures of one pass."""
    import gc

    clock = _clock()
    best, failed, spent = None, 0, 0
    for _ in range(max(1, rounds)):
        if spent > 1_000_000_000:  # a slow peer: a second of passes is enough
            break
        enabled = gc.isenabled()
        gc.disable()
        try:
            start = clock()
            failed = run(data)
            elapsed = clock() - start
        finally:
            if enabled:
                gc.enable()
        best = elapsed if best is None or elapsed < best else best
        spent += elapsed
    return best or 0, failed


def _entries() -> List[_Entry]:
    """BENCH and the column and engine rows, grouped by operation."""
    from ._bench_engines import ENTRIES

    order = {op: i for i, op in enumerate(OPERATIONS)}
    return sorted(BENCH + ENTRIES, key=lambda entry: order[entry[0]])  # stable


def _bench(args: argparse.Namespace) -> int:
    import platform
    import warnings

    ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    unknown = [o for o in ops if o not in OPERATIONS]
    if unknown or not ops:
        sys.stderr.write(
            f"fasturi bench: unknown operation {unknown[0] if unknown else ''!r}; "
            f"choose from {', '.join(OPERATIONS)}\n"
        )
        return EXIT_ERROR
    try:
        urls = _data_lines("urls.txt", args.corpus)
        pairs = [tuple(line.split("\t", 1)) for line in _data_lines("refs.tsv", args.refs)]
    except OSError as exc:
        sys.stderr.write(f"fasturi bench: cannot read corpus: {exc}\n")
        return EXIT_ERROR
    pairs = [p for p in pairs if len(p) == 2]
    pages: List[Tuple[str, List[str]]] = []
    for base, ref in pairs:
        if pages and pages[-1][0] == base:
            pages[-1][1].append(ref)
        else:
            pages.append((base, [ref]))
    data = {"url": urls, "batch": urls, "pair": pairs, "pages": pages}

    records: List[Dict[str, Any]] = []
    missing: Dict[str, str] = {}
    with warnings.catch_warnings():
        # Peers warn about deprecated calls; a benchmark only times them.
        warnings.simplefilter("ignore")
        for op, label, kind, factory, note in _entries():
            if op not in ops:
                continue
            try:
                func = factory()
                if kind == "setup":
                    # a column or engine path: its input is built untimed
                    func = func(urls, pairs)
            except Exception as exc:  # noqa: BLE001 - absent or broken peer
                missing[label] = f"{type(exc).__name__}: {exc}"
                continue
            items = data.get(kind)
            count = len(pairs) if kind in ("pair", "pages") or op == "resolve" else len(urls)
            elapsed, failed = _time(_runner(kind, func), items, args.rounds)
            records.append(
                {
                    "operation": op,
                    "implementation": label,
                    "ns_per_item": elapsed / max(count, 1),
                    "items": count,
                    "failed": failed,
                    "note": note,
                }
            )

    if args.plot:
        try:
            _plot(records, args.plot)
        except ImportError as exc:
            sys.stderr.write(f"fasturi bench: --plot needs matplotlib ({exc})\n")
            return EXIT_ERROR
    if args.json:
        for record in records:
            print(_json(record))
        return EXIT_OK
    print(
        f"fasturi {fasturi.__version__} ({fasturi.IMPLEMENTATION}), "
        f"{platform.python_implementation()} {platform.python_version()}; "
        f"{len(urls):,} URLs, {len(pairs):,} references; best of {max(1, args.rounds)} rounds "
        f"({'CPU' if os.name == 'posix' else 'wall-clock'} time)"
    )
    print()
    _print_table(records)
    if missing:
        print()
        print("not timed:")
        for label, why in missing.items():
            print(f"  {label}: {why}")
    return EXIT_OK


def _plot(records: List[Dict[str, Any]], path: str) -> None:
    """The table as horizontal bars, one panel per operation (log scale)."""
    import matplotlib

    matplotlib.use("Agg")  # a file, no display
    import matplotlib.pyplot as plt

    from ._bench_engines import OURS

    ops = list(dict.fromkeys(r["operation"] for r in records))
    heights = [sum(r["operation"] == op for r in records) for op in ops]
    fig, axes = plt.subplots(
        len(ops),
        1,
        figsize=(9, 0.32 * sum(heights) + 0.9 * len(ops)),
        gridspec_kw={"height_ratios": heights},
        squeeze=False,
    )
    for ax, op in zip(axes[:, 0], ops):
        rows = [r for r in records if r["operation"] == op]
        labels = [r["implementation"] for r in rows]
        values = [max(r["ns_per_item"], 1e-3) for r in rows]
        colors = [
            "tab:blue" if lab.startswith("fasturi") or lab in OURS else "tab:gray" for lab in labels
        ]
        ax.barh(labels, values, color=colors)
        ax.invert_yaxis()  # the table's order, top down
        ax.set_xscale("log")
        ax.set_title(op, loc="left", fontsize=10)
        ax.tick_params(labelsize=8)
        for y, v in enumerate(values):
            ax.text(v, y, f" {v:,.0f}", va="center", fontsize=7)
    axes[-1, 0].set_xlabel("ns per URL (log scale; shorter is faster)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _print_table(records: List[Dict[str, Any]]) -> None:
    urllib_for = {
        "split": "urllib.parse.urlsplit",
        "resolve": "urllib.parse.urljoin",
        "urlsplit": "urllib.parse.urlsplit",
        "urljoin": "urllib.parse.urljoin",
        "quote": "urllib.parse.quote",
    }
    fasturi_for = {
        "urlsplit": "fasturi.parse.urlsplit",
        "urljoin": "fasturi.parse.urljoin",
        "quote": "fasturi.parse.quote",
    }
    by_label = {(r["operation"], r["implementation"]): r["ns_per_item"] for r in records}
    header = ("operation", "implementation", "ns/URL", "x urllib", "x fasturi", "note")
    rows = []
    last_op = None
    for r in records:
        op, ns = r["operation"], r["ns_per_item"]
        base = by_label.get((op, urllib_for.get(op, "")))
        ours = by_label.get((op, fasturi_for.get(op, f"fasturi.{op}")))
        note = r["note"]
        if r["failed"]:
            note = (note + "; " if note else "") + f"raised on {r['failed']:,}"
        rows.append(
            (
                op if op != last_op else "",
                r["implementation"],
                f"{ns:,.0f}",
                f"{base / ns:.2f}" if base and ns else "",
                f"{ns / ours:.2f}" if ours and ns else "",
                note,
            )
        )
        last_op = op
    widths = [
        max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
        for i, h in enumerate(header)
    ]
    right = {2, 3, 4}

    def fmt(row: Sequence[str]) -> str:
        cells = [
            c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))
        ]
        return "  ".join(cells).rstrip()

    print(fmt(header))
    print(fmt(["-" * w for w in widths]))
    for row in rows:
        print(fmt(row))


# ---- argument parsing ----------------------------------------------------


class _Formatter(argparse.RawDescriptionHelpFormatter):
    pass


def _add_io(p: argparse.ArgumentParser, what: str = "URI") -> None:
    p.add_argument(
        "files",
        nargs="*",
        default=["-"],
        metavar="FILE",
        help=f"files of one {what} per line; '-' or none for standard input",
    )
    p.add_argument("--json", action="store_true", help="write JSON lines instead of TSV")
    p.add_argument(
        "--no-progress",
        action="store_true",
        help="no progress bar (it is shown only when stderr is a terminal)",
    )
    p.add_argument(
        "--line-buffered",
        action="store_true",
        help="write each result as soon as its line is read (for live streams)",
    )


def _command(sub: Any, name: str, summary: str, epilog: str) -> argparse.ArgumentParser:
    return sub.add_parser(  # type: ignore[no-any-return]
        name,
        help=summary,
        description=summary,
        epilog=epilog + "\n" + _EPILOG_COMMON,
        formatter_class=_Formatter,
    )


def _rfc_option(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--rfc",
        type=int,
        choices=(3986, 2396),
        default=3986,
        help="the RFC whose rules apply (default 3986)",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="fasturi",
        description="RFC 3986 URI tools: one result per input line.",
        epilog=(
            "Run 'fasturi COMMAND --help' for a command's options and examples.\n"
            "Exit status: 0 ok; 1 a line was not UTF-8, or validate/audit found\n"
            "something; 2 a usage error or an unreadable file."
        ),
        formatter_class=_Formatter,
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"fasturi {fasturi.__version__} ({fasturi.IMPLEMENTATION})",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True

    p = _command(
        sub,
        "split",
        "Split each URI into its RFC 3986 components (Appendix B).",
        """\
examples:
  fasturi split urls.txt
  fasturi split --fields scheme,host,path --header < urls.txt
  echo 'http://user@[::1]:8080/p?q#f' | fasturi split --json --fields host,port

Fields: scheme authority userinfo host port path query fragment (default
scheme,authority,path,query,fragment).  TSV prints an undefined component as
\\N and escapes tab, newline, CR and backslash as \\t \\n \\r \\\\ (PostgreSQL
COPY text format); JSON gives null.  The port is the text as written.
""",
    )
    _add_io(p)
    p.add_argument(
        "--fields",
        default=SPLIT_DEFAULT,
        metavar="LIST",
        help=f"comma-separated components to print (default {SPLIT_DEFAULT})",
    )
    p.add_argument("--header", action="store_true", help="print the field names first (TSV)")

    p = _command(
        sub,
        "normalize",
        "Normalize each URI (RFC 3986 §6.2.2 and §6.2.3).",
        """\
examples:
  fasturi normalize urls.txt
  echo 'HTTP://Example.COM:80/a/./b/../%7euser' | fasturi normalize
                                              -> http://example.com/a/~user
  fasturi normalize --no-scheme-based --json urls.txt

TSV output is the normalized text itself; JSON gives {"uri", "normalized"}.
""",
    )
    _add_io(p)
    p.add_argument(
        "--no-scheme-based",
        action="store_true",
        help="only §6.2.2 (no default-port or empty-path rules of §6.2.3)",
    )

    p = _command(
        sub,
        "canonicalize",
        "Print a dedup key per URI: normalized, query sorted, fragment dropped.",
        """\
examples:
  fasturi canonicalize urls.txt | sort -u
  fasturi canonicalize --drop-param 'utm_*' --drop-param fbclid < urls.txt
  echo 'http://A.com/?b=2&a=1#top' | fasturi canonicalize     -> http://a.com/?a=1&b=2

TSV output is the key itself; JSON gives {"uri", "canonical"}.
""",
    )
    _add_io(p)
    p.add_argument("--keep-query-order", action="store_true", help="do not sort the query fields")
    p.add_argument("--keep-fragment", action="store_true", help="keep the fragment")
    p.add_argument(
        "--drop-param",
        action="append",
        metavar="NAME",
        help="remove query fields named NAME; 'prefix*' matches by prefix (repeatable)",
    )

    p = _command(
        sub,
        "resolve",
        "Resolve each reference against BASE (RFC 3986 §5.2).",
        """\
examples:
  fasturi resolve 'http://a/b/c/d;p?q' refs.txt
  printf '../g\\n//g\\n?y\\n' | fasturi resolve 'http://a/b/c/d;p?q'
  fasturi resolve --rfc 2396 'http://a/b/c/d;p?q' refs.txt

TSV output is the resolved text itself; JSON gives {"ref", "resolved"}.
""",
    )
    p.add_argument("base", metavar="BASE", help="the absolute base URI (it must have a scheme)")
    _add_io(p, "reference")
    _rfc_option(p)
    p.add_argument(
        "--non-strict",
        action="store_true",
        help="ignore a reference's scheme equal to BASE's (§5.2.2, 'http:g')",
    )

    p = _command(
        sub,
        "validate",
        "Print each line that does not match an ABNF rule.",
        """\
examples:
  fasturi validate urls.txt
  fasturi validate --rule absolute-URI < urls.txt
  fasturi validate --rfc 2396 --rule absoluteURI --json urls.txt

Each invalid line prints LINE, POSITION (0-based index of the first offending
character), RULE and the text, tab-separated (LINE is FILE:LINE when several
files are given); JSON adds the message.  Exit status 1 if any line is invalid.
""",
    )
    _add_io(p)
    p.add_argument(
        "--rule", default="URI-reference", help="the ABNF rule to match (default URI-reference)"
    )
    _rfc_option(p)

    p = _command(
        sub,
        "audit",
        "Report RFC 3986 §7 security hazards in each URI.",
        """\
examples:
  fasturi audit urls.txt
  echo 'http://user:secret@0x7f.1/' | fasturi audit --json

Each finding prints LINE, CODE, SECTION, MESSAGE and the text, tab-separated
(LINE is FILE:LINE when several files are given); JSON gives one object per
line with its findings.  Exit status 1 if anything was found.
""",
    )
    _add_io(p)

    p = _command(
        sub,
        "extract",
        "Print the URIs found in free text (RFC 3986 Appendix C).",
        """\
examples:
  fasturi extract README.txt | sort -u
  fasturi extract --abbreviated notes.txt        (also www.example.com/x)
  curl -s URL | fasturi extract --json

Prints one URI per line; JSON gives {"file", "line", "uri"}.  A URI inside
<...> may run over several lines, as Appendix C allows.
""",
    )
    _add_io(p, "line of text")
    p.add_argument(
        "--abbreviated",
        action="store_true",
        help="also find RFC 2396 Appendix F forms (www.x.com/p, ftp.x.com)",
    )

    p = sub.add_parser(
        "bench",
        help="Time fasturi against urllib.parse and installed peers.",
        description="Time fasturi against urllib.parse and every installed peer "
        "(rfc3986, uritools, yarl, ada_url, can_ada, w3lib), and fasturi's column "
        "functions and engine paths (pandas, polars, DuckDB, Dask) against each "
        "engine's own way, on the corpus shipped in the package; print nanoseconds "
        "per URL.  pip install 'fasturi[bench]' installs every peer and engine.",
        epilog="""\
examples:
  fasturi bench
  fasturi bench --rounds 10 --ops split,resolve
  fasturi bench --corpus big-urls.txt --refs refs.tsv --json
  fasturi bench --plot bench.png

Each row is the best of --rounds passes over the whole corpus (fewer for a
peer whose passes already took a second), in ns per URL;
"x urllib" is how many times faster than urllib.parse, "x fasturi" how many
times slower than fasturi's single-call function.  Peers do different amounts
of work (WHATWG parsers normalize while they parse); notes say which.
Column and engine rows build their input (an Arrow column, a DataFrame)
before the timing; Spark is timed by benchmarks/engines.py instead, on
millions of rows.  --plot draws the table as bars (needs matplotlib).
""",
        formatter_class=_Formatter,
    )
    p.add_argument("--rounds", type=int, default=3, help="passes per measurement (default 3)")
    p.add_argument(
        "--ops",
        default=",".join(OPERATIONS),
        metavar="LIST",
        help=f"operations to time (default: all of {','.join(OPERATIONS)})",
    )
    p.add_argument("--corpus", metavar="FILE", help="a file of URLs, one per line")
    p.add_argument("--refs", metavar="FILE", help="a file of BASE<TAB>REFERENCE lines")
    p.add_argument("--json", action="store_true", help="print JSON records instead of a table")
    p.add_argument(
        "--plot", metavar="FILE.png", help="also draw the table as a bar chart (needs matplotlib)"
    )
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        if args.command == "bench":
            return _bench(args)
        if args.files == []:
            args.files = ["-"]
        run = _Run(args.command, args)
        handler = HANDLERS[args.command](run)
        _stream(run, handler)
        sys.stdout.flush()
        return run.status
    except _UsageError as exc:
        parser.exit(EXIT_ERROR, f"fasturi {args.command}: {exc}\n")
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly; pointing stdout at
        # devnull keeps the interpreter's final flush from failing again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FOUND
    raise AssertionError("unreachable")  # parser.exit raised SystemExit
