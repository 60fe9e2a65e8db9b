"""Contract modes: what the agent makes of a raw tool output before it becomes evidence.

- ``strict``: the payload must validate against schema v2 as sent; otherwise the call is
  invalid (V = false) and yields no evidence. No output at all is ``missing``.
- ``repair``: bounded normalization (version mapping, field aliases, type coercion), every
  repair recorded, then the strict check. It never invents missing evidence, never
  un-denies, never refreshes an index and never fixes session context.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from middleware.contract.repair import check_repair
from middleware.contract.result import ContractResult, ContractStatus, is_missing
from middleware.contract.strict import check_strict
from simulator.registry import Registry
from simulator.vocabulary import CONTRACT_MODES, ContractMode

contract_modes: Registry[Callable[[Any], ContractResult]] = Registry("contract mode")
contract_modes.add("strict", check_strict)
contract_modes.add("repair", check_repair)


def check_contract(raw: Any, mode: str = "strict") -> ContractResult:
    """Apply contract ``mode`` to a raw ``search_policies`` output (dict or None)."""
    return contract_modes.get(mode)(raw)


__all__ = ["CONTRACT_MODES", "ContractMode", "ContractResult", "ContractStatus",
           "check_contract", "check_repair", "check_strict", "contract_modes", "is_missing"]
