"""The ABNF rule tests' tables as test parameters: shared by the tests of
each grammar (RFC 3986, RFC 3987, RFC 2396)."""

from __future__ import annotations

import pytest


def flat(cases):
    """{rule: [(text, want), ...]} as one (rule, text, want) parameter a case."""
    return [
        pytest.param(rule, text, want, id=f"{rule}-{text!r}")
        for rule, items in cases.items()
        for text, want in items
    ]
