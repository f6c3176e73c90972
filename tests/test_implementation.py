"""The active implementation is the one the environment asks for."""

import fasturi
from fasturi._impl import NO_EXTENSIONS


def test_implementation_matches_environment():
    # A build without the compiled core must fail here, not pass as python.
    assert fasturi.IMPLEMENTATION == ("python" if NO_EXTENSIONS else "compiled")


def test_parse_follows_the_same_switch():
    # fasturi.parse reads FASTURI_NO_EXTENSIONS through fasturi._impl, so the
    # drop-in and the RFC API never run on different implementations.
    import fasturi.parse

    assert fasturi.parse.IMPLEMENTATION == fasturi.IMPLEMENTATION


def test_dir_shows_only_the_public_api():
    # Public submodules appear once imported; every other public-looking
    # name must be in __all__ (no helper modules or __future__ features).
    shown = {name for name in dir(fasturi) if not name.startswith("_")}
    submodules = {"parse", "dask", "arrow", "pandas", "polars", "duckdb", "spark", "whatwg"}
    assert shown - submodules == set(fasturi.__all__)


def test_version_is_written_once():
    # pyproject.toml takes the version from fasturi.__version__ rather than
    # writing its own copy, so the two cannot disagree.
    from pathlib import Path

    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text("utf-8")
    project = pyproject.split("[project]", 1)[1].split("\n[", 1)[0]
    assert 'dynamic = ["version"]' in project
    assert "\nversion" not in project
    assert 'version = { attr = "fasturi.__version__" }' in pyproject
    assert fasturi.__version__.count(".") == 2
