"""A study's report: the :class:`~ohhell_sim.analysis.report.Report` of its data and manifest.

Each study's ``analyse`` computes its findings, tables and figures; this module
adds what every study report shares, read from the manifest: the setup (version,
seed, sizes, strategies, rules), the conditions played and the command.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import pandas as pd

from ohhell_sim.analysis.report import Figure, Report, Table, rules_text


def study_report(
    study: str,
    question: str,
    manifest: dict,
    method: list[str],
    findings: list[str],
    tables: list[Table],
    figures: list[Figure],
    in_short: list[str] | None = None,
    lead_tables: int = 0,
) -> Report:
    """A study's report, with the setup and the command read from its data's manifest;
    ``in_short`` is the answer in words that opens it, followed by the first
    ``lead_tables`` of ``tables``."""
    return Report(
        question,
        setup_lines(manifest),
        method,
        findings,
        tables,
        figures,
        manifest.get("command", ""),
        study,
        in_short or [],
        lead_tables,
    )


def in_order(
    table: pd.DataFrame, columns: Sequence[str], orders: Mapping[str, Sequence[object]]
) -> pd.DataFrame:
    """``table`` sorted by ``columns`` (those it has), stably: a column named in ``orders`` by
    its values' positions there (others last), any other by its values; the index reset."""
    ranks = {name: {value: i for i, value in enumerate(order)} for name, order in orders.items()}
    keys = [column for column in columns if column in table.columns]
    ordered = table.sort_values(
        keys, key=lambda c: c.map(ranks[c.name]) if c.name in ranks else c, kind="stable"
    )
    return ordered.reset_index(drop=True)


def conditions_table(manifest: dict) -> pd.DataFrame:
    """One row per condition of a study manifest: label, rules, seats, games."""
    return pd.DataFrame(
        [
            {
                **{k: str(v) for k, v in condition["label"].items()},
                "rules": rules_text(condition["rules"]),
                "seats": ", ".join(condition["seats"]),
                "games": str(condition["games"]),
            }
            for condition in manifest["conditions"]
        ]
    )


def setup_lines(manifest: dict) -> list[str]:
    """The setup of a study from its manifest: version, seed, sizes, strategies, rules."""
    conditions = manifest["conditions"]
    games = sorted({c["games"] for c in conditions})
    seats = sorted({seat for c in conditions for seat in c["seats"]})
    rules = sorted({rules_text(c["rules"]) for c in conditions})
    players = sorted({c["rules"]["players"] for c in conditions})
    confirmation = manifest.get("confirmation") or {}
    confirmed = "; no confirmation run" if confirmation else ""
    if confirmation.get("games"):
        confirmed = (
            f"; confirmation run at seed {confirmation['seed']}, {confirmation['games']} games "
            "per condition (fresh cards)"
        )
    return [
        f"ohhell-sim {manifest['version']}, seed {manifest['seed']}{confirmed}",
        f"{len(conditions)} conditions, {', '.join(map(str, games))} games each "
        f"({sum(c['games'] for c in conditions)} games in all)",
        f"players: {', '.join(map(str, players))}",
        f"strategies: {', '.join(seats)}",
        f"rules (besides the canonical profile): {'; '.join(rules)}",
    ]
