"""The ``.uri`` accessor on pandas Series (docs/reference.md §7): ``fasturi.arrow`` per column.

Importing this module registers the accessor::

    import pandas as pd
    import fasturi.pandas  # noqa: F401  (registers .uri)

    df["url"].uri.normalize()
    df["url"].uri.split(fields=["scheme", "host", "path"])  # a DataFrame, same index
    df["url"].uri.host()            # or df["url"].uri.host
    df["url"].uri.registrable_domain()
    df["href"].uri.resolve("https://example.com/a/b")

Every function of ``fasturi.arrow.FUNCTIONS`` is a method of the same name
and parameters (the Series takes the URL column's place), applied to the
whole Series: one call, no Python object per row on the compiled core.  The
Series may hold an Arrow-backed string dtype (``string[pyarrow]``, pandas
3's ``str``, ``ArrowDtype(pa.string())``) or ``object`` strings; missing
values (``None``, ``NaN``, ``NA``) give missing results.  Results keep the
index and the name and hold an Arrow-backed dtype.  The split fields are
also properties (``s.uri.host``), which give the same Series as the method
and can be called as it is (``s.uri.host()``).
"""

from __future__ import annotations

from typing import Any, Callable

import pandas as pd

from . import arrow
from ._functions import COMPONENTS, FUNCTIONS, Function

__all__ = ["UriAccessor"]


def _method(func: Function) -> Callable[..., Any]:
    """An accessor method: ``fasturi.arrow.<name>`` with the Series as its
    URL column and the other arguments as given."""
    target = getattr(arrow, func.name)

    def method(self: UriAccessor, *args: Any, **kwargs: Any) -> Any:
        return target(**func.bind(self._series, args, kwargs, python=True))

    method.__name__ = method.__qualname__ = func.name
    method.__signature__ = func.method_signature()  # type: ignore[attr-defined]
    method.__doc__ = f"``fasturi.arrow.{func.signature()}`` on the Series. {func.summary}"
    return method


class _Component(pd.Series):  # type: ignore[misc]
    """A component's Series that may also be called, as the method of the
    same name is (``s.uri.host`` and ``s.uri.host()`` are the same).

    Everything else it does is a plain Series's: what pandas makes of it
    (arithmetic, ``.str``, selections, copies) is a plain Series, and so
    is what pickling it gives back.  pandas calls a callable it is handed
    with the frame or Series in some places (``df.assign(host=s.uri.host)``,
    ``df.loc[...]``): called with one, it is the column itself there too.
    Where pandas would call it once a value instead (``other.map(...)``,
    which takes a Series as a lookup table), it refuses, saying so, rather
    than answer as no Series would."""

    @property
    def _constructor(self) -> Any:  # what pandas operations on it give: plain Series
        return pd.Series

    def __reduce__(self) -> Any:  # (unpickled where fasturi is not installed too)
        return pd.Series, (self.array, self.index, self.dtype, self.name)

    def __reduce_ex__(self, protocol: Any) -> Any:
        return self.__reduce__()

    def __call__(self, *frame: Any, threads: Any = None) -> pd.Series:
        if len(frame) > 1 or (frame and not isinstance(frame[0], (pd.Series, pd.DataFrame))):
            raise TypeError(
                "s.uri.<component>() takes no arguments; where pandas calls a function"
                " once a value (Series.map), pass pd.Series(s.uri.<component>) to use"
                " the component as a Series"
            )
        arrow._threads("uri", threads)  # (checked as the method checks it)
        return pd.Series(self, copy=False)


def _field(name: str) -> property:
    def get(self: UriAccessor) -> Any:
        return _Component(getattr(arrow, name)(self._series), copy=False)

    return property(get, doc=f"The {name} of every URI: ``fasturi.arrow.{name}``.")


@pd.api.extensions.register_series_accessor("uri")
class UriAccessor:
    """``Series.uri``: the ``fasturi.arrow`` functions on a Series of URIs."""

    def __init__(self, series: pd.Series) -> None:
        self._series = series


for _name, _func in FUNCTIONS.items():
    setattr(UriAccessor, _name, _field(_name) if _name in COMPONENTS else _method(_func))
del _name, _func
