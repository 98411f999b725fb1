"""Playing a study's conditions: chunk by chunk, locally or on a Dask cluster.

Every condition is played for the same game indices with the same seed, so that
conditions which share a deal schedule share the cards (common random numbers): the
engine keys every shuffle by ``(seed, game, deal)``, never by the rules' scoring or the
strategies.  The results come back as one ``hands`` and one ``games`` frame
(:class:`~ohhell_sim.studies.runs.StudyData`), with the label values as extra columns.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ohhell_sim._version import __version__
from ohhell_sim.run.dask import chunk_ranges
from ohhell_sim.run.pipeline import prepare_kernel
from ohhell_sim.run.sinks import Rows
from ohhell_sim.run.validation import chosen_kernel
from ohhell_sim.simulate import simulate
from ohhell_sim.strategy import check_seating
from ohhell_sim.studies.runs import Condition, StudyData, keep_per_game, stack_frames

if TYPE_CHECKING:
    from distributed import Client

#: Games of a condition played at a time: the deals of one chunk are all a study holds
#: of them at once when it keeps a few rows per game (``reduce``).  A game's cards depend
#: only on the seed and its index, so the chunks add up to the condition played whole.
CHUNK_GAMES = 5_000


def play_conditions(
    conditions: Sequence[Condition],
    seed: int,
    *,
    progress: bool = True,
    description: str = "games",
    reduce: Callable[[pd.DataFrame], pd.DataFrame] | None = None,
    client: Client | None = None,
) -> StudyData:
    """Play every condition with ``seed`` (one progress bar, labelled ``description``) and
    stack the results; ``reduce``, when given, maps the labelled hands of each chunk of a
    condition's games (:data:`CHUNK_GAMES`) to what is kept of them, so that only one
    chunk's deals are held at a time.
    With ``client`` every condition plays on its Dask cluster (``simulate(...,
    client=)``: the same frames, bit for bit), and no kernel compiles here.

    ``hands`` and ``games`` get the label columns and ``condition`` (its position in
    ``conditions``) in front.  The ``strategy`` column holds each seat's strategy name,
    not its label: the manifest's conditions say with which parameters it plays, and
    the analyses tell seats apart by condition and seat.
    """
    from tqdm.auto import tqdm

    hands, games = [], []
    total = sum(c.games for c in conditions)
    names, described = [], []
    # Every seating is checked against its rules before the first kernel compiles.
    seatings = [check_seating(c.rules, list(c.seats)) for c in conditions]
    # Kernels compile (announced) before the bar starts, so that it times play alone;
    # on a cluster the workers compile them.
    for condition, seating in zip(conditions, seatings, strict=True):
        if client is None:
            shared = chosen_kernel(condition.games) == "shared"
            prepare_kernel(
                replace(seating, shared=shared), condition.rules, Rows.empty(condition.rules, 0)
            )
        names.append(np.array(seating.names, dtype=object))
        # Whether each seat's bids read the scoring tables: a user's strategy need not be
        # importable when the data are analysed again.
        reads = [bool(s.reads_scoring) for s in seating.strategies]
        described.append({**condition.describe(), "reads_scoring": reads})
    with tqdm(total=total, unit="game", desc=description, disable=not progress) as bar:
        for index, condition in enumerate(conditions):
            seats = list(condition.seats)
            # Every chunk plays on the kernel compiled above, whatever its own size.
            kernel = chosen_kernel(condition.games)
            for first, count in chunk_ranges(condition.games, CHUNK_GAMES):
                result = simulate(
                    condition.rules,
                    seats,
                    count,
                    seed,
                    first_game=first,
                    client=client,
                    kernel=kernel,
                )
                labelled = _labelled(result.hands, index, condition.label, names[index])
                hands.append(labelled if reduce is None else keep_per_game(reduce, labelled))
                games.append(_labelled(result.games, index, condition.label, names[index]))
                bar.update(count)
    manifest = {
        "version": __version__,
        "seed": seed,
        "conditions": described,
    }
    return StudyData(stack_frames(hands), stack_frames(games), manifest)


def play_parts(
    conditions: Sequence[Condition],
    part_of: Callable[[Condition], str],
    seed: int,
    *,
    progress: bool = True,
    description: str = "games",
    keep: Callable[[str, pd.DataFrame], pd.DataFrame] | None = None,
    client: Client | None = None,
) -> StudyData:
    """:func:`play_conditions` part by part (``part_of`` names a condition's part; each part
    its own progress bar, ``description`` and the part's name), the conditions numbered on
    from part to part, on ``client``'s cluster when given; ``keep(part, hands)``, when
    given, maps a part's hands to what is kept of them.  The manifest lists every
    condition."""
    parts: dict[str, list[Condition]] = {}
    for condition in conditions:
        parts.setdefault(part_of(condition), []).append(condition)
    hands, games, offset = [], [], 0
    for name, part in parts.items():
        data = play_conditions(
            part, seed, progress=progress, description=f"{description} {name}", client=client
        )
        rows = data.hands if keep is None else keep(name, data.hands)
        for frame, out in ((rows, hands), (data.games, games)):
            out.append(frame.assign(condition=(frame["condition"] + offset).astype(np.int16)))
        offset += len(part)
    manifest = {**data.manifest, "conditions": [c.describe() for c in conditions]}
    # Categories that differ between the parts stack as objects: categorical again.
    return StudyData(stack_frames(hands), stack_frames(games), manifest)


def _labelled(
    frame: pd.DataFrame, index: int, label: dict[str, object], names: np.ndarray
) -> pd.DataFrame:
    rows = len(frame)
    extra = {"condition": np.full(rows, index, dtype=np.int16)}
    for key, value in label.items():
        if isinstance(value, str):
            # A category from the start: one byte a row instead of the text's twenty or
            # so until the study's frames are stacked.
            extra[key] = pd.Categorical.from_codes(np.zeros(rows, dtype=np.int8), [value])
        elif np.issubdtype(type(value), np.integer) and abs(int(value)) < 1 << 15:
            # A small whole number (a table size, a seat order): two bytes, not eight.
            extra[key] = np.full(rows, value, dtype=np.int16)
        else:
            extra[key] = np.full(rows, value)
    out = pd.concat([pd.DataFrame(extra), frame.reset_index(drop=True)], axis=1)
    # The seats' names, not the seating's strategy categories (which differ between seatings).
    out["strategy"] = pd.Categorical(names[out["seat"].to_numpy()])
    return out
