"""fasturi.whatwg.parse over urls.txt and fasturi.whatwg.resolve over
refs.tsv, against ada's bindings (ada_url, can_ada): the same standard; then
every input category off the common path, a generated hostile set, the
column kernel on one and two threads, and the setters.

    python -m pytest benchmarks -k whatwg      # the suite's cases, pytest-benchmark
    python benchmarks/bench_whatwg.py           # side by side (markdown)

The second times every case's rounds interleaved, so that a busy machine
slows them alike, and gives each peer's ratio to fasturi as the median of
the per-round ratios (each round's cases a few hundred milliseconds apart),
on the inputs every peer parses.  It reads CPU time of the process, not wall
time: on a machine shared with other work the wall clock counts their turns
too (but for the kernel on two threads, timed against one by the wall clock).

The categories (``categories()``) are the corpus's URLs rewritten the way
each kind of input differs from the common case: a host beyond ASCII (a
word of a few scripts for its first label), the same hosts in Punycode, an
IPv4 address in its number forms, backslashes for slashes, a tab and a
newline inside, a percent-encoded host, ideographic full stops for dots;
and a hostile set generated from the parity tests' tokens (failures among
them).  Each peer loops over a list and keeps each href (``None`` where it
raises); the column kernel reads a pyarrow ``string`` column.
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import sys
import time
import urllib.parse
from collections import deque
from typing import Any, Callable, Dict, List, Tuple

import peers
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROUNDS = int(os.environ.get("FASTURI_BENCH_ROUNDS", "9"))


@pytest.mark.parametrize("adapter", peers.adapters("whatwg"), ids=str)
def bench_whatwg(measure, adapter):
    measure(adapter)


@pytest.mark.parametrize("adapter", peers.adapters("whatwg.resolve"), ids=str)
def bench_whatwg_resolve(measure, adapter):
    measure(adapter)


# ---- side by side ------------------------------------------------------------------


def _cases() -> Dict[str, List[Tuple[str, Callable[..., Any], bool]]]:
    """Per operation: (name, function, takes (base, ref) pairs)."""
    from fasturi import _whatwg_c

    out: Dict[str, List[Tuple[str, Callable[..., Any], bool]]] = {
        "parse": [("fasturi.whatwg.parse", _whatwg_c.parse, False)],
        "resolve": [("fasturi.whatwg.resolve", _whatwg_c.resolve, True)],
    }
    try:
        import can_ada

        out["parse"].append(("can_ada.parse", can_ada.parse, False))
    except ImportError:
        pass
    try:
        import ada_url

        out["parse"].append(("ada_url.URL", ada_url.URL, False))
        out["resolve"].append(("ada_url.join_url", ada_url.join_url, True))
    except ImportError:
        pass
    return out


def _accepted(fn: Callable[..., Any], items: List[Any], star: bool) -> List[Any]:
    kept = []
    for item in items:
        try:
            fn(*item) if star else fn(item)
        except ValueError:
            continue
        kept.append(item)
    return kept


def side_by_side(rounds: int = ROUNDS) -> List[str]:
    sys.path.insert(0, HERE)
    from corpus import Corpus

    corpus = Corpus()
    lines = [
        "| operation | case | ns/item (median) | fasturi's speedup (median of rounds) |",
        "|---|---|---:|---:|",
    ]
    for op, cases in _cases().items():
        star = cases[0][2]
        items: List[Any] = list(corpus.refs) if star else list(corpus.urls)
        for _, fn, _ in cases:  # the inputs every peer parses
            items = _accepted(fn, items, star)
        # (the arguments' columns, made before the clock starts)
        columns = [list(column) for column in zip(*items)] if star else [items]
        times: Dict[str, List[float]] = {name: [] for name, _, _ in cases}
        for _ in range(rounds):
            for name, fn, _ in cases:
                gc.collect()
                started = time.process_time()
                deque(map(fn, *columns), 0)
                times[name].append((time.process_time() - started) / len(items) * 1e9)
        mine = times[cases[0][0]]
        for name, _, _ in cases:
            ratio = statistics.median(t / m for t, m in zip(times[name], mine))
            lines.append(
                f"| {op} ({len(items):,}) | {name} | {statistics.median(times[name]):.0f} "
                f"| {ratio:.2f}× |"
            )
    return lines


# ---- categories, the hostile set, threads, setters ------------------------------------

# A host's first label in a few scripts (domain to ASCII's mapping and
# Punycode), and IPv4 addresses in the number forms the host parser reads.
WORDS = [
    "bücher",
    "пример",
    "例え",
    "mañana",
    "δοκιμή",
    "테스트",
    "ölçü",
    "straße",
    "naïve",
    "日本語",
]
IPV4 = ["0x7f.1", "0300.0250.0.1", "3232235777", "127.1", "0xc0.0xa8.1.1", "10.0x10.010", "1.2.3"]
# The parity tests' hostile tokens and prefixes.
TOKENS = [
    "a",
    "Z",
    "0",
    "1",
    "255",
    "256",
    "0x",
    "09",
    ".",
    "..",
    "/",
    "//",
    "\\",
    "?",
    "#",
    "@",
    ":",
    ":80",
    ":443",
    ":99999",
    "%",
    "%2e",
    "%41",
    "%zz",
    " ",
    "\t",
    "\n",
    "\x00",
    "\x7f",
    "'",
    '"',
    "<",
    "^",
    "`",
    "{",
    "|",
    "[",
    "]",
    "[::1]",
    "::",
    "ffff",
    "1.2.3.4",
    "xn--",
    "xn--zca",
    "localhost",
    "C|",
    "c:",
    "\u00e9",
    "\u05d0",
    "\U0001f4a9",
    "\uff0e",
    "\u3002",
    "example",
    "com",
]
PREFIXES = ["", "http://", "HTTPS://", "ws:", "ftp:/", "file://", "file:", "sc://", "sc:", "blob:"]


def _with_host(url: str, host: Callable[[str, int], str], i: int) -> str:
    parts = urllib.parse.urlsplit(url)
    return url.replace(parts.netloc, host(parts.hostname or "h", i), 1)


def categories(urls: List[str], n: int = 20000) -> Dict[str, List[str]]:
    """Each category's inputs: the corpus's first n http(s) URLs rewritten."""
    base = [u for u in urls if u.startswith(("http://", "https://")) and "@" not in u][:n]

    def idn(host: str, i: int) -> str:
        labels = host.split(".")
        return ".".join([WORDS[i % len(WORDS)]] + labels[1:])

    def pct(host: str, i: int) -> str:
        return "".join(f"%{ord(c):02X}" if k % 3 == 0 else c for k, c in enumerate(host))

    rnd = random.Random(33)
    return {
        "ASCII corpus": base,
        "non-ASCII host": [_with_host(u, idn, i) for i, u in enumerate(base)],
        "punycode host": [
            _with_host(u, lambda h, i: idn(h, i).encode("idna").decode("ascii"), i)
            for i, u in enumerate(base)
        ],
        "IPv4 number forms": [
            _with_host(u, lambda h, i: IPV4[i % len(IPV4)], i) for i, u in enumerate(base)
        ],
        "backslashes": [u.replace("/", "\\") for u in base],
        "tab/newline": [
            u[: len(u) // 3] + "\t" + u[len(u) // 3 : 2 * len(u) // 3] + "\n" + u[2 * len(u) // 3 :]
            for u in base
        ],
        "percent-encoded host": [_with_host(u, pct, i) for i, u in enumerate(base)],
        "ideographic full stop": [
            _with_host(u, lambda h, i: h.replace(".", "\u3002"), i) for i, u in enumerate(base)
        ],
        "hostile (generated)": [
            rnd.choice(PREFIXES) + "".join(rnd.choice(TOKENS) for _ in range(rnd.randint(0, 14)))
            for _ in range(n)
        ],
    }


def _hrefs(parse: Callable[[str], Any]) -> Callable[[List[str]], List[Any]]:
    def run(rows: List[str]) -> List[Any]:
        out = []
        for u in rows:
            try:
                out.append(parse(u).href)
            except ValueError:
                out.append(None)
        return out

    return run


def _interleaved(
    cases: List[Tuple[str, Callable[[], Any]]], clock: Callable[[], float], rounds: int
) -> Dict[str, List[float]]:
    times: Dict[str, List[float]] = {name: [] for name, _ in cases}
    for _, fn in cases:  # warm up
        fn()
    for _ in range(rounds):
        for name, fn in cases:
            gc.collect()
            started = clock()
            fn()
            times[name].append(clock() - started)
    return times


def by_category(rounds: int = ROUNDS) -> List[str]:
    """Per category: fasturi's column kernel (one thread) and scalar parse
    against can_ada.parse(u).href, ns per URL; can_ada's ratio to each."""
    import can_ada
    import pyarrow as pa

    import fasturi.arrow as fa
    from fasturi import _whatwg_c

    sys.path.insert(0, HERE)
    from corpus import Corpus

    lines = [
        "| category (URLs) | arrow.whatwg_href threads=1 | fasturi.whatwg.parse | "
        "can_ada.parse(u).href | can_ada / kernel | can_ada / parse |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, rows in categories(Corpus().urls).items():
        col = pa.array(rows, type=pa.string())
        cases = [
            ("kernel", lambda col=col: fa.whatwg_href(col, threads=1)),
            ("parse", lambda rows=rows: _hrefs(_whatwg_c.parse)(rows)),
            ("can_ada", lambda rows=rows: _hrefs(can_ada.parse)(rows)),
        ]
        t = _interleaved(cases, time.process_time, rounds)
        med = {k: statistics.median(v) / len(rows) * 1e9 for k, v in t.items()}
        r_kernel = statistics.median(a / b for a, b in zip(t["can_ada"], t["kernel"]))
        r_parse = statistics.median(a / b for a, b in zip(t["can_ada"], t["parse"]))
        lines.append(
            f"| {name} ({len(rows):,}) | {med['kernel']:.0f} | {med['parse']:.0f} | "
            f"{med['can_ada']:.0f} | {r_kernel:.2f}× | {r_parse:.2f}× |"
        )
    return lines


def two_threads(rounds: int = ROUNDS) -> List[str]:
    """The column kernel on two threads against one (wall clock), on the
    hostile set (repeated to a few hundred thousand rows) and the corpus."""
    import pyarrow as pa

    import fasturi.arrow as fa

    sys.path.insert(0, HERE)
    from corpus import Corpus

    cats = categories(Corpus().urls)
    lines = ["| rows | threads=1 ns/URL | threads=2 ns/URL | speedup |", "|---|---:|---:|---:|"]
    for name in ("hostile (generated)", "non-ASCII host", "ASCII corpus"):
        col = pa.array(cats[name] * 10, type=pa.string())
        cases = [(str(n), lambda n=n, col=col: fa.whatwg_href(col, threads=n)) for n in (1, 2)]
        t = _interleaved(cases, time.perf_counter, rounds)
        speedup = statistics.median(a / b for a, b in zip(t["1"], t["2"]))
        lines.append(
            f"| {name} ×10 ({len(col):,}) | {statistics.median(t['1']) / len(col) * 1e9:.0f} | "
            f"{statistics.median(t['2']) / len(col) * 1e9:.0f} | {speedup:.2f}× |"
        )
    return lines


def setters(rounds: int = ROUNDS) -> List[str]:
    """URL.replace(pathname=...), (search=...), (host=...) against can_ada's
    and ada_url's setters (which change their URL in place), on the corpus's
    URLs all three take."""
    import ada_url
    import can_ada

    from fasturi import _whatwg_c

    sys.path.insert(0, HERE)
    from corpus import Corpus

    changes = {"pathname": "/a/b/c", "search": "?x=1", "host": "example.org"}
    urls = []
    for u in Corpus().urls[:20000]:
        try:
            a = ada_url.URL(u)
            for k, v in changes.items():
                setattr(a, k, v)
            can_ada.parse(u)
        except ValueError:
            continue
        urls.append(u)
    mine = [_whatwg_c.parse(u) for u in urls]
    cans = [can_ada.parse(u) for u in urls]
    adas = [ada_url.URL(u) for u in urls]
    lines = [
        f"| setter ({len(urls):,} URLs) | URL.replace ns | can_ada ns | ada_url ns | "
        "can_ada / fasturi | ada_url / fasturi |",
        "|---|---:|---:|---:|---:|---:|",
    ]

    # each loop written as a user writes it: a keyword, an attribute
    def replace_pathname() -> None:
        for u in mine:
            u.replace(pathname="/a/b/c")

    def replace_search() -> None:
        for u in mine:
            u.replace(search="?x=1")

    def replace_host() -> None:
        for u in mine:
            u.replace(host="example.org")

    def set_pathname(urls: List[Any]) -> None:
        for u in urls:
            u.pathname = "/a/b/c"

    def set_search(urls: List[Any]) -> None:
        for u in urls:
            u.search = "?x=1"

    def set_host(urls: List[Any]) -> None:
        for u in urls:
            u.host = "example.org"

    loops = {
        "pathname": (replace_pathname, lambda: set_pathname(cans), lambda: set_pathname(adas)),
        "search": (replace_search, lambda: set_search(cans), lambda: set_search(adas)),
        "host": (replace_host, lambda: set_host(cans), lambda: set_host(adas)),
    }
    for key, (replace, set_can, set_ada) in loops.items():
        t = _interleaved(
            [("mine", replace), ("can", set_can), ("ada", set_ada)], time.process_time, rounds
        )
        med = {k: statistics.median(v) / len(urls) * 1e9 for k, v in t.items()}
        lines.append(
            f"| {key}= | {med['mine']:.0f} | {med['can']:.0f} | {med['ada']:.0f} | "
            f"{statistics.median(a / b for a, b in zip(t['can'], t['mine'])):.2f}× | "
            f"{statistics.median(a / b for a, b in zip(t['ada'], t['mine'])):.2f}× |"
        )
    return lines


if __name__ == "__main__":
    print(f"median of {ROUNDS} rounds, interleaved, CPU time\n")
    print("\n".join(side_by_side()))
    print("\n" + "\n".join(by_category()))
    print("\n" + "\n".join(two_threads()))
    print("\n" + "\n".join(setters()))
