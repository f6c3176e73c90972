"""The benchmark corpus and the inputs derived from it.

The corpus directory holds ``urls.txt`` (unique URLs), ``stream.txt`` (URLs in
reading order, repeats kept) and ``refs.tsv`` (``base<TAB>reference``).  It is
found through ``FASTURI_CORPUS``, else in ``shared/corpus`` beside the
checkout.  Derived inputs (paths, queries, ...) are computed once with the
stdlib, so every peer gets the same items.
"""

from __future__ import annotations

import os
import urllib.parse
from functools import cached_property
from pathlib import Path

HERE = Path(__file__).resolve().parent


def corpus_dir() -> Path:
    env = os.environ.get("FASTURI_CORPUS")
    path = Path(env) if env else HERE.parent.parent / "shared" / "corpus"
    if not (path / "urls.txt").is_file():
        raise FileNotFoundError(
            f"benchmark corpus not found in {path}: set FASTURI_CORPUS to a directory "
            "holding urls.txt, stream.txt and refs.tsv"
        )
    return path


def _laid_out(items: list[str]) -> list[str]:
    """Fresh copies of items, made one after another in list order.

    A list read from a file (``urls``) holds strs allocated in reading order,
    as a program's input would be.  A list pulled out of split results holds
    strs allocated between those results' other parts, so each item sits on
    cache lines of its own and every call, to any peer, first waits on memory:
    on this project's machines that wait (30-40 ns) was larger than
    ``quote``'s whole work and varied from minute to minute.  Copied, derived
    inputs are laid out as if they had been read from their own file.
    """
    return [
        item.encode("utf-8", "surrogatepass").decode("utf-8", "surrogatepass") for item in items
    ]


def _lines(path: Path) -> list[str]:
    # split("\n"), not splitlines(): URLs may hold \x0b, \x1c, U+2028, ...
    text = path.read_text(encoding="utf-8")
    return [line for line in text.split("\n") if line]


class Corpus:
    """Lazily loaded corpus files and derived input lists (each built once)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or corpus_dir()

    @cached_property
    def urls(self) -> list[str]:
        return _lines(self.path / "urls.txt")

    @cached_property
    def stream(self) -> list[str]:
        return _lines(self.path / "stream.txt")

    @cached_property
    def refs(self) -> list[tuple[str, str]]:
        pairs = []
        for line in _lines(self.path / "refs.tsv"):
            base, _, ref = line.partition("\t")
            pairs.append((base, ref))
        return pairs

    @cached_property
    def _splits(self) -> list[urllib.parse.SplitResult]:
        out = []
        for url in self.urls:
            try:
                out.append(urllib.parse.urlsplit(url))
            except ValueError:  # the few URLs the stdlib rejects
                continue
        return out

    @cached_property
    def split_results(self) -> list[urllib.parse.SplitResult]:
        """urlsplit's results, for ``urlunsplit``."""
        return list(self._splits)

    @cached_property
    def parse_results(self) -> list[urllib.parse.ParseResult]:
        """urlparse's results, for ``urlunparse``."""
        out = []
        for url in self.urls:
            try:
                out.append(urllib.parse.urlparse(url))
            except ValueError:
                continue
        return out

    @cached_property
    def paths(self) -> list[str]:
        """Paths as written (percent-encoded), for ``unquote``."""
        return _laid_out([parts.path for parts in self._splits if parts.path])

    @cached_property
    def raw_paths(self) -> list[str]:
        """Decoded paths: what a program hands to ``quote``."""
        return _laid_out([urllib.parse.unquote(path) for path in self.paths])

    @cached_property
    def queries(self) -> list[str]:
        """Non-empty queries as written, for ``unquote_plus`` and ``parse_qsl``."""
        return _laid_out([parts.query for parts in self._splits if parts.query])

    @cached_property
    def raw_queries(self) -> list[str]:
        """Decoded queries: what a program hands to ``quote_plus``."""
        return _laid_out([urllib.parse.unquote_plus(query) for query in self.queries])

    @cached_property
    def query_pairs(self) -> list[list[tuple[str, str]]]:
        """Decoded field lists, for ``urlencode``."""
        pairs = (urllib.parse.parse_qsl(query, keep_blank_values=True) for query in self.queries)
        return [fields for fields in pairs if fields]

    @cached_property
    def web(self) -> list[str]:
        """The http and https URLs, for the crawler tools (surt keys them)."""
        return [url for url in self.urls if url.startswith(("http://", "https://"))]

    @cached_property
    def hosts(self) -> list[str]:
        """Hosts (urlsplit's hostname) of the web URLs, for PSL peers that
        take a host, not a URL."""
        out = []
        for url in self.web:
            try:
                host = urllib.parse.urlsplit(url).hostname
            except ValueError:
                continue
            if host:
                out.append(host)
        return _laid_out(out)

    def inputs(self, name: str) -> list:  # type: ignore[type-arg]
        return getattr(self, name)  # type: ignore[no-any-return]

    def sizes(self) -> dict[str, int]:
        return {"urls": len(self.urls), "stream": len(self.stream), "refs": len(self.refs)}
