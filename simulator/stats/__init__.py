"""Statistics over scored rows: paired effects, the hierarchical bootstrap, layer credit.

Everything here is a pure function of rows (``ArchiveRow`` or anything with the same
attributes) and a seed, so a report and a recompute from its archive agree exactly.
"""

from simulator.stats.bootstrap import hierarchical_bootstrap, percentile_interval
from simulator.stats.layers import (
    ordered_modes,
    ordered_scenarios,
    scenarios_targeting,
    target_layer,
)
from simulator.stats.margin import Specificity, specificity, specificity_margin
from simulator.stats.paired import (
    MODEL_UNIT,
    PAIR_ON_ARM,
    PAIR_ON_CONTRACT_MODE,
    POLICY_UNIT,
    Effect,
    paired_difference,
)

__all__ = [
    "MODEL_UNIT",
    "PAIR_ON_ARM",
    "PAIR_ON_CONTRACT_MODE",
    "POLICY_UNIT",
    "Effect",
    "Specificity",
    "hierarchical_bootstrap",
    "ordered_modes",
    "ordered_scenarios",
    "paired_difference",
    "percentile_interval",
    "scenarios_targeting",
    "specificity",
    "specificity_margin",
    "target_layer",
]
