"""The line-oriented commands push blocks of lines through the column kernels
where their output is text: the bytes out, the warnings and the exit status
are those of the per-line path, whatever the lines hold."""

from __future__ import annotations

import io
import sys

import pytest

import fasturi
from fasturi import _cli, _cli_commands

LINES = [
    b"HTTP://Example.COM:80/a/./b/../%7euser?b=2&a=1&utm_x=1#frag",
    b"",
    b"http://a/b\tc\\d",
    b"caf\xc3\xa9://h\xc3\xa9/p?q=\xe2\x82\xac",
    b"bad \xff utf-8",
    b"http://[fe80::1%25Eth0]:443/",
    b"x\x00y",
    b"../g;x?y#s",
    b"\xed\xa0\x80 surrogate",
    b"mailto:Joe@Example.COM",
]
COMMANDS = [
    ["normalize"],
    ["normalize", "--no-scheme-based"],
    ["canonicalize", "--drop-param", "utm_*", "--keep-fragment"],
    ["resolve", "http://a/b/c/d;p?q"],
    ["resolve", "--non-strict", "--rfc", "2396", "http://a/b/c/d;p?q"],
    ["split", "--fields", "scheme,userinfo,host,port,path,query,fragment"],
    ["split", "--header"],
]


def _run(monkeypatch, capfd, argv, data, lines):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    if lines:
        monkeypatch.setattr(_cli_commands, "_block_handler", lambda run: None)
    status = _cli.main([*argv, "--no-progress"])
    sys.stdout.flush()
    out, err = capfd.readouterr()
    monkeypatch.undo()
    return status, out, err


def _inputs():
    body = b"\n".join(LINES)
    yield "lf", body + b"\n"
    yield "crlf, bom, no final newline", b"\xef\xbb\xbf" + b"\r\n".join(LINES) + b"\r"
    yield "bom on a bad first line", b"\xef\xbb\xbf\xff\nhttp://a/\n"
    # lines across block boundaries, and one longer than a block
    long = b"http://a/" + b"p/" * (_cli_commands.BLOCK // 2) + b"?q"
    yield "blocks", (body + b"\n") * 4000 + long + b"\n" + body


@pytest.mark.compiled
@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_blocks_give_what_lines_give(monkeypatch, capfd, argv):
    assert fasturi.IMPLEMENTATION == "compiled"
    for name, data in _inputs():
        want = _run(monkeypatch, capfd, argv, data, lines=True)
        got = _run(monkeypatch, capfd, argv, data, lines=False)
        assert got == want, name
        assert want[0] == 1 and "invalid UTF-8" in want[2]


@pytest.mark.compiled
def test_blocks_are_taken_only_for_text_output(monkeypatch):
    parser = _cli.build_parser()

    def takes(argv):
        args = parser.parse_args([*argv, "-"])
        return _cli_commands._block_handler(_cli_commands._Run(args.command, args)) is not None

    assert takes(["normalize"]) and takes(["split"]) and takes(["resolve", "http://a/"])
    assert not takes(["normalize", "--json"])
    assert not takes(["validate"]) and not takes(["audit"]) and not takes(["extract"])
    assert not takes(["normalize", "--line-buffered"])
    # a BASE whose argv bytes are not UTF-8 keeps the line path
    assert not takes(["resolve", "http://a/\udcff/"])
