"""The outcome of the contract step for one tool call."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from simulator.endpoints.payload import SearchPayload

ContractStatus = Literal["ok", "missing", "invalid"]
MAX_ERRORS = 5


class ContractResult(BaseModel):
    """What the contract made of a raw tool output.

    ``payload`` is set exactly when ``valid``: an invalid or missing output yields no
    evidence. ``repairs`` lists every normalization repair mode applied (empty in strict).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    payload: SearchPayload | None = None
    valid: bool
    status: ContractStatus
    repairs: tuple[str, ...] = ()
    errors: tuple[str, ...] = ()


def is_missing(raw: Any) -> bool:
    """No usable body: nothing, an empty object, or an object without any result list."""
    if raw is None:
        return True
    return isinstance(raw, dict) and ("hits" not in raw and "results" not in raw)


def missing(repairs: tuple[str, ...] = ()) -> ContractResult:
    return ContractResult(valid=False, status="missing", repairs=repairs,
                          errors=("no usable tool output",))


def describe(err: ValidationError) -> tuple[str, ...]:
    """Short ``field.path: message`` lines, at most MAX_ERRORS."""
    lines = []
    for item in err.errors()[:MAX_ERRORS]:
        where = ".".join(str(p) for p in item["loc"]) or "payload"
        lines.append(f"{where}: {item['msg']}")
    extra = err.error_count() - MAX_ERRORS
    if extra > 0:
        lines.append(f"... and {extra} more")
    return tuple(lines)
