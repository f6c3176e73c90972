"""The code blocks of the README and of docs/*.md, and how to run them.

A block is a fenced block of a Markdown file.  ``python`` blocks are run:
one holding ``>>>`` prompts is a doctest (the doctest blocks of one file
share one namespace, as ``python -m doctest`` would give them, without
taking the closing fence for expected output); any other is a script, run
in a fresh namespace, or, when it guards its work with ``if __name__ ==
"__main__":``, as a script file in a child process (the way it is meant to
run).  In ``sh`` blocks, the lines that call the ``fasturi`` command are run
(``fasturi bench`` is run by tests/engines/test_bench.py); other lines
(``pip install``, ``python -m pytest``) set up, they are not recipes.  Other
blocks (output, trees, tables) are not code.

Everything runs in a folder of small input files (``make_fixtures``) named
as the recipes name them.  A block that imports an engine module
(``fasturi.pandas`` ... ``fasturi.dask``, DuckDB, Dask, Spark) runs in
tests/engines/test_docs_engines.py, with the ``engine`` marker; the others
in tests/test_docs.py.  For doctests that is per document: tests/test_docs.py
runs a document's doctest blocks but those that need an engine (no later
block may depend on one), the engine test runs them all.
"""

from __future__ import annotations

import doctest
import gzip
import io
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pyarrow as pa
import pyarrow.csv as pacsv
import pyarrow.parquet as pq

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]

_FENCE = re.compile(r"^(?P<indent> *)```(?P<lang>[\w+-]*)[^\n]*$")
_ENGINE = re.compile(
    r"^\s*(?:>>> )?(?:import|from)\s+(?:fasturi\.(?:pandas|polars|duckdb|spark|dask)|duckdb|dask|pyspark)\b",
    re.M,
)
_MAIN_GUARD = re.compile(r"^if __name__ == [\"']__main__[\"']:", re.M)


@dataclass(frozen=True)
class Block:
    path: Path
    line: int  # of the block's first line of code (1-based)
    lang: str
    text: str

    @property
    def name(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"

    @property
    def is_doctest(self) -> bool:
        return self.lang == "python" and ">>>" in self.text

    @property
    def needs_engine(self) -> bool:
        return bool(_ENGINE.search(self.text))

    @property
    def is_main_script(self) -> bool:
        return bool(_MAIN_GUARD.search(self.text))


def blocks(path: Path) -> List[Block]:
    """The fenced blocks of a Markdown file, in order."""
    found: List[Block] = []
    lines = path.read_text("utf-8").splitlines()
    i = 0
    while i < len(lines):
        m = _FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent = len(m.group("indent"))
        start = i + 1
        i = start
        while i < len(lines) and lines[i].strip() != "```":
            i += 1
        body = "\n".join(line[indent:] for line in lines[start:i]) + "\n"
        found.append(Block(path, start + 1, m.group("lang"), body))
        i += 1
    return found


def all_blocks() -> List[Block]:
    return [b for path in DOCUMENTS for b in blocks(path)]


def python_blocks(engine: bool) -> List[Block]:
    """The script blocks (not doctests) that need an engine, or that do not."""
    return [
        b
        for b in all_blocks()
        if b.lang == "python" and not b.is_doctest and b.needs_engine == engine
    ]


def doctest_documents(engine: bool) -> List[Path]:
    """Documents with doctest blocks: with one that needs an engine, or
    with one that does not."""
    return [
        path
        for path in DOCUMENTS
        if any(b.is_doctest and b.needs_engine == engine for b in blocks(path))
    ]


def runs(engine: bool) -> List[Any]:
    """What a test module runs, as pytest parameters: each document's
    doctests (one run a document), then each script block."""
    import pytest

    return [
        pytest.param(path, id=f"doctests:{path.relative_to(ROOT)}")
        for path in doctest_documents(engine)
    ] + [pytest.param(b, id=b.name) for b in python_blocks(engine)]


def command_lines() -> List[tuple]:
    """``(block, line number, command)`` for every line of an ``sh`` block that
    runs ``fasturi``."""
    found = []
    for b in all_blocks():
        if b.lang not in ("sh", "bash", "console", "shell"):
            continue
        lines = b.text.splitlines()
        # with "$ " prompts, the other lines are the commands' output
        prompted = any(line.startswith("$ ") for line in lines)
        for k, line in enumerate(lines):
            if prompted and not line.startswith("$ "):
                continue
            command = line[2:] if prompted else line
            words = command.split()
            if words[:1] == ["fasturi"] and words[1:2] != ["bench"]:
                found.append((b, b.line + k, command))
    return found


# ---- running ---------------------------------------------------------------------


def run_doctests(path: Path, engine: bool) -> None:
    """The doctest blocks of ``path`` in order, in one namespace; without
    ``engine``, the blocks that need one are left out (no block may then
    depend on them)."""
    globs: Dict[str, Any] = {"__name__": "__main__"}
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    out = io.StringIO()
    for b in blocks(path):
        if not b.is_doctest or (b.needs_engine and not engine):
            continue
        test = parser.get_doctest(b.text, globs, b.name, str(b.path), b.line - 1)
        runner.run(test, out=out.write, clear_globs=False)
        globs = test.globs  # a DocTest works on a copy: the next block goes on from it
    result = runner.summarize(verbose=False)
    assert result.attempted > 0, f"no examples in {path}"
    assert result.failed == 0, out.getvalue()


def run_script(block: Block, cwd: Path, prelude: str = "") -> Dict[str, Any]:
    """A script block in ``cwd``, in a fresh namespace; its namespace
    afterwards.  A block guarded by ``__main__``, or one given a
    ``prelude`` (code that makes what the block takes as given), runs as a
    file in a child Python instead, and gives ``{"stdout": ...}``."""
    if block.is_main_script or prelude:
        script = cwd / f"recipe_{block.path.stem}_{block.line}.py"
        script.write_text(prelude + block.text, "utf-8")
        done = subprocess.run(
            [sys.executable, str(script)],
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=600,
        )
        assert done.returncode == 0, f"{block.name}:\n{done.stdout}\n{done.stderr}"
        return {"stdout": done.stdout}
    namespace: Dict[str, Any] = {"__name__": "__recipe__"}
    before = Path.cwd()
    os.chdir(cwd)
    try:
        # blank lines above the code: a traceback names the document's own line
        code = "\n" * (block.line - 1) + block.text
        exec(compile(code, str(block.path), "exec"), namespace)
    finally:
        os.chdir(before)
    return namespace


def run_command(line: str, cwd: Path) -> subprocess.CompletedProcess:
    """A ``fasturi ...`` line of an ``sh`` block, through bash, in ``cwd``,
    with this interpreter's fasturi."""
    prelude = f'fasturi() {{ "{sys.executable}" -m fasturi "$@"; }}\n'
    return subprocess.run(
        ["bash", "-c", prelude + line],
        cwd=cwd,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        timeout=300,
    )


# ---- the files the recipes read --------------------------------------------------

PAGE = "https://example.com/docs/guide/"
URLS: List[Optional[str]] = [
    "HTTP://Example.COM:80/a/./b/../c?utm_source=x&y=2&x=1#Frag",
    "https://www.example.com/docs/?b=2&a=1&fbclid=abc",
    "http://user:pw@[::1]:8080/p%7e",
    "mailto:someone@example.org",
    "https://www.bbc.co.uk/news",
    "http://a/b c",
    None,
    "https://caf\u00e9.example/\u00fc?q=\u00e9",
]
HREFS: List[Optional[str]] = [
    "../img/a.png",
    "#top",
    "//cdn.example.net/x.js",
    "?q=1",
    "",
    None,
    "g;p",
    "/abs",
]


def make_fixtures(folder: Path) -> Path:
    """The input files the recipes name, small, in ``folder``."""
    table = pa.table({"url": URLS, "href": HREFS})
    pq.write_table(table, folder / "crawl.parquet")
    (folder / "logs").mkdir()
    (folder / "crawl").mkdir()
    for k in range(2):
        half = table.slice(4 * k, 4)
        pq.write_table(half, folder / "logs" / f"part-{k}.parquet")
        pq.write_table(half, folder / "crawl" / f"part-{k}.parquet")
    links = pa.table({"page": [PAGE] * len(HREFS), "href": [h or "" for h in HREFS]})
    pacsv.write_csv(links, folder / "links.csv")
    text = [u for u in URLS if u is not None]
    (folder / "urls.txt").write_text("\n".join(text) + "\n", "utf-8")
    (folder / "urls-1.txt").write_text("\n".join(text[:4]) + "\n", "utf-8")
    (folder / "urls-2.txt").write_text("\n".join(text[4:]) + "\n", "utf-8")
    (folder / "refs.txt").write_text("\n".join(h or "" for h in HREFS) + "\n", "utf-8")
    (folder / "access.log").write_text(
        '127.0.0.1 - - "GET /x" 200 "See <URL:http://a/b c> or http://example.org/x)."\n'
        "10.0.0.2 referer=https://www.example.com/docs/?a=1 ok\n",
        "utf-8",
    )
    # (a rotated log: the command line reads it decompressed)
    (folder / "access.log.1.gz").write_bytes(gzip.compress((folder / "access.log").read_bytes()))
    return folder


# ---- the entries of docs/reference.md ----------------------------------------------

REFERENCE = ROOT / "docs" / "reference.md"
_SPAN = re.compile(r"`([^`]+)`")
_ENTRY_LINE = re.compile(r"^(?:#{2,4} |\| )(`.*)$")


@dataclass(frozen=True)
class Entry:
    name: str  # as written: "fasturi.split", "URI.port", "Series.uri.host"
    params: Optional[List[str]]  # as written, None for a name without "(...)"
    line: int


def _split_params(text: str) -> List[str]:
    """``a, b=(1, 2), *, c="x,y"`` -> ``["a", "b=(1, 2)", "*", 'c="x,y"']``."""
    out, depth, quote, start = [], 0, "", 0
    for i, c in enumerate(text):
        if quote:
            quote = "" if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            out.append(text[start:i].strip())
            start = i + 1
    if text.strip():
        out.append(text[start:].strip())
    return out


def _entry(span: str, prefix: str, line: int) -> Entry:
    head, paren, rest = span.partition("(")
    if not paren:
        return Entry(prefix + span.strip(), None, line)
    depth, end = 1, 0
    while depth and end < len(rest):
        depth += (rest[end] == "(") - (rest[end] == ")")
        end += 1
    return Entry(prefix + head.strip(), _split_params(rest[: end - 1]), line)


def reference_entries() -> List[Entry]:
    """Every entry of the reference: a heading that is a code span, or the
    code spans of a table row's first cell; in a cell, a span starting with
    "." (or with no dot) continues the first span's prefix."""
    entries = []
    for number, text in enumerate(REFERENCE.read_text("utf-8").splitlines(), 1):
        m = _ENTRY_LINE.match(text)
        if not m:
            continue
        cell = m.group(1).split(" | ")[0] if text.startswith("|") else m.group(1)
        spans = _SPAN.findall(cell)
        if not spans or not cell.startswith("`"):
            continue
        first = _entry(spans[0], "", number)
        entries.append(first)
        prefix = first.name.rpartition(".")[0] + "." if "." in first.name else ""
        for span in spans[1:]:
            entries.append(_entry(span.lstrip("."), prefix, number))
    return entries


def documented_names() -> Dict[str, Entry]:
    return {e.name: e for e in reference_entries()}


def signature_words(params: List[str]) -> List[str]:
    """A documented parameter list as names and markers: ``["col", "fields",
    "*", "threads"]``, ``["**components"]``."""
    words = []
    for p in params:
        p = p.split("=", 1)[0].split(":", 1)[0].strip()
        words.append(p)
    return words


def code_words(func: Any, drop: Tuple[str, ...] = ()) -> Optional[List[str]]:
    """The same for a callable, ``self``, ``cls`` and the names in ``drop``
    left out; None when it has no signature to read."""
    import inspect

    try:
        sig = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    params = [p for p in sig.parameters.values() if p.name not in ("self", "cls", *drop)]
    words: List[str] = []
    star = False
    for p in params:
        if p.kind is p.KEYWORD_ONLY and not star:
            words.append("*")
            star = True
        if p.kind is p.VAR_POSITIONAL:
            words.append("*" + p.name)
            star = True
        elif p.kind is p.VAR_KEYWORD:
            words.append("**" + p.name)
        else:
            words.append(p.name)
    return words


def check_entries(expected: Dict[str, Any], drop: Tuple[str, ...] = ()) -> List[str]:
    """What is wrong with the reference's entries for ``expected`` (documented
    name -> object): names without an entry, callables whose documented
    parameters differ from the code's (less the parameters in ``drop``: the
    Series an accessor method is called on)."""
    documented = documented_names()
    problems = []
    for name, obj in expected.items():
        entry = documented.get(name)
        if entry is None:
            problems.append(f"{name}: no entry in docs/reference.md")
            continue
        if entry.params is None or not callable(obj):
            continue
        want = code_words(obj, drop)
        if want is not None and signature_words(entry.params) != want:
            problems.append(
                f"{name} (docs/reference.md:{entry.line}): documented "
                f"({', '.join(signature_words(entry.params))}), the code has ({', '.join(want)})"
            )
    return problems


def public(obj: Any) -> List[str]:
    return sorted(n for n in dir(obj) if not n.startswith("_"))
