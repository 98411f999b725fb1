"""Deprecated: the Dask executor is :mod:`ohhell_sim.run.dask`.

The names documented before (``connect``, ``simulate_on_client`` ...) still
resolve here, with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import warnings
from typing import Any

from ohhell_sim.run import dask as _dask


def __getattr__(name: str) -> Any:
    if name.startswith("__") or not hasattr(_dask, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"ohhell_sim.distributed.{name} moved to ohhell_sim.run.dask.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(_dask, name)
