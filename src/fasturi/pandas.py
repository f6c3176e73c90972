"""The ``.uri`` accessor on pandas Series (docs/reference.md §7): ``fasturi.arrow`` per column.

Importing this module registers the accessor::

    import pandas as pd
    import fasturi.pandas  # noqa: F401  (registers .uri)

    df["url"].uri.normalize()
    df["url"].uri.split(fields=["scheme", "host", "path"])  # a DataFrame, same index
    df["url"].uri.host
    df["href"].uri.resolve("https://example.com/a/b")

Each method is the ``fasturi.arrow`` function of the same name applied to the
whole Series: one call, no Python object per row on the compiled core.  The
Series may hold an Arrow-backed string dtype (``string[pyarrow]``, pandas 3's
``str``, ``ArrowDtype(pa.string())``) or ``object`` strings; missing values
(``None``, ``NaN``, ``NA``) give missing results.  Results keep the index and
the name and hold an Arrow-backed dtype.
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import pandas as pd

from . import arrow

__all__ = ["UriAccessor"]


def _method(func: Callable[..., Any]) -> Callable[..., Any]:
    """An accessor method calling ``func`` with the Series as its column."""

    @functools.wraps(func)
    def method(self: UriAccessor, *args: Any, **kwargs: Any) -> Any:
        return func(self._series, *args, **kwargs)

    return method


def _field(name: str) -> property:
    def get(self: UriAccessor) -> Any:
        # one-field split: the kernel extracts only this component
        return arrow.split(self._series, (name,))[name].rename(self._series.name)

    return property(get, doc=f"The {name} of every URI (null where it is undefined).")


@pd.api.extensions.register_series_accessor("uri")
class UriAccessor:
    """``Series.uri``: the ``fasturi.arrow`` functions on a Series of URIs."""

    def __init__(self, series: pd.Series) -> None:
        self._series = series

    split = _method(arrow.split)
    normalize = _method(arrow.normalize)
    canonicalize = _method(arrow.canonicalize)
    is_valid = _method(arrow.is_valid)
    error_position = _method(arrow.error_position)
    percent_decode = _method(arrow.percent_decode)

    def resolve(self, base: Any, **options: Any) -> Any:
        """``fasturi.arrow.resolve(base, series)``: every reference of the
        Series resolved against ``base`` (a ``str``, or a Series as long as
        this one, row by row)."""
        return arrow.resolve(base, self._series, **options)

    scheme = _field("scheme")
    authority = _field("authority")
    userinfo = _field("userinfo")
    host = _field("host")
    port = _field("port")
    path = _field("path")
    query = _field("query")
    fragment = _field("fragment")
