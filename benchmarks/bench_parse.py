"""fasturi.parse, the urllib.parse drop-in, against the stdlib it replaces.

One group per function (``parse.<name>``); ``parse.urlsplit-stream`` keeps
the caches warm across rounds over stream.txt, where URLs repeat.
"""

import peers
import pytest


@pytest.mark.parametrize("adapter", peers.adapters("parse"), ids=lambda a: f"{a.group}-{a.name}")
def bench_parse(measure, adapter):
    measure(adapter)
