"""The Public Suffix List's text: where it ships, its version, its rules.

Shared by both ``_psl`` twins, which build their lookup from ``parse``'s
result.  The list comes from the ``publicsuffixlist`` package's data file
(``pip install -U publicsuffixlist`` brings a newer list; nothing is read
from the network), or from a file given to ``load_public_suffix_list``.
"""

from __future__ import annotations

import importlib.util
import os
from typing import Dict, NamedTuple, Optional, Tuple

# Flags of a rule core (the rule without its "!" or "*." prefix): which
# kinds of rule have that core.  The twins keep one set of flags for the
# ICANN section and one for the whole list.
EXACT = 1
WILD = 2  # "*.core"
EXCEPT = 4  # "!core"
# A key of the compiled lookup that ends a longer rule's core
# (csrc/fasturi_psl.h's FU_PSL_LONGER; see keys).
LONGER = 8

_BEGIN_ICANN = "// ===BEGIN ICANN DOMAINS==="
_END_ICANN = "// ===END ICANN DOMAINS==="
_VERSION = "// VERSION:"


class Rules(NamedTuple):
    """A parsed list: core -> (ICANN flags, whole-list flags), and more."""

    cores: Dict[str, Tuple[int, int]]
    depth: int  # the most labels of any core
    version: Optional[str]  # the list's "// VERSION:" line, if it has one
    path: str


def default_path() -> str:
    """The list file the ``publicsuffixlist`` package ships."""
    spec = importlib.util.find_spec("publicsuffixlist")
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(
            "the Public Suffix List ships with the 'publicsuffixlist' package: "
            "pip install publicsuffixlist, or call fasturi.load_public_suffix_list(path)"
        )
    return os.path.join(list(spec.submodule_search_locations)[0], "public_suffix_list.dat")


def _idna(core: str) -> Optional[str]:
    # A rule written in Unicode also matches hosts written in A-labels
    # (xn--), as the publicsuffixlist package reads the list.
    if core.isascii():
        return None
    try:
        return core.encode("idna").decode("ascii")
    except UnicodeError:
        return None


def parse(text: str, path: str = "<string>") -> Rules:
    """The rules of a list in the publicsuffix.org format.

    Each line is read up to its first space; ``//`` lines are comments; rules
    between the ``===BEGIN ICANN DOMAINS===`` and ``===END ICANN DOMAINS===``
    markers form the ICANN section, every other rule is PRIVATE.
    """
    cores: Dict[str, Tuple[int, int]] = {}
    version = None
    icann = False
    for line in text.splitlines():
        marker = line.rstrip()
        if marker == _BEGIN_ICANN:
            icann = True
            continue
        if marker == _END_ICANN:
            icann = False
            continue
        if marker.startswith(_VERSION) and version is None:
            version = marker[len(_VERSION) :].strip() or None
        rule = line.lower().split(" ")[0].rstrip()
        if not rule or rule.startswith("//"):
            continue
        if rule.startswith("!"):
            kind, core = EXCEPT, rule[1:]
        elif rule.startswith("*."):
            kind, core = WILD, rule[2:]
        else:
            kind, core = EXACT, rule
        for form in (core, _idna(core)):
            if form is None:
                continue
            in_icann, in_all = cores.get(form, (0, 0))
            cores[form] = (in_icann | (kind if icann else 0), in_all | kind)
    depth = max((core.count(".") + 1 for core in cores), default=0)
    return Rules(cores, depth, version, path)


#: the Rules of the table in use (set by the twins as they swap it in, the
#: DuckDB extension is handed the same)
last: Optional[Rules] = None


def keys(rules: Rules, errors: str = "strict") -> Dict[bytes, int]:
    """The keys of the compiled lookup's hash set (csrc/fasturi_psl.h) and
    their flags, as _psl_c builds it and the DuckDB extension is handed it.

    Each core, UTF-8 encoded (``errors`` as ``str.encode`` takes it), with
    the ICANN section's flags in the low nibble and the whole list's in the
    high one.  Every proper suffix of a core is a key too, flagged LONGER
    in the sections of the rules it ends: a lookup that finds no such flag
    knows no longer suffix of the host can match, and stops there.  A core
    longer than 0xFFFF bytes is left out: no host a slot's length could
    match is that long.
    """
    keyed: Dict[bytes, int] = {}
    for core, (in_icann, in_all) in rules.cores.items():
        key = core.encode("utf-8", errors)
        if len(key) > 0xFFFF:
            continue
        keyed[key] = keyed.get(key, 0) | in_icann | (in_all << 4)
        longer = (LONGER if in_icann else 0) | (LONGER << 4 if in_all else 0)
        at = key.find(b".")
        while at >= 0:
            keyed[key[at + 1 :]] = keyed.get(key[at + 1 :], 0) | longer
            at = key.find(b".", at + 1)
    return keyed


def read(path: Optional[str]) -> Rules:
    """``parse`` of the file at ``path`` (UTF-8), or of the packaged list."""
    if path is None:
        path = default_path()
    path = os.fspath(path)
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        return parse(f.read(), path)
