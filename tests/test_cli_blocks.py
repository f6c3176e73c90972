"""The line-oriented commands push blocks of lines through the column kernels
where their output is TSV: the bytes out, the warnings and the exit status
are those of the per-line path, whatever the lines hold.  Both
implementations: the reference kernels (pyarrow) stand in for the compiled
ones, which only the compiled run has."""

from __future__ import annotations

import io
import sys

import pytest
from cli_runs import run_cli

import fasturi
from fasturi import _cli, _cli_commands, _cli_stream

LINES = [
    b"HTTP://Example.COM:80/a/./b/../%7euser?b=2&a=1&utm_x=1#frag",
    b"",
    b"http://a/b\tc\\d",
    b"caf\xc3\xa9://h\xc3\xa9/p?q=\xe2\x82\xac",
    b"bad \xff utf-8",
    b"http://[fe80::1%25Eth0]:443/",
    b"x\x00y\x01\x1f\x7f",
    b"../g;x?y#s",
    b"\xed\xa0\x80 surrogate",
    b"mailto:Joe@Example.COM",
    b"http://a:99999/",
    b"http://www.bbc.co.uk/\xc2\x85\xe2\x80\xa8x",
    b"http://0x7f.1/%2e%2e/",
    b"\\E",
]
# no line any command refuses: every block runs on the kernels themselves
CLEAN = [line for line in LINES if b"\xff" not in line and b"\xed" not in line]
CLEAN.remove(b"http://a:99999/")
COMMANDS = [
    ["normalize"],
    ["normalize", "--no-scheme-based"],
    ["canonicalize", "--drop-param", "utm_*", "--keep-fragment"],
    ["resolve", "http://a/b/c/d;p?q"],
    ["resolve", "--non-strict", "--rfc", "2396", "http://a/b/c/d;p?q"],
    ["split", "--fields", "scheme,userinfo,host,port,path,query,fragment"],
    ["split", "--header"],
    ["domain"],
    ["domain", "--suffix", "--private"],
    ["surt"],
    ["fingerprint"],
    ["fingerprint", "--preset", "w3lib"],
    ["validate"],
    ["validate", "--rule", "absolute-URI"],
    ["audit"],
]


def _inputs(lines):
    body = b"\n".join(lines)
    yield "lf", body + b"\n"
    yield "crlf, bom, no final newline", b"\xef\xbb\xbf" + b"\r\n".join(lines) + b"\r"
    yield "bom on a bad first line", b"\xef\xbb\xbf\xff\nhttp://a/\n"
    # lines across block boundaries, and one longer than a block
    long = b"http://a/" + b"p/" * (_cli_stream.BLOCK // 2) + b"?q"
    yield "blocks", (body + b"\n") * 1000 + long + b"\n" + body


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_blocks_give_what_lines_give(monkeypatch, capfd, argv):
    for name, data in _inputs(LINES):
        want = run_cli(monkeypatch, capfd, [*argv, "--no-progress"], data, lines=True)
        got = run_cli(monkeypatch, capfd, [*argv, "--no-progress"], data, lines=False)
        assert got == want, name
        assert want[0] == 1 and "invalid UTF-8" in want[2]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_blocks_on_the_kernels_give_what_lines_give(monkeypatch, capfd, argv):
    # no line sends a block to the line path: the kernels' own output
    calls = []
    real = _cli_stream._write_lines

    def spy(run, handler, lines):
        lines = list(lines)
        calls.append(len(lines))
        real(run, handler, lines)

    for name, data in list(_inputs(CLEAN))[:2]:
        want = run_cli(monkeypatch, capfd, [*argv, "--no-progress"], data, lines=True)
        monkeypatch.setattr(_cli_commands, "_write_lines", spy)
        got = run_cli(monkeypatch, capfd, [*argv, "--no-progress"], data, lines=False)
        assert got == want, name
        # validate and audit hand the per-line handler the lines to report
        assert argv[0] in ("validate", "audit") or calls == []
        calls.clear()


def test_blocks_are_taken_only_for_tsv_output(monkeypatch):
    monkeypatch.setattr(_cli_commands, "_kernels", fasturi._impl.arrow_kernels)

    def takes(*argv):
        parser = _cli.build_parser().commands[argv[0]]
        args = parser.parse_intermixed_args([*argv[1:], "-"])
        return _cli_commands._block_handler(_cli_stream._Run(argv[0], args)) is not None

    for argv in COMMANDS:
        assert takes(*argv)
    assert not takes("normalize", "--json")
    assert not takes("extract")
    assert not takes("normalize", "--line-buffered")
    # a BASE whose argv bytes are not UTF-8 keeps the line path
    assert not takes("resolve", "http://a/\udcff/")
    # the reference kernels are a loop of the scalar functions: not by default
    monkeypatch.undo()
    assert takes("surt") == (fasturi.IMPLEMENTATION == "compiled")


@pytest.mark.parametrize("last", [b"", b"\n"])
def test_refused_rows_at_every_place_in_a_block(monkeypatch, capfd, last):
    # first, adjacent, between and last rows a kernel refuses
    bad, good = b"http://a:99999/", b"http://b/"
    for rows in ([bad, bad, good, bad], [good, bad, good, good, bad], [bad], [good, bad]):
        data = b"\n".join(rows) + last
        want = run_cli(monkeypatch, capfd, ["surt", "--no-progress"], data, lines=True)
        assert run_cli(monkeypatch, capfd, ["surt", "--no-progress"], data, lines=False) == want
        assert want[1].count("\n") == len(rows)


def test_blocks_made_ahead_stop_with_the_reader(monkeypatch, capfd):
    # the next block is made on a thread of its own: --on-error stop in the
    # first of many blocks ends the run there, and an error making a block
    # is raised to the caller
    body = b"http://b/\n" * (2 * _cli_stream.BLOCK // 10)
    data = b"http://a:99999/\n" + body
    status, out, err = run_cli(
        monkeypatch, capfd, ["surt", "--on-error", "stop", "--no-progress"], data, False
    )
    assert (status, out) == (1, "") and err.splitlines()[0].endswith("; stopped")
    assert err.splitlines()[1:] == ["fasturi surt: 1 of 1 lines could not be processed"]

    made: list = []
    monkeypatch.setattr(_cli_commands, "_kernels", fasturi._impl.arrow_kernels)
    real_handler = _cli_commands._block_handler
    monkeypatch.setattr(
        _cli_commands, "_block_handler", lambda run: _raising(real_handler(run), made)
    )
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(body)))
    with pytest.raises(MemoryError, match="second block"):
        _cli.main(["normalize", "--no-progress"])
    monkeypatch.undo()
    capfd.readouterr()


def _raising(handle, made):
    def handle_or_raise(col):
        made.append(col)
        if len(made) == 2:
            raise MemoryError("the second block")
        return handle(col)

    return handle_or_raise
