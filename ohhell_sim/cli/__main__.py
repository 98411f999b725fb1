"""``python -m ohhell_sim.cli``: the ``ohhell`` command."""

import sys

from ohhell_sim.cli.app import main

sys.exit(main())
