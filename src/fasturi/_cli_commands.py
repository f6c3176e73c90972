"""The commands of the ``fasturi`` command line (all but ``bench``).

Input is read as bytes, so memory stays flat however long the stream; each
line is decoded as UTF-8 on its own.  Every line-oriented command writes one
record per input line, in order (docs/cli.md): a line that cannot be
processed (not UTF-8, or refused by the command) is reported on stderr with
its number, makes the exit status 1, and keeps its place with an error record
(``--on-error keep``), is left out (``skip``) or ends the run (``stop``).

Where the output is TSV and the compiled kernels are built, input goes
through the column kernels a block of lines at a time (``_stream_blocks``);
a block with a line a kernel cannot take goes through the per-line path,
which says what is wrong with it, so both paths write the same bytes.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import functools
import io
import json
import os
import queue
import stat
import sys
import threading
from itertools import repeat
from types import ModuleType
from typing import (
    IO,
    Any,
    Callable,
    Dict,
    Generator,
    Iterable,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
)

import fasturi

from . import _audit, _tsv
from ._cli_input import InputError, Source, open_source, read_error
from ._cli_parser import EXIT_ERROR, EXIT_FOUND, EXIT_OK

# Lines handed to one batch call: large enough to amortize the call, small
# enough that memory does not grow with the input.
CHUNK = 4096

FIELDS = ("scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment")


class _UsageError(Exception):
    """A bad option value found after parsing (exit status 2)."""


def _is_terminal(stream: Any) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):  # None (no console), or closed
        return False


class _Line:
    """An input line, where it came from (``before``: the lines of the inputs
    before its own), and why it cannot be read (not UTF-8: its text then
    holds the bad bytes as surrogateescape code points); ``facts``: what the
    kernels found of it for the command (audit's block path: the facts of
    its escapes), if anything."""

    __slots__ = ("source", "number", "text", "error", "facts", "before")

    def __init__(
        self,
        source: str,
        number: int,
        text: str,
        error: Optional[str] = None,
        facts: Optional[Any] = None,
        before: int = 0,
    ) -> None:
        self.source = source
        self.number = number
        self.text = text
        self.error = error
        self.facts = facts
        self.before = before

    def json_text(self) -> str:
        """The text for a JSON record (bytes that are not UTF-8 as U+FFFD)."""
        if self.error is None:
            return self.text
        return self.text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


class _WriteError(Exception):
    """The output could not be written (a full disk, a closed standard
    output); a reader that went away is BrokenPipeError instead."""

    def __init__(self, exc: OSError) -> None:
        super().__init__(exc.strerror or str(exc))


class _Run:
    """State shared by one command run: output, diagnostics, exit status.

    A message about a line is held (``pending``) until the output before and
    including that line's record is written and flushed (``commit``), so no
    message claims a record that a failed write lost."""

    def __init__(self, command: str, args: argparse.Namespace) -> None:
        self.command = command
        self.args = args
        # None: standard output is closed (">&-"), found at the first write
        self.out: Optional[IO[bytes]] = None if sys.stdout is None else sys.stdout.buffer
        self.status = EXIT_OK
        self.many_sources = len(args.files) > 1
        # extract has no record per line to keep: a bad line is skipped
        self.on_error: str = getattr(args, "on_error", "skip")
        self.quiet = bool(getattr(args, "quiet", False))
        self.max_errors: Optional[int] = getattr(args, "max_errors", None)
        self.stopped: Optional[_Line] = None  # the line the command stopped at
        self.bad = 0  # lines that could not be processed
        self.read = 0  # lines of the inputs read whole
        self.pending: List[str] = []
        self.bar: Any = None  # the progress bar, while one is drawn
        # Someone typing lines wants each answer at once, not a chunk later.
        self.line_buffered = bool(getattr(args, "line_buffered", False)) or (
            "-" in args.files and _is_terminal(sys.stdin)
        )

    def warn(self, message: str) -> None:
        if sys.stderr is None:  # (closed: there is nowhere to say it)
            return
        text = f"fasturi {self.command}: {message}"
        if self.bar is not None:  # cleared, written, drawn again
            type(self.bar).write(text, file=sys.stderr)
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def found(self) -> None:
        """Something the command reports was found (exit status 1)."""
        if self.status == EXIT_OK:
            self.status = EXIT_FOUND

    def fail(self) -> None:
        self.status = EXIT_ERROR

    def bad_line(self, line: _Line, why: str) -> bool:
        """A line that could not be processed: reported once the output is
        written, exit status 1; whether its error record is written
        (``--on-error keep``, and ``--max-errors`` not passed)."""
        self.bad += 1
        self.found()
        keep = self.on_error == "keep"
        if self.max_errors is not None and self.bad > self.max_errors:
            self.stopped = line
            keep = False
            then = f"stopped (--max-errors {self.max_errors})"
        else:
            if self.on_error == "stop":
                self.stopped = line
            then = {"keep": "error record written", "skip": "line skipped", "stop": "stopped"}[
                self.on_error
            ]
        if not self.quiet or self.stopped is line:
            self.pending.append(f"{line.source}:{line.number}: {why}; {then}")
        return keep

    def where(self, line: _Line) -> str:
        return f"{line.source}:{line.number}" if self.many_sources else str(line.number)

    def emit(self, data: Any) -> None:
        """Bytes of output (anything ``write`` takes)."""
        if self.out is None:
            raise _WriteError(OSError(errno.EBADF, "standard output is closed"))
        try:
            self.out.write(data)
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _WriteError(exc) from None

    def flush(self) -> None:
        if self.out is None:
            return
        try:
            self.out.flush()
        except BrokenPipeError:
            raise
        except OSError as exc:
            raise _WriteError(exc) from None

    def commit(self) -> None:
        """The messages about lines whose output is written, once it is."""
        if self.pending:
            self.flush()
            for message in self.pending:
                self.warn(message)
            self.pending.clear()

    def write(self, rows: List[str]) -> None:
        if rows:
            # surrogateescape: file names come from argv, which the
            # interpreter decodes that way; their bytes go back out unchanged.
            self.emit(("\n".join(rows) + "\n").encode("utf-8", "surrogateescape"))
            if self.line_buffered:
                self.flush()

    def summary(self) -> None:
        """The closing line, where a line could not be processed: how many
        of how many (those up to where the command stopped)."""
        if self.bad:
            total = self.read if self.stopped is None else self.stopped.before + self.stopped.number
            self.warn(f"{self.bad:,} of {total:,} lines could not be processed")


# A command turns a chunk of lines into output rows; it may call run.found().
Handler = Callable[[_Run, List[_Line]], List[str]]


# ---- input ---------------------------------------------------------------


def _source_size(path: str) -> Optional[int]:
    try:
        st = os.stat(path) if path != "-" else os.fstat(sys.stdin.fileno())
    except (OSError, ValueError):
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


def _progress(run: _Run, paths: Sequence[str]) -> Any:
    """A tqdm bar of bytes read, on stderr when it is a terminal, or None.
    Sizes and rates are in decimal units (MB, MB/s); the total is known
    when every input is a regular file (not a pipe)."""
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
        unit_divisor=1000,
        file=sys.stderr,
        delay=0.5,
        leave=False,
        desc=run.command,
    )


def _sources(run: _Run, paths: Sequence[str]) -> Iterator[Tuple[str, Source]]:
    """(name, source) of every input that opens, decompressed where it is
    compressed (``_cli_input``); the others reported (exit status 2)."""
    for path in paths:
        name = "<stdin>" if path == "-" else path
        if path == "-":
            if sys.stdin is None:
                run.warn("cannot read <stdin>: standard input is closed")
                run.fail()
                continue
            stream = sys.stdin.buffer
        else:
            try:
                stream = open(path, "rb")  # noqa: SIM115 - closed below
            except OSError as exc:
                run.warn(f"cannot read {path}: {exc.strerror or exc}")
                run.fail()
                continue
        try:
            try:
                source = open_source(stream)
            except (InputError, *_READ_ERRORS) as exc:
                run.warn(f"cannot read {name}: {exc}")
                run.fail()
                continue
            yield name, source
        finally:
            if path != "-":
                stream.close()


# What reading any input can raise: a device's error, and a compressed
# stream's that ends early (open_source says what else its format raises).
_READ_ERRORS = (OSError, EOFError)


def _unreadable(run: _Run, name: str, source: Source, exc: BaseException) -> None:
    """An input that could not be read to its end (its lines read before
    that are processed): reported, exit status 2."""
    run.warn(f"cannot read {name}: {read_error(source, exc)}; the lines before are processed")
    run.fail()


def _lines(run: _Run, paths: Sequence[str]) -> Iterator[_Line]:
    """The lines of every input, in order, the bar drawn as they are read."""
    run.bar = _progress(run, paths)
    try:
        for name, source in _sources(run, paths):
            number = 0
            try:
                for line in _decode(source, name, run.bar, 0, run.read):
                    number = line.number
                    yield line
            except source.errors as exc:
                _unreadable(run, name, source, exc)
            run.read += number
    finally:
        if run.bar is not None:
            run.bar.close()
            run.bar = None


def _decode(
    source: Source, name: str, bar: Any, number: int = 0, before: int = 0
) -> Iterator[_Line]:
    """The lines of ``source``, numbered from ``number + 1`` (``before``:
    the lines of the inputs before it); a line that is not UTF-8 comes with
    its error."""
    pending = 0
    consumed = source.consumed
    done = 0 if consumed is None else consumed()
    for raw in source.stream:
        number += 1
        if bar is not None:
            pending += len(raw)
            if pending >= 1 << 16:
                if consumed is not None:  # (the compressed bytes read)
                    pending, done = consumed() - done, consumed()
                bar.update(pending)
                pending = 0
        if raw.endswith(b"\n"):
            raw = raw[:-1]
            if raw.endswith(b"\r"):
                raw = raw[:-1]
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            bad = raw[exc.start : exc.start + 1]
            error = f"invalid UTF-8 at byte {exc.start} ({bad!r})"
            text = raw.decode("utf-8", "surrogateescape")
            yield _Line(name, number, text, error, None, before)
            continue
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        yield _Line(name, number, text, None, None, before)
    if bar is not None:
        if consumed is not None:
            pending = consumed() - done
        if pending:
            bar.update(pending)


# ---- input in blocks, through the column kernels ------------------------------

# Bytes read at once: enough rows for every core, little enough for flat memory.
BLOCK = 1 << 19
_BOM = b"\xef\xbb\xbf"

# A block command turns a column of lines into (out, redo, known): out the
# TSV bytes of a transforming command, one record a line, or None (validate,
# audit); redo the lines (from 0) the per-line handler must see: those a
# kernel refused, whose records in out it replaces, or the lines validate
# and audit report (the others have nothing to report); known None, or for
# each line of redo its text and what the kernels found of it (audit).
Known = Optional[List[Tuple[str, Any]]]
BlockHandler = Callable[[Any], Tuple[Optional[bytes], List[int], Known]]


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


class _Block(NamedTuple):
    """Whole lines read at once, and what the kernels made of them."""

    read: int  # bytes of the input read for it (compressed ones, if it is)
    block: bytes  # the lines as read
    text: bytes  # the lines the kernels read (the stream's BOM left out)
    number: int  # lines before it
    nlines: int  # lines in it
    bad: bool  # a line is not UTF-8: the per-line path must say which
    starts: Sequence[int]  # where each line begins in text
    out: Optional[bytes]  # the block handler's (out, redo, known), unless bad
    redo: List[int]
    known: Known
    error: Optional[BaseException]  # the input failed after these lines


def _pieces(source: Source) -> Generator[Tuple[bytes, int], None, None]:
    """The source's bytes in pieces (of at most BLOCK bytes, as they come: a
    decompressor's or a pipe's), each with the bytes of the input read for it."""
    stream = source.stream
    read = getattr(stream, "read1", stream.read)
    consumed = source.consumed
    done = 0
    while True:
        piece = read(BLOCK)
        if not piece:
            return
        if consumed is None:
            yield piece, len(piece)
        else:
            now = consumed()
            yield piece, now - done
            done = now


def _blocks(source: Source, kernels: ModuleType, block_handler: BlockHandler) -> Iterator[_Block]:
    """The blocks of ``source``, each through the column kernels: whole
    lines of about BLOCK bytes.  Where the input fails, the lines read
    before it come in a last block that carries the error."""
    pieces: Generator[Tuple[bytes, int], None, None] = _pieces(source)
    if source.compression is not None:
        # decompressed on a thread of its own, while the kernels run on
        # this one (zlib, bz2, lzma and zstd let go of the GIL as they work)
        pieces = _ahead(pieces)
    number = read = 0
    carry = b""
    try:
        while True:
            data, size = [carry], len(carry)
            # (a line longer than a block: read on until it ends)
            want = BLOCK if size < BLOCK else size + 1
            ended, error = False, None
            try:
                while size < want:
                    piece, n = next(pieces)
                    data.append(piece)
                    size += len(piece)
                    read += n
            except StopIteration:
                ended = True
            except source.errors as exc:
                error = exc
            block = b"".join(data)
            # the last line may end without a LF; where the input failed, a
            # line it cut short is left out
            cut = len(block) if ended else block.rfind(b"\n") + 1
            if cut == 0 and error is None and not ended:  # no whole line yet
                carry = block
                continue
            block, carry = block[:cut], block[cut:]
            if not block and error is None:
                return
            text = block[3:] if number == 0 and block.startswith(_BOM) else block
            if text:
                col, count, bad, starts = kernels.lines(text)
            else:  # (the input failed before a whole line)
                col, count, bad, starts = None, 0, False, [0]
            out, redo, known = (None, [], None) if bad or not count else block_handler(col)
            yield _Block(
                read, block, text, number, count, bool(bad), starts, out, redo, known, error
            )
            number += count
            read = 0
            if ended or error is not None:
                return
    finally:
        pieces.close()


T = TypeVar("T")


def _ahead(items: Iterator[T]) -> Generator[T, None, None]:
    """``items``, each made on a thread of its own while the one before is
    used: the kernels (which run without the GIL) of the next block overlap
    the Python of this one (audit's, validate's, a refused line's), and a
    decompressor the kernels.  An error on that thread is raised here;
    stopping early stops it."""
    made: "queue.Queue[Tuple[bool, Any]]" = queue.Queue(maxsize=1)
    stop = threading.Event()

    def make() -> None:
        try:
            for item in items:
                made.put((True, item))
                if stop.is_set():
                    return
            made.put((False, None))
        except BaseException as exc:  # noqa: BLE001 - raised on the reader's side
            made.put((False, exc))

    maker = threading.Thread(target=make, name="fasturi-blocks", daemon=True)
    maker.start()
    try:
        while True:
            more, item = made.get()
            if not more:
                if item is not None:
                    raise item
                return
            yield item
    finally:
        stop.set()
        while maker.is_alive():  # (a put waiting for room ends, and so does the thread)
            try:
                made.get(timeout=0.01)
            except queue.Empty:
                pass


def _stream_blocks(
    run: _Run, kernels: ModuleType, block_handler: BlockHandler, handler: Handler
) -> None:
    """Whole lines, a block at a time, through ``block_handler``; a block
    with a line that is not UTF-8 goes through the per-line ``handler``
    instead, which reports it as the line path does, and so does a line a
    kernel refuses (``_write_block``)."""
    run.bar = _progress(run, run.args.files)
    try:
        for name, source in _sources(run, run.args.files):
            if run.stopped:
                break
            before, lines = run.read, 0
            # (each block lives until the next one's replaces it: freed
            # sooner, the C library can hand its pages back and the next
            # block fault them in again: on 52 MB of normalize, 31.8k page
            # faults instead of 16.5k and 18% more CPU time, measured)
            with contextlib.closing(_ahead(_blocks(source, kernels, block_handler))) as blocks:
                for b in blocks:
                    if run.bar is not None and b.read:
                        run.bar.update(b.read)
                    if b.bad:  # lines that are not UTF-8: the line path says which
                        lines_ = _decode(_plain(io.BytesIO(b.block)), name, None, b.number, before)
                        _write_lines(run, handler, lines_)
                    else:
                        redo = (
                            [
                                _block_line(name, b.number, b.text, b.starts, i, before)
                                for i in b.redo
                            ]
                            if b.known is None
                            else [  # (the kernels read these lines already)
                                _Line(name, b.number + i + 1, text, None, facts, before)
                                for i, (text, facts) in zip(b.redo, b.known)
                            ]
                        )
                        _write_block(run, handler, redo, b.redo, b.out)
                    lines = b.number + b.nlines
                    run.commit()
                    if run.stopped:
                        break
                    if b.error is not None:
                        _unreadable(run, name, source, b.error)
            run.read += lines
    finally:
        if run.bar is not None:
            run.bar.close()
            run.bar = None


def _plain(stream: IO[bytes]) -> Source:
    """An uncompressed stream as a source."""
    return Source(stream, None, None, _READ_ERRORS)


def _block_line(
    name: str, number: int, block: bytes, starts: Sequence[int], i: int, before: int
) -> _Line:
    """Line ``i`` of ``block`` (whose first line is numbered ``number + 1``
    and whose lines begin at ``starts``), as the line path reads it."""
    text = block[starts[i] : starts[i + 1]]
    if text.endswith(b"\n"):
        text = text[:-1].removesuffix(b"\r")
    return _Line(name, number + i + 1, text.decode("utf-8"), None, None, before)


def _write_block(
    run: _Run, handler: Handler, lines: List[_Line], redo: List[int], out: Optional[bytes]
) -> None:
    """A block handler's (out, redo): the records of ``out`` written, each
    line of ``redo`` (``lines``) through the per-line ``handler`` instead,
    in its place."""
    if out is None:
        _write_lines(run, handler, lines)
        return
    if not lines:
        _write_bytes(run, out)
        return
    records = out.split(b"\n")  # (a record holds no raw "\n"; the last is "")
    done = 0
    for i, line in zip(redo, lines):
        if i > done:
            _write_bytes(run, b"\n".join(records[done:i]) + b"\n")
        run.write(handler(run, [line]))
        done = i + 1
        if run.stopped:
            return
    _write_bytes(run, b"\n".join(records[done:]))


def _write_bytes(run: _Run, out: bytes) -> None:
    # in pipe-sized pieces, so a reader that leaves (`| head`) is noticed as
    # the line path notices it
    view = memoryview(out)
    for at in range(0, len(view), 1 << 16):
        run.emit(view[at : at + (1 << 16)])


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


def _write_lines(run: _Run, handler: Handler, lines: Iterable[_Line]) -> None:
    for chunk in _chunks(run, lines):
        run.write(handler(run, chunk))
        run.commit()
        if run.stopped:
            return


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
