"""The command line's output and its account of it (docs/cli.md): a write
that fails is one line and exit status 3, with no message claiming a record
that was not written; a closed standard output is such a write; after the
last line, one line says how many lines could not be processed;
``--quiet`` and ``--max-errors``."""

from __future__ import annotations

import errno
import io
import os
import subprocess
import sys

import pytest
from cli_runs import run_cli

import fasturi
from fasturi import _cli, _cli_commands

PATHS = ["lines", "blocks"]
MODULE = [sys.executable, "-m", "fasturi"]


class _Full(io.RawIOBase):
    """A device that takes ``room`` bytes, then fails as a full disk does."""

    def __init__(self, room: int) -> None:
        self.room = room
        self.taken = b""

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        if self.room <= 0:
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        data = bytes(data)[: self.room]
        self.room -= len(data)
        self.taken += data
        return len(data)


def _run_full(monkeypatch, capsys, argv, data, room, lines):
    """``fasturi ARGV`` on ``data``, its output on a device with ``room``
    bytes: (status, what the device took, stderr)."""
    device = _Full(room)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    monkeypatch.setattr(sys, "stdout", io.TextIOWrapper(io.BufferedWriter(device, 64)))
    if lines:
        monkeypatch.setattr(_cli_commands, "_block_handler", lambda run: None)
    else:
        monkeypatch.setattr(_cli_commands, "_kernels", fasturi._impl.arrow_kernels)
    status = _cli.main(argv)
    err = capsys.readouterr().err
    monkeypatch.undo()
    return status, device.taken, err


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("room", [0, 40, 1000])
def test_a_full_disk_is_one_line_and_status_3(monkeypatch, capsys, path, room):
    data = b"".join(b"http://a/%d\n" % i for i in range(2000))
    status, taken, err = _run_full(
        monkeypatch, capsys, ["normalize", "--no-progress"], data, room, path == "lines"
    )
    assert status == 3
    assert err == "fasturi normalize: cannot write output: No space left on device\n"
    # what was written is whole records, in order, then a cut
    want = b"".join(b"http://a/%d\n" % i for i in range(2000))
    assert want.startswith(taken) and len(taken) <= room


@pytest.mark.parametrize("path", PATHS)
def test_no_message_claims_a_record_that_was_not_written(monkeypatch, capsys, path):
    # a line that cannot be processed near the start, then far more output
    # than the device takes: its record was never written, so its message
    # would be a false claim and is not given
    data = b"http://a/\n\xff\n" + b"http://b/\n" * 5000
    status, taken, err = _run_full(
        monkeypatch, capsys, ["normalize", "--no-progress"], data, 10, path == "lines"
    )
    assert status == 3 and "error record written" not in err
    assert err == "fasturi normalize: cannot write output: No space left on device\n"


@pytest.mark.parametrize("path", PATHS)
def test_a_message_follows_its_record(monkeypatch, capsys, path):
    # with room for everything, every message is given, after the output
    # before and including its record was written
    data = b"http://a/\n\xff\n" + b"http://b/\n" * 5000
    status, taken, err = _run_full(
        monkeypatch, capsys, ["normalize", "--no-progress"], data, 1 << 20, path == "lines"
    )
    assert status == 1 and taken.split(b"\n")[:3] == [b"http://a/", b"\\E", b"http://b/"]
    assert err.splitlines() == [
        "fasturi normalize: <stdin>:2: invalid UTF-8 at byte 0 (b'\\xff'); error record written",
        "fasturi normalize: 1 of 5,002 lines could not be processed",
    ]


def _child(argv, data=b"", **kwargs):
    proc = subprocess.run(
        MODULE + argv,
        input=data,
        stdout=kwargs.pop("stdout", subprocess.PIPE),
        stderr=subprocess.PIPE,
        timeout=120,
        **kwargs,
    )
    return proc.returncode, proc.stderr.decode()


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="a Linux device")
@pytest.mark.parametrize("argv", [["normalize"], ["split", "--json"], ["extract"], ["audit"]])
def test_dev_full(tmp_path, argv):
    data = b"".join(b"http://a/%d x %%00\n" % i for i in range(200_000))
    with open("/dev/full", "wb") as full:
        status, err = _child([*argv, "--no-progress"], data, stdout=full)
    assert status == 3
    assert err == f"fasturi {argv[0]}: cannot write output: No space left on device\n"


@pytest.mark.skipif(os.name != "posix", reason="closes a descriptor in the child")
def test_a_closed_standard_output(tmp_path):
    urls = tmp_path / "urls.txt"
    urls.write_bytes(b"HTTP://A/\n" * 10)
    # (with 1 closed, the input file takes descriptor 1: it is read, not written)
    closed = dict(stdout=None, preexec_fn=lambda: os.close(1))
    status, err = _child(["normalize", str(urls)], **closed)
    assert (status, err) == (
        3,
        "fasturi normalize: cannot write output: standard output is closed\n",
    )
    # a command with nothing to write has nothing to fail at
    status, err = _child(["validate", str(urls)], **closed)
    assert (status, err) == (0, "")
    status, err = _child(["bench", "--ops", "quote", "--rounds", "1"], **closed)
    assert (status, err) == (3, "fasturi bench: cannot write output: standard output is closed\n")


# ---- the count at the end, --quiet, --max-errors -----------------------------------

BAD = b"http://a/\n\xff\nhttp://b/\n\xfe\nhttp://c/\n"


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("command", ["normalize", "split", "validate", "audit", "extract"])
def test_the_count_of_lines_not_processed(monkeypatch, capfd, command, path):
    status, out, err = run_cli(monkeypatch, capfd, [command, "--no-progress"], BAD, path == "lines")
    *messages, count = err.splitlines()
    assert status == 1 and len(messages) == 2
    assert count == f"fasturi {command}: 2 of 5 lines could not be processed"
    # nothing to count, nothing said
    status, out, err = run_cli(monkeypatch, capfd, [command], b"http://a/\n", path == "lines")
    assert err == ""


def test_the_count_runs_over_every_input(tmp_path, monkeypatch, capfd):
    a, b = tmp_path / "a", tmp_path / "b"
    a.write_bytes(BAD)
    b.write_bytes(b"x\n" * 7 + b"\xff")
    status, out, err = run_cli(
        monkeypatch, capfd, ["normalize", str(a), str(b), "--no-progress"], b"", False
    )
    assert err.splitlines()[-1] == "fasturi normalize: 3 of 13 lines could not be processed"


@pytest.mark.parametrize("path", PATHS)
def test_quiet_keeps_only_the_count(monkeypatch, capfd, path):
    status, out, err = run_cli(monkeypatch, capfd, ["normalize", "-q"], BAD, path == "lines")
    assert status == 1 and out.splitlines() == ["http://a/", "\\E", "http://b/", "\\E", "http://c/"]
    assert err == "fasturi normalize: 2 of 5 lines could not be processed\n"
    status, out, err = run_cli(monkeypatch, capfd, ["normalize", "--quiet"], BAD, path == "lines")
    assert err == "fasturi normalize: 2 of 5 lines could not be processed\n"


@pytest.mark.parametrize("path", PATHS)
def test_max_errors(monkeypatch, capfd, path):
    argv = ["normalize", "--no-progress"]
    # N lines that cannot be processed are kept as ever; the next one stops
    status, out, err = run_cli(
        monkeypatch, capfd, [*argv, "--max-errors", "1"], BAD, path == "lines"
    )
    assert status == 1 and out.splitlines() == ["http://a/", "\\E", "http://b/"]
    assert err.splitlines() == [
        "fasturi normalize: <stdin>:2: invalid UTF-8 at byte 0 (b'\\xff'); error record written",
        "fasturi normalize: <stdin>:4: invalid UTF-8 at byte 0 (b'\\xfe'); stopped (--max-errors 1)",
        "fasturi normalize: 2 of 4 lines could not be processed",
    ]
    status, out, err = run_cli(
        monkeypatch, capfd, [*argv, "--max-errors", "0"], BAD, path == "lines"
    )
    assert out.splitlines() == ["http://a/"]
    assert err.splitlines()[-1] == "fasturi normalize: 1 of 2 lines could not be processed"
    status, out, err = run_cli(
        monkeypatch, capfd, [*argv, "--max-errors", "2"], BAD, path == "lines"
    )
    assert len(out.splitlines()) == 5 and status == 1
    # --quiet still says where it stopped
    status, out, err = run_cli(
        monkeypatch, capfd, [*argv, "-q", "--max-errors", "0"], BAD, path == "lines"
    )
    assert err.splitlines() == [
        "fasturi normalize: <stdin>:2: invalid UTF-8 at byte 0 (b'\\xff'); stopped (--max-errors 0)",
        "fasturi normalize: 1 of 2 lines could not be processed",
    ]


@pytest.mark.parametrize("value", ["-1", "x", ""])
def test_max_errors_is_a_count(monkeypatch, capfd, value):
    status, out, err = run_cli(monkeypatch, capfd, ["normalize", "--max-errors", value], b"", True)
    assert status == 2 and "--max-errors" in err
