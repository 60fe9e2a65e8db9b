"""freshness_check (freshness): detect evidence served from an index older than the registry.

A stale index hands back the version that was current when the snapshot was built, still
marked ``current``. The search payload cannot reveal that; the live document registry
(``fetch_document``) can: it knows the document was superseded (``superseded_by``) and when
the newer version took effect. When a hit that claims to be current has a newer version that
took effect after the snapshot was built (or one the caller cannot see), the index predates
the registry and the evidence is stale.

The policy then abstains and names the newer version. It does not "refresh": the only fresh
source here is the registry, which by design returns metadata and never text (a registry
lookup must not become a side door to evidence the search did not return), so there is no
fresh evidence to read. A mislabelled superseded hit whose newer version *is* in the index
is not a freshness fault but a metadata one (``metadata_integrity`` owns it).
"""

from __future__ import annotations

from policies.base import Decide, allow, policy
from policies.controls._freshness import stale_hit
from policies.controls._state import last_payload
from simulator.agent.gate import Decision, GateInput


@policy(layers="freshness", claims="non_answer")
def freshness_check() -> Decide:
    """Abstain when the index serves a version the registry says was superseded since."""

    def decide(state: GateInput) -> Decision:
        payload = last_payload(state)
        if payload is None or state.fetch_document is None:
            return allow("nothing to check against the registry")
        built = payload.index.built_year
        for hit in payload.hits:
            stale = stale_hit(state, hit, built)
            if stale is not None:
                when = (f"effective {stale.newer_year}" if stale.newer_year is not None
                        else "not visible to this caller")
                return Decision("abstain", f"stale index: snapshot {payload.index.snapshot_id} "
                                           f"(built {built}) serves {stale.doc_id} as current, "
                                           f"but {stale.newer_id} ({when}) superseded it")
        return allow(f"index snapshot {payload.index.snapshot_id} is as fresh as the registry")

    return decide
