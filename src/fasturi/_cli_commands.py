"""The commands of the ``fasturi`` command line (all but ``bench``): a
handler per command, over the lines ``_cli_stream`` reads.

Every line-oriented command writes one record per input line, in order
(docs/cli.md): a line that cannot be processed (not UTF-8, or refused by the
command) is reported on stderr with its number, makes the exit status 1, and
keeps its place with an error record (``--on-error keep``), is left out
(``skip``) or ends the run (``stop``).

Where the output is TSV and the compiled kernels are built, input goes
through the column kernels a block of lines at a time (``_block_handler``,
run by ``_cli_stream._stream_blocks``); a block with a line a kernel cannot
take goes through the per-line path, which says what is wrong with it, so
both paths write the same bytes.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
from itertools import repeat
from types import ModuleType
from typing import Any, Callable, Dict, Iterable, Iterator, List, NamedTuple, Optional, Tuple

import fasturi

from . import _audit, _tsv
from ._cli_stream import (
    BlockHandler,
    Handler,
    Known,
    _Line,
    _lines,
    _Run,
    _stream_blocks,
    _write_lines,
)

FIELDS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


class _UsageError(Exception):
    """A bad option value found after parsing (exit status 2)."""


# ---- the block path's commands ------------------------------------------------


def _kernels() -> Optional[ModuleType]:
    """The column kernels of the block path: the compiled ones, or None (the
    reference kernels loop the scalar functions: the line path is as fast)."""
    return fasturi._impl.arrow_kernels() if fasturi.IMPLEMENTATION == "compiled" else None


def _block_handler(run: _Run) -> Optional[BlockHandler]:
    """The command as column kernels over blocks of lines, where its output is
    TSV and there are kernels to run; else None."""
    kernels = _kernels()
    if kernels is None or run.args.json or run.line_buffered or run.command == "extract":
        return None
    threads = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1
    args = run.args
    join = kernels.join_lines

    def records(kernel: Callable[..., Any], *options: Any) -> BlockHandler:
        return lambda col: (join(kernel(col, 0, threads, *options)), [], None)

    def refusing(kernel: Callable[..., Any], *options: Any) -> BlockHandler:
        # a refused row comes out null, named in `refused`
        def handle(col: Any) -> Tuple[Optional[bytes], List[int], Known]:
            refused: Dict[int, ValueError] = {}
            return join(kernel(col, 0, threads, *options, refused)), sorted(refused), None

        return handle

    if run.command == "split":
        fields = tuple(_parse_fields(args.fields))
        return lambda col: (
            kernels.join_tsv(kernels.split(col, 0, threads, fields), len(fields)),
            [],
            None,
        )
    if run.command == "normalize":
        return records(kernels.normalize, not args.no_scheme_based)
    if run.command == "canonicalize":
        return records(kernels.canonicalize, *_key_options(args).values())
    if run.command == "resolve":
        try:
            args.base.encode("utf-8")
        except UnicodeEncodeError:  # bytes of argv that are not UTF-8: the line path
            return None
        return records(kernels.resolve_one, args.base, not args.non_strict, args.rfc)
    if run.command == "domain":
        find = kernels.public_suffix if args.suffix else kernels.registrable_domain
        return records(find, args.private)
    if run.command == "surt":
        return refusing(kernels.surt)
    if run.command == "fingerprint":
        return refusing(kernels.fingerprint, *_key_options(args).values(), args.preset)
    if run.command == "validate":
        return lambda col: (
            None,
            kernels.valid_rows(kernels.error_position(col, 0, threads, args.rule, args.rfc)),
            None,
        )

    # audit: the lines it could find something in, with their text and the
    # facts of their escapes where those are all it needs (csrc/fasturi_cli.h)
    def suspects(col: Any) -> Tuple[Optional[bytes], List[int], Known]:
        known: List[Tuple[str, Any]] = []
        return None, kernels.audit_suspects(col, 0, threads, known), known

    return suspects


# ---- output --------------------------------------------------------------


# Characters JSON leaves raw that some readers take for line ends.
_LINE_ENDS = str.maketrans({"\x85": "\\u0085", "\u2028": "\\u2028", "\u2029": "\\u2029"})


def _json(obj: object) -> str:
    """One JSON record: UTF-8, on one line for every reader of lines."""
    return json.dumps(obj, ensure_ascii=False).translate(_LINE_ENDS)


# ---- commands ------------------------------------------------------------


def _apply(
    chunk: List[_Line],
    one: Callable[[str], Any],
    many: Optional[Callable[[List[str]], List[Any]]] = None,
) -> List[Tuple[_Line, Any, Optional[str]]]:
    """``(line, result, why)`` for each line of the chunk: ``why`` is None,
    or why the line gave no result (not UTF-8, or ``one`` raised).

    ``many`` (or ``one`` in a loop) runs over the chunk's texts at once; if
    it raises, each line is run alone, so one surprising line never ends
    the stream.
    """
    texts = [line.text for line in chunk if line.error is None]
    results: Optional[Iterator[Any]] = None
    try:
        values = many(texts) if many is not None else [one(t) for t in texts]
    except Exception:  # noqa: BLE001 - isolated below, line by line
        pass
    else:
        if len(texts) == len(chunk):  # (nearly always)
            return list(zip(chunk, values, repeat(None)))
        results = iter(values)
    out: List[Tuple[_Line, Any, Optional[str]]] = []
    for line in chunk:
        if line.error is not None:
            out.append((line, None, line.error))
        elif results is not None:
            out.append((line, next(results), None))
        else:
            try:
                out.append((line, one(line.text), None))
            except Exception as exc:  # noqa: BLE001 - reported, stream goes on
                out.append((line, None, f"{type(exc).__name__}: {exc}"))
    return out


class _Transform(NamedTuple):
    """A command that writes one record per line: ``one`` the scalar call,
    ``many`` its batch form (optional); ``key`` names the input in JSON,
    ``record`` a result's fields; ``tsv`` writes a result as a TSV row of
    ``width`` fields."""

    key: str
    one: Callable[[str], Any]
    record: Callable[[Any], Dict[str, Any]]
    tsv: Callable[[Any], str] = _tsv.escape
    many: Optional[Callable[[List[str]], List[Any]]] = None
    width: int = 1


def _transform(op: _Transform) -> Handler:
    error_row = "\t".join([_tsv.ERROR] * op.width)

    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        rows = []
        for line, value, why in _apply(chunk, op.one, op.many):
            if why is None:
                if run.args.json:
                    rows.append(_json({op.key: line.text, **op.record(value)}))
                else:
                    rows.append(op.tsv(value))
            elif run.bad_line(line, why):
                rows.append(
                    _json({op.key: line.json_text(), "error": why}) if run.args.json else error_row
                )
            elif run.stopped:
                break
        return rows

    return handle


def _split_handler(run: _Run) -> Handler:
    fields = _parse_fields(run.args.fields)
    need_authority = any(f in ("userinfo", "host", "port") for f in fields)
    split_authority = fasturi._impl.core.split_authority

    def row(parts: Optional[fasturi.Split]) -> List[Optional[str]]:
        assert parts is not None  # split_many(errors="raise") gives no None
        values: Dict[str, Optional[str]] = parts._asdict()
        if need_authority:
            if parts.authority is None:
                values.update(userinfo=None, host=None, port=None)
            else:
                userinfo, host, port = split_authority(parts.authority)
                values.update(userinfo=userinfo, host=host, port=port)
        return [values[f] for f in fields]

    if run.args.header and not run.args.json:
        run.write(["\t".join(fields)])
    return _transform(
        _Transform(
            "uri",
            lambda text: row(fasturi.split(text)),
            lambda values: dict(zip(fields, values)),
            lambda values: "\t".join(_tsv.escape(v) for v in values),
            lambda texts: [row(parts) for parts in fasturi.split_many(texts)],
            len(fields),
        )
    )


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


def _mapping(
    key: str, name: str, one: Callable[[str], Any], many: Optional[Callable[[List[str]], List[Any]]]
) -> Handler:
    return _transform(_Transform(key, one, lambda value: {name: value}, many=many))


def _normalize_handler(run: _Run) -> Handler:
    based = not run.args.no_scheme_based
    return _mapping(
        "uri",
        "normalized",
        lambda text: fasturi.normalize(text, scheme_based=based),
        lambda texts: fasturi.normalize_many(texts, scheme_based=based),
    )


def _key_options(args: argparse.Namespace) -> Dict[str, Any]:
    """canonicalize's and fingerprint's options, as keyword arguments (in
    the column kernels' order)."""
    return dict(
        sort_query=not args.keep_query_order,
        drop_fragment=not args.keep_fragment,
        drop_params=tuple(args.drop_param or ()),
    )


def _canonicalize_handler(run: _Run) -> Handler:
    options = _key_options(run.args)
    return _mapping(
        "uri",
        "canonical",
        lambda text: fasturi.canonicalize(text, **options),
        lambda texts: fasturi.canonicalize_many(texts, **options),
    )


def _resolve_handler(run: _Run) -> Handler:
    base: str = run.args.base
    options: Dict[str, Any] = dict(strict=not run.args.non_strict, rfc=run.args.rfc)
    try:
        fasturi.resolve(base, "", **options)
    except ValueError as exc:
        raise _UsageError(f"BASE {base!r}: {exc}") from None
    return _mapping(
        "ref",
        "resolved",
        lambda text: fasturi.resolve(base, text, **options),
        lambda texts: fasturi.resolve_many(base, texts, **options),
    )


def _report(
    run: _Run, found: Callable[[_Line, Any], List[str]], check: Callable[[str], Any]
) -> Handler:
    """validate and audit: rows for each line ``check`` finds something in
    (``found`` writes them); a line that cannot be checked gets a row of its
    own, with "\\E" where the finding's fields would be."""

    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        rows: List[str] = []
        for line, result, why in _apply(chunk, check):
            if why is None:
                if result:
                    run.found()
                    rows.extend(found(line, result))
            elif run.bad_line(line, why):
                if run.args.json:
                    rows.append(
                        _json(
                            {
                                "file": line.source,
                                "line": line.number,
                                "uri": line.json_text(),
                                "error": why,
                            }
                        )
                    )
                else:
                    row = (run.where(line), _tsv.ERROR, _tsv.ERROR, _tsv.escape(why))
                    rows.append("\t".join((*row, _tsv.escape(line.text))))
            elif run.stopped:
                break
        return rows

    return handle


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

    def found(line: _Line, error: fasturi.InvalidURI) -> List[str]:
        if run.args.json:
            return [
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
            ]
        row = (run.where(line), str(error.position), error.rule, _tsv.escape(line.text))
        return ["\t".join(row)]

    return _report(run, found, check)


def _audit_handler(run: _Run) -> Handler:
    kernels = _kernels()
    escapes = None if kernels is None else kernels.audit_escapes

    def audit(text: str, facts: Optional[Any] = None) -> List[fasturi.Finding]:
        # most lines with findings are valid, and need only their escapes
        # found: the kernels find them (on the block path as they check the
        # lines), and only the messages are written here
        if facts is None and escapes is not None:
            facts = escapes(text)
        return fasturi.audit(text) if facts is None else _audit._escape_findings(text, facts)

    if run.args.json:

        def found_json(line: _Line, findings: List[fasturi.Finding]) -> List[str]:
            record = {"file": line.source, "line": line.number, "uri": line.text}
            return [_json({**record, "findings": [f._asdict() for f in findings]})]

        return _report(run, found_json, audit)

    def tails(text: str, facts: Optional[Any] = None) -> List[str]:
        """The TSV rows of a line's findings, each but its first field."""
        findings = audit(text, facts)
        if not findings:
            return []
        # a valid reference (no "invalid" finding, which comes first) has
        # nothing to escape
        text = text if findings[0].code != "invalid" else _tsv.escape(text)
        return ["\t".join((f.code, f.section, _tsv.escape(f.message), text)) for f in findings]

    # Streams repeat their URLs (logs, crawls): a line seen lately is not
    # audited again.  Few and short lines, so that the cache stays small (at
    # most 8 rows of 2 KiB a line) and holds what repeats near by, not a
    # whole file's lines (which a benchmark that repeats a file would find).
    recent = functools.lru_cache(maxsize=1 << 10)(tails)

    def check(text: str, facts: Optional[Any] = None) -> List[str]:
        # (a line's facts are those of its text: the same rows either way)
        return recent(text, facts) if len(text) <= 1 << 11 else tails(text, facts)

    def found(line: _Line, rows: List[str]) -> List[str]:
        where = run.where(line)
        return [f"{where}\t{row}" for row in rows]

    report = _report(run, found, check)

    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        # A chunk of lines that are all read and checked without an error
        # (all but never) in one loop; else through _report, which says
        # what went wrong where.
        rows: List[str] = []
        try:
            for line in chunk:
                if line.error is not None:
                    return report(run, chunk)
                tails = check(line.text, line.facts)
                if tails:
                    rows.extend(found(line, tails))
        except Exception:  # noqa: BLE001 - _report reports it
            return report(run, chunk)
        if rows:
            run.found()
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
        if first is None and "<" not in line.text:  # (nearly every line)
            yield line
            continue
        if line.error is not None:  # reported on its own, where it stands
            if first is not None:
                yield _Line(first.source, first.number, "\n".join(parts), None, None, first.before)
                parts, first, size, still_open = [], None, 0, False
            yield line
            continue
        if first is None:
            first = line
        parts.append(line.text)
        size += len(line.text) + 1
        lt, gt = line.text.rfind("<"), line.text.rfind(">")
        if lt != gt:  # the line has a "<" or a ">": the later one decides
            still_open = lt > gt
        if not still_open or size >= limit:
            yield (
                first
                if len(parts) == 1
                else _Line(first.source, first.number, "\n".join(parts), None, None, first.before)
            )
            parts, first, size, still_open = [], None, 0, False
    if first is not None:
        yield _Line(first.source, first.number, "\n".join(parts), None, None, first.before)


def _extract_handler(run: _Run) -> Handler:
    abbreviated = run.args.abbreviated

    def find(text: str) -> List[str]:
        return fasturi.extract(text, abbreviated=abbreviated)

    def handle(run: _Run, chunk: List[_Line]) -> List[str]:
        rows: List[str] = []
        json = run.args.json
        for line, uris, why in _apply(chunk, find):
            if why is not None:
                run.bad_line(line, why)
            elif json:
                rows.extend(
                    _json({"file": line.source, "line": line.number, "uri": u}) for u in uris
                )
            else:
                # written as they are: a URI's characters are none that TSV
                # escapes (controls, "\\", U+2028 and U+2029 end it; docs/cli.md)
                rows.extend(uris)
        return rows

    return handle


def _domain_handler(run: _Run) -> Handler:
    private = run.args.private
    find = fasturi.public_suffix if run.args.suffix else fasturi.registrable_domain
    key = "suffix" if run.args.suffix else "domain"
    return _mapping("uri", key, lambda text: find(text, private=private), None)


def _surt_handler(run: _Run) -> Handler:
    return _mapping("uri", "surt", fasturi.surt, None)


def _fingerprint_handler(run: _Run) -> Handler:
    options = dict(_key_options(run.args), preset=run.args.preset)
    try:
        fasturi.fingerprint("", **options)
    except ValueError as exc:
        raise _UsageError(str(exc)) from None
    one = lambda text: fasturi.fingerprint(text, **options)  # noqa: E731
    return _transform(_Transform("uri", one, lambda value: {"fingerprint": value}, tsv=str))


def _stream(run: _Run, handler: Handler) -> None:
    block_handler = _block_handler(run)
    if block_handler is not None:
        _stream_blocks(run, _kernels(), block_handler, handler)  # type: ignore[arg-type]
        return
    lines: Iterable[_Line] = _lines(run, run.args.files)
    if run.command == "extract":
        lines = _extract_lines(lines)
    _write_lines(run, handler, lines)


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
