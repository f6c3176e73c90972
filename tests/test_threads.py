"""The compiled core shares no mutable state: many threads calling every
public function at once get exactly the single-threaded results."""

from __future__ import annotations

import sys
from concurrent.futures import ThreadPoolExecutor

from public_calls import CALLS, call, inputs


def _all_results():
    return {(name, i): call(name, a) for name in CALLS for i, a in enumerate(inputs(name))}


def test_threads_get_single_threaded_results():
    want = _all_results()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as possible
    try:
        with ThreadPoolExecutor(max_workers=6) as pool:
            got = list(pool.map(lambda _: _all_results(), range(24)))
    finally:
        sys.setswitchinterval(old)
    for result in got:
        assert result == want
