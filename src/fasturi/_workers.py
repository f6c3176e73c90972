"""The threads the compiled column kernels run their row ranges on.

Starting a thread costs about 100 µs, as much as a kernel spends on a few
thousand rows, and the engines hand the kernels batches of about that size
(Spark's Arrow batches, a polars frame's chunks): so the threads are started
once, when first needed, and kept.  A forked child (Spark's and Dask's
workers are forked) starts a pool of its own.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Optional

_lock = threading.Lock()
_pool: Optional[ThreadPoolExecutor] = None
_size = 0


def _forget() -> None:
    # The child of a fork has none of its parent's threads, and a lock some
    # parent thread held at the fork would never be released in it.
    global _lock, _pool, _size
    _lock = threading.Lock()
    _pool = None
    _size = 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget)


def _pool_of(count: int) -> ThreadPoolExecutor:
    # The pool, with at least `count` threads.
    global _pool, _size
    with _lock:
        if _pool is None or _size < count:
            if _pool is not None:
                _pool.shutdown(wait=False)
            _size = max(count, (os.cpu_count() or 1) - 1)
            _pool = ThreadPoolExecutor(_size, thread_name_prefix="fasturi")
        return _pool


def start(task: Callable[[], None], count: int) -> None:
    """``task()`` on ``count`` threads of the pool, not waited for.

    The kernels' tasks share their call's work with the calling thread,
    which takes whatever no task has taken: a task that starts late, behind
    another call's, finds nothing left and returns.  (A task holds its call,
    so the call's memory outlives it.)
    """
    pool = _pool_of(count)
    try:
        for _ in range(count):
            pool.submit(task)
    except RuntimeError:  # the interpreter is exiting: the caller does it all
        pass
