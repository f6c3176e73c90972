"""Shared fixtures: run twin-level tests against both implementations.

Under FASTURI_NO_EXTENSIONS=1 the compiled cases are deselected (not
skipped); otherwise a missing extension is an error.
"""

from __future__ import annotations

import importlib
import os

import pytest
from hypothesis import HealthCheck, settings

from fasturi._impl import NO_EXTENSIONS as PURE

IMPLS = ["python"] if PURE else ["compiled", "python"]

settings.register_profile(
    "default", deadline=None, max_examples=200, suppress_health_check=[HealthCheck.too_slow]
)
# .ci/run's runs on the other interpreters: every property still runs, on
# fewer examples (the main interpreter's run uses the default).
settings.register_profile(
    "quick", deadline=None, max_examples=40, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "thorough", deadline=None, max_examples=5000, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def _twin(stem: str, impl: str):
    return importlib.import_module(f"fasturi._{stem}_{'c' if impl == 'compiled' else 'py'}")


@pytest.fixture(scope="module", params=IMPLS)
def core(request):
    """The _core twin (compiled and python)."""
    return _twin("core", request.param)


@pytest.fixture(scope="module", params=IMPLS)
def rules(request):
    """The _rules twin (compiled and python)."""
    return _twin("rules", request.param)


@pytest.fixture(scope="module", params=IMPLS)
def urimod(request):
    """The _uri twin (compiled and python)."""
    return _twin("uri", request.param)


@pytest.fixture(scope="module", params=IMPLS)
def psl(request):
    """The _psl twin (compiled and python)."""
    return _twin("psl", request.param)


@pytest.fixture(scope="module", params=IMPLS)
def surtmod(request):
    """The _surt twin (compiled and python)."""
    return _twin("surt", request.param)


@pytest.fixture(scope="module", params=IMPLS)
def pipeline(request):
    """The _pipeline twin (compiled and python)."""
    return _twin("pipeline", request.param)


@pytest.fixture(scope="module", params=IMPLS)
def arrow(request):
    """fasturi.arrow on the column kernels of one implementation."""
    import fasturi.arrow as module

    saved = module._kernels
    module._kernels = _twin("arrow", request.param)
    yield module
    module._kernels = saved


def pytest_configure(config):
    config.addinivalue_line("markers", "parity: compares the compiled twin with the python twin")
    config.addinivalue_line("markers", "compiled: a property of the compiled core alone")


def pytest_collection_modifyitems(config, items):
    # Parity tests need both twins, and compiled ones the compiled core; the
    # pure run deselects them.
    if not PURE:
        return
    keep = [
        item
        for item in items
        if item.get_closest_marker("parity") is None and item.get_closest_marker("compiled") is None
    ]
    if len(keep) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep


def twin_pair(stem: str):
    """(compiled, python) modules of one twin, for parity tests."""
    return _twin(stem, "compiled"), _twin(stem, "python")
