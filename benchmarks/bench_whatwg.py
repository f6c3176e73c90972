"""fasturi.whatwg.parse over urls.txt and fasturi.whatwg.resolve over
refs.tsv, against ada's bindings (ada_url, can_ada): the same standard.

    python -m pytest benchmarks -k whatwg      # the suite's cases, pytest-benchmark
    python benchmarks/bench_whatwg.py           # side by side (markdown)

The second times every case's rounds interleaved, so that a busy machine
slows them alike, and gives each peer's ratio to fasturi as the median of
the per-round ratios (each round's cases a few hundred milliseconds apart),
on the inputs every peer parses.  It reads CPU time of the process, not wall
time: on a machine shared with other work the wall clock counts their turns
too.
"""

from __future__ import annotations

import gc
import os
import statistics
import sys
import time
from collections import deque
from typing import Any, Callable, Dict, List, Tuple

import peers
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROUNDS = int(os.environ.get("FASTURI_BENCH_ROUNDS", "9"))


@pytest.mark.parametrize("adapter", peers.adapters("whatwg"), ids=str)
def bench_whatwg(measure, adapter):
    measure(adapter)


@pytest.mark.parametrize("adapter", peers.adapters("whatwg.resolve"), ids=str)
def bench_whatwg_resolve(measure, adapter):
    measure(adapter)


# ---- side by side ------------------------------------------------------------------


def _cases() -> Dict[str, List[Tuple[str, Callable[..., Any], bool]]]:
    """Per operation: (name, function, takes (base, ref) pairs)."""
    from fasturi import _whatwg_c

    out: Dict[str, List[Tuple[str, Callable[..., Any], bool]]] = {
        "parse": [("fasturi.whatwg.parse", _whatwg_c.parse, False)],
        "resolve": [("fasturi.whatwg.resolve", _whatwg_c.resolve, True)],
    }
    try:
        import can_ada

        out["parse"].append(("can_ada.parse", can_ada.parse, False))
    except ImportError:
        pass
    try:
        import ada_url

        out["parse"].append(("ada_url.URL", ada_url.URL, False))
        out["resolve"].append(("ada_url.join_url", ada_url.join_url, True))
    except ImportError:
        pass
    return out


def _accepted(fn: Callable[..., Any], items: List[Any], star: bool) -> List[Any]:
    kept = []
    for item in items:
        try:
            fn(*item) if star else fn(item)
        except ValueError:
            continue
        kept.append(item)
    return kept


def side_by_side(rounds: int = ROUNDS) -> List[str]:
    sys.path.insert(0, HERE)
    from corpus import Corpus

    corpus = Corpus()
    lines = [
        "| operation | case | ns/item (median) | fasturi's speedup (median of rounds) |",
        "|---|---|---:|---:|",
    ]
    for op, cases in _cases().items():
        star = cases[0][2]
        items: List[Any] = list(corpus.refs) if star else list(corpus.urls)
        for _, fn, _ in cases:  # the inputs every peer parses
            items = _accepted(fn, items, star)
        # (the arguments' columns, made before the clock starts)
        columns = [list(column) for column in zip(*items)] if star else [items]
        times: Dict[str, List[float]] = {name: [] for name, _, _ in cases}
        for _ in range(rounds):
            for name, fn, _ in cases:
                gc.collect()
                started = time.process_time()
                deque(map(fn, *columns), 0)
                times[name].append((time.process_time() - started) / len(items) * 1e9)
        mine = times[cases[0][0]]
        for name, _, _ in cases:
            ratio = statistics.median(t / m for t, m in zip(times[name], mine))
            lines.append(
                f"| {op} ({len(items):,}) | {name} | {statistics.median(times[name]):.0f} "
                f"| {ratio:.2f}× |"
            )
    return lines


if __name__ == "__main__":
    print(f"median of {ROUNDS} rounds, interleaved, CPU time\n")
    print("\n".join(side_by_side()))
