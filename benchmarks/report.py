"""Turns a pytest-benchmark JSON file into the markdown tables of README.md.

    python benchmarks/report.py results.json [--memory memory.json]

Per group: the median time per item of each case (round median divided by
the items the case ran over), the ratio against urllib.parse and against the
fastest other peer (``k×`` = k times faster; below 1 = slower), then the
project's speed targets with pass/FAIL.  A target whose rows are missing
(peer not installed, fasturi part not built) is reported as such, not passed.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

FASTURI = ("fasturi-compiled", "fasturi-python")
STDLIB = "urllib.parse"
FLOOR = "floor"  # a group's call floor (peers.FLOOR): shown, never a peer


@dataclass(frozen=True)
class Row:
    group: str
    case: str
    peer: str
    variant: str
    ns: float  # median nanoseconds per item
    items: int
    rejected: int
    note: str
    #: batch cases, by loop variant: median of (loop time / batch time), each
    #: pair timed back to back
    paired: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Target:
    text: str
    group: str
    case: str  # the fasturi case
    other: str  # the case it is measured against
    factor: float  # required speed ratio; 1.0 means "faster than"
    #: "at least as fast": pass at ``factor * (1 - tolerance)``, for timing noise
    tolerance: float = 0.0
    #: measured by the case's back-to-back pairs with its loop, not medians
    paired: bool = False


# The quote family is every quoting function of the drop-in but unquote:
# quote, quote_plus, unquote_plus, parse_qsl (split + unquote_plus) and
# urlencode (quote_plus per field).
QUOTE_FAMILY = ("quote", "quote_plus", "unquote_plus", "parse_qsl", "urlencode")

ORDER = [
    "split",
    "uri",
    "resolve",
    "normalize",
    "is_valid",
    "canonicalize",
    "extract-log",
    "extract-html",
    "parse.urlsplit",
    "parse.urlsplit-stream",
    "parse.urlparse",
    "parse.urljoin",
    "parse.urldefrag",
    "parse.urlunsplit",
    "parse.urlunparse",
    "parse.quote",
    "parse.quote_plus",
    "parse.unquote",
    "parse.unquote_plus",
    "parse.parse_qsl",
    "parse.urlencode",
    "parse.hostname_port",
]

TARGETS = [
    Target(
        "split faster than can_ada.parse with components read",
        "split",
        "fasturi-compiled",
        "can_ada+components",
        1.0,
    ),
    Target("URI(s) ≥3× faster than can_ada.parse", "uri", "fasturi-compiled", "can_ada", 3.0),
    Target(
        "resolve ≥3× faster than ada_url.join_url", "resolve", "fasturi-compiled", "ada_url", 3.0
    ),
    Target(
        "whatwg.parse ≥3× faster than can_ada.parse", "whatwg", "fasturi-compiled", "can_ada", 3.0
    ),
    Target(
        "whatwg.parse ≥3× faster than ada_url.URL", "whatwg", "fasturi-compiled", "ada_url", 3.0
    ),
    Target(
        "whatwg.resolve ≥3× faster than ada_url.join_url",
        "whatwg.resolve",
        "fasturi-compiled",
        "ada_url",
        3.0,
    ),
    Target(
        "arrow.whatwg_href ≥10× faster than a can_ada.parse loop",
        "arrow-whatwg",
        "arrow.whatwg_href threads=1",
        "can_ada loop",
        10.0,
    ),
    Target("normalize ≥30× faster than rfc3986", "normalize", "fasturi-compiled", "rfc3986", 30.0),
    Target("normalize ≥20× faster than w3lib", "normalize", "fasturi-compiled", "w3lib", 20.0),
    Target(
        "is_valid ≥10× faster than rfc3986-validator",
        "is_valid",
        "fasturi-compiled",
        "rfc3986_validator",
        10.0,
    ),
    Target(
        "is_valid faster than can_ada.can_parse", "is_valid", "fasturi-compiled", "can_ada", 1.0
    ),
    *(
        Target(
            f"python twin faster than rfc3986 ({group})", group, "fasturi-python", "rfc3986", 1.0
        )
        for group in ("split", "uri", "resolve", "normalize", "is_valid")
    ),
    *(
        Target(
            f"extract ≥10× faster than re.findall, typical URL regex ({kind})",
            f"extract-{kind}",
            "fasturi-compiled",
            "re-typical",
            10.0,
        )
        for kind in ("log", "html")
    ),
    # The drop-in against the stdlib it replaces: read from the two timed
    # back to back (``paired``), where the run has those pairs.
    *(
        Target(text, f"parse.{name}", "fasturi-compiled", STDLIB, factor, paired=True)
        for text, name, factor in (
            ("urlsplit ≥10× faster than the stdlib", "urlsplit", 10.0),
            ("urlparse ≥10× faster than the stdlib", "urlparse", 10.0),
            ("urljoin ≥12× faster than the stdlib", "urljoin", 12.0),
            *(
                (f"{name} ≥4× faster than the stdlib", name, 4.0)
                for name in ("urlunsplit", "urlunparse", "urldefrag")
            ),
            *(
                (f"{name} ≥5× faster than the stdlib (quote family)", name, 5.0)
                for name in QUOTE_FAMILY
            ),
            # quote itself, on every interpreter, as the drop-in promises on 3.14/3.15 too
            ("quote ≥10× faster than the stdlib", "quote", 10.0),
            ("unquote ≥2× faster than the stdlib", "unquote", 2.0),
        )
    ),
    # docs/reference.md §3: each batch function is faster per item than the single function
    # in a Python loop; the compiled one is also at least as fast as the
    # fastest loop there is, list(map(single, items)) (5% allowed for noise).
    # The reference twin's batch is itself a Python loop, so only the first
    # applies to it.  Both are timed back to back with the loop.
    *(
        Target(
            f"{group}_many faster than a Python loop ({peer})",
            group,
            f"{peer}+many",
            f"{peer}+loop",
            1.0,
            paired=True,
        )
        for group in ("split", "resolve", "normalize", "canonicalize")
        for peer in FASTURI
    ),
    *(
        Target(
            f"{group}_many at least as fast as list(map())",
            group,
            "fasturi-compiled+many",
            "fasturi-compiled+list",
            1.0,
            tolerance=0.05,
            paired=True,
        )
        for group in ("split", "resolve", "normalize", "canonicalize")
    ),
]


def load_rows(path: Path) -> tuple[list[Row], dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = []
    for bench in data["benchmarks"]:
        info = bench.get("extra_info", {})
        if "items" not in info:  # not one of this suite's cases
            continue
        rows.append(
            Row(
                group=bench["group"],
                case=info["case"],
                peer=info["peer"],
                variant=info.get("variant", ""),
                ns=bench["stats"]["median"] / info["items"] * 1e9,
                items=info["items"],
                rejected=sum(info.get("rejected", {}).values()),
                note=info.get("note", ""),
                paired={
                    key.removeprefix("paired_speedup_vs_"): value
                    for key, value in info.items()
                    if key.startswith("paired_speedup_vs_")
                },
            )
        )
    return rows, data.get("machine_info", {})


def ratio(other: Row | None, row: Row) -> float | None:
    return None if other is None else other.ns / row.ns


def fmt_ratio(value: float | None) -> str:
    if value is None:
        return "—"
    return f"{value:.1f}×" if value >= 1.0 else f"{value:.2f}×"


def fmt_ns(ns: float) -> str:
    return f"{ns:,.0f}" if ns >= 100 else f"{ns:.1f}"


def best_other(rows: list[Row], row: Row) -> Row | None:
    """The fastest row of another peer (both fasturi twins count as one peer)."""
    mine = set(FASTURI) if row.peer in FASTURI else {row.peer}
    others = [r for r in rows if r.peer not in mine and r.peer != FLOOR]
    return min(others, key=lambda r: r.ns, default=None)


def group_table(group: str, rows: list[Row]) -> list[str]:
    stdlib = next((r for r in rows if r.case == STDLIB), None)
    out = [
        f"### {group}",
        "",
        "| case | ns/item (median) | items | vs urllib.parse | vs best other peer |",
        "|---|---:|---:|---:|---:|",
    ]
    notes = []
    for row in sorted(rows, key=lambda r: r.ns):
        best = best_other(rows, row)
        vs_best = fmt_ratio(ratio(best, row))
        if best is not None:
            vs_best += f" ({best.case})"
        items = f"{row.items:,}" + (f" ({row.rejected} rejected)" if row.rejected else "")
        vs_stdlib = "—" if row is stdlib else fmt_ratio(ratio(stdlib, row))
        out.append(f"| {row.case} | {fmt_ns(row.ns)} | {items} | {vs_stdlib} | {vs_best} |")
        if row.note:
            notes.append(f"- {row.peer}: {row.note}")
        if STDLIB in row.paired:
            notes.append(
                f"- {row.case} timed back to back with {STDLIB}, alternating: "
                f"{fmt_ratio(row.paired[STDLIB])} (median of the pairs)"
            )
    if notes:
        out += ["", *dict.fromkeys(notes)]
    return out + [""]


def target_lines(by_group: dict[str, list[Row]]) -> tuple[list[str], int]:
    out = ["### targets", "", "| target | measured | status |", "|---|---:|---|"]
    failed = 0
    for target in TARGETS:
        cases = {r.case: r for r in by_group.get(target.group, [])}
        mine, other = cases.get(target.case), cases.get(target.other)
        if mine is None or other is None:
            missing = [c for c, r in ((target.case, mine), (target.other, other)) if r is None]
            out.append(f"| {target.text} | — | n/a: no {', '.join(missing)} row |")
            continue
        value, how = other.ns / mine.ns, ""
        loop = target.other.rpartition("+")[2]
        if target.paired and loop in mine.paired:
            value, how = mine.paired[loop], " (paired)"
        if target.tolerance:
            ok = value >= target.factor * (1 - target.tolerance)
        elif target.factor == 1.0:
            ok = value > 1.0
        else:
            ok = value >= target.factor
        failed += not ok
        out.append(f"| {target.text} | {fmt_ratio(value)}{how} | {'pass' if ok else 'FAIL'} |")
    return out + [""], failed


def memory_lines(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = [
        "### memory",
        "",
        (
            f"{data['urls']:,} URLs, mean sys.getsizeof(s) = {data['mean_str_bytes']:.1f} B; "
            f"budget per compiled URI = getsizeof(s) + {data['overhead_budget']} B."
        ),
        "",
        "| case | bytes per URL (text included) | over getsizeof(s) | within budget |",
        "|---|---:|---:|---|",
    ]
    for case in data["cases"]:
        if case.get("error"):
            out.append(f"| {case['case']} | — | — | {case['error']} |")
            continue
        within = (
            "—"
            if case["case"] != "fasturi-compiled"
            else ("yes" if case["over"] <= data["overhead_budget"] else "NO")
        )
        out.append(f"| {case['case']} | {case['per_url']:.1f} | {case['over']:+.1f} | {within} |")
    return out + [""]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("results", type=Path, help="pytest-benchmark --benchmark-json output")
    parser.add_argument("--memory", type=Path, help="output of benchmarks/memory.py --json")
    args = parser.parse_args(argv)

    rows, machine = load_rows(args.results)
    by_group: dict[str, list[Row]] = {}
    for row in rows:
        by_group.setdefault(row.group, []).append(row)

    cpu = machine.get("cpu", {}).get("brand_raw", machine.get("processor", "?"))
    lines = [
        (
            f"Python {machine.get('python_version', '?')} on {machine.get('system', '?')} "
            f"{machine.get('release', '')}, {cpu}."
        ),
        "",
    ]
    peers = machine.get("peers")
    if peers:
        lines += ["Versions: " + ", ".join(f"{k} {v}" for k, v in peers.items()) + ".", ""]
    for line in machine.get("fasturi", []):
        lines += [line, ""]
    known = {g: i for i, g in enumerate(ORDER)}
    for group in sorted(by_group, key=lambda g: (known.get(g, len(ORDER)), g)):
        lines += group_table(group, by_group[group])
    targets, failed = target_lines(by_group)
    lines += targets
    if args.memory:
        lines += memory_lines(args.memory)
    sys.stdout.write("\n".join(lines))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
