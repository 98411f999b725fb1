"""What a run keeps of its games: their rows, or their summary counts.

A sink receives the games of a run, or of a chunk of it, from
:func:`ohhell_sim.run.pipeline.play`.  Each kind offers the same few methods:

``kernel_sink(offset, count)``
    the arrays that the kernel fills with games ``offset .. offset + count - 1``
    of this sink: a :class:`~ohhell_sim.results.RunArrays` slice (rows), or a
    :class:`CountTarget` (counts);
``close()``
    called once the kernel is done with the arrays of ``kernel_sink``;
``merge(start, part)``
    take in ``part``, a sink of the same kind that holds games ``start ..``;
``encode()``, ``decode(data, games)``
    the bytes of a chunk file (:mod:`ohhell_sim.run.chunked`), and back.

Executors make the sinks of their chunks with a factory of one argument (the
number of games), for instance ``functools.partial(Rows.empty, rules)``, which
travels to Dask workers as a small pickle.
"""

from __future__ import annotations

import io
import zipfile
from dataclasses import fields
from typing import NamedTuple

import numba
import numpy as np

from ohhell_sim.results import RunArrays
from ohhell_sim.rules import Rules
from ohhell_sim.run.counts import SummaryCounts, total_bounds


class CountTarget(NamedTuple):
    """What the kernel adds counted games to: per-thread counts, and scratch rows."""

    slots: SummaryCounts  # one set of counts per Numba thread (leading axis)
    total_low: int  # the lowest game total (offset of the totals histogram)
    scratch: RunArrays  # one game's rows per Numba thread, overwritten game by game


class Rows:
    """Every game's rows (a :class:`~ohhell_sim.results.RunArrays`), in game order.

    Attributes
    ----------
    rules : Rules
    arrays : RunArrays
    """

    def __init__(self, rules: Rules, arrays: RunArrays) -> None:
        self.rules = rules
        self.arrays = arrays

    @classmethod
    def empty(cls, rules: Rules, games: int, *, hands: bool = False) -> Rows:
        """Room for ``games`` games; ``hands``: also record each seat's dealt hand."""
        return cls(rules, RunArrays.empty(games, rules, hands=hands))

    def kernel_sink(self, offset: int, count: int) -> RunArrays:
        """The rows of games ``offset .. offset + count - 1`` (views, written in place)."""
        return self.arrays.rows(offset, offset + count)

    def close(self) -> None:
        """Nothing to do: the kernel wrote straight into :attr:`arrays`."""

    def merge(self, start: int, part: Rows) -> None:
        """Copy ``part``'s games into games ``start ..``, every field of :class:`RunArrays`.

        Fields that a run leaves empty (first axis 0) stay empty in both.
        """
        target = self.arrays.rows(start, start + part.arrays.bids.shape[0])
        for item in fields(RunArrays):
            getattr(target, item.name)[...] = getattr(part.arrays, item.name)

    def encode(self) -> bytes:
        """The arrays as ``.npz`` bytes."""
        return _npz_bytes({f.name: getattr(self.arrays, f.name) for f in fields(RunArrays)})

    def decode(self, data: bytes, games: int) -> Rows | None:
        """The sink of ``games`` games in ``data`` if it matches this run's arrays, else None."""
        template = RunArrays.empty(1, self.rules, hands=len(self.arrays.held) > 0)
        arrays = _npz_arrays(data, {f.name: getattr(template, f.name) for f in fields(RunArrays)})
        if arrays is None or any(len(a) not in (0, games) for a in arrays.values()):
            return None
        return Rows(self.rules, RunArrays(**arrays))


class Counts:
    """Summary counts of the games (see :mod:`ohhell_sim.summary`).

    While the kernel plays, each Numba thread adds to its own slot of the
    counts; :meth:`close` sums the slots into :attr:`counts`.  All counts are
    integers, so the sum does not depend on the threads, the batches or the chunks.

    Attributes
    ----------
    rules : Rules
    counts : SummaryCounts
    """

    def __init__(self, rules: Rules, counts: SummaryCounts | None = None) -> None:
        self.rules = rules
        self.counts = SummaryCounts.zeros(rules) if counts is None else counts
        self._total_low = total_bounds(rules)[0]
        self._slots: SummaryCounts | None = None

    @classmethod
    def empty(cls, rules: Rules, games: int = 0) -> Counts:
        """No games counted yet (``games`` is not needed: memory does not grow with it)."""
        return cls(rules)

    def kernel_sink(self, offset: int, count: int) -> CountTarget:
        """The per-thread counts the kernel adds games to."""
        # One slot per kernel worker: at most as many as Numba threads.
        threads = numba.config.NUMBA_NUM_THREADS
        if self._slots is None:
            self._slots = SummaryCounts.zeros(self.rules, threads)
        return CountTarget(self._slots, self._total_low, RunArrays.empty(threads, self.rules))

    def close(self) -> None:
        """Add the threads' counts to :attr:`counts`, and free them."""
        if self._slots is not None:
            self.counts = self.counts + self._slots.collapse()
            self._slots = None

    def merge(self, start: int, part: Counts) -> None:
        """Add ``part``'s counts (``start`` does not matter to a sum)."""
        self.counts = self.counts + part.counts

    def encode(self) -> bytes:
        """The counts as ``.npz`` bytes."""
        counts = self.counts
        return _npz_bytes({f.name: getattr(counts, f.name) for f in fields(SummaryCounts)})

    def decode(self, data: bytes, games: int) -> Counts | None:
        """The counts of ``games`` games in ``data`` if they fit these rules, else None."""
        template = {f.name: getattr(self.counts, f.name) for f in fields(SummaryCounts)}
        arrays = _npz_arrays(data, template)
        if arrays is None or any(a.shape != template[n].shape for n, a in arrays.items()):
            return None
        counts = SummaryCounts(**arrays)
        # Every game adds one total per seat: a chunk of other games is not this one.
        if counts.totals.sum() != games * self.rules.players:
            return None
        return Counts(self.rules, counts)


def _npz_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    return buffer.getvalue()


def _npz_arrays(data: bytes, template: dict[str, np.ndarray]) -> dict[str, np.ndarray] | None:
    """The arrays in ``data`` if they match ``template``'s names, dtypes and shapes, else None.

    A template array with an empty first axis matches only an empty array, and
    stands in for one the file lacks (a field added since the file was written);
    any other first axis is not checked (the caller knows the chunk's games).
    """
    try:
        with np.load(io.BytesIO(data), allow_pickle=False) as npz:
            arrays = {
                name: npz[name] if name in npz.files or len(want) else want
                for name, want in template.items()
            }
    except (ValueError, KeyError, OSError, EOFError, zipfile.BadZipFile):
        return None
    for name, want in template.items():
        got = arrays[name]
        if got.dtype != want.dtype or got.shape[1:] != want.shape[1:]:
            return None
        if (len(got) == 0) != (len(want) == 0):
            return None
    return arrays
