"""Hashes of the frames of a fixed set of runs: the check that a refactoring changes no result.

Run it before and after a change that should not change results, and compare the
lines; ``benchmarks/frame_hashes.txt`` holds the lines of the code as committed,
and ``--check`` compares with it::

    python benchmarks/frame_hashes.py > before.txt
    ... change ...
    python benchmarks/frame_hashes.py > after.txt && diff before.txt after.txt
    python benchmarks/frame_hashes.py --check      # against benchmarks/frame_hashes.txt

Three groups of runs (``--groups``, default all):

``engine``
    ``simple``, ``random`` and ``card_counter`` on the canonical table and three
    variant tables (scoring and bidding variants on the plain kernel; joker,
    swap and catastrophe, and two decks with the tie-break, on the general
    kernel), in rows and summary mode, played in one call and in resumable
    chunks.
``search``
    the sampling players and the learned ones at their default settings, in two
    seatings (``mc_bidder``, ``pimc``, ``bayes_pimc``, ``adaptive_pimc``,
    ``distilled``; and ``distilled_search``, ``guided_pimc``, ``distilled``,
    ``adaptive_pimc``, ``simple``), on the canonical table, a scoring variant
    and the joker, swap and catastrophe table, in rows and summary mode.
``env``
    traces of the batched environment (``ohhell_sim.env.batched``): every
    observation, mask, reward and end of game of a few hundred steps, with
    actions drawn from the masks by a seeded generator.
``studies``
    every study of ``ohhell experiment`` at a small size, with its confirmation
    run: a hash of its report's words (question, In short, setup, method,
    findings) and one of each of its tables, so that a change of the studies'
    machinery that should leave their answers alone is seen to, table by table.

``--seats`` replaces the strategies cycled over the seats of the ``engine``
group, ``--games`` its games and ``--tables`` its tables (comma lists).
Columns are hashed by their values (categoricals by their labels), so a change
of dtype alone does not change a hash, but any changed value does.  The players
that compute in floating point (the search players, ``distilled``) may hash
otherwise on another CPU: ``frame_hashes.txt`` is this project's development
machine's.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd

import ohhell_sim as oh
from ohhell_sim.env.batched import BatchedEnv
from ohhell_sim.run.chunked import run_chunked

GAMES = 300
SEED = 11
SEATS = ("simple", "random", "card_counter")
#: The search group: its seatings by label, tables and games (the players are slow).
SEARCH_SEATINGS = {
    "search": ("mc_bidder", "pimc", "bayes_pimc", "adaptive_pimc", "distilled"),
    "search-guided": ("distilled_search", "guided_pimc", "distilled", "adaptive_pimc", "simple"),
}
SEARCH_TABLES = ("canonical", "scoring", "joker-swap-catastrophe")
SEARCH_GAMES = 6
#: The env group: tables stepped at once, steps, and the seatings traced.
ENV_TABLES = 32
ENV_STEPS = 120
ENV_SEATINGS = {
    "learner-simple-card_counter-distilled": (
        oh.Rules(players=4),
        ["learner", "simple", "card_counter", "distilled"],
        None,
    ),
    "bids-only-5p": (
        oh.Rules(players=5, hook=False, made="10*bid"),
        ["learner", "random", "learner", "zero", "simple"],
        "card_counter",
    ),
}
#: The studies group: each study's size (cheap fields, so that it runs in minutes).
STUDY_SIZES = {
    "hook_rule": {"games": 24, "players": (3, 4), "fields": ("simple", "mix")},
    "zero_bids": {"games": 24, "players": (3, 4), "fields": ("simple", "mix")},
    "variant_scoring": {"games": 24, "players": (4,), "fields": ("simple", "mix")},
    "strategy_ladder": {"games": 16, "players": (4,), "strategies": ("simple", "random")},
    "house_rules": {"games": 8, "players": (3, 4)},
}
GROUPS = ("engine", "search", "env", "studies")
EXPECTED = Path(__file__).with_suffix(".txt")

TABLES = {
    "canonical": oh.Rules(players=4),
    "scoring": oh.Rules(players=5, hook=False, made="10*bid", zero="5+cards", over="-diff"),
    "joker-swap-catastrophe": oh.Rules(
        players=4, joker=True, swap=1, fault_limit=12, trump="CDHSN", closed_bids=True, hook=False
    ),
    "two-decks-tiebreak": oh.Rules(players=8, decks=2, tiebreak=True, no_trump_every=3),
}


def frame_digest(frame: pd.DataFrame) -> str:
    """A hash of a frame's column names and values, independent of dtypes."""
    digest = hashlib.sha256()
    for name in frame.columns:
        column = frame[name]
        digest.update(str(name).encode())
        if isinstance(column.dtype, pd.CategoricalDtype):
            values = column.astype(str).to_numpy()
        elif pd.api.types.is_bool_dtype(column) or pd.api.types.is_integer_dtype(column):
            values = column.to_numpy(dtype=np.int64)
        elif pd.api.types.is_float_dtype(column):
            values = column.to_numpy(dtype=np.float64)
        else:
            values = column.astype(str).to_numpy()
        digest.update(
            np.ascontiguousarray(values).tobytes()
            if values.dtype != object
            else "\x00".join(values).encode()
        )
    return digest.hexdigest()[:16]


def counts_digest(summary) -> str:
    """A hash of a summary's count arrays."""
    digest = hashlib.sha256()
    for name in ("outcomes", "deals", "totals", "wins"):
        digest.update(name.encode() + np.ascontiguousarray(getattr(summary.counts, name)).tobytes())
    return digest.hexdigest()[:16]


def seats_for(rules: oh.Rules, strategies: tuple[str, ...] = SEATS) -> list[str]:
    """``strategies`` cycled over the seats."""
    return [strategies[s % len(strategies)] for s in range(rules.players)]


def engine_lines(strategies: tuple[str, ...], games: int, labels: list[str]) -> Iterator[str]:
    """The engine group: each table in rows and summary mode, in one call and in chunks."""
    # Chunks of the default run's share (70 of 300 games): a chunked run resumes
    # several times at any --games.
    chunk_games = max(1, games * 70 // GAMES)
    with tempfile.TemporaryDirectory() as scratch:
        for label in labels:
            rules = TABLES[label]
            seats = seats_for(rules, strategies)
            rows = oh.simulate(rules, seats, games=games, seed=SEED)
            yield f"{label} rows local {frame_digest(rows.hands)} {frame_digest(rows.games)}"
            chunked = run_chunked(
                rules,
                seats,
                games,
                SEED,
                Path(scratch) / f"{label}-rows",
                chunk_games=chunk_games,
                progress=False,
            )
            yield (
                f"{label} rows chunked {frame_digest(chunked.hands)} {frame_digest(chunked.games)}"
            )
            counts = oh.summarise(rules, seats, games=games, seed=SEED)
            yield f"{label} summary local {counts_digest(counts)}"
            chunked_counts = run_chunked(
                rules,
                seats,
                games,
                SEED,
                Path(scratch) / f"{label}-counts",
                chunk_games=chunk_games,
                progress=False,
                summary=True,
            )
            yield f"{label} summary chunked {counts_digest(chunked_counts)}"


def search_lines() -> Iterator[str]:
    """The search group: the sampling and learned players, rows and summary mode."""
    for group, seating in SEARCH_SEATINGS.items():
        for label in SEARCH_TABLES:
            rules = oh.Rules(**{**TABLES[label].to_dict(), "players": 5})
            seats = list(seating)
            rows = oh.simulate(rules, seats, games=SEARCH_GAMES, seed=SEED)
            yield (
                f"{group} {label} rows local {frame_digest(rows.hands)} {frame_digest(rows.games)}"
            )
            counts = oh.summarise(rules, seats, games=SEARCH_GAMES, seed=SEED)
            yield f"{group} {label} summary local {counts_digest(counts)}"


def env_trace_digest(rules: oh.Rules, seats: list[str], learner_plays: str | None) -> str:
    """A hash of every array a batched environment returns over :data:`ENV_STEPS` steps."""
    env = BatchedEnv(rules, seats, tables=ENV_TABLES, learner_plays=learner_plays)
    digest = hashlib.sha256()
    draws = np.random.default_rng(SEED)
    outputs = env.reset(seed=SEED)
    for _ in range(ENV_STEPS):
        for array in outputs:
            digest.update(np.ascontiguousarray(array).tobytes())
        masks = outputs[1]
        actions = np.argmax(masks * draws.random(masks.shape), axis=1)
        outputs = env.step(actions)
    return digest.hexdigest()[:16]


def env_lines() -> Iterator[str]:
    """The env group: one trace per seating."""
    for label, (rules, seats, learner_plays) in ENV_SEATINGS.items():
        yield f"env {label} trace {env_trace_digest(rules, seats, learner_plays)}"


def text_digest(parts: list[str]) -> str:
    """A hash of a list of strings."""
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()[:16]


def study_lines() -> Iterator[str]:
    """The studies group: per study, its words and each of its tables."""
    from ohhell_sim.studies import run_experiment
    from ohhell_sim.studies.rendering import load_report

    with tempfile.TemporaryDirectory() as scratch:
        for name, size in STUDY_SIZES.items():
            out = Path(scratch) / name
            run_experiment(name, out, seed=SEED, progress=False, **size)
            report, _ = load_report(out)
            words = [report.question, *report.in_short, *report.setup, *report.method]
            yield f"study {name} words {text_digest(words + report.findings)}"
            for number, table in enumerate(report.tables):
                title = table.title.replace(" ", "_")[:40]
                digest = text_digest([table.title, table.note]) + frame_digest(table.frame)[:8]
                yield f"study {name} table {number} {title} {digest}"


def main(argv: list[str] | None = None) -> int:
    """Print one line per run (table, mode, executor, hashes); ``--check`` compares."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", default=",".join(GROUPS), help="groups of runs to hash")
    parser.add_argument("--seats", default=",".join(SEATS), help="engine group: the strategies")
    parser.add_argument("--games", type=int, default=GAMES, help="engine group: games a run")
    parser.add_argument("--tables", default=",".join(TABLES), help="engine group: tables")
    parser.add_argument(
        "--check", action="store_true", help=f"compare with {EXPECTED.name}; exit 1 on a change"
    )
    args = parser.parse_args(argv)
    groups = args.groups.split(",")
    labels = args.tables.split(",")
    for option, given, known in (("--groups", groups, GROUPS), ("--tables", labels, TABLES)):
        unknown = set(given) - set(known)
        if unknown:
            parser.error(
                f"{option}: unknown {', '.join(sorted(unknown))}; choose from {', '.join(known)}"
            )
    makers = {
        "engine": lambda: engine_lines(tuple(args.seats.split(",")), args.games, labels),
        "search": search_lines,
        "env": env_lines,
        "studies": study_lines,
    }
    lines = []
    for group in groups:
        for line in makers[group]():
            print(line, flush=True)
            lines.append(line)
    if not args.check:
        return 0
    expected = set(EXPECTED.read_text(encoding="utf-8").splitlines())
    changed = [line for line in lines if line not in expected]
    for line in changed:
        print(f"changed: {line}", file=sys.stderr)
    return 1 if changed else 0


if __name__ == "__main__":
    raise SystemExit(main())
