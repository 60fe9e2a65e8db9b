"""What bounded repair knows: the v3 -> v2 field map and which v2 fields are numbers.

This is a documented, finite table (the service's published v3 change log), not a guesser:
a field it does not list is never moved, renamed or dropped. Paths are dotted; the hit
table applies to every element of ``results`` / ``hits``.
"""

from __future__ import annotations

KNOWN_VERSIONS = ("2", "3")

V3_TOP: tuple[tuple[str, str], ...] = (
    # (v2 path, v3 path)
    ("query", "request.query"),
    ("session_id", "request.session"),
    ("tenant", "request.tenant"),
    ("index.snapshot_id", "index.snapshot"),
    ("index.built_year", "index.built_year"),
    ("index.document_count", "index.document_count"),
    ("partial", "completeness.partial"),
    ("missing_shards", "completeness.missing_shards"),
    ("access.denied", "access.denied"),
    ("access.withheld_count", "access.withheld"),
    ("access.reason", "access.reason"),
    ("notes", "notes"),
)
V3_HITS = ("hits", "results")
V3_HIT: tuple[tuple[str, str], ...] = (
    ("doc_id", "id"),
    ("title", "title"),
    ("text", "body"),
    ("score", "relevance"),
    ("rank", "position"),
    ("metadata.domain", "attributes.domain"),
    ("metadata.status", "attributes.lifecycle.state"),
    ("metadata.effective_year", "attributes.lifecycle.effective_year"),
    ("metadata.version", "attributes.lifecycle.version"),
    ("metadata.access_group", "attributes.acl.group"),
    ("metadata.tenant", "attributes.acl.tenant"),
)

INT_FIELDS = ("index.built_year", "index.document_count", "access.withheld_count")
HIT_INT_FIELDS = ("rank", "metadata.effective_year")
HIT_FLOAT_FIELDS = ("score",)
