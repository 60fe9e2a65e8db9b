"""The fetch_document payload, schema v1: a document's registry record, never its text.

``fetch_document(doc_id, session)`` reads the *live* registry, whatever index snapshot the
search endpoint served. A freshness check uses it to learn that a retrieved document has a
newer version (``superseded_by``). It returns metadata only: a registry lookup must not become
a side door to evidence the search did not return, and a caller who may not read the
document learns only that access was denied.
"""

from __future__ import annotations

import hashlib
from typing import Literal

from pydantic import BaseModel, ConfigDict

DOCUMENT_SCHEMA_VERSION: Literal["1"] = "1"


class DocumentPayload(BaseModel):
    """What ``fetch_document(doc_id, session)`` returns."""

    model_config = ConfigDict(frozen=True, extra="forbid", strict=True)

    schema_version: Literal["1"] = DOCUMENT_SCHEMA_VERSION
    doc_id: str
    session_id: str
    """The session the registry answered for."""
    found: bool
    denied: bool = False
    """The caller's access groups cannot read the document: every field below is None."""
    title: str | None = None
    domain: str | None = None
    status: Literal["current", "superseded"] | None = None
    effective_year: int | None = None
    version: str | None = None
    access_group: str | None = None
    tenant: str | None = None
    superseded_by: str | None = None
    """The id of the next newer version, when one exists."""
    text_sha256: str | None = None
    """SHA-256 of the registered text: lets a caller check that a hit's text is the one
    published (an integrity check) without handing out any text."""


def text_digest(text: str) -> str:
    """The digest ``text_sha256`` holds: SHA-256 of the UTF-8 text, hex."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def document_payload_schema() -> dict[str, object]:
    """The fetch_document contract, as JSON schema."""
    return DocumentPayload.model_json_schema()
