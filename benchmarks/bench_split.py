"""fasturi.split (RFC 3986 Appendix B) against the other URL splitters."""

import peers
import pytest


@pytest.mark.parametrize("adapter", peers.adapters("split"), ids=str)
def bench_split(measure, adapter):
    measure(adapter)
