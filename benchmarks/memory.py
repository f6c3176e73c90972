"""Bytes kept alive per parsed URL, measured with tracemalloc.

    python benchmarks/memory.py [--json memory.json]

Each case builds one object per URL of urls.txt (components not read, unless
the case says so) and keeps the list.  The bytes it keeps alive per URL are
``sys.getsizeof(s)`` (the text, which the object holds on to) plus the traced
allocations the objects added, list slots excluded.  fasturi's budget is
``getsizeof(s) + 96`` per compiled URI (the python twin is shown for
reference).  Peers that keep their data on a C++ heap
(ada-url, can-ada) are invisible to tracemalloc and are listed as such.
Exits 1 when the compiled URI is over budget.
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import sys
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from corpus import Corpus
from peers import STDLIB, clear_caches

OVERHEAD_BUDGET = 96


def _fasturi_uri(suffix: str) -> Callable[[str], Any]:
    module = importlib.import_module("fasturi._uri" + suffix)
    return module.URI  # type: ignore[no-any-return]


def _read_components(make: Callable[[str], Any]) -> Callable[[str], Any]:
    def build(s: str) -> Any:
        u = make(s)
        u.scheme, u.authority, u.path, u.query, u.fragment  # noqa: B018
        return u

    return build


def cases() -> list[tuple[str, Callable[[], Callable[[str], Any]], str]]:
    """(case, loader of the per-URL constructor, note)."""
    out: list[tuple[str, Callable[[], Callable[[str], Any]], str]] = []
    for peer, suffix in (("fasturi-compiled", "_c"), ("fasturi-python", "_py")):
        out.append((peer, lambda suffix=suffix: _fasturi_uri(suffix), ""))
        out.append(
            (
                peer + "+components",
                lambda suffix=suffix: _read_components(_fasturi_uri(suffix)),
                "after reading scheme, authority, path, query, fragment",
            )
        )
    out.append(("urllib.parse", lambda: STDLIB["urlsplit"], "SplitResult of urlsplit"))
    out.append(("rfc3986", lambda: importlib.import_module("rfc3986").uri_reference, ""))
    out.append(("uritools", lambda: importlib.import_module("uritools").urisplit, ""))
    out.append(
        ("yarl", lambda: importlib.import_module("yarl").URL, "requoted copies of components")
    )
    return out


def measure(make: Callable[[str], Any], urls: list[str]) -> tuple[int, int]:
    """(bytes the objects keep alive, number built), list slots excluded."""

    def build(s: str) -> Any:
        try:
            return make(s)
        except ValueError:  # a peer's rejection: no object kept
            return None

    clear_caches()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        objects = [build(s) for s in urls]
        clear_caches()  # a memo cache is not memory the objects keep
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    built = sum(obj is not None for obj in objects)
    return after - before - sys.getsizeof(objects), built


def run(corpus: Corpus) -> dict[str, Any]:
    urls = corpus.urls
    mean_str = sum(sys.getsizeof(s) for s in urls) / len(urls)
    results: list[dict[str, Any]] = []
    for case, load, note in cases():
        try:
            make = load()
            make(urls[0])
        except NotImplementedError:
            results.append({"case": case, "error": "not built yet (raises NotImplementedError)"})
            continue
        except Exception as exc:  # noqa: BLE001 - ImportError, or a module being written
            if case.startswith("fasturi"):
                results.append(
                    {"case": case, "error": f"not built yet ({type(exc).__name__}: {exc})"}
                )
            else:
                print(f"note: {case} left out ({type(exc).__name__}: {exc})", file=sys.stderr)
            continue
        kept, built = measure(make, urls)
        over = kept / built
        results.append(
            {"case": case, "per_url": mean_str + over, "over": over, "built": built, "note": note}
        )
    for peer in ("ada_url", "can_ada"):
        try:
            importlib.import_module(peer)
        except ImportError:
            continue
        results.append({"case": peer, "error": "C++ heap: not visible to tracemalloc"})
    return {
        "urls": len(urls),
        "mean_str_bytes": mean_str,
        "overhead_budget": OVERHEAD_BUDGET,
        "cases": results,
    }


def table(data: dict[str, Any]) -> str:
    lines = [
        (
            f"{data['urls']:,} URLs; mean sys.getsizeof(s) = {data['mean_str_bytes']:.1f} B; "
            f"budget: getsizeof(s) + {data['overhead_budget']} B per compiled URI"
        ),
        "",
        "| case | bytes per URL | over getsizeof(s) | note |",
        "|---|---:|---:|---|",
    ]
    for case in data["cases"]:
        if "error" in case:
            lines.append(f"| {case['case']} | — | — | {case['error']} |")
        else:
            lines.append(
                f"| {case['case']} | {case['per_url']:.1f} | {case['over']:+.1f} | {case['note']} |"
            )
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", type=Path, help="also write the results here (for report.py)")
    args = parser.parse_args(argv)
    data = run(Corpus())
    sys.stdout.write(table(data))
    if args.json:
        args.json.write_text(json.dumps(data, indent=2), encoding="utf-8")
    over = [
        c["case"]
        for c in data["cases"]
        if c["case"] == "fasturi-compiled" and c.get("over", 0) > OVERHEAD_BUDGET
    ]
    if over:
        print(f"over budget: {', '.join(over)}", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
