"""The commands of the ``fasturi`` command line (all but ``bench``).

Input is read as bytes, one line at a time, so memory stays flat however long
the stream; each line is decoded as UTF-8 on its own, and a line that is not
valid UTF-8 is reported on stderr and skipped.  A command's handler turns a
chunk of lines into output rows (TSV or JSON lines).
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

EXIT_OK, EXIT_FOUND, EXIT_ERROR = 0, 1, 2


class _UsageError(Exception):
    """A bad option value found after parsing (exit status 2)."""


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


def _sources(run: _Run, paths: Sequence[str]) -> Iterator[Tuple[str, IO[bytes]]]:
    """(name, binary stream) of every input that opens; the others reported."""
    for path in paths:
        if path == "-":
            yield "<stdin>", sys.stdin.buffer
            continue
        try:
            stream = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            run.warn(f"cannot read {path}: {exc.strerror or exc}")
            run.fail()
            continue
        try:
            yield path, stream
        finally:
            stream.close()


def _lines(run: _Run, paths: Sequence[str]) -> Iterator[_Line]:
    """Decoded lines of every input, reporting (and skipping) bad ones."""
    bar = _progress(run, paths)
    try:
        for name, stream in _sources(run, paths):
            yield from _decode(run, stream, name, bar)
    finally:
        if bar is not None:
            bar.close()


def _not_utf8(run: _Run, name: str, number: int, raw: bytes) -> None:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        run.warn(
            f"{name}:{number}: invalid UTF-8 at byte {exc.start} "
            f"({raw[exc.start : exc.start + 1]!r}); line skipped"
        )
    run.found()


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
        except UnicodeDecodeError:
            _not_utf8(run, name, number, raw)
            continue
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        yield _Line(name, number, text)
    if bar is not None and pending:
        bar.update(pending)


# ---- input in blocks, through the column kernels ------------------------------

# Bytes read at once: enough rows for every core, little enough for flat memory.
BLOCK = 1 << 19
_BOM = b"\xef\xbb\xbf"

# A block command turns a column of lines into output bytes.
BlockHandler = Callable[[Any], bytes]


def _block_handler(run: _Run) -> Optional[BlockHandler]:
    """The command as column kernels over blocks of lines, where its output is
    plain text (TSV) and the compiled kernels are built; else None."""
    if (
        run.command not in ("split", "normalize", "canonicalize", "resolve")
        or run.args.json
        or run.line_buffered
        or fasturi.IMPLEMENTATION != "compiled"
    ):
        return None
    kernels = fasturi._impl.arrow_kernels()
    threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    args = run.args
    if run.command == "normalize":
        based = not args.no_scheme_based
        return lambda col: kernels.join_lines(kernels.normalize(col, 0, threads, based))
    if run.command == "canonicalize":
        options = (not args.keep_query_order, not args.keep_fragment, tuple(args.drop_param or ()))
        return lambda col: kernels.join_lines(kernels.canonicalize(col, 0, threads, *options))
    if run.command == "resolve":
        try:
            args.base.encode("utf-8")
        except UnicodeEncodeError:  # bytes of argv that are not UTF-8: the line path
            return None
        strict, rfc = not args.non_strict, args.rfc
        return lambda col: kernels.join_lines(
            kernels.resolve_one(col, 0, threads, args.base, strict, rfc)
        )
    fields = tuple(_parse_fields(args.fields))
    return lambda col: kernels.join_tsv(kernels.split(col, 0, threads, fields), len(fields))


def _stream_blocks(run: _Run, handler: BlockHandler) -> None:
    """Whole lines, a block at a time, through ``handler``; the bad lines of
    each block reported with their numbers, as the line path does."""
    kernels = fasturi._impl.arrow_kernels()
    bar = _progress(run, run.args.files)
    try:
        for name, stream in _sources(run, run.args.files):
            number = 1  # of the block's first line
            carry = b""
            first = True
            while True:
                data = stream.read(BLOCK)
                if bar is not None and data:
                    bar.update(len(data))
                if data:
                    block = carry + data
                    cut = block.rfind(b"\n") + 1
                    if cut == 0:  # one line longer than a block: read on
                        carry = block
                        continue
                    carry = block[cut:]
                    block = block[:cut]
                else:
                    block, carry = carry, b""
                    if not block:
                        break
                bom = first and block.startswith(_BOM)
                if bom:
                    block = block[3:]
                first = False
                col, count, bad = kernels.lines(block)
                for index, start, end in bad:
                    raw = (_BOM if bom and index == 0 else b"") + block[start:end]
                    _not_utf8(run, name, number + index, raw)
                out = memoryview(handler(col))
                # in pipe-sized pieces, so a reader that leaves (`| head`) is
                # noticed as the line path notices it
                for at in range(0, len(out), 1 << 16):
                    run.out.write(out[at : at + (1 << 16)])
                number += count
    finally:
        if bar is not None:
            bar.close()


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


def _domain_handler(run: _Run) -> Handler:
    private = run.args.private
    find = fasturi.public_suffix if run.args.suffix else fasturi.registrable_domain
    key = "suffix" if run.args.suffix else "domain"

    def one(text: str) -> Optional[str]:
        return find(text, private=private)

    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        pairs = _apply(run, chunk, lambda texts: [one(t) for t in texts], one)
        if run.args.json:
            return [_json({"uri": line.text, key: result}) for line, result in pairs]
        return [_tsv(result) for _, result in pairs]

    return handle


def _surt_handler(run: _Run) -> Handler:
    surt = fasturi.surt
    return _mapping_handler("uri", "surt", lambda texts: [surt(t) for t in texts], surt)


def _fingerprint_handler(run: _Run) -> Handler:
    options: Dict[str, Any] = dict(
        sort_query=not run.args.keep_query_order,
        drop_fragment=not run.args.keep_fragment,
        drop_params=tuple(run.args.drop_param or ()),
        preset=run.args.preset,
    )
    try:
        fasturi.fingerprint("", **options)
    except ValueError as exc:
        raise _UsageError(str(exc)) from None

    def one(text: str) -> int:
        return fasturi.fingerprint(text, **options)

    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        pairs = _apply(run, chunk, lambda texts: [one(t) for t in texts], one)
        if run.args.json:
            return [_json({"uri": line.text, "fingerprint": value}) for line, value in pairs]
        return [str(value) for _, value in pairs]

    return handle


def _stream(run: _Run, handler: Handler) -> None:
    block_handler = _block_handler(run)
    if block_handler is not None:
        _stream_blocks(run, block_handler)
        return
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
    "domain": _domain_handler,
    "surt": _surt_handler,
    "fingerprint": _fingerprint_handler,
}
