"""A query parameter by name, the query's fields, the path's levels and
extension, remove_params and subdomain over a column: fasturi.arrow against
ClickHouse (chdb), one thread, and fasturi.arrow on two threads against one.

    python benchmarks/bench_query.py                  # 2,000,000 rows
    python benchmarks/bench_query.py --rows 500000 --rounds 5
    python benchmarks/bench_query.py --only path_hierarchy
    python -m pytest benchmarks -k query              # 200,000 rows, pytest-benchmark

Input: the corpus's URLs (see corpus.py) repeated to ``--rows`` rows: a
pyarrow ``string`` column for fasturi.arrow, and the same rows in a
ClickHouse ``Memory`` table of a chdb session (``pip install chdb``, about
0.5 GB; without it the ClickHouse rows are left out).  Each case is the
median of ``--rounds`` runs, the rounds of every case interleaved, so a busy
machine slows every case alike.

One-thread costs are CPU time (the whole process's, every thread's: what
a case cost, whatever else the machine runs); the two-thread speed-up is
wall-clock time, which needs two idle cores to mean anything, and also
threads=1's CPU time over the busier of the two threads' (what two idle
cores would give, less the wait for the pool thread to start: it gives
split 1.56x where the quiet machine measured 1.55x).

"Net" takes the cost of reading the column off: for fasturi.arrow the time
of ``pyarrow.compute.utf8_length`` (which reads every row once), for
ClickHouse that of ``SELECT sum(length(url))`` over the same table (every
ClickHouse case is ``SELECT sum(length(f(url)))``, so that it computes
``f`` on every row and returns one number), both on one thread.

The ClickHouse functions are the nearest it has: ``extractURLParameter``
(the value as written: fasturi's ``decode=False``; its default decodes),
``extractURLParameters`` (``key=value`` strings, undecoded), ``cutURLParameter``
(one name, no globs), ``URLPathHierarchy``, a regular expression on
``path(url)`` for the extension, and ``cutToFirstSignificantSubdomain``
(its registrable domain, by its own TLD list) for ``subdomain``.
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

import pyarrow as pa
import pyarrow.compute as pc

import fasturi.arrow as fa

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import Corpus  # noqa: E402

#: the parameter looked up: the corpus's most common key but two (2,409
#: of its 80,326 URLs have it; 8,172 have a query at all)
NAME = "id"

Case = Tuple[str, Callable[[], Any]]


def column(rows: int) -> pa.Array:
    urls = Corpus().urls
    whole = (urls * (rows // len(urls) + 1))[:rows]
    return pa.array(whole, type=pa.string())


def clickhouse(cols: Dict[str, pa.Array]) -> Optional[Callable[[str, str], Callable[[], Any]]]:
    """A function making a ClickHouse case of an expression over ``url`` in
    one of the tables ``cols`` names (None without chdb): the rows in
    Memory tables of one session."""
    try:
        from chdb import session
    except ImportError:
        return None
    sess = session.Session()
    for name, col in cols.items():
        sess.query(f"CREATE TABLE {name} (url String) ENGINE = Memory")
        table = pa.table({"url": col})  # noqa: F841  (chdb's Python() reads it by name)
        sess.query(f"INSERT INTO {name} SELECT url FROM Python(table)")
        count = sess.query(f"SELECT count() FROM {name}", "CSV").bytes().decode().strip()
        assert int(count) == len(col), count

    def case(expr: str, table: str) -> Callable[[], Any]:
        sql = f"SELECT sum(length({expr})) FROM {table} SETTINGS max_threads = 1"
        return lambda: sess.query(sql, "CSV")

    case.session = sess  # type: ignore[attr-defined]  # (kept alive with the cases)
    return case


def groups(col: pa.Array) -> Dict[str, List[Case]]:
    # the rows that have a query, as many: what a query parameter costs
    # where every row has one to look through
    queried = pc.filter(col, pc.match_substring(col, "?"))
    queried = pa.concat_arrays([queried] * (len(col) // max(len(queried), 1) + 1))[: len(col)]
    ch = clickhouse({"urls": col, "queried": queried})

    def both(name: str, fn: Callable[..., Any], *args: Any, **kw: Any) -> List[Case]:
        return [
            (f"fasturi.arrow.{name} threads=1", lambda: fn(col, *args, threads=1, **kw)),
            (f"fasturi.arrow.{name} threads=2", lambda: fn(col, *args, threads=2, **kw)),
        ]

    def theirs(label: str, expr: str, table: str = "urls") -> List[Case]:
        return [] if ch is None else [(f"ClickHouse {label}", ch(expr, table))]

    def floors(rows: pa.Array, table: str) -> List[Case]:
        return [
            ("floor: pc.utf8_length", lambda: pc.utf8_length(rows)),
            *theirs("floor: sum(length(url))", "url", table),
        ]

    return {
        "floor": floors(col, "urls"),
        "floor, rows with a query": floors(queried, "queried"),
        "query_param": [
            *both("query_param", fa.query_param, NAME),
            (
                "fasturi.arrow.query_param decode=False threads=1",
                lambda: fa.query_param(col, NAME, decode=False, threads=1),
            ),
            *theirs("extractURLParameter", f"extractURLParameter(url, '{NAME}')"),
        ],
        "query_param, rows with a query": [
            (
                "fasturi.arrow.query_param threads=1",
                lambda: fa.query_param(queried, NAME, threads=1),
            ),
            (
                "fasturi.arrow.query_param threads=2",
                lambda: fa.query_param(queried, NAME, threads=2),
            ),
            (
                "fasturi.arrow.query_param decode=False threads=1",
                lambda: fa.query_param(queried, NAME, decode=False, threads=1),
            ),
            *theirs("extractURLParameter", f"extractURLParameter(url, '{NAME}')", "queried"),
        ],
        "query_params": [
            *both("query_params", fa.query_params),
            (
                "fasturi.arrow.query_params decode=False threads=1",
                lambda: fa.query_params(col, decode=False, threads=1),
            ),
            *theirs("extractURLParameters", "extractURLParameters(url)"),
        ],
        "remove_params": [
            *both("remove_params", fa.remove_params, [NAME]),
            *theirs("cutURLParameter", f"cutURLParameter(url, '{NAME}')"),
        ],
        "path_hierarchy": [
            *both("path_hierarchy", fa.path_hierarchy),
            *theirs("URLPathHierarchy", "URLPathHierarchy(url)"),
        ],
        "path_extension": [
            *both("path_extension", fa.path_extension),
            *theirs("extract(path(url), regex)", r"extract(path(url), '[^/.]\\.([^./]*)$')"),
        ],
        "subdomain": [
            *both("subdomain", fa.subdomain),
            *theirs("cutToFirstSignificantSubdomain", "cutToFirstSignificantSubdomain(url)"),
        ],
    }


def time_interleaved(group: List[Case], rounds: int) -> Dict[str, Tuple[float, float, float]]:
    """Median (wall-clock, CPU, busiest thread's CPU) seconds of each case,
    the rounds of all cases interleaved.  CPU time is the whole process's
    (every thread's): on a machine other work shares, a one-thread case's
    CPU time is what it cost, its wall-clock time also what it waited.  The
    busiest thread's is the larger of the calling thread's and the rest's
    (a two-thread case's other thread is the pool's)."""
    times: Dict[str, List[Tuple[float, float, float]]] = {name: [] for name, _ in group}
    for _name, fn in group:  # warm up
        fn()
    for _ in range(rounds):
        for name, fn in group:
            gc.collect()
            wall, cpu, mine = time.perf_counter(), time.process_time(), time.thread_time()
            fn()
            mine = time.thread_time() - mine
            cpu = time.process_time() - cpu
            times[name].append((time.perf_counter() - wall, cpu, max(mine, cpu - mine)))
    return {
        name: (
            statistics.median(w for w, _, _ in t),
            statistics.median(c for _, c, _ in t),
            statistics.median(b for _, _, b in t),
        )
        for name, t in times.items()
    }


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument(
        "--only", default="", help="comma-separated functions (query_param, path_hierarchy, ...)"
    )
    args = parser.parse_args(argv)
    col = column(args.rows)
    cases = groups(col)
    if args.only:
        wanted = set(args.only.split(","))
        cases = {
            op: g for op, g in cases.items() if op.startswith("floor") or op.split(",")[0] in wanted
        }
    # the floors are timed beside every group, so that each net figure has
    # the floors of its own rounds (and of its own rows)
    floors_of = {
        "": cases.pop("floor"),
        ", rows with a query": cases.pop("floor, rows with a query"),
    }
    print(
        f"{args.rows:,} rows ({col.nbytes / 1e6:.0f} MB); median of {args.rounds} rounds, "
        "interleaved.  ns/row of CPU time (every thread's), net of its engine's floor;\n"
        "wall-clock ns/row; for threads=2 the speed-up over threads=1, wall-clock, and as\n"
        "threads=1's CPU time over the busier thread's (what two idle cores would give)\n"
    )
    print("| function | case | CPU ns/row | net | wall ns/row | speed-up | by CPU |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for op, group in cases.items():
        floors = floors_of[", rows with a query" if op.endswith("rows with a query") else ""]
        medians = time_interleaved(floors + group, args.rounds)
        wall = {name: w / args.rows * 1e9 for name, (w, _, _) in medians.items()}
        cpu = {name: c / args.rows * 1e9 for name, (_, c, _) in medians.items()}
        busiest = {name: b / args.rows * 1e9 for name, (_, _, b) in medians.items()}
        for name, _ in floors + group:
            floor_name = floors[-1][0] if name.startswith("ClickHouse") else floors[0][0]
            net = "" if "floor" in name else f"{cpu[name] - cpu[floor_name]:.1f}"
            speedup = by_cpu = ""
            if name.endswith("threads=2"):
                one = name[: -len("2")] + "1"
                speedup = f"{wall[one] / wall[name]:.2f}x"
                by_cpu = f"{cpu[one] / busiest[name]:.2f}x"
            print(
                f"| {op} | {name} | {cpu[name]:.1f} | {net} | {wall[name]:.1f} "
                f"| {speedup} | {by_cpu} |"
            )
    return 0


# ---- pytest-benchmark (python -m pytest benchmarks -k query) -----------------------

#: the rows of the pytest-benchmark cases (the command line's --rows, smaller)
BENCH_ROWS = 200_000
_GROUPS: Dict[str, List[Case]] = {}


def _group(op: str) -> List[Case]:
    if not _GROUPS:
        _GROUPS.update(groups(column(BENCH_ROWS)))
    return _GROUPS[op]


def _params() -> List[Tuple[str, int]]:
    # every case the command line times but the floors: fasturi's, then
    # ClickHouse's where chdb is installed
    import importlib.util

    clickhouse = importlib.util.find_spec("chdb") is not None
    ours = {"query_param": 3, "query_params": 3, "remove_params": 2, "path_hierarchy": 2}
    ours.update(path_extension=2, subdomain=2)
    return [(op, i) for op, n in ours.items() for i in range(n + clickhouse)]


def bench_query(benchmark: Any, op_index: Tuple[str, int]) -> None:
    op, i = op_index
    name, fn = _group(op)[i]
    benchmark.group = f"query-{op}"
    benchmark.extra_info.update(group=f"query-{op}", peer=name, case=name, items=BENCH_ROWS)
    benchmark.pedantic(fn, rounds=5, warmup_rounds=1)


def pytest_generate_tests(metafunc: Any) -> None:
    if "op_index" in metafunc.fixturenames:
        metafunc.parametrize("op_index", _params(), ids=[f"{o}-{i}" for o, i in _params()])


if __name__ == "__main__":
    sys.exit(main())
