"""Hostile sizes cost linear time: doubling the input at most about doubles
the work.  Work is counted, not timed: callgrind's instruction count of a
subprocess doing the call, differenced across sizes n, 2n, 4n so that
interpreter start-up cancels out."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from fasturi._impl import NO_EXTENSIONS

# Linux CI installs valgrind and sets FASTURI_REQUIRE_VALGRIND=1, so there a
# missing valgrind fails these tests instead of skipping them.
if os.environ.get("FASTURI_REQUIRE_VALGRIND", "") not in ("", "0"):
    assert shutil.which("valgrind"), "FASTURI_REQUIRE_VALGRIND is set but valgrind is missing"
pytestmark = pytest.mark.skipif(
    shutil.which("valgrind") is None, reason="instruction counts need valgrind (Linux CI has it)"
)

# Each case builds its input from n inside the child, then calls once.
CASES = {
    "resolve-dotdot": "fasturi.resolve('http://a/b/c/d', '../' * n + 'g')",
    "normalize-dotdot": "fasturi.normalize('http://a/' + 'x/../' * n)",
    "remove_dot_segments": "fasturi.remove_dot_segments('/a/./b/../' * n)",
    "split-huge": "fasturi.split('http://' + 'a' * (40 * n) + '/p?q#f')",
    "validate-huge": "fasturi.is_valid('http://a/' + 'b/%41' * (8 * n))",
    "percent-decode": "fasturi.percent_decode('%41%e2%82%ac' * n)",
    "uri-reads": "u = fasturi.URI('http://u@h:1/' + 'p' * (40 * n)); (u.host, u.path, u.port)",
    "urljoin-dotdot": "fasturi.parse.urljoin('http://a/b/c/d', '../' * n + 'g')",
    "unquote-huge": "fasturi.parse.unquote('%41b' * (4 * n))",
    # fasturi.whatwg (the reference twin whichever core is active)
    "whatwg-userinfo": "fasturi.whatwg.parse('http://' + 'a:b@' * (n // 16) + 'h/')",
    "whatwg-opaque-path": "fasturi.whatwg.parse('a:' + ' x' * (8 * n) + ' ?q')",
    "whatwg-path-dotdot": "fasturi.whatwg.parse('http://h/' + 'a/../' * (n // 16))",
    "whatwg-idna-labels": "fasturi.whatwg.parse('http://' + 'é.' * (n // 32) + 'x/')",
}


def _instructions(stmt: str, n: int, reps: int) -> int:
    code = f"import fasturi, fasturi.parse, fasturi.whatwg\nn = {n}\nfor _ in range({reps}):\n    {stmt}\n"
    # A fixed hash seed makes start-up cost the same in every child.
    env = dict(os.environ, PYTHONHASHSEED="0")
    proc = subprocess.run(
        [
            "valgrind",
            "--tool=callgrind",
            "--callgrind-out-file=/dev/null",
            sys.executable,
            "-c",
            code,
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    )
    return int(re.search(r"Collected : (\d+)", proc.stderr).group(1))


# Under FASTURI_NO_EXTENSIONS=1 fasturi.parse is the stdlib itself: its
# cases would time CPython, not fasturi.
OURS = (
    sorted(CASES)
    if not NO_EXTENSIONS
    else sorted(c for c in CASES if "fasturi.parse" not in CASES[c])
)


@pytest.mark.parametrize("name", OURS)
def test_doubling_input_about_doubles_work(name):
    import fasturi

    # Enough work per child that it dwarfs start-up; the reference twin is
    # ~50x slower under valgrind, so it gets smaller inputs.
    n, reps = (20_000, 4) if fasturi.IMPLEMENTATION == "compiled" else (1_000, 1)
    c1, c2, c4 = (_instructions(CASES[name], k, reps) for k in (n, 2 * n, 4 * n))
    step1, step2 = c2 - c1, c4 - c2  # the work of n more, then 2n more
    assert step1 > 0
    # Linear work gives step2 == 2 * step1; quadratic gives 4x.  Allow noise.
    assert step2 <= 2.6 * step1, f"{name}: {c1}, {c2}, {c4} instructions"
