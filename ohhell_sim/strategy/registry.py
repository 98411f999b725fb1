"""The registry of strategies, and how a seating is prepared for the kernel.

Built-in strategies are registered on the registry's first lookup, which imports
their package (:mod:`ohhell_sim.strategies`) and reads its ``BUILTINS``; they are
dispatched by integer id inside the cached kernel.  A user strategy is registered
with :func:`register_strategy`; the engine then builds (once, and caches on disk)
a kernel whose dispatch includes it.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.seat_text import parse_seat_text, seat_label
from ohhell_sim.strategy.code import strategy_fingerprint
from ohhell_sim.strategy.origin import source_location
from ohhell_sim.strategy.record import Strategy

_NAME_RE = re.compile(r"^[A-Za-z][A-Za-z0-9_\-]*$")

_REGISTRY: dict[str, Strategy] = {}
_BUILTINS_REGISTERED = False


def _registry() -> dict[str, Strategy]:
    """The registry, with the built-ins in it (their package is imported on the first lookup)."""
    if not _BUILTINS_REGISTERED:
        from ohhell_sim.strategies import BUILTINS

        _register_builtins(BUILTINS)
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
        global random state (see :mod:`ohhell_sim.strategy.code`).
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
    strategy_fingerprint(strategy)  # refuses, now, code whose staleness could not be told
    _REGISTRY[name] = strategy
    return strategy


def unregister_strategy(name: str) -> None:
    """Remove a user strategy from the registry."""
    strategy = get_strategy(name)
    if strategy.builtin_id is not None:
        raise InvalidArgumentError(f"strategy {name!r} is a built-in and cannot be unregistered")
    del _REGISTRY[name]


def _register_builtins(builtins: Iterable[Strategy]) -> None:
    global _BUILTINS_REGISTERED
    for strategy in builtins:
        if strategy.builtin_id is None:
            raise InvalidArgumentError(f"built-in strategy {strategy.name!r} has no builtin_id")
        _REGISTRY[strategy.name] = strategy
    _BUILTINS_REGISTERED = True


def available_strategies() -> list[str]:
    """Names of every registered strategy, built-ins first."""
    registry = _registry()
    return sorted(registry, key=lambda n: (registry[n].builtin_id is None, n))


def builtin_strategies() -> tuple[str, ...]:
    """Names of the package's built-in strategies, in :func:`available_strategies`' order."""
    registry = _registry()
    return tuple(n for n in available_strategies() if registry[n].builtin_id is not None)


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
    shared : bool
        Played on the shared kernel, compiled once for every strategy, which
        calls each strategy compiled alone (an edit recompiles that strategy
        only), rather than on a kernel compiled for these strategies
        (:func:`ohhell_sim.run.dispatch.shared_kernel`).  The games are the same.
    """

    strategies: tuple[Strategy, ...]
    params: np.ndarray
    checked: bool = False
    shared: bool = False

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
        check_plays(strategy, rules)
    return seating


def check_plays(strategy: Strategy, rules: Rules) -> None:
    """Raise if ``strategy`` cannot play ``rules``.

    Raises
    ------
    InvalidArgumentError
        Naming the strategy, the variant and the registered strategies that
        can play these rules.
    """
    refused = strategy.refused_variants(rules)
    if refused:
        able = [n for n in available_strategies() if _registry()[n].supports(rules)]
        raise InvalidArgumentError(
            f"strategy {strategy.name!r} does not support {', '.join(refused)}; strategies "
            f"that do: {', '.join(able)}"
        )


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
    return strategy_fingerprint(one) == strategy_fingerprint(other)
