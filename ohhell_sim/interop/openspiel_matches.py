"""Grids of duplicate matches against OpenSpiel's bots, kept match by match in a folder.

A *match* seats one of our strategies against ``players - 1`` copies of an
OpenSpiel bot in OpenSpiel's ``oh_hell`` with a fixed number of tricks
(:func:`ohhell_sim.interop.openspiel.play_duplicate`): every deal set is played
once per rotation of the seats, so our strategy holds every hand from every
seat.  The opponents:

* ``ismcts:N``: OpenSpiel's information-set MCTS, N simulations per decision,
  one random rollout per leaf (:func:`~ohhell_sim.interop.openspiel.ismcts_bot`);
* ``fair_ismcts:N``: the same search in OpenSpiel's Python port of the bot, its
  worlds dealt by a fair sampler (:func:`~ohhell_sim.interop.openspiel.python_ismcts_bot`):
  ``ismcts:N`` samples worlds with OpenSpiel's ``oh_hell`` resampler, which
  deals the opponents only the cards they truly hold, so it knows which cards
  are out; this one knows what its seat knows;
* ``py_ismcts:N``: the Python port with OpenSpiel's resampler, the control
  that tells the sampler's effect from the port's;
* ``mcts:N``: OpenSpiel's plain MCTS with random rollouts.  It searches the true
  state, so it sees every hand: a reference from above, not a fair opponent;
* ``random``: OpenSpiel's uniform random bot.

With ``told_stock`` every strategy of ours also plays each match told which
cards are undealt, the knowledge OpenSpiel's resampler gives its ISMCTS.

A folder accumulates matches: :func:`run_matches` plays only the matches the
folder does not hold yet and writes ``matches.parquet`` after each one, so a
long run that stops loses at most the match in progress, and several grids
(say, every strategy at one budget and the strongest at a larger one) can be
run into one folder.  The study :mod:`ohhell_sim.studies.openspiel_match`
analyses whatever the folder holds.
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from ohhell_sim._version import __version__
from ohhell_sim.analysis.report import command_path
from ohhell_sim.arguments import check_count, check_seed
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.interop.openspiel import check_bot_seeds, rules_of
from ohhell_sim.results import check_output_folder, read_frame, write_frame
from ohhell_sim.strategy import (
    SeatSpec,
    builtin_strategies,
    check_seating,
    resolve_seating,
)

#: The name the matches' frame carries (its study).
STUDY = "openspiel_match"
MATCHES_FILE = "matches.parquet"
#: The commands that played the matches of a folder, in order.
RUNS_FILE = "runs.json"
DEFAULT_OPPONENTS = ("ismcts:1000", "ismcts:10000")
DEFAULT_PLAYERS = (3, 4, 5)
DEFAULT_TRICKS = (5, 10)
DEFAULT_DEALS = 20
#: Table sizes OpenSpiel's ``oh_hell`` accepts.
OPENSPIEL_PLAYERS = range(3, 8)
BOT_KINDS = ("ismcts", "py_ismcts", "fair_ismcts", "mcts")
#: The columns that identify a match.
MATCH_KEY = ("strategy", "opponent", "players", "tricks", "seed")
#: Appended to the label of a seat that is told the undealt cards.
TOLD_STOCK = " (told the stock)"


def _openspiel():
    try:
        import pyspiel
    except ImportError:
        raise InvalidArgumentError(
            "OpenSpiel matches need OpenSpiel: pip install 'ohhell-sim[openspiel]'"
        ) from None
    return pyspiel


def check_opponent(spec: object) -> str:
    """Return ``spec`` if it names an OpenSpiel bot: ``random`` or ``KIND:N``.

    ``KIND`` is ``ismcts``, ``py_ismcts``, ``fair_ismcts`` or ``mcts`` (module
    docstring), ``N`` its simulations per decision.

    Raises
    ------
    InvalidArgumentError
        Naming the value and the forms allowed.
    """
    if spec == "random":
        return spec
    kind, _, budget = str(spec).partition(":")
    if kind not in BOT_KINDS or not budget.isdigit() or int(budget) < 1:
        raise InvalidArgumentError(
            f"opponent must be random or KIND:N with KIND one of {', '.join(BOT_KINDS)} and "
            f"N >= 1 simulations, got {spec!r}"
        )
    return str(spec)


def is_openspiel_bot(spec: object) -> bool:
    """Whether a seat spec names an OpenSpiel search bot (``ismcts:N``, ``mcts:N``), not ours.

    Such a seat in ``strategies`` measures the bot itself against the opponents,
    e.g. ISMCTS against three random bots, as a baseline for ours.  ``random``
    in ``strategies`` is our built-in ``random``.
    """
    return spec != "random" and isinstance(spec, str) and _is_bot_spec(spec)


def _is_bot_spec(spec: str) -> bool:
    try:
        check_opponent(spec)
    except InvalidArgumentError:
        return False
    return True


def opponent_maker(game, spec: str) -> Callable[[int, int], object]:
    """``make(player, seed)`` returning the OpenSpiel bot ``spec`` names (see :func:`check_opponent`)."""  # noqa: E501
    pyspiel = _openspiel()
    from ohhell_sim.interop.openspiel import ismcts_bot, python_ismcts_bot

    spec = check_opponent(spec)
    if spec == "random":
        return lambda player, seed: pyspiel.make_uniform_random_bot(player, seed)
    kind, _, budget = spec.partition(":")
    simulations = int(budget)
    if kind == "ismcts":
        return lambda player, seed: ismcts_bot(player, seed, simulations=simulations)
    if kind in ("py_ismcts", "fair_ismcts"):
        fair = kind == "fair_ismcts"
        return lambda player, seed: python_ismcts_bot(game, player, seed, simulations, fair)

    def mcts(player: int, seed: int):
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        # uct_c 2, no memory cap, no solver, the move of most visits.
        return pyspiel.MCTSBot(game, evaluator, 2.0, simulations, 10**7, False, seed, False)

    return mcts


def seat_label(spec: SeatSpec) -> str:
    """A seat's name in tables: ``"pimc"``, or ``"pimc[samples=8]"`` with parameters.

    Our strategies get their seat label (:attr:`~ohhell_sim.strategy.Seating.labels`:
    the parameters that differ from the defaults, in the strategy's order), an
    OpenSpiel bot its spec (``"ismcts:1000"``).
    """
    if is_openspiel_bot(spec):
        return spec
    return resolve_seating([spec], 1).labels[0]


@dataclass(frozen=True)
class Match:
    """One match: our seat ``spec`` against ``players - 1`` copies of ``opponent``.

    ``strategy`` is the seat's label (:func:`seat_label`, with :data:`TOLD_STOCK`
    appended when ``sees_stock``: the seat is told which cards are undealt).
    """

    strategy: str
    opponent: str
    players: int
    tricks: int
    deals: int
    seed: int
    spec: SeatSpec = field(default=None, compare=False)
    sees_stock: bool = False

    @property
    def key(self) -> tuple:
        """What identifies the match in a folder (its size, ``deals``, is checked apart)."""
        return tuple(getattr(self, k) for k in MATCH_KEY)

    def load_game(self):
        """OpenSpiel's ``oh_hell`` for this table."""
        return _openspiel().load_game(
            "oh_hell", {"players": self.players, "num_tricks_fixed": self.tricks}
        )


def plan_matches(
    strategies: Sequence[str] | None = None,
    opponents: Sequence[str] = DEFAULT_OPPONENTS,
    players: Sequence[int] = DEFAULT_PLAYERS,
    tricks: Sequence[int] = DEFAULT_TRICKS,
    deals: int = DEFAULT_DEALS,
    seed: int = 0,
    told_stock: bool = False,
) -> list[Match]:
    """Every match of the grid strategies × opponents × players × tricks, checked.

    Parameters
    ----------
    strategies : sequence of seat specs, optional
        Registered strategies: names, or ``(name, {param: value})``; default
        every built-in.  An OpenSpiel bot's spec (``"ismcts:1000"``) takes the
        seat as a baseline.
    opponents : sequence of str
        OpenSpiel bots (:func:`check_opponent`).
    players, tricks : sequence of int
        Table sizes (3-7) and tricks per deal (at most ``51 // players``).
    deals : int
        Deal sets per match (each played once per rotation), at least 2.
    seed : int
        Seeds the cards and every bot.
    told_stock : bool
        Also play each of our strategies told which cards are undealt (what
        OpenSpiel's resampler tells ISMCTS), on the same deals.

    Returns
    -------
    list of Match

    Raises
    ------
    InvalidArgumentError
        For any bad value, before anything is played.
    """
    from ohhell_sim.rules import Rules

    if strategies is None:
        strategies = list(builtin_strategies())
    strategies = list(strategies)
    if not strategies:
        raise InvalidArgumentError("strategies must name at least one strategy, got none")
    opponents = [check_opponent(o) for o in opponents]
    if not opponents:
        raise InvalidArgumentError("opponents must name at least one OpenSpiel bot, got none")
    deals = check_count("deals", deals, minimum=2)
    seed = check_seed(seed)
    players = [_check_players(p) for p in players]
    tricks = [check_count("tricks", t) for t in tricks]
    if not players or not tricks:
        raise InvalidArgumentError("players and tricks must each give at least one value")
    for n in players:
        for t in tricks:
            if n * t + 1 > 52:
                raise InvalidArgumentError(
                    f"tricks={t} with players={n} needs {n * t + 1} cards with the turned "
                    f"one; at most {51 // n} tricks fit a deck at {n} players"
                )
    for n in players:
        check_bot_seeds(seed, deals, n)
        rules = Rules.preset("openspiel", players=n, schedule=(tricks[0],))
        for spec in strategies:
            if not is_openspiel_bot(spec):
                check_seating(rules, [spec] * n)
    seats = [(s, False) for s in strategies]
    if told_stock:
        seats += [(s, True) for s in strategies if not is_openspiel_bot(s)]
    matches = [
        Match(seat_label(s) + (TOLD_STOCK if told else ""), o, n, t, deals, seed, s, told)
        for o in opponents
        for n in players
        for t in tricks
        for s, told in seats
    ]
    seen: set[Match] = set()
    for match in matches:
        if match in seen:
            # It would be played twice and its rows counted twice.
            raise InvalidArgumentError(
                f"the grid holds the match {match.strategy} against {match.opponent} at "
                f"{match.players} players and {match.tricks} tricks twice: give each "
                "strategy, opponent, table size and trick count once"
            )
        seen.add(match)
    return matches


def _check_players(value: object) -> int:
    n = check_count("players", value, minimum=OPENSPIEL_PLAYERS.start)
    if n not in OPENSPIEL_PLAYERS:
        raise InvalidArgumentError(
            f"players must be in {OPENSPIEL_PLAYERS.start}..{OPENSPIEL_PLAYERS.stop - 1} "
            f"(OpenSpiel's oh_hell), got {n}"
        )
    return n


def play_match(match: Match) -> pd.DataFrame:
    """Play one match: the rows of :func:`~ohhell_sim.interop.openspiel.play_duplicate`
    with the match's ``strategy``, ``opponent``, ``players``, ``tricks`` and ``seed``."""
    from ohhell_sim.interop.openspiel import play_duplicate, strategy_bot

    game = match.load_game()
    rules_of(game)
    spec = match.strategy if match.spec is None else match.spec
    make_opponent = opponent_maker(game, match.opponent)
    if is_openspiel_bot(spec):
        entrants = {match.strategy: opponent_maker(game, spec)}
    else:
        entrants = {match.strategy: lambda p, s: strategy_bot(game, p, spec, s, match.sees_stock)}
        # One untimed deal with our strategy in every seat compiles its functions, so
        # that the compile does not count as thinking time in the match.
        play_duplicate(
            game,
            {f"warm-up#{k}": entrants[match.strategy] for k in range(match.players)},
            1,
            match.seed,
        )
    for k in range(1, match.players):
        entrants[f"{match.opponent}#{k}"] = make_opponent
    rows = play_duplicate(game, entrants, match.deals, match.seed)
    for column in reversed(MATCH_KEY):
        rows.insert(0, column, getattr(match, column))
    return rows


def read_matches(folder: str | Path) -> pd.DataFrame:
    """The matches a folder holds (an empty frame when it holds none)."""
    path = Path(folder) / MATCHES_FILE
    return read_frame(path) if path.is_file() else pd.DataFrame()


def run_matches(
    matches: Iterable[Match],
    out: str | Path,
    *,
    command: str = "",
    note: str = "",
    progress: bool = True,
    jobs: int = 1,
) -> pd.DataFrame:
    """Play the matches ``out`` does not hold yet, saving the folder after each one.

    Returns every match the folder holds afterwards.  ``command`` and ``note``
    (e.g. which code played the matches) are recorded in the folder's
    ``runs.json`` and shown in its report.  With ``jobs`` > 1 that many matches
    play at once, each in its own process; every match plays exactly as it
    would alone, and the folder is saved as each one finishes.

    Raises
    ------
    InvalidArgumentError
        When the folder holds one of the matches at another number of deal sets
        (its first deal sets would be the same cards: use another folder or seed).
    """
    from tqdm.auto import tqdm

    out = check_output_folder(out)
    jobs = check_count("jobs", jobs)
    matches = list(matches)
    held = read_matches(out)
    sizes = {}
    if not held.empty:
        per_match = held.groupby(list(MATCH_KEY))["deal"].nunique()
        sizes = {tuple(k): int(v) for k, v in per_match.items()}
    for m in matches:
        if m.key in sizes and sizes[m.key] != m.deals:
            raise InvalidArgumentError(
                f"{str(out)!r} holds {m.strategy} vs {m.opponent} at {m.players}x{m.tricks}, "
                f"seed {m.seed}, with {sizes[m.key]} deal sets, not deals={m.deals}; use "
                "another folder or seed"
            )
    todo = [m for m in matches if m.key not in sizes]
    out.mkdir(parents=True, exist_ok=True)
    record_run(out, command, len(matches), len(todo), note)
    frames = [held] if not held.empty else []
    bar = tqdm(total=len(todo), desc=STUDY, unit="match", disable=not progress)
    with _match_pool(jobs) as pool:
        for played, rows in enumerate(pool(play_match, todo), 1):
            frames.append(rows)
            held = pd.concat(frames, ignore_index=True)
            held.attrs = {"version": __version__, "study": STUDY}
            write_frame(held, out / MATCHES_FILE)
            _count_played(out, played)
            bar.update()
    bar.close()
    return held


@contextmanager
def _match_pool(jobs: int):
    """``map(func, items)`` yielding results as they finish: in this process, or in ``jobs``."""
    if jobs == 1:
        yield map
        return
    with ProcessPoolExecutor(jobs) as executor:

        def finished(func, items):
            for future in as_completed([executor.submit(func, item) for item in items]):
                yield future.result()

        yield finished


def record_run(out: str | Path, command: str, planned: int, new: int, note: str = "") -> None:
    """Append a run to ``runs.json``: its command, the matches it covers and those it
    had to play (``new``), ``played`` (how many of those it has finished, kept up
    to date as it plays) and ``note``."""
    path = Path(out) / RUNS_FILE
    runs = json.loads(path.read_text()) if path.is_file() else []
    entry = {
        "command": command,
        "matches": planned,
        "new": new,
        "played": 0,
        "version": __version__,
    }
    if note:
        entry["note"] = note
    runs.append(entry)
    path.write_text(json.dumps(runs, indent=2) + "\n")


def _count_played(out: Path, played: int) -> None:
    """Record in the last run of ``runs.json`` that it has finished ``played`` matches."""
    path = out / RUNS_FILE
    runs = json.loads(path.read_text())
    runs[-1]["played"] = played
    path.write_text(json.dumps(runs, indent=2) + "\n")


def match_command(
    strategies: Sequence[str] | None,
    opponents: Sequence[str],
    players: Sequence[int],
    tricks: Sequence[int],
    deals: int,
    seed: int,
    out: str | Path,
    told_stock: bool = False,
) -> str:
    """The ``ohhell openspiel-match`` line that plays a grid."""
    chosen = f"--strategies {shlex.quote(','.join(strategies))} " if strategies else ""
    return (
        f"ohhell openspiel-match {chosen}--opponents {','.join(opponents)} "
        f"--players {','.join(map(str, players))} --tricks {','.join(map(str, tricks))} "
        f"--deals {deals} --seed {seed}{' --told-stock' if told_stock else ''} "
        f"--out {command_path(out)}"
    )


__all__ = [
    "Match",
    "check_opponent",
    "is_openspiel_bot",
    "match_command",
    "opponent_maker",
    "plan_matches",
    "play_match",
    "read_matches",
    "record_run",
    "run_matches",
    "seat_label",
]
