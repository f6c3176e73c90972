"""Hostile sizes cost linear time: doubling the input at most about doubles
the work.  Work is counted, not timed: callgrind's instruction count of the
calls alone, at sizes n, 2n and 4n, in one subprocess per case.  The child
marks where its calls begin (os.getppid(): callgrind zeroes its counters)
and end (os.getsid(): callgrind writes them out), so that the interpreter's
start-up, counted once per child, is left out (under valgrind it costs more
than the calls)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile

import pytest

from fasturi._impl import NO_EXTENSIONS

# Linux CI installs valgrind and sets FASTURI_REQUIRE_VALGRIND=1, so there a
# missing valgrind fails these tests instead of skipping them.
if os.environ.get("FASTURI_REQUIRE_VALGRIND", "") not in ("", "0"):
    assert shutil.which("valgrind"), "FASTURI_REQUIRE_VALGRIND is set but valgrind is missing"
pytestmark = pytest.mark.skipif(
    shutil.which("valgrind") is None, reason="instruction counts need valgrind (Linux CI has it)"
)

# Each case builds its input from n inside the child, once, then makes the
# call reps times: the input's building is mostly memset and memcpy, whose
# large sizes glibc does with "rep" instructions that callgrind counts as one
# each, so its count is not linear in n and must not be repeated.
CASES = {
    "resolve-dotdot": ("r = '../' * n + 'g'", "fasturi.resolve('http://a/b/c/d', r)"),
    "normalize-dotdot": ("s = 'http://a/' + 'x/../' * n", "fasturi.normalize(s)"),
    "remove_dot_segments": ("s = '/a/./b/../' * n", "fasturi.remove_dot_segments(s)"),
    "split-huge": ("s = 'http://' + 'a' * (40 * n) + '/p?q#f'", "fasturi.split(s)"),
    "validate-huge": ("s = 'http://a/' + 'b/%41' * (8 * n)", "fasturi.is_valid(s)"),
    "percent-decode": ("s = '%41%e2%82%ac' * n", "fasturi.percent_decode(s)"),
    "uri-reads": (
        "s = 'http://u@h:1/' + 'p' * (40 * n)",
        "u = fasturi.URI(s); (u.host, u.path, u.port)",
    ),
    "urljoin-dotdot": ("r = '../' * n + 'g'", "fasturi.parse.urljoin('http://a/b/c/d', r)"),
    "unquote-huge": ("s = '%41b' * (4 * n)", "fasturi.parse.unquote(s)"),
    # fasturi.whatwg (what the compiled twin hands on goes to the reference)
    "whatwg-userinfo": ("s = 'http://' + 'a:b@' * (n // 16) + 'h/'", "fasturi.whatwg.parse(s)"),
    "whatwg-opaque-path": ("s = 'a:' + ' x' * (8 * n) + ' ?q'", "fasturi.whatwg.parse(s)"),
    "whatwg-path-dotdot": ("s = 'http://h/' + 'a/../' * (n // 16)", "fasturi.whatwg.parse(s)"),
    "whatwg-idna-labels": ("s = 'http://' + 'é.' * (n // 32) + 'x/'", "fasturi.whatwg.parse(s)"),
    # IDNA's long labels: Punycode decoding that inserts each code point
    # before the ones decoded so far, encoding as many distinct code points,
    # and NFC's canonical ordering of a long run of marks
    "idna-punycode-decode": (
        "s = fasturi.whatwg.domain_to_ascii(''.join(map(chr, range(0x4E00 + n // 8, 0x4E00, -1))))",
        "fasturi.whatwg.domain_to_unicode(s)",
    ),
    "idna-punycode-encode": (
        "s = ''.join(map(chr, range(0x4E00 + n // 8, 0x4E00, -1)))",
        "fasturi.whatwg.domain_to_ascii(s)",
    ),
    "idna-marks": ("s = 'a' + '\\u0301\\u0316' * (n // 8)", "fasturi.whatwg.domain_to_unicode(s)"),
}
# The reference twin reads as RFC 3492 and UAX #15 do (a Punycode label
# costs its length times its distinct code points there): linear time on
# these is the compiled twin's.
COMPILED_ONLY = {"idna-punycode-decode", "idna-punycode-encode", "idna-marks"}
# Cases whose compiled work is a fast scan of a few bytes per character,
# beside one copy of a huge component into its str: glibc's memcpy takes
# different paths by size, which callgrind counts at different costs per
# byte, so the same copy done by a slice is measured too and taken off.
# Repeated more, so that the scan dwarfs start-up.
COPY_OF = {"split-huge": "s[7:-6]", "uri-reads": "s[13:]"}
REPEAT = {"split-huge": 25, "uri-reads": 25}


def _instructions(setup: str, stmts: list[str], sizes: list[int], reps: int) -> list[list[int]]:
    """Per size, the instructions of ``reps`` runs of each of ``stmts``, on
    the input ``setup`` builds from that size.  A first round at the first
    size is run and dropped: the first calls of anything warm the
    interpreter (its specializing, its caches) and would count more."""
    body = "\n".join(
        f"    os.getppid()\n    for _ in range({reps}):\n        {stmt}\n    os.getsid(0)"
        for stmt in stmts
    )
    setup = "\n".join("    " + line for line in setup.splitlines())
    code = (
        "import os, fasturi, fasturi.parse, fasturi.whatwg\n"
        f"def measure(n):\n{setup}\n{body}\n"
        f"for n in {[sizes[0], *sizes]!r}:\n    measure(n)\n"
    )
    # A fixed hash seed makes the calls' work the same from run to run.
    env = dict(os.environ, PYTHONHASHSEED="0")
    with tempfile.TemporaryDirectory() as out:
        subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                "--zero-before=*getppid",
                "--dump-before=*getsid",
                f"--callgrind-out-file={out}/cg",
                sys.executable,
                "-c",
                code,
            ],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        dumps = sorted(
            (int(name.rsplit(".", 1)[1]), name) for name in os.listdir(out) if name != "cg"
        )
        counts = []
        for _, name in dumps:
            with open(os.path.join(out, name)) as f:
                total = int(re.search(r"^totals: (\d+)", f.read(), re.M).group(1))
            # (a marker's symbol and its alias each write a dump: the second,
            # of the few instructions between them, is no part)
            if total >= 5_000:
                counts.append(total)
    per_size = len(stmts)
    assert len(counts) == per_size * (len(sizes) + 1), (counts, code)
    return [counts[i : i + per_size] for i in range(per_size, len(counts), per_size)]


# Under FASTURI_NO_EXTENSIONS=1 fasturi.parse is the stdlib itself: its
# cases would time CPython, not fasturi.
OURS = (
    sorted(CASES)
    if not NO_EXTENSIONS
    else sorted(c for c in CASES if "fasturi.parse" not in CASES[c][1] and c not in COMPILED_ONLY)
)


@pytest.mark.parametrize("name", OURS)
def test_doubling_input_about_doubles_work(name):
    import fasturi

    # Enough work per child that it dwarfs start-up; the reference twin is
    # ~50x slower under valgrind, so it gets smaller inputs.
    if fasturi.IMPLEMENTATION == "compiled":
        n, reps = 20_000, 4 * REPEAT.get(name, 1)
    else:
        n, reps = 1_000, 1

    setup, stmt = CASES[name]
    stmts = [stmt, COPY_OF[name]] if name in COPY_OF else [stmt]
    counts = _instructions(setup, stmts, [n, 2 * n, 4 * n], reps)
    c1, c2, c4 = (size[0] - (size[1] if name in COPY_OF else 0) for size in counts)
    step1, step2 = c2 - c1, c4 - c2  # the work of n more, then 2n more
    assert step1 > 0
    # Linear work gives step2 == 2 * step1; quadratic gives 4x.  Allow noise.
    assert step2 <= 2.6 * step1, f"{name}: {c1}, {c2}, {c4} instructions"
