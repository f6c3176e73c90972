"""The same work on one thread and on two: what a free-threaded CPython gains.

    python benchmarks/threads.py [--rows N] [--repeat K]

Scalar functions: the corpus URLs (``urls.txt``) through one function, all
on one thread, then half on each of two threads started together; the
stdlib's function beside fasturi.parse's.  Column kernels: the same URLs as
one pyarrow ``string`` column (less those surt refuses), with ``threads=1``
and ``threads=2``.  Each
case is timed K times (default 7), the cases interleaved, and the best time
is kept; the table gives each time per URL, one thread's over two's (2.0x
is perfect scaling; with the GIL the scalar rows stay near 1x or below), and
the CPU time per URL, every thread's (equal on one thread and two when
nothing is contended: the figure that holds on a busy machine, where the
wall times do not).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
import urllib.parse
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import pyarrow as pa
from corpus import Corpus

import fasturi
import fasturi.arrow
import fasturi.parse


def _on_threads(func: Callable[[Any], Any], items: list[Any], threads: int) -> Callable[[], None]:
    """A run of ``func`` over ``items``, cut in ``threads`` parts, each on a
    thread of its own (one thread too: the items are the main thread's, and
    another thread's references to them cost it atomics), started together.
    The parts are runs of the list, not every other item: items side by side
    share lines of memory, and two threads writing their reference counts
    would pass those lines between cores on every call."""
    size = -(-len(items) // threads)
    parts = [items[k * size : (k + 1) * size] for k in range(threads)]

    def run() -> None:
        start = threading.Barrier(threads)

        def work(part: list[Any]) -> None:
            start.wait()
            for item in part:
                func(item)

        pool = [threading.Thread(target=work, args=(p,)) for p in parts]
        for t in pool:
            t.start()
        for t in pool:
            t.join()

    return run


def _accepted(func: Callable[[Any], Any], items: list[Any]) -> list[Any]:
    out = []
    for item in items:
        try:
            func(item)
        except ValueError:
            continue
        out.append(item)
    return out


def _best(
    cases: dict[str, Callable[[], Any]], repeat: int
) -> tuple[dict[str, float], dict[str, float]]:
    """The least wall time and the least CPU time (every thread's) of each case."""
    wall = dict.fromkeys(cases, float("inf"))
    cpu = dict.fromkeys(cases, float("inf"))
    for _ in range(repeat):
        for name, run in cases.items():  # (interleaved: the machine's drift hits all)
            t, c = time.perf_counter(), time.process_time()
            run()
            wall[name] = min(wall[name], time.perf_counter() - t)
            cpu[name] = min(cpu[name], time.process_time() - c)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=80000, help="corpus URLs used")
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    urls = Corpus().urls[: args.rows]
    gil = sys._is_gil_enabled() if hasattr(sys, "_is_gil_enabled") else True
    print(
        f"{sys.version.split()[0]}{'' if gil else ' free-threaded'}, GIL "
        f"{'on' if gil else 'off'}, fasturi {fasturi.IMPLEMENTATION}, {len(urls)} URLs"
    )
    base = "http://a/b/c/d;p?q"
    scalar: dict[str, Callable[[str], Any]] = {
        "urlsplit": fasturi.parse.urlsplit.__wrapped__,  # (uncached: the parse itself)
        "stdlib urlsplit": urllib.parse.urlsplit.__wrapped__,
        "urljoin": lambda u: fasturi.parse.urljoin(base, u),
        "stdlib urljoin": lambda u: urllib.parse.urljoin(base, u),
        "quote": fasturi.parse.quote,
        "stdlib quote": urllib.parse.quote,
        "registrable_domain": fasturi.registrable_domain,
        "normalize": fasturi.normalize,
    }
    # (surt refuses a column with a URL it cannot key: those left out)
    rows = _accepted(fasturi.surt, urls)
    col = pa.array(rows, type=pa.string())
    kernels: dict[str, Callable[[int], Any]] = {
        "arrow.split": lambda t: fasturi.arrow.split(col, threads=t),
        "arrow.normalize": lambda t: fasturi.arrow.normalize(col, threads=t),
        "arrow.canonicalize": lambda t: fasturi.arrow.canonicalize(col, threads=t),
        "arrow.registrable_domain": lambda t: fasturi.arrow.registrable_domain(col, threads=t),
        "arrow.surt": lambda t: fasturi.arrow.surt(col, threads=t),
        "arrow.whatwg_href": lambda t: fasturi.arrow.whatwg_href(col, threads=t),
    }
    # the URLs each function answers (a few raise: a bracketed host that is
    # no IP address, a port that is no number), with its stdlib twin's
    accepted = {name: _accepted(f, urls) for name, f in scalar.items()}
    for name in scalar:
        if name.startswith("stdlib "):
            ours = set(accepted[name[7:]])
            accepted[name] = accepted[name[7:]] = [u for u in accepted[name] if u in ours]
    cases: dict[str, Callable[[], Any]] = {}
    for name, f in scalar.items():
        for n in (1, 2):
            cases[f"{name}/{n}"] = _on_threads(f, accepted[name], n)
    for name, k in kernels.items():
        for n in (1, 2):
            cases[f"{name}/{n}"] = lambda k=k, n=n: k(n)
    best, cpu = _best(cases, args.repeat)
    print()
    print("| function | 1 thread | 2 threads | 1 over 2 | CPU, 1 thread | CPU, 2 threads |")
    print("|---|---:|---:|---:|---:|---:|")
    for name in [*scalar, *kernels]:
        one, two = best[f"{name}/1"], best[f"{name}/2"]
        unit = 1e9 / len(accepted.get(name, rows))
        print(
            f"| `{name}` | {one * unit:.0f} ns | {two * unit:.0f} ns | {one / two:.2f}x "
            f"| {cpu[f'{name}/1'] * unit:.0f} ns | {cpu[f'{name}/2'] * unit:.0f} ns |"
        )
    print()
    for name in ("urlsplit", "urljoin", "quote"):
        for n in (1, 2):
            by_wall = best[f"stdlib {name}/{n}"] / best[f"{name}/{n}"]
            by_cpu = cpu[f"stdlib {name}/{n}"] / cpu[f"{name}/{n}"]
            print(
                f"stdlib {name} over fasturi's on {n} thread{'s' if n > 1 else ''}: "
                f"{by_wall:.1f}x by wall time, {by_cpu:.1f}x by CPU time"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
