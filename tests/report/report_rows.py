"""Hand-made archive rows for report tests: one helper, every field explicit."""

from __future__ import annotations

from typing import Any

from simulator.archive.row import ArchiveRow


def row(**overrides: Any) -> ArchiveRow:
    """A failed, ungrounded strict-mode clean record unless told otherwise."""
    base: dict[str, Any] = dict(
        run_id="r", provider="local", model="deterministic", scenario="clean",
        contract_mode="strict", arm="baseline", task_row=0, unit=0, variant=0,
        domain="returns", E=False, R=False, G=False, V=True, S=False, abstained=False,
        grounded=False, safe_resolution=False, provider_error=False,
        failure_layer="reader", prompt_hash="ab" * 32)
    base.update(overrides)
    if base["S"]:
        base.update(E=True, R=True, G=True, V=True, grounded=True, safe_resolution=True,
                    failure_layer=None)
    return ArchiveRow(**base)


def success(**overrides: Any) -> ArchiveRow:
    return row(S=True, **overrides)
