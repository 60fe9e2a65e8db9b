"""What each fault did to a tool result, read off the result itself.

A fault does not report what it did (faults are small request/response steps, and the same
fault runs under a user's tools where nobody listens); the result shows it. So each search's
observation is compared with what an unfaulted endpoint promises (the live index, the
caller's session, no withheld hits, schema v2) and each hit with the registry's own copy of
the document (status, year, version, domain, text). Every difference is one line, credited
to the scenario's fault whose mechanic produces that kind of difference, or to its only
fault, or to none (said so: a difference the scenario does not explain is worth seeing).

Evaluator-side: the registry copy is the corpus, which the agent never sees.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from simulator.agent.trace import ToolCallTrace
from simulator.retrieval.index import LIVE_SNAPSHOT

_CREDIT: dict[str, tuple[str, ...]] = {
    "missing": ("missing_tool_output",),
    "schema": ("schema_drift",),
    "snapshot": ("stale_index",),
    "partial": ("partial_timeout",),
    "access": ("permission_denied",),
    "session": ("wrong_session",),
    "metadata": ("corrupted_metadata", "stale_index", "conflicting_evidence"),
    "text": ("misleading_evidence",),
    "notes": ("conflicting_evidence",),
}
"""Which registered faults produce each kind of difference (first match in the scenario)."""
_SCHEMA_MAP = re.compile(r"mapped schema_version (\S+)->(\S+)")
_META = (("status", "status"), ("effective_year", "effective_year"), ("version", "version"),
         ("domain", "domain"))

Effect = dict[str, Any]
Registry = Callable[[str], Any]
"""doc id -> the registry's document (``Corpus.document``), raising KeyError if unknown."""


def credited(kind: str, faults: Sequence[str]) -> str | None:
    """The scenario fault that explains a difference of ``kind``, or None."""
    for name in _CREDIT.get(kind, ()):
        if name in faults:
            return name
    return faults[0] if len(faults) == 1 else None


def search_effects(call: ToolCallTrace, payload: Any, faults: Sequence[str], *,
                   caller_session: str, registry: Registry, top_k: int) -> list[Effect]:
    """The differences one contract-checked search result shows (``payload``: its
    :class:`~simulator.endpoints.payload.SearchPayload`, or None when it had none)."""
    out: list[Effect] = []

    def add(kind: str, effect: str) -> None:
        out.append({"fault": credited(kind, faults), "effect": effect})

    if call.status == "missing":
        add("missing", "returned no usable output")
    schema = _schema_effect(call)
    if schema is not None:
        add("schema", schema)
    if payload is None:
        return out
    if call.snapshot_id not in (None, LIVE_SNAPSHOT):
        add("snapshot", f"served the stale index snapshot {call.snapshot_id} "
                        f"(built {payload.index.built_year})")
    if call.partial:
        shards = ", ".join(call.missing_shards) or "some shards"
        add("partial", f"{shards} timed out: {len(payload.hits)} of {top_k} results came "
                       "back, flagged partial")
    if call.access_denied or payload.access.withheld_count:
        why = f": {payload.access.reason}" if payload.access.reason else ""
        add("access", f"withheld {payload.access.withheld_count} results from this "
                      f"caller{why}")
    if call.session_id is not None and call.session_id != caller_session:
        add("session", f"answered from another session's state ({call.session_id}, not "
                       f"the caller's {caller_session})")
    for hit in payload.hits:
        out.extend({"fault": credited(kind, faults), "effect": effect}
                   for kind, effect in _hit_effects(hit, registry))
    if payload.notes and "conflicting_evidence" in faults:
        add("notes", f"attached a notice: {payload.notes[0][:200]}")
    return out


def _schema_effect(call: ToolCallTrace) -> str | None:
    for repair in call.repairs:
        found = _SCHEMA_MAP.search(repair)
        if found:
            return (f"schema drifted v{found.group(2)}->v{found.group(1)}; the repair "
                    f"contract mapped it back ({len(call.repairs)} repairs)")
    if call.status == "invalid" and any(e.startswith("schema_version") for e in call.errors):
        return ("schema drifted off v2: rejected by the strict contract ("
                + "; ".join(call.errors[:2]) + ")")
    return None


def _hit_effects(hit: Any, registry: Registry) -> list[tuple[str, str]]:
    """How a hit differs from the registry's copy of its document."""
    try:
        doc = registry(hit.doc_id)
    except KeyError:
        return [("metadata", f"{hit.doc_id}: not a document of the registry")]
    out: list[tuple[str, str]] = []
    changed = [f"{label} {getattr(hit.metadata, attr)!s} (registry: {getattr(doc, attr)!s})"
               for attr, label in _META if getattr(hit.metadata, attr) != getattr(doc, attr)]
    if changed:
        out.append(("metadata", f"{hit.doc_id} shown with " + ", ".join(changed)))
    if hit.text != doc.text:
        out.append(("text", f"{hit.doc_id}: text edited (differs from the registry's copy)"))
    return out
