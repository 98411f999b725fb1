"""The reference evaluator: every legal move's expected points from the mover's own view.

:func:`evaluate_view` takes a seat's view (:mod:`ohhell_sim.view`, what the seat
may know and nothing more) and gives, for each legal bid or card, the points
the seat can expect in the deal after it, with an interval, and for any move
the *cost* of choosing it: the expected points of the best move less its own.

Two references, by the deal:

* a bid in a one-card deal whose trump is a turned-up card is valued exactly,
  by the one-card solver (:func:`ohhell_sim.exact.solve_one_card`): the chance
  that the seat's card takes the trick given its card, the turned card and the
  bids before it (inferred under the solved policy of the seats before; a bid
  history that policy never makes falls back to the chance given the card
  alone), times the scoring tables; play in a one-card deal has no choice;
* every other decision by ``adaptive_pimc``'s search from the same
  information set (:mod:`ohhell_sim.strategies._move_scores`): deals of the hidden
  cards sampled consistently with the view, each legal move played out on the
  same samples with the playout policy (``simple``'s greedy play in every
  seat, each aiming at its bid), until the interval on the cost is no wider
  than :attr:`Reference.precision` on either side, or :attr:`Reference.max_samples`
  samples.

The values are the expected points of the *deal*, not the chance of winning
the game.
"""

from __future__ import annotations

import functools
import math
from dataclasses import asdict, dataclass

import numpy as np

from ohhell_sim import view as V
from ohhell_sim.cards import card_code
from ohhell_sim.engine.scoring import deal_points_array
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.estimates import check_confidence, t_quantile
from ohhell_sim.exact import OneCardSolution, one_card_rules, solve_one_card
from ohhell_sim.rules import R_FOREHEAD, Rules
from ohhell_sim.strategies._common import unseen_mask
from ohhell_sim.strategies._move_scores import bid_scores, card_scores
from ohhell_sim.strategies.pimc import distinct_choices
from ohhell_sim.strategy.disk_cache import cached_on_disk

__all__ = [
    "Evaluation",
    "Reference",
    "check_rules_searchable",
    "evaluate_view",
    "is_forehead_bid",
]

#: Names of the two references, as the frames record them.
EXACT = "exact one-card solver"
SEARCH = "adaptive_pimc search"
#: How the search continues the deal after each candidate move.
CONTINUATION = (
    "playout policy: simple's greedy play in every seat, each aiming at its bid; bids not "
    "yet made (or hidden) estimated by simple's count on each sample"
)


@dataclass(frozen=True)
class Reference:
    """The reference evaluator's settings.

    Attributes
    ----------
    precision : float
        Most points the cost's interval may reach on either side of its
        estimate before the search stops (default 0.2).
    confidence : float
        Coverage of the intervals (default 0.95).
    batch : int
        Samples drawn between two tests of the precision (default 64).
    max_samples : int
        Most samples per decision (default 16384); a decision that stops here is
        marked ``precise=False``.
    exact_one_card : bool
        Value the bids of one-card deals with the exact solver (default True).
    """

    precision: float = 0.2
    confidence: float = 0.95
    batch: int = 64
    max_samples: int = 16384
    exact_one_card: bool = True

    def __post_init__(self) -> None:
        precision = self.precision
        if isinstance(precision, bool) or not isinstance(precision, int | float) or precision <= 0:
            raise InvalidArgumentError(
                f"precision must be a positive number of points, got {self.precision!r}"
            )
        check_confidence(self.confidence)
        for name in ("batch", "max_samples"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 2:
                raise InvalidArgumentError(f"{name} must be an integer >= 2, got {value!r}")
        if self.max_samples < self.batch:
            raise InvalidArgumentError(
                f"max_samples must be at least batch ({self.batch}), got {self.max_samples}"
            )

    def to_dict(self) -> dict:
        """The settings, with the reference's name and continuation, JSON-serialisable."""
        return {"name": SEARCH, "continuation": CONTINUATION, "one_card": EXACT} | asdict(self)


@dataclass(frozen=True)
class Evaluation:
    """Every legal move of one decision, valued (see :func:`evaluate_view`).

    Attributes
    ----------
    phase : str
        ``"bid"`` or ``"card"``.
    moves : numpy.ndarray
        The legal moves: bids, or card ids, ascending.
    value, value_low, value_high : numpy.ndarray
        Expected points of the deal after each move, with the interval.
    loss, loss_low, loss_high : numpy.ndarray
        The cost of each move: the best move's expected points less its own
        (0 for the best), with the interval (the low end at least 0; the high
        end the most any other move could gain on it).
    samples : int
        Samples drawn (0 for the exact reference).
    reference : str
        ``"exact one-card solver"`` or ``"adaptive_pimc search"``.
    precise : bool
        Whether every interval the search stopped on met the precision.
    """

    phase: str
    moves: np.ndarray
    value: np.ndarray
    value_low: np.ndarray
    value_high: np.ndarray
    loss: np.ndarray
    loss_low: np.ndarray
    loss_high: np.ndarray
    samples: int
    reference: str
    precise: bool

    @property
    def best(self) -> int:
        """The move of highest expected points (the first of equals)."""
        return int(self.moves[int(np.argmax(self.value))])

    def index(self, move: int) -> int:
        """Position of ``move`` in :attr:`moves`.

        Raises
        ------
        InvalidArgumentError
            If ``move`` is not legal.
        """
        where = np.flatnonzero(self.moves == move)
        if where.size == 0:
            raise InvalidArgumentError(f"move {move!r} is not legal here; legal: {self.labels()}")
        return int(where[0])

    def labels(self) -> list[str]:
        """The moves as text: bids as numbers, cards as codes (``"TH"``)."""
        if self.phase == "bid":
            return [str(int(m)) for m in self.moves]
        return [card_code(int(m)) for m in self.moves]


def check_rules_searchable(rules: Rules) -> None:
    """Refuse the variants the reference search does not model: two decks (the
    sampler deals one).  The forehead deal's bids are left out where they come
    (:func:`is_forehead_bid`); every other decision of such rules is searched.

    Raises
    ------
    InvalidArgumentError
        For two decks.
    """
    if rules.decks != 1:
        raise InvalidArgumentError(
            f"rules.decks={rules.decks} is not handled by the reference search; allowed: decks=1"
        )


def is_forehead_bid(view: np.ndarray) -> bool:
    """Whether ``view`` is a bid in a forehead deal: the seat sees every card but its
    own, and the others bid seeing it, which the reference does not model."""
    return bool(
        view[V.PHASE] == V.PHASE_BID and view[V.RULES_BASE + R_FOREHEAD] and view[V.HAND_SIZE] == 1
    )


def legal_moves(view: np.ndarray) -> tuple[str, np.ndarray]:
    """The phase (``"bid"`` or ``"card"``) of a view and its legal moves, ascending."""
    if view[V.PHASE] == V.PHASE_BID:
        bids = np.arange(view[V.MAX_BID] + 1)
        return "bid", bids[bids != view[V.FORBIDDEN_BID]]
    if view[V.PHASE] != V.PHASE_PLAY:
        raise InvalidArgumentError("the reference values bids and card play, not the swap")
    legal = int(view[V.LEGAL])
    return "card", np.array([c for c in range(53) if legal >> c & 1], dtype=np.int64)


def evaluate_view(
    view: np.ndarray,
    rules: Rules,
    rng: np.ndarray,
    reference: Reference | None = None,
    chosen: int | None = None,
) -> Evaluation:
    """Value every legal move of the decision ``view`` shows (module docstring).

    Parameters
    ----------
    view : numpy.ndarray
        The deciding seat's view in the bid or play phase.
    rules : Rules
        The rules of the deal.
    rng : numpy.ndarray
        The search's random stream (``uint64`` state of four words), advanced.
    reference : Reference, optional
        The settings (default :class:`Reference`).
    chosen : int, optional
        The move whose cost the search makes precise; None: every move's.

    Returns
    -------
    Evaluation
    """
    reference = reference or Reference()
    phase, moves = legal_moves(view)
    if phase == "bid" and view[V.HAND_SIZE] == 1 and reference.exact_one_card:
        values = _one_card_values(view, rules, moves)
        if values is not None:
            return _exact(phase, moves, values)
    return _search(view, phase, moves, rng, reference, chosen)


def _exact(phase: str, moves: np.ndarray, values: np.ndarray) -> Evaluation:
    loss = values.max() - values
    return Evaluation(phase, moves, values, values, values, loss, loss, loss, 0, EXACT, True)


@functools.lru_cache(maxsize=8)
def _one_card_solution(rules: Rules) -> OneCardSolution | None:
    try:
        solution = solve_one_card(one_card_rules(rules))
    except InvalidArgumentError:
        return None  # a variant the solver refuses: the search values these bids
    return solution if solution.turned[0] >= 0 else None


def _one_card_values(view: np.ndarray, rules: Rules, moves: np.ndarray) -> np.ndarray | None:
    """Exact expected points of each bid in ``moves``, or None when the solver does not apply."""
    turned = int(view[V.TRUMP_CARD])
    solution = _one_card_solution(rules)
    if solution is None or turned < 0 or view[V.N_ACTIVE] != rules.players:
        return None
    n = rules.players
    seat, dealer = int(view[V.SEAT]), int(view[V.DEALER])
    position = (seat - dealer - 1) % n
    card = int(view[V.HAND]).bit_length() - 1
    bids = [int(view[V.BIDS_BASE + (dealer + 1 + q) % n]) for q in range(position)]
    history = 0 if rules.closed_bids else sum(b << q for q, b in enumerate(bids))
    chance = solution.win_probability[position, turned, card, history]
    if math.isnan(chance):
        # A history the solved policy never makes: the chance given the card alone.
        reach = solution.deals[position, turned, card, : 1 << position]
        won = np.nan_to_num(solution.win_probability[position, turned, card, : 1 << position])
        chance = float((won * reach).sum() / reach.sum())
    made = deal_points_array(moves, 1, 1, rules).astype(np.float64)
    missed = deal_points_array(moves, 0, 1, rules).astype(np.float64)
    return chance * made + (1.0 - chance) * missed


def _candidates(view: np.ndarray, moves: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The cards searched (one per run of equivalent cards) and each legal card's index in them."""
    distinct = int(distinct_choices(view, unseen_mask(view)))
    searched: list[int] = []
    column = np.empty(len(moves), dtype=np.int64)
    for i, card in enumerate(moves):
        if distinct >> int(card) & 1 or not searched:
            searched.append(int(card))
        column[i] = len(searched) - 1
    return np.array(searched, dtype=np.int64), column


def _compiled(function):
    # The searches compile once per machine and version of the sources, as the built-ins do.
    return cached_on_disk(function)


def _search(
    view: np.ndarray,
    phase: str,
    moves: np.ndarray,
    rng: np.ndarray,
    reference: Reference,
    chosen: int | None,
) -> Evaluation:
    if phase == "card":
        searched, column = _candidates(view, moves)
    else:
        searched, column = moves, moves  # bid_scores scores every bid 0..MAX_BID
    width = len(searched) if phase == "card" else int(view[V.MAX_BID]) + 1
    focus = None if chosen is None else int(np.flatnonzero(moves == chosen)[0])
    batches = []
    drawn = 0
    while True:
        block = np.empty((reference.batch, width), dtype=np.float64)
        ok = (
            _compiled(card_scores)(view, searched, rng, block)
            if phase == "card"
            else _compiled(bid_scores)(view, rng, block)
        )
        if not ok:
            raise InvalidArgumentError(
                "no deal of the hidden cards is consistent with this position (check the "
                "hand, the cards played and the bids)"
            )
        batches.append(block[:, column])
        drawn += reference.batch
        scores = np.concatenate(batches)
        evaluation = _summarise(phase, moves, scores, reference, focus)
        if evaluation.precise or drawn >= reference.max_samples:
            return evaluation


def _summarise(
    phase: str, moves: np.ndarray, scores: np.ndarray, reference: Reference, focus: int | None
) -> Evaluation:
    n = scores.shape[0]
    half = t_quantile(0.5 + reference.confidence / 2, n - 1) / math.sqrt(n)
    value = scores.mean(axis=0)
    spread = scores.std(axis=0, ddof=1) * half
    best = int(np.argmax(value))
    # gain[c, m]: what move m gains on move c per sample; its mean and half-width.
    gain = scores[:, None, :] - scores[:, :, None]
    gain_mean = gain.mean(axis=0)
    gain_half = gain.std(axis=0, ddof=1) * half
    loss = gain_mean[:, best]
    loss_low = np.maximum(loss - gain_half[:, best], 0.0)
    loss_high = np.maximum((gain_mean + gain_half).max(axis=1), 0.0)
    watched = range(len(moves)) if focus is None else [focus]
    precise = all(
        loss[c] - loss_low[c] <= reference.precision
        and loss_high[c] - loss[c] <= reference.precision
        for c in watched
    )
    return Evaluation(
        phase,
        moves,
        value,
        value - spread,
        value + spread,
        loss,
        loss_low,
        loss_high,
        n,
        SEARCH,
        precise,
    )
