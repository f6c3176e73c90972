"""MB/s of every line-oriented command of the command line on a large file,
through the column kernels (blocks of lines, the default where the output is
TSV) and through the per-line path they replace, side by side in one process.

    python benchmarks/cli_stream.py [--mb 263] [--rounds 3] [--only surt,domain] [--default]

The input is the corpus's stream.txt repeated to the size asked for, written
once to a temp file; output goes to /dev/null.  A command's time is its whole
run (reading, the kernels, writing), the median of the rounds, taken in turn
with the other path's so that a busy machine slows both alike.  With
``--default`` the commands take their rounds in turn instead, and each is
also given as a ratio to ``normalize``'s time (wall-clock and CPU) where
``normalize`` is among them: the median of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from contextlib import redirect_stdout
from typing import Any, List, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import corpus_dir  # noqa: E402

from fasturi import _cli, _cli_commands  # noqa: E402

COMMANDS = (
    ["split", "--fields", "scheme,host,path"],
    ["normalize"],
    ["canonicalize"],
    ["resolve", "https://docs.example.org/a/b/c"],
    ["domain"],
    ["surt"],
    ["fingerprint"],
    ["validate"],
    ["audit"],
    ["extract"],
)


def run(argv: List[str], path: str, lines: bool) -> Tuple[float, float]:
    """Wall-clock and CPU seconds (every thread's) of one run."""
    saved = _cli_commands._block_handler
    if lines:
        _cli_commands._block_handler = lambda run: None  # type: ignore[assignment]
    try:
        with open(os.devnull, "w") as sink, redirect_stdout(sink):
            started, cpu = time.perf_counter(), time.process_time()
            status = _cli.main([argv[0], "--no-progress", *argv[1:], path])
            took = time.perf_counter() - started, time.process_time() - cpu
    finally:
        _cli_commands._block_handler = saved
    assert status in (0, 1), status  # 1: validate or audit found something
    return took


def _default(args: Any, only: List[str], path: str, size: float) -> None:
    """Each command on the path it takes by default, the commands' rounds in
    turn, so that the load of the moment weighs on each alike."""
    commands = [argv for argv in COMMANDS if not only or argv[0] in only]
    times: Any = {argv[0]: [] for argv in commands}
    for _ in range(args.rounds):
        for argv in commands:
            times[argv[0]].append(run(argv, path, False))
    # CPU time too: on a busy machine it moves far less than the wall clock
    print("| command | MB/s | MB per CPU second | / normalize | CPU / normalize |")
    print("|---|---:|---:|---:|---:|")
    base = times.get("normalize")
    for argv in commands:
        mine = times[argv[0]]
        wall = statistics.median(t[0] for t in mine)
        cpu = statistics.median(t[1] for t in mine)
        ratios = ["", ""]
        if base is not None:
            for k in (0, 1):
                ratios[k] = f"{statistics.median(m[k] / b[k] for m, b in zip(mine, base)):.2f}x"
        print(
            f"| {' '.join(argv)} | {size / wall:.0f} | {size / cpu:.0f} | {ratios[0]} | {ratios[1]} |",
            flush=True,
        )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mb", type=int, default=263)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated commands (default all)")
    parser.add_argument(
        "--default", action="store_true", help="time only the path each command takes by default"
    )
    args = parser.parse_args()
    only = [c for c in args.only.split(",") if c]
    stream = (corpus_dir() / "stream.txt").read_bytes()
    with tempfile.NamedTemporaryFile(suffix=".txt", delete=False) as f:
        while f.tell() < args.mb << 20:
            f.write(stream)
        path = f.name
    size = os.path.getsize(path) / 1e6
    try:
        print(f"{size:.0f} MB input; median of {args.rounds} rounds, interleaved\n")
        if args.default:
            _default(args, only, path, size)
            return
        print("| command | per-line path MB/s | column kernels MB/s | speed-up |")
        print("|---|---:|---:|---:|")
        for argv in COMMANDS:
            if only and argv[0] not in only:
                continue
            times: Any = {False: [], True: []}
            for _ in range(args.rounds):
                for lines in (True, False):
                    times[lines].append(run(argv, path, lines))
            block = statistics.median(t[0] for t in times[False])
            line = statistics.median(t[0] for t in times[True])
            print(
                f"| {' '.join(argv)} | {size / line:.0f} | {size / block:.0f} | "
                f"{line / block:.1f}x |",
                flush=True,
            )
    finally:
        os.unlink(path)


if __name__ == "__main__":
    main()
