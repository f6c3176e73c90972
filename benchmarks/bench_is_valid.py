"""fasturi.is_valid (URI-reference, RFC 3986 Appendix A) against the validators."""

import peers
import pytest


@pytest.mark.parametrize("adapter", peers.adapters("is_valid"), ids=str)
def bench_is_valid(measure, adapter):
    measure(adapter)
