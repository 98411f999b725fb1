"""Numba kernels: random streams, bit helpers, rule primitives and the game loop."""
