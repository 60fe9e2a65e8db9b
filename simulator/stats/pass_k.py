"""tau-bench's pass^k: the chance that k trials of a task, drawn from its n, all succeed.

pass@k asks whether any of k tries works; pass^k asks whether an agent is reliable, so it
falls as k grows. Per task with n trials and c successes the unbiased estimate is
C(c, k) / C(n, k); the score is its mean over tasks. pass^1 is the mean success rate. Generic
over task keys, so it serves cases, tasks or anything repeated.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from math import comb


def pass_hat_k(successes: Mapping[str, Sequence[bool]], k: int) -> float:
    """Mean over tasks of C(c, k) / C(n, k); every task needs at least k trials."""
    if k < 1:
        raise ValueError(f"pass^k: k must be at least 1, got {k}")
    if not successes:
        raise ValueError("pass^k: no tasks")
    total = 0.0
    for key, trials in successes.items():
        n = len(trials)
        if n < k:
            raise ValueError(f"pass^k: task {key} has {n} trials, fewer than k={k}")
        total += comb(sum(bool(t) for t in trials), k) / comb(n, k)
    return total / len(successes)


__all__ = ["pass_hat_k"]
