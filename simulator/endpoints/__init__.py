"""Tool endpoints and their versioned payload schemas.

``PolicyEnvironment`` serves ``search_policies`` (schema v2, :mod:`.payload`) and
``fetch_document`` (schema v1, :mod:`.document_payload`) over one corpus, in whatever
operational state (:class:`EndpointConditions`) a fault puts it. Its primitives (index
snapshots, the session-keyed cache, shards, the access filter) are listed in
:mod:`.environment`; the faults that use them live in ``middleware/faults/``.
"""

from simulator.endpoints.conditions import HEALTHY, EndpointConditions, MetadataCorruption
from simulator.endpoints.document_payload import DocumentPayload, document_payload_schema
from simulator.endpoints.environment import TOOL_NAMES, PolicyEnvironment
from simulator.endpoints.payload import SCHEMA_VERSION, SearchPayload, search_payload_schema
from simulator.endpoints.registry import DocumentRegistry
from simulator.endpoints.search import readable
from simulator.endpoints.shards import DEFAULT_SHARDS, shard_names, shard_of

__all__ = [
    "DEFAULT_SHARDS", "DocumentPayload", "DocumentRegistry", "EndpointConditions", "HEALTHY",
    "MetadataCorruption", "PolicyEnvironment", "SCHEMA_VERSION", "SearchPayload",
    "TOOL_NAMES", "document_payload_schema", "readable", "search_payload_schema",
    "shard_names", "shard_of",
]
