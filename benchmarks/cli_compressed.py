"""MB/s (of the uncompressed text) of ``fasturi normalize FILE.gz`` against
``zcat FILE.gz | fasturi normalize``: the command line's own decompression
against a decompressor in a process of its own, side by side.

    python benchmarks/cli_compressed.py [--mb 105] [--rounds 5] [--formats gzip,zstd]

The input is the corpus's stream.txt repeated to the size asked for,
compressed once per format with the format's command-line tool at its
default level (gzip, bzip2, xz, zstd; a format whose tool is missing is
left out); output goes to /dev/null.  Each round runs both ways in turn, so
that a busy machine slows both alike; the table gives the median of the
rounds and the median of the rounds' ratios.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import corpus_dir  # noqa: E402

# format: (the tool that compresses, the command that decompresses to stdout)
FORMATS = {
    "gzip": (["gzip", "-c"], ["gzip", "-dc"]),
    "bzip2": (["bzip2", "-c"], ["bzip2", "-dc"]),
    "xz": (["xz", "-c", "-T1"], ["xz", "-dc", "-T1"]),
    "zstd": (["zstd", "-q", "-c"], ["zstd", "-q", "-dc"]),
}
FASTURI = [sys.executable, "-m", "fasturi", "normalize", "--no-progress"]


def timed(command: str) -> float:
    started = time.perf_counter()
    subprocess.run(command, shell=True, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mb", type=float, default=105, help="uncompressed size (default 105)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--formats", default="gzip,bzip2,xz,zstd")
    args = parser.parse_args()
    with open(os.path.join(corpus_dir(), "stream.txt"), "rb") as f:
        piece = f.read()
    size = int(args.mb * 1e6)
    with tempfile.TemporaryDirectory() as folder:
        text = os.path.join(folder, "stream.txt")
        with open(text, "wb") as out:
            written = 0
            while written < size:
                out.write(piece)
                written += len(piece)
        print(
            f"{written / 1e6:.0f} MB of text, {args.rounds} rounds, os.cpu_count()={os.cpu_count()}"
        )
        print(f"{'format':8} {'MB':>6} {'in fasturi':>11} {'tool | fasturi':>15} {'ratio':>6}")
        for name in args.formats.split(","):
            pack, unpack = FORMATS[name]
            if shutil.which(pack[0]) is None:
                print(f"{name:8} (no {pack[0]} here)")
                continue
            packed = os.path.join(folder, "stream." + name)
            with open(text, "rb") as src, open(packed, "wb") as dst:
                subprocess.run(pack, stdin=src, stdout=dst, check=True)
            ours_cmd = " ".join([*FASTURI, packed])
            pipe_cmd = " ".join([*unpack, packed]) + " | " + " ".join(FASTURI)
            ours, pipe, ratios = [], [], []
            for _ in range(args.rounds):
                a, b = timed(ours_cmd), timed(pipe_cmd)
                ours.append(a)
                pipe.append(b)
                ratios.append(b / a)  # (MB/s ours over MB/s pipe)
            mbps = written / 1e6
            print(
                f"{name:8} {os.path.getsize(packed) / 1e6:6.1f}"
                f" {mbps / statistics.median(ours):8.0f} MB/s"
                f" {mbps / statistics.median(pipe):10.0f} MB/s"
                f" {statistics.median(ratios):6.2f}"
            )


if __name__ == "__main__":
    main()
