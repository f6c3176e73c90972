"""The running interpreter's own Lib/test/test_urlparse.py passes, in full,
against fasturi.parse -- compiled and pure -- and the harness that runs it
does report a drop-in that gets something wrong."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import fasturi

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "urlparse_harness.py"
SRC = Path(fasturi.__file__).resolve().parent.parent


def run_harness(impl: str, *args: str, extra_path: Path | None = None):
    env = dict(os.environ)
    env.pop("FASTURI_NO_EXTENSIONS", None)
    if impl == "python":
        env["FASTURI_NO_EXTENSIONS"] = "1"
    paths = [str(SRC)] + ([str(extra_path)] if extra_path else [])
    env["PYTHONPATH"] = os.pathsep.join(paths + [env.get("PYTHONPATH", "")])
    # the suite must pass with warnings shown the way unittest shows them
    env.pop("PYTHONWARNINGS", None)
    return subprocess.run(
        [sys.executable, str(HARNESS), *args],
        check=False,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("how", [(), ("--install",)], ids=["as-urllib.parse", "installed"])
def test_stdlib_suite_passes(impl, how):
    proc = run_harness(impl, *how)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 0, out
    summary = proc.stdout.strip().splitlines()[-1]
    passed, failed = (int(part.split()[0]) for part in summary.split(",")[:2])
    assert failed == 0, out
    assert passed >= 60, out  # 3.9's file has 66 tests, later ones more
    assert f"({impl})" in proc.stdout, out


BROKEN = textwrap.dedent(
    '''
    """fasturi.parse with one wrong answer: urlsplit loses the query."""
    import fasturi.parse as _real

    globals().update({k: v for k, v in vars(_real).items()
                      if not (k.startswith("__") and k.endswith("__"))})
    __all__ = list(_real.__all__)
    IMPLEMENTATION = "broken"

    def urlsplit(url, scheme="", allow_fragments=True):
        result = _real.urlsplit(url, scheme, allow_fragments)
        return result._replace(query=result.query[:0])

    urlsplit.__module__ = "urllib.parse"
    '''
)


def test_harness_reports_a_broken_dropin(tmp_path):
    (tmp_path / "broken_parse.py").write_text(BROKEN, encoding="utf-8")
    proc = run_harness(fasturi.IMPLEMENTATION, "--module", "broken_parse", extra_path=tmp_path)
    out = proc.stdout + proc.stderr
    assert proc.returncode == 1, out
    assert "FAILED" in proc.stderr, out
    summary = proc.stdout.strip().splitlines()[-1]
    failed = int(summary.split(",")[1].split()[0])
    assert failed >= 3, out
    assert "broken_parse (broken)" in proc.stdout, out


def test_harness_swaps_only_the_test_module():
    sys.path.insert(0, str(HERE))
    try:
        import urlparse_harness
    finally:
        sys.path.remove(str(HERE))
    import urllib.parse
    import urllib.request  # (what another test may or may not have imported first)

    import fasturi.parse

    module = urlparse_harness.load_tests_module(urlparse_harness.default_testfile(), fasturi.parse)
    assert module.urllib.parse is fasturi.parse
    assert module.urllib.request is not None  # other urllib attributes pass through
    assert sys.modules["urllib.parse"] is urllib.parse
    assert urllib.parse.urlsplit is not None and sys.modules["urllib"].parse is urllib.parse
