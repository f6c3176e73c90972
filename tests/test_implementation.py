"""The active implementation is the one the environment asks for."""

from conftest import PURE

import fasturi


def test_implementation_matches_environment():
    # A build without the compiled core must fail here, not pass as python.
    assert fasturi.IMPLEMENTATION == ("python" if PURE else "compiled")
