"""One run pipeline: play a range of games into a sink, on some executor.

:mod:`~ohhell_sim.run.pipeline`
    :func:`~ohhell_sim.run.pipeline.play` plays games ``[first, first + games)``
    of a seating under rules and a seed into a sink, calling the kernel in one
    place (:func:`~ohhell_sim.run.pipeline.run_kernel`).
:mod:`~ohhell_sim.run.sinks`
    the sinks: :class:`~ohhell_sim.run.sinks.Rows` (the frames' arrays, and on
    request each dealt hand) and :class:`~ohhell_sim.run.sinks.Counts` (the
    summary counts of :mod:`~ohhell_sim.run.counts`).
:mod:`~ohhell_sim.run.local`, :mod:`~ohhell_sim.run.dask`, :mod:`~ohhell_sim.run.chunked`
    the executors: this machine's threads, a Dask cluster, resumable chunks on disk.

:func:`ohhell_sim.simulate`, :func:`ohhell_sim.summarise` and
:func:`~ohhell_sim.run.chunked.run_chunked` are front ends over them.
"""
