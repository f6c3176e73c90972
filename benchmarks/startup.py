"""Start-up: what importing fasturi costs, beside what it replaces.

    python benchmarks/startup.py [--runs 20]

Each measurement is a fresh interpreter, taken in turn with the others so
that a busy machine slows them alike; the table gives medians.  Imports are
``python -X importtime``'s cumulative time of the module named (microseconds
of the import itself, without the interpreter's start); the command line is
the wall-clock time of ``fasturi --version`` (the console script beside this
interpreter, else ``python -m fasturi``) against ``python -c pass``.  Also the
first use of the RFC 3986 API (``import fasturi; fasturi.split``), which
loads the twins ``import fasturi`` leaves for later.

The targets: ``import fasturi.parse`` at most 10 ms more than ``import
urllib.parse``, ``import fasturi`` at most 25 ms more, ``fasturi --version``
within 40 ms of ``python -c pass``.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import time
from typing import Dict, List, Tuple


def _top_level(statement: str) -> List[Tuple[str, int]]:
    """(name, cumulative microseconds) of each top-level import -X importtime
    lists for a run of ``statement`` (nested ones are indented further)."""
    err = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", statement], capture_output=True, text=True
    ).stderr
    out = []
    for line in err.splitlines():
        parts = line.split("|")
        if len(parts) != 3 or not parts[1].strip().isdigit():  # (the heading)
            continue
        if parts[2].startswith(" ") and not parts[2].startswith("  "):
            out.append((parts[2].strip(), int(parts[1])))
    return out


# What the interpreter's start imports (site and the rest): the same for
# every statement, so left out of each.
_START = {name for name, _ in _top_level("pass")}


def importtime(statement: str) -> int:
    """Microseconds of the imports ``statement`` makes (their cumulative
    -X importtime times)."""
    return sum(us for name, us in _top_level(statement) if name not in _START)


def wall(command: List[str]) -> float:
    started = time.perf_counter()
    subprocess.run(command, capture_output=True, check=True)
    return (time.perf_counter() - started) * 1e6


def cpu(command: List[str]) -> float:
    """Microseconds of CPU (user and system) the process took: a busy
    machine delays a start without adding to it, as it adds to the clock."""
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    assert proc.returncode == 0, command
    return (usage.ru_utime + usage.ru_stime) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()
    script = os.path.join(os.path.dirname(sys.executable), "fasturi")
    version = [script] if os.path.exists(script) else [sys.executable, "-m", "fasturi"]
    version.append("--version")
    runs: Dict[str, List[float]] = {
        "import urllib.parse": [],
        "import fasturi.parse": [],
        "import fasturi": [],
        "import fasturi; fasturi.split": [],
        "python -c pass": [],
        " ".join(os.path.basename(a) for a in version): [],
    }
    names = list(runs)
    for _ in range(args.runs):
        for name in names[:4]:
            runs[name].append(importtime(name))
        runs[names[4]].append(wall([sys.executable, "-c", "pass"]))
        runs[names[5]].append(wall(version))
    # the whole processes' CPU time, the same measures (POSIX)
    whole = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "python -c 'import urllib.parse'": [sys.executable, "-c", "import urllib.parse"],
        "python -c 'import fasturi.parse'": [sys.executable, "-c", "import fasturi.parse"],
        "python -c 'import fasturi'": [sys.executable, "-c", "import fasturi"],
        names[5]: version,
    }
    cpus: Dict[str, List[float]] = {name: [] for name in whole}
    if hasattr(os, "wait4"):
        for _ in range(args.runs):
            for name, command in whole.items():
                cpus[name].append(cpu(command))
    med = {name: statistics.median(values) / 1000 for name, values in runs.items()}
    print(f"{sys.version.split()[0]}, medians of {args.runs} runs (ms)")
    for name in names:
        print(f"  {name:38} {med[name]:7.1f}")
    print(f"  {'fasturi.parse - urllib.parse':38} {med[names[1]] - med[names[0]]:7.1f}  (<= 10)")
    print(f"  {'fasturi - urllib.parse':38} {med[names[2]] - med[names[0]]:7.1f}  (<= 25)")
    print(f"  {'--version - python -c pass':38} {med[names[5]] - med[names[4]]:7.1f}  (<= 40)")
    if all(cpus.values()):
        print(f"CPU time of the whole process, medians of {args.runs} runs (ms)")
        for name, values in cpus.items():
            print(f"  {name:38} {statistics.median(values) / 1000:7.1f}")


if __name__ == "__main__":
    main()
