"""fasturi's functions in DuckDB, polars and fasturi.arrow beside ClickHouse's
URL functions (chdb), per row, net of reading the column.

    pip install 'fasturi[clickhouse]'       # chdb, about 0.5 GB
    python benchmarks/clickhouse.py                   # 2,000,000 rows
    python benchmarks/clickhouse.py --rows 500000 --rounds 3 --json out.json

Input: the corpus's URLs (see corpus.py) repeated to ``--rows`` rows in one
Parquet file (engines.py's, made once in its cache folder).  Every engine
reads that file.  The operations, and what each engine calls:

==================  ==============================  ======================  ==========================
operation           ClickHouse                      DuckDB (the extension)  polars plugin, fasturi.arrow
==================  ==============================  ======================  ==========================
host                ``domain(url)``                 ``uri_host(url)``       ``.uri.host()``, ``host``
registrable domain  ``cutToFirstSignificantSubdomain``  ``uri_registrable_domain``  ``registrable_domain``
path                ``path(url)``                   ``uri_path(url)``       ``.uri.path()``, ``path``
query parameter     ``extractURLParameter(url, 'id')``  ``uri_query_param(url, 'id', false)``  ``query_param(name='id', decode=False)``
==================  ==============================  ======================  ==========================

(``extractURLParameter`` returns the value as written, so fasturi's is
asked for ``decode=False``; ClickHouse's registrable domain reads its own
TLD list, fasturi's the Public Suffix List.)

Each case is one query that reads the file and sums the result's length
(``sum(length(f(url)))``, ``.str.len_bytes().sum()``, ``pc.binary_length``):
every row is computed, one number comes back.  "Net" is the case's time
less the same engine's scan alone (``sum(length(url))``, read the same way),
divided by the rows: what the function costs a row.

One thread: each engine limited to one (ClickHouse's ``max_threads=1``,
DuckDB's ``threads``, ``POLARS_MAX_THREADS`` in a process of its own,
fasturi.arrow's ``threads=1``), timed in CPU time (the process's, every
thread's: a busy machine slows it far less than wall-clock time), the
median of ``--rounds`` runs after a warm-up.  Two threads: the same cases
on two, wall-clock, against one thread's wall-clock: "x" is one thread's
time over two threads' (net of each count's scan), which needs two idle
cores to mean anything.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import Corpus  # noqa: E402
from engines import parquet_file  # noqa: E402

OPERATIONS = ("host", "registrable domain", "path", "query parameter")
#: the parameter looked up (the corpus's most common key but two)
NAME = "id"


def timed(run: Callable[[], Any], rounds: int) -> Dict[str, float]:
    """Median seconds of ``rounds`` runs after one untimed run: CPU time
    (the process's, every thread's) and wall-clock time."""
    run()
    cpu, wall = [], []
    for _ in range(max(1, rounds)):
        c, w = time.process_time(), time.perf_counter()
        run()
        cpu.append(time.process_time() - c)
        wall.append(time.perf_counter() - w)
    return {"cpu": statistics.median(cpu), "wall": statistics.median(wall)}


# ---- the engines: (operation -> runner), and the scan's runner ---------------------


def clickhouse(path: Path, threads: int) -> Tuple[Callable, Dict[str, Callable]]:
    from chdb import session

    s = session.Session()
    source = f"file('{path}', Parquet)"
    settings = f"SETTINGS max_threads = {threads}"

    def query(expr: str) -> Callable[[], Any]:
        return lambda: s.query(f"SELECT sum(length({expr})) FROM {source} {settings}", "CSV")

    return query("url"), {
        "host": query("domain(url)"),
        "registrable domain": query("cutToFirstSignificantSubdomain(url)"),
        "path": query("path(url)"),
        "query parameter": query(f"extractURLParameter(url, '{NAME}')"),
    }


def duckdb(path: Path, threads: int) -> Tuple[Callable, Dict[str, Callable]]:
    import fasturi.duckdb

    con = fasturi.duckdb.connect(config={"threads": threads})
    source = f"read_parquet('{path}')"

    def query(expr: str) -> Callable[[], Any]:
        return lambda: con.execute(f"SELECT sum(length({expr})) FROM {source}").fetchall()

    return query("url"), {
        "host": query("uri_host(url)"),
        "registrable domain": query("uri_registrable_domain(url)"),
        "path": query("uri_path(url)"),
        "query parameter": query(f"uri_query_param(url, '{NAME}', false)"),
    }


def polars(path: Path, threads: int) -> Tuple[Callable, Dict[str, Callable]]:
    # (POLARS_MAX_THREADS is read when polars is imported: see polars_child)
    import polars as pl

    import fasturi.polars  # noqa: F401

    assert pl.thread_pool_size() == threads, (pl.thread_pool_size(), threads)
    url = pl.col("url")

    def query(expr: Any) -> Callable[[], Any]:
        q = pl.scan_parquet(path).select(expr.str.len_bytes().sum())
        return lambda: q.collect()

    return query(url), {
        "host": query(url.uri.host()),
        "registrable domain": query(url.uri.registrable_domain()),
        "path": query(url.uri.path()),
        "query parameter": query(url.uri.query_param(NAME, decode=False)),
    }


def arrow(path: Path, threads: int) -> Tuple[Callable, Dict[str, Callable]]:
    import pyarrow.compute as pc
    import pyarrow.parquet as pq

    import fasturi.arrow as fa

    def query(func: Optional[Callable[[Any], Any]]) -> Callable[[], Any]:
        # (binary_length reads the offsets alone: utf8_length, reading
        # every byte, cost the scan more than the functions' short results)
        def go() -> Any:
            col = pq.read_table(path, columns=["url"], use_threads=threads > 1).column(0)
            out = col if func is None else func(col)
            return pc.sum(pc.binary_length(out))

        return go

    return query(None), {
        "host": query(lambda c: fa.host(c, threads=threads)),
        "registrable domain": query(lambda c: fa.registrable_domain(c, threads=threads)),
        "path": query(lambda c: fa.path(c, threads=threads)),
        "query parameter": query(lambda c: fa.query_param(c, NAME, decode=False, threads=threads)),
    }


ENGINES: Dict[str, Callable[[Path, int], Tuple[Callable, Dict[str, Callable]]]] = {
    "clickhouse": clickhouse,
    "duckdb": duckdb,
    "polars": polars,
    "fasturi.arrow": arrow,
}


def measure(engine: str, path: Path, rows: int, threads: int, rounds: int) -> Dict[str, Any]:
    """{"scan": times, operation: times, ...} for one engine and thread
    count (``timed``'s times)."""
    if hasattr(os, "sched_setaffinity"):  # (as many CPUs as threads)
        os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:threads])
    scan, cases = ENGINES[engine](path, threads)
    out = {"scan": timed(scan, rounds)}
    for op, run in cases.items():
        out[op] = timed(run, rounds)
    return out


def child(engine: str, path: Path, rows: int, threads: int, rounds: int) -> Dict[str, Any]:
    """``measure`` in a process of its own: polars reads its thread count
    once, and every engine's thread pool and CPU affinity stay its own."""
    env = dict(os.environ, POLARS_MAX_THREADS=str(threads))
    command = [sys.executable, __file__, "--child", engine, str(path), str(rows), str(threads),
               str(rounds)]  # fmt: skip
    done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.splitlines()[-1])


def main(argv: Optional[List[str]] = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args and args[0] == "--child":
        engine, path, rows, threads, rounds = args[1:]
        print(json.dumps(measure(engine, Path(path), int(rows), int(threads), int(rounds))))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--threads", default="1,2", help="thread counts, e.g. 1 or 1,2")
    parser.add_argument("--json", type=Path, help="also write the results here")
    opts = parser.parse_args(args)
    path = parquet_file(Corpus().urls, opts.rows)
    results: Dict[str, Dict[int, Dict[str, Any]]] = {}
    for threads in [int(t) for t in opts.threads.split(",")]:
        for engine in opts.engines.split(","):
            try:
                results.setdefault(engine, {})[threads] = child(
                    engine, path, opts.rows, threads, opts.rounds
                )
            except subprocess.CalledProcessError as exc:
                print(f"{engine}, {threads} thread(s): failed\n{exc.stderr}", file=sys.stderr)
    report(results, opts.rows)
    if opts.json:
        opts.json.write_text(json.dumps({"rows": opts.rows, "results": results}, indent=1))
    return 0


def report(results: Dict[str, Dict[int, Dict[str, Any]]], rows: int) -> None:
    def net(r: Dict[str, Any], op: str) -> Optional[float]:
        return None if op not in r else (r[op]["cpu"] - r["scan"]["cpu"]) / rows * 1e9

    print(f"One thread, CPU ns/row net of the scan ({rows:,} rows; scan: the engine's"
          " sum(length(url)))")  # fmt: skip
    engines = [e for e in ENGINES if 1 in results.get(e, {})]
    print("| operation | " + " | ".join(engines) + " |")
    print("|---|" + "---:|" * len(engines))
    for op in ("scan", *OPERATIONS):
        cells = []
        for e in engines:
            r = results[e][1]
            if op == "scan":
                cells.append(f"{r['scan']['cpu'] / rows * 1e9:.0f}")
            else:
                v = net(r, op)
                cells.append("–" if v is None else f"{v:.0f}")
        print(f"| {op} | " + " | ".join(cells) + " |")
    two = [e for e in ENGINES if {1, 2} <= set(results.get(e, {}))]
    if not two:
        return
    print("\nTwo threads against one, wall-clock: one thread's time / two threads',"
          " net of each count's scan (whole query in parentheses)")  # fmt: skip
    print("| operation | " + " | ".join(two) + " |")
    print("|---|" + "---:|" * len(two))
    for op in OPERATIONS:
        cells = []
        for e in two:
            one, both = results[e][1], results[e][2]
            if op not in one:
                cells.append("–")
                continue
            n1 = one[op]["wall"] - one["scan"]["wall"]
            n2 = both[op]["wall"] - both["scan"]["wall"]
            ratio = f"{n1 / n2:.2f}x" if n2 > 0 else "n/a"
            cells.append(f"{ratio} ({one[op]['wall'] / both[op]['wall']:.2f}x)")
        print(f"| {op} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    raise SystemExit(main())
