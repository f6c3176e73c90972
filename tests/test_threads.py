"""The compiled core shares no mutable state, or shares it safely: many
threads calling every public function at once get exactly the
single-threaded results, with or without the GIL."""

from __future__ import annotations

import functools
import inspect
import os
import random
import shutil
import sys
import threading
import urllib.parse
from concurrent.futures import ThreadPoolExecutor

import pyarrow as pa
from public_calls import BASE, CALLS, TEXTS, call, inputs

import fasturi
import fasturi.arrow
import fasturi.parse
from fasturi import _psl, whatwg
from fasturi._functions import COMPONENTS


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


# ---- every public function on eight threads, with the shared state changing --

THREADS = 8
# the threads= of the column kernels' calls (thread k of the eight calls them
# with THREADS_EACH[k % 2] alone)
THREADS_EACH = (2, 4)
# (CI's free-threaded run raises it; each round is the whole list again)
ROUNDS = int(os.environ.get("FASTURI_STRESS_ROUNDS", "1"))

# urllib.parse's names, looked up on the module at each call: the stdlib's
# or, between install() and uninstall(), fasturi.parse's (the same answers).
URLLIB = {
    "urlsplit": lambda s: urllib.parse.urlsplit(s),
    "urlparse": lambda s: urllib.parse.urlparse(s, allow_fragments=False),
    "urlunsplit": lambda s: urllib.parse.urlunsplit(urllib.parse.urlsplit(s)),
    "urljoin": lambda s: urllib.parse.urljoin(BASE, s),
    "urldefrag": lambda s: urllib.parse.urldefrag(s),
    "quote": lambda s: [urllib.parse.quote(s), urllib.parse.quote_plus(s, safe="/")],
    "unquote": lambda s: [urllib.parse.unquote(s), urllib.parse.unquote_to_bytes(s)],
    "parse_qsl": lambda s: [urllib.parse.parse_qsl(s), urllib.parse.parse_qs(s)],
    "urlencode": lambda s: urllib.parse.urlencode({"a": s, "b": [s]}, doseq=True),
}


def _urllib(name, s):
    # (the value, or the exception's type: its message may be worded by
    # either module)
    try:
        return ("ok", URLLIB[name](s))
    except (ValueError, TypeError, UnicodeError) as exc:
        return ("raise", type(exc))


def _column():
    # Rows enough for several row ranges (2048 rows at least each), every
    # 97th null; the public texts that are UTF-8 among them, and some
    # non-ASCII hosts (rows the kernels hand to Python).  The pure twin's
    # kernels loop the scalar functions: fewer rows there.
    texts = [t for t in TEXTS if not any("\ud800" <= c <= "\udfff" for c in t)]
    count = 9000 if fasturi.IMPLEMENTATION == "compiled" else 400
    rows = []
    for i in range(count):
        if i % 97 == 13:
            rows.append(None)
        elif i % 11 == 0:
            rows.append(texts[i // 11 % len(texts)])
        else:
            rows.append(
                f"HTTP://www{i % 7}.Example{i % 13}.co.uk:80/a/./b/../{i}?utm_source=x&b={i}&a=1#f"
                if i % 29
                else f"https://user@caf\u00e9{i % 5}.blogspot.com/%7e{i}/x;p?q={i}"
            )
    return pa.array(rows, type=pa.string())


def _arrow_calls(col):
    fa = fasturi.arrow
    # (the WHATWG kernels hand many of these rows to Python: on fewer rows,
    # still two ranges)
    ww = col.slice(0, len(col) // 2)
    calls = {
        "split": lambda t: fa.split(col, fields=("scheme", "host", "port", "path"), threads=t),
        "normalize": lambda t: fa.normalize(col, threads=t),
        "canonicalize": lambda t: fa.canonicalize(col, drop_params=("utm_*",), threads=t),
        "fingerprint": lambda t: fa.fingerprint(col, drop_fragment=False, threads=t),
        "is_valid": lambda t: fa.is_valid(col, "IRI-reference", threads=t),
        "error_position": lambda t: fa.error_position(col, threads=t),
        "percent_decode": lambda t: fa.percent_decode(col, errors="replace", threads=t),
        "registrable_domain": lambda t: fa.registrable_domain(col, private=True, threads=t),
        "public_suffix": lambda t: fa.public_suffix(col, threads=t),
        "resolve": lambda t: fa.resolve(BASE, col, threads=t),
        "surt": lambda t: fa.surt(col, threads=t),
        "whatwg_can_parse": lambda t: fa.whatwg_can_parse(ww, BASE, threads=t),
        "whatwg_href": lambda t: fa.whatwg_href(ww, threads=t),
        "whatwg_split": lambda t: fa.whatwg_split(ww, fields=("host", "search"), threads=t),
        "whatwg_replace": lambda t: fa.whatwg_replace(ww, search="?a=1", host="x", threads=t),
        "whatwg_search_params": lambda t: fa.whatwg_search_params(ww, BASE, threads=t),
        "query_param": lambda t: fa.query_param(col, "b", threads=t),
        "query_params": lambda t: fa.query_params(col, decode=False, threads=t),
        "remove_params": lambda t: fa.remove_params(col, ("utm_*", "a"), threads=t),
        "path_extension": lambda t: fa.path_extension(col, threads=t),
        "path_hierarchy": lambda t: fa.path_hierarchy(col, threads=t),
        "subdomain": lambda t: fa.subdomain(col, private=True, threads=t),
    }
    for field in COMPONENTS:
        calls[field] = functools.partial(lambda f, t: getattr(fa, f)(col, threads=t), field)
    return {
        f"arrow.{name}(threads={t})": functools.partial(_rows, f, t)
        for name, f in calls.items()
        for t in THREADS_EACH
    }


def _rows(f, threads):
    try:
        return ("ok", f(threads).to_pylist())
    except (ValueError, TypeError, UnicodeError) as exc:
        return ("raise", type(exc), str(exc))


def _work(col):
    """label -> a call with no arguments, each answer compared."""
    work = {}
    for name in CALLS:
        for i, arg in enumerate(inputs(name)):
            work[f"{name}[{i}]"] = functools.partial(call, name, arg)
    for name in URLLIB:
        for i, arg in enumerate(TEXTS):
            work[f"urllib.parse.{name}[{i}]"] = functools.partial(_urllib, name, arg)
    work.update(_arrow_calls(col))
    work["public_suffix_list_version"] = lambda: fasturi.public_suffix_list_version()
    return work


def _public_functions():
    """(module, name) of every public function the stress test must call."""
    names = [(fasturi, n) for n in fasturi.__all__]
    names += [(fasturi.parse, n) for n in fasturi.parse.__all__]
    names += [(whatwg, n) for n in whatwg.__all__]
    names += [(fasturi.arrow, n) for n in fasturi.arrow.__all__]
    return [(m, n) for m, n in names if inspect.isroutine(getattr(m, n))]


def test_the_stress_test_calls_every_public_function():
    # Each public function, wrapped to say it was called, through one pass
    # of the work (and a list swap): none is left out.
    called = set()

    def wrap(module, name, f):
        @functools.wraps(f)
        def wrapper(*args, **kwargs):
            called.add((module.__name__, name))
            return f(*args, **kwargs)

        return wrapper

    saved = [(m, n, getattr(m, n)) for m, n in _public_functions()]
    for m, n, f in saved:
        setattr(m, n, wrap(m, n, f))
    try:
        for f in _work(_column()).values():
            f()
        fasturi.load_public_suffix_list(None)
    finally:
        for m, n, f in saved:
            setattr(m, n, f)
    missing = {(m.__name__, n) for m, n, _ in saved} - called
    assert not missing, sorted(missing)


def test_every_function_on_eight_threads_with_list_swaps_and_install(tmp_path):
    # Eight threads run every public function (the package's, fasturi.parse's
    # and urllib.parse's, fasturi.whatwg's, the column kernels on threads of
    # their own), each thread in an order of its own, while each also swaps
    # the Public Suffix List (for a copy of the same list: answers stay) and
    # installs and uninstalls fasturi.parse: every answer must be the one a
    # single thread gave.  A fixed amount of work, not a duration.
    copy = tmp_path / "copy.dat"
    shutil.copy(_psl.default_path(), copy)
    work = _work(_column())
    want = {label: f() for label, f in work.items()}
    ops = {
        "swap": lambda: fasturi.load_public_suffix_list(str(copy)),
        "swap back": lambda: fasturi.load_public_suffix_list(None),
        "install": fasturi.parse.install,
        "uninstall": fasturi.parse.uninstall,
    }
    installed = urllib.parse.urlsplit is fasturi.parse.urlsplit
    start = threading.Barrier(THREADS)
    got = [{} for _ in range(THREADS)]

    def run(k):
        other = f"(threads={THREADS_EACH[1 - k % 2]})"
        mine = [label for label in work if not label.endswith(other)]
        order = mine * ROUNDS + [("swap", "swap back")[k % 2], "install", "uninstall"]
        random.Random(k).shuffle(order)
        start.wait()
        for label in order:
            if label in ops:
                ops[label]()
            else:
                got[k][label] = work[label]()

    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # (with a GIL: switch threads often)
    try:
        with ThreadPoolExecutor(max_workers=THREADS) as pool:
            list(pool.map(run, range(THREADS)))
    finally:
        sys.setswitchinterval(interval)
        fasturi.load_public_suffix_list(None)
        (fasturi.parse.install if installed else fasturi.parse.uninstall)()
    for k, answers in enumerate(got):
        assert len(answers) > len(want) / 2
        wrong = [label for label in answers if answers[label] != want[label]]
        assert not wrong, f"thread {k}: {len(wrong)} answers differ, first {wrong[:5]}"
