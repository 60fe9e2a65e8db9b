"""Statistics over scored rows: paired effects, two bootstraps, interval scope, layer credit.

Everything here is a pure function of rows (``ArchiveRow`` or anything with the same
attributes) and a seed, so a report and a recompute from its archive agree exactly.
"""

from simulator.stats.bootstrap import (
    BOOTSTRAP_KINDS,
    BootstrapKind,
    hierarchical_bootstrap,
    percentile_interval,
)
from simulator.stats.crossed import crossed_bootstrap
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
from simulator.stats.scope import (
    FEW_MODEL_UNITS,
    FEW_MODELS_CAVEAT,
    ONE_MODEL_CAVEAT,
    interval_caveat,
    interval_design,
)

__all__ = [
    "BOOTSTRAP_KINDS",
    "FEW_MODELS_CAVEAT",
    "FEW_MODEL_UNITS",
    "MODEL_UNIT",
    "ONE_MODEL_CAVEAT",
    "PAIR_ON_ARM",
    "PAIR_ON_CONTRACT_MODE",
    "POLICY_UNIT",
    "BootstrapKind",
    "Effect",
    "Specificity",
    "crossed_bootstrap",
    "hierarchical_bootstrap",
    "interval_caveat",
    "interval_design",
    "ordered_modes",
    "ordered_scenarios",
    "paired_difference",
    "percentile_interval",
    "scenarios_targeting",
    "specificity",
    "specificity_margin",
    "target_layer",
]
