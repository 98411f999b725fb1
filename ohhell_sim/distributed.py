"""Deprecated: the Dask executor is :mod:`ohhell_sim.run.dask`.

The names documented before (``connect``, ``simulate_on_client`` ...) still
resolve here, with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

from ohhell_sim._moved import forward_names
from ohhell_sim.run import dask as _dask

__getattr__ = forward_names(__name__, _dask)
