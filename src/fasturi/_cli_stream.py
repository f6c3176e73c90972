"""How the command line streams: a run's state (``_Run``: output,
messages, exit status), its inputs as lines (``_lines``) or as blocks of
whole lines through the column kernels (``_stream_blocks``), and its output.

Input is read as bytes, so memory stays flat however long the stream; each
line is decoded as UTF-8 on its own (``_cli_input`` decompresses).  A line
that cannot be processed is reported by ``_Run.bad_line``, once its record
(if it keeps one) is written; a write that fails is ``_WriteError``.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import io
import os
import queue
import stat
import sys
import threading
from types import ModuleType
from typing import (
    IO,
    Any,
    Callable,
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

from ._cli_input import InputError, Source, open_source, read_error
from ._cli_parser import EXIT_ERROR, EXIT_FOUND, EXIT_OK

# Lines handed to one batch call: large enough to amortize the call, small
# enough that memory does not grow with the input.
CHUNK = 4096


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
    # the bar counts the input's bytes: the text's, or a compressed input's
    consumed = source.consumed
    pending = 0  # text read since the bar was last moved
    done = 0 if consumed is None else consumed()  # compressed bytes the bar has
    for raw in source.stream:
        number += 1
        if bar is not None:
            pending += len(raw)
            if pending >= 1 << 16:
                if consumed is not None:
                    now = consumed()
                    pending, done = now - done, now
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
    """The source's bytes in pieces of BLOCK bytes (the last one shorter),
    each with the bytes of the input read for it.  A decompressor gives a
    few dozen kB a read: they are gathered here, on the thread that reads
    (``_blocks``), so that a piece crosses to the kernels' thread once a
    block.  Where the input fails, the bytes read before come first."""
    stream = source.stream
    read = getattr(stream, "read1", stream.read)
    consumed = source.consumed
    done = 0

    def piece(parts: List[bytes], size: int) -> Tuple[bytes, int]:
        nonlocal done
        if consumed is None:
            return b"".join(parts), size
        now = consumed()
        read_for_it, done = now - done, now
        return b"".join(parts), read_for_it

    while True:
        parts: List[bytes] = []
        size = 0
        try:
            while size < BLOCK:
                data = read(BLOCK - size)
                if not data:
                    break
                parts.append(data)
                size += len(data)
        except source.errors:
            if parts:
                yield piece(parts, size)
            raise
        if not parts:
            return
        yield piece(parts, size)
        if size < BLOCK:  # (the end)
            return


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
