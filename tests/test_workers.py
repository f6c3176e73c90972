"""The threads the compiled column kernels run their row ranges on: kept
between calls, never waited for by a call, and a forked child (as Spark's
and Dask's workers are) gets threads of its own."""

from __future__ import annotations

import os
import signal
import threading
from concurrent.futures import ThreadPoolExecutor

import pyarrow as pa
import pytest

import fasturi.arrow as arrow
from fasturi import _workers


def test_tasks_run_on_pool_threads_kept_between_calls():
    seen = []
    done = threading.Barrier(3)

    def task():
        seen.append(threading.get_ident())
        done.wait(10)

    _workers.start(task, 2)
    done.wait(10)  # both tasks running at once: the pool has two threads
    pool = _workers._pool
    assert len(set(seen)) == 2 and threading.get_ident() not in seen
    _workers.start(lambda: None, 1)
    assert _workers._pool is pool


def test_calls_sharing_a_busy_pool_all_finish_with_the_right_result():
    # More calls, each asking for more threads than the machine has, than
    # the pool has threads: a call's own thread takes whatever no pool
    # thread gets to, so no call waits on a task stuck behind another's.
    col = pa.array([f"HTTP://Example.COM/{i}/./a/../b?q#f" for i in range(20_000)])
    want = [arrow.normalize(col, threads=1), arrow.split(col, threads=1)]

    def calls(_):
        for _ in range(5):
            assert arrow.normalize(col, threads=4).equals(want[0])
            assert arrow.split(col, threads=3).equals(want[1])
        return True

    with ThreadPoolExecutor(max_workers=6) as callers:
        assert all(callers.map(calls, range(6), timeout=120))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="os.fork is POSIX only")
@pytest.mark.filterwarnings("ignore:This process .* is multi-threaded:DeprecationWarning")
def test_a_forked_child_runs_kernels_on_threads_of_its_own():
    col = pa.array([f"HTTP://Example.COM/{i}/./a/../b?q#f" for i in range(10_000)])
    want = arrow.normalize(col, threads=1)
    assert arrow.normalize(col, threads=2).equals(want)  # the parent's pool exists
    pid = os.fork()
    if pid == 0:  # the child: exit status 0 only when its two threads agree
        signal.alarm(60)  # a deadlock ends the child rather than the test run
        ok = False
        try:
            ok = arrow.normalize(col, threads=2).equals(want)
        finally:
            os._exit(0 if ok else 1)
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


@pytest.mark.compiled
def test_helpers_started_by_a_call_that_then_fails_go_home(monkeypatch):
    # Whatever a call raises after starting its pool threads, they are let
    # go: the pool serves the next call.
    col = pa.array([f"HTTP://Example.COM/{i}/./a" for i in range(5000)])
    start = _workers.start

    def start_then_fail(task, count):
        start(task, count)
        raise MemoryError("no more threads")

    monkeypatch.setattr(_workers, "start", start_then_fail)
    with pytest.raises(MemoryError, match="no more threads"):
        arrow.normalize(col, threads=2)
    monkeypatch.undo()
    # every pool thread is free: as many tasks as it has all run at once
    size = _workers._size
    together = threading.Barrier(size)
    futures = [_workers._pool.submit(together.wait, 10) for _ in range(size)]
    for f in futures:
        f.result(timeout=20)
    assert arrow.normalize(col, threads=2).equals(arrow.normalize(col, threads=1))
