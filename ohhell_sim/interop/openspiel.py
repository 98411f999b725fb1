"""Our strategies in OpenSpiel's ``oh_hell`` (``pip install open-spiel``).

:class:`StrategyBot` is a ``pyspiel.Bot``: any registered strategy, built-in or
user, plays a seat of OpenSpiel's game.  At each decision the OpenSpiel state's
history is read into the reference engine's table (:class:`ohhell_sim.reference.DealTable`),
and the strategy sees the view that the reference engine's single view builder
(:func:`ohhell_sim.reference.view_of`) cuts from it: the same information it
has in :func:`ohhell_sim.simulate`.

OpenSpiel's ``oh_hell`` is one deal: a chance node draws the number of tricks
(unless ``num_tricks_fixed``), one the dealer, then the cards are dealt one at a
time from player 0 and the next card is turned up for trump.  Bids go from the
dealer's left, the dealer bound by the hook; the dealer's left leads.  A seat
scores its tricks, plus 10 for an exact bid: the ``openspiel`` preset of
:class:`~ohhell_sim.rules.Rules` (:func:`rules_of`).  Cards are ``rank *
num_suits + suit`` with suits ordered clubs, diamonds, spades, hearts.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd

from ohhell_sim import view as V
from ohhell_sim.analysis.stats import clustered_mean_ci
from ohhell_sim.arguments import check_count, check_seed
from ohhell_sim.errors import InvalidArgumentError, StrategyError
from ohhell_sim.reference import (
    DealTable,
    Stream,
    forbidden_dealer_bid,
    legal_cards,
    new_table,
    read_only,
    seat_streams,
    table_steps,
    view_of,
)
from ohhell_sim.rules import Rules
from ohhell_sim.strategy import SeatSpec, check_seating
from ohhell_sim.strategy.code import strategy_functions
from ohhell_sim.strategy.compilation import check_compiles

#: OpenSpiel's suits (clubs, diamonds, spades, hearts) to ours (clubs, diamonds,
#: hearts, spades), and back: the swap is its own inverse.
_SUIT_SWAP = (0, 1, 3, 2)
N_CARDS = 52
#: The purpose id of :func:`python_ismcts_bot`'s sampling stream (apart from the
#: reference engine's deal, cut and seat streams).
_FAIR_RESAMPLE = 7
#: Where the deal starts in an ``oh_hell`` history: after the chance actions
#: that draw the number of tricks and the dealer.
_DEAL_START = 2


def our_card(action: int) -> int:
    """Our card id of OpenSpiel's card action."""
    rank, suit = divmod(action, 4)
    return _SUIT_SWAP[suit] * 13 + rank


def their_card(card: int) -> int:
    """OpenSpiel's card action of our card id."""
    suit, rank = divmod(card, 13)
    return rank * 4 + _SUIT_SWAP[suit]


def rules_of(game) -> Rules:
    """Our rules for an OpenSpiel ``oh_hell`` game with a fixed number of tricks.

    Raises
    ------
    InvalidArgumentError
        For parameters our rules cannot express: another deck than 4 × 13 cards,
        ``off_bid_penalty``, other ``points_per_trick`` than 1, or a random
        number of tricks (``num_tricks_fixed=-1``).
    """
    params = game.get_parameters()
    tricks = params.get("num_tricks_fixed", -1)
    problems = []
    if params.get("num_suits", 4) != 4 or params.get("num_cards_per_suit", 13) != 13:
        problems.append("a deck other than 4 suits x 13 cards")
    if params.get("off_bid_penalty", False):
        problems.append("off_bid_penalty")
    if params.get("points_per_trick", 1) != 1:
        problems.append("points_per_trick other than 1")
    if tricks < 1:
        problems.append("a random number of tricks (set num_tricks_fixed)")
    if problems:
        raise InvalidArgumentError(
            f"OpenSpiel game {params} has {', '.join(problems)}, which ohhell-sim rules cannot play"
        )
    return Rules.preset("openspiel", players=params["players"], schedule=(tricks,))


def dealt_hands(history: list[int], rules: Rules) -> list[list[int]]:
    """Each player's dealt cards (our ids) in an ``oh_hell`` history: card ``i`` of
    the deal goes to player ``i % players``."""
    n = rules.players
    deal = history[_DEAL_START : _DEAL_START + n * rules.schedule[0]]
    return [[our_card(a) for a in deal[p::n]] for p in range(n)]


def table_of(state, rules: Rules) -> DealTable:
    """The reference engine's table of an OpenSpiel ``oh_hell`` state.

    The deal of the state's history is set on a reference table, and its bids
    and cards are played through the reference engine's own steps
    (:func:`~ohhell_sim.reference.table_steps`), which keep the trick, the
    voids shown and the tricks won as in any game of the engine.
    """
    history = list(state.history())
    n, tricks = rules.players, rules.schedule[0]
    n_dealt = n * tricks
    seats = list(range(n))
    table = new_table(
        rules,
        0,
        history[_DEAL_START - 1],
        dealt_hands(history, rules),
        our_card(history[_DEAL_START + n_dealt]),
        seats,
        [0] * n,
        [0] * n,
    )
    steps = table_steps(table)
    step = next(steps)
    for action in history[_DEAL_START + n_dealt + 1 :]:
        step = steps.send(action - N_CARDS if step.role == "bid" else our_card(action))
    return table


def view_for(state, rules: Rules, sees_stock: bool = False) -> np.ndarray:
    """The view of the OpenSpiel player to move (see :mod:`ohhell_sim.view`).

    With ``sees_stock`` the undealt cards are marked seen (as if played), so
    that a strategy knows which cards are out, as OpenSpiel's ``oh_hell``
    resampler tells its ISMCTS (``experiments/openspiel_resample_leak.py``).
    That is more than the seat may know: it is for measuring what the knowledge
    is worth, not for play.
    """
    return _view_of_table(table_of(state, rules), state.current_player(), sees_stock)


def _view_of_table(table: DealTable, player: int, sees_stock: bool = False) -> np.ndarray:
    rules = table.rules
    if any(b is None for b in table.bids):
        others = sum(b for b in table.bids if b is not None)
        forbidden = None
        if player == table.dealer:
            forbidden = forbidden_dealer_bid(rules, table.hand_size, others)
        view = view_of(table, player, V.PHASE_BID, None, forbidden)
    else:
        trick = table.trick
        led = trick.cards[0] // 13 if trick.cards else None
        legal = legal_cards(table.hands[player], led, table.trump)
        view = view_of(table, player, V.PHASE_PLAY, legal, None)
    if sees_stock:
        view[V.PLAYED] |= stock_mask(table)
    return view


def stock_mask(table: DealTable) -> int:
    """The mask of the cards the deal of ``table`` left undealt: in no hand, not
    played, not turned up."""
    dealt = 1 << table.trump_card
    for card in (*table.played, *(c for hand in table.hands for c in hand)):
        dealt |= 1 << card
    return ((1 << N_CARDS) - 1) & ~dealt


class FairResampler:
    """Worlds the player to move cannot tell from a state, its hidden cards dealt fairly.

    ``resampler(state)`` deals the cards the player to move cannot see at random
    over the others' hands and the undealt stock, each seat keeping as many
    cards as it holds and no card of a suit it has shown void in, every such
    world equally likely: our strategies' sampler
    (:func:`ohhell_sim.strategies.sampler.draw_sample`) on the
    player's view, drawing from ``stream`` (a random stream as
    :func:`~ohhell_sim.reference.seat_streams` gives).  The cards already played
    stay where they were dealt.  OpenSpiel's own ``resample_from_infostate`` for
    ``oh_hell`` deals the opponents only the cards they truly hold
    (``experiments/openspiel_resample_leak.py``); this one gives a seat what it
    may know.  What a state tells the sampler is kept for the last state seen,
    since a search resamples one state many times.
    """

    def __init__(self, rules: Rules, stream: np.ndarray) -> None:
        self.rules, self.stream = rules, stream
        self._history: list[int] | None = None

    def _prepare(self, state) -> None:
        from ohhell_sim.strategies.sampler import PLAN_SIZE, prepare_sample

        self._history = list(state.history())
        self._plan = np.empty(PLAN_SIZE, dtype=np.int64)
        self._pool = np.empty(53, dtype=np.int64)
        table = table_of(state, self.rules)
        me = state.current_player()
        if not prepare_sample(_view_of_table(table, me), self._plan, self._pool):
            raise InvalidArgumentError(f"cannot resample the hidden cards of {self._history}")
        played = set(table.played)
        # The cards of each seat that stay put: all of ours, the others' played ones.
        self._kept = [
            [c for c in hand if p == me or c in played]
            for p, hand in enumerate(dealt_hands(self._history, self.rules))
        ]

    def __call__(self, state, player: int | None = None):
        """A resampled world of ``state`` (``player``, ISMCTS's second argument, is the
        player to move)."""
        from ohhell_sim.strategies.sampler import draw_sample

        if list(state.history()) != self._history:
            self._prepare(state)
        hands = np.zeros(V.MAX_SEATS, dtype=np.int64)
        if not draw_sample(self._plan, self._pool, self.stream, hands):
            raise InvalidArgumentError(f"cannot resample the hidden cards of {self._history}")
        n, n_dealt = self.rules.players, self.rules.players * self.rules.schedule[0]
        me = state.current_player()
        dealt = [
            self._kept[p]
            + ([] if p == me else [c for c in range(N_CARDS) if (int(hands[p]) >> c) & 1])
            for p in range(n)
        ]
        world = state.get_game().new_initial_state()
        for action in self._history[:_DEAL_START]:
            world.apply_action(action)
        for i in range(n_dealt):
            world.apply_action(their_card(dealt[i % n][i // n]))
        for action in self._history[_DEAL_START + n_dealt :]:
            world.apply_action(action)
        return world


def python_ismcts_bot(
    game, player: int, seed: int, simulations: int = 1000, fair: bool = True, uct_c: float = 2.0
):
    """OpenSpiel's information-set MCTS in its Python port, with a fair world sampler.

    OpenSpiel's Python ``ISMCTSBot`` (the port of the C++ bot that
    :func:`ismcts_bot` builds), one random rollout per leaf, the move of most
    visits, ``simulations`` iterations per decision.  With ``fair`` its worlds
    are dealt by a :class:`FairResampler`, so it knows what its seat knows;
    without, by OpenSpiel's resampler, as the C++ bot's are (the control).
    Several times slower than the C++ bot.
    """
    from open_spiel.python.algorithms import ismcts, mcts

    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(seed)),
        uct_c,
        simulations,
        random_state=np.random.RandomState(seed + 1),
        final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
    )
    if fair:
        stream = Stream(seed, 0, _FAIR_RESAMPLE, player).as_array()
        bot.set_resampler(FairResampler(rules_of(game), stream))
    return bot


def strategy_bot(game, player: int, strategy: SeatSpec, seed: int = 0, sees_stock: bool = False):
    """A ``pyspiel.Bot`` playing ``strategy`` for ``player`` in ``game``.

    The strategy's random stream is seeded from ``(seed, player)``.  With
    ``sees_stock`` it is also told which cards are undealt (:func:`view_for`):
    a diagnostic that gives it what OpenSpiel's resampler tells ISMCTS.
    """
    import pyspiel

    rules = rules_of(game)
    seating = check_seating(rules, [strategy] * rules.players)
    chosen = seating.strategies[0]
    if chosen.builtin_id is None:
        check_compiles(chosen)  # a user strategy's mistakes named, not Numba's trace
    bid, play = strategy_functions(chosen)
    stream = seat_streams(seed, 0, rules.players)[player]

    class StrategyBot(pyspiel.Bot):
        name = chosen.name

        def __init__(self) -> None:
            pyspiel.Bot.__init__(self)

        def step(self, state) -> int:
            view = read_only(view_for(state, rules, sees_stock))
            role = "bid" if view[V.PHASE] == V.PHASE_BID else "play"
            try:
                params = read_only(seating.own_params(0))  # its own copy, as in the kernel
                move = int((bid if role == "bid" else play)(view, params, stream))
            except Exception as error:  # any exception is the strategy's to report
                raised = StrategyError.raised_by(chosen.name, role, error)
                raise StrategyError(
                    f"{raised} (OpenSpiel player {player})",
                    strategy=chosen.name,
                    role=role,
                    location=raised.location,
                    seat=player,
                ) from error
            return N_CARDS + move if role == "bid" else their_card(move)

        def restart_at(self, state) -> None:
            pass

    return StrategyBot()


#: OpenSpiel's bots take their seeds as C++ ints: at most this.
MAX_BOT_SEED = 2**31 - 1
#: Entrant ``e`` of deal ``d`` in rotation ``r`` is seeded ``seed * stride + d * players + r + e``.
_SEED_STRIDE = 1_000_003


def check_bot_seeds(seed: int, deals: int, players: int) -> None:
    """Raise unless every bot of :func:`play_duplicate` gets a seed OpenSpiel takes.

    Raises
    ------
    InvalidArgumentError
        Naming the largest seed that fits ``deals`` deal sets at ``players`` players.
    """
    rest = (deals - 1) * players + 2 * (players - 1)
    if seed * _SEED_STRIDE + rest <= MAX_BOT_SEED:
        return
    most = (MAX_BOT_SEED - rest) // _SEED_STRIDE
    fits = f"seeds 0..{most} fit" if most >= 0 else "no seed fits; play fewer deal sets"
    raise InvalidArgumentError(
        f"seed={seed} is too large for OpenSpiel's bots, which take 32-bit seeds (at most "
        f"{MAX_BOT_SEED}): each bot is seeded seed x {_SEED_STRIDE} + deal x players + "
        f"rotation + entrant; with {deals} deal sets at {players} players, {fits}"
    )


def play_duplicate(game, entrants: dict, deals: int, seed: int = 0) -> pd.DataFrame:
    """Play ``deals`` deals of ``game``, each replayed with the entrants rotated over the seats.

    Parameters
    ----------
    game : pyspiel.Game
        An ``oh_hell`` game.
    entrants : dict of str to callable
        One per seat: a name, and ``make(player, seed)`` returning a ``pyspiel.Bot``
        for that player (e.g. ``lambda p, s: strategy_bot(game, p, "simple", s)``,
        ``lambda p, s: pyspiel.make_uniform_random_bot(p, s)``).
    deals : int
        Deal sets; each is played ``players`` times, entrant ``e`` in seat
        ``(e + rotation) % players``, on the same cards.
    seed : int
        Seeds the cards and the bots; small enough that every bot's seed fits
        OpenSpiel's 32 bits (:func:`check_bot_seeds`).

    Returns
    -------
    DataFrame
        One row per (deal, rotation, entrant): ``seat``, ``points``,
        ``decisions`` and ``seconds`` (its thinking time in the deal).
    """
    n = game.num_players()
    if len(entrants) != n:
        raise InvalidArgumentError(f"entrants must name {n} players, got {list(entrants)}")
    check_bot_seeds(check_seed(seed), check_count("deals", deals), n)
    names = list(entrants)
    rng = np.random.default_rng(seed)
    rows = []
    for deal in range(deals):
        state = game.new_initial_state()
        chance = []
        while state.is_chance_node():  # every chance node of oh_hell comes first
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            chance.append(int(rng.choice(outcomes, p=np.asarray(weights) / sum(weights))))
            state.apply_action(chance[-1])
        for rotation in range(n):
            seat_of = {e: (e + rotation) % n for e in range(n)}
            bot_seed = seed * _SEED_STRIDE + deal * n + rotation
            bots = {seat_of[e]: entrants[names[e]](seat_of[e], bot_seed + e) for e in range(n)}
            thinking = dict.fromkeys(range(n), 0.0)
            decisions = dict.fromkeys(range(n), 0)
            state = game.new_initial_state()
            for action in chance:
                state.apply_action(action)
            while not state.is_terminal():
                player = state.current_player()
                start = time.perf_counter()
                action = bots[player].step(state)
                thinking[player] += time.perf_counter() - start
                decisions[player] += 1
                state.apply_action(action)
            returns = state.returns()
            for e in range(n):
                seat = seat_of[e]
                rows.append(
                    {
                        "deal": deal,
                        "rotation": rotation,
                        "entrant": names[e],
                        "seat": seat,
                        "points": returns[seat],
                        "decisions": decisions[seat],
                        "seconds": thinking[seat],
                    }
                )
    return pd.DataFrame(rows)


#: How :func:`match_summary` and :func:`advantage` compute their intervals.
MATCH_METHOD = "cluster-robust t (clustered by deal set)"


def match_summary(rows: pd.DataFrame, confidence: float = 0.95) -> pd.DataFrame:
    """Points per deal of each entrant, interval clustered by deal set; time per decision."""
    out = []
    for name, part in rows.groupby("entrant", sort=False):
        estimate = clustered_mean_ci(part["points"], part["deal"], confidence)
        out.append(
            {
                "entrant": name,
                "n": estimate.n,
                "estimate": estimate.estimate,
                "low": estimate.low,
                "high": estimate.high,
                "method": MATCH_METHOD,
                "ms_per_decision": 1000 * part["seconds"].sum() / part["decisions"].sum(),
            }
        )
    return pd.DataFrame(out)


def advantage_by_deal(rows: pd.DataFrame, entrant: str) -> pd.Series:
    """``entrant``'s points minus the mean of the others', one value per (deal, rotation)."""
    table = rows.pivot_table(index=["deal", "rotation"], columns="entrant", values="points")
    others = [c for c in table.columns if c != entrant]
    return table[entrant] - table[others].mean(axis=1)


def advantage(rows: pd.DataFrame, entrant: str, confidence: float = 0.95) -> pd.Series:
    """``entrant``'s points per deal minus the mean of the others at the same table.

    One difference per (deal set, rotation), on the same cards; the interval is
    clustered by deal set.  Returns ``n``, ``estimate``, ``low``, ``high``, ``method``.
    """
    difference = advantage_by_deal(rows, entrant)
    deals = difference.index.get_level_values("deal")
    estimate = clustered_mean_ci(difference.to_numpy(), deals, confidence)
    return pd.Series(
        {
            "n": estimate.n,
            "estimate": estimate.estimate,
            "low": estimate.low,
            "high": estimate.high,
            "method": MATCH_METHOD,
        }
    )


def ismcts_bot(player: int, seed: int, simulations: int = 1000, uct_c: float = 2.0):
    """OpenSpiel's information-set MCTS with random rollouts, as the baselines use it.

    One random rollout per leaf (``RandomRolloutEvaluator(1, seed)``), the move
    of most visits, ``simulations`` iterations per decision.  ``player`` is
    unused: ISMCTS plays whichever player is to move.
    """
    import pyspiel

    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    return pyspiel.ISMCTSBot(
        seed,
        evaluator,
        uct_c,
        simulations,
        -1,  # no cap on the sampled worlds
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        False,  # information-state strings, not observation strings
        False,  # consistent action sets
    )
