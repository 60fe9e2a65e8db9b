"""A vectorized two-level (hierarchical) bootstrap of a pooled mean.

The design is nested: model units (provider x model) contain policy units, and a policy
unit's three question variants are correlated coverage, not independent samples. One
replicate therefore

1. draws as many model units as there are, with replacement, then
2. inside each drawn model unit, draws as many clusters (policy units) as that model unit
   has, with replacement, keeping every row of a drawn cluster together,

and returns the pooled mean of the drawn rows. With a single model unit step 1 has one
choice, so the interval reflects task sampling only.

This is the paper's method and the default. When every model unit answers the same policy
units (a crossed design), :func:`simulator.stats.crossed.crossed_bootstrap` also counts the
variance the models share through those units; :data:`BootstrapKind` names the two.

Everything is done on per-cluster sums with numpy fancy indexing; no Python loop runs per
replicate. Replicates are drawn in blocks so memory stays bounded for large designs.
"""

from __future__ import annotations

from typing import Literal, get_args

import numpy as np
import numpy.typing as npt

BootstrapKind = Literal["nested", "crossed"]
"""How an interval resamples: ``nested`` draws policy units inside each drawn model unit
(the paper's); ``crossed`` draws model units and policy units independently and keeps every
cell of the drawn pairs."""
BOOTSTRAP_KINDS: tuple[BootstrapKind, ...] = get_args(BootstrapKind)

_BLOCK_ELEMENTS = 4_000_000
"""Upper bound on (replicates x model units x clusters) drawn at once (~32 MB per array)."""


def coded_sample(
    values: npt.ArrayLike,
    units: npt.ArrayLike,
    clusters: npt.ArrayLike,
    *,
    replicates: int,
    names: str = "values, units and clusters",
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.intp], npt.NDArray[np.intp]]:
    """A bootstrap's checked inputs: the values as floats, units and clusters as codes 0..n-1.

    Raises:
        ValueError: mismatched or empty inputs, or fewer than one replicate.
    """
    vals = np.asarray(values, dtype=np.float64)
    unit_codes = np.unique(np.asarray(units), return_inverse=True)[1].ravel()
    cluster_codes = np.unique(np.asarray(clusters), return_inverse=True)[1].ravel()
    if not (vals.shape == unit_codes.shape == cluster_codes.shape) or vals.ndim != 1:
        raise ValueError(f"{names} must be 1-d and of equal length")
    if vals.size == 0:
        raise ValueError("cannot bootstrap an empty sample")
    if replicates < 1:
        raise ValueError("replicates must be at least 1")
    return vals, unit_codes, cluster_codes


def hierarchical_bootstrap(
    values: npt.ArrayLike,
    units: npt.ArrayLike,
    clusters: npt.ArrayLike,
    *,
    replicates: int = 2000,
    seed: int = 0,
) -> npt.NDArray[np.float64]:
    """Replicate means of ``values`` under the two-level resampling described above.

    Args:
        values: one number per row (e.g. a paired difference in {-1, 0, 1}).
        units: the model unit of each row (any hashable codes).
        clusters: the cluster of each row; a cluster must lie inside one model unit.
        replicates: how many bootstrap replicates to draw.
        seed: seeds the numpy generator; the same inputs and seed give the same replicates.

    Returns:
        An array of ``replicates`` pooled means.
    """
    vals, unit_codes, cluster_codes = coded_sample(values, units, clusters,
                                                   replicates=replicates)
    cluster_sum = np.bincount(cluster_codes, weights=vals)
    cluster_size = np.bincount(cluster_codes).astype(np.float64)
    cluster_unit = np.zeros(cluster_sum.size, dtype=np.int64)
    cluster_unit[cluster_codes] = unit_codes
    if np.any(cluster_unit[cluster_codes] != unit_codes):
        raise ValueError("a cluster spans more than one model unit")

    # Lay clusters out unit by unit so unit u owns the slice start[u] : start[u] + k[u].
    order = np.argsort(cluster_unit, kind="stable")
    cluster_sum, cluster_size = cluster_sum[order], cluster_size[order]
    per_unit = np.bincount(cluster_unit)
    start = np.concatenate(([0], np.cumsum(per_unit)[:-1]))
    n_units, k_max = per_unit.size, int(per_unit.max())

    rng = np.random.default_rng(seed)
    block = max(1, _BLOCK_ELEMENTS // (n_units * k_max))
    out = np.empty(replicates, dtype=np.float64)
    slot = np.arange(k_max)
    for lo in range(0, replicates, block):
        size = min(block, replicates - lo)
        drawn_units = rng.integers(0, n_units, size=(size, n_units))
        k = per_unit[drawn_units][..., None]                       # (size, units, 1)
        pick = np.minimum((rng.random((size, n_units, k_max)) * k).astype(np.int64), k - 1)
        index = start[drawn_units][..., None] + pick
        live = slot < k                                            # pad ragged units
        totals = np.where(live, cluster_sum[index], 0.0).sum(axis=(1, 2))
        counts = np.where(live, cluster_size[index], 0.0).sum(axis=(1, 2))
        out[lo:lo + size] = totals / counts
    return out


def percentile_interval(
    replicates: npt.ArrayLike, level: float = 0.95
) -> tuple[float, float]:
    """The equal-tailed percentile interval of bootstrap replicates."""
    tail = (1.0 - level) / 2.0 * 100.0
    low, high = np.percentile(np.asarray(replicates, dtype=np.float64), [tail, 100.0 - tail])
    return float(low) + 0.0, float(high) + 0.0  # + 0.0 turns -0.0 into 0.0
