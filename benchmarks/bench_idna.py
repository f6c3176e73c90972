"""IDNA hosts, side by side: fasturi.whatwg.domain_to_ascii against ada's
bindings' (can_ada.idna_encode, ada_url.idna_to_ascii), and
fasturi.whatwg.parse of a URL with such a host against can_ada.parse and
ada_url.URL; then the crawler tools on the same URLs (fasturi.surt,
canonicalize(preset="w3lib") and their column forms), whose peers' IDNA
is Python's codec (IDNA 2003).

    python benchmarks/bench_idna.py

Hosts come in three kinds: non-ASCII (Unicode labels), Punycode (their
A-labels, as most crawled URLs carry them) and mixed (a Unicode label among
ASCII ones, capitals included).  Every case's rounds are interleaved, so
that a busy machine slows them alike; the figure is the median of the
rounds, in CPU time of the process (ns a call), and each peer's ratio to
fasturi is the median of the per-round ratios.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
from typing import Any, Callable, Dict, List, Tuple

ROUNDS = int(os.environ.get("FASTURI_BENCH_ROUNDS", "9"))

# Unicode domains of many scripts, as in international crawls
UNICODE_HOSTS = [
    "münchen.de",
    "bücher.example",
    "faß.de",
    "straße.example.com",
    "пример.рф",
    "москва.рф",
    "президент.рф",
    "日本語.jp",
    "例え.テスト",
    "中国.中国",
    "香港.香港",
    "한국.kr",
    "παράδειγμα.δοκιμή",
    "ελληνικά.gr",
    "موقع.وزارة-الاتصالات.مصر",
    "مثال.إختبار",
    "דוגמה.טעסט",
    "उदाहरण.परीक्षा",
    "ตัวอย่าง.ไทย",
    "café.fr",
    "españa.es",
    "zürich.ch",
    "øst.no",
    "ąę.pl",
    "čšž.cz",
    "türkçe.com.tr",
    "việtnam.vn",
    "☕.example",
    "i❤.ws",
    "ドメイン名例.jp",
]


def hosts() -> Dict[str, List[str]]:
    from fasturi import whatwg

    mixed = []
    for i, host in enumerate(UNICODE_HOSTS):
        label, _, rest = host.partition(".")
        mixed.append(("WWW." if i % 2 else "shop.") + label + ".Example.COM")
    return {
        "non-ASCII": UNICODE_HOSTS,
        "Punycode": [whatwg.domain_to_ascii(h) for h in UNICODE_HOSTS],
        "mixed": mixed,
    }


def _peers() -> Dict[str, List[Tuple[str, Callable[[str], Any]]]]:
    from fasturi import whatwg

    out: Dict[str, List[Tuple[str, Callable[[str], Any]]]] = {
        "domain_to_ascii": [("fasturi", whatwg.domain_to_ascii)],
        "parse": [("fasturi", lambda u: whatwg.parse(u).href)],
    }
    try:
        import can_ada

        out["domain_to_ascii"].append(("can_ada", can_ada.idna_encode))
        out["parse"].append(("can_ada", lambda u: can_ada.parse(u).href))
    except ImportError:
        pass
    try:
        import ada_url

        out["domain_to_ascii"].append(("ada_url", ada_url.idna_to_ascii))
        out["parse"].append(("ada_url", lambda u: ada_url.URL(u).href))
    except ImportError:
        pass
    return out


def _time(fn: Callable[[str], Any], items: List[str], repeat: int) -> float:
    gc.disable()
    try:
        t0 = time.process_time_ns()
        for _ in range(repeat):
            for item in items:
                fn(item)
        return (time.process_time_ns() - t0) / (repeat * len(items))
    finally:
        gc.enable()


def _compare(cases: List[Tuple[str, Callable[[str], Any]]], items: List[str]) -> List[str]:
    repeat = max(1, 20_000 // len(items))
    per_round: Dict[str, List[float]] = {name: [] for name, _ in cases}
    for _ in range(ROUNDS):
        for name, fn in cases:
            per_round[name].append(_time(fn, items, repeat))
    ours = per_round[cases[0][0]]
    cells = [f"{statistics.median(ours):,.0f}"]
    for name, _ in cases[1:]:
        ratios = [t / o for t, o in zip(per_round[name], ours)]
        cells.append(
            f"{statistics.median(per_round[name]):,.0f} ({statistics.median(ratios):.1f}x)"
        )
    return cells


def side_by_side() -> List[str]:
    peers = _peers()
    lines = []
    for op, cases in peers.items():
        lines.append(f"\n{op} (ns a call; a peer's ratio to fasturi)\n")
        lines.append("| hosts | " + " | ".join(name for name, _ in cases) + " |")
        lines.append("|---|" + "---:|" * len(cases))
        for kind, items in hosts().items():
            if op == "parse":
                items = [f"https://{h}/a/b?q=1" for h in items]
            lines.append(f"| {kind} | " + " | ".join(_compare(cases, items)) + " |")
    return lines


def crawler() -> List[str]:
    """fasturi.surt and the w3lib preset over the same URLs (ns a URL),
    scalar and column (one thread)."""
    import fasturi

    lines = [
        "\ncrawler tools (ns a URL, one thread)\n",
        "| hosts | surt | w3lib preset | arrow.surt | arrow.canonicalize w3lib |",
        "|---|---:|---:|---:|---:|",
    ]
    try:
        import pyarrow as pa

        from fasturi import arrow
    except ImportError:
        pa = None
    for kind, items in hosts().items():
        urls = [f"http://{h}/a/b?q=1" for h in items]
        cells = [
            statistics.median(_time(fasturi.surt, urls, 600) for _ in range(ROUNDS)),
            statistics.median(
                _time(lambda u: fasturi.canonicalize(u, preset="w3lib"), urls, 600)
                for _ in range(ROUNDS)
            ),
        ]
        if pa is not None:
            col = pa.array(urls * 200)
            for fn in (
                lambda c: arrow.surt(c, threads=1),
                lambda c: arrow.canonicalize(c, preset="w3lib", threads=1),
            ):
                times = []
                for _ in range(ROUNDS):
                    t0 = time.process_time_ns()
                    fn(col)
                    times.append((time.process_time_ns() - t0) / len(col))
                cells.append(statistics.median(times))
        lines.append(f"| {kind} | " + " | ".join(f"{c:,.0f}" for c in cells) + " |")
    return lines


if __name__ == "__main__":
    import fasturi

    print(f"fasturi {fasturi.__version__} ({fasturi.IMPLEMENTATION}), {ROUNDS} rounds")
    for line in side_by_side() + crawler():
        print(line)
