"""The ``fasturi`` command line: RFC 3986 operations over lines of text.

Its parts: ``_cli_parser`` (commands, options, help), ``_cli_commands`` (a
handler per command), ``_cli_stream`` (a run's state, its input as lines or
blocks, its output), ``_cli_input`` (files and standard input, decompressed)
and ``_cli_bench`` (``fasturi bench``).  This
module runs them; the commands are imported once the arguments are read, so
that ``--version`` and ``--help`` load only the parser.
"""

from __future__ import annotations

import errno
import os
import sys

from ._cli_parser import EXIT_FOUND, EXIT_WRITE, build_parser

TYPE_CHECKING = False
if TYPE_CHECKING:
    import argparse
    from typing import Optional, Sequence

__all__ = ["build_parser", "main"]


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    # (the options of the command run alone: of none for --version, --help)
    parser = build_parser(argv[0] if argv and not argv[0].startswith("-") else "")
    if argv and argv[0] in parser.commands:
        # the command's own parser, options and operands in any order
        # (`resolve BASE --json FILE`); its usage on a usage error
        command = parser.commands[argv[0]]
        args = command.parse_intermixed_args(argv[1:])
        args.command = argv[0]
    else:  # --help, --version, or no or an unknown command
        args = parser.parse_args(argv)
        command = parser.commands[args.command]

    from ._cli_commands import HANDLERS, _stream, _UsageError
    from ._cli_stream import _Run, _WriteError

    run = None
    try:
        if args.command == "bench":
            return _bench(args)
        if args.files == []:
            args.files = ["-"]
        run = _Run(args.command, args)
        handler = HANDLERS[args.command](run)
        _stream(run, handler)
        run.flush()
        run.commit()
        run.summary()
        return run.status
    except _UsageError as exc:
        command.error(str(exc))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # The reader went away (`| head`): stop quietly.
        _discard_output()
        return EXIT_FOUND
    except _WriteError as exc:
        # (the messages about lines not written are dropped: they would
        # claim records that are not there)
        if sys.stderr is not None:
            sys.stderr.write(f"fasturi {args.command}: cannot write output: {exc}\n")
        _discard_output()
        if run is not None:
            run.bar = None
        return EXIT_WRITE
    raise AssertionError("unreachable")  # parser.exit raised SystemExit


def _bench(args: argparse.Namespace) -> int:
    """``fasturi bench``, whose table is printed: a write that fails is the
    one line of any command (standard output closed: before any timing)."""
    from ._cli_bench import bench
    from ._cli_stream import _WriteError

    if sys.stdout is None:
        raise _WriteError(OSError(errno.EBADF, "standard output is closed"))
    try:
        status = bench(args)
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as exc:  # (bench reports its own reading errors)
        raise _WriteError(exc) from None
    return status


def _discard_output() -> None:
    """Points standard output at devnull, so that the interpreter's last
    flush of what could not be written does not fail (and say so) again."""
    if sys.stdout is None:  # (closed: its descriptor may be an input's now)
        return
    try:
        fd = sys.stdout.fileno()
    except (OSError, ValueError):  # not a file (a test's capture)
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)
