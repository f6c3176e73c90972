"""Chooses the compiled core or the pure-Python reference, once, on first use.

Only this module knows there are two implementations.  Each twin pair
(``_x_c`` compiled, ``_x_py`` reference) has the same names; the compiled
set is taken whole or not at all.

Nothing is chosen at import: ``NO_EXTENSIONS`` is read from the environment,
and the twins are imported when one of their names here is first read
(``_impl.core``, ``IMPLEMENTATION``: PEP 562), so ``fasturi.parse`` reads
the switch without loading any of them.  The URL Standard's twin
(``whatwg``) comes later still, when it is asked for: with it come the IDNA
tables.
"""

from __future__ import annotations

import os
import sys

# typing is not imported at run time (start-up); type checkers take this as true
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import ModuleType
    from typing import Callable

    from . import _core_py as core
    from . import _extract_py as extract
    from . import _pipeline_py as pipeline
    from . import _psl_py as psl
    from . import _rules_py as rules
    from . import _surt_py as surt_impl
    from . import _uri_py as uri
    from . import _whatwg_py as whatwg
    from ._types import URL

    IMPLEMENTATION: str

#: Pure Python was asked for (``FASTURI_NO_EXTENSIONS`` set, and not to "0")
#: or is the only choice (not CPython).  The one reading of the switch:
#: ``fasturi.parse`` and the test suite take it from here.
NO_EXTENSIONS = (
    os.environ.get("FASTURI_NO_EXTENSIONS", "") not in ("", "0")
    or sys.implementation.name != "cpython"
)

# The names the twins of the RFC 3986 API and crawler tools are bound to.
_TWINS = ("core", "extract", "pipeline", "psl", "rules", "surt_impl", "uri")


def _choose() -> None:
    """Binds the names of ``_TWINS`` and ``IMPLEMENTATION``."""
    global core, extract, pipeline, psl, rules, surt_impl, uri, IMPLEMENTATION
    if not NO_EXTENSIONS:
        try:
            from . import _core_c as core
            from . import _extract_c as extract
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
    implementation, whose URLs pickle through ``_url_from_href``."""
    global whatwg
    import copyreg

    from ._types import URL

    if _implementation() == "compiled":
        from . import _whatwg_c as whatwg
    else:
        from . import _whatwg_py as whatwg  # type: ignore[no-redef]
    for cls in {URL, whatwg.URL}:
        copyreg.pickle(cls, _reduce_url)


def _reduce_url(url: URL) -> tuple[Callable[[str], URL], tuple[str]]:
    # A URL of either twin pickles as its href, which parses back to the same
    # URL (URL Standard, URL serializing).  Registered here, not in the
    # classes: only this module knows which twin runs.
    return _url_from_href, (url.href,)


def _url_from_href(href: str) -> URL:
    """Unpickles a URL of either twin as the running one's."""
    twin = whatwg if "whatwg" in globals() else __getattr__("whatwg")
    return twin.parse(href)  # type: ignore[attr-defined,no-any-return]


def __getattr__(name: str) -> object:
    # (PEP 562: called for a name not bound yet)
    if name in _TWINS or name == "IMPLEMENTATION":
        _choose()
    elif name == "whatwg":
        _load_whatwg()
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
    "pipeline",
    "psl",
    "rules",
    "surt_impl",
    "uri",
    "whatwg",
    "whatwg_kernels",
]
