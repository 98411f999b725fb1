"""Deprecated: resumable runs are :mod:`ohhell_sim.run.chunked`.

The names documented before (``run_chunked``, ``read_manifest`` ...) still
resolve here, with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

import warnings
from typing import Any

from ohhell_sim.run import chunked as _chunked


def __getattr__(name: str) -> Any:
    if name.startswith("__") or not hasattr(_chunked, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(
        f"ohhell_sim.runner.{name} moved to ohhell_sim.run.chunked.{name}",
        DeprecationWarning,
        stacklevel=2,
    )
    return getattr(_chunked, name)
