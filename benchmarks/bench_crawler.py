"""The crawler and archive tools (API.md §8) against the packages crawlers
use today: registrable_domain vs tldextract and publicsuffixlist, surt vs
surt, canonicalize(preset="w3lib") vs w3lib.url.canonicalize_url."""

import peers
import pytest


@pytest.mark.parametrize("adapter", peers.adapters("registrable_domain"), ids=str)
def bench_registrable_domain(measure, adapter):
    measure(adapter)


@pytest.mark.parametrize("adapter", peers.adapters("surt"), ids=str)
def bench_surt(measure, adapter):
    measure(adapter)


@pytest.mark.parametrize("adapter", peers.adapters("canonicalize.w3lib"), ids=str)
def bench_canonicalize_w3lib(measure, adapter):
    measure(adapter)
