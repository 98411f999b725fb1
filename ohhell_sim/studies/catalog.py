"""The studies by name, with what the command line says of them, read without importing one.

A study module imports pandas, SciPy and Matplotlib and its strategies' kernels;
``ohhell experiment --help`` lists the studies and their options from here
instead.  A test keeps these in step with each study's declaration
(:class:`~ohhell_sim.studies.spec.StudySpec`).
"""

from __future__ import annotations

STUDY_NAMES = ("hook_rule", "zero_bids", "variant_scoring", "strategy_ladder", "house_rules")
#: The study the README's quick start runs.
DEFAULT_STUDY = "hook_rule"
#: The strategy fields every study can play (:data:`ohhell_sim.studies.design.FIELDS`).
SHARED_FIELDS = ("simple", "card_counter", "learned", "mc_bidder", "distilled", "mix")
#: The studies that play the strategies they are given (``--strategies``).
TAKES_STRATEGIES = ("strategy_ladder",)
#: The studies that judge the rule sets they are given (``--variant``, ``--base``).
TAKES_RULE_SETS = ("house_rules",)
#: The studies whose fields may be a pair of any two strategies (``STRONGER/WEAKER``).
TAKES_FIELD_PAIRS = ("house_rules",)
#: The fields of a study that plays other fields than :data:`SHARED_FIELDS`.
KNOWN_FIELDS: dict[str, tuple[str, ...]] = {
    "variant_scoring": (*SHARED_FIELDS, "maximiser_mix"),
    "house_rules": ("weak", "strong"),
}


def known_fields(name: str) -> tuple[str, ...]:
    """The strategy fields study ``name`` can play."""
    return KNOWN_FIELDS.get(name, SHARED_FIELDS)
