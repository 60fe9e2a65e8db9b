"""What the offline driver reads as evidence: a search result in any message, as JSON or as
text.

Real graphs do not hand their model layerrag's JSON. LangChain's RAG-agent tutorial gives it
``"Source: {doc.metadata}\\nContent: {doc.page_content}"`` blocks, LangGraph's agentic-RAG
tutorial the page contents alone, pasted into a grading or answering prompt rather than a
tool message. The deterministic tool-calling model (simulator/agents/tool_model.py) stands
in for a model reading such context, so it reads all three, by these documented rules:

- **JSON**: a message whose text is (or contains) a ``search_policies`` payload.
- **Blocks**: a line ``Source: {...}`` (a Python dict, LangChain's ``str(doc.metadata)``)
  opens a document; its ``doc_id``, ``title``, ``status``, ``effective_year``, ``version``
  and ``domain`` are read from it, and a ``Content:`` prefix on the next line is dropped.
  A line ``[doc_id] Title`` opens a document too (or names the one a ``Source:`` line just
  opened): :class:`~simulator.agents.retriever.FaultyRetriever` starts every page with it,
  followed by `` | status: current | effective_year: 2025 | version: 2025.1 | domain:
  legal`` (:func:`page_header`), so that page contents alone still say what to cite and
  which version a document is, as a document library shows above each document. Fields a
  ``Source:`` line gave win. The header may be indented, or follow a prompt's
  ``Context:`` / ``Documents:`` / ``Sources:`` label on the same line. The lines that
  follow are its text.
- ``[search notes]`` opens what the search said besides its hits (withheld results,
  missing shards, a policy's instructions), one note per line; a note that begins
  ``access denied`` means results were withheld. ``[search error]`` is a refused search.

Only the most recent search result counts, as for a model whose context the last result
governs; a prompt's own text counts when it carries one (a grading or answering node).
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from simulator.agent.observation import evidence_of
from simulator.endpoints.payload import SearchPayload
from simulator.readers.base import Evidence

NOTES_HEADER = "[search notes]"
ERROR_HEADER = "[search error]"
DENIED_NOTE = "access denied"
"""How a notes line that says results were withheld begins."""

_SOURCE = re.compile(r"^Source: (\{.*\})\s*$")
HEADER_FIELDS = ("status", "effective_year", "version", "domain")
"""The metadata a page header shows, in this order: what tells versions apart."""
_HEADER = re.compile(r"^\s*(?:(?:Context|Documents?|Sources?):\s*)?"
                     r"\[(?P<doc_id>[A-Za-z0-9._:-]+)\] (?P<title>\S.*?)\s*$")


@dataclass(frozen=True)
class Reading:
    """One search result as the driver understood it."""

    evidence: tuple[Evidence, ...] = ()
    notes: tuple[str, ...] = ()
    denied: bool = False
    error: str | None = None
    """Why the result is unusable (refused, empty, unreadable); None when it is usable."""

    @property
    def usable(self) -> bool:
        return self.error is None


@dataclass
class _Block:
    doc_id: str | None = None
    title: str | None = None
    meta: dict[str, Any] = field(default_factory=dict)
    lines: list[str] = field(default_factory=list)
    kind: str = "document"


def page_header(doc_id: str, title: str, metadata: dict[str, Any]) -> str:
    """The first line of a page FaultyRetriever serves (module docstring)."""
    fields = "".join(f" | {k}: {metadata[k]}" for k in HEADER_FIELDS
                     if metadata.get(k) is not None)
    return f"[{doc_id}] {title}{fields}"


def read_result(text: str) -> Reading | None:
    """The search result ``text`` carries, or None when it carries none."""
    payload = _payload(text)
    if payload is not None:
        return Reading(evidence=evidence_of(payload), notes=tuple(payload.notes),
                       denied=payload.access.denied)
    blocks = _blocks(text)
    if not blocks:
        return None
    errors = [b for b in blocks if b.kind == "error"]
    if errors:
        return Reading(error=" ".join(errors[0].lines).strip()[:200] or "the search failed")
    notes = tuple(line.strip() for b in blocks if b.kind == "notes" for line in b.lines
                  if line.strip())
    evidence = tuple(_evidence(b) for b in blocks if b.kind == "document" and b.doc_id)
    return Reading(evidence=evidence, notes=notes,
                   denied=any(n.lower().startswith(DENIED_NOTE) for n in notes))


def latest_result(texts: Iterable[str]) -> Reading | None:
    """The last of ``texts`` (oldest first) that carries a search result."""
    found = None
    for text in texts:
        found = read_result(text) or found
    return found


def _payload(text: str) -> SearchPayload | None:
    stripped = text.strip()
    starts = [0] if stripped.startswith("{") else []
    source = stripped if starts else text
    starts += [m.start() for m in re.finditer(r'\{"', source) if m.start() > 0][:20]
    decoder = json.JSONDecoder()
    for start in starts:
        try:
            value, end = decoder.raw_decode(source, start)
        except ValueError:
            continue
        if isinstance(value, dict) and "hits" in value:
            try:  # strict models: validated from the JSON text, as the contract step does
                return SearchPayload.model_validate_json(source[start:end])
            except ValidationError:
                return None
    return None


def _blocks(text: str) -> list[_Block]:
    blocks: list[_Block] = []
    current: _Block | None = None
    for line in text.splitlines():
        source = _SOURCE.match(line)
        if source is not None:
            current = _Block(meta=_literal(source.group(1)))
            current.doc_id = _str(current.meta.get("doc_id"))
            current.title = _str(current.meta.get("title"))
            blocks.append(current)
            continue
        if current is not None and not current.lines and line.startswith("Content: "):
            line = line.removeprefix("Content: ")
        bare = line.strip()
        if bare in (NOTES_HEADER, ERROR_HEADER):
            kind = "notes" if bare == NOTES_HEADER else "error"
            if current is not None and not current.lines and current.doc_id is None:
                current.kind = kind
            else:
                current = _Block(kind=kind)
                blocks.append(current)
            continue
        header = _HEADER.match(line)
        if header is not None:
            named = current is not None and not current.lines and current.kind == "document"
            if not named or (current is not None and current.doc_id not in
                             (None, header.group("doc_id"))):
                current = _Block()
                blocks.append(current)
            assert current is not None
            current.doc_id = header.group("doc_id")
            title, fields = _header_fields(header.group("title"))
            current.title = current.title or title
            current.meta = {**fields, **current.meta}
            continue
        if current is not None:
            current.lines.append(line)
    return blocks


def _header_fields(rest: str) -> tuple[str, dict[str, Any]]:
    """A header's title and the metadata fields after it (``| key: value``)."""
    title, *parts = rest.split(" | ")
    fields: dict[str, Any] = {}
    for part in parts:
        key, sep, value = part.partition(": ")
        if sep and key in HEADER_FIELDS:
            fields[key] = int(value) if key == "effective_year" and value.isdigit() else value
    return title.strip(), fields


def _evidence(block: _Block) -> Evidence:
    meta = block.meta
    year = meta.get("effective_year")
    return Evidence(doc_id=str(block.doc_id), title=block.title or str(block.doc_id),
                    text="\n".join(block.lines).strip(), status=_str(meta.get("status")),
                    effective_year=year if isinstance(year, int) else None,
                    version=_str(meta.get("version")), domain=_str(meta.get("domain")))


def _literal(text: str) -> dict[str, Any]:
    try:
        value = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return {}
    return value if isinstance(value, dict) else {}


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) else None
