"""Generate documents, cases, turns and labels from a validated case spec, deterministically.

Ids are opaque hashes of (seed, corpus, case, role), as in :mod:`simulator.corpus.generate`:
the same spec and seed give byte-identical output, another seed other ids, and no id or
public field reveals a case's kind, status or answer. Documents carry their lineage as
published: ``policy_id`` is shared by every version of one article (the hash of its oldest
version's key), ``supersedes`` / ``superseded_by`` name the neighbouring versions' doc ids,
and ``status`` is ``superseded`` for a version another one replaced.
"""

from __future__ import annotations

import hashlib

from simulator.cases.checks import declared_formats, older_versions, statuses, turn_format
from simulator.cases.model import (
    Case,
    CaseCorpus,
    CaseLabels,
    Identifier,
    Turn,
    TurnLabels,
    Workflow,
    WorkflowStep,
)
from simulator.cases.spec import CaseCorpusSpec, CaseSpec, DocumentSpec, TurnSpec
from simulator.corpus.model import Document, SessionContext

GENERATOR_VERSION = "cases-gen-1"


def _opaque(prefix: str, *parts: object, n: int = 12) -> str:
    key = "\x1f".join(str(p) for p in (prefix, *parts))
    return f"{prefix}_{hashlib.sha256(key.encode()).hexdigest()[:n]}"


def generate_case_corpus(spec: CaseCorpusSpec, seed: int = 0) -> CaseCorpus:
    """Build the corpus. Cases follow spec order: domain, case; turns their own order."""
    name, tenant = spec.corpus.name, spec.corpus.tenant
    formats = declared_formats(spec.corpus)
    documents: list[Document] = []
    cases: list[Case] = []
    labels: list[CaseLabels] = []
    for domain in spec.domains:
        for case in domain.cases:
            doc_ids = {d.key: _opaque("doc", seed, name, d.key) for d in case.documents}
            documents += _documents(case, domain.domain, tenant, doc_ids, seed, name)
            row = len(cases)
            case_id = _opaque("case", seed, name, case.id)
            session = SessionContext(
                session_id=_opaque("sess", seed, name, case.id, n=16), tenant=tenant,
                user_id=_opaque("user", seed, name, case.id, n=8),
                access_groups=spec.corpus.access_groups)
            turns, turn_labels = [], []
            for position, turn in enumerate(case.turns):
                turn_id = _opaque("turn", seed, name, case.id, position)
                fmt = turn_format(turn, formats)
                descriptor = fmt.describe() if fmt is not None else turn.answer_format
                turns.append(Turn(turn_id=turn_id, position=position, message=turn.message,
                                  answer_format=descriptor))
                turn_labels.append(_turn_labels(case, turn, turn_id, position, descriptor,
                                                doc_ids))
            cases.append(Case(case_id=case_id, row=row, subject=case.subject,
                              description=case.description, session=session,
                              turns=tuple(turns)))
            labels.append(CaseLabels(
                case_id=case_id, row=row, case_key=case.id, domain=domain.domain,
                access_group=case.access_group, issue=case.issue,
                identifiers=tuple(Identifier(kind=i.kind, value=i.value)
                                  for i in case.identifiers),
                workflow=Workflow(
                    steps=tuple(WorkflowStep(step_id=s.id, action=s.action, requires=s.requires)
                                for s in case.workflow.steps),
                    prohibited=case.workflow.prohibited, escalation=case.workflow.escalation),
                doc_ids=tuple(doc_ids[d.key] for d in case.documents),
                turns=tuple(turn_labels)))
    documents.sort(key=lambda d: d.doc_id)  # order reveals nothing either
    return CaseCorpus(
        name=name, seed=seed, spec_hash=spec.spec_hash, generator_version=GENERATOR_VERSION,
        domains=tuple(d.domain for d in spec.domains),
        cues={d.domain: d.cues for d in spec.domains},
        access_groups=spec.corpus.access_groups, tenant=tenant,
        documents=tuple(documents), cases=tuple(cases), labels=tuple(labels))


def _documents(case: CaseSpec, domain: str, tenant: str, doc_ids: dict[str, str],
               seed: int, name: str) -> list[Document]:
    status = statuses(case.documents)
    successor = {d.supersedes: d.key for d in case.documents if d.supersedes is not None}
    out = []
    for doc in case.documents:
        oldest = (older_versions(doc.key, case.documents) or [doc])[-1]
        out.append(Document(
            doc_id=doc_ids[doc.key], title=doc.title, text=" ".join(doc.text.split()),
            domain=domain, status=status[doc.key],  # type: ignore[arg-type]
            effective_year=doc.effective_year, version=doc.version,
            access_group=case.access_group, tenant=tenant,
            policy_id=_opaque("pol", seed, name, oldest.key),
            supersedes=doc_ids[doc.supersedes] if doc.supersedes else None,
            superseded_by=doc_ids[successor[doc.key]] if doc.key in successor else None))
    return out


def _turn_labels(case: CaseSpec, turn: TurnSpec, turn_id: str, position: int,
                 descriptor: str, doc_ids: dict[str, str]) -> TurnLabels:
    older: list[DocumentSpec] = [o for key in turn.docs
                                 for o in older_versions(key, case.documents)]
    expected = turn.expected
    return TurnLabels(
        turn_id=turn_id, position=position, kind=turn.kind, answer_type=turn.answer_type,
        answer_format=descriptor, expected_answer=expected,
        accepted_answers=(expected, *turn.aliases) if expected is not None else (),
        superseded_answers=(turn.stale,) if turn.stale is not None else (),
        required_doc_ids=tuple(doc_ids[k] for k in turn.docs),
        superseded_doc_ids=tuple(dict.fromkeys(doc_ids[o.key] for o in older)),
        expected_identifiers=turn.identifiers, expected_steps=turn.steps,
        standalone_question=turn.standalone or turn.message, missing=turn.missing)


__all__ = ["GENERATOR_VERSION", "generate_case_corpus"]
