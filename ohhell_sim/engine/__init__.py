"""Numba kernels: random streams, bit helpers, the game loop and strategy dispatch."""
