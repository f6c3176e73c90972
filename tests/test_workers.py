"""The threads the compiled column kernels run their row ranges on: kept
between calls, every range run exactly once, and a forked child (as Spark's
and Dask's workers are) gets threads of its own."""

from __future__ import annotations

import os
import signal
import threading

import pyarrow as pa
import pytest

import fasturi.arrow as arrow
from fasturi import _workers


def test_every_range_runs_once_the_first_on_the_caller():
    seen = []
    lock = threading.Lock()

    def work(j):
        with lock:
            seen.append((j, threading.get_ident()))

    _workers.run(work, 5)
    assert sorted(j for j, _ in seen) == [0, 1, 2, 3, 4]
    assert dict(seen)[0] == threading.get_ident()


def test_a_failing_range_raises_after_every_range_returned():
    done = []
    gate = threading.Event()

    def work(j):
        if j == 1:
            raise RuntimeError("range 1")
        if j == 2:
            gate.wait(5)
        done.append(j)

    def release():
        gate.set()

    timer = threading.Timer(0.05, release)
    timer.start()
    with pytest.raises(RuntimeError, match="range 1"):
        _workers.run(work, 3)
    assert sorted(done) == [0, 2]
    timer.join()


def test_threads_are_kept_between_calls():
    _workers.run(lambda j: None, 2)
    pool = _workers._pool
    _workers.run(lambda j: None, 2)
    assert _workers._pool is pool


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
