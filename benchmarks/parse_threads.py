"""The urllib.parse drop-in on several threads at once, against the stdlib.

    python benchmarks/parse_threads.py [--threads 1,2] [--rounds 5] [--only urlsplit,quote]

Each case maps one function over the corpus items its pytest-benchmark
group uses (benchmarks/peers.py's PARSE_CASES), on T threads at once, every
thread over the whole list (fasturi's as many times as make a round of
``--ms`` on one thread, the stdlib's a tenth as many); a round's time is
from the first thread's start to the last one's end, and the time per call
is that over all T threads' calls.  fasturi.parse and urllib.parse alternate round by round (the
machine's drift then falls on both), caches cleared before each round.
Printed per function and thread count: ns per call for each, the stdlib's
time over fasturi's, and each one's throughput over its own on one thread
(what the extra threads bring: up to T on T free cores).

On a free-threaded CPython (3.13t, 3.14t) the threads run at once; with the
GIL they take turns, and the throughput stays about 1.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import math
import statistics
import sys
import threading
import time
import urllib.parse as std
from typing import Any, Callable

from corpus import Corpus
from peers import PARSE_CASES

import fasturi.parse as fp


def _mapper(fn: Callable[..., Any], star: bool, repeat: int) -> Callable[[list[Any]], None]:
    """Map fn over the items `repeat` times, consumed at C speed."""

    def run(items: list[Any]) -> None:
        for _ in range(repeat):
            collections.deque(itertools.starmap(fn, items) if star else map(fn, items), 0)

    return run


def _round(run: Callable[[list[Any]], None], items: list[Any], threads: int) -> float:
    """Seconds from the first of `threads` threads starting to map over
    items to the last one's end (each thread's own clock: the wait for a
    thread to be woken up is not the function's)."""
    start = threading.Barrier(threads)
    spans: list[tuple[float, float]] = []

    def body() -> None:
        start.wait()
        t0 = time.perf_counter()
        run(items)
        spans.append((t0, time.perf_counter()))

    workers = [threading.Thread(target=body) for _ in range(threads)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return max(end for _, end in spans) - min(begin for begin, _ in spans)


def _clear() -> None:
    std.clear_cache()
    fp.clear_cache()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--items", type=int, default=20000, help="items a thread maps")
    ap.add_argument("--ms", type=float, default=50, help="least milliseconds of a round")
    ap.add_argument("--only", default="", help="functions, comma-separated")
    args = ap.parse_args(argv)
    counts = [int(t) for t in args.threads.split(",")]
    only = {f for f in args.only.split(",") if f}
    gil = getattr(sys, "_is_gil_enabled", lambda: True)()
    print(
        f"Python {sys.version.split()[0]}, GIL {'on' if gil else 'off'}, "
        f"fasturi.parse {fp.IMPLEMENTATION}; {args.items} items a thread, rounds of "
        f"{args.ms:g} ms or more, median of {args.rounds}, fasturi and the stdlib alternating"
    )
    print()
    print(
        "| function | threads | fasturi ns/call | stdlib ns/call | stdlib / fasturi |"
        " fasturi throughput vs 1 thread | stdlib throughput vs 1 thread |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|")
    corpus = Corpus()
    for _group, name, source, star, warm in PARSE_CASES:
        if warm or (only and name not in only):
            continue
        items: list[Any] = []
        for x in getattr(corpus, source):
            try:
                getattr(std, name)(*x) if star else getattr(std, name)(x)
            except ValueError:
                continue
            items.append(x)
            if len(items) == args.items:
                break
        # rounds of at least `--ms` on one thread: the start of a thread
        # and its first scheduling are then small beside them
        once = _round(_mapper(getattr(fp, name), star, 1), items, 1)
        repeat = max(1, math.ceil(args.ms / 1000 / max(once, 1e-9)))
        runs = {
            "fasturi": _mapper(getattr(fp, name), star, repeat),
            "stdlib": _mapper(getattr(std, name), star, 1 + repeat // 10),
        }
        calls = {"fasturi": repeat * len(items), "stdlib": (1 + repeat // 10) * len(items)}
        single: dict[str, float] = {}
        for t in counts:
            times: dict[str, list[float]] = {"fasturi": [], "stdlib": []}
            for r in range(args.rounds + 1):
                order = ("fasturi", "stdlib") if r % 2 else ("stdlib", "fasturi")
                for side in order:
                    _clear()
                    spent = _round(runs[side], items, t)
                    if r:  # the first round warms both
                        times[side].append(spent)
            per = {
                side: statistics.median(v) / (t * calls[side]) * 1e9 for side, v in times.items()
            }
            for side in per:
                single.setdefault(side, per[side])
            scale = {side: single[side] / per[side] for side in per}
            print(
                f"| `{name}` | {t} | {per['fasturi']:,.0f} | {per['stdlib']:,.0f} | "
                f"{per['stdlib'] / per['fasturi']:.1f}× | {scale['fasturi']:.2f} | "
                f"{scale['stdlib']:.2f} |",
                flush=True,
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
