"""A vectorized crossed (two-way) bootstrap of a pooled mean: model units x policy units.

In the reference corpus every model unit answers the *same* policy units, so the design is
crossed, not nested: a hard policy unit is hard for every model, and that shared difficulty
moves every model's score together. The nested bootstrap
(:func:`~simulator.stats.bootstrap.hierarchical_bootstrap`) redraws policy units separately
inside each model unit, which treats the models' errors as independent and so under-counts
that shared variance once there are several model units.

One crossed replicate instead

1. draws as many model units as there are, with replacement,
2. draws as many policy units as there are, with replacement, independently of step 1, and
3. keeps every (model unit, policy unit) cell of the drawn pairs, all rows of a cell
   together (so a unit's correlated question variants stay together, as in the nested one),

and returns the pooled mean of the kept rows. A cell drawn ``i`` times at the model level
and ``j`` times at the unit level counts ``i * j`` times: the "pigeonhole" bootstrap (Owen,
2007, Ann. Appl. Stat. 1(2), 386-411). With a single model unit step 1 has one choice and
the replicate is a resampling of policy units: the interval reflects task sampling for that
model only, as with the nested bootstrap. A cell no row falls in (a model unit that did not
answer a policy unit) contributes nothing; in a sparse design a replicate can then keep no
row at all, and since the mean of nothing is undefined such a replicate is drawn again.

The pigeonhole bootstrap is mildly conservative about the within-cell noise (it counts it
about three times instead of once; Owen 2007) and, like any bootstrap over few model units,
it cannot see more model-to-model spread than the sampled models show;
benchmarks/coverage.py measures what that means for coverage.

Per replicate the work is two matrix products on per-cell sums: the draws are count vectors
``c`` (model units) and ``d`` (policy units), and the replicate mean is
``c @ S @ d / c @ N @ d`` for the cell sums ``S`` and cell sizes ``N``. Replicates are drawn
in blocks so memory stays bounded.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from simulator.stats.bootstrap import coded_sample

_BLOCK_ELEMENTS = 4_000_000
"""Upper bound on replicates x (model units + 2 x policy units): the numbers one block holds
(both count arrays and the model-weighted cell sums), ~32 MB at float64."""


def _draw_counts(rng: np.random.Generator, n: int, size: int) -> npt.NDArray[np.float64]:
    """``size`` rows of how often each of ``n`` items is drawn in ``n`` draws with
    replacement (a multinomial, but by bincount: several times faster than
    ``Generator.multinomial`` row by row)."""
    picks = rng.integers(0, n, size=(size, n)) + n * np.arange(size)[:, None]
    return np.bincount(picks.ravel(), minlength=size * n).reshape(size, n).astype(np.float64)


def crossed_bootstrap(
    values: npt.ArrayLike,
    units: npt.ArrayLike,
    policy_units: npt.ArrayLike,
    *,
    replicates: int = 2000,
    seed: int = 0,
) -> npt.NDArray[np.float64]:
    """Replicate means of ``values`` under the crossed resampling described above.

    Args:
        values: one number per row (e.g. a paired difference in {-1, 0, 1}).
        units: the model unit of each row (any hashable codes).
        policy_units: the policy unit of each row, named the same way in every model unit
            (unlike the nested bootstrap's clusters, which are per model unit).
        replicates: how many bootstrap replicates to draw.
        seed: seeds the numpy generator; the same inputs and seed give the same replicates.

    Returns:
        An array of ``replicates`` pooled means.

    Raises:
        ValueError: mismatched or empty inputs, or fewer than one replicate.
    """
    vals, unit_codes, policy_codes = coded_sample(
        values, units, policy_units, replicates=replicates,
        names="values, units and policy_units")

    n_units, n_policy = int(unit_codes.max()) + 1, int(policy_codes.max()) + 1
    cell = unit_codes * n_policy + policy_codes
    cell_sum = np.bincount(cell, weights=vals, minlength=n_units * n_policy)
    cell_size = np.bincount(cell, minlength=n_units * n_policy).astype(np.float64)
    cell_sum = cell_sum.reshape(n_units, n_policy)
    cell_size = cell_size.reshape(n_units, n_policy)

    rng = np.random.default_rng(seed)

    def draw(size: int) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        unit_counts = _draw_counts(rng, n_units, size)
        policy_counts = _draw_counts(rng, n_policy, size)
        totals = ((unit_counts @ cell_sum) * policy_counts).sum(axis=1)
        counts = ((unit_counts @ cell_size) * policy_counts).sum(axis=1)
        return totals, counts

    block = max(1, _BLOCK_ELEMENTS // (n_units + 2 * n_policy))
    out = np.empty(replicates, dtype=np.float64)
    for lo in range(0, replicates, block):
        totals, counts = draw(min(block, replicates - lo))
        # Any one row is kept with probability >= (1 - 1/e)^2 > 0.39 (its model unit and its
        # policy unit are each drawn with probability >= 1 - 1/e), so this ends quickly.
        while (empty := np.flatnonzero(counts == 0)).size:
            totals[empty], counts[empty] = draw(empty.size)
        out[lo:lo + totals.size] = totals / counts
    return out
