"""fasturi.normalize (RFC 3986 §6.2.2-§6.2.3) against the other normalizers."""

import peers
import pytest


@pytest.mark.parametrize("adapter", peers.adapters("normalize"), ids=str)
def bench_normalize(measure, adapter):
    measure(adapter)
