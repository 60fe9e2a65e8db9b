"""Repair mode: bounded normalization, then the strict check.

Three moves, all from the finite tables in :mod:`middleware.contract.aliases`, each recorded
as a short string: version mapping (v3 -> v2), field aliases (renames and re-nesting) and
type coercion (a digit string to an int, a numeric string to a float). What repair never does
is just as much the contract: it never invents a field that is absent (a missing body stays
missing), never drops a field it does not know (the payload stays invalid), and never
touches access, session, snapshot or hits beyond their shape, so a denied, stale or
wrong-session payload comes out exactly as it went in.
"""

from __future__ import annotations

import copy
import re
from typing import Any

from middleware.contract.aliases import (
    HIT_FLOAT_FIELDS,
    HIT_INT_FIELDS,
    INT_FIELDS,
    KNOWN_VERSIONS,
    V3_HIT,
    V3_HITS,
    V3_TOP,
)
from middleware.contract.result import ContractResult, is_missing, missing
from middleware.contract.strict import validate

_INT = re.compile(r"^[+-]?\d+$")
_FLOAT = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_ABSENT = object()


def check_repair(raw: Any) -> ContractResult:
    """Accept v2 as is; otherwise normalize within the tables and validate strictly."""
    if is_missing(raw):
        return missing()
    if not isinstance(raw, dict):
        return validate(raw)
    if raw.get("schema_version") == "2":
        first = validate(raw)
        if first.valid:
            return first
    repairs: list[str] = []
    problems: list[str] = []
    normalized = _map_version(raw, repairs, problems)
    if problems:
        return ContractResult(valid=False, status="invalid", repairs=tuple(repairs),
                              errors=tuple(problems))
    if is_missing(normalized):
        return missing(tuple(repairs))
    _coerce(normalized, repairs)
    return validate(normalized, tuple(repairs))


def _map_version(raw: dict[str, Any], repairs: list[str], problems: list[str]
                 ) -> dict[str, Any]:
    version = raw.get("schema_version", _ABSENT)
    if isinstance(version, int) and not isinstance(version, bool):
        repairs.append(f"coerced schema_version int->str ({version})")
        version = str(version)
    if version not in KNOWN_VERSIONS:
        shown = "absent" if version is _ABSENT else repr(version)
        problems.append(f"schema_version {shown} is not a known version "
                        f"({', '.join(KNOWN_VERSIONS)})")
        return raw
    if version == "2":
        return {**copy.deepcopy(raw), "schema_version": "2"}  # coercion must not touch raw
    repairs.append("mapped schema_version 3->2")
    return _from_v3(raw, repairs, problems)


def _from_v3(raw: dict[str, Any], repairs: list[str], problems: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {"schema_version": "2"}
    consumed = {"schema_version"}
    for dst, src in V3_TOP:
        if _move(raw, src, out, dst):
            consumed.add(src)
            if dst != src:
                repairs.append(f"renamed {src}->{dst}")
    v2_list, v3_list = V3_HITS
    results = raw.get(v3_list, _ABSENT)
    if results is not _ABSENT:
        consumed.add(v3_list)
        repairs.append(f"renamed {v3_list}->{v2_list}")
        if not isinstance(results, list):
            problems.append(f"{v3_list} is not a list")
            return out
        out[v2_list] = [_hit_from_v3(h, i, repairs, problems) for i, h in enumerate(results)]
    problems.extend(f"unmapped v3 field {p}" for p in _leaves(raw) if not _covered(p, consumed))
    return out


def _hit_from_v3(hit: Any, position: int, repairs: list[str], problems: list[str]) -> Any:
    if not isinstance(hit, dict):
        problems.append(f"results.{position} is not an object")
        return hit
    out: dict[str, Any] = {}
    consumed: set[str] = set()
    for dst, src in V3_HIT:
        if _move(hit, src, out, dst):
            consumed.add(src)
            note = f"renamed results[].{src}->hits[].{dst}"
            if dst != src and note not in repairs:
                repairs.append(note)
    problems.extend(f"unmapped v3 field results.{position}.{p}"
                    for p in _leaves(hit) if not _covered(p, consumed))
    return out


def _coerce(payload: dict[str, Any], repairs: list[str]) -> None:
    """Coerce known numeric fields given as strings, in place on the normalized copy."""
    for path in INT_FIELDS:
        if _coerce_at(payload, path, int):
            repairs.append(f"coerced {path} str->int")
    hits = payload.get("hits")
    if not isinstance(hits, list):
        return
    for path, kind in ((p, int) for p in HIT_INT_FIELDS):
        if sum(_coerce_at(h, path, kind) for h in hits if isinstance(h, dict)):
            repairs.append(f"coerced hits[].{path} str->int")
    for path in HIT_FLOAT_FIELDS:
        if sum(_coerce_at(h, path, float) for h in hits if isinstance(h, dict)):
            repairs.append(f"coerced hits[].{path} str->float")


def _coerce_at(obj: dict[str, Any], path: str, kind: type) -> bool:
    *parents, leaf = path.split(".")
    for part in parents:
        obj = obj.get(part)  # type: ignore[assignment]
        if not isinstance(obj, dict):
            return False
    value = obj.get(leaf)
    if not isinstance(value, str):
        return False
    pattern = _INT if kind is int else _FLOAT
    if not pattern.match(value.strip()):
        return False
    obj[leaf] = kind(value.strip())
    return True


def _move(src: dict[str, Any], src_path: str, dst: dict[str, Any], dst_path: str) -> bool:
    """Copy the value at ``src_path`` to ``dst_path`` (creating parents); False if absent."""
    value: Any = src
    for part in src_path.split("."):
        if not isinstance(value, dict) or part not in value:
            return False
        value = value[part]
    *parents, leaf = dst_path.split(".")
    target = dst
    for part in parents:
        target = target.setdefault(part, {})
    target[leaf] = value
    return True


def _leaves(obj: dict[str, Any], prefix: str = "") -> list[str]:
    paths = []
    for key, value in obj.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            paths.extend(_leaves(value, f"{path}."))
        else:
            paths.append(path)
    return paths


def _covered(path: str, consumed: set[str]) -> bool:
    """Was ``path`` (or a parent of it) taken by the table?"""
    parts = path.split(".")
    return any(".".join(parts[:i]) in consumed for i in range(1, len(parts) + 1))
