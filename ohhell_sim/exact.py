"""Exact play of the one-card deal: every seat's best bid and every seat's expected score.

In a deal of one card each, play has no choice (the dealer's left leads its card,
the others follow with theirs), so a seat's points depend only on its bid and on
whether its card takes the trick.  The only decisions are the bids, made in
order from the dealer's left, each seeing its own card, the turned-up card and
the bids before it.  :func:`solve_one_card` solves them exactly, seat by seat in
bidding order: the seat at position ``p`` knows the policy of the positions
before it (the one being solved), so the bids it has seen tell it which cards
those seats can hold (Bayes over the deals consistent with them), and it bids
what maximises its expected points in this deal under the rules' scoring tables
(:func:`ohhell_sim.engine.scoring.deal_points_array`), among the bids the rules allow
(the dealer bound by the hook).  Of bids with equal expected points it bids the
**lowest**; the comparison is exact, in integer counts of deals.

Counting whole deals would be far too slow for seven players (``52 * 51!/44!``
deals), so the solver counts instead.  Given the turned-up card, a seat's card
``c`` and the bids ``h`` before it:

* the seats after it are unconstrained: their cards are any distinct cards of
  the rest, and ``c`` wins only if none of them beats it, which is a falling
  factorial of the number of cards that do not beat ``c``;
* each seat before it holds a card of the set its policy maps to the bid it
  made; the ordered choices of distinct cards from those sets are counted by a
  dynamic programme over the cards of the deck whose state is the set of seats
  already given a card (``2**p`` states).  Ordering the deck so that the cards
  that do not beat ``c`` come first (for a trump: the side suits, then the
  trumps upwards; for a side card: the other side suits, then its own suit
  upwards, with the leader restricted to that suit) makes the count of every
  card's winning deals a prefix of one programme, and a forward and a backward
  programme give every card's total.

A full seven-player solve takes seconds (README, "Exact one-card play").
:func:`play_one_card` and :func:`regret_table` measure strategies in one-card
deals with the package's engine and set them beside the exact values;
:func:`builtin_regret` does both for the built-ins.

The exact values are the expected points *of the deal*: the solver maximises
them, as if the one-card deal were scored alone, not the chance of winning a
game (a seat far behind might prefer a riskier bid).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pandas as pd

from ohhell_sim.analysis.stats import mean_ci
from ohhell_sim.arguments import check_count, check_seed
from ohhell_sim.cards import SUIT_CODES, parse_card
from ohhell_sim.engine.scoring import deal_points_array, forbidden_bid_array
from ohhell_sim.errors import InvalidArgumentError
from ohhell_sim.rules import Rules
from ohhell_sim.rules.positions import bidding_position
from ohhell_sim.simulate import simulate
from ohhell_sim.strategy import SeatSpec, builtin_strategies

__all__ = [
    "OneCardSolution",
    "builtin_regret",
    "one_card_rules",
    "play_one_card",
    "position_role",
    "regret_table",
    "solve_one_card",
]

#: The standard deck: 4 suits of 13 ranks, cards numbered ``13 * suit + rank``.
FULL_DECK = (4, 13)
#: Variants the solver does not model, with the value that switches each off.
_REFUSED = {
    "decks": 1,
    "joker": False,
    "swap": 0,
    "forehead": False,
    "fault_limit": 0,
}


@dataclass(frozen=True)
class OneCardSolution:
    """The exact bids and expected scores of a one-card deal (see :func:`solve_one_card`).

    Positions count from the dealer's left: position 0 bids first and leads,
    position ``players - 1`` is the dealer.  A *context* is what every seat
    sees of the trump: under ``trump="turn"`` context ``k`` is the deal whose
    turned-up card is card ``k`` (all equally likely); with a fixed trump suit or
    no trump there is one context.  A *history* is the bids of the positions
    before, coded ``sum(bid_q << q)``.

    Attributes
    ----------
    rules : Rules
        The rules solved.
    suits, ranks : int
        The deck: ``suits * ranks`` cards numbered ``ranks * suit + rank`` (the
        package's cards for the standard 4 x 13 deck).
    turned : numpy.ndarray
        ``(contexts,)`` turned-up card of each context, -1 for none.
    trump : numpy.ndarray
        ``(contexts,)`` trump suit of each context, -1 for no trump.
    policy : numpy.ndarray
        ``int8 (players, contexts, cards, 2**(players-1))``: the bid at
        ``[position, context, card, history]``; -1 for the turned-up card and
        for histories longer than the position's (codes ``>= 2**position``).
        Under ``closed_bids`` a seat sees no bid before its own: only history
        0 is filled.  Where no deal reaches an entry it holds the lowest legal
        bid.
    win_probability : numpy.ndarray
        ``float64``, the same shape: the chance that the card takes the trick
        given what the seat knows; NaN where no deal reaches the entry.
    deals : numpy.ndarray
        ``int64``, the same shape: the number of ordered deals of the context
        (the seats' cards, in position order) that reach the entry.
    deals_per_context : int
        Ordered deals of one context (each context's entries sum to it).
    expected_score : numpy.ndarray
        ``(players,)`` expected points of each position when every seat bids
        by ``policy``.
    expected_score_exact : tuple of fractions.Fraction
        The same, as exact fractions.
    win_rate, made_rate, bid_rate : numpy.ndarray
        ``(players,)`` per position: the chance of taking the trick, of making
        the bid, of bidding 1.
    hook_rate : float
        The chance that the hook forbids the dealer a bid (the others' bids
        total 0 or 1).
    """

    rules: Rules
    suits: int
    ranks: int
    turned: np.ndarray
    trump: np.ndarray
    policy: np.ndarray
    win_probability: np.ndarray
    deals: np.ndarray
    deals_per_context: int
    expected_score: np.ndarray
    expected_score_exact: tuple[Fraction, ...]
    win_rate: np.ndarray
    made_rate: np.ndarray
    bid_rate: np.ndarray
    hook_rate: float

    @property
    def players(self) -> int:
        """Seats at the table."""
        return self.rules.players

    def context(self, turned: int | str | None = None) -> int:
        """The context index of a deal whose turned-up card is ``turned``.

        Parameters
        ----------
        turned : int or str, optional
            The turned-up card (id or code such as ``"TH"``); None when no card
            is turned.

        Raises
        ------
        InvalidArgumentError
            When ``turned`` does not match the rules (a card where none is turned,
            or none where one is).
        """
        if turned is None:
            if self.turned[0] >= 0:
                raise InvalidArgumentError(
                    "turned must be a card: these rules turn up a card for trump"
                )
            return 0
        if self.turned[0] < 0:
            raise InvalidArgumentError(
                f"turned must be None: these rules turn up no card, got {turned!r}"
            )
        card = _card_id(turned, "turned", self.suits * self.ranks)
        return card

    def bid(
        self,
        position: int,
        card: int | str,
        bids: Sequence[int] = (),
        turned: int | str | None = None,
    ) -> int:
        """The solved bid at ``position`` holding ``card`` after ``bids``.

        Parameters
        ----------
        position : int
            0 (the dealer's left) to ``players - 1`` (the dealer).
        card : int or str
            The seat's card (id or code).
        bids : sequence of int
            The bids of positions ``0 .. position - 1``, in order (ignored under
            ``closed_bids``, where they are not seen).
        turned : int or str, optional
            The turned-up card, when the rules turn one up.

        Returns
        -------
        int
            The bid.

        Raises
        ------
        InvalidArgumentError
            For a position, card or bid sequence the deal cannot have.
        """
        if not isinstance(position, int) or not 0 <= position < self.players:
            raise InvalidArgumentError(
                f"position must be an integer in 0..{self.players - 1}, got {position!r}"
            )
        k = self.context(turned)
        own = _card_id(card, "card", self.suits * self.ranks)
        if own == self.turned[k]:
            raise InvalidArgumentError(f"card {card!r} is the turned-up card; no seat holds it")
        bids = list(bids)
        if len(bids) != position or any(b not in (0, 1) for b in bids):
            raise InvalidArgumentError(
                f"bids must be the {position} bids (0 or 1 each) of the positions before "
                f"position {position}, got {bids!r}"
            )
        history = 0 if self.rules.closed_bids else sum(b << q for q, b in enumerate(bids))
        return int(self.policy[position, k, own, history])

    def table(self) -> pd.DataFrame:
        """Per position: its role, the expected score (float and exact) and the rates.

        Returns
        -------
        pandas.DataFrame
            Columns ``position``, ``role``, ``expected_score``, ``exact``,
            ``win_rate``, ``made_rate``, ``bid_rate``.
        """
        return pd.DataFrame(
            {
                "position": np.arange(self.players),
                "role": [position_role(p, self.players) for p in range(self.players)],
                "expected_score": self.expected_score,
                "exact": [str(f) for f in self.expected_score_exact],
                "win_rate": self.win_rate,
                "made_rate": self.made_rate,
                "bid_rate": self.bid_rate,
            }
        )


def position_role(position: int, players: int) -> str:
    """A bidding position in words: ``"1st (leads)"``, ``"2nd"``, ..., ``"4th (dealer)"``.

    Parameters
    ----------
    position : int
        0 (the dealer's left) to ``players - 1`` (the dealer).
    players : int
        Seats at the table.

    Returns
    -------
    str
        The ordinal, with the leader and the dealer named.
    """
    number = position + 1
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(number, "th")
    role = " (leads)" if position == 0 else " (dealer)" if position == players - 1 else ""
    return f"{number}{suffix}{role}"


def _card_id(card: int | str, name: str, cards: int) -> int:
    value = parse_card(card) if isinstance(card, str) else card
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or not 0 <= value < cards:
        raise InvalidArgumentError(
            f"{name} must be a card id in 0..{cards - 1} or a code, got {card!r}"
        )
    return int(value)


def _check_rules(rules: object) -> Rules:
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a Rules object, got {type(rules).__name__}")
    if 1 not in rules.schedule:
        raise InvalidArgumentError(
            f"rules.schedule {list(rules.schedule)} has no one-card deal; the exact solver "
            "needs hand size 1 in the schedule (e.g. Rules(players=4, schedule=[1]))"
        )
    for name, allowed in _REFUSED.items():
        value = getattr(rules, name)
        if value != allowed:
            raise InvalidArgumentError(
                f"rules.{name}={value!r} is not handled by the exact one-card solver; "
                f"allowed: {name}={allowed!r}"
            )
    return rules


def _check_deck(deck: object) -> tuple[int, int]:
    if (
        not isinstance(deck, tuple)
        or len(deck) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in deck)
        or not (1 <= deck[0] <= 4 and 1 <= deck[1] <= 13)
    ):
        raise InvalidArgumentError(
            f"deck must be a tuple (suits, ranks) with suits in 1..4 and ranks in 1..13, "
            f"got {deck!r}"
        )
    return deck


def _contexts(rules: Rules, suits: int, ranks: int) -> list[tuple[int, int]]:
    """(turned card, trump suit) of each context of the first one-card deal."""
    if rules.turns_card(1):
        return [(card, card // ranks) for card in range(suits * ranks)]
    if rules.is_no_trump_size(1):
        return [(-1, -1)]
    # A fixed pattern names the trump of each deal in turn; the first one-card
    # deal of the schedule is the one solved.
    letter = rules.trump[rules.schedule.index(1) % len(rules.trump)]
    suit = -1 if letter == "N" else SUIT_CODES.index(letter)
    if suit >= suits:
        raise InvalidArgumentError(
            f"deck=({suits}, {ranks}) has suits 0..{suits - 1}, but trump={rules.trump!r} "
            f"makes suit {suit} trump in the one-card deal; allowed: a deck of at least "
            f"{suit + 1} suits"
        )
    return [(-1, suit)]


def _falling(a: np.ndarray | int, m: int) -> np.ndarray:
    """``a (a-1) ... (a-m+1)``, ordered choices of ``m`` of ``a`` items (0 when ``a < m``)."""
    a = np.asarray(a, dtype=np.int64)
    out = np.ones_like(a)
    for j in range(m):
        out = out * np.maximum(a - j, 0)
    return out


def _prefix_counts(members: np.ndarray, order: np.ndarray) -> np.ndarray:
    """Counts of distinct card choices for the earlier seats over each prefix of ``order``.

    ``members[q, h, x]`` is 1 when seat ``q`` may hold card ``x`` under history
    ``h``.  ``out[i, h, S]`` counts the ways to give each seat of the set ``S``
    (a bit mask) its own card among ``order[:i]``, each card to one seat.
    """
    p, histories, _ = members.shape
    states = 1 << p
    out = np.zeros((len(order) + 1, histories, states), dtype=np.int64)
    out[0, :, 0] = 1
    without = [
        np.array([s for s in range(states) if not s >> q & 1], dtype=np.int64) for q in range(p)
    ]
    for i, card in enumerate(order):
        before = out[i]
        after = before.copy()
        for q in range(p):
            # Every term reads the counts before this card: it goes to one seat at most.
            after[:, without[q] | (1 << q)] += before[:, without[q]] * members[q, :, card, None]
        out[i + 1] = after
    return out


def _members(policy: np.ndarray, p: int, histories: int, closed: bool, cards: int) -> np.ndarray:
    """``members[q, h, x]``: whether seat ``q`` bids as history ``h`` says holding ``x``."""
    out = np.zeros((p, histories, cards), dtype=np.int64)
    codes = np.arange(histories)
    for q in range(p):
        if closed:
            # The bids are hidden: they tell nothing about the cards.
            out[q] = (policy[q, :, 0] >= 0)[None, :]
        else:
            seen = policy[q][:, codes & ((1 << q) - 1)]  # (cards, histories)
            out[q] = (seen == ((codes >> q) & 1)[None, :]).T
    return out


def _position_counts(
    members: np.ndarray, turned: int, trump: int, suits: int, ranks: int, players: int
) -> tuple[np.ndarray, np.ndarray]:
    """Deals reaching each (card, history) of position ``p`` and those the card wins.

    Returns ``(total, wins)``, each ``int64 (cards, histories)``.
    """
    p, histories, cards = members.shape
    full = (1 << p) - 1
    later = players - 1 - p
    available = np.array([x for x in range(cards) if x != turned], dtype=np.int64)
    n_available = len(available)

    # Every card's total: choices avoiding it, from a forward and a backward programme.
    forward = _prefix_counts(members, available)
    backward = _prefix_counts(members, available[::-1])
    complement = full ^ np.arange(1 << p)
    after = backward[n_available - 1 - np.arange(n_available)]
    earlier = (forward[:n_available] * after[:, :, complement]).sum(axis=2)
    total = np.zeros((cards, histories), dtype=np.int64)
    total[available] = earlier * _falling(n_available - 1 - p, later)

    wins = np.zeros((cards, histories), dtype=np.int64)
    suit_of = available // ranks
    orders = []
    if trump >= 0:
        # A trump wins unless a higher trump is out: the side cards and lower trumps are safe.
        orders.append(
            (np.concatenate([available[suit_of != trump], available[suit_of == trump]]), None)
        )
    for suit in range(suits):
        if suit != trump:
            # A side card wins only when its suit is led and no trump or higher card of it is out.
            others = available[(suit_of != suit) & (suit_of != trump)]
            orders.append((np.concatenate([others, available[suit_of == suit]]), suit))
    for order, led in orders:
        restricted = members
        if led is not None and p > 0:
            restricted = members.copy()
            # The leader's card sets the led suit: it must be of this card's suit.
            restricted[0][:, np.arange(cards) // ranks != led] = 0
        prefix = _prefix_counts(restricted, order)
        ordered_suit = order // ranks
        own = ordered_suit == (trump if led is None else led)
        # The cards before a card in its order are exactly those it beats.
        index = np.flatnonzero(own)
        wins[order[index]] = prefix[index, :, full] * _falling(index - p, later)[:, None]
    return total, wins


def solve_one_card(rules: Rules, *, deck: tuple[int, int] = FULL_DECK) -> OneCardSolution:
    """Solve the bids of the one-card deal exactly (see the module docstring).

    Every position in bidding order maximises its expected points in the deal,
    given its card, the trump (the turned-up card, or the fixed suit, or no
    trump) and the bids before it, under the policy of the positions before it;
    of equal bids it takes the lowest.  Under ``closed_bids`` a seat sees no
    bid.  With several one-card deals in the schedule the first is solved (the
    fixed trump patterns may give the others another suit, with the same
    values by symmetry of the suits).

    Parameters
    ----------
    rules : Rules
        Rules whose schedule holds a one-card deal: any scoring table, hook on
        or off, ``nullo``, ``closed_bids``, any trump rule.  Two decks, the
        joker, the swap, the forehead deal and catastrophe are refused.
    deck : tuple of int, default (4, 13)
        ``(suits, ranks)`` of the deck, a smaller one for checking against an
        enumeration of every deal; cards are ``ranks * suit + rank``.

    Returns
    -------
    OneCardSolution
        The policy, the win chances and the expected score of every position.

    Raises
    ------
    InvalidArgumentError
        For rules without a one-card deal, a refused variant, or a bad deck,
        naming the parameter, its value and what is allowed.

    Examples
    --------
    >>> solution = solve_one_card(Rules(players=3, schedule=[1]))
    >>> solution.bid(0, "AS", turned="2S")  # the ace of trumps always wins
    1
    """
    rules = _check_rules(rules)
    suits, ranks = _check_deck(deck)
    n = rules.players
    cards = suits * ranks
    contexts = _contexts(rules, suits, ranks)
    turns = contexts[0][0] >= 0
    if n + int(turns) > cards:
        raise InvalidArgumentError(
            f"deck={deck!r} holds {cards} cards, too few for {n} players"
            + (" and a turned-up card" if turns else "")
        )
    closed = rules.closed_bids
    most = 0 if rules.nullo else 1
    bids = np.arange(most + 1)
    # points[b, w]: bid b, took w tricks, in a deal of one card.
    points = deal_points_array(bids[:, None], np.arange(2)[None, :], 1, rules)
    width = 1 << (n - 1)
    shape = (n, len(contexts), cards, width)
    policy = np.full(shape, -1, dtype=np.int8)
    win_probability = np.full(shape, np.nan)
    deals = np.zeros(shape, dtype=np.int64)
    score_sum = [0] * n
    wins_sum = np.zeros(n, dtype=np.int64)
    made_sum = np.zeros(n, dtype=np.int64)
    bid_sum = np.zeros(n, dtype=np.int64)
    hooked = 0
    per_context = math.perm(cards - int(turns), n)

    # Turned-up cards of one rank are the same deal with the suits relabelled, and
    # the tie-break looks at bids only: solve the turned cards of suit 0, copy the rest.
    solved = [k for k, (turned, _) in enumerate(contexts) if turned < ranks]  # -1: no card
    copies = len(contexts) // len(solved)
    for k in solved:
        turned, trump = contexts[k]
        for p in range(n):
            histories = 1 if closed else 1 << p
            members = _members(policy[:p, k], p, histories, closed, cards)
            total, wins = _position_counts(members, turned, trump, suits, ranks, n)
            codes = np.arange(histories)
            forbidden = (
                forbidden_bid_array(1, _popcount(codes), rules)
                if p == n - 1 and not closed
                else np.full(histories, -1)
            )
            # value[b, card, h]: points summed over the deals reaching (card, h), bidding b.
            value = points[:, 1, None, None] * wins + points[:, 0, None, None] * (total - wins)
            legal = bids[:, None] != forbidden[None, :]
            allowed = np.where(legal[:, None, :], value, np.iinfo(np.int64).min)
            choice = np.argmax(allowed, axis=0)  # the first maximum: the lowest bid
            held = np.arange(cards) != turned
            policy[p, k, held, :histories] = choice[held]
            deals[p, k, :, :histories] = total
            with np.errstate(invalid="ignore", divide="ignore"):
                win_probability[p, k, held, :histories] = np.where(
                    total[held] > 0, wins[held] / total[held], np.nan
                )
            chosen = np.take_along_axis(value, choice[None], axis=0)[0]
            score_sum[p] += int(chosen[held].sum(dtype=object))
            wins_sum[p] += wins.sum()
            made_sum[p] += np.where(choice == 1, wins, total - wins).sum()
            bid_sum[p] += np.where(choice == 1, total, 0).sum()
            hooked += int(total[:, forbidden >= 0].sum())
        for suit in range(1, copies):
            # With this rank of ``suit`` turned, card c plays the part card relabel[c]
            # plays in the solved context.
            relabel = _swap_suits(cards, ranks, 0, suit)
            other = suit * ranks + turned
            policy[:, other] = policy[:, k][:, relabel]
            win_probability[:, other] = win_probability[:, k][:, relabel]
            deals[:, other] = deals[:, k][:, relabel]
    # Each solved context stands for ``copies`` contexts of equal sums.
    score_sum = [copies * v for v in score_sum]
    wins_sum, made_sum, bid_sum = (copies * v for v in (wins_sum, made_sum, bid_sum))
    hooked *= copies

    all_deals = per_context * len(contexts)
    exact = tuple(Fraction(s, all_deals) for s in score_sum)
    return OneCardSolution(
        rules=rules,
        suits=suits,
        ranks=ranks,
        turned=np.array([c[0] for c in contexts], dtype=np.int64),
        trump=np.array([c[1] for c in contexts], dtype=np.int64),
        policy=policy,
        win_probability=win_probability,
        deals=deals,
        deals_per_context=per_context,
        expected_score=np.array([float(f) for f in exact]),
        expected_score_exact=exact,
        win_rate=wins_sum / all_deals,
        made_rate=made_sum / all_deals,
        bid_rate=bid_sum / all_deals,
        hook_rate=hooked / all_deals,
    )


def _swap_suits(cards: int, ranks: int, a: int, b: int) -> np.ndarray:
    """Card ids with suits ``a`` and ``b`` exchanged, indexed by card id."""
    suit, rank = np.divmod(np.arange(cards), ranks)
    swapped = np.where(suit == a, b, np.where(suit == b, a, suit))
    return swapped * ranks + rank


def _popcount(codes: np.ndarray) -> np.ndarray:
    return np.array([bin(int(c)).count("1") for c in codes], dtype=np.int64)


# --- strategies measured against the exact values ---------------------------------


def one_card_rules(rules: Rules) -> Rules:
    """``rules`` with one one-card deal per game (``schedule=[1]``), all else kept.

    Raises
    ------
    InvalidArgumentError
        If ``rules`` is not a :class:`Rules`.
    """
    if not isinstance(rules, Rules):
        raise InvalidArgumentError(f"rules must be a Rules object, got {type(rules).__name__}")
    defaults = Rules()
    return dataclasses.replace(
        rules, schedule=(1,), deal_order=defaults.deal_order, max_cards=defaults.max_cards
    )


def play_one_card(
    rules: Rules,
    strategies: Sequence[SeatSpec] | None = None,
    games: int = 20_000,
    seed: int = 0,
) -> pd.DataFrame:
    """Play one-card deals with each strategy in every seat, through the engine.

    Parameters
    ----------
    rules : Rules
        The rules; played as :func:`one_card_rules` of them.
    strategies : sequence of seat specs, optional
        Registered strategy names, or ``(name, {param: value})`` (default:
        every built-in); each plays ``games`` games of one one-card deal with
        itself in every seat, and is labelled by its seat label (its name, with
        the parameters that differ from the defaults: ``name[param=value]``).
    games : int
        Games (= one-card deals) per strategy.
    seed : int
        Seed of every strategy's run: each meets the same cards.

    Returns
    -------
    pandas.DataFrame
        One row per (strategy, game, seat): ``strategy``, ``game``, ``seat``,
        ``position`` (0 = the dealer's left, ``players - 1`` the dealer),
        ``bid``, ``tricks``, ``score``.

    Raises
    ------
    InvalidArgumentError
        For bad rules, games or seed, or a strategy that is not registered or
        cannot play the rules.
    """
    one = one_card_rules(rules)
    games = check_count("games", games)
    seed = check_seed(seed)
    names = builtin_strategies() if strategies is None else tuple(strategies)
    if not names:
        raise InvalidArgumentError("strategies must name at least one strategy, got none")
    frames = []
    for spec in names:
        result = simulate(one, [spec] * one.players, games=games, seed=seed)
        hands = result.hands
        # A tie-break deal (tiebreak=True) is not the one-card deal.
        hands = hands[hands["hand_size"] == 1]
        frames.append(
            pd.DataFrame(
                {
                    "strategy": result.strategies[0],
                    "game": hands["game"].to_numpy(),
                    "seat": hands["seat"].to_numpy(),
                    "position": bidding_position(hands["seat"], hands["dealer"], one.players),
                    "bid": hands["bid"].to_numpy(),
                    "tricks": hands["tricks"].to_numpy(),
                    "score": hands["score"].to_numpy(),
                }
            )
        )
    return pd.concat(frames, ignore_index=True)


def regret_table(
    solution: OneCardSolution, hands: pd.DataFrame, confidence: float = 0.95
) -> pd.DataFrame:
    """Each strategy's mean score per position beside the exact value, and the regret.

    Parameters
    ----------
    solution : OneCardSolution
        The exact solution of the rules the hands were played under.
    hands : pandas.DataFrame
        Rows of :func:`play_one_card` (``strategy``, ``position``, ``score``).
    confidence : float, default 0.95
        Coverage of the intervals.

    Returns
    -------
    pandas.DataFrame
        Tidy, one row per (strategy, position): ``strategy``, ``position``,
        ``role``, ``exact``, then the measured mean score per deal (``n``,
        ``estimate``, ``low``, ``high``, ``method``: a Student-t interval;
        the games are independent deals), then ``regret`` = exact - estimate
        with ``regret_low``/``regret_high``.
    """
    missing = {"strategy", "position", "score"} - set(hands.columns)
    if missing:
        raise InvalidArgumentError(
            f"hands must have the columns strategy, position, score; missing {sorted(missing)}"
        )
    rows = []
    # A strategy's rows at a time, each position's scores in row order: a grouping by
    # both columns at once would hold several copies of a study's millions of rows.
    codes, names = pd.factorize(hands["strategy"])
    all_positions, all_scores = hands["position"].to_numpy(), hands["score"].to_numpy()
    for k, name in enumerate(names):
        mine = codes == k
        positions, scores = all_positions[mine], all_scores[mine]
        for position in pd.unique(positions):
            exact = float(solution.expected_score[int(position)])
            est = mean_ci(scores[positions == position], confidence)
            rows.append(
                {
                    "strategy": name,
                    "position": int(position),
                    "role": position_role(int(position), solution.players),
                    "exact": exact,
                    **est.row(),
                    "regret": exact - est.estimate,
                    "regret_low": exact - est.high,
                    "regret_high": exact - est.low,
                }
            )
    # Strategies in the order they were played, positions in bidding order.
    frame = pd.DataFrame(rows)
    rank = {name: i for i, name in enumerate(pd.unique(hands["strategy"]))}
    return frame.sort_values(["position"], kind="stable", ignore_index=True).sort_values(
        "strategy", key=lambda s: s.map(rank), kind="stable", ignore_index=True
    )


def builtin_regret(
    rules: Rules,
    strategies: Sequence[str] | None = None,
    games: int = 20_000,
    seed: int = 0,
) -> pd.DataFrame:
    """Every built-in's per-position score in one-card deals beside the exact values.

    :func:`play_one_card` then :func:`regret_table` against
    ``solve_one_card(one_card_rules(rules))``.

    Parameters
    ----------
    rules : Rules
        The rules (their one-card deal is played and solved).
    strategies : sequence of str, optional
        Default: every built-in.
    games : int
        One-card games per strategy.
    seed : int
        Seed of every run.

    Returns
    -------
    pandas.DataFrame
        The frame of :func:`regret_table`.

    Examples
    --------
    >>> frame = builtin_regret(Rules(players=4), ["simple"], games=2000)  # doctest: +SKIP
    >>> frame[["position", "exact", "estimate", "regret"]]  # doctest: +SKIP
    """
    one = one_card_rules(rules)
    solution = solve_one_card(one)
    return regret_table(solution, play_one_card(one, strategies, games, seed))
