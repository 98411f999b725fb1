"""Strategies: the record, the registry, and how a seating is prepared for the kernel.

A strategy is a pair of Numba-compiled functions with one shared signature::

    bid(view, params, rng) -> int      # a bid in 0..hand size
    play(view, params, rng) -> int     # a card id from view[LEGAL]

``view`` is the ``int64`` array of :mod:`ohhell_sim.view`, ``params`` the seat's
``float64`` parameter row (defaults declared with the strategy, overridable per
seat, so a sweep recompiles nothing) and ``rng`` the seat's own ``uint64[4]``
random stream, for use with :func:`ohhell_sim.strategy_tools.below` and friends.

A :class:`Strategy` record carries its metadata: name, description, parameters,
whether it is stochastic, the rule variants it cannot play, and its cost class.

The built-ins import this module to declare their records; the registry imports
their package on its first lookup (so that importing ``ohhell_sim`` loads no
Numba), which makes the two modules import each other, the one import cycle of
the package.  Built-in strategies are
dispatched by integer id inside the cached kernel.  A user strategy is registered
with :func:`register_strategy`; the engine then builds (once, and caches on disk)
a kernel whose dispatch includes it.
"""

from __future__ import annotations

import dataclasses
import inspect
import math
import numbers
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ohhell_sim import strategy_code
from ohhell_sim.code_origin import source_location
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.seat_text import parse_seat_text, seat_label
from ohhell_sim.strategy_params import check_declared_params

_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]*$")
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

    def check_rules(self, rules: Rules) -> None:
        """Raise if the strategy cannot play ``rules``.

        Raises
        ------
        InvalidArgumentError
            Naming the strategy, the variant and the registered strategies that
            can play these rules.
        """
        refused = self.refused_variants(rules)
        if refused:
            able = [n for n in available_strategies() if _registry()[n].supports(rules)]
            raise InvalidArgumentError(
                f"strategy {self.name!r} does not support {', '.join(refused)}; strategies "
                f"that do: {', '.join(able)}"
            )

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

    def fingerprint(self) -> str:
        """A hash of everything the strategy's code compiles into a kernel.

        It covers the functions' code, the helpers they call (recursively), their
        closures and defaults, and the values of the globals and module attributes
        they read (see :func:`ohhell_sim.strategy_code.fingerprint`), so that a
        changed strategy gets a new kernel.

        Raises
        ------
        StrategyError
            If the code reads a value that cannot be fingerprinted, or draws from
            a global random state.
        """
        return strategy_code.fingerprint(self.name, (self.bid, self.play))[:16]

    def current_functions(self, *, checked: bool = False, inline: bool = False):
        """``(bid, play)`` dispatchers that compile the strategy's code as it is now.

        What the engine calls, never the registered objects themselves, which may
        hold machine code compiled before a helper or a global changed (see
        :func:`ohhell_sim.strategy_code.current_functions`; ``checked`` compiles
        user code with bounds checks, ``inline`` for inlining into the game loop).
        """
        return strategy_code.current_functions(
            self.name, self.bid, self.play, checked=checked, inline=inline
        )


_REGISTRY: dict[str, Strategy] = {}


def _registry() -> dict[str, Strategy]:
    """The registry, with the built-ins in it: their package registers them when imported."""
    import ohhell_sim.strategies  # noqa: F401  (the built-ins import this module)

    return _REGISTRY


def register_strategy(
    name: str,
    bid: object,
    play: object,
    *,
    params: Mapping[str, float] | None = None,
    description: str = "",
    stochastic: bool = False,
    heavy: bool = False,
    cost: str | None = None,
    unsupported: Mapping[str, Iterable] | None = None,
    param_bounds: Mapping[str, tuple[float | None, float | None]] | None = None,
    reads_scoring: bool = False,
    colour: str | None = None,
    quick_params: Mapping[str, float] | None = None,
    replace: bool = False,
) -> Strategy:
    """Register a user strategy under ``name`` and return it.

    ``bid`` and ``play`` must be ``numba.njit`` functions taking
    ``(view, params, rng)``.  They can live in any module or notebook; nothing in
    the package needs editing.

    Parameters
    ----------
    name : str
        Letters, digits, ``_`` and ``-``, starting with a letter.
    bid, play : numba dispatcher
        The strategy's decisions.
    params : mapping of str to float, optional
        Parameter names with their defaults.
    description : str
        One paragraph on the idea.
    stochastic : bool
        Whether the strategy draws random numbers.
    heavy : bool
        Shorthand for ``cost="heavy"``.
    cost : {"light", "heavy"}, optional
        ``"heavy"`` when each decision is costly (e.g. Monte Carlo playouts); such
        a strategy is never inlined into the game loop (see :class:`Strategy`).
        Default ``"heavy"`` if ``heavy`` else ``"light"``.
    unsupported : mapping of str to values, optional
        Rule variants the strategy cannot play, e.g. ``{"decks": [2]}``.
    param_bounds : mapping of str to (low, high), optional
        The values a parameter may take, both ends included, ``None`` for no
        bound (see :class:`Strategy`).
    reads_scoring : bool
        Whether the bid reads the scoring tables (see :class:`Strategy`).
    colour : str, optional
        Its colour in figures, ``"#RRGGBB"``.
    quick_params : mapping of str to float, optional
        Overrides for a quick run of a heavy strategy (see :class:`Strategy`).
    replace : bool
        Allow re-registering a user strategy of the same name (e.g. when a
        notebook cell runs again).

    Raises
    ------
    InvalidArgumentError
        For a bad name, a name already taken, functions that are not
        Numba-compiled, an unknown cost class, ``heavy`` contradicting ``cost``,
        or bounds that name no parameter or exclude its default.
    StrategyError
        If the functions read a value the engine cannot fingerprint (an object
        of a user class, a typed container), or draw from NumPy's or Python's
        global random state (see :mod:`ohhell_sim.strategy_code`).
    """
    if not isinstance(name, str) or not _NAME_RE.match(name):
        raise InvalidArgumentError(
            f"strategy name must start with a letter and hold only letters, digits, '_' "
            f"and '-', got {name!r}"
        )
    existing = _registry().get(name)
    if existing is not None and (existing.builtin_id is not None or not replace):
        why = "a built-in" if existing.builtin_id is not None else "registered already"
        raise InvalidArgumentError(
            f"strategy name {name!r} is {why}; choose another name"
            + ("" if existing.builtin_id is not None else " or pass replace=True")
        )
    for role, func in (("bid", bid), ("play", play)):
        if not hasattr(func, "py_func") or not hasattr(func, "compile"):
            raise InvalidArgumentError(
                f"strategy {name!r}: {role} must be a numba.njit function taking "
                f"(view, params, rng), got {func!r}"
            )
    if cost is None:
        cost = "heavy" if heavy else "light"
    elif heavy and cost != "heavy":
        raise InvalidArgumentError(
            f"strategy {name!r}: heavy=True contradicts cost={cost!r}; give one of them"
        )
    strategy = Strategy(
        name=name,
        bid=bid,
        play=play,
        params={} if params is None else params,
        description=description,
        stochastic=stochastic,
        cost=cost,
        unsupported=dict(unsupported or {}),
        param_bounds=dict(param_bounds or {}),
        reads_scoring=reads_scoring,
        colour=colour,
        quick_params=dict(quick_params or {}),
    )
    strategy.fingerprint()  # refuses, now, code whose staleness could not be told
    _REGISTRY[name] = strategy
    return strategy


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


def unregister_strategy(name: str) -> None:
    """Remove a user strategy from the registry."""
    strategy = get_strategy(name)
    if strategy.builtin_id is not None:
        raise InvalidArgumentError(f"strategy {name!r} is a built-in and cannot be unregistered")
    del _REGISTRY[name]


def register_builtins(builtins: Iterable[Strategy]) -> None:
    """Register the package's built-in strategies (called by the ``strategies`` package)."""
    for strategy in builtins:
        if strategy.builtin_id is None:
            raise InvalidArgumentError(f"built-in strategy {strategy.name!r} has no builtin_id")
        _REGISTRY[strategy.name] = strategy


def available_strategies() -> list[str]:
    """Names of every registered strategy, built-ins first."""
    registry = _registry()
    return sorted(registry, key=lambda n: (registry[n].builtin_id is None, n))


def get_strategy(name: str) -> Strategy:
    """The strategy registered as ``name``.

    Raises
    ------
    InvalidArgumentError
        If no strategy has that name; the message lists the known ones.
    """
    try:
        return _registry()[name]
    except (KeyError, TypeError):
        known = ", ".join(available_strategies())
        raise InvalidArgumentError(
            f"unknown strategy {name!r}; known strategies: {known}"
        ) from None


#: A seat: a registered name, ``NAME[PARAM=VALUE,...]`` (:mod:`ohhell_sim.seat_text`), a
#: :class:`Strategy`, or ``(name or Strategy, {param: value})``.
SeatSpec = str | Strategy | tuple[str | Strategy, Mapping[str, float]]


@dataclass(frozen=True)
class Seating:
    """Strategies for each seat, resolved and checked, ready for the kernel.

    Attributes
    ----------
    strategies : tuple of Strategy
        One per seat.
    params : ndarray
        ``float64`` array of shape ``(seats, max params)``, zero-padded.
    checked : bool
        The check mode of a run: user code compiled with bounds checks, and the
        first games compared with the reference engine.
    """

    strategies: tuple[Strategy, ...]
    params: np.ndarray
    checked: bool = False

    @property
    def names(self) -> list[str]:
        """Strategy name per seat."""
        return [s.name for s in self.strategies]

    @property
    def labels(self) -> list[str]:
        """Label per seat: the name, and in brackets the parameters that differ from its defaults.

        ``simple[scale=1.5]`` for a seat of ``simple`` with ``scale=1.5``, ``simple``
        for one with the default; seats with one label play alike, and the label
        reads back as its seat (:func:`resolve_seating`).
        """
        return [
            seat_label(
                strategy.name,
                (
                    (key, value)
                    for (key, default), value in zip(strategy.params.items(), row, strict=False)
                    if value != default
                ),
            )
            for strategy, row in zip(self.strategies, self.params, strict=True)
        ]

    @property
    def user_strategies(self) -> tuple[Strategy, ...]:
        """The distinct non-built-in strategies of this seating, sorted by name."""
        seen = {s.name: s for s in self.strategies if s.builtin_id is None}
        return tuple(seen[n] for n in sorted(seen))

    @property
    def distinct_strategies(self) -> tuple[Strategy, ...]:
        """The distinct strategies of this seating, sorted by name: the kernel's dispatch."""
        seen = {s.name: s for s in self.strategies}
        return tuple(seen[n] for n in sorted(seen))

    def own_params(self, seat: int) -> np.ndarray:
        """A copy of ``seat``'s parameter row, its own length.

        :attr:`params` pads the rows of strategies with fewer parameters with
        zeros; a strategy is given its own row only, as in the kernel
        (:func:`ohhell_sim.engine.readonly.private_copy`).
        """
        return self.params[seat, : len(self.strategies[seat].params)].copy()

    def dispatch_ids(self) -> np.ndarray:
        """Dispatch id per seat: the position of its strategy in ``distinct_strategies``."""
        index = {s.name: i for i, s in enumerate(self.distinct_strategies)}
        return np.array([index[s.name] for s in self.strategies], dtype=np.int64)


def resolve_seating(specs: Sequence[SeatSpec], players: int) -> Seating:
    """Check and resolve one strategy spec per seat.

    A spec is a registered name, the same with parameter values in brackets
    (``"simple[scale=1.5]"``, as on the command line), a :class:`Strategy`, or
    ``(name, {param: value})``.

    Raises
    ------
    InvalidArgumentError
        If the number of specs differs from ``players``, a name is unknown, a
        parameter does not exist or its value is not a finite number (or within
        its bounds), a seat's text cannot be read, or two seats hold different
        strategies of one name (one registered again with other code or settings
        while the other was kept): the results, the kernel and the replay know a
        strategy by its name.
    """
    if isinstance(specs, str) or not isinstance(specs, Sequence):
        raise InvalidArgumentError(
            f"strategies must be a list with one strategy name per seat, got {specs!r}"
        )
    if len(specs) != players:
        raise InvalidArgumentError(
            f"strategies must name one strategy per seat: {players} players but "
            f"{len(specs)} strategies given ({list(specs)!r})"
        )
    resolved: list[Strategy] = []
    rows: list[np.ndarray] = []
    for spec in specs:
        overrides: Mapping[str, float] | None = None
        if isinstance(spec, tuple):
            if len(spec) != 2 or not isinstance(spec[1], Mapping):
                raise InvalidArgumentError(
                    f"a seat given as a tuple must be (name, {{param: value}}), got {spec!r}"
                )
            spec, overrides = spec
        elif isinstance(spec, str):
            spec, overrides = parse_seat_text(spec)
        strategy = spec if isinstance(spec, Strategy) else get_strategy(spec)
        resolved.append(strategy)
        rows.append(strategy.param_row(overrides))
    _check_one_strategy_per_name(resolved)
    width = max(1, max(len(r) for r in rows))
    params = np.zeros((players, width), dtype=np.float64)
    for seat, row in enumerate(rows):
        params[seat, : len(row)] = row
    return Seating(strategies=tuple(resolved), params=params)


def check_seating(rules: Rules, specs: Sequence[SeatSpec]) -> Seating:
    """Resolve one strategy spec per seat and check that each strategy plays ``rules``.

    Raises
    ------
    InvalidArgumentError
        For a wrong number of seats, an unknown strategy or parameter, or a
        strategy that refuses a variant of ``rules`` (the message names both).
    """
    seating = resolve_seating(specs, rules.players)
    for strategy in seating.strategies:
        strategy.check_rules(rules)
    return seating


def _check_one_strategy_per_name(strategies: Sequence[Strategy]) -> None:
    # Everything downstream (the kernel's dispatch, the labels of the results, the
    # workers of a cluster) knows a strategy by its name.
    first: dict[str, tuple[int, Strategy]] = {}
    for seat, strategy in enumerate(strategies):
        seen_seat, seen = first.setdefault(strategy.name, (seat, strategy))
        if seen is strategy or _alike(seen, strategy):
            continue
        raise InvalidArgumentError(
            f"seats {seen_seat} and {seat} hold two different strategies named "
            f"{strategy.name!r} (bid functions at {source_location(seen.bid)} and "
            f"{source_location(strategy.bid)}): one was registered again, with other code or "
            "settings, after the other was taken; a run knows a strategy by its name, "
            "so register one of them under another name"
        )


def _alike(one: Strategy, other: Strategy) -> bool:
    # The same settings and the same code (their functions may be distinct objects).
    settings = [f.name for f in dataclasses.fields(Strategy) if f.name not in ("bid", "play")]
    if any(getattr(one, name) != getattr(other, name) for name in settings):
        return False
    return one.fingerprint() == other.fingerprint()
