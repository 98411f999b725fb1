"""Seats on the command line: ``[MODULE:]NAME[PARAM=VALUE,...]``, and ``--import``.

A seat names a registered strategy (``simple``), optionally the module that
registers it (``mymod:cautious`` imports ``mymod`` from the current folder or
``sys.path``; ``path/to/file.py:cautious`` loads that file, its folder first on
``sys.path`` so that it can import the modules beside it), and optionally
parameter values in brackets (``simple[scale=2]``, ``pimc[samples=8,bid_samples=16]``).
Seats are separated by commas; commas inside brackets belong to the parameters.

The ``NAME[PARAM=VALUE,...]`` part is the Python API's (:mod:`ohhell_sim.seat_text`);
only the module import is the command line's own: a script imports its modules
itself, and a library that reads seats never runs code named in them.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.seat_text import parse_seat_text, split_seats

if TYPE_CHECKING:  # the registry loads Numba: imported when a seat is read
    from ohhell_sim.strategy import Strategy

SEAT_SYNTAX = "[MODULE:]NAME[PARAM=VALUE,...]"

#: Module reference -> the strategies its import registered (or registered again), by name.
_IMPORTED: dict[str, dict[str, Strategy]] = {}


@dataclass(frozen=True)
class Seat:
    """One seat as given on the command line.

    Attributes
    ----------
    text : str
        The seat as typed, stripped.
    label : str
        Its label (:attr:`ohhell_sim.strategy.Seating.labels`): what the results
        call the seat.
    spec : tuple
        ``(strategy, {param: value})``, what :func:`ohhell_sim.simulate` takes:
        the strategy object itself, so that a seat ``v1.py:cautious`` plays what
        ``v1.py`` registered even when a later module registers ``cautious`` again.
    """

    text: str
    label: str
    spec: tuple[Strategy, dict[str, str]]


def import_strategy_module(ref: str, option: str) -> dict[str, Strategy]:
    """Import the module ``ref`` (a module name or a ``.py`` path) once; return what it registered.

    Parameters
    ----------
    ref : str
        ``mymod`` / ``pkg.mymod`` (searched in the current folder, then
        ``sys.path``) or a path to a ``.py`` file.
    option : str
        The option that named it, for the error message.

    Returns
    -------
    dict of str to Strategy
        The strategies the import registered, or registered again under a name
        taken already (``replace=True``), by name.

    Raises
    ------
    InvalidArgumentError
        If the module cannot be found, or importing it fails.
    """
    from ohhell_sim.strategy import available_strategies, get_strategy

    ref = ref.strip()
    if not ref:
        raise InvalidArgumentError(
            f"{option} needs a module name (mymod, pkg.mymod) or a path to a .py file, got ''"
        )
    if ref in _IMPORTED:
        return _IMPORTED[ref]
    before = {name: get_strategy(name) for name in available_strategies()}
    if ref.endswith(".py") or "/" in ref or os.sep in ref or Path(ref).is_file():
        _load_file(ref, option)
    else:
        _import_name(ref, option)
    registered = {
        name: get_strategy(name)
        for name in available_strategies()
        if before.get(name) is not get_strategy(name)
    }
    _IMPORTED[ref] = registered
    return registered


def _import_name(name: str, option: str) -> None:
    # The console script does not put the current folder on sys.path; `python -m` does.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    importlib.invalidate_caches()  # a module written since the last import is found too
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name is not None and (name == error.name or name.startswith(error.name + ".")):
            raise InvalidArgumentError(
                f"{option}: no module named {name!r} in the current folder or on sys.path; "
                "give a module name (mymod, pkg.mymod) or a path to a .py file"
            ) from None
        raise InvalidArgumentError(f"{option}: importing {name!r} failed: {error}") from None
    except Exception as error:
        raise InvalidArgumentError(
            f"{option}: importing {name!r} failed: {type(error).__name__}: {error}"
        ) from None
    if getattr(module, "__file__", None) is None and hasattr(module, "__path__"):
        # A folder without __init__.py imports as an empty namespace package.
        raise InvalidArgumentError(
            f"{option}: {name!r} is a folder, not a module; give a module name (mymod, "
            "pkg.mymod) or a path to a .py file"
        )


def _load_file(ref: str, option: str) -> None:
    path = Path(ref).resolve()
    if path.suffix != ".py" or not path.is_file():
        raise InvalidArgumentError(f"{option}: {ref!r} is not a .py file")
    name = path.stem
    loaded = sys.modules.get(name)
    if loaded is not None:
        if Path(getattr(loaded, "__file__", "") or "").resolve() == path:
            return
        raise InvalidArgumentError(
            f"{option}: cannot load {ref!r}: a module named {name!r} is loaded already "
            f"(from {getattr(loaded, '__file__', 'built-in')}); rename the file"
        )
    # The file may import the modules beside it, as a script run from its folder would.
    if str(path.parent) not in sys.path:
        sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    # Registered under its name, as Numba's kernel cache imports functions' modules by name.
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[name]
        raise InvalidArgumentError(
            f"{option}: loading {ref!r} failed: {type(error).__name__}: {error}"
        ) from None


def parse_seat(text: str, option: str = "--strategies") -> Seat:
    """Parse one seat ``[MODULE:]NAME[PARAM=VALUE,...]``, importing the module if named.

    The ``NAME[PARAM=VALUE,...]`` part is read as the Python API reads it
    (:func:`ohhell_sim.seat_text.parse_seat_text`).

    Raises
    ------
    InvalidArgumentError
        For bad syntax, a module that cannot be imported or does not register the
        name, an unknown strategy or parameter, or a value that is not a number;
        the message starts with ``option``.
    """
    from ohhell_sim.strategy import available_strategies, get_strategy, resolve_seating

    head, bracket, tail = text.strip().partition("[")
    module, _, name = head.rpartition(":")
    name = name.strip()
    registered: dict[str, Strategy] = {}
    if module:
        registered = import_strategy_module(module, option)
        if name not in registered and name not in available_strategies():
            listed = ", ".join(registered) or "none"
            raise InvalidArgumentError(
                f"{option}: module {module!r} registers no strategy named {name!r}; "
                f"strategies it registered: {listed}"
            )
    try:
        _, overrides = parse_seat_text(name + bracket + tail)
        strategy = registered.get(name) or get_strategy(name)
        spec = (strategy, dict(overrides or {}))
        label = resolve_seating([spec], 1).labels[0]
    except InvalidArgumentError as error:
        raise InvalidArgumentError(f"{option}: {error}") from None
    return Seat(text.strip(), label, spec)


def parse_seats(text: str, players: int, option: str = "--strategies") -> list[Seat]:
    """Seats from ``text``: one per player, or one for every seat.

    Raises
    ------
    InvalidArgumentError
        For a bad seat (see :func:`parse_seat`) or a count that is neither 1 nor
        ``players``.
    """
    seats = [parse_seat(part, option) for part in split_seats(text, option, SEAT_SYNTAX)]
    if len(seats) == 1:
        return seats * players
    if len(seats) != players:
        raise InvalidArgumentError(
            f"{option} must give one seat per player or one for all: {players} players, "
            f"{len(seats)} seats given ({text!r})"
        )
    return seats
