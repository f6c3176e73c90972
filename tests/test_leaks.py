"""No public function leaks memory or references, on inputs that succeed and
inputs that raise.

The test run is bounded (FASTURI_LEAK_CALLS rounds over the ~10 inputs of
each function: 1,000 on the compiled core, 200 on the reference, which has
no C code to leak); the full check runs a million calls per function:

    FASTURI_LEAK_CALLS=100000 python -m pytest tests/test_leaks.py
"""

from __future__ import annotations

import gc
import os
import sys
import tracemalloc

import pytest
from public_calls import CALLS, call, inputs

import fasturi  # noqa: E402
import fasturi.parse

# (a minute and more: the wheels' quick profile leaves it to CI's runs of every
# interpreter)
pytestmark = pytest.mark.slow

ROUNDS = int(
    os.environ.get("FASTURI_LEAK_CALLS", "1000" if fasturi.IMPLEMENTATION == "compiled" else "200")
)


@pytest.mark.parametrize("name", sorted(CALLS))
def test_repeated_calls_do_not_grow_memory(name):
    args = inputs(name)
    # The split caches hold inputs as keys, and which they hold moves with
    # their history (a key is kept from its second use, if the hashes of
    # other keys have not pushed it out of the table of keys seen once):
    # references are counted with the caches emptied, so what stays is a
    # leak; memory is measured with them warm.
    for a in args:
        call(name, a)
    fasturi.parse.clear_cache()
    gc.collect()
    # Shared singletons ("" and interned text) are referenced from all over
    # the interpreter; only private inputs have a refcount to watch.
    watched = [a for a in args if sys.getrefcount(a) < 100]
    refcounts = [sys.getrefcount(a) for a in watched]
    for a in args + args:  # warm caches; urlsplit's keeps a key from its second use
        call(name, a)
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(ROUNDS):
            for a in args:
                call(name, a)
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    # One leaked object per call would be >= 40 bytes x ROUNDS x len(args).
    assert grown < 64 * 1024, f"{name}: {grown} bytes retained after {ROUNDS * len(args)} calls"
    fasturi.parse.clear_cache()
    gc.collect()
    after = [sys.getrefcount(a) for a in watched]
    leaked = [(a, m - n) for a, n, m in zip(watched, refcounts, after) if m > n]
    assert not leaked, f"{name}: input references leaked: {leaked}"
