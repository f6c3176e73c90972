"""The active implementation is the one the environment asks for."""

import fasturi
from conftest import PURE


def test_implementation_matches_environment():
    # A build without the compiled core must fail here, not pass as python.
    assert fasturi.IMPLEMENTATION == ("python" if PURE else "compiled")
