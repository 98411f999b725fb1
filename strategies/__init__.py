"""Built-in strategies, one module per family.

Each module defines ``bid`` and ``play`` (``@njit``) and a ``STRATEGY`` record;
``BUILTINS`` lists them in dispatch-id order (the id is the position).
"""

from ohhell_sim.strategy import _register_builtin
from strategies import random_play, simple

BUILTINS = (random_play.STRATEGY, simple.STRATEGY)

for _strategy in BUILTINS:
    _register_builtin(_strategy)
