"""Chooses the compiled core or the pure-Python reference, once, on first use.

Only this module knows there are two implementations.  Each twin pair
(``_x_c`` compiled, ``_x_py`` reference) has the same names; the compiled
set is taken whole or not at all.

Nothing is chosen at import: ``NO_EXTENSIONS`` is read from the environment,
and the twins are imported when one of their names here is first read
(``_impl.core``, ``IMPLEMENTATION``: PEP 562), so ``fasturi.parse`` reads
the switch without loading any of them.  The URL Standard's twins
(``whatwg``, ``idna``, ``search_params``) come later still, each when it is
asked for: with them come the IDNA tables.
"""

from __future__ import annotations

import os
import sys

# typing is not imported at run time (start-up); type checkers take this as true
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Any

    from . import _core_py as core
    from . import _extract_py as extract
    from . import _idna_py as idna
    from . import _parts_py as parts
    from . import _pipeline_py as pipeline
    from . import _psl_py as psl
    from . import _rules_py as rules
    from . import _search_params_py as search_params
    from . import _surt_py as surt_impl
    from . import _uri_py as uri
    from . import _whatwg_py as whatwg
    from ._whatwg_py import URL

    IMPLEMENTATION: str

#: Pure Python was asked for (``FASTURI_NO_EXTENSIONS`` set, and not to "0")
#: or is the only choice (not CPython).  The one reading of the switch:
#: ``fasturi.parse`` and the test suite take it from here.
NO_EXTENSIONS = (
    os.environ.get("FASTURI_NO_EXTENSIONS", "") not in ("", "0")
    or sys.implementation.name != "cpython"
)

# The names the twins of the RFC 3986 API and crawler tools are bound to.
_TWINS = ("core", "extract", "parts", "pipeline", "psl", "rules", "surt_impl", "uri")


def _choose() -> None:
    """Binds the names of ``_TWINS`` and ``IMPLEMENTATION``."""
    global core, extract, parts, pipeline, psl, rules, surt_impl, uri, IMPLEMENTATION
    if not NO_EXTENSIONS:
        try:
            from . import _core_c as core
            from . import _extract_c as extract
            from . import _parts_c as parts
            from . import _pipeline_c as pipeline
            from . import _psl_c as psl
            from . import _rules_c as rules
            from . import _surt_c as surt_impl
            from . import _uri_c as uri

            IMPLEMENTATION = "compiled"
            return
        except ImportError:  # installed without a compiler
            pass
    from . import _core_py as core  # type: ignore[no-redef]
    from . import _extract_py as extract  # type: ignore[no-redef]
    from . import _parts_py as parts  # type: ignore[no-redef]
    from . import _pipeline_py as pipeline  # type: ignore[no-redef]
    from . import _psl_py as psl  # type: ignore[no-redef]
    from . import _rules_py as rules  # type: ignore[no-redef]
    from . import _surt_py as surt_impl  # type: ignore[no-redef]
    from . import _uri_py as uri  # type: ignore[no-redef]

    IMPLEMENTATION = "python"


def _implementation() -> str:
    return IMPLEMENTATION if "IMPLEMENTATION" in globals() else __getattr__("IMPLEMENTATION")  # type: ignore[return-value]


def _load_whatwg() -> None:
    """Binds ``whatwg``: the URL Standard's twin of the chosen
    implementation; a URL of either twin unpickles through ``_url_from_href``."""
    global whatwg
    if _implementation() == "compiled":
        from . import _whatwg_c as whatwg
    else:
        from . import _whatwg_py as whatwg  # type: ignore[no-redef]
    _unpicklers()


def _url_from_href(href: str) -> URL:
    """Unpickles a URL of either twin as the running one's."""
    twin = whatwg if "whatwg" in globals() else __getattr__("whatwg")
    return twin.parse(href)  # type: ignore[attr-defined,no-any-return]


def _load_idna() -> None:
    """Binds ``idna``: the URL Standard's domain to ASCII and to Unicode."""
    global idna
    if _implementation() == "compiled":
        from . import _idna_c as idna
    else:
        from . import _idna_py as idna  # type: ignore[no-redef]


def _load_search_params() -> None:
    """Binds ``search_params``: the URL Standard's URLSearchParams; one of
    either twin unpickles through ``_search_params_from_pairs``."""
    global search_params
    if _implementation() == "compiled":
        from . import _search_params_c as search_params
    else:
        from . import _search_params_py as search_params  # type: ignore[no-redef]
    _unpicklers()


def _search_params_from_pairs(pairs: list[tuple[str, str]]) -> Any:
    """Unpickles a SearchParams of either twin as the running one's."""
    twin = search_params if "search_params" in globals() else __getattr__("search_params")
    return twin.SearchParams(pairs)  # type: ignore[attr-defined]


def _unpicklers() -> None:
    # (either twin of the URL Standard's makes both kinds of object:
    # URL.search_params)
    from ._types import UNPICKLE

    UNPICKLE["url"] = _url_from_href
    UNPICKLE["search_params"] = _search_params_from_pairs


_LOADERS = {"whatwg": _load_whatwg, "idna": _load_idna, "search_params": _load_search_params}


def __getattr__(name: str) -> object:
    # (PEP 562: called for a name not bound yet)
    if name in _TWINS or name == "IMPLEMENTATION":
        _choose()
    elif name in _LOADERS:
        _LOADERS[name]()
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return globals()[name]


def arrow_kernels() -> ModuleType:
    """The column kernels' twin (``_arrow_c`` or ``_arrow_py``), imported on
    first use: the reference needs pyarrow, which ``import fasturi`` does not."""
    if _implementation() == "compiled":
        from . import _arrow_c as kernels
    else:
        from . import _arrow_py as kernels  # type: ignore[no-redef]
    return kernels


def whatwg_kernels() -> ModuleType:
    """The column kernels of fasturi.whatwg: the compiled ones of
    ``_arrow_c``, or the reference's (``_whatwg_arrow_py``), imported on
    first use (they need pyarrow)."""
    if _implementation() == "compiled":
        from . import _arrow_c as kernels
    else:
        from . import _whatwg_arrow_py as kernels  # type: ignore[no-redef]
    return kernels


__all__ = [
    "IMPLEMENTATION",
    "NO_EXTENSIONS",
    "arrow_kernels",
    "core",
    "extract",
    "idna",
    "parts",
    "pipeline",
    "psl",
    "rules",
    "search_params",
    "surt_impl",
    "uri",
    "whatwg",
    "whatwg_kernels",
]
