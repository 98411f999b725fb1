"""Statistical summaries of simulation results."""
