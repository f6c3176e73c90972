"""The crawler and archive tools (docs/reference.md §4) against the packages crawlers
use today: registrable_domain vs tldextract and publicsuffixlist, surt vs
surt, canonicalize(preset="w3lib") vs w3lib.url.canonicalize_url; and each
column form (fasturi.arrow, on one and two threads) against the list
comprehension of its scalar function, over the same rows."""

from __future__ import annotations

import functools
from typing import Any, Callable

import peers
import pyarrow as pa
import pytest
from corpus import Corpus

import fasturi
import fasturi.arrow
from fasturi._impl import NO_EXTENSIONS

# these cases call the public functions: the twin _impl chose
PEER = "fasturi-python" if NO_EXTENSIONS else "fasturi-compiled"


@pytest.mark.parametrize("adapter", peers.adapters("registrable_domain"), ids=str)
def bench_registrable_domain(measure, adapter):
    measure(adapter)


@pytest.mark.parametrize("adapter", peers.adapters("surt"), ids=str)
def bench_surt(measure, adapter):
    measure(adapter)


def _accepted(fn: Callable[[str], Any], inputs: str) -> Callable[[Corpus], list[str]]:
    # the rows fn takes: a batch or a column fails on any row it refuses
    @functools.lru_cache(maxsize=1)
    def rows(corpus: Corpus) -> list[str]:
        out = []
        for row in corpus.inputs(inputs):
            try:
                fn(row)
            except ValueError:
                continue
            out.append(row)
        return out

    return rows


W3LIB = functools.partial(fasturi.canonicalize, preset="w3lib")
W3LIB_MANY = [
    # the batch form, one call per round, over the rows w3lib's key exists for
    peers.Adapter(
        "canonicalize.w3lib",
        PEER,
        lambda: functools.partial(fasturi.canonicalize_many, preset="w3lib"),
        variant="many",
        batch=True,
        prepare=_accepted(W3LIB, "urls"),
        note="canonicalize_many(list, preset='w3lib'): no keyword argument per URL",
    )
]


@pytest.mark.parametrize("adapter", peers.adapters("canonicalize.w3lib") + W3LIB_MANY, ids=str)
def bench_canonicalize_w3lib(measure, adapter):
    measure(adapter)


def _column_cases(
    group: str, inputs: str, scalar: Callable[[str], Any], column: Callable[..., Any]
) -> list[peers.Adapter]:
    """column(array, threads=1 and 2) and [scalar(u) for u in rows], over
    the same rows (those scalar accepts)."""
    rows = _accepted(scalar, inputs)

    def as_array(corpus: Corpus) -> list[Any]:
        return [pa.array(rows(corpus), type=pa.string())]

    cases = [
        peers.Adapter(
            group,
            PEER,
            lambda: lambda items: [scalar(u) for u in items],
            variant="list",
            batch=True,
            prepare=rows,
        )
    ]
    for threads in (1, 2):
        cases.append(
            peers.Adapter(
                group,
                PEER,
                lambda threads=threads: lambda items: column(items[0], threads=threads),
                variant=f"arrow-threads{threads}",
                batch=True,
                prepare=as_array,
                count=lambda items: len(items[0]),
            )
        )
    return cases


COLUMNS = (
    _column_cases(
        "registrable_domain.column",
        "web",
        fasturi.registrable_domain,
        fasturi.arrow.registrable_domain,
    )
    + _column_cases("surt.column", "web", fasturi.surt, fasturi.arrow.surt)
    + _column_cases(
        "canonicalize.w3lib.column",
        "urls",
        W3LIB,
        functools.partial(fasturi.arrow.canonicalize, preset="w3lib"),
    )
    + _column_cases(
        "fingerprint.w3lib.column",
        "urls",
        functools.partial(fasturi.fingerprint, preset="w3lib"),
        functools.partial(fasturi.arrow.fingerprint, preset="w3lib"),
    )
)


@pytest.mark.parametrize("adapter", COLUMNS, ids=lambda a: f"{a.group}:{a.name}")
def bench_crawler_columns(measure, adapter):
    measure(adapter)
