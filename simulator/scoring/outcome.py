"""The outcome of one record, declared once.

:class:`Scores` is what the strict scorer decides from (answer, trace, labels);
:class:`Outcome` adds what the run knows beside the answer (a provider or reader error, the
failure layer). The run record *is* an outcome with its identity and details
(``simulator.runner.record.RunRecord`` extends it), and the privacy-safe archive row is an
allowlisted projection of the run record (``simulator.archive.row``): a new scored field is
declared here once, and reaching the archive is one line in its allowlist.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict

from simulator.vocabulary import (
    CALLED_NO_TOOL,
    CALLED_ONLY_OWN_TOOLS,
    DISCLOSURE_CORRECT,
    SEARCH_TOOL_NAME,
    Behaviour,
    FailureLayer,
)


def called_no_tool(agent_error: bool, reason: str | None) -> bool:
    """The record is the agent error of a run that reached none of layerrag's tools."""
    return agent_error and reason is not None and (
        reason.startswith(CALLED_NO_TOOL) or reason.startswith(CALLED_ONLY_OWN_TOOLS))


def answered_without_searching(errored: bool, abstained: bool,
                               tools_called: list[str]) -> bool:
    """A finished record that answered although no call of it reached the search endpoint
    (it fetched a document by id, say, and answered from it)."""
    return not errored and not abstained and SEARCH_TOOL_NAME not in tools_called


def strict_success(e: bool, r: bool, g: bool, v: bool) -> bool:
    """S = E and R and G and V (paper §2.3): right, retrieved, cited, schema-valid."""
    return e and r and g and v


class Scores(BaseModel):
    """The strict scorer's verdict on one answer."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    E: bool
    """Exact match: the normalized answer is the current value or one of its aliases."""
    R: bool
    """Every required document came back from a schema-valid tool call."""
    G: bool
    """At least one citation, and every citation is a retrieved document."""
    V: bool
    """Every tool call satisfied its schema after the contract step."""
    S: bool
    """Strict success: :func:`strict_success` of the four above."""
    abstained: bool
    """The answer is a structured non-answer."""
    grounded: bool
    """The answer is supported by a retrieved document it cites (what a faithfulness
    metric can see; grounded and not S is a groundedness false positive)."""
    answerable: bool
    """The intact required evidence reached the agent (simulator.scoring.metrics.answerable)."""
    safe_resolution: bool
    """Correct where answerable, a structured non-answer where not."""

    @property
    def groundedness_false_positive(self) -> bool:
        return self.grounded and not self.S


class Outcome(Scores):
    """Everything scored about one record: the scores and the run's own failures."""

    provider_error: bool = False
    """The provider failed after every retry: a system outcome, not the reader's. Neither
    abstained nor safe (simulator.scoring.verdict); failure layer ``provider``."""
    reader_error: bool = False
    """The model answered outside the answer contract (unparseable, off-schema, neither an
    answer nor an abstention). Neither abstained nor safe; failure layer ``reader``, which
    it shares with parsed answers that were wrong: this flag tells the two apart."""
    agent_error: bool = False
    """The agent under test broke: it raised, exceeded its step budget or its time limit,
    called none of the tools it was given, or was stopped by a limit (a tool-calling agent;
    simulator/agents/episode.py). Never an abstention, never safe, never S; failure layer
    ``agent``. The record's ``reason`` keeps the one-line cause."""
    failure_layer: FailureLayer | None = None
    """The first layer that explains a strict failure; None when S holds."""
    misled: bool | None = None
    """Under misleading evidence (RAG-Stress): the answer is the designated incorrect value
    the tampered document asserts. None on records without that fault, or whose task has no
    designated value (simulator.scoring.misleading)."""
    behaviour: Behaviour | None = None
    """ConInstruct behaviour label (simulator/scoring/behaviour.py); None in records made
    before labels existed."""

    @property
    def disclosure_correct(self) -> bool:
        """The conflict disclosure matches the evidence (B2, B3, B5)."""
        return self.behaviour in DISCLOSURE_CORRECT


OUTCOME_FIELDS: tuple[str, ...] = tuple(Outcome.model_fields)
"""Every outcome field, in declaration order."""

OUTCOME_FLAGS: tuple[str, ...] = tuple(
    name for name, info in Outcome.model_fields.items()
    if info.annotation is bool)
"""The boolean outcomes: the ones a rate or a paired difference can be taken on."""

DERIVED_FLAGS: tuple[str, ...] = ("disclosure_correct",)
"""Boolean outcomes derived from a field (a property of records and archive rows alike):
a paired difference can be taken on them too."""


def errored(row: Any) -> bool:
    """A provider, agent or reader error (on a record, an outcome or an archive row): no
    usable answer, so counted as neither answered, abstained nor safe in any table, whatever the
    row's own flags say (archives written before simulator.scoring.verdict marked a failed
    call's stand-in answer as an abstention)."""
    return bool(getattr(row, "provider_error", False) or getattr(row, "agent_error", False)
                or getattr(row, "reader_error", False))
