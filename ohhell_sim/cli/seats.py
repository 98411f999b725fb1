"""Seats on the command line: ``[MODULE:]NAME[PARAM=VALUE,...]``, and ``--import``.

A seat names a registered strategy (``simple``), optionally the module that
registers it (``mymod:cautious`` imports ``mymod`` from the current folder or
``sys.path``; ``path/to/file.py:cautious`` loads that file), and optionally
parameter values in brackets (``simple[scale=2]``, ``pimc[samples=8,bid_samples=16]``).
Seats are separated by commas; commas inside brackets belong to the parameters.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.strategy import SeatSpec, available_strategies, get_strategy

SEAT_SYNTAX = "[MODULE:]NAME[PARAM=VALUE,...]"
_EXAMPLES = "e.g. simple, mymod:cautious, path/to/file.py:cautious or simple[scale=2]"
_SEAT_RE = re.compile(r"\s*(?P<ref>[^\[\]]+?)\s*(?:\[(?P<params>[^\[\]]*)\])?\s*")

#: Module reference -> the strategy names its import registered.
_IMPORTED: dict[str, tuple[str, ...]] = {}


@dataclass(frozen=True)
class Seat:
    """One seat as given on the command line.

    Attributes
    ----------
    text : str
        The seat as typed, stripped: the label printed for it.
    spec : SeatSpec
        What :func:`ohhell_sim.simulate` takes: a name, or ``(name, {param: value})``.
    """

    text: str
    spec: SeatSpec


def import_strategy_module(ref: str, option: str) -> tuple[str, ...]:
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
    tuple of str
        The strategy names the import registered.

    Raises
    ------
    InvalidArgumentError
        If the module cannot be found, or importing it fails.
    """
    ref = ref.strip()
    if ref in _IMPORTED:
        return _IMPORTED[ref]
    before = set(available_strategies())
    if ref.endswith(".py") or "/" in ref or os.sep in ref:
        _load_file(ref, option)
    else:
        _import_name(ref, option)
    registered = tuple(n for n in available_strategies() if n not in before)
    _IMPORTED[ref] = registered
    return registered


def _import_name(name: str, option: str) -> None:
    # The console script does not put the current folder on sys.path; `python -m` does.
    if os.getcwd() not in sys.path and "" not in sys.path:
        sys.path.append(os.getcwd())
    importlib.invalidate_caches()  # a module written since the last import is found too
    try:
        importlib.import_module(name)
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


def split_seats(text: str, option: str = "--strategies") -> list[str]:
    """Split ``text`` at the commas outside brackets.

    Raises
    ------
    InvalidArgumentError
        For unbalanced brackets or an empty seat.
    """
    parts, depth, start = [], 0, 0
    for i, char in enumerate(text):
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
        if depth not in (0, 1):
            break
    parts.append(text[start:])
    if depth != 0:
        raise InvalidArgumentError(
            f"{option} has unbalanced brackets in {text!r}; each seat is {SEAT_SYNTAX}"
        )
    if any(not p.strip() for p in parts):
        raise InvalidArgumentError(
            f"{option} has an empty seat in {text!r}; give comma-separated seats, {_EXAMPLES}"
        )
    return [p.strip() for p in parts]


def parse_seat(text: str, option: str = "--strategies") -> Seat:
    """Parse one seat ``[MODULE:]NAME[PARAM=VALUE,...]``, importing the module if named.

    Raises
    ------
    InvalidArgumentError
        For bad syntax, a module that cannot be imported or does not register the
        name, an unknown strategy or parameter, or a value that is not a number.
    """
    match = _SEAT_RE.fullmatch(text)
    if match is None:
        raise InvalidArgumentError(
            f"{option}: cannot read seat {text!r}; expected {SEAT_SYNTAX}, {_EXAMPLES}"
        )
    module, _, name = match["ref"].rpartition(":")
    name = name.strip()
    if module:
        registered = import_strategy_module(module, option)
        if name not in available_strategies():
            listed = ", ".join(registered) or "none"
            raise InvalidArgumentError(
                f"{option}: module {module!r} registers no strategy named {name!r}; "
                f"strategies it registered: {listed}"
            )
    strategy = get_strategy(name)
    if match["params"] is None:
        return Seat(text.strip(), name)
    overrides: dict[str, str] = {}
    for item in filter(str.strip, match["params"].split(",")):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not key:
            raise InvalidArgumentError(
                f"{option}: strategy {name!r} parameter {item.strip()!r} is not PARAM=VALUE; "
                f"its parameters: {', '.join(strategy.params) or 'none'}"
            )
        if key in overrides:
            raise InvalidArgumentError(
                f"{option}: strategy {name!r} parameter {key!r} is given twice in {text!r}"
            )
        overrides[key] = value
    row = strategy.param_row(overrides)  # checks names and values, naming both
    values = dict(zip(strategy.params, row.tolist(), strict=True))
    return Seat(text.strip(), (name, {key: values[key] for key in overrides}))


def parse_seats(text: str, players: int, option: str = "--strategies") -> list[Seat]:
    """Seats from ``text``: one per player, or one for every seat.

    Raises
    ------
    InvalidArgumentError
        For a bad seat (see :func:`parse_seat`) or a count that is neither 1 nor
        ``players``.
    """
    seats = [parse_seat(part, option) for part in split_seats(text, option)]
    if len(seats) == 1:
        return seats * players
    if len(seats) != players:
        raise InvalidArgumentError(
            f"{option} must give one seat per player or one for all: {players} players, "
            f"{len(seats)} seats given ({text!r})"
        )
    return seats
