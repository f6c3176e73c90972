"""Compressed input (docs/cli.md): gzip, bzip2, xz and Zstandard data, from
a file or standard input, is known by its first bytes and read decompressed,
through both paths, with the same records as the text itself; data that
ends early or is corrupt is reported after the lines before it."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys

import pytest
from cli_runs import run_cli

from fasturi import _cli_input, _cli_stream


def _zstd(data: bytes) -> bytes:
    try:
        from compression import zstd  # Python 3.14 on

        return zstd.compress(data)
    except ImportError:
        import zstandard

        return zstandard.ZstdCompressor().compress(data)


COMPRESS = {
    "gzip": gzip.compress,
    "bzip2": bz2.compress,
    "xz": lzma.compress,
    "zstd": _zstd,
}
PATHS = ["lines", "blocks"]

TEXT = b"".join(b"HTTP://Example.COM/%d/./a/../b\n" % i for i in range(3000)) + b"http://x/\xff\n"
WANT = "".join(f"http://example.com/{i}/b\n" for i in range(3000)) + "\\E\n"


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("kind", COMPRESS)
def test_compressed_stdin_and_files(monkeypatch, capfd, tmp_path, kind, path):
    packed = COMPRESS[kind](TEXT)
    status, out, err = run_cli(monkeypatch, capfd, ["normalize", "-q"], packed, path == "lines")
    assert (status, out) == (1, WANT)
    assert err == "fasturi normalize: 1 of 3,001 lines could not be processed\n"
    f = tmp_path / "urls"  # (no extension: known by its first bytes)
    f.write_bytes(packed)
    status, out, err = run_cli(monkeypatch, capfd, ["normalize", str(f)], b"", path == "lines")
    assert (status, out) == (1, WANT) and f"{f}:3001: invalid UTF-8" in err


@pytest.mark.parametrize("path", PATHS)
def test_concatenated_members_and_named_text(monkeypatch, capfd, tmp_path, path):
    # rotated logs joined (`cat a.gz b.gz`) read as zcat reads them; a file
    # named .gz that is text is text
    joined = gzip.compress(TEXT[:100]) + gzip.compress(TEXT[100:])
    status, out, err = run_cli(monkeypatch, capfd, ["normalize", "-q"], joined, path == "lines")
    assert out == WANT
    f = tmp_path / "plain.gz"
    f.write_bytes(TEXT)
    status, out, err = run_cli(
        monkeypatch, capfd, ["normalize", "-q", str(f)], b"", path == "lines"
    )
    assert out == WANT


@pytest.mark.parametrize("path", PATHS)
def test_many_blocks_of_compressed_input(monkeypatch, capfd, path):
    lines = [b"http://a/%d/%s" % (i, b"x" * (i % 300)) for i in range(40_000)]
    lines[12345] = b"http://a/" + b"y" * (3 * _cli_stream.BLOCK)  # longer than a block
    text = b"\n".join(lines) + b"\n"
    argv = ["canonicalize", "--no-progress"]
    plain = run_cli(monkeypatch, capfd, argv, text, path == "lines")
    packed = run_cli(monkeypatch, capfd, argv, gzip.compress(text, 1), path == "lines")
    assert plain == packed and plain[0] == 0 and plain[1].count("\n") == len(lines)


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("kind", COMPRESS)
def test_truncated_data_after_the_lines_before_it(monkeypatch, capfd, kind, path):
    text = b"".join(b"http://a/%d\n" % i for i in range(100_000))
    packed = COMPRESS[kind](text)
    status, out, err = run_cli(
        monkeypatch,
        capfd,
        ["normalize", "--no-progress"],
        packed[: len(packed) * 2 // 3],
        path == "lines",
    )
    assert status == 2
    assert (
        err
        == f"fasturi normalize: cannot read <stdin>: {kind} data ends early (truncated); the lines before are processed\n"
    )
    got = out.splitlines()
    # whole lines, in order, none of them cut short (bzip2 gives a block of
    # 900 kB at once: none of it, where it is cut)
    assert got == [f"http://a/{i}" for i in range(len(got))]
    assert got or kind == "bzip2"


@pytest.mark.parametrize("path", PATHS)
def test_corrupt_data(monkeypatch, capfd, path):
    packed = bytearray(gzip.compress(TEXT))
    packed[len(packed) // 2] ^= 0xFF
    status, out, err = run_cli(
        monkeypatch, capfd, ["normalize", "-q"], bytes(packed), path == "lines"
    )
    assert status == 2 and "fasturi normalize: cannot read <stdin>: " in err
    # (what came before the checksum said so may be any bytes: gzip checks
    # it at the end of the member)
    assert "cannot read <stdin>: gzip data is corrupt (CRC check failed" in err
    assert err.count("\n") <= 2 and "Traceback" not in err


def test_a_stream_that_gives_a_byte_at_a_time():
    # a pipe may give the first bytes one by one: the magic number is still read
    class Slow(io.RawIOBase):
        def __init__(self, data):
            self.data = data

        def readable(self):
            return True

        def readinto(self, buffer):
            if not self.data:
                return 0
            buffer[0], self.data = self.data[0], self.data[1:]
            return 1

    for kind, compress in COMPRESS.items():
        source = _cli_input.open_source(io.BufferedReader(Slow(compress(TEXT)), 1))
        assert source.compression == kind and source.stream.read() == TEXT
    for text in (b"", b"\x1f", b"BZ", b"h"):
        source = _cli_input.open_source(io.BufferedReader(Slow(text), 1))
        assert source.compression is None and source.stream.read() == text
    source = _cli_input.open_source(io.BytesIO(gzip.compress(b"a\n")))  # (cannot peek)
    assert source.stream.read() == b"a\n"


def test_the_bar_counts_the_compressed_bytes():
    # both paths: the bar's total is the file's size
    packed = gzip.compress(TEXT * 40)
    source = _cli_input.open_source(io.BufferedReader(io.BytesIO(packed)))
    pieces = list(_cli_stream._pieces(source))
    assert b"".join(p for p, _ in pieces) == TEXT * 40
    assert sum(n for _, n in pieces) == len(packed)

    class Bar:
        count = 0

        def update(self, n):
            self.count += n

    bar = Bar()
    source = _cli_input.open_source(io.BufferedReader(io.BytesIO(packed)))
    lines = list(_cli_stream._decode(source, "x.gz", bar))
    assert len(lines) == 3001 * 40 and bar.count == len(packed)


def test_zstd_without_its_package(monkeypatch, capfd):
    packed = _zstd(TEXT)
    monkeypatch.setitem(sys.modules, "compression", None)
    monkeypatch.setitem(sys.modules, "zstandard", None)
    status, out, err = run_cli(monkeypatch, capfd, ["normalize"], packed, False)
    assert (status, out) == (2, "")
    assert err == (
        "fasturi normalize: cannot read <stdin>: Zstandard data needs Python 3.14 or the"
        " zstandard package (pip install 'fasturi[zstd]')\n"
    )
