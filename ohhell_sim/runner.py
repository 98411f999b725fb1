"""Deprecated: resumable runs are :mod:`ohhell_sim.run.chunked`.

The names documented before (``run_chunked``, ``read_manifest`` ...) still
resolve here, with a :class:`DeprecationWarning`.
"""

from __future__ import annotations

from ohhell_sim._moved import forward_names
from ohhell_sim.run import chunked as _chunked

__getattr__ = forward_names(__name__, _chunked)
