"""Data tables shipped with the built-in strategies, and the scripts that make them."""

from pathlib import Path

import numpy as np

from ohhell_sim.errors import InvalidArgumentError

#: Folder holding the shipped tables.
TABLES_DIR = Path(__file__).parent


def save_arrays(arrays: dict[str, np.ndarray], path: str | Path, kind: str) -> Path:
    """Write ``arrays`` to the compressed ``.npz`` file ``path``, making its folder.

    Raises
    ------
    InvalidArgumentError
        If ``path`` does not end in ``.npz`` (which NumPy would append), naming
        the file as ``kind``.
    """
    path = Path(path)
    if path.suffix != ".npz":
        raise InvalidArgumentError(f"{kind} must end in .npz, got {str(path)!r}")
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, **arrays)
    return path
