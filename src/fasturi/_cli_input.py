"""The command line's input streams: a file or standard input, as bytes,
decompressed as it is read when it is gzip, bzip2, xz or Zstandard data.

A stream is recognised by its first bytes (its magic number), not by its
name, so that a rotated log piped in (``cat access.log.1.gz | fasturi ...``)
is read as one named ``.gz``; anything else is read as it is.  Concatenated
streams or members (``cat a.gz b.gz``) are read one after another, as zcat
does.  Zstandard comes from the standard library's ``compression.zstd``
(Python 3.14 on) or the ``zstandard`` package (``pip install
'fasturi[zstd]'``).
"""

from __future__ import annotations

import io
from typing import IO, Any, Callable, NamedTuple, Optional, Tuple, Type

# (format, its magic number); the longest is 6 bytes
MAGIC = (
    ("gzip", b"\x1f\x8b"),
    ("bzip2", b"BZh"),
    ("xz", b"\xfd7zXZ\x00"),
    ("zstd", b"\x28\xb5\x2f\xfd"),
)
_LONGEST = max(len(magic) for _, magic in MAGIC)


class InputError(Exception):
    """A stream that cannot be read on: its data ends early or is not what
    its magic number says (the message says which, in a few words)."""


class Source(NamedTuple):
    """An input opened for reading: ``stream`` gives its bytes (decompressed);
    for a compressed one, ``consumed()`` says how many bytes of the input
    itself were read so far (the progress bar's), ``compression`` its format;
    ``errors``: what reading it raises where the input is bad."""

    stream: IO[bytes]
    consumed: Optional[Callable[[], int]]
    compression: Optional[str]
    errors: Tuple[Type[BaseException], ...]


class _Counted:
    """A binary stream's ``read`` that counts what it returns: what a
    decompressor reads of its input."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.count = 0

    def read(self, size: int = -1) -> bytes:
        data = self.stream.read(size)
        self.count += len(data)
        return data

    def readable(self) -> bool:
        return True


class _Prefixed(io.RawIOBase):
    """``head`` (bytes already read), then the rest of ``stream``."""

    def __init__(self, head: bytes, stream: IO[bytes]) -> None:
        self.head = head
        self.stream = stream

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self.head:
            n = min(len(buffer), len(self.head))
            buffer[:n] = self.head[:n]
            self.head = self.head[n:]
            return n
        data = self.stream.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)


def _head(stream: IO[bytes]) -> Tuple[bytes, IO[bytes]]:
    """The stream's first bytes, enough to tell a magic number (fewer at its
    end), and a stream that still gives them: peeked where the stream can
    (files and pipes, the common case: nothing is wrapped), else read."""
    peek = getattr(stream, "peek", None)
    if peek is not None:
        head = peek(_LONGEST)[:_LONGEST]
        # (b"": the end; else unless a magic number could begin with it and go on)
        if not head or not any(len(head) < len(m) and m.startswith(head) for _, m in MAGIC):
            return head, stream
    # a pipe that gave fewer bytes yet, where they could begin a magic
    # number (or a stream that cannot peek)
    data = b""
    while len(data) < _LONGEST:
        more = stream.read(_LONGEST - len(data))
        if not more:
            break
        data += more
    return data, io.BufferedReader(_Prefixed(data, stream), 1 << 16)


class _ZstdReader(io.RawIOBase):
    """Zstandard frames decompressed by the ``zstandard`` package, one after
    another; EOFError where the data ends inside a frame (its stream reader
    would end there quietly)."""

    def __init__(self, stream: Any, zstandard: Any) -> None:
        self.stream = stream
        self.context = zstandard.ZstdDecompressor()
        self.frame = self.context.decompressobj()
        self.started = False  # the frame has data
        self.out = memoryview(b"")  # what was decompressed and not read yet

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self.out:
            data = self.stream.read(1 << 17)
            if not data:
                if self.started and not self.frame.eof:
                    raise EOFError("Zstandard data ends inside a frame")
                return 0
            self.started = True
            out = [self.frame.decompress(data)]
            while self.frame.eof and self.frame.unused_data:  # the next frame
                rest = self.frame.unused_data
                self.frame = self.context.decompressobj()
                out.append(self.frame.decompress(rest))
            self.out = memoryview(b"".join(out))
        n = min(len(buffer), len(self.out))
        buffer[:n] = self.out[:n]
        self.out = self.out[n:]  # (a view: the rest is not copied)
        return n


def _zstd_reader(stream: Any) -> Tuple[IO[bytes], Tuple[Type[BaseException], ...]]:
    try:
        from compression import zstd  # type: ignore[import-not-found,unused-ignore]
    except ImportError:  # before Python 3.14
        pass
    else:
        return zstd.ZstdFile(stream), (zstd.ZstdError,)
    try:
        import zstandard  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise InputError(
            "Zstandard data needs Python 3.14 or the zstandard package"
            " (pip install 'fasturi[zstd]')"
        ) from None
    return io.BufferedReader(_ZstdReader(stream, zstandard), 1 << 17), (zstandard.ZstdError,)


def open_source(stream: IO[bytes]) -> Source:
    """``stream`` to be read: as it is, or through the decompressor its first
    bytes call for (InputError where that needs a package not installed)."""
    head, stream = _head(stream)
    compression = next((name for name, magic in MAGIC if head.startswith(magic)), None)
    if compression is None:
        return Source(stream, None, None, (OSError,))
    counted: Any = _Counted(stream)  # (a readable file object)
    errors: Tuple[Type[BaseException], ...]
    if compression == "gzip":
        import gzip
        import zlib

        decompressed: Any = gzip.GzipFile(fileobj=counted, mode="rb")
        errors = (zlib.error,)
    elif compression == "bzip2":
        import bz2

        decompressed = bz2.BZ2File(counted)
        errors = ()
    elif compression == "xz":
        import lzma

        decompressed = lzma.LZMAFile(counted)
        errors = (lzma.LZMAError,)
    else:
        decompressed, errors = _zstd_reader(counted)
    # a decompressor's OSError and EOFError: data that is not its format, or
    # ends early
    return Source(decompressed, lambda: counted.count, compression, (OSError, EOFError, *errors))


def read_error(source: Source, exc: BaseException) -> str:
    """What to say of ``exc``, raised reading ``source``."""
    what = f"{source.compression} data " if source.compression else ""
    if isinstance(exc, EOFError):
        return f"{what}ends early (truncated)"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return f"{what}is corrupt ({exc})" if what else str(exc)
