"""Synthetic archive rows with the paper's failure structure, for benchmarks and tests.

No corpus, agent or provider is involved: outcomes are drawn from a seeded latent model
whose success rates resemble the paper's Table 4 (schema drift 0 -> ~0.9, negative controls
at 0, partial timeout ~0.3), with per-model ability, per-unit difficulty shared by the three
variants (so variants are correlated, as in enterprise_v2), and the same latent draw for a
task in both contract modes (so strict and repair outcomes are paired). Never used on runs.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np

from simulator.archive.row import ArchiveRow
from simulator.vocabulary import CONTRACT_MODES, SCENARIO_NAMES, FailureLayer

SUCCESS_PROFILE: dict[str, dict[str, float]] = {
    "clean": {"strict": 0.93, "repair": 0.93},
    "stale_index": {"strict": 0.0, "repair": 0.0},
    "schema_drift": {"strict": 0.0, "repair": 0.913},
    "partial_timeout": {"strict": 0.314, "repair": 0.308},
    "missing_tool_output": {"strict": 0.0, "repair": 0.0},
    "permission_denied": {"strict": 0.0, "repair": 0.0},
    "wrong_session": {"strict": 0.0, "repair": 0.0},
    "conflicting_evidence": {"strict": 0.85, "repair": 0.85},
    "corrupted_metadata": {"strict": 0.55, "repair": 0.55},
}
"""Scenario -> mode -> target strict success rate (unknown scenarios and modes: 0.5)."""

_FAILURE_LAYER: dict[str, FailureLayer] = {
    "clean": "retrieval", "stale_index": "freshness", "schema_drift": "reader",
    "partial_timeout": "completeness", "missing_tool_output": "completeness",
    "permission_denied": "authorization", "wrong_session": "session",
    "conflicting_evidence": "evidence", "corrupted_metadata": "metadata",
}
_ABSTAINS = {"missing_tool_output", "permission_denied"}
"""Scenarios where the pipeline stops before a prompt and the reader returns a non-answer."""
_GROUNDED_FAILURE = {"stale_index": 0.9, "wrong_session": 0.78}
"""Scenarios whose failures are mostly grounded in (wrong) retrieved evidence."""
_PROVIDERS = ("openai", "anthropic", "google")
_DOMAINS = ("returns", "paid_time_off", "support", "security", "finance",
            "human_resources", "legal", "it_operations")


def _hash(*parts: object) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()


def synthetic_rows(
    *,
    models: int = 9,
    tasks: int = 240,
    variants: int = 3,
    scenarios: Sequence[str] = SCENARIO_NAMES,
    modes: Sequence[str] = CONTRACT_MODES,
    arms: Sequence[str] = ("baseline",),
    provider_error_rate: float = 0.0,
    seed: int = 0,
    run_id: str = "synthetic",
) -> list[ArchiveRow]:
    """``models x scenarios x modes x arms x tasks`` rows; the same seed gives the same rows."""
    rng = np.random.default_rng(seed)
    units = -(-tasks // variants)
    ability = rng.normal(0.0, 0.04, size=models)
    difficulty = rng.random(size=(models, len(scenarios), units))
    wobble = rng.random(size=(models, len(scenarios), tasks))
    shared = rng.random(size=(models, len(scenarios), tasks)) < 0.75
    side = rng.random(size=(models, len(scenarios), len(modes), len(arms), tasks, 2))
    rows: list[ArchiveRow] = []
    for m in range(models):
        provider = _PROVIDERS[m % len(_PROVIDERS)]
        model = f"{provider}:model-{m + 1}"
        for s, scenario in enumerate(scenarios):
            for k, mode in enumerate(modes):
                p = SUCCESS_PROFILE.get(scenario, {}).get(mode, 0.5)
                p = 0.0 if p == 0.0 else min(1.0, max(0.0, p + ability[m]))
                for a, arm in enumerate(arms):
                    for t in range(tasks):
                        unit, variant = divmod(t, variants)
                        # A mixture of two uniforms is uniform: rates match the profile,
                        # and variants sharing their unit's draw are correlated.
                        latent = (difficulty[m, s, unit] if shared[m, s, t]
                                  else wobble[m, s, t])
                        error = bool(side[m, s, k, a, t, 1] < provider_error_rate)
                        rows.append(_row(run_id, provider, model, scenario, mode, arm, t, unit,
                                         variant, success=bool(latent < p) and not error,
                                         coin=float(side[m, s, k, a, t, 0]), error=error))
    return rows


def _row(run_id: str, provider: str, model: str, scenario: str, mode: str, arm: str,
         task_row: int, unit: int, variant: int, *, success: bool, coin: float,
         error: bool) -> ArchiveRow:
    no_prompt = scenario in _ABSTAINS or (scenario == "schema_drift" and mode == "strict")
    abstained = not success and not error and (no_prompt or coin < 0.1)
    grounded = success or (not abstained and not error
                           and coin < _GROUNDED_FAILURE.get(scenario, 0.3))
    layer: FailureLayer | None
    if success:
        layer = None
    elif error:
        layer = "provider"
    elif abstained:
        layer = "contract" if scenario == "schema_drift" else "abstained"
    else:
        layer = _FAILURE_LAYER.get(scenario, "reader")
    answerable = scenario in {"clean", "conflicting_evidence", "corrupted_metadata"} or (
        scenario == "schema_drift" and mode != "strict")
    return ArchiveRow(
        run_id=run_id, provider=provider, model=model, scenario=scenario, contract_mode=mode,
        arm=arm, task_row=task_row, unit=unit, variant=variant,
        domain=_DOMAINS[unit % len(_DOMAINS)], E=success, R=success or grounded, G=grounded,
        V=not (scenario == "schema_drift" and mode == "strict"), S=success,
        abstained=abstained, grounded=grounded,
        safe_resolution=success or (abstained and not answerable), provider_error=error,
        failure_layer=layer,
        prompt_hash=None if no_prompt or error else _hash(model, scenario, mode, arm, task_row),
    )
