"""The Public Suffix List algorithm, reference twin of ``_psl_c``.

A host's public suffix is found by the publicsuffix.org algorithm, read
the way the ``publicsuffixlist`` package reads it (its answers are the ones
this module agrees with):

* the host is lowercased (``str.lower``), one trailing dot is dropped, and
  a host with an empty label (``a..b``, ``.a``) has no answer;
* its suffixes are tried from the longest: an exception rule ``!core``
  makes the suffix one label shorter than the core; a wildcard ``*.core``
  makes it one label longer than the core (the core itself when nothing
  precedes it: a wildcard implies its root); a normal rule gives the core;
* no match: the implicit ``*`` rule, the last label (so is a one-label host).

The registrable domain is the public suffix plus the label before it.
Rules are matched in the form the host is written in: a rule written in
Unicode matches both its Unicode and its ``xn--`` spelling, and answers
keep the host's own spelling, lowercased.
"""

from __future__ import annotations

import os
import threading
from typing import Dict, List, NamedTuple, Optional

from . import _core_py as _core
from . import _psl
from . import _rules_py as _rules
from ._errors import type_error


class _Table(NamedTuple):
    icann: Dict[str, int]  # core -> flags, ICANN section only
    every: Dict[str, int]  # core -> flags, ICANN and PRIVATE sections
    depth: int
    version: Optional[str]


def _build(rules: _psl.Rules) -> _Table:
    icann = {core: f[0] for core, f in rules.cores.items() if f[0]}
    every = {core: f[1] for core, f in rules.cores.items()}
    return _Table(icann, every, rules.depth, rules.version)


_lock = threading.Lock()


def _forget_lock() -> None:
    # A child forked while another thread built the first table would find
    # the lock held for good.
    global _lock
    _lock = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_lock)
_table: Optional[_Table] = None


def _current() -> _Table:
    # Built on first use.  A table is never changed afterwards, and a new
    # list is a new table bound in one step, so readers need no lock: each
    # holds the table it read for as long as it uses it.
    global _table
    table = _table
    if table is None:
        with _lock:
            if _table is None:
                rules = _psl.read(None)
                _table = _build(rules)
                _psl.last = rules
            table = _table
    return table


def load_public_suffix_list(path: Optional[str]) -> None:
    """Use the list in the file at ``path`` (publicsuffix.org format) from now on.

    ``None`` goes back to the list the ``publicsuffixlist`` package ships.
    """
    global _table
    rules = _psl.read(path)
    table = _build(rules)
    with _lock:
        _table = table
        _psl.last = rules


def public_suffix_list_version() -> Optional[str]:
    """The ``// VERSION:`` line of the list in use (None if it has none)."""
    return _current().version


def _is_digits(text: str) -> bool:
    return all("0" <= c <= "9" for c in text)


def _host(s: str) -> Optional[str]:
    """The host of ``s``: a URI's authority host, or ``s`` as a bare host.

    A bare host is ``[userinfo@]host[:port]`` up to the first ``/``, ``?``
    or ``#``; a non-numeric "port" means ``s`` is not a host at all
    (``mailto:x``), nor does a host with a ":" left in it (``urn:a:1``).
    """
    authority = _core.split(s).authority
    bare = authority is None
    if authority is None:
        end = len(s)
        for delimiter in "/?#":
            at = s.find(delimiter, 0, end)
            if at >= 0:
                end = at
        authority = s[:end]
    _userinfo, host, port = _core.split_authority(authority)
    if bare and port is not None and not _is_digits(port) or ":" in host:
        return None
    return host


def _labels(s: str) -> Optional[List[str]]:
    host = _host(s)
    if host is None:
        return None
    if host.endswith("."):
        host = host[:-1]
    # IP literals and dotted-decimal IPv4 addresses (§3.2.2) have no suffix.
    if not host or host.startswith("[") or _rules.host_type(host) == "IPv4":
        return None
    labels = host.lower().split(".")
    if "" in labels:
        return None
    return labels


def _suffix_labels(labels: List[str], flags: Dict[str, int], depth: int) -> int:
    """How many of the last labels form the public suffix."""
    n = len(labels)
    if n == 1:
        return 1
    for k in range(min(n, depth), 0, -1):
        f = flags.get(".".join(labels[n - k :]), 0)
        if f & _psl.EXCEPT:
            return k - 1
        if f & _psl.WILD:
            return k + 1 if k < n else k
        if f & _psl.EXACT:
            return k
    return 1  # the implicit "*" rule


def _answer(func: str, s: str, private: bool, domain: bool) -> Optional[str]:
    """The public suffix of ``s``'s host, or with ``domain`` its registrable
    domain (one label more): None where there is none."""
    if not isinstance(s, str):
        raise type_error(func, "s", s)
    labels = _labels(s)
    if labels is None:
        return None
    table = _current()
    k = _suffix_labels(labels, table.every if private else table.icann, table.depth)
    if k == 0:
        return None
    if domain:
        k += 1
        if k > len(labels):
            return None
    return ".".join(labels[len(labels) - k :])


def public_suffix(s: str, *, private: bool = False) -> Optional[str]:
    """The public suffix of ``s``'s host by the Public Suffix List.

    ``s`` is a URI or a bare host; ``private=True`` also uses the list's
    PRIVATE section.  None for IP addresses and hosts with empty labels.
    """
    return _answer("public_suffix", s, private, False)


def registrable_domain(s: str, *, private: bool = False) -> Optional[str]:
    """The registrable domain (public suffix plus one label) of ``s``'s host.

    ``s`` is a URI or a bare host; ``private=True`` also uses the list's
    PRIVATE section.  None for IP addresses, hosts with empty labels and
    hosts that are themselves a public suffix.
    """
    return _answer("registrable_domain", s, private, True)


__all__ = [
    "load_public_suffix_list",
    "public_suffix",
    "public_suffix_list_version",
    "registrable_domain",
]
