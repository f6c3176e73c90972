"""The drop-in's shared state under threads: urlsplit's cache, urljoin's memo
of the last base, and the watch on urllib.parse's module state.

These hold on every build.  With the GIL they hold by construction; without
it (free-threaded CPython) they are what the cache's per-thread tables and
their locks, the atomic counters and the per-thread memo slots are for: no
count lost, no result torn, every answer the single-threaded one, and the
cache on, as the stdlib's lru_cache is there.
"""

from __future__ import annotations

import sys
import sysconfig
import threading
import urllib.parse as std

import pytest

import fasturi.parse as fp

# the stdlib's split past its cache (3.9 and 3.10 have none)
_uncached_split = getattr(std.urlsplit, "__wrapped__", std.urlsplit)

pytestmark = pytest.mark.compiled

THREADS = 8
HAS_CACHE = hasattr(std.urlsplit, "cache_info")
# the most entries the split cache keeps: the stdlib's maxsize with the GIL,
# as many of it as there are threads' tables without it (docs/reference.md)
FREE_THREADED = bool(sysconfig.get_config_var("Py_GIL_DISABLED"))
TABLES = min(THREADS, 16) if FREE_THREADED else 1


@pytest.fixture(autouse=True)
def _fast_switching():
    fp.uninstall()
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # (with the GIL: switch as often as possible)
    yield
    sys.setswitchinterval(old)
    fp.uninstall()


def run_threads(work, n=THREADS):
    """Run work(i) on n threads started together; their results, in order."""
    start = threading.Barrier(n)
    results = [None] * n
    errors = []

    def body(i):
        try:
            start.wait()
            results[i] = work(i)
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=body, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if errors:
        raise errors[0]
    return results


def test_split_cache_counts_every_call():
    if not HAS_CACHE:
        assert not hasattr(fp.urlsplit, "cache_info")  # 3.9, 3.10: no lru_cache
        return
    # more URLs than the cache holds (evictions), then a few repeated within
    # one thread's reach (hits, on a table of its own without the GIL too)
    urls = [f"http://h{i % 50}.example/p/{i % 300}?q={i % 7}" for i in range(3000)]
    urls += [f"http://again.example/{i % 20}" for i in range(200)]
    want = [_uncached_split(u) for u in urls]
    fp.urlsplit.cache_clear()

    def work(i):
        got = [fp.urlsplit(u) for u in urls[i::2] + urls]
        return got == [_uncached_split(u) for u in urls[i::2]] + want

    assert all(run_threads(work))
    info = fp.urlsplit.cache_info()
    calls = sum(len(urls[i::2]) + len(urls) for i in range(THREADS))
    assert info.hits + info.misses == calls
    assert info.hits > 0 and info.currsize <= info.maxsize * TABLES


def test_split_cache_is_on_and_reuses_results():
    if not HAS_CACHE:
        assert not hasattr(fp.urlsplit, "cache_info")
        return
    fp.urlsplit.cache_clear()
    first = fp.urlsplit("http://reuse.example/a")
    second = fp.urlsplit("http://reuse.example/a")
    assert fp.urlsplit("http://reuse.example/a") is second  # kept from its second use
    assert first == second
    assert fp.urlsplit.cache_info()[:2] == (1, 2)

    # and so on every thread: from its second call on (with the GIL, from
    # its first: the threads share the table), each gets one kept result
    kept = run_threads(lambda i: [fp.urlsplit("http://reuse.example/a") for _ in range(200)])
    for results in kept:
        assert all(r is results[-1] for r in results[2:])
        assert all(r == second for r in results)
    info = fp.urlsplit.cache_info()
    assert info.hits + info.misses == 3 + THREADS * 200
    assert info.hits >= 1 + THREADS * 198


def test_split_cache_cleared_while_in_use():
    if not HAS_CACHE:
        assert not hasattr(fp.urlsplit, "cache_info")
        return
    urls = [f"http://c.example/{i % 40}" for i in range(2000)]
    want = [_uncached_split(u) for u in urls]

    def work(i):
        if i == 0:
            for _ in range(200):
                fp.urlsplit.cache_clear()
            return True
        return [fp.urlsplit(u) for u in urls] == want

    assert all(run_threads(work))
    info = fp.urlsplit.cache_info()
    assert 0 <= info.currsize <= info.maxsize * TABLES


def test_urljoin_memo_per_thread():
    # each thread joins the links of its own page: the answers are the
    # stdlib's whatever the others do to the memo
    pages = [f"http://site{i}.example/a/b/c{i}/page?x={i}" for i in range(THREADS)]
    links = ["../up", "./here", "/root", "?q", "#f", "//other/x", "d;p?q#f", "../../.."]
    want = {page: [std.urljoin(page, link) for link in links] for page in pages}

    def work(i):
        ok = True
        for n in range(300):
            page = pages[(i + n // 50) % THREADS]  # now and then another page
            ok &= [fp.urljoin(page, link) for link in links] == want[page]
        return ok

    assert all(run_threads(work))


def test_uses_list_changed_while_joining():
    # another thread extends and restores uses_netloc, and rebinds it: every
    # join gives one of the two answers, never anything else
    base, ref = "foo://a/b/c", "//h/x"
    without = std.urljoin(base, ref)
    std.uses_netloc.append("foo")
    std.uses_relative.append("foo")
    try:
        with_foo = std.urljoin(base, ref)
    finally:
        std.uses_netloc.remove("foo")
        std.uses_relative.remove("foo")
    assert with_foo != without
    saved = std.uses_netloc
    stop = threading.Event()

    def work(i):
        if i == 0:
            try:
                for n in range(2000):
                    if n % 2:
                        std.uses_netloc = [*saved, "foo"]
                    else:
                        std.uses_netloc = saved
                    saved.append("foo")
                    saved.remove("foo")
            finally:
                std.uses_netloc = saved
                stop.set()
            return True
        answers = set()
        while not stop.is_set():
            answers.add(fp.urljoin(base, ref))
            answers.add(fp.urlunsplit(("foo", "", "/p", "", "")))
        return answers

    std.uses_relative.append("foo")
    try:
        results = run_threads(work, 4)
    finally:
        std.uses_relative.remove("foo")
    for answers in results[1:]:
        assert answers <= {without, with_foo, "foo:///p", "foo:/p"}


def test_module_state_changed_while_splitting():
    # scheme_chars rebound and restored by one thread while others split:
    # each answer is the stdlib's under one of the two states
    url = "a_b:c"
    states = {_uncached_split(url)}
    saved = std.scheme_chars
    std.scheme_chars = saved + "_"
    states.add(_uncached_split(url))
    std.scheme_chars = saved
    stop = threading.Event()

    def work(i):
        if i == 0:
            try:
                for _ in range(1000):
                    std.scheme_chars = saved + "_"
                    std.scheme_chars = saved
            finally:
                std.scheme_chars = saved
                stop.set()
            return set()
        seen = set()
        while not stop.is_set():
            seen.add(fp.urlsplit(url))
            seen.add(fp.urlparse(url)[:2])
        return seen

    results = run_threads(work, 4)
    parsed = {r[:2] for r in states}
    for seen in results[1:]:
        assert seen <= states | parsed
    fp.clear_cache()
    assert fp.urlsplit(url) == _uncached_split(url)  # settled


def test_install_and_uninstall_while_calling():
    stop = threading.Event()
    originals = {n: fp._original(n) for n in ("urlsplit", "quote", "urljoin")}

    def work(i):
        if i == 0:
            try:
                for _ in range(300):
                    fp.install()
                    fp.uninstall()
            finally:
                stop.set()
            return True
        ok = True
        while not stop.is_set():
            ok &= std.quote("a b") == "a%20b"
            ok &= std.urljoin("http://a/b/c", "../d") == "http://a/d"
            ok &= std.urlsplit("http://a/b").netloc == "a"
        return ok

    assert all(run_threads(work, 4))
    for name, f in originals.items():
        assert getattr(std, name) is f
