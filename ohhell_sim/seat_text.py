"""Seats as text: ``NAME[PARAM=VALUE,...]``, read and written.

A seat names a registered strategy (``simple``) and optionally parameter values
in brackets (``simple[scale=1.5]``, ``pimc[samples=8,bid_samples=16]``).  The
Python API and the command line read seats with :func:`parse_seat_text`, and a
run labels each seat with :func:`seat_label`, the canonical text of the same
seat: the name, and in brackets the parameters that differ from the defaults, in
the strategy's order.  A label reads back as the seat it labels.

The command line also takes ``MODULE:NAME``, which imports a module first; that
is for the command line only (:mod:`ohhell_sim.cli.seats`): in Python the caller
imports its module, and a library that reads seats never runs code named in them.

This module is a leaf: it knows the syntax, not the registry.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ohhell_sim.argument_error import InvalidArgumentError

SEAT_SYNTAX = "NAME[PARAM=VALUE,...]"
_EXAMPLES = "e.g. simple, simple[scale=2] or pimc[samples=8,bid_samples=16]"
_SEAT_RE = re.compile(r"\s*(?P<name>[^\[\]]*?)\s*(?:\[(?P<params>[^\[\]]*)\])?\s*")


def split_seats(text: str, option: str = "strategies", syntax: str = SEAT_SYNTAX) -> list[str]:
    """Split ``text`` at the commas outside brackets, e.g. ``"simple[scale=2],random"``.

    Parameters
    ----------
    text : str
        Comma-separated seats.
    option : str
        The argument or option that gave ``text``, for the error message.
    syntax : str
        The form of a seat, for the error message.

    Returns
    -------
    list of str
        The seats, stripped.

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
            f"{option} has unbalanced brackets in {text!r}; each seat is {syntax}"
        )
    if any(not p.strip() for p in parts):
        raise InvalidArgumentError(
            f"{option} has an empty seat in {text!r}; give comma-separated seats, {_EXAMPLES}"
        )
    return [p.strip() for p in parts]


def parse_seat_text(text: str) -> tuple[str, dict[str, str]]:
    """Read one seat ``NAME[PARAM=VALUE,...]``.

    Parameters
    ----------
    text : str
        The seat, e.g. ``"simple"`` or ``"simple[scale=1.5]"``; spaces around the
        parts are ignored.

    Returns
    -------
    tuple
        The strategy name and the parameter values as given (text), by name;
        :meth:`~ohhell_sim.strategy.Strategy.param_row` checks both.

    Raises
    ------
    InvalidArgumentError
        For text that is not of that form, a parameter without a value, or one
        given twice.
    """
    match = _SEAT_RE.fullmatch(text)
    if match is None or not match["name"]:
        raise InvalidArgumentError(
            f"cannot read seat {text!r}; a seat is {SEAT_SYNTAX}, {_EXAMPLES}"
        )
    name = match["name"]
    if ":" in name:
        raise InvalidArgumentError(
            f"seat {text!r} names a module (MODULE:NAME), which only the command line "
            f"imports; in Python, import the module that registers the strategy, then "
            f"name it: {name.rpartition(':')[2]!r}"
        )
    overrides: dict[str, str] = {}
    for item in filter(str.strip, (match["params"] or "").split(",")):
        key, sep, value = (part.strip() for part in item.partition("="))
        if not sep or not key or not value:
            raise InvalidArgumentError(
                f"seat {text!r}: parameter {item.strip()!r} is not PARAM=VALUE, {_EXAMPLES}"
            )
        if key in overrides:
            raise InvalidArgumentError(f"seat {text!r}: parameter {key!r} is given twice")
        overrides[key] = value
    return name, overrides


def number_text(value: float) -> str:
    """The shortest text that reads back as ``value``: ``1.5``, ``16``, ``1e+20``.

    Examples
    --------
    >>> [number_text(v) for v in (1.5, 16.0, 0.1, -1.0, 1e20)]
    ['1.5', '16', '0.1', '-1', '1e+20']
    """
    text = repr(float(value))
    return text[:-2] if text.endswith(".0") else text


def seat_label(name: str, changed: Iterable[tuple[str, float]]) -> str:
    """A seat's label: ``name``, then ``[param=value,...]`` for ``changed`` when any.

    Parameters
    ----------
    name : str
        The strategy's name.
    changed : iterable of (str, float)
        The parameters whose values differ from the strategy's defaults, in the
        strategy's order.

    Examples
    --------
    >>> seat_label("simple", [("scale", 1.5)]), seat_label("simple", [])
    ('simple[scale=1.5]', 'simple')
    """
    inner = ",".join(f"{key}={number_text(value)}" for key, value in changed)
    return f"{name}[{inner}]" if inner else name
