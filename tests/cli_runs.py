"""One run of the command line, for the tests that compare its paths."""

from __future__ import annotations

import io
import sys

import fasturi
from fasturi import _cli, _cli_commands


def run_cli(monkeypatch, capfd, argv, data, lines):
    """``fasturi ARGV`` on ``data`` as its standard input, through the
    per-line path (``lines``) or the column kernels' block path: (exit
    status, stdout, stderr); a usage error's exit is its status too."""
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    if lines:
        monkeypatch.setattr(_cli_commands, "_block_handler", lambda run: None)
    else:
        monkeypatch.setattr(_cli_commands, "_kernels", fasturi._impl.arrow_kernels)
    try:
        status = _cli.main(argv)
    except SystemExit as exc:
        status = exc.code
    sys.stdout.flush()
    out, err = capfd.readouterr()
    monkeypatch.undo()
    return status, out, err
