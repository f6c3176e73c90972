"""fasturi.arrow's column kernels against what a user runs without them.

Each operation's cases run over the same URLs of the corpus, held as a
pyarrow ``string`` column (and as a list for the list forms), and are timed
side by side in one process, their rounds interleaved, so that a busy
machine slows every case alike; the table gives ns per URL and each case's
ratio to the column kernel on one thread.

    python benchmarks/bench_arrow.py              # the table (markdown)
    python -m pytest benchmarks -k arrow          # the same cases, pytest-benchmark

The floor is ``pyarrow.compute.utf8_length``, which reads every byte once.
Each list form is timed twice: on a list already in hand, and as the round
trip a user whose URLs are a column makes without the kernels (the column
to a list, the list form, the list back to a column).
"""

from __future__ import annotations

import gc
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List, Tuple

import pyarrow as pa
import pyarrow.compute as pc
import pytest

import fasturi
import fasturi.arrow as fa
from fasturi import _arrow_c
from fasturi._types import ArrowColumn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from corpus import Corpus  # noqa: E402

# RFC 3986 Appendix B, with the names pyarrow's extract_regex needs.
APPENDIX_B = (
    r"^(?:(?P<scheme>[^:/?#]+):)?(?://(?P<authority>[^/?#]*))?(?P<path>[^?#]*)"
    r"(?:\?(?P<query>[^#]*))?(?:#(?P<fragment>.*))?"
)
ROUNDS = int(os.environ.get("FASTURI_BENCH_ROUNDS", "7"))

Case = Tuple[str, Callable[[], Any]]


def cases(corpus: Corpus) -> Dict[str, List[Case]]:
    urls = corpus.urls
    col = pa.array(urls, type=pa.string())
    bases = pa.array([b for b, _ in corpus.refs], type=pa.string())
    refs = pa.array([r for _, r in corpus.refs], type=pa.string())
    pages: Dict[str, List[str]] = {}
    for b, r in corpus.refs:
        pages.setdefault(b, []).append(r)

    def threads(name: str, fn: Callable[..., Any], *args: Any) -> List[Case]:
        return [(f"{name} threads={n}", lambda n=n: fn(*args, threads=n)) for n in (1, 2)]

    # split's two layouts, side by side: a string_view column gives string
    # views into its own buffers (what fasturi.arrow does for it), and the
    # same views made over a string column (the kernel's `views` switch)
    # against the copies fasturi.arrow makes for one.
    views = col.cast(pa.string_view())
    capsules = col.__arrow_c_array__

    def split_views_of_string() -> Any:
        kernel = _arrow_c.split(ArrowColumn(*capsules()), 0, 1, fa._DEFAULT_FIELDS, True)
        return pa.array(kernel)

    return {
        "split": [
            *threads("arrow.split", fa.split, col),
            ("arrow.split string_view column (views)", lambda: fa.split(views, threads=1)),
            ("arrow.split string column as views", split_views_of_string),
            ("split_many(list)", lambda: fasturi.split_many(urls)),
            ("pc.extract_regex (Appendix B)", lambda: pc.extract_regex(col, APPENDIX_B)),
            ("pc.utf8_length (floor)", lambda: pc.utf8_length(col)),
        ],
        "normalize": [
            *threads("arrow.normalize", fa.normalize, col),
            ("normalize_many(list)", lambda: fasturi.normalize_many(urls)),
            (
                "column -> list -> normalize_many -> column",
                lambda: pa.array(fasturi.normalize_many(col.to_pylist()), type=pa.string()),
            ),
        ],
        "canonicalize": [
            *threads("arrow.canonicalize", fa.canonicalize, col),
            ("canonicalize_many(list)", lambda: fasturi.canonicalize_many(urls)),
            (
                "column -> list -> canonicalize_many -> column",
                lambda: pa.array(fasturi.canonicalize_many(col.to_pylist()), type=pa.string()),
            ),
        ],
        "is_valid": [
            *threads("arrow.is_valid", fa.is_valid, col),
            ("[is_valid(u) for u in list]", lambda: [fasturi.is_valid(u) for u in urls]),
            (
                "column -> list -> [is_valid(u) ...] -> column",
                lambda: pa.array([fasturi.is_valid(u) for u in col.to_pylist()], type=pa.bool_()),
            ),
        ],
        "whatwg": [
            *threads("arrow.whatwg_href", fa.whatwg_href, col),
            ("arrow.whatwg_can_parse threads=1", lambda: fa.whatwg_can_parse(col, threads=1)),
            (
                "arrow.whatwg_split 5 getters threads=1",
                lambda: fa.whatwg_split(col, WHATWG_GETTERS, threads=1),
            ),
            *_can_ada_cases(urls, col),
        ],
        "resolve": [
            *threads("arrow.resolve", fa.resolve, bases, refs),
            (
                "resolve_many per page",
                lambda: [fasturi.resolve_many(b, rs) for b, rs in pages.items()],
            ),
        ],
    }


# The getters of whatwg_split's case: those bench_whatwg's "+getters" rows read.
WHATWG_GETTERS = ["href", "host", "pathname", "search", "hash"]


def _can_ada_cases(urls: List[str], col: Any) -> List[Case]:
    """What a user without the column forms runs: a loop over can_ada.parse
    keeping each href (None where it fails), on a list in hand, and as the
    round trip from and back to a column."""
    try:
        import can_ada
    except ImportError:
        return []

    def hrefs(rows: List[str]) -> List[Any]:
        out = []
        for u in rows:
            try:
                out.append(can_ada.parse(u).href)
            except ValueError:
                out.append(None)
        return out

    return [
        ("can_ada loop", lambda: hrefs(urls)),
        (
            "column -> list -> can_ada loop -> column",
            lambda: pa.array(hrefs(col.to_pylist()), type=pa.string()),
        ),
    ]


def _rows(op: str, corpus: Corpus) -> int:
    return len(corpus.refs) if op == "resolve" else len(corpus.urls)


def time_interleaved(group: List[Case], rounds: int = ROUNDS) -> Dict[str, float]:
    """Median seconds of each case, the rounds of all cases interleaved."""
    times: Dict[str, List[float]] = {name: [] for name, _ in group}
    for _name, fn in group:  # warm up
        fn()
    for _ in range(rounds):
        for name, fn in group:
            gc.collect()
            started = time.perf_counter()
            fn()
            times[name].append(time.perf_counter() - started)
    return {name: statistics.median(t) for name, t in times.items()}


def peak_rss_growth(op: str, threads: int = 1) -> float:
    """In a fresh process: the call's peak RSS growth over its result's
    buffers (1.0 = no more memory than the result itself)."""
    code = f"""
import resource, pyarrow as pa, fasturi.arrow as fa, sys
sys.path.insert(0, {HERE!r})
from corpus import Corpus
col = pa.array(Corpus().urls * 8, type=pa.string())
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
out = fa.{op}(col, threads={threads})
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) * 1024 / out.nbytes)
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return float(done.stdout)


def main() -> None:
    corpus = Corpus()
    print(
        f"{len(corpus.urls)} URLs, {len(corpus.refs)} references; median of {ROUNDS} rounds, "
        "interleaved; ratio = case time / arrow threads=1\n"
    )
    print("| operation | case | ns/URL | ratio |")
    print("|---|---|---:|---:|")
    for op, group in cases(corpus).items():
        medians = time_interleaved(group)
        rows = _rows(op, corpus)
        ref = medians[group[0][0]]
        for name, _ in group:
            print(
                f"| {op} | {name} | {medians[name] / rows * 1e9:.1f} | {medians[name] / ref:.2f} |"
            )
    print("\n| operation | peak RSS growth / result buffers, threads=1 | threads=2 |")
    print("|---|---:|---:|")
    for op in ("split", "normalize", "canonicalize", "is_valid"):
        print(f"| {op} | {peak_rss_growth(op):.2f} | {peak_rss_growth(op, 2):.2f} |")


# ---- pytest-benchmark ----------------------------------------------------------


def _params() -> List[Tuple[str, int]]:
    return [
        (op, i)
        for op, n in (
            ("split", 7),
            ("normalize", 4),
            ("canonicalize", 4),
            ("is_valid", 4),
            ("whatwg", 6),
            ("resolve", 3),
        )
        for i in range(n)
    ]


def bench_arrow(benchmark: Any, corpus: Corpus, op_index: Tuple[str, int]) -> None:
    op, i = op_index
    group = cases(corpus)[op]
    if i >= len(group):
        pytest.skip("can_ada is not installed")
    name, fn = group[i]
    benchmark.group = f"arrow-{op}"
    benchmark.extra_info.update(group=f"arrow-{op}", peer=name, case=name, items=_rows(op, corpus))
    benchmark.pedantic(fn, rounds=ROUNDS, warmup_rounds=1)


def pytest_generate_tests(metafunc: Any) -> None:
    if "op_index" in metafunc.fixturenames:
        metafunc.parametrize("op_index", _params(), ids=[f"{o}-{i}" for o, i in _params()])


if __name__ == "__main__":
    main()
