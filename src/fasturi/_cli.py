"""The ``fasturi`` command line: RFC 3986 operations over lines of text.

Its parts: ``_cli_parser`` (commands, options, help), ``_cli_commands``
(input, output and a handler per command) and ``_cli_bench`` (``fasturi
bench``).  This module runs them.
"""

from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

from ._cli_bench import bench
from ._cli_commands import (
    EXIT_FOUND,
    HANDLERS,
    _progress,  # noqa: F401 - the tests drive it directly
    _Run,
    _stream,
    _UsageError,
)
from ._cli_parser import build_parser

__all__ = ["build_parser", "main"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in parser.commands:
        # the command's own parser, options and operands in any order
        # (`resolve BASE --json FILE`); its usage on a usage error
        command = parser.commands[argv[0]]
        args = command.parse_intermixed_args(argv[1:])
        args.command = argv[0]
    else:  # --help, --version, or no or an unknown command
        args = parser.parse_args(argv)
        command = parser.commands[args.command]
    try:
        if args.command == "bench":
            return bench(args)
        if args.files == []:
            args.files = ["-"]
        run = _Run(args.command, args)
        handler = HANDLERS[args.command](run)
        _stream(run, handler)
        sys.stdout.flush()
        return run.status
    except _UsageError as exc:
        command.error(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly; pointing stdout at
        # devnull keeps the interpreter's final flush from failing again.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return EXIT_FOUND
    raise AssertionError("unreachable")  # parser.exit raised SystemExit
