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


def run_bench(*args):
    """(exit status, stdout bytes, stderr text) of `fasturi bench ARGS`."""
    proc = subprocess.run(
        [sys.executable, "-m", "fasturi", "bench", *args], capture_output=True, timeout=600
    )
    return proc.returncode, proc.stdout, proc.stderr.decode("utf-8", "replace")


# --plot needs matplotlib, which the bench extra installs: these live here,
# with the tests run where the engines and peers are installed.
def test_bench_plot_is_checked_before_timing(tmp_path):
    for plot, what in (
        (tmp_path / "x.txt", "matplotlib cannot write .txt; use one of"),
        (tmp_path / "x", "matplotlib cannot write a file without an extension"),
        (tmp_path / "missing" / "x.png", f"no folder {tmp_path / 'missing'}"),
    ):
        status, out, err = run_bench("--plot", str(plot))
        assert (status, out) == (2, b"")  # nothing timed, nothing printed
        assert err == f"fasturi bench: --plot {plot}: {what}" + err.split(what, 1)[1]
        assert len(err.splitlines()) == 1 and "Traceback" not in err


def test_bench_plot_is_written_with_a_legend(tmp_path, monkeypatch):
    plot = tmp_path / "bench.svg"
    status, out, err = run_bench("--rounds", "1", "--ops", "split", "--plot", str(plot))
    assert status == 0 and plot.stat().st_size > 0
    assert f"fasturi bench: plot written to {plot}" in err
    from matplotlib.figure import Figure

    from fasturi import _cli_bench

    saved = []
    monkeypatch.setattr(Figure, "savefig", lambda fig, path, **kw: saved.append(fig))
    record = {"operation": "split", "implementation": "fasturi.split", "ns_per_item": 100.0}
    _cli_bench._plot(
        [record, {**record, "implementation": "urllib.parse.urlsplit"}], "x.png", "title", "sub"
    )
    (legend,) = saved[0].legends
    assert [t.get_text() for t in legend.get_texts()] == ["fasturi", "others"]


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
