"""The strategy record: a strategy's two functions and the one place its metadata lives.

A strategy is a pair of Numba-compiled functions with one shared signature::

    bid(view, params, rng) -> int      # a bid in 0..hand size
    play(view, params, rng) -> int     # a card id from view[LEGAL]

``view`` is the ``int64`` array of :mod:`ohhell_sim.view`, ``params`` the seat's
``float64`` parameter row (defaults declared with the strategy, overridable per
seat, so a sweep recompiles nothing) and ``rng`` the seat's own ``uint64[4]``
random stream, for use with :func:`ohhell_sim.strategy.tools.below` and friends.

A :class:`Strategy` record carries the metadata: name, description, parameters,
whether it is stochastic, the rule variants it cannot play, and its cost class.
The built-ins import this module, and only this one and the tools, to declare
themselves: the registry (:mod:`ohhell_sim.strategy.registry`), which imports
them, and the compile machinery lie above them.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import numbers
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import numpy as np

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.strategy.origin import source_location
from ohhell_sim.strategy.params import check_declared_params

# Parameter names must be writable in a seat's brackets: simple[scale=2].
_PARAM_RE = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
_COLOUR_RE = re.compile(r"^#[0-9A-Fa-f]{6}$")

#: Cost classes: a ``"heavy"`` strategy's decisions are costly (sampling, playouts).
COSTS = ("light", "heavy")
#: Rules a strategy may declare unsupported values of (a schedule is no variant switch).
_RULE_NAMES = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "schedule")


@dataclass(frozen=True)
class Strategy:
    """A named strategy and its metadata.

    Parameters
    ----------
    name : str
        Registry name, e.g. ``"simple"``.
    bid, play : numba dispatcher
        ``@njit`` functions with the signature ``(view, params, rng) -> int``.
    params : mapping of str to float
        Parameter names and their defaults, in the order of the parameter row.
    description : str
        The idea of the strategy and where it comes from.
    stochastic : bool
        Whether it draws random numbers.
    cost : {"light", "heavy"}
        ``"heavy"`` when each decision is costly (sampling, playouts).  The engine
        then never inlines it into the game loop: the call's overhead is
        negligible beside the decision, and inlining would only lengthen the
        compile.
    unsupported : mapping of str to tuple
        Rule variants the strategy cannot play: a :class:`~ohhell_sim.Rules`
        field name and the values refused, e.g. ``{"decks": (2,)}``.  Seatings
        holding the strategy are refused for such rules, before anything runs.
    builtin_id : int or None
        Dispatch id for strategies compiled into the package kernel; ``None`` for
        user strategies.
    param_bounds : mapping of str to (low, high)
        The values a parameter may take, both ends included, ``None`` for no
        bound: ``{"samples": (0, None)}``.  :meth:`param_row` refuses others.
    reads_scoring : bool
        Whether its bid reads the scoring tables (a change of scoring can change
        its bids directly, not only through the others' bids and the hook).
    colour : str or None
        Its colour in every figure, ``"#RRGGBB"``; ``None`` gives a colour
        chosen by its name.
    quick_params : mapping of str to float
        Parameter overrides for a quick run (tests, smoke runs) of a heavy
        strategy: fewer samples.  Legality does not depend on them, speed does.
    """

    name: str
    bid: object
    play: object
    params: Mapping[str, float] = field(default_factory=dict)
    description: str = ""
    stochastic: bool = False
    cost: str = "light"
    unsupported: Mapping[str, tuple] = field(default_factory=dict)
    builtin_id: int | None = None
    param_bounds: Mapping[str, tuple[float | None, float | None]] = field(default_factory=dict)
    reads_scoring: bool = False
    colour: str | None = None
    quick_params: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        functions = {r: getattr(self, r) for r in ("bid", "play")}
        compiled = all(hasattr(f, "py_func") for f in functions.values())
        for role, function in functions.items() if compiled else ():
            _check_signature(self.name, role, function)
        if not isinstance(self.params, Mapping):
            raise InvalidArgumentError(
                f"strategy {self.name!r}: params must map parameter names to default "
                f"values, e.g. {{'scale': 1.0}}, got {self.params!r}"
            )
        for key, default in self.params.items():
            if not isinstance(key, str) or not _PARAM_RE.match(key):
                raise InvalidArgumentError(
                    f"strategy {self.name!r}: parameter name {key!r} must be letters, digits "
                    "and '_', starting with a letter or '_'"
                )
            if (
                isinstance(default, bool)
                or not isinstance(default, numbers.Real)
                or not math.isfinite(default)
            ):
                raise InvalidArgumentError(
                    f"strategy {self.name!r}: the default of parameter {key!r} must be a "
                    f"finite number, got {default!r}"
                )
        object.__setattr__(self, "params", dict(self.params))
        if compiled and self.builtin_id is None:
            check_declared_params(self.name, functions, list(self.params))
        if not isinstance(self.stochastic, bool):
            raise InvalidArgumentError(
                f"strategy {self.name!r}: stochastic must be True or False, got {self.stochastic!r}"
            )
        if self.cost not in COSTS:
            raise InvalidArgumentError(
                f"strategy {self.name!r}: cost must be one of {', '.join(COSTS)}, got {self.cost!r}"
            )
        refused = {}
        for rule, values in dict(self.unsupported).items():
            if rule not in _RULE_NAMES:
                raise InvalidArgumentError(
                    f"strategy {self.name!r}: unsupported names a rule {rule!r} that does not "
                    f"exist; rules: {', '.join(_RULE_NAMES)}"
                )
            if isinstance(values, str) or not isinstance(values, Iterable):
                raise InvalidArgumentError(
                    f"strategy {self.name!r}: unsupported[{rule!r}] must be a list of the "
                    f"values refused, got {values!r}"
                )
            refused[rule] = tuple(values)
        object.__setattr__(self, "unsupported", refused)
        for key, bounds in dict(self.param_bounds).items():
            if key not in self.params or len(bounds) != 2:
                raise InvalidArgumentError(
                    f"strategy {self.name!r}: param_bounds[{key!r}] must bound one of its "
                    f"parameters ({', '.join(self.params) or 'none'}) as (low, high), got "
                    f"{bounds!r}"
                )
        object.__setattr__(self, "param_bounds", dict(self.param_bounds))
        self.param_row()  # the defaults must lie within the bounds
        if not isinstance(self.reads_scoring, bool):
            raise InvalidArgumentError(
                f"strategy {self.name!r}: reads_scoring must be True or False, "
                f"got {self.reads_scoring!r}"
            )
        if self.colour is not None and not (
            isinstance(self.colour, str) and _COLOUR_RE.match(self.colour)
        ):
            raise InvalidArgumentError(
                f"strategy {self.name!r}: colour must be None or '#RRGGBB', got {self.colour!r}"
            )
        object.__setattr__(self, "quick_params", dict(self.quick_params))
        self.param_row(self.quick_params)  # quick settings must be parameters, in bounds

    @property
    def heavy(self) -> bool:
        """Whether the cost class is ``"heavy"`` (the engine never inlines it)."""
        return self.cost == "heavy"

    def refused_variants(self, rules: Rules) -> list[str]:
        """The variants of ``rules`` this strategy cannot play, as ``"name=value"``."""
        return [
            f"{rule}={getattr(rules, rule)}"
            for rule, values in self.unsupported.items()
            if getattr(rules, rule) in values
        ]

    def supports(self, rules: Rules) -> bool:
        """Whether the strategy can play ``rules`` (no variant it declares unsupported)."""
        return not self.refused_variants(rules)

    def param_row(self, overrides: Mapping[str, float] | None = None) -> np.ndarray:
        """The parameter row: defaults, with ``overrides`` applied by name."""
        values = dict(self.params)
        for key, value in (overrides or {}).items():
            if key not in values:
                known = ", ".join(values) or "none"
                raise InvalidArgumentError(
                    f"strategy {self.name!r} has no parameter {key!r}; its parameters: {known}"
                )
            try:
                values[key] = float(value)
            except (TypeError, ValueError):
                values[key] = math.nan
            if not math.isfinite(values[key]):
                raise InvalidArgumentError(
                    f"strategy {self.name!r} parameter {key!r} must be a finite number, "
                    f"got {value!r}"
                )
        for key, (low, high) in self.param_bounds.items():
            value = values[key]
            if not (low is None or value >= low) or not (high is None or value <= high):
                allowed = f"[{'-inf' if low is None else f'{low:g}'}, "
                allowed += f"{'inf' if high is None else f'{high:g}'}]"
                raise InvalidArgumentError(
                    f"strategy {self.name!r} parameter {key!r} must be in {allowed}, got {value:g}"
                )
        return np.array(list(values.values()), dtype=np.float64)


_POSITIONAL = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def _check_signature(name: str, role: str, func: object) -> None:
    """Refuse a ``bid``/``play`` that does not take exactly ``(view, params, rng)``.

    The engine calls it with those three arguments and nothing else: a missing
    one, or one more (even with a default), would fail deep inside the compile.
    """
    py_func = func.py_func
    signature = inspect.signature(py_func)
    arguments = list(signature.parameters.values())
    if len(arguments) != 3 or any(a.kind not in _POSITIONAL for a in arguments):
        raise InvalidArgumentError(
            f"strategy {name!r}: {role} function {py_func.__qualname__}{signature} "
            f"({source_location(func)}) must take exactly three arguments, (view, params, "
            "rng), and no others: the engine passes those three"
        )
