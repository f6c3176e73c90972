"""MB/s of the line-oriented commands on a large file, through the column
kernels (blocks of lines, the default where the output is text) and through
the per-line path they replace, side by side in one process.

    python benchmarks/cli_stream.py [--mb 263] [--rounds 3]

The input is the corpus's stream.txt repeated to the size asked for, written
once to a temp file; output goes to /dev/null.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from contextlib import redirect_stdout
from typing import Any, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import corpus_dir  # noqa: E402

from fasturi import _cli, _cli_commands  # noqa: E402

COMMANDS = (["normalize"], ["canonicalize"], ["split", "--fields", "scheme,host,path"])


def run(argv: List[str], path: str, lines: bool) -> float:
    saved = _cli_commands._block_handler
    if lines:
        _cli_commands._block_handler = lambda run: None  # type: ignore[assignment]
    try:
        with open(os.devnull, "w") as sink, redirect_stdout(sink):
            started = time.perf_counter()
            status = _cli.main([*argv, "--no-progress", path])
            took = time.perf_counter() - started
    finally:
        _cli_commands._block_handler = saved
    assert status == 0, status
    return took


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=263)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    stream = (corpus_dir() / "stream.txt").read_bytes()
    with tempfile.NamedTemporaryFile(suffix=".txt", delete=False) as f:
        while f.tell() < args.mb << 20:
            f.write(stream)
        path = f.name
    size = os.path.getsize(path) / (1 << 20)
    try:
        print(f"{size:.0f} MB input; median of {args.rounds} rounds, interleaved\n")
        print("| command | per-line path MB/s | column kernels MB/s | speed-up |")
        print("|---|---:|---:|---:|")
        for argv in COMMANDS:
            times: Any = {False: [], True: []}
            for _ in range(args.rounds):
                for lines in (True, False):
                    times[lines].append(run(argv, path, lines))
            line, block = statistics.median(times[True]), statistics.median(times[False])
            print(
                f"| {' '.join(argv)} | {size / line:.0f} | {size / block:.0f} | "
                f"{line / block:.1f}x |"
            )
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
