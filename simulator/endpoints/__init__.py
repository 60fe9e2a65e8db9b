"""Tool endpoints and their versioned payload schemas.

``PolicyEnvironment`` serves ``search_policies`` (schema v2, :mod:`.payload`) and
``fetch_document`` (schema v1, :mod:`.document_payload`) over one corpus, in whatever
operational state (:class:`EndpointConditions`) a fault puts it.
"""

from simulator.endpoints.conditions import (
    HEALTHY,
    EndpointConditions,
    MetadataCorruption,
    ShardOutage,
)
from simulator.endpoints.document_payload import DocumentPayload, document_payload_schema
from simulator.endpoints.environment import TOOL_NAMES, PolicyEnvironment
from simulator.endpoints.payload import SCHEMA_VERSION, SearchPayload, search_payload_schema
from simulator.endpoints.registry import DocumentRegistry
from simulator.endpoints.shards import DEFAULT_SHARDS, shard_of, shards_down

__all__ = [
    "DEFAULT_SHARDS", "DocumentPayload", "DocumentRegistry", "EndpointConditions", "HEALTHY",
    "MetadataCorruption", "PolicyEnvironment", "SCHEMA_VERSION", "SearchPayload",
    "ShardOutage", "TOOL_NAMES", "document_payload_schema", "search_payload_schema",
    "shard_of", "shards_down",
]
