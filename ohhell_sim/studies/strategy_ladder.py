"""Study ``strategy_ladder``: every built-in strategy ranked on the same cards, in several fields.

Each strategy in turn, the *challenger*, takes one seat against a *field* (one strategy
of :data:`ohhell_sim.studies.design.FIELDS` in the other seats) in a duplicate tournament
(:func:`ohhell_sim.studies.gauntlets.play_gauntlets`); all share the seed, so challengers
are paired on the deal set.  Identical challengers are merged
(:func:`~ohhell_sim.studies.gauntlets.identical_groups`); the pairwise family is
Holm-adjusted and confirmed at another seed (:class:`~ohhell_sim.studies.ranking.Ladder`).
Each challenger's one-card scores are set beside :func:`ohhell_sim.exact.solve_one_card`
(:mod:`ohhell_sim.studies.one_card`).  The study declares its design, measures and words.
"""

from __future__ import annotations

from functools import partial

import pandas as pd

from ohhell_sim.analysis.findings import BETWEEN_FIELDS
from ohhell_sim.analysis.format import display_table, fmt_row, fmt_span
from ohhell_sim.analysis.report import Report
from ohhell_sim.exact import one_card_rules
from ohhell_sim.rules import Rules
from ohhell_sim.studies.design import check_fields, field_seats
from ohhell_sim.studies.gauntlets import (
    SAME,
    challengers,
    check_rotations,
    merge_identical,
    play_gauntlets,
    whole_rotations,
)
from ohhell_sim.studies.one_card import exact_one_card_section
from ohhell_sim.studies.ranking import Ladder, Ranked, marked, order_changes, signs
from ohhell_sim.studies.report import study_report
from ohhell_sim.studies.runs import Condition, StudyData
from ohhell_sim.studies.spec import StudySpec

NAME = "strategy_ladder"
QUESTION = "Which built-in strategy plays Oh Hell best, and does the answer depend on the field?"
DEFAULT_GAMES = 400
DEFAULT_PLAYERS = (4,)
#: The fields the ladder is played in by default: the original field, a stronger one
#: and the strongest fast player.
DEFAULT_FIELDS = ("simple", "card_counter", "distilled")
#: Strategies that take milliseconds per decision: they play a tenth of the deal sets.
SLOW = ("mc_bidder", "pimc", "bayes_pimc", "adaptive_pimc", "guided_pimc", "distilled_search")
#: One-card games per challenger, per game of its gauntlet: a one-card deal is cheap.
ONE_CARD_FACTOR = 10
ONE_CARD_FIELD = "none (challenger in every seat)"
#: The challenger's measures: its score and win share per game, its made and zero-bid
#: rates per deal; entries are ranked and compared on the score.
LADDER = Ladder(
    per_game={"mean_total": "total", "win_share": "win_share"},
    per_deal={"made_rate": "made", "zero_bid_rate": "zero_bids"},
)


def confirmation_games(games: int, players: tuple[int, ...]) -> int:
    """Games of the confirmation run: half of ``games``, a whole number of rotations."""
    return whole_rotations(games, 2, players[0])


def play(
    games: int,
    seed: int,
    players: tuple[int, ...] = DEFAULT_PLAYERS,
    progress: bool = True,
    strategies: tuple[str, ...] | None = None,
    fields: tuple[str, ...] = DEFAULT_FIELDS,
) -> StudyData:
    """Play one duplicate gauntlet per challenger (default: every built-in) and field, on one
    seed, and each challenger's one-card deals in every seat; bad arguments raise first.

    Returns ``games``: the gauntlets with ``field``, ``challenger``, ``challenger_seat`` and
    :func:`~ohhell_sim.studies.gauntlets.deal_records`; ``hands``: the one-card deals
    (:func:`ohhell_sim.exact.play_one_card`).
    """
    check_rotations(NAME, games, players)
    fields = check_fields(fields)
    names = challengers(strategies)
    n = players[0]
    rules = Rules(players=n)
    one = one_card_rules(rules)
    plan = [
        Condition(
            {"field": field, "challenger": name},
            rules,
            (name, *field_seats(field, n)[1:]),
            # A tenth of the deal sets, whole rotations, at least two.
            whole_rotations(games, 10, n) if name in SLOW else games,
        )
        for field in fields
        for name in names
    ]
    # The challenger holds every seat of its one-card deals.
    one_plan = [
        Condition(
            {"field": ONE_CARD_FIELD, "challenger": f"{name} (one-card deals, every seat)"},
            one,
            (name,) * n,
            games * ONE_CARD_FACTOR,
        )
        for name in names
    ]
    return play_gauntlets(NAME, plan, one_plan, seed, progress)


def analyse(data: StudyData) -> Report:
    """The report of a ``strategy_ladder`` run, every number computed from ``data``."""
    found = LADDER.rank(data)
    fields, groups = found.fields, found.groups
    method = [
        "Each strategy plays a duplicate tournament in one seat against a field (one "
        "strategy in the other seats): every deal set once per rotation of the seats, all on "
        f"the same seed, hence the same cards. Fields: {', '.join(fields)}. The Monte Carlo "
        f"strategies ({', '.join(SLOW)}) play a tenth of the deal sets. A strategy's value on "
        "a deal set is its mean over the rotations; rankings get Student-t intervals over "
        "deal sets; pairwise differences are paired on the deal sets both played.",
        *LADDER.method(
            found.correction,
            len(found.order),
            data.manifest.get("confirmation") or {},
            "games per gauntlet (the Monte Carlo strategies their share)",
        ),
    ]
    in_short, findings = _words(found, data.manifest)
    tables = LADDER.tables(found, "points per game")
    # Output written before the one-card runs existed has no such section.
    if "one_card" in data.manifest and len(data.hands):
        # Identical in the gauntlets, a group's members are identical in one-card deals.
        one_hands = merge_identical(data.hands, groups, "strategy")
        line, more, table = exact_one_card_section(one_hands, data.manifest["one_card"])
        method.append(line)
        findings += more
        tables.append(table)
    figure = LADDER.figure(found, "points per game")
    return study_report(
        NAME, QUESTION, data.manifest, method, findings, tables, [figure], in_short=in_short
    )


def _words(found: Ranked, manifest: dict) -> tuple[list[str], list[str]]:
    """The In short (who is best, by how much, whether the field changes it) and the findings."""
    rankings, family, claims, groups = found.rankings, found.family, found.claims, found.groups
    fields, changes = found.fields, order_changes(family)
    firsts = {field: ranking.iloc[0] for field, ranking in rankings.items()}
    names = {str(row["strategy"]) for row in firsts.values()}
    leads = claims.groupby("field", sort=False).head(1)
    settled = len(leads) == len(fields) and leads["established"].all()
    if len(names) == 1:
        best = f"{names.pop()} {'plays best' if settled else 'ranks first'} against every field"
    else:
        best = "The best strategy depends on the field: " + ", ".join(
            f"{row['strategy']} against {field}" for field, row in firsts.items()
        )
    opponents = int(manifest.get("players", DEFAULT_PLAYERS)[0]) - 1
    text = [
        f"{best}, scoring {fmt_span([row['mean_total'] for row in firsts.values()])} points per "
        f"game by field (its one seat against {opponents} of the field's)."
    ]
    if len(claims):
        steps = [
            f"{int(part['established'].sum())} of {len(part)} against {field}"
            for field, part in claims.groupby("field", sort=False)
        ]
        confirmed = (manifest.get("confirmation") or {}).get("games")
        text.append(
            f"The lead over the runner-up ({', '.join(pd.unique(leads['b']))}) is "
            f"{fmt_span(leads['estimate'], 2)} points per game (established against "
            f"{int(leads['established'].sum())} of {len(leads)} fields). Of the ranking's steps "
            "(each entry ahead of the next), " + ", ".join(steps) + " are established "
            "(surviving one correction over all comparisons"
            + (" and confirmed at a second seed)." if confirmed else "; no confirmation run).")
        )
    pairs = family[family["field"] != BETWEEN_FIELDS].groupby(["a", "b"], sort=False)
    between = family[family["field"] == BETWEEN_FIELDS]
    findings = []
    if len(fields) > 1 and len(family):
        resolved, sized = int(changes["resolved"].sum()), int(between["established"].sum())
        order = (
            f"{len(changes)} pairs change order between fields ({resolved} established both "
            "ways; the findings name them)"
            if len(changes)
            else "No pair changes order between the fields"
        )
        sizes = ": the field changes the size of the leads more often than the order."
        text.append(
            f"Does the field matter? {order}; a pair's difference depends on the field for "
            f"{sized} of {len(between)} pairs" + (sizes if sized > resolved else ".")
        )
        held = sum(
            bool(part["established"].all() and signs(part) == 1) and len(part) == len(fields)
            for _, part in pairs
        )
        findings.append(
            f"{held} of {pairs.ngroups} pairs are established in the same direction in every field."
        )
    for _, c in changes.iterrows():
        where = "; ".join(f"against {r['field']} {marked(r)}" for _, r in c["fields"].iterrows())
        findings.append(
            f"The order of {c['a']} and {c['b']} depends on the field ({c['a']} minus "
            f"{c['b']}: {where}): "
            + ("resolved." if c["resolved"] else "not resolved in both directions.")
        )
    for field, ranking in rankings.items():
        shown = display_table(ranking)
        first, last = shown.iloc[0], shown.iloc[-1]
        line = (
            f"Against {field}: {first['strategy']} ranks first with {first['mean_total']} "
            f"points per game (win share {first['win_share']})"
        )
        if len(ranking) > 1:
            line += f" and {last['strategy']} last with {last['mean_total']}"
        weak = claims[(claims["field"] == field) & ~claims["established"]]
        if len(weak):
            line += "; ranking steps not established: " + "; ".join(
                f"{r['a']} beats {r['b']} by {fmt_row(r, 2)}" for _, r in weak.iterrows()
            )
        findings.append(line + ".")
    findings += [
        f"{' and '.join(group)} make the same bids and plays on every deal they both played, "
        f"in every field: one ladder entry, '{SAME.join(group)}', counted once in the family."
        for group in groups
        if len(group) > 1
    ]
    return text, findings


SPEC = StudySpec(
    name=NAME,
    question=QUESTION,
    play=play,
    analyse=analyse,
    default_games=DEFAULT_GAMES,
    default_players=DEFAULT_PLAYERS,
    default_fields=DEFAULT_FIELDS,
    takes_strategies=True,
    check_games=partial(check_rotations, NAME),
    confirmation_games=confirmation_games,
)
