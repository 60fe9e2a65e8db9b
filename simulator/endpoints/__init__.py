"""Tool endpoints and their versioned payload schemas.

``PolicyEnvironment`` serves ``search_policies`` (schema v2, :mod:`.payload`) and
``fetch_document`` (schema v1, :mod:`.document_payload`) over one corpus, in whatever
operational state (:class:`EndpointConditions`) a fault puts it. Its primitives (index
snapshots, the session-keyed cache, shards, the access filter) are listed in
:mod:`.environment`; the faults that use them live in ``middleware/faults/``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.endpoints.conditions import HEALTHY, EndpointConditions, MetadataCorruption
    from simulator.endpoints.document_payload import DocumentPayload, document_payload_schema
    from simulator.endpoints.environment import TOOL_NAMES, PolicyEnvironment
    from simulator.endpoints.payload import SCHEMA_VERSION, SearchPayload, search_payload_schema
    from simulator.endpoints.registry import DocumentRegistry
    from simulator.endpoints.search import readable
    from simulator.endpoints.shards import DEFAULT_SHARDS, shard_names, shard_of

_LAZY = {
    "HEALTHY": "conditions", "EndpointConditions": "conditions",
    "MetadataCorruption": "conditions", "DocumentPayload": "document_payload",
    "document_payload_schema": "document_payload", "TOOL_NAMES": "environment",
    "PolicyEnvironment": "environment", "SCHEMA_VERSION": "payload",
    "SearchPayload": "payload", "search_payload_schema": "payload",
    "DocumentRegistry": "registry", "readable": "search", "DEFAULT_SHARDS": "shards",
    "shard_names": "shards", "shard_of": "shards",
}
"""Each name's module, imported on first use: a policy that reads a payload type must not
pay for the environment's retrieval stack (scikit-learn) just by importing this package."""


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(f"simulator.endpoints.{_LAZY[name]}"), name)
    raise AttributeError(f"module 'simulator.endpoints' has no attribute {name!r}")


__all__ = [
    "DEFAULT_SHARDS", "DocumentPayload", "DocumentRegistry", "EndpointConditions", "HEALTHY",
    "MetadataCorruption", "PolicyEnvironment", "SCHEMA_VERSION", "SearchPayload",
    "TOOL_NAMES", "document_payload_schema", "readable", "search_payload_schema",
    "shard_names", "shard_of",
]
