"""fasturi.resolve (RFC 3986 §5.2) over refs.tsv against the other joiners."""

import peers
import pytest


@pytest.mark.parametrize("adapter", peers.adapters("resolve"), ids=str)
def bench_resolve(measure, adapter):
    measure(adapter)
