"""fasturi.whatwg.SearchParams and URL.replace against ada's bindings
(ada_url, can_ada), which implement the same standard.

    python -m pytest benchmarks -k search_params   # the suite's cases, pytest-benchmark
    python benchmarks/bench_search_params.py       # side by side (markdown)

- ``search_params``: ``str(SearchParams(query))``, the urlencoded parser and
  serializer's round trip, on the query of every corpus URL that has one
  (the URL Standard's query, as ``URL.search`` gives it, less its "?").
- ``replace``: a setter on each corpus URL (``pathname``, ``search``,
  ``host``): fasturi's ``URL.replace``, ada_url's and can_ada's setters on
  an already-parsed URL; each case reads ``href`` after, as the others
  build it lazily.

The side-by-side run times every case's rounds interleaved (a busy machine
slows them alike) and gives each peer's time over fasturi's as the median of
the per-round ratios; CPU time of the process, not wall time.
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


def queries(corpus: Any) -> List[str]:
    """The URL Standard's queries of the corpus's URLs, where not empty."""
    from fasturi import whatwg

    out = []
    for url in corpus.urls:
        try:
            search = whatwg.parse(url).search
        except whatwg.InvalidURL:
            continue
        if search:
            out.append(search[1:])
    # (laid out as if read from their own file, as corpus.py does)
    return [q.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass") for q in out]


def _round_trip(make: Callable[[str], Any]) -> Callable[[str], str]:
    def round_trip(query: str) -> str:
        return str(make(query))

    return round_trip


def _search_params_adapters() -> List[peers.Adapter]:
    out = []
    for peer in ("fasturi-compiled", "fasturi-python"):
        suffix = "c" if peer.endswith("compiled") else "py"
        out.append(
            peers.Adapter(
                "search_params",
                peer,
                lambda suffix=suffix: _round_trip(
                    __import__(f"fasturi._search_params_{suffix}", fromlist=["x"]).SearchParams
                ),
                prepare=queries,
            )
        )
    for module in ("ada_url", "can_ada"):
        try:
            __import__(module)
        except ImportError:
            peers.note(f"{module}: not installed; left out of search_params")
            continue
        out.append(
            peers.Adapter(
                "search_params",
                module,
                lambda module=module: _round_trip(sys.modules[module].URLSearchParams),
                prepare=queries,
            )
        )
    return out


@pytest.mark.parametrize("adapter", _search_params_adapters(), ids=str)
def bench_search_params(measure, adapter):
    measure(adapter)


# ---- side by side ------------------------------------------------------------------

SETTERS = {"pathname": "/a/b c/../d", "search": "?q=1&r=a b", "host": "example.org:8080"}


def _fasturi_setter(setter: str) -> Callable[[Any], str]:
    value = SETTERS[setter]

    def run(url: Any) -> str:
        return url.replace(**{setter: value}).href  # type: ignore[no-any-return]

    return run


def _ada_setter(setter: str) -> Callable[[Any], str]:
    # ada's URL objects change in place: setting a value on a parsed URL is
    # the whole operation (the URL is parsed again for each round, untimed)
    value = SETTERS[setter]
    set_it = {"pathname": "pathname", "search": "search", "host": "host"}[setter]

    def run(url: Any) -> str:
        setattr(url, set_it, value)
        return url.href  # type: ignore[no-any-return]

    return run


def _cases() -> Dict[str, List[Tuple[str, Callable[..., Any], Callable[[str], Any]]]]:
    """Per operation: (name, function, what makes one item of an input)."""
    from fasturi import _search_params_c, _search_params_py, _whatwg_c, _whatwg_py

    out: Dict[str, List[Tuple[str, Callable[..., Any], Callable[[str], Any]]]] = {
        "SearchParams(query) + str()": [
            ("fasturi", _round_trip(_search_params_c.SearchParams), str),
            ("fasturi (reference)", _round_trip(_search_params_py.SearchParams), str),
        ]
    }
    for setter in SETTERS:
        out[f"replace({setter}=...)"] = [
            ("fasturi", _fasturi_setter(setter), _whatwg_c.parse),
            ("fasturi (reference)", _fasturi_setter(setter), _whatwg_py.parse),
        ]
    for module in ("can_ada", "ada_url"):
        try:
            mod = __import__(module)
        except ImportError:
            continue
        out["SearchParams(query) + str()"].append((module, _round_trip(mod.URLSearchParams), str))
        parse = mod.parse if module == "can_ada" else mod.URL
        for setter in SETTERS:
            out[f"replace({setter}=...)"].append((module, _ada_setter(setter), parse))
    return out


def _accepted(fn: Callable[[Any], Any], make: Callable[[str], Any], items: List[str]) -> List[str]:
    kept = []
    for item in items:
        try:
            fn(make(item))
        except ValueError:
            continue
        kept.append(item)
    return kept


def side_by_side(rounds: int = ROUNDS) -> List[str]:
    sys.path.insert(0, HERE)
    from corpus import Corpus

    corpus = Corpus()
    lines = [
        "| operation | case | ns/item (median) | time / fasturi's (median of rounds) |",
        "|---|---|---:|---:|",
    ]
    for op, cases in _cases().items():
        texts = queries(corpus) if op.startswith("SearchParams") else list(corpus.urls)
        for _, fn, make in cases:  # the inputs every case takes
            texts = _accepted(fn, make, texts)
        times: Dict[str, List[float]] = {name: [] for name, _, _ in cases}
        for _ in range(rounds):
            for name, fn, make in cases:
                items = [make(t) for t in texts]  # (ada's URLs change: made afresh)
                gc.collect()
                started = time.process_time()
                deque(map(fn, items), 0)
                times[name].append((time.process_time() - started) / len(items) * 1e9)
        mine = times[cases[0][0]]
        for name, _, _ in cases:
            ratio = statistics.median(t / m for t, m in zip(times[name], mine))
            lines.append(
                f"| {op} ({len(texts):,}) | {name} | {statistics.median(times[name]):.0f} "
                f"| {ratio:.2f}× |"
            )
    return lines


if __name__ == "__main__":
    print(f"median of {ROUNDS} rounds, interleaved, CPU time\n")
    print("\n".join(side_by_side()))
