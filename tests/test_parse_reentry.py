"""The drop-in's compiled functions called again from inside themselves.

Python code can run in the middle of a compiled call: an item of a
``uses_*`` list whose ``==`` is user code, a ``__hash__``, a ``__str__``, a
``__del__`` of a result released from the split cache.  If that code calls
the drop-in again, whatever the outer call holds (urljoin's memo of the
last base, the split cache's table, urlencode's buffer) must stay valid:
every answer here is compared with the stdlib's, and .ci/sanitize runs this
file under AddressSanitizer, where a read of freed memory aborts.
"""

from __future__ import annotations

import contextlib
import gc
import urllib.parse as std

import pytest

import fasturi.parse as fp

# the stdlib's split past its cache (3.9 and 3.10 have none)
_uncached_split = getattr(std.urlsplit, "__wrapped__", std.urlsplit)

pytestmark = pytest.mark.compiled


@pytest.fixture(autouse=True)
def _stdlib_untouched():
    fp.uninstall()
    yield
    fp.uninstall()


@contextlib.contextmanager
def item_in(name, item, at=0):
    """`item` in urllib.parse's list `name` for the block."""
    lst = getattr(std, name)
    lst.insert(at, item)
    try:
        yield
    finally:
        lst.remove(item)


class JoinsAgain:
    """An item of a uses_* list whose == (once armed) joins another base,
    which takes urljoin's memo over."""

    def __init__(self, other="http://other.example/x/y"):
        self.armed = False
        self.other = other
        self.seen = 0

    def __eq__(self, scheme):
        self.seen += 1
        if self.armed:
            self.armed = False
            assert fp.urljoin(self.other, "z") == std.urljoin(self.other, "z")
        return False

    __hash__ = object.__hash__


def twin(text):
    """An equal str that is another object."""
    copy = text[:1] + text[1:]
    assert copy == text and copy is not text
    return copy


# 33 MiB of text: above the largest threshold glibc's malloc moves its mmap
# threshold up to (32 MiB), so the memory is unmapped when freed and a read
# of it faults even without a sanitizer.
HUGE = 33 << 20


@pytest.mark.parametrize("uses", ["uses_relative", "uses_netloc", "uses_params"])
@pytest.mark.parametrize("size", [10, HUGE])
def test_urljoin_memo_outlives_a_join_from_inside_it(uses, size):
    evil = JoinsAgain()
    first = "http://h/" + "a" * size + "/c"
    base = twin(first)
    with item_in(uses, evil):
        # std first, whose answer does not depend on fasturi's memo
        want = std.urljoin(base, "d;q?x")
        want2 = std.urljoin(base, "e")
        compared = evil.seen > 0  # (3.14's urljoin reads no uses_params)
        assert fp.urljoin(first, "d;q?x") == want  # the memo now holds `first`
        del first  # ... and only the memo
        gc.collect()
        evil.armed = True
        # the same text, another object: served from the memo; the list item
        # joins another base, which replaces the memo
        got = fp.urljoin(base, "d;q?x")
        assert evil.armed is not compared, "the item is compared where the stdlib compares it"
        assert got == want
        assert fp.urljoin(base, "e") == want2


def test_urljoin_memo_in_the_other_form():
    # the memo of the 3.14 rules' split, forced on where the probe chose
    # the others (and the others where it chose 3.14's)
    from fasturi import _parse_c

    evil = JoinsAgain()
    native = _parse_c._modes()["join"]
    old = _parse_c._modes(join=0 if native == 1 else 1)
    try:
        first = "http://h/" + "b" * 1000 + "/c"
        base = twin(first)
        want = fp.urljoin(base, "d?e")  # this form's own answer, no re-entry
        with item_in("uses_relative", evil):
            assert fp.urljoin(first, "d?e") == want
            del first
            evil.armed = True
            assert fp.urljoin(base, "d?e") == want
            assert not evil.armed
    finally:
        _parse_c._modes(**old)


def test_item_that_removes_itself_while_compared():
    class Leaves:
        def __eq__(self, other):
            std.uses_netloc.remove(self)
            return NotImplemented

        __hash__ = object.__hash__

    parts = ("http", "", "/p", "", "")
    std.uses_netloc.insert(0, Leaves())
    want = std.urlunsplit(parts)
    std.uses_netloc.insert(0, Leaves())
    assert fp.urlunsplit(parts) == want
    assert not any(isinstance(x, Leaves) for x in std.uses_netloc)


def test_item_that_rebinds_the_list_mid_join():
    # the stdlib reads uses_netloc after uses_relative's item has rebound it
    saved = std.uses_netloc

    class Rebinds:
        def __eq__(self, other):
            std.uses_netloc = [s for s in saved if s != "http"]
            return False

        __hash__ = object.__hash__

    results = []
    for fn in (std.urljoin, fp.urljoin):
        std.uses_netloc = saved
        with item_in("uses_relative", Rebinds()):
            try:
                results.append(fn("http://a/b/c", "//h/d"))
            finally:
                std.uses_netloc = saved
    assert results[0] == results[1]


def test_split_cache_evicts_while_a_release_splits_again():
    # a result's class gains a __del__ that splits (and so evicts) again:
    # the cache releases what it evicts only once its table is whole
    if not hasattr(std.urlsplit, "cache_info"):
        assert not hasattr(fp.urlsplit, "cache_info")  # 3.9, 3.10: no lru_cache
        return
    calls = []

    def splits_again(self):
        calls.append(1)
        if len(calls) < 2000:
            fp.urlsplit(f"http://del.example/{len(calls)}")
            fp.urlsplit(f"http://del.example/{len(calls)}")

    fp.urlsplit.cache_clear()
    std.SplitResult.__del__ = splits_again
    try:
        for i in range(600):
            url = f"http://x.example/{i}"
            assert fp.urlsplit(url) == _uncached_split(url)
            assert fp.urlsplit(url) == _uncached_split(url)
        fp.urlsplit.cache_clear()
    finally:
        del std.SplitResult.__del__
    gc.collect()
    assert calls
    info = fp.urlsplit.cache_info()
    assert info.currsize <= info.maxsize


def test_split_of_a_key_whose_hash_splits_again():
    class Rehash(str):
        def __hash__(self):
            for i in range(300):
                fp.urlsplit(f"http://h.example/{i}")
                fp.urlsplit(f"http://h.example/{i}")
            return str.__hash__(self)

    for i in range(5):
        url = Rehash(f"http://k.example/{i}?q#f")
        assert fp.urlsplit(url) == _uncached_split(str(url))


def test_urlencode_whose_value_encodes_again():
    class Nested:
        def __init__(self, depth):
            self.depth = depth

        def __str__(self):
            if self.depth:
                return fp.urlencode({"in": Nested(self.depth - 1), "x": "a b"})
            return "leaf"

    query = [("a", "1"), ("b", Nested(3)), ("c", ["x", Nested(2)])]
    for doseq in (False, True):
        got = fp.urlencode(query, doseq=doseq)
        fp.install()  # the stdlib's loop calls the drop-in inside, as here
        try:
            want = std.urlencode(query, doseq=doseq)
        finally:
            fp.uninstall()
        assert got == want


def test_quote_safe_whose_iteration_quotes_again():
    class Safe:
        def __iter__(self):
            for c in b"/&":
                fp.quote("x y" * 100, safe="")
                yield c

    data = bytearray(b"a b/c&d" * 50)
    assert fp.quote_from_bytes(data, Safe()) == std.quote_from_bytes(data, Safe())
