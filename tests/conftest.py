"""The test harness: one fixture per implementation, and fixtures from it.

``impl`` is ``"compiled"`` or ``"python"``; the compiled case carries the
``compiled`` marker.  Under FASTURI_NO_EXTENSIONS=1 (read once, by
``fasturi._impl``) the ``compiled`` and ``parity`` cases are deselected, not
skipped; otherwise a missing extension is an error.  Every twin fixture
(``core``, ``rules``, ``urimod``, ``pipeline``, ``extractmod``) derives from
``impl``; parity tests take both twins from ``twin_pair``.
"""

from __future__ import annotations

import importlib
import os
import sys

import pytest
from hypothesis import HealthCheck, settings

from fasturi._impl import NO_EXTENSIONS

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

# w3lib 2.5, whose keys canonicalize(preset="w3lib") reproduces, installs on
# Python 3.10 and newer only: its agreement tests cannot run on 3.9.
# Likewise ada-url 4, which implements the URL Standard that
# fasturi.whatwg is compared with (ada-url 1.x, the last for 3.9, is an
# older edition of it: ASCII hosts still went through UTS #46 there).
collect_ignore = (
    ["test_w3lib_agreement.py", "test_whatwg_ada.py"] if sys.version_info < (3, 10) else []
)

# The implementations this run tests (the pure run has no compiled one).
TESTED = ("python",) if NO_EXTENSIONS else ("compiled", "python")


def _module(stem: str, impl: str):
    if stem == "whatwg":
        # as a user meets the twin: chosen by _impl, which registers how
        # either twin's URLs pickle
        assert importlib.import_module("fasturi._impl").whatwg is not None
    return importlib.import_module(f"fasturi._{stem}_{'c' if impl == 'compiled' else 'py'}")


@pytest.fixture(
    scope="module",
    params=[
        pytest.param("compiled", marks=pytest.mark.compiled),
        pytest.param("python", marks=pytest.mark.reference),
    ],
)
def impl(request) -> str:
    """The implementation under test: "compiled" or "python"."""
    return request.param


@pytest.fixture(scope="module")
def twin(impl):
    """``twin("core")``: that stem's module of the implementation under test."""
    return lambda stem: _module(stem, impl)


@pytest.fixture(scope="module")
def core(twin):
    return twin("core")


@pytest.fixture(scope="module")
def rules(twin):
    return twin("rules")


@pytest.fixture(scope="module")
def urimod(twin):
    return twin("uri")


@pytest.fixture(scope="module")
def pipeline(twin):
    return twin("pipeline")


@pytest.fixture(scope="module")
def extractmod(twin):
    return twin("extract")


@pytest.fixture(scope="session")
def twin_pair():
    """``twin_pair("core")``: (compiled, python) modules, for ``parity`` tests."""
    return lambda stem: (_module(stem, "compiled"), _module(stem, "python"))


@pytest.fixture(scope="session")
def every_twin():
    """``every_twin("rules")``: that stem's module of every implementation
    this run tests, for properties whose examples cost more to draw than
    to check on each twin."""
    return lambda stem: [_module(stem, impl) for impl in TESTED]


@pytest.fixture(scope="module")
def psl(twin):
    return twin("psl")


@pytest.fixture(scope="module")
def surtmod(twin):
    return twin("surt")


@pytest.fixture(scope="module")
def arrow(twin):
    """fasturi.arrow on the column kernels of the implementation under test."""
    import fasturi.arrow as module

    saved = module._kernels
    module._kernels = twin("arrow")
    yield module
    module._kernels = saved


def pytest_configure(config):
    config.addinivalue_line("markers", "parity: compares the compiled twin with the python twin")
    config.addinivalue_line("markers", "compiled: a property of the compiled core alone")
    config.addinivalue_line(
        "markers",
        "reference: a test of the pure-Python twin alone (the same code on every platform)",
    )
    config.addinivalue_line(
        "markers",
        "slow: a minute or more, and the same on every platform (instruction counts, leak"
        " loops, a property of 3,000 examples); the wheels' quick profile leaves it out",
    )
    config.addinivalue_line(
        "markers",
        "engine: runs a real engine (pandas, polars, DuckDB, Dask cluster, Spark session);"
        " tests/engines, needs fasturi[engines] and Java",
    )


def pytest_collection_modifyitems(config, items):
    # Parity tests need both twins, and compiled ones the compiled core; the
    # pure run deselects them.
    if not NO_EXTENSIONS:
        return
    keep = [
        item
        for item in items
        if item.get_closest_marker("parity") is None and item.get_closest_marker("compiled") is None
    ]
    if len(keep) != len(items):
        config.hook.pytest_deselected(items=[i for i in items if i not in keep])
        items[:] = keep


# A free-threaded interpreter turns the GIL on for good when it imports an
# extension that has not declared it runs without it (with a RuntimeWarning
# a test may never see): the tests after that would no longer run the way
# a free-threaded user's program does.  A run that started without the GIL
# must end without it.
_GIL_AT_START = sys._is_gil_enabled() if hasattr(sys, "_is_gil_enabled") else True


def pytest_sessionfinish(session, exitstatus):
    if not _GIL_AT_START and sys._is_gil_enabled():
        extensions = sorted(
            name
            for name, module in sys.modules.items()
            if (path := getattr(module, "__file__", None) or "").endswith((".so", ".pyd"))
            and "site-packages" in path
        )
        print(
            "\nconftest: the run started without the GIL and ends with it: an extension "
            f"imported turned it on (one of {', '.join(extensions)})",
            file=sys.stderr,
        )
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
