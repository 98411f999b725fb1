"""What a run tells its user while it works: a compile status line and a progress bar.

A compile, which can keep a notebook cell silent for half a minute, is always
announced: on the ``ohhell_sim`` logger at INFO level, which writes to stderr
(the terminal, or the cell's output) for as long as the application configures
no logging of its own; ``logging.getLogger("ohhell_sim").setLevel(logging.WARNING)``
silences it (the command line's ``--quiet`` does).  The progress bar goes to
stderr only when the caller asks for progress: ``simulate(..., progress=True)``
and the other entry points' ``progress`` argument; the command line passes
``progress=not quiet``.
"""

from __future__ import annotations

import logging
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import numba

logger = logging.getLogger("ohhell_sim")


class _UntilConfigured(logging.StreamHandler):
    """Writes records to the current stderr while the root logger has no handlers."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not logging.getLogger().handlers and super().filter(record)

    def emit(self, record: logging.LogRecord) -> None:
        self.setStream(sys.stderr)  # Jupyter and pytest replace sys.stderr
        super().emit(record)


if not logger.handlers:
    logger.addHandler(_UntilConfigured())
if logger.level == logging.NOTSET:
    logger.setLevel(logging.INFO)

#: The least compile seconds of a kernel, a base and a share per distinct strategy
#: (its cost class), for the status line only: measured on the 2-core development
#: machine, idle (one strategy 12 s, three light ones 16 s, four with
#: card_counter 28 s, pimc with two light ones 47 s).  The line announces that
#: to three times as much, which a loaded machine takes.
COMPILE_SECONDS_BASE = 8
COMPILE_SECONDS_LIGHT = 2
COMPILE_SECONDS_HEAVY = 20


def compile_kernel(dispatcher, args: tuple, strategies: Sequence[str], heavy: int = 0) -> None:
    """Have ``dispatcher`` ready for ``args``: compiled now, or loaded from Numba's cache.

    A compile (the first run of these strategies on this machine) says so before
    it starts, with a rough duration (``heavy`` of the ``strategies`` are of the
    heavy cost class), and when it ends (see the module docstring); loading a
    cached kernel (a second or less) says nothing.
    """
    signature = tuple(numba.typeof(a) for a in args)
    if signature in dispatcher.overloads:
        return
    if _in_disk_cache(dispatcher, signature):
        dispatcher.compile(signature)
        return
    names = ", ".join(strategies)
    light = len(strategies) - heavy
    least = COMPILE_SECONDS_BASE + COMPILE_SECONDS_LIGHT * light + COMPILE_SECONDS_HEAVY * heavy
    logger.info(f"compiling the kernel for {names} (first run only, about {least}-{3 * least} s)…")
    start = time.perf_counter()
    dispatcher.compile(signature)
    logger.info(f"compiled the kernel for {names} in {time.perf_counter() - start:.0f} s")


def _in_disk_cache(dispatcher, signature: tuple) -> bool:
    # Numba keeps no public way to ask; its cache index is a dict keyed as below.
    # Any failure only means a cached kernel may be announced as a compile.
    try:
        cache = dispatcher._cache
        key = cache._index_key(signature, dispatcher.targetctx.codegen())
        return key in cache._cache_file._load_index()
    except Exception:  # internals of another package: any change of them
        return False


@contextmanager
def progress_bar(
    enabled: bool, games: int, deals_per_game: int, done: int = 0
) -> Iterator[Callable[[int], object]]:
    """Yield ``advance(games)``, which moves a bar counting deals (with rate and time left).

    ``done`` games of the ``games`` are finished already (a resumed run).
    """
    # tqdm.auto picks the Jupyter widget or the terminal bar; imported late as it is slow.
    from tqdm.auto import tqdm

    with tqdm(
        total=games * deals_per_game,
        initial=done * deals_per_game,
        unit="deal",
        unit_scale=True,
        disable=not enabled,
        smoothing=0.1,
    ) as bar:
        yield lambda finished: bar.update(finished * deals_per_game)
