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
        return [parts.path for parts in self._splits if parts.path]

    @cached_property
    def raw_paths(self) -> list[str]:
        """Decoded paths: what a program hands to ``quote``."""
        return [urllib.parse.unquote(path) for path in self.paths]

    @cached_property
    def queries(self) -> list[str]:
        """Non-empty queries as written, for ``unquote_plus`` and ``parse_qsl``."""
        return [parts.query for parts in self._splits if parts.query]

    @cached_property
    def raw_queries(self) -> list[str]:
        """Decoded queries: what a program hands to ``quote_plus``."""
        return [urllib.parse.unquote_plus(query) for query in self.queries]

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
        return out

    def inputs(self, name: str) -> list:  # type: ignore[type-arg]
        return getattr(self, name)  # type: ignore[no-any-return]

    def sizes(self) -> dict[str, int]:
        return {"urls": len(self.urls), "stream": len(self.stream), "refs": len(self.refs)}
