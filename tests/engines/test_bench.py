"""`fasturi bench` times the column functions and every installed engine path."""

from __future__ import annotations

import json
import subprocess
import sys

import matplotlib  # noqa: F401  (--plot needs it: installed with the engines in CI)


def bench(*args):
    proc = subprocess.run(
        [sys.executable, "-m", "fasturi", "bench", "--rounds", "1", *args],
        capture_output=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr.decode()
    return proc.stdout.decode()


def test_columns_and_engines_are_timed():
    records = [json.loads(line) for line in bench("--json").splitlines()]
    rows = {(r["operation"], r["implementation"]) for r in records}
    for op in ("split", "normalize", "canonicalize", "is_valid", "resolve"):
        assert (op, f"fasturi.arrow.{op}") in rows
    for row in (
        ("split", "polars .uri.split()"),
        ("split", "polars str.extract_groups"),
        ("split", "duckdb uri_host GROUP BY"),
        ("split", "duckdb regexp_extract GROUP BY"),
        ("normalize", "pandas .uri.normalize()"),
        ("normalize", "pandas Series.map"),
        ("normalize", "fasturi.dask.apply normalize"),
    ):
        assert row in rows
    assert all(r["ns_per_item"] > 0 for r in records)
    # grouped by operation, as the table prints them
    ops = [r["operation"] for r in records]
    assert ops == sorted(ops, key=ops.index)


def test_plot(tmp_path):
    out = tmp_path / "bench.png"
    text = bench("--ops", "normalize,is_valid", "--plot", str(out))
    assert "fasturi.arrow.normalize" in text
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert out.stat().st_size > 10_000
