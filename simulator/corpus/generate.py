"""Generate documents, tasks and labels from a validated spec, deterministically.

Identifiers are opaque hashes of (seed, corpus, unit, role): the same spec and seed give
byte-identical output; another seed gives other ids. Nothing in an id or a document field
reveals the unit, the status or the answer.

Each document carries its version lineage as published: an opaque ``policy_id`` shared by the
versions of one policy unit, and ``supersedes`` / ``superseded_by`` naming the neighbouring
versions' doc ids (the superseded version is replaced by the current one). The live registry
(:mod:`simulator.endpoints.registry`) is built from these fields alone, so the faults that use
version history aim with what the environment publishes, not with the labels.
"""

from __future__ import annotations

import hashlib

from simulator.corpus.model import Corpus, Document, Labels, SessionContext, Status, Task
from simulator.corpus.spec import CorpusSpec, UnitSpec, VersionSpec

GENERATOR_VERSION = "enterprise-gen-2"
"""2: documents carry their lineage (policy_id, supersedes, superseded_by)."""


def _opaque(prefix: str, *parts: object, n: int = 12) -> str:
    key = "\x1f".join(str(p) for p in (prefix, *parts))
    return f"{prefix}_{hashlib.sha256(key.encode()).hexdigest()[:n]}"


def generate_corpus(spec: CorpusSpec, seed: int = 0) -> Corpus:
    """Build the corpus. Rows follow spec order: domain, unit, variant."""
    name, tenant = spec.corpus.name, spec.corpus.tenant
    documents: list[Document] = []
    tasks: list[Task] = []
    labels: list[Labels] = []
    unit_index = 0
    for domain in spec.domains:
        for unit in domain.units:
            cur_id = _opaque("doc", seed, name, unit.id, "current")
            old_id = _opaque("doc", seed, name, unit.id, "superseded")
            policy_id = _opaque("pol", seed, name, unit.id)
            documents += _documents(unit, domain.domain, tenant, cur_id, old_id, policy_id)
            answer_format = spec.format_of(unit)
            for variant, question in enumerate(unit.questions):
                row = len(tasks)
                task_id = _opaque("task", seed, name, unit.id, variant)
                session = SessionContext(
                    session_id=_opaque("sess", seed, name, unit.id, variant, n=16),
                    tenant=tenant,
                    user_id=_opaque("user", seed, name, unit.id, variant, n=8),
                    access_groups=spec.corpus.access_groups,
                )
                tasks.append(Task(task_id=task_id, row=row, question=question,
                                  answer_format=answer_format, session=session))
                labels.append(Labels(
                    task_id=task_id, row=row, unit=unit_index, unit_id=unit.id,
                    variant=variant, domain=domain.domain, answer_format=answer_format,
                    expected_answer=unit.current.value,
                    accepted_answers=(unit.current.value, *unit.current.aliases),
                    superseded_answers=(unit.superseded.value, *unit.superseded.aliases),
                    required_doc_ids=(cur_id,), superseded_doc_ids=(old_id,),
                    access_group=unit.access_group,
                ))
            unit_index += 1
    documents.sort(key=lambda d: d.doc_id)  # order reveals nothing either
    return Corpus(
        name=name, seed=seed, spec_hash=spec.spec_hash, generator_version=GENERATOR_VERSION,
        domains=tuple(d.domain for d in spec.domains),
        cues={d.domain: d.cues for d in spec.domains},
        access_groups=spec.corpus.access_groups, tenant=tenant,
        documents=tuple(documents), tasks=tuple(tasks), labels=tuple(labels),
    )


def _documents(unit: UnitSpec, domain: str, tenant: str, cur_id: str,
               old_id: str, policy_id: str) -> list[Document]:
    versions: tuple[tuple[str, Status, VersionSpec, str | None, str | None], ...] = (
        (cur_id, "current", unit.current, old_id, None),
        (old_id, "superseded", unit.superseded, None, cur_id))
    return [
        Document(doc_id=doc_id, title=unit.title, text=ver.prose.strip(), domain=domain,
                 status=status, effective_year=ver.effective_year, version=ver.version,
                 access_group=unit.access_group, tenant=tenant, policy_id=policy_id,
                 supersedes=supersedes, superseded_by=superseded_by)
        for doc_id, status, ver, supersedes, superseded_by in versions
    ]
