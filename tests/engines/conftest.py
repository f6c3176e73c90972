"""Shared inputs of the engine tests: corpus-shaped URLs with NULLs among them.

Every engine test compares the engine's answer with the single-process
``fasturi.arrow`` answer on these rows.  Every module here carries the
``engine`` marker (registered in tests/conftest.py).
"""

from __future__ import annotations

import os
import sys
from importlib.resources import files

import pyarrow as pa
import pytest

CORPUS = files("fasturi").joinpath("data", "urls.txt").read_text("utf-8").splitlines()

# Rows that break column code: empty, nulls, non-ASCII (multi-byte offsets),
# invalid text, an IPv6 literal with a port, a bare authority, dot segments.
EDGES = [
    "",
    None,
    "HTTP://Example.COM:80/a/./b/../c?y=2&x=1#Frag",
    "https://caf\u00e9.example/\u00fc?q=\U0001f600",
    "a b%zz",
    "http://[::1]:8080/p",
    "//host.example",
    "mailto:someone@example.com",
    "http://h:/",
    None,
]

# The corpus with a NULL every 97th row, then the edge cases.
URLS = [None if i % 97 == 13 else u for i, u in enumerate(CORPUS)] + EDGES

BASE = "https://docs.example.org/guide/intro/index.html?x=1#top"
REFS = ["../g", "./a/b?x#y", "//other/p", "?q", "", "#frag", "HTTP://X/./y", None, "g;p"] * 40


def pytest_configure(config):
    # pyspark before 4.0 leaves the socket a job's results are read from
    # to the garbage collector (its rdd._load_from_socket says so), which
    # then warns; filterwarnings = error would fail whichever test is
    # running when that happens.  Exactly that warning, on those releases.
    try:
        import pyspark
    except ImportError:
        return
    if int(pyspark.__version__.split(".")[0]) < 4:
        config.addinivalue_line(
            "filterwarnings",
            r"ignore:unclosed <socket\.socket .*laddr=\('127\.0\.0\.1':ResourceWarning",
        )


@pytest.fixture(scope="session")
def spark():
    """One local two-core Spark session for every test that needs one
    (starting Spark is most of what a small job costs).  A test that
    changes a setting sets it back."""
    from pyspark.sql import SparkSession

    # (its Python workers inherit this process's environment, so they
    # import the same fasturi, and the same implementation)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    session = (
        SparkSession.builder.master("local[2]")
        .appName("fasturi-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        # small Arrow batches: a partition reaches the workers in several
        .config("spark.sql.execution.arrow.maxRecordsPerBatch", "700")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


def pytest_collection_modifyitems(items):
    for item in items:
        if item.path.parent.name == "engines":
            item.add_marker(pytest.mark.engine)


@pytest.fixture(scope="session")
def urls():
    return URLS


@pytest.fixture(scope="session")
def base():
    return BASE


@pytest.fixture(scope="session")
def refs():
    return REFS


@pytest.fixture(scope="session")
def column():
    """The URLs as a pyarrow string array: what fasturi.arrow is given."""
    return pa.array(URLS, type=pa.string())
