"""Strict mode: the payload validates against schema v2 as it came over the wire, or the call
is invalid and yields no evidence.

Validation goes through JSON (``model_validate_json``) because tool output is JSON: a year
sent as the string "2025" is a contract violation, not something to coerce silently.
"""

from __future__ import annotations

import json
from typing import Any

from pydantic import ValidationError

from middleware.contract.result import ContractResult, describe, is_missing, missing
from simulator.endpoints.payload import SearchPayload


def validate(raw: Any, repairs: tuple[str, ...] = ()) -> ContractResult:
    """Validate ``raw`` against the v2 schema, carrying ``repairs`` into the result."""
    try:
        text = json.dumps(raw)
    except (TypeError, ValueError) as err:
        return ContractResult(valid=False, status="invalid", repairs=repairs,
                              errors=(f"payload is not JSON: {err}",))
    try:
        payload = SearchPayload.model_validate_json(text)
    except ValidationError as err:
        return ContractResult(valid=False, status="invalid", repairs=repairs,
                              errors=describe(err))
    return ContractResult(payload=payload, valid=True, status="ok", repairs=repairs)


def check_strict(raw: Any) -> ContractResult:
    """Accept a schema-v2 payload as is; anything else is missing or invalid."""
    if is_missing(raw):
        return missing()
    return validate(raw)
