"""The case-aware judge's eight metrics, declared once (arXiv 2602.20379, App. B, C, Table 5).

Both judges, the judge table and the archive take the metric names, their definitions, the
rubric anchors of each severity band and the band edges from here. The names are the
paper's JSON schema keys (Table 5: ``<name>_score``, ``<name>_justification``), so an LLM
judge's output maps onto them without a translation table.

A score is a number in [0, 1]; the paper's bands (App. B) partition it as
severe [0, 0.30], moderate (0.30, 0.60], minor (0.60, 0.85], none (0.85, 1]. A metric that
does not apply to a record (identifier integrity on a corpus without identifiers, case
metrics on a single-turn record) has no value at all: ``not_applicable``, never 0 or 1.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from typing import Literal, get_args

MetricName = Literal[
    "hallucination", "retrieval_correctness", "context_sufficiency", "answer_helpfulness",
    "answer_type_fit", "identifier_integrity", "case_issue_identification",
    "case_resolution_alignment",
]
"""The paper's metric keys (Table 5), M1..M8 in its order."""
METRIC_NAMES: tuple[MetricName, ...] = get_args(MetricName)

Band = Literal["severe", "moderate", "minor", "none"]
"""Severity of the most severe issue a metric found (App. B.1)."""
BANDS: tuple[Band, ...] = get_args(Band)

BandOrNA = Literal["severe", "moderate", "minor", "none", "not_applicable"]

BAND_UPPER: dict[Band, float] = {"severe": 0.30, "moderate": 0.60, "minor": 0.85, "none": 1.0}
"""Each band's inclusive upper edge; a band starts just above the previous one's."""


def band_of(value: float) -> Band:
    """The severity band of a score in [0, 1] (edges inclusive from above: 0.30 is severe)."""
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"a metric score lies in [0, 1], got {value}")
    return next(b for b in BANDS if value <= BAND_UPPER[b] + 1e-12)


@dataclass(frozen=True)
class MetricSpec:
    """One metric: its key, short column label, title, definition and band anchors."""

    name: MetricName
    short: str
    title: str
    definition: str
    anchors: dict[str, str]
    """Band -> what a response in that band looks like (the rubric's anchors)."""


METRICS: tuple[MetricSpec, ...] = (
    MetricSpec(
        "hallucination", "GFid", "Hallucination / Grounding Fidelity",
        "Whether the answer's claims are supported by the retrieved context and case fields; "
        "unsupported or contradictory assertions reduce the score.",
        {"severe": "a case-specific claim no cited or retrieved evidence supports",
         "moderate": "partly supported; some claims go beyond the evidence",
         "minor": "supported, with a small gap (e.g. a citation outside the evidence)",
         "none": "every claim is supported by evidence it cites"}),
    MetricSpec(
        "retrieval_correctness", "RC", "Retrieval Correctness",
        "Whether the retrieved contexts are relevant and case-appropriate: the right "
        "documents, current versions, the caller's own environment and session.",
        {"severe": "the needed documents are missing, stale, or from another session",
         "moderate": "some of the needed documents came back",
         "minor": "the needed documents came back, ranked behind a stale version",
         "none": "the needed current documents came back, for this caller"}),
    MetricSpec(
        "context_sufficiency", "CS", "Context Sufficiency",
        "Whether the retrieved evidence is enough, and intact, for a safe response.",
        {"severe": "no usable required evidence reached the reader",
         "moderate": "part of the required evidence, or evidence altered in transit",
         "minor": "enough evidence with small omissions",
         "none": "all required evidence reached the reader intact"}),
    MetricSpec(
        "answer_helpfulness", "AH", "Answer Helpfulness",
        "Practical utility: whether the response advances resolution with an actionable, "
        "complete answer, or a clear reason why none can be given.",
        {"severe": "wrong or misleading: acting on it makes things worse",
         "moderate": "withholds an answer the evidence supported",
         "minor": "safe and clear but leaves the user without the value",
         "none": "the correct, actionable answer, or a reasoned non-answer where none was "
                 "possible"}),
    MetricSpec(
        "answer_type_fit", "ATF", "Answer Type Fit",
        "Whether the kind of response (answer, clarify, decline) fits what the evidence "
        "allows and the query asks.",
        {"severe": "answers where only a non-answer was safe",
         "moderate": "declines where the evidence allowed an answer",
         "minor": "the right kind of response in a slightly wrong form",
         "none": "the right kind of response"}),
    MetricSpec(
        "identifier_integrity", "II", "Identifier Integrity",
        "Correct interpretation and exact preservation of structured identifiers (error "
        "codes, versions, commands, paths); corruption is severe.",
        {"severe": "an identifier corrupted or misapplied",
         "moderate": "an identifier partly wrong or ambiguous",
         "minor": "identifiers right with a cosmetic slip",
         "none": "every identifier exact"}),
    MetricSpec(
        "case_issue_identification", "CII", "Case Issue Identification",
        "Whether the response identifies the case's underlying issue given history, case "
        "subject and description, rather than drifting to an adjacent topic.",
        {"severe": "addresses another issue",
         "moderate": "the issue partly identified",
         "minor": "the issue identified with small drift",
         "none": "the labelled issue identified"}),
    MetricSpec(
        "case_resolution_alignment", "RA", "Resolution Alignment",
        "Compliance with the case's workflow: prior attempts respected, required order "
        "and prerequisites kept, prohibited actions avoided.",
        {"severe": "a prohibited action, or a prerequisite skipped",
         "moderate": "steps out of order or repeated",
         "minor": "aligned with a small gap",
         "none": "the workflow followed"}),
)
METRIC_BY_NAME: dict[str, MetricSpec] = {m.name: m for m in METRICS}
SHORT: dict[MetricName, str] = {m.name: m.short for m in METRICS}


def rubric_hash(rules: str = "") -> str:
    """A 12-hex digest of the vocabulary (names, definitions, anchors, band edges) and a
    judge's own rules text (its version, or an LLM judge's prompt): what a stored judgment
    and an archive header cite, so judgments under another rubric are never mixed."""
    body = json.dumps([[asdict(m) for m in METRICS], BAND_UPPER, rules], sort_keys=True)
    return hashlib.sha256(body.encode()).hexdigest()[:12]
