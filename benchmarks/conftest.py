"""Benchmark harness: the corpus fixture, the timing of one adapter, and the
run's report of what was left out.

A round runs one adapter over its whole input list (``map`` consumed at C
speed, so the loop costs the same for every peer).  Before the timed rounds,
an untimed pass finds the items the peer rejects (they are left out of its
rounds and counted in ``extra_info``) and warms the code up.  Every round
starts with all URL caches cleared, except for adapters marked ``warm``.
"""

from __future__ import annotations

import importlib
import os
import statistics
import time
from typing import Any

import peers
import pytest
from corpus import Corpus

ROUNDS = int(os.environ.get("FASTURI_BENCH_ROUNDS", "5"))
# A case whose untimed pass took longer than this gets 3 rounds (still a
# median of three), so the slowest peers do not dominate the suite's time.
SLOW_ROUND_SECONDS = 4.0

NOT_BUILT: list[str] = []
REJECTED: list[str] = []


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return Corpus()


@pytest.fixture
def measure(benchmark: Any, corpus: Corpus) -> Any:
    def run(adapter: peers.Adapter) -> None:
        benchmark.group = adapter.group
        try:
            fn = adapter.load()
            items = adapter.items(corpus)
            started = time.perf_counter()
            accepted, rejected = peers.precheck(fn, items, adapter.star, adapter.batch)
            first_pass = time.perf_counter() - started
        except peers.NotBuilt as exc:
            what = f"{adapter.group} / {adapter.name}: {exc}"
            NOT_BUILT.append(what)
            pytest.skip(f"not built yet: {what}")
        if not accepted:
            pytest.fail(f"{adapter.name} rejected every one of {len(items)} items: {rejected}")
        if rejected:
            REJECTED.append(
                f"{adapter.group} / {adapter.name}: {sum(rejected.values())} of "
                f"{len(items)} rejected {rejected}"
            )
        benchmark.extra_info.update(
            group=adapter.group,
            peer=adapter.peer,
            variant=adapter.variant,
            case=adapter.name,
            inputs=adapter.inputs if adapter.prepare is None else adapter.group,
            items=adapter.size(accepted),
            input_items=adapter.size(items),
            rejected=rejected,
            corpus=corpus.sizes(),
            warm_caches=adapter.warm,
            batch=adapter.batch,
            note=adapter.note,
        )

        def setup() -> tuple[tuple[list[Any]], dict[str, Any]]:
            if not adapter.warm:
                peers.clear_caches()
            return (accepted,), {}

        rounds = min(ROUNDS, 3) if first_pass > SLOW_ROUND_SECONDS else ROUNDS
        benchmark.pedantic(
            peers.runner(fn, adapter.star, adapter.batch),
            setup=setup,
            rounds=rounds,
            iterations=1,
        )
        for variant, loop in adapter.baselines.items():
            benchmark.extra_info[f"paired_speedup_vs_{variant}"] = paired_speedup(
                loop(), peers.runner(fn, adapter.star, adapter.batch), accepted
            )

    return run


def paired_speedup(base: Any, case: Any, items: list[Any], pairs: int = 2 * ROUNDS + 1) -> float:
    """Median over back-to-back runs of (baseline time / case time).

    Two cases timed minutes apart see different loads on a shared machine,
    and its drift is larger than some margins measured: a batch call saves
    only the per-item call overhead of its loop (a few percent of the work),
    and the drop-in's targets are ratios near 10x to the stdlib.  Each pair
    runs within a second or so, so both see the same load.  Which one runs
    first alternates.  Each side is run once untimed just before its timed
    run, as a round follows a round: the other side's garbage would otherwise
    have evicted its input from the CPU's caches, which costs the faster side
    more.  URL caches are still cleared before the timed run.
    """
    ratios = []
    for k in range(pairs):
        times = {}
        for name, fn in (
            (("base", base), ("case", case)) if k % 2 else (("case", case), ("base", base))
        ):
            fn(items)
            peers.clear_caches()
            started = time.perf_counter()
            fn(items)
            times[name] = time.perf_counter() - started
        ratios.append(times["base"] / times["case"])
    return statistics.median(ratios)


def _fasturi_status() -> list[str]:
    try:
        fasturi = importlib.import_module("fasturi")
    except Exception as exc:  # noqa: BLE001
        return [
            (
                f"fasturi: does not import ({type(exc).__name__}: {exc}); "
                "install it or set PYTHONPATH=src"
            )
        ]
    lines = [
        (
            f"fasturi {getattr(fasturi, '__version__', '?')} from {fasturi.__file__}, "
            f"IMPLEMENTATION={fasturi.IMPLEMENTATION}"
        )
    ]
    built = []
    for stem in ("_core_c", "_rules_c", "_uri_c", "_parse_c"):
        try:
            importlib.import_module("fasturi." + stem)
            built.append(f"{stem}: built")
        except ImportError:
            built.append(f"{stem}: not built")
    lines.append("fasturi compiled modules: " + ", ".join(built))
    return lines


def pytest_report_header(config: Any) -> list[str]:
    try:
        where = str(Corpus().path)
    except FileNotFoundError as exc:
        where = str(exc)
    rounds = f"rounds per case: {ROUNDS} (3 when one pass takes over {SLOW_ROUND_SECONDS:g} s)"
    return [f"corpus: {where}", rounds, *_fasturi_status()]


def pytest_benchmark_update_machine_info(config: Any, machine_info: dict[str, Any]) -> None:
    machine_info["peers"] = peers.peer_versions()
    machine_info["fasturi"] = _fasturi_status()
    machine_info["rounds"] = ROUNDS


def pytest_terminal_summary(terminalreporter: Any) -> None:
    write = terminalreporter
    if peers.NOTES:
        write.section("peers left out or shared")
        for line in peers.NOTES:
            write.line(line)
    if NOT_BUILT:
        write.section("fasturi parts not built yet (not timed)")
        for line in NOT_BUILT:
            write.line(line)
    if REJECTED:
        write.section("inputs rejected (left out of that case's rounds)")
        for line in REJECTED:
            write.line(line)
