"""fasturi.canonicalize (a crawler's dedup key) against w3lib's."""

import peers
import pytest


@pytest.mark.parametrize("adapter", peers.adapters("canonicalize"), ids=str)
def bench_canonicalize(measure, adapter):
    measure(adapter)
