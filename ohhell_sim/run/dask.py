"""Run a simulation on a Dask cluster, with results identical to a local run.

Every game's cards and random choices depend only on ``(seed, game index)``, so
a run can be cut into chunks of consecutive games, each chunk played anywhere,
and the pieces put back in game order: the result is bitwise the one
:func:`ohhell_sim.simulate` gives on one machine.  Here each chunk is one Dask
task; a worker plays it into a sink of its own with the same pipeline as the
local path (:func:`ohhell_sim.run.pipeline.play`) and sends the sink back; the
client merges the sinks into the run's as they arrive (rows copied into place,
or counts added up).

Use it through ``simulate(..., client=client)``, ``summarise(..., client=client)``
or :func:`simulate_on_client` (which also takes ``chunk_games``); from the
command line through :func:`connect`, which the CLI's ``--scheduler ADDRESS`` calls.

Workers need ``ohhell-sim`` installed, the same version as the client.  User
strategies travel with the tasks: their functions are pickled *by value*, with
every module of the user's that their code reaches (the one that defines them,
and those it imports helpers or constants from), so those modules need not be
importable on the workers, and a worker that imported an older version of one
runs the client's.  Each worker registers them once, checks that the code it
would run has the client's fingerprint (and refuses the task if not), and
plays on the kernel the run names (:attr:`Seating.shared
<ohhell_sim.strategy.Seating.shared>`: the shared one, or the one generated for
the run's strategies), compiled once per machine (Numba's on-disk cache serves
later processes).

``dask.distributed`` is an optional dependency (``pip install 'ohhell-sim[dask]'``);
this module imports it only when a cluster is used.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import math
import pickle
import socket
import sys
import threading
import uuid
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from functools import partial
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numba
import numpy as np

from ohhell_sim._version import __version__
from ohhell_sim.arguments import check_count
from ohhell_sim.errors import IllegalMoveError, InvalidArgumentError
from ohhell_sim.results import SimulationResult, check_rows_fit
from ohhell_sim.rules import Rules
from ohhell_sim.run.pipeline import BATCH_GAMES, Sink, numba_threads, play
from ohhell_sim.run.progress import progress_bar
from ohhell_sim.run.record import Run
from ohhell_sim.run.sinks import Rows
from ohhell_sim.run.validation import check_run
from ohhell_sim.strategy import (
    Seating,
    SeatSpec,
    Strategy,
    get_strategy,
    register_strategy,
)
from ohhell_sim.strategy.code import strategy_fingerprint, user_modules
from ohhell_sim.strategy.origin import source_location

if TYPE_CHECKING:
    from distributed import Client

__all__ = [
    "MAX_CHUNK_GAMES",
    "TASKS_PER_THREAD",
    "check_client",
    "check_workers",
    "chunk_ranges",
    "connect",
    "default_chunk_games",
    "pack_strategies",
    "play_chunks",
    "play_on_client",
    "simulate_on_client",
]

#: Largest default chunk: one kernel batch, about 20 MB of raw arrays for 4 players.
MAX_CHUNK_GAMES = BATCH_GAMES
#: Default chunks per Dask worker thread: enough for load balancing across
#: machines of unequal speed, few enough that per-task overhead stays negligible.
TASKS_PER_THREAD = 4

#: Seconds to wait for a TCP connection to the scheduler before giving up on it.
_PROBE_SECONDS = 5.0
# Packages installed on every worker: their functions are pickled by reference.
_INSTALLED_PACKAGES = ("ohhell_sim", "numba", "numpy")


def _require_distributed() -> ModuleType:
    try:
        import distributed
    except ImportError as err:  # an optional extra
        raise ImportError(
            "running on a Dask cluster needs dask.distributed: pip install 'ohhell-sim[dask]'"
        ) from err
    return distributed


# ---------------------------------------------------------------- chunks, both sides


def chunk_ranges(games: int, chunk_games: int) -> list[tuple[int, int]]:
    """Split ``games`` games into ``(start, count)`` chunks of ``chunk_games`` (the last shorter).

    Examples
    --------
    >>> chunk_ranges(10, 4)
    [(0, 4), (4, 4), (8, 2)]
    """
    return [(start, min(chunk_games, games - start)) for start in range(0, games, chunk_games)]


# ------------------------------------------------------- shipping user strategies

_PICKLE_LOCK = threading.Lock()


def pack_strategies(users: Sequence[Strategy]) -> bytes:
    """Pickle user strategies so that workers can rebuild them without their modules.

    Numba pickles a dispatcher's Python function with its own copy of cloudpickle,
    by reference when the function's module is importable.  The modules of a user
    strategy usually live only on the client (a notebook, a script, a test folder),
    or may differ on a worker that imported them before they were edited, so every
    user module its code reaches (:func:`ohhell_sim.strategy.code.user_modules`) is
    registered *by value* for the time of this call: the functions, and the
    module-level helpers and constants they use, travel in the bytes, with each
    strategy's fingerprint for the workers to check.  Functions of installed
    packages (``ohhell_sim``, ``numba`` ...) still go by reference.

    Parameters
    ----------
    users : sequence of Strategy
        Non-built-in strategies, e.g. ``seating.user_strategies``.

    Returns
    -------
    bytes
        Empty for no strategies.

    Raises
    ------
    InvalidArgumentError
        If a strategy cannot be pickled at all (e.g. it closes over an open file).
    """
    users = tuple(users)
    if not users:
        return b""
    from numba import cloudpickle as numba_cloudpickle

    modules: dict[str, ModuleType] = {}
    for strategy in users:
        # __main__ is pickled by value anyway; installed packages exist on workers.
        reached = user_modules(strategy.name, (strategy.bid, strategy.play))
        modules.update(
            (name, module)
            for name, module in reached.items()
            if name.split(".")[0] not in _INSTALLED_PACKAGES
        )
    shipped = (users, {strategy.name: strategy_fingerprint(strategy) for strategy in users})
    # The by-value registry is process-wide state of Numba's cloudpickle: hold it
    # only for this dump, and never race another thread doing the same.
    with _PICKLE_LOCK:
        added = [
            m
            for name, m in modules.items()
            if name not in numba_cloudpickle.list_registry_pickle_by_value()
        ]
        try:
            for module in added:
                numba_cloudpickle.register_pickle_by_value(module)
            try:
                return pickle.dumps(shipped, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as by_value:
                first_error = by_value
        finally:
            for module in added:
                numba_cloudpickle.unregister_pickle_by_value(module)
        # Something in the module cannot travel by value; by reference still works
        # when the workers can import the module (and have the client's version).
        try:
            return pickle.dumps(shipped, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:
            names = ", ".join(s.name for s in users)
            raise InvalidArgumentError(
                f"user strategies ({names}) cannot be sent to Dask workers: {first_error}"
            ) from first_error


_UNPACKED: dict[str, tuple[tuple[Strategy, ...], dict[str, str]]] = {}
_UNPACK_LOCK = threading.Lock()


def _ensure_registered(blob: bytes) -> None:
    """Register the strategies in ``blob`` in this (worker) process where missing or stale.

    Raises
    ------
    RuntimeError
        If the code a strategy would run here has another fingerprint than on the
        client (a module it reads came by reference and is another version here).
    """
    if not blob:
        return
    key = hashlib.sha256(blob).hexdigest()
    with _UNPACK_LOCK:
        unpacked = _UNPACKED.get(key)
        if unpacked is None:
            unpacked = pickle.loads(blob)
            _UNPACKED[key] = unpacked
        users, fingerprints = unpacked
        for strategy in users:
            for func in (strategy.bid, strategy.play):
                _stand_in_module(func.py_func)
            try:
                current = get_strategy(strategy.name)
            except ValueError:
                current = None
            # A long-lived worker may hold an older version of a strategy that the
            # user has since edited and re-registered on the client.
            if current is None or strategy_fingerprint(current) != strategy_fingerprint(strategy):
                register_strategy(
                    strategy.name,
                    strategy.bid,
                    strategy.play,
                    params=dict(strategy.params),
                    description=strategy.description,
                    stochastic=strategy.stochastic,
                    heavy=strategy.heavy,
                    replace=True,
                )
            _check_fingerprint(strategy.name, fingerprints[strategy.name])


def _check_fingerprint(name: str, client: str) -> None:
    """Refuse to run strategy ``name`` here unless its code is the client's (``client``)."""
    here = get_strategy(name)
    if strategy_fingerprint(here) != client:
        raise RuntimeError(
            f"strategy {name!r} ({source_location(here.bid)}): the code this Dask worker "
            f"({socket.gethostname()}) would run is not the client's (fingerprint "
            f"{strategy_fingerprint(here)}, the client's {client}); a module it reads is another "
            "version here: restart the workers (client.restart()) or install the same code "
            "on every machine"
        )


def _stand_in_module(func: Any) -> None:
    """Make the module of a by-value function importable by name in this process.

    A kernel loaded from Numba's on-disk cache rebuilds the environment of each
    compiled function by importing the function's module by name.  On a worker
    that received the strategy by value that module does not exist, and loading
    would fail although the machine code is right there; a stand-in module holding
    the function's globals is all Numba needs from it.
    """
    name = getattr(func, "__module__", None)
    if not name or name == "__main__":
        return
    existing = sys.modules.get(name)
    if existing is None:
        try:
            if importlib.util.find_spec(name) is not None:
                return  # the real module is installed here; Numba imports it
        except (ImportError, ValueError):  # a parent package is missing too
            pass
        existing = ModuleType(name, "stand-in for a module shipped by value to this worker")
        existing.__ohhell_stand_in__ = True
        sys.modules[name] = existing
    if getattr(existing, "__ohhell_stand_in__", False):
        existing.__dict__.update(
            {k: v for k, v in func.__globals__.items() if k not in ("__name__", "__doc__")}
        )


# ----------------------------------------------------------------- the worker task


_KERNEL_LOCK = threading.Lock()


def _kernel_guard() -> AbstractContextManager[Any]:
    # Numba's workqueue threading layer aborts the process when two threads launch
    # parallel kernels at once, which a Dask worker with several threads would do;
    # tbb and omp are thread-safe.  The layer is chosen at the first launch, so the
    # first one is guarded too.
    try:
        layer = numba.threading_layer()
    except ValueError:
        return _KERNEL_LOCK
    return _KERNEL_LOCK if layer == "workqueue" else nullcontext()


def _worker_threads(threads: int | None) -> int | None:
    most = numba.config.NUMBA_NUM_THREADS
    if threads is not None:
        # Results do not depend on the thread count, so a smaller worker simply uses
        # what it has.
        return min(threads, most)
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):  # not inside a Dask worker
        return None
    state = getattr(worker, "state", worker)
    slots = int(getattr(state, "nthreads", 1) or 1)
    # A worker running several tasks at once shares its cores between them rather
    # than starting slots x cores Numba threads.
    return max(1, most // slots) if slots > 1 else None


def _play_chunk(
    part: Run,
    names: list[str],
    params: np.ndarray,
    shared: bool,
    blob: bytes,
    version: str,
    new_sink: Callable[[int], Sink],
) -> Sink | IllegalMoveError:
    """The Dask task: play the games of ``part`` (its seating given by ``names``,
    ``params`` and the user strategies in ``blob``, on the shared kernel when ``shared``)
    into ``new_sink(part.games)``."""
    if version != __version__:
        raise RuntimeError(
            f"this Dask worker has ohhell-sim {__version__} but the client has {version}; "
            "install the same version everywhere, since results may differ between versions"
        )
    _ensure_registered(blob)
    strategies = tuple(get_strategy(n) for n in names)
    seating = Seating(strategies=strategies, params=params, shared=shared)
    part = dataclasses.replace(part, seating=seating)
    sink = new_sink(part.games)
    with _kernel_guard(), numba_threads(_worker_threads(part.threads)):
        try:
            play(part, sink)
        except IllegalMoveError as err:
            # Returned, not raised: the client raises it, without a worker's error log.
            return err
    return sink


def _worker_version() -> str:
    return __version__


# ---------------------------------------------------------------- the client side


def check_client(client: object) -> Client:
    """Return ``client`` if it is a running, synchronous ``distributed.Client``, else raise."""
    distributed = _require_distributed()
    if not isinstance(client, distributed.Client):
        raise InvalidArgumentError(
            f"client must be a dask.distributed.Client, got {type(client).__name__}"
        )
    if client.asynchronous:
        raise InvalidArgumentError("client must be a synchronous Client, not asynchronous=True")
    if client.status != "running":
        raise InvalidArgumentError(f"the Dask client is not running (status {client.status!r})")
    return client


def check_workers(client: Client) -> dict[str, str]:
    """Check that every connected worker runs this version of ohhell-sim.

    Returns
    -------
    dict
        Worker address to its ohhell-sim version (empty while no worker is connected).

    Raises
    ------
    RuntimeError
        If a worker cannot import ohhell-sim or has another version.
    """
    try:
        versions = client.run(_worker_version)
    except Exception as err:  # anything a worker raises while unpickling or running
        raise RuntimeError(
            f"Dask workers could not run ohhell-sim ({type(err).__name__}: {err}); "
            f"install ohhell-sim {__version__} on every worker"
        ) from err
    wrong = {address: v for address, v in versions.items() if v != __version__}
    if wrong:
        listed = ", ".join(f"{a} has {v}" for a, v in sorted(wrong.items()))
        raise RuntimeError(
            f"Dask workers run another ohhell-sim version than the client ({__version__}): "
            f"{listed}; install the same version everywhere"
        )
    return versions


def connect(address: str, *, timeout: float = 30.0, **client_kwargs: Any) -> Client:
    """Connect to the Dask scheduler at ``address`` and check its workers.

    For the CLI's ``--scheduler ADDRESS``; pass the returned client to
    ``simulate(..., client=client)`` and close it when done.

    Parameters
    ----------
    address : str
        Scheduler address, e.g. ``"tcp://10.0.0.5:8786"``.
    timeout : float
        Seconds to wait for the scheduler.
    **client_kwargs
        Passed on to ``distributed.Client``.

    Returns
    -------
    distributed.Client

    Raises
    ------
    InvalidArgumentError
        For an empty or non-string address, or one without a port.
    ConnectionError
        If nothing listens at the address (found at once, with no wait for
        ``timeout``), or no Dask scheduler answers there within ``timeout``.
    RuntimeError
        If connected workers lack ohhell-sim or run another version of it.
    """
    if not isinstance(address, str) or not address.strip():
        raise InvalidArgumentError(
            f"scheduler address must be a string like 'tcp://host:8786', got {address!r}"
        )
    address = address.strip()
    distributed = _require_distributed()
    _probe_scheduler(address, timeout)
    try:
        client = distributed.Client(address, timeout=timeout, **client_kwargs)
    except TimeoutError as err:
        raise ConnectionError(
            f"no Dask scheduler answered at {address!r} within {timeout:g} s: {err}"
        ) from err
    except Exception as err:  # something else listens there, or the connection broke
        raise ConnectionError(
            f"cannot connect to a Dask scheduler at {address!r} ({type(err).__name__}: "
            f"{err}); is it a Dask scheduler's address, not another service's?"
        ) from err
    try:
        check_workers(client)
    except BaseException:
        client.close()
        raise
    return client


def _probe_scheduler(address: str, timeout: float) -> None:
    """Raise at once if nothing accepts a TCP connection at a ``tcp://`` ``address``.

    ``distributed.Client`` retries a refused connection until its timeout, silently.
    """
    from distributed.comm.addressing import parse_address, parse_host_port

    try:
        scheme, location = parse_address(address)
        if scheme != "tcp":
            return  # tls, inproc, ucx ...: left to the client
        host, port = parse_host_port(location)
    except ValueError as err:
        raise InvalidArgumentError(
            f"scheduler address must look like 'tcp://host:8786', got {address!r}: {err}"
        ) from None
    try:
        socket.create_connection((host, port), timeout=min(timeout, _PROBE_SECONDS)).close()
    except OSError as err:
        reason = "timed out" if isinstance(err, TimeoutError) else (err.strerror or str(err))
        raise ConnectionError(
            f"cannot reach the Dask scheduler at {address!r}: {reason}; is a scheduler "
            f"running there (`dask scheduler` prints its address)?"
        ) from None


def default_chunk_games(client: Client, games: int) -> int:
    """Default games per task.

    :data:`TASKS_PER_THREAD` tasks per Dask worker thread, at most
    :data:`MAX_CHUNK_GAMES` games each.
    """
    slots = sum(client.nthreads().values()) or 1
    return max(1, min(MAX_CHUNK_GAMES, math.ceil(games / (TASKS_PER_THREAD * slots))))


def play_chunks(
    client: Client,
    run: Run,
    chunks: Sequence[tuple[int, int]],
    new_sink: Callable[[int], Sink],
) -> Iterator[tuple[int, Sink]]:
    """Play ``chunks`` of ``run`` on the cluster; yield ``(chunk index, sink)`` as each finishes.

    Parameters
    ----------
    client : distributed.Client
    run : Run
        As validated by :func:`ohhell_sim.run.validation.check_run`; ``run.threads``
        is the Numba threads per task (default: the worker's cores shared among
        its Dask threads).
    chunks : sequence of (start, count)
        Chunk ``i`` is games ``start .. start + count - 1`` of the run
        (:meth:`Run.part <ohhell_sim.run.record.Run.part>`).
    new_sink : callable
        ``new_sink(games)`` makes a task's sink (:mod:`ohhell_sim.run.sinks`);
        pickled to the workers, so a class method or a ``functools.partial`` of one.

    Yields
    ------
    (int, sink)
        In completion order, not chunk order.

    Raises
    ------
    IllegalMoveError
        When a strategy made an illegal move; the remaining tasks are cancelled.
    """
    distributed = _require_distributed()
    seating = run.seating
    blob = pack_strategies(seating.user_strategies)
    tag = uuid.uuid4().hex[:12]
    pending: dict[str, int] = {}
    futures = []
    for i, (start, count) in enumerate(chunks):
        # The seating travels as names and parameters: its compiled functions
        # do not pickle, and the workers register the user strategies from blob.
        # The kernel the run names travels too: a worker compiles no other.
        part = run.part(start, count)
        future = client.submit(
            _play_chunk,
            dataclasses.replace(part, seating=None),
            seating.names,
            seating.params,
            seating.shared,
            blob,
            __version__,
            new_sink,
            key=f"ohhell-chunk-{tag}-{i}",
            pure=False,
        )
        pending[future.key] = i
        futures.append(future)
    finished = distributed.as_completed(futures)
    # Only as_completed holds the futures from here, so each result is released on
    # the cluster as soon as it has been handed on, not when the whole run ends.
    futures.clear()
    try:
        for future in finished:
            index = pending.pop(future.key)
            out = future.result()
            del future
            if isinstance(out, IllegalMoveError):
                raise out
            yield index, out
    finally:
        if pending:  # an error, or the caller stopped early: free the cluster
            client.cancel([f for f in finished.futures], force=True)
            finished.clear()


def play_on_client(
    client: Client,
    run: Run,
    new_sink: Callable[[int], Sink],
    *,
    chunk_games: int | None = None,
    progress: bool = False,
) -> Sink:
    """Play ``run`` on a Dask cluster into ``new_sink(run.games)``, and return that sink.

    The executor behind ``simulate(..., client=)`` and ``summarise(..., client=)``;
    arguments as :func:`simulate_on_client` and :func:`play_chunks`, already
    checked, except ``client`` and ``chunk_games`` which are checked here.
    """
    sink = new_sink(run.games)
    for start, part in _finished_chunks(client, run, chunk_games, progress, new_sink):
        sink.merge(start, part)
    return sink


def _finished_chunks(
    client: Client,
    run: Run,
    chunk_games: int | None,
    progress: bool,
    new_sink: Callable[[int], Sink],
) -> Iterator[tuple[int, Sink]]:
    # Checks the client and chunk size, then yields (first row, chunk output) as
    # the chunks finish, advancing the progress bar.
    client = check_client(client)
    if chunk_games is None:
        if not client.nthreads():
            warnings.warn(
                "no Dask worker is connected yet: the tasks wait until one joins",
                RuntimeWarning,
                stacklevel=4,
            )
        chunk_games = default_chunk_games(client, run.games)
    chunk_games = check_count("chunk_games", chunk_games)
    chunks = chunk_ranges(run.games, chunk_games)
    with progress_bar(progress, run.games, run.rules.n_deals) as advance:
        for index, part in play_chunks(client, run, chunks, new_sink):
            start, count = chunks[index]
            yield start, part
            advance(count)


def simulate_on_client(
    client: Client,
    rules: Rules,
    strategies: Sequence[SeatSpec],
    games: int,
    seed: int = 0,
    *,
    first_game: int = 0,
    chunk_games: int | None = None,
    threads: int | None = None,
    progress: bool = False,
) -> SimulationResult:
    """Play ``games`` games on a Dask cluster; the result equals ``simulate``'s, bit for bit.

    The workers play on the dedicated kernel of the strategies
    (``simulate(..., client=, kernel=)`` chooses the kernel).

    Parameters
    ----------
    client : distributed.Client
        A connected client (see :func:`connect`).
    rules, strategies, games, seed, first_game, progress
        As for :func:`ohhell_sim.simulate`.
    chunk_games : int, optional
        Games per Dask task.  Default: :data:`TASKS_PER_THREAD` tasks per worker
        thread, at most :data:`MAX_CHUNK_GAMES` games each.
    threads : int, optional
        Numba threads per task on the workers (default: each worker's cores,
        shared among its Dask threads; capped at the worker's ``NUMBA_NUM_THREADS``).

    Returns
    -------
    SimulationResult

    Raises
    ------
    InvalidArgumentError
        For bad arguments, before any task is sent.
    IllegalMoveError
        When a strategy returns an illegal bid or card.
    RuntimeError
        If a worker runs another ohhell-sim version.
    """
    run = check_run(rules, strategies, first_game, games, seed, threads)
    if chunk_games is not None:
        chunk_games = check_count("chunk_games", chunk_games)
    check_rows_fit(run.rules, run.games)
    sink = play_on_client(
        client, run, partial(Rows.empty, run.rules), chunk_games=chunk_games, progress=progress
    )
    seating = run.seating
    return SimulationResult(
        run.rules, seating.labels, seating.params, run.seed, run.first_game, sink.arrays
    )
