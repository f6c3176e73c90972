"""fasturi.URI(s), alone and with its five components read, against URL objects."""

import peers
import pytest


@pytest.mark.parametrize("adapter", peers.adapters("uri"), ids=str)
def bench_uri(measure, adapter):
    measure(adapter)
