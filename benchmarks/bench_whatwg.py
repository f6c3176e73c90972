"""fasturi.whatwg.parse over urls.txt and fasturi.whatwg.resolve over
refs.tsv, against ada's bindings (ada_url, can_ada): the same standard."""

import peers
import pytest


@pytest.mark.parametrize("adapter", peers.adapters("whatwg"), ids=str)
def bench_whatwg(measure, adapter):
    measure(adapter)


@pytest.mark.parametrize("adapter", peers.adapters("whatwg.resolve"), ids=str)
def bench_whatwg_resolve(measure, adapter):
    measure(adapter)
