"""Chooses the compiled core or the pure-Python reference, once, at import.

Only this module knows there are two implementations.  Each twin pair
(``_x_c`` compiled, ``_x_py`` reference) has the same names; the compiled
set is taken whole or not at all.
"""

from __future__ import annotations

import os
import sys
from types import ModuleType
from typing import TYPE_CHECKING

#: Pure Python was asked for (``FASTURI_NO_EXTENSIONS`` set, and not to "0")
#: or is the only choice (not CPython).  The one reading of the switch:
#: ``fasturi.parse`` and the test suite take it from here.
NO_EXTENSIONS = (
    os.environ.get("FASTURI_NO_EXTENSIONS", "") not in ("", "0")
    or sys.implementation.name != "cpython"
)

if TYPE_CHECKING or NO_EXTENSIONS:
    from . import _core_py as core
    from . import _extract_py as extract
    from . import _parts_py as parts
    from . import _pipeline_py as pipeline
    from . import _psl_py as psl
    from . import _rules_py as rules
    from . import _surt_py as surt_impl
    from . import _uri_py as uri
    from . import _whatwg_py as whatwg

    IMPLEMENTATION = "python"
else:
    try:
        from . import _core_c as core  # type: ignore[no-redef]
        from . import _extract_c as extract  # type: ignore[no-redef]
        from . import _parts_c as parts  # type: ignore[no-redef]
        from . import _pipeline_c as pipeline  # type: ignore[no-redef]
        from . import _psl_c as psl  # type: ignore[no-redef]
        from . import _rules_c as rules  # type: ignore[no-redef]
        from . import _surt_c as surt_impl  # type: ignore[no-redef]
        from . import _uri_c as uri  # type: ignore[no-redef]
        from . import _whatwg_c as whatwg  # type: ignore[no-redef]

        IMPLEMENTATION = "compiled"
    except ImportError:  # installed without a compiler
        from . import _core_py as core
        from . import _extract_py as extract
        from . import _parts_py as parts
        from . import _pipeline_py as pipeline
        from . import _psl_py as psl
        from . import _rules_py as rules
        from . import _surt_py as surt_impl
        from . import _uri_py as uri
        from . import _whatwg_py as whatwg

        IMPLEMENTATION = "python"


def arrow_kernels() -> ModuleType:
    """The column kernels' twin (``_arrow_c`` or ``_arrow_py``), imported on
    first use: the reference needs pyarrow, which ``import fasturi`` does not."""
    if IMPLEMENTATION == "compiled":
        from . import _arrow_c as kernels
    else:
        from . import _arrow_py as kernels  # type: ignore[no-redef]
    return kernels


def whatwg_kernels() -> ModuleType:
    """The column kernels of fasturi.whatwg: the compiled ones of
    ``_arrow_c``, or the reference's (``_whatwg_arrow_py``), imported on
    first use (they need pyarrow)."""
    if IMPLEMENTATION == "compiled":
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
    "parts",
    "pipeline",
    "psl",
    "rules",
    "surt_impl",
    "uri",
    "whatwg",
    "whatwg_kernels",
]
