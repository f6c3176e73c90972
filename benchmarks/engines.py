"""The engine paths of docs/reference.md §7 against each engine's own way to do the same.

    python benchmarks/engines.py                      # every engine, 3,000,000 rows
    python benchmarks/engines.py --rows 1000000 --engines duckdb,polars
    python benchmarks/engines.py --spark-differences diffs.tsv

Input: the corpus's URLs (see corpus.py) repeated to ``--rows`` rows, written
once as a Parquet file into a cache directory (``FASTURI_BENCH_CACHE``, else
``fasturi-bench`` in the system's temp directory) and reused; never committed.
Each case is the best of ``--rounds`` wall-clock runs (the engines run on
several threads or processes, so CPU time of this process would miss work),
after one untimed warm-up run.  The pairs:

- duckdb:  ``uri_host(url)`` over ``read_parquet``, alone
  (``sum(length(...))``) and with ``GROUP BY``, on one DuckDB thread: the
  extension (``fasturi.duckdb.connect()``) against the same query with
  ``regexp_extract`` and an RFC 3986 Appendix B host regex, against the
  Arrow UDF path (a connection that cannot load the extension), and against
  an Arrow UDF that returns its input (what any Python function costs in
  DuckDB); then each on two threads against one;
- spark:   ``fasturi.spark.with_uri_columns(df, "url", ["host", "path",
  "query"])`` against ``parse_url(url, 'HOST' | 'PATH' | 'QUERY')`` on the
  same DataFrame (``local[2]``), both written to Spark's ``noop`` sink;
- polars:  ``pl.col("url").uri.split()`` and ``.uri.host()`` as plugin
  expressions against the Python path (``map_batches`` over fasturi.arrow,
  what runs where there is no plugin) and against ``str.extract_groups``
  with the Appendix B regex (``str.extract`` with the host regex), in the
  streaming engine and in memory, on 1 and on 2 polars threads
  (``POLARS_MAX_THREADS``, each in a process of its own bound to as many
  CPUs); "1 thread / 2" is a case's time on one thread over its time on two;
  each case's CPU time (every thread's) is printed too, and how many CPUs
  it kept busy (CPU time over wall-clock time);
- spark-sql: ``uri_surt`` and ``uri_registrable_domain`` as
  ``fasturi.spark.register`` adds them to Spark SQL, against a Python UDF
  calling ``fasturi.surt`` / ``fasturi.registrable_domain`` a row at a time
  (``local[2]``; rows per second in the JSON);
- pandas:  ``s.uri.normalize()`` against ``s.map(fasturi.normalize)``.

``--spark-differences FILE`` also writes, for every corpus URL where Spark's
``parse_url`` gives NULL or another answer than RFC 3986 for the host, path
or query, one line ``url<TAB>valid|invalid<TAB>component<TAB>rfc3986<TAB>parse_url``
(``valid``: the URL is an RFC 3986 URI-reference; ``None`` stands for NULL).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import Corpus  # noqa: E402

ENGINES = ("duckdb", "spark", "spark-sql", "polars", "pandas")

# RFC 3986 Appendix B, the regular expression the RFC gives for splitting.
APPENDIX_B = r"^(([^:/?#]+):)?(//([^/?#]*))?([^?#]*)(\?([^#]*))?(#(.*))?"
# The host out of Appendix B's authority: after any userinfo "@", up to a
# port's ":" (an IP literal in brackets kept whole).
HOST_REGEX = r"^(?:[^:/?#]+:)?//(?:[^/?#@]*@)?(\[[^\]/?#]*\]|[^:/?#]*)"


def cache_dir() -> Path:
    env = os.environ.get("FASTURI_BENCH_CACHE")
    path = Path(env) if env else Path(tempfile.gettempdir()) / "fasturi-bench"
    path.mkdir(parents=True, exist_ok=True)
    return path


def parquet_file(urls: List[str], rows: int) -> Path:
    """The corpus repeated to ``rows`` rows, as one Parquet file (made once)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = cache_dir() / f"urls-{len(urls)}x-{rows}.parquet"
    if not path.exists():
        repeated = (urls * (rows // len(urls) + 1))[:rows]
        part = path.with_suffix(".part")
        pq.write_table(pa.table({"url": pa.array(repeated, pa.string())}), part)
        part.rename(path)
    return path


def best(
    run: Callable[[], Any], rounds: int, clock: Callable[[], float] = time.perf_counter
) -> float:
    """Best seconds of ``rounds`` runs, after one untimed run: wall-clock, or
    as ``clock`` counts them."""
    run()
    times = []
    for _ in range(max(1, rounds)):
        started = clock()
        run()
        times.append(clock() - started)
    return min(times)


#: ``--cpu``: one-thread DuckDB cases timed in this process's CPU time (every
#: thread's), which a machine shared with other work does not inflate as it
#: does wall-clock time
CPU = False


def bench_duckdb(path: Path, rows: int, rounds: int) -> List[Dict[str, Any]]:
    import warnings

    import duckdb

    import fasturi.duckdb

    source = f"read_parquet('{path}')"
    # the extension (fasturi.duckdb.connect), and a connection that cannot
    # load it, where register() puts every function through Arrow
    native = fasturi.duckdb.connect(config={"threads": 1})
    through_arrow = duckdb.connect(config={"threads": 1})
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        fasturi.duckdb.register(through_arrow)
    # The floor of any Python function in DuckDB: an Arrow UDF that returns
    # its input (DuckDB converts each vector to Arrow and back, under the GIL).
    through_arrow.create_function("identity", lambda col: col, ["VARCHAR"], "VARCHAR", type="arrow")
    regex = f"regexp_extract(url, '{HOST_REGEX}', 1)"
    # the same rows in memory: DuckDB splits a table into row groups of
    # 122,880 rows for its threads (the Parquet file has a few large ones)
    for con in (native, through_arrow):
        con.execute(f"CREATE OR REPLACE TABLE urls AS SELECT url FROM {source}")

    def run(con: Any, sql: str, threads: int) -> float:
        con.execute(f"SET threads = {threads}")

        def go() -> Any:
            return con.execute(sql).fetchall()

        return best(go, rounds, time.process_time if CPU and threads == 1 else time.perf_counter)

    def wall(con: Any, sql: str, threads: int) -> float:
        con.execute(f"SET threads = {threads}")
        return best(lambda: con.execute(sql).fetchall(), rounds)

    def alone(host: str, table: str = source) -> str:
        return f"SELECT sum(length({host})) FROM {table}"

    def grouped(host: str, table: str = source) -> str:
        return f"SELECT {host} AS host, count(*) AS hits FROM {table} GROUP BY host"

    out: List[Dict[str, Any]] = []
    for shape, query in (("sum(length(...))", alone), ("GROUP BY", grouped)):
        ours = run(native, query("uri_host(url)"), 1)
        out += [
            case("duckdb 1 thread", f"native uri_host {shape}", ours, rows),
            case(
                "duckdb 1 thread",
                f"regexp_extract host regex {shape}",
                run(native, query(regex), 1),
                rows,
                ours,
            ),
            case(
                "duckdb 1 thread",
                f"Arrow UDF uri_host {shape} (before the extension)",
                run(through_arrow, query("uri_host(url)"), 1),
                rows,
                ours,
            ),
            case(
                "duckdb 1 thread",
                f"identity Arrow UDF {shape} (any Python UDF's floor)",
                run(through_arrow, query("identity(url)"), 1),
                rows,
                ours,
            ),
        ]
        if shape.startswith("sum"):
            # what the Parquet scan itself costs, and the same functions on
            # a table in memory, where little but them is left
            out.append(case("duckdb 1 thread", "the scan alone: sum(length(url))",
                            run(native, query("url"), 1), rows))  # fmt: skip
            mem = run(native, "SELECT sum(length(uri_host(url))) FROM urls", 1)
            out += [
                case("duckdb 1 thread", f"native uri_host {shape}, table in memory", mem, rows),
                case(
                    "duckdb 1 thread",
                    f"regexp_extract host regex {shape}, table in memory",
                    run(native, f"SELECT sum(length({regex})) FROM urls", 1),
                    rows,
                    mem,
                ),
                case(
                    "duckdb 1 thread",
                    "the table scan alone: sum(length(url)), table in memory",
                    run(native, "SELECT sum(length(url)) FROM urls", 1),
                    rows,
                ),
            ]
        # threads=2 against threads=1 on the table in memory
        # (fasturi_speedup: threads=1 over threads=2), wall-clock both: what
        # a second thread saves is time
        for con, label, host in (
            (native, "native uri_host", "uri_host(url)"),
            (through_arrow, "Arrow UDF uri_host", "uri_host(url)"),
            (native, "regexp_extract", regex),
        ):
            one = wall(con, query(host, "urls"), 1)
            two = wall(con, query(host, "urls"), 2)
            label = f"{label} {shape}, table in memory (× = 1 thread / 2)"
            out.append(case("duckdb 2 threads", label, two, rows))
            out[-1]["fasturi_speedup"] = one / two
    native.close()
    through_arrow.close()
    return out


def _spark_session() -> Any:
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    from pyspark.sql import SparkSession

    return (
        SparkSession.builder.master("local[2]")
        .appName("fasturi-bench")
        .config("spark.ui.enabled", "false")
        .config("spark.driver.memory", "4g")
        # a few-MB Parquet file would be one partition, i.e. one core
        .config("spark.sql.files.maxPartitionBytes", str(8 << 20))
        # parse_url raises on a URL java.net.URI refuses under ANSI mode:
        # the benchmark wants its usual answer, NULL
        .config("spark.sql.ansi.enabled", "false")
        .getOrCreate()
    )


def bench_spark(path: Path, rows: int, rounds: int) -> List[Dict[str, Any]]:
    import warnings

    warnings.simplefilter("ignore", FutureWarning)  # pyspark on pandas 3
    from pyspark.sql import functions as F

    import fasturi.spark as fs

    spark = _spark_session()
    try:
        df = spark.read.parquet(str(path))

        def ours() -> None:
            out = fs.with_uri_columns(df, "url", ["host", "path", "query"])
            out.write.format("noop").mode("overwrite").save()

        def theirs() -> None:
            out = df.select(
                "url",
                *(
                    F.expr(f"parse_url(url, '{part.upper()}')").alias(part)
                    for part in ("host", "path", "query")
                ),
            )
            out.write.format("noop").mode("overwrite").save()

        t_ours = best(ours, rounds)
        t_theirs = best(theirs, rounds)
    finally:
        spark.stop()
    return [
        case("spark", "fasturi.spark.with_uri_columns host,path,query", t_ours, rows),
        case("spark", "parse_url(url, HOST|PATH|QUERY)", t_theirs, rows, t_ours),
    ]


def bench_spark_sql(path: Path, rows: int, rounds: int) -> List[Dict[str, Any]]:
    """``uri_surt`` and ``uri_registrable_domain`` registered by
    ``fasturi.spark.register`` (Arrow UDFs on Spark 4.1+, pandas UDFs before)
    against a plain Python UDF calling the scalar function, one row at a
    time, in Spark SQL over the same file (``local[2]``).  The rows are the
    corpus's but the 39 ``surt`` refuses (a port that is not a number): a
    refused row fails the whole query, on either path."""
    import warnings

    warnings.simplefilter("ignore", FutureWarning)
    import pyarrow.parquet as pq
    from pyspark.sql import functions as F
    from pyspark.sql.types import StringType

    import fasturi
    import fasturi.spark as fs

    def keyable(url: str) -> bool:
        try:
            fasturi.surt(url)
        except ValueError:
            return False
        return True

    urls = [u for u in pq.read_table(path).column("url").to_pylist()[:100_000] if keyable(u)]
    path = parquet_file(sorted(set(urls)), rows)
    spark = _spark_session()
    out: List[Dict[str, Any]] = []
    try:
        fs.register(spark)
        spark.udf.register("py_surt", F.udf(fasturi.surt, StringType()))
        spark.udf.register("py_registrable_domain", F.udf(fasturi.registrable_domain, StringType()))
        spark.read.parquet(str(path)).createOrReplaceTempView("urls")

        def query(func: str) -> Callable[[], Any]:
            return lambda: spark.sql(f"SELECT sum(length({func}(url))) FROM urls").collect()

        for name in ("surt", "registrable_domain"):
            ours = best(query(f"uri_{name}"), rounds)
            theirs = best(query(f"py_{name}"), rounds)
            out += [
                case("spark SQL", f"uri_{name} (fasturi.spark.register)", ours, rows),
                case(
                    "spark SQL", f"Python UDF fasturi.{name}, a row at a time", theirs, rows, ours
                ),  # fmt: skip
            ]
    finally:
        spark.stop()
    for r in out:
        r["rows_per_second"] = rows / r["seconds"]
    return out


def spark_differences(urls: List[str], out: Path) -> Dict[str, int]:
    """Write every URL where parse_url differs from RFC 3986; count per component."""
    import warnings

    warnings.simplefilter("ignore", FutureWarning)
    import pyarrow as pa
    from pyspark.sql import functions as F

    from fasturi import arrow

    spark = _spark_session()
    try:
        df = spark.createDataFrame([(i, u) for i, u in enumerate(urls)], "id long, url string")
        got = (
            df.select(
                "id",
                *(
                    F.expr(f"parse_url(url, '{part.upper()}')").alias(part)
                    for part in ("host", "path", "query")
                ),
            )
            .orderBy("id")
            .collect()
        )
    finally:
        spark.stop()
    column = pa.array(urls, pa.string())
    parts = arrow.split(column, ("host", "path", "query"))
    valid = arrow.is_valid(column).to_pylist()
    counts = {"rows": len(urls), "valid_rows": sum(valid), "all_null": 0, "all_null_valid": 0}
    for part in ("host", "path", "query", "any"):
        counts[part] = counts[part + "_valid"] = 0
    with open(out, "w", encoding="utf-8") as f:
        for i, url in enumerate(urls):
            row = got[i]
            ok = "valid" if valid[i] else "invalid"
            if row["host"] is None and row["path"] is None and row["query"] is None:
                counts["all_null"] += 1
                counts["all_null_valid"] += valid[i]
            differs = False
            for part in ("host", "path", "query"):
                rfc = parts.field(part)[i].as_py()
                if row[part] != rfc:
                    counts[part] += 1
                    counts[part + "_valid"] += valid[i]
                    differs = True
                    f.write(f"{url}\t{ok}\t{part}\t{rfc}\t{row[part]}\n")
            counts["any"] += differs
            counts["any_valid"] += differs and valid[i]
    return counts


#: ``--pairs``: how many times polars' 1- and 2-thread processes are run,
#: in turn; ``--plugin-only``: the plugin's cases alone (for many pairs)
PAIRS = 1
PLUGIN_ONLY = False


def bench_polars(path: Path, rows: int, rounds: int) -> List[Dict[str, Any]]:
    """Each polars case on 1 and on 2 threads: polars sizes its thread pool
    once, from ``POLARS_MAX_THREADS``, so each count runs in a process of
    its own, bound to that many CPUs (where the system allows), so that the
    Python path's kernels (``threads=None``: every CPU it may use) get as
    many as polars does.  With ``--pairs N`` the two processes run N times
    in turn (which goes first alternates): what a second thread saves is
    then the median of the N pairs' ratios, each pair's processes a minute
    or less apart, and each case's time the median of its N bests."""
    import subprocess

    runs: Dict[tuple, List[float]] = {}
    records: Dict[tuple, Dict[str, Any]] = {}
    ratios: Dict[str, List[float]] = {}
    for pair in range(max(1, PAIRS)):
        seconds: Dict[tuple, float] = {}
        for threads in (1, 2) if pair % 2 == 0 else (2, 1):
            env = dict(os.environ, POLARS_MAX_THREADS=str(threads))
            command = [sys.executable, __file__, "--polars-worker", str(threads), str(path)]
            command += ["--rows", str(rows), "--rounds", str(rounds)]
            command += ["--plugin-only"] if PLUGIN_ONLY else []
            done = subprocess.run(command, env=env, check=True, capture_output=True, text=True)
            for line in done.stdout.splitlines():
                record = json.loads(line)
                key = threads, record["case"]
                records.setdefault(key, record)
                runs.setdefault(key, []).append(record["seconds"])
                seconds[key] = record["seconds"]
        for (threads, label), took in seconds.items():
            if threads == 2 and (1, label) in seconds:
                ratios.setdefault(label, []).append(seconds[1, label] / took)
    out: List[Dict[str, Any]] = []
    for (threads, label), record in records.items():
        took = statistics.median(runs[threads, label])
        record.update(seconds=took, ns_per_row=took * 1e9 / rows)
        if threads == 2 and label in ratios:
            # what a second thread saves: time on 1 thread over time on 2
            record["threads_speedup"] = statistics.median(ratios[label])
            record["threads_speedup_pairs"] = ratios[label]
        out.append(record)
    return out


def polars_worker(threads: int, path: Path, rows: int, rounds: int) -> List[Dict[str, Any]]:
    """bench_polars's cases in this process (``POLARS_MAX_THREADS`` set):
    ``uri.split()`` and ``uri.host()`` as plugin expressions, through the
    Python path (``map_batches`` over fasturi.arrow, as where there is no
    plugin) and polars' own regex way, in the streaming engine and in
    memory."""
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, sorted(os.sched_getaffinity(0))[:threads])
    import polars as pl

    import fasturi.polars

    if pl.thread_pool_size() != threads:
        raise SystemExit(f"polars runs {pl.thread_pool_size()} threads, not {threads}")
    if fasturi.polars.plugin_path() is None:
        raise SystemExit("fasturi.polars has no plugin here (built without it?)")
    df = pl.read_parquet(path)
    url = pl.col("url")

    def python_path(build: Callable[[], Any]) -> Any:
        saved, fasturi.polars._PLUGIN = fasturi.polars._PLUGIN, None
        try:
            return build()
        finally:
            fasturi.polars._PLUGIN = saved

    pairs = [
        (
            "uri.split()",
            lambda: url.uri.split(),
            ("str.extract_groups(Appendix B regex)", url.str.extract_groups(APPENDIX_B)),
        ),
        (
            "uri.host()",
            lambda: url.uri.host(),
            ("str.extract(host regex)", url.str.extract(HOST_REGEX, 1)),
        ),
    ]
    out: List[Dict[str, Any]] = []
    label = f"polars {threads} thread{'s' if threads > 1 else ''}"

    def timed(expr: Any, engine: str) -> tuple:
        # best wall-clock and best CPU time (every thread's) of the runs: on a
        # machine shared with other work, CPU time is what the query cost,
        # and CPU time over wall-clock time how many CPUs it kept busy
        def go() -> Any:
            return df.lazy().select(expr).collect(engine=engine)

        go()
        walls, cpus = [], []
        for _ in range(max(1, rounds)):
            wall, cpu = time.perf_counter(), time.process_time()
            go()
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
        return min(walls), min(cpus)

    def record(what: str, took: tuple, ours: Optional[tuple] = None) -> Dict[str, Any]:
        r = case(label, what, took[0], rows, None if ours is None else ours[0])
        r["cpu_ns_per_row"] = took[1] * 1e9 / rows
        r["cpu_speedup"] = None if ours is None else took[1] / ours[1]
        return r

    for name, build, (regex_name, regex) in pairs:
        for engine in ("streaming", "in-memory"):
            ours = timed(build(), engine)
            if PLUGIN_ONLY:
                out.append(record(f"{name} plugin, {engine}", ours))
                continue
            python = timed(python_path(build), engine)
            out += [
                record(f"{name} plugin, {engine}", ours),
                record(f"{name} Python path, {engine}", python, ours),
                record(f"{regex_name}, {engine}", timed(regex, engine), ours),
            ]
    return out


def bench_pandas(path: Path, rows: int, rounds: int) -> List[Dict[str, Any]]:
    import pandas as pd
    import pyarrow.parquet as pq

    import fasturi
    import fasturi.pandas  # noqa: F401

    # pandas' Arrow-backed string dtype, as read_parquet gives it in pandas 3
    s = pq.read_table(path).column("url").to_pandas(types_mapper=pd.ArrowDtype)
    ours = best(lambda: s.uri.normalize(), rounds)
    theirs = best(lambda: s.map(fasturi.normalize), rounds)
    return [
        case("pandas", "s.uri.normalize()", ours, rows),
        case("pandas", "s.map(fasturi.normalize)", theirs, rows, ours),
    ]


def case(
    engine: str, label: str, seconds: float, rows: int, ours: Optional[float] = None
) -> Dict[str, Any]:
    return {
        "engine": engine,
        "case": label,
        "seconds": seconds,
        "ns_per_row": seconds * 1e9 / rows,
        "rows": rows,
        # the engine's own way over fasturi's: how many times faster fasturi is
        "fasturi_speedup": None if ours is None else seconds / ours,
    }


RUNS = {
    "duckdb": bench_duckdb,
    "spark": bench_spark,
    "spark-sql": bench_spark_sql,
    "polars": bench_polars,
    "pandas": bench_pandas,
}


def main(argv: Optional[List[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=3_000_000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--engines", default=",".join(ENGINES))
    parser.add_argument("--spark-rows", type=int, help="rows for Spark (default: --rows)")
    parser.add_argument("--spark-differences", metavar="FILE", type=Path)
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--cpu", action="store_true", help="time DuckDB's one-thread cases in CPU time"
    )
    parser.add_argument(
        "--pairs", type=int, default=1, help="polars: run the 1- and 2-thread processes N times"
    )
    parser.add_argument(
        "--plugin-only", action="store_true", help="polars: the plugin's cases alone"
    )
    parser.add_argument("--polars-worker", nargs=2, metavar=("THREADS", "PARQUET"),
                        help=argparse.SUPPRESS)  # fmt: skip
    args = parser.parse_args(argv)
    global PAIRS, PLUGIN_ONLY
    PAIRS, PLUGIN_ONLY = args.pairs, args.plugin_only
    if args.polars_worker:
        threads, path = args.polars_worker
        for r in polars_worker(int(threads), Path(path), args.rows, args.rounds):
            print(json.dumps(r))
        return 0
    global CPU
    CPU = args.cpu

    import fasturi

    urls = Corpus().urls
    engines = [e for e in args.engines.split(",") if e]
    for e in engines:
        if e not in RUNS:
            parser.error(f"unknown engine {e!r}; choose from {', '.join(ENGINES)}")
    records: List[Dict[str, Any]] = []
    for engine in engines:
        rows = args.spark_rows if engine == "spark" and args.spark_rows else args.rows
        records += RUNS[engine](parquet_file(urls, rows), rows, args.rounds)
    diffs = None
    if args.spark_differences:
        diffs = spark_differences(urls, args.spark_differences)

    if args.json:
        for r in records:
            print(json.dumps(r))
        if diffs:
            print(json.dumps({"spark_parse_url_differences": diffs}))
        return 0
    clock = "wall-clock runs"
    if CPU:
        clock = "runs, wall-clock (DuckDB's one-thread cases: CPU time of the process)"
    print(
        f"fasturi {fasturi.__version__} ({fasturi.IMPLEMENTATION}); {len(urls):,} corpus URLs "
        f"repeated; best of {args.rounds} {clock}"
    )
    print()
    print("| engine | case | rows | s | ns/row | fasturi × faster | 1 thread / 2 |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for r in records:
        speedup = "" if r["fasturi_speedup"] is None else f"{r['fasturi_speedup']:.1f}×"
        scaling = r.get("threads_speedup")
        scaling = "" if scaling is None else f"{scaling:.2f}×"
        print(
            f"| {r['engine']} | {r['case']} | {r['rows']:,} | {r['seconds']:.2f} | "
            f"{r['ns_per_row']:,.0f} | {speedup} | {scaling} |"
        )
    cpu = [r for r in records if "cpu_ns_per_row" in r]
    if cpu:
        print()
        print("CPU time (every thread's) of the same runs; CPUs busy = CPU time / wall-clock:")
        print()
        print("| engine | case | CPU ns/row | fasturi × less CPU | CPUs busy |")
        print("|---|---|---:|---:|---:|")
        for r in cpu:
            less = "" if r["cpu_speedup"] is None else f"{r['cpu_speedup']:.1f}×"
            busy = r["cpu_ns_per_row"] / r["ns_per_row"]
            print(
                f"| {r['engine']} | {r['case']} | {r['cpu_ns_per_row']:,.0f} | {less} | "
                f"{busy:.2f} |"
            )
    if diffs:
        print()
        print(f"Spark parse_url against RFC 3986 on the corpus: {diffs}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
