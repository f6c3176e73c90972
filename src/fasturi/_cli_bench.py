"""``fasturi bench``: fasturi against urllib.parse and the installed peers,
on the corpus shipped in the package, in nanoseconds per URL.

The third-party peers and their notes are the benchmark suite's own
(``fasturi._peers``); this command adds the fasturi calls, the column
functions and the engine paths (``fasturi._bench_engines``) and times each
one over the whole corpus.
"""

from __future__ import annotations

import argparse
import os
import sys
import textwrap
from datetime import date
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import fasturi

from ._cli_commands import _json
from ._cli_parser import EXIT_ERROR, EXIT_OK, OPERATIONS
from ._peers import PEERS

# The printed table and its footnotes fit a terminal this wide.
TABLE_WIDTH = 100

# (operation, label, kind, factory, note).  kind "url" takes each URL, "pair"
# each (base, reference), "batch"/"pages" one call for all URLs / per page.
# A factory imports its library and returns the function, so an absent peer
# costs nothing and is reported as such.
_Entry = Tuple[str, str, str, Callable[[], Callable[..., Any]], str]


def _fasturi_attr(name: str) -> Callable[[], Callable[..., Any]]:
    return lambda: getattr(fasturi, name)


def _parse_attr(module: str, name: str) -> Callable[[], Callable[..., Any]]:
    def factory() -> Callable[..., Any]:
        import importlib

        return getattr(importlib.import_module(module), name)  # type: ignore[no-any-return]

    return factory


def _entries() -> List[_Entry]:
    """Per operation: the fasturi calls, then the peers of ``fasturi._peers``."""
    ours: Dict[str, List[_Entry]] = {
        op: [(op, f"fasturi.{op}", "pair" if op == "resolve" else "url", _fasturi_attr(op), "")]
        for op in ("split", "resolve", "normalize", "canonicalize", "is_valid")
    }
    for op in ("split", "normalize", "canonicalize"):
        ours[op].append(
            (op, f"fasturi.{op}_many", "batch", _fasturi_attr(op + "_many"), "one call per corpus")
        )
    ours["resolve"].append(
        (
            "resolve",
            "fasturi.resolve_many",
            "pages",
            _fasturi_attr("resolve_many"),
            "one call per page (shared base)",
        )
    )
    entries: List[_Entry] = []
    for op, own in ours.items():
        entries += own
        kind = "pair" if op == "resolve" else "url"
        entries += [(op, p.label, kind, p.load, p.note) for p in PEERS if p.operation == op]
    # the urllib.parse drop-in against the stdlib it replaces
    for op, kind, note in (
        ("urlsplit", "url", ""),
        ("urljoin", "pair", ""),
        ("quote", "url", "each URL quoted whole"),
    ):
        for module in ("fasturi.parse", "urllib.parse"):
            entries.append((op, f"{module}.{op}", kind, _parse_attr(module, op), note))
    return entries


BENCH: List[_Entry] = _entries()


def _all_entries() -> List[_Entry]:
    """BENCH with the column and engine rows, grouped by operation."""
    from ._bench_engines import ENTRIES

    order = {op: i for i, op in enumerate(OPERATIONS)}
    return sorted(BENCH + ENTRIES, key=lambda entry: order[entry[0]])  # stable


def _data_lines(name: str, path: Optional[str]) -> List[str]:
    if path is None:
        from importlib.resources import files

        raw = files("fasturi").joinpath("data", name).read_bytes()
    else:
        with open(path, "rb") as f:
            raw = f.read()
    return [line for line in raw.decode("utf-8", "replace").splitlines() if line]


def _runner(kind: str, func: Callable[..., Any]) -> Callable[[Any], int]:
    """A pass over the corpus returning how many items raised."""
    if kind == "setup":
        return lambda _: (func(), 0)[1]
    if kind == "batch":
        return lambda urls: len(func(urls)) * 0
    if kind == "pages":
        return lambda pages: sum(len(func(base, refs)) * 0 for base, refs in pages)

    if kind == "pair":

        def run_pairs(pairs: List[Tuple[str, str]]) -> int:
            failed = 0
            for base, ref in pairs:
                try:
                    func(base, ref)
                except Exception:  # noqa: BLE001 - a peer rejecting input is counted
                    failed += 1
            return failed

        return run_pairs

    def run_urls(urls: List[str]) -> int:
        failed = 0
        for url in urls:
            try:
                func(url)
            except Exception:  # noqa: BLE001 - a peer rejecting input is counted
                failed += 1
        return failed

    return run_urls


def _clock() -> Callable[[], int]:
    # CPU time of this process where it is precise (POSIX): a busy machine
    # then delays a pass without inflating it.  Windows counts process time
    # in 15.6 ms ticks, so there the wall clock is the better measure.
    import time

    return time.process_time_ns if os.name == "posix" else time.perf_counter_ns


def _time(run: Callable[[Any], int], data: Any, rounds: int) -> Tuple[int, int]:
    """Best of ``rounds`` passes in nanoseconds, and the failures of one pass."""
    import gc

    clock = _clock()
    best, failed, spent = None, 0, 0
    for _ in range(max(1, rounds)):
        if spent > 1_000_000_000:  # a slow peer: a second of passes is enough
            break
        enabled = gc.isenabled()
        gc.disable()
        try:
            start = clock()
            failed = run(data)
            elapsed = clock() - start
        finally:
            if enabled:
                gc.enable()
        best = elapsed if best is None or elapsed < best else best
        spent += elapsed
    return best or 0, failed


def bench(args: argparse.Namespace) -> int:
    """Run ``fasturi bench``; returns the exit status."""
    import platform
    import warnings

    ops = [o.strip() for o in args.ops.split(",") if o.strip()]
    unknown = [o for o in ops if o not in OPERATIONS]
    if unknown or not ops:
        sys.stderr.write(
            f"fasturi bench: unknown operation {unknown[0] if unknown else ''!r}; "
            f"choose from {', '.join(OPERATIONS)}\n"
        )
        return EXIT_ERROR
    problem = _plot_problem(args.plot) if args.plot else None
    if problem:  # before minutes of timing, not after
        sys.stderr.write(f"fasturi bench: --plot {args.plot}: {problem}\n")
        return EXIT_ERROR
    try:
        urls = _data_lines("urls.txt", args.corpus)
        pairs = [tuple(line.split("\t", 1)) for line in _data_lines("refs.tsv", args.refs)]
    except OSError as exc:
        sys.stderr.write(f"fasturi bench: cannot read corpus: {exc}\n")
        return EXIT_ERROR
    pairs = [p for p in pairs if len(p) == 2]
    pages: List[Tuple[str, List[str]]] = []
    for base, ref in pairs:
        if pages and pages[-1][0] == base:
            pages[-1][1].append(ref)
        else:
            pages.append((base, [ref]))
    data = {"url": urls, "batch": urls, "pair": pairs, "pages": pages}

    records: List[Dict[str, Any]] = []
    missing: Dict[str, str] = {}
    entries = [entry for entry in _all_entries() if entry[0] in ops]
    bar = _progress_bar(len(entries), args.no_progress)
    with warnings.catch_warnings():
        # Peers warn about deprecated calls; a benchmark only times them.
        warnings.simplefilter("ignore")
        for op, label, kind, factory, note in entries:
            if bar is not None:
                bar.set_description_str(f"bench {label}", refresh=False)
                bar.update()
            try:
                func = factory()
                if kind == "setup":
                    # a column or engine path: its input is built untimed
                    func = func(urls, pairs)
            except Exception as exc:  # noqa: BLE001 - absent or broken peer
                missing[label] = f"{type(exc).__name__}: {exc}"
                continue
            items = data.get(kind)
            count = len(pairs) if kind in ("pair", "pages") or op == "resolve" else len(urls)
            elapsed, failed = _time(_runner(kind, func), items, args.rounds)
            records.append(
                {
                    "operation": op,
                    "implementation": label,
                    "ns_per_item": elapsed / max(count, 1),
                    "items": count,
                    "failed": failed,
                    "note": note,
                }
            )
    if bar is not None:
        bar.close()

    python = f"{platform.python_implementation()} {platform.python_version()}"
    clock = "CPU" if os.name == "posix" else "wall-clock"
    if args.plot:
        title = f"fasturi {fasturi.__version__} ({fasturi.IMPLEMENTATION}) and its peers"
        subtitle = (
            f"{python}, {platform.system()} {platform.machine()}, {date.today().isoformat()};"
            f" {len(urls):,} URLs, {len(pairs):,} references;"
            f" best of {_rounds(args.rounds)} ({clock} time)"
        )
        try:
            _plot(records, args.plot, title, subtitle)
        except OSError as exc:
            sys.stderr.write(f"fasturi bench: --plot {args.plot}: {exc.strerror or exc}\n")
            return EXIT_ERROR
        sys.stderr.write(f"fasturi bench: plot written to {args.plot}\n")
    if args.json:
        for record in records:
            print(_json(record))
        return EXIT_OK
    print(
        textwrap.fill(
            f"fasturi {fasturi.__version__} ({fasturi.IMPLEMENTATION}), {python}; "
            f"{len(urls):,} URLs, {len(pairs):,} references; best of {_rounds(args.rounds)} "
            f"({clock} time)",
            TABLE_WIDTH,
        )
    )
    print()
    _print_table(records)
    if missing:
        print()
        print("not timed:")
        for label, why in missing.items():
            print(textwrap.fill(f"  {label}: {why}", TABLE_WIDTH, subsequent_indent="    "))
    return EXIT_OK


def _rounds(n: int) -> str:
    return "1 round" if n == 1 else f"{n} rounds"


def _progress_bar(total: int, off: bool) -> Any:
    """A tqdm bar of the rows timed, on stderr when it is a terminal (and
    not --no-progress), or None."""
    if off or not (sys.stderr is not None and sys.stderr.isatty()):
        return None
    try:
        from tqdm import tqdm  # type: ignore[import-untyped,unused-ignore]
    except ImportError:  # a dependency, but a bar is no reason to stop
        return None
    return tqdm(total=total, file=sys.stderr, leave=False, unit="row", dynamic_ncols=True)


def _plot_problem(path: str) -> Optional[str]:
    """Why the plot could not be written to ``path``, or None."""
    try:
        from matplotlib.figure import Figure
    except ImportError:
        return "needs matplotlib (pip install matplotlib)"
    formats = Figure().canvas.get_supported_filetypes()
    ext = os.path.splitext(path)[1].lstrip(".").lower()
    if ext not in formats:
        return f"matplotlib cannot write {'.' + ext if ext else 'a file without an extension'}; use one of {', '.join('.' + f for f in sorted(formats))}"
    folder = os.path.dirname(path) or "."
    if not os.path.isdir(folder):
        return f"no folder {folder}"
    if not os.access(folder, os.W_OK):
        return f"cannot write in {folder}"
    return None


def _plot(records: List[Dict[str, Any]], path: str, title: str, subtitle: str) -> None:
    """The table as a bar chart, written to ``path``."""
    import matplotlib

    matplotlib.use("Agg")  # a file, no display
    import matplotlib.pyplot as plt

    fig = _figure(records, title, subtitle)
    try:
        fig.savefig(path, dpi=150)
    finally:
        plt.close(fig)


def _figure(records: List[Dict[str, Any]], title: str, subtitle: str) -> Any:
    """The table as horizontal bars, one panel per operation, on one log
    scale shared by every panel (so bars compare across operations), each
    bar's value at its end, inside the frame; fasturi's bars coloured apart,
    the legend beside the title."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    from ._bench_engines import OURS

    ops = list(dict.fromkeys(r["operation"] for r in records))
    heights = [sum(r["operation"] == op for r in records) for op in ops]
    values = [max(r["ns_per_item"], 1e-3) for r in records]
    low, high = min(values), max(values)
    fig, axes = plt.subplots(
        len(ops),
        1,
        figsize=(10, 1.4 + 0.3 * sum(heights) + 0.45 * len(ops)),
        gridspec_kw={"height_ratios": heights},
        sharex=True,
        squeeze=False,
    )
    for ax, op in zip(axes[:, 0], ops):
        rows = [r for r in records if r["operation"] == op]
        labels = [r["implementation"] for r in rows]
        ns = [max(r["ns_per_item"], 1e-3) for r in rows]
        ours = [lab.startswith("fasturi") or lab in OURS for lab in labels]
        ax.barh(labels, ns, color=["#1f77b4" if o else "#9a9a9a" for o in ours], height=0.7)
        ax.invert_yaxis()  # the table's order, top down
        ax.set_title(op, loc="left", fontsize=11, fontweight="bold")
        ax.tick_params(axis="y", labelsize=9, length=0)
        ax.grid(axis="x", which="major", color="#e4e4e4", linewidth=0.8)
        ax.set_axisbelow(True)
        for side in ("top", "right"):
            ax.spines[side].set_visible(False)
        for y, (v, o) in enumerate(zip(ns, ours)):
            ax.text(
                v * 1.08,
                y,
                f"{v:,.0f}",
                va="center",
                fontsize=8,
                fontweight="bold" if o else "normal",
            )
    ax = axes[-1, 0]
    ax.set_xscale("log")
    ax.set_xlim(low / 1.6, high * 2.5)
    ax.xaxis.set_major_locator(LogLocator(base=10))
    ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: f"{x:,.0f}" if x >= 1 else f"{x:g}"))
    ax.xaxis.set_minor_formatter(NullFormatter())  # no labels between decades
    ax.set_xlabel("nanoseconds per URL (log scale; shorter is faster)", fontsize=10)
    # the title, a line under it, and the legend: a band of 0.8 inch above
    # the panels
    inch = 1 / fig.get_figheight()
    fig.suptitle(
        title, x=0.02, y=1 - 0.12 * inch, ha="left", va="top", fontsize=14, fontweight="bold"
    )
    fig.text(0.02, 1 - 0.5 * inch, subtitle, ha="left", va="top", fontsize=9, color="#444444")
    fig.legend(
        handles=[Patch(color="#1f77b4", label="fasturi"), Patch(color="#9a9a9a", label="others")],
        loc="upper right",
        bbox_to_anchor=(0.99, 1 - 0.45 * inch),
        ncol=2,
        frameon=False,
        fontsize=9,
    )
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.8 * inch))
    _fit_labels(fig, axes[:, 0], ax.get_xlim())
    return fig


def _fit_labels(fig: Any, axes: Any, limits: Tuple[float, float]) -> None:
    """Widens the shared scale until every bar's label ends inside its
    panel (a label's width in data units depends on the drawing)."""
    import math

    low, high = limits
    for _ in range(5):
        fig.canvas.draw()
        over = max(
            text.get_window_extent().x1 - ax.get_window_extent().x1
            for ax in axes
            for text in ax.texts
        )
        if over <= 0:
            return
        # in decades of the scale: the axes' width spans log10(high / low)
        width = axes[0].get_window_extent().width
        high *= 10 ** ((over + 6) / width * math.log10(high / low))
        axes[0].set_xlim(low, high)


def _print_table(records: List[Dict[str, Any]]) -> None:
    urllib_for = {
        "split": "urllib.parse.urlsplit",
        "resolve": "urllib.parse.urljoin",
        "urlsplit": "urllib.parse.urlsplit",
        "urljoin": "urllib.parse.urljoin",
        "quote": "urllib.parse.quote",
    }
    fasturi_for = {
        "urlsplit": "fasturi.parse.urlsplit",
        "urljoin": "fasturi.parse.urljoin",
        "quote": "fasturi.parse.quote",
    }
    by_label = {(r["operation"], r["implementation"]): r["ns_per_item"] for r in records}
    header = ("operation", "implementation", "ns/URL", "x urllib", "x fasturi", "notes")
    rows = []
    notes: Dict[str, int] = {}  # footnote text -> its number
    last_op = None
    for r in records:
        op, ns = r["operation"], r["ns_per_item"]
        base = by_label.get((op, urllib_for.get(op, "")))
        ours = by_label.get((op, fasturi_for.get(op, f"fasturi.{op}")))
        texts = [r["note"]] if r["note"] else []
        if r["failed"]:
            texts.append(
                f"raised on {r['failed']:,} of the {r['items']:,} inputs: the call raised an "
                "exception on them (input it rejects); they are still in the timing"
            )
        refs = "".join(f"[{notes.setdefault(t, len(notes) + 1)}]" for t in texts)
        rows.append(
            (
                op if op != last_op else "",
                r["implementation"],
                f"{ns:,.0f}",
                f"{base / ns:.2f}" if base and ns else "",
                f"{ns / ours:.2f}" if ours and ns else "",
                refs,
            )
        )
        last_op = op
    widths = [
        max(len(h), *(len(row[i]) for row in rows)) if rows else len(h)
        for i, h in enumerate(header)
    ]
    right = {2, 3, 4}

    def fmt(row: Sequence[str]) -> str:
        cells = [
            c.rjust(w) if i in right else c.ljust(w) for i, (c, w) in enumerate(zip(row, widths))
        ]
        return "  ".join(cells).rstrip()

    print(fmt(header))
    print(fmt(["-" * w for w in widths]))
    for row in rows:
        print(fmt(row))
    print()
    legend = [
        "x urllib: how many times faster than urllib.parse's function for the operation "
        "(empty where urllib.parse has none).",
        "x fasturi: how many times slower than fasturi's single-call function.",
    ]
    legend += [f"[{n}] {text}" for text, n in notes.items()]
    for line in legend:
        print(textwrap.fill(line, TABLE_WIDTH, subsequent_indent="    "))
