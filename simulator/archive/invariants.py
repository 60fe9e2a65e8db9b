"""What every archive row must satisfy, so a recompute cannot be fed a silently wrong row.

The scorer makes each record's fields from one another (simulator/scoring/): S is E ∧ R ∧ G
∧ V, the failure layer exists exactly when S fails, safe resolution is S where a record was
answerable and an abstention where it was not. A row that breaks one of these rules was not
written by the scorer: it was edited, and the figures recomputed from it would be wrong
without a word. The rules here are the ones that follow from the row alone (answerability is
not archived, so safe resolution is checked as far as S and abstention decide it), plus the
agreement of rows with each other and with their header. What they cannot catch, a
consistent forgery, is discussed in docs/archives.md.
"""

from __future__ import annotations

from simulator.archive.row import ArchiveHeader, ArchiveRow
from simulator.scoring.outcome import strict_success
from simulator.vocabulary import CONTRACT_MODES


def row_problem(row: ArchiveRow) -> str | None:
    """The first rule ``row`` breaks, as ``field 'S': ...``; None when it keeps them all."""
    s = strict_success(row.E, row.R, row.G, row.V)
    if row.S != s:
        return (f"field 'S': {row.S} but E={row.E}, R={row.R}, G={row.G}, V={row.V} give "
                f"S = E and R and G and V = {s}")
    if row.contract_mode not in CONTRACT_MODES:
        return (f"field 'contract_mode': {row.contract_mode!r} is not one of "
                f"{', '.join(CONTRACT_MODES)}")
    if row.S and row.failure_layer is not None:
        return f"field 'failure_layer': {row.failure_layer!r} on a strict success (S holds)"
    if not row.S and row.failure_layer is None:
        return "field 'failure_layer': missing (null) on a strict failure (S fails)"
    if row.provider_error and not row.S and row.failure_layer != "provider":
        return (f"field 'failure_layer': {row.failure_layer!r} on a provider error "
                "(expected 'provider')")
    if row.failure_layer == "provider" and not row.provider_error:
        return "field 'failure_layer': 'provider' without a provider error"
    if row.agent_error and row.provider_error:
        return "field 'agent_error': true on a provider error (the provider failed first)"
    if row.agent_error and row.failure_layer != "agent":
        return (f"field 'failure_layer': {row.failure_layer!r} on an agent error "
                "(expected 'agent')")
    if row.failure_layer == "agent" and not row.agent_error:
        return "field 'failure_layer': 'agent' without an agent error"
    if row.agent_error and (row.S or row.abstained or row.safe_resolution):
        what = "S" if row.S else "abstained" if row.abstained else "safe_resolution"
        return (f"field {what!r}: true on an agent error (a broken agent neither succeeds, "
                "abstains nor is safe)")
    if row.reader_error and row.agent_error:
        return "field 'reader_error': true on an agent error (a broken agent left no output)"
    if row.reader_error and row.provider_error:
        return "field 'reader_error': true on a provider error (a failed call has no output)"
    if row.reader_error and not row.S and row.failure_layer != "reader":
        return (f"field 'failure_layer': {row.failure_layer!r} on a reader error "
                "(expected 'reader')")
    if row.reader_error and (row.abstained or row.safe_resolution):
        what = "abstained" if row.abstained else "safe_resolution"
        return (f"field {what!r}: true on a reader error (unparseable output is neither a "
                "non-answer nor safe)")
    if row.abstained and (row.E or row.grounded):
        what = "E" if row.E else "grounded"
        return f"field {what!r}: true on an abstention (a non-answer matches and cites nothing)"
    if row.failure_layer == "abstained" and not row.abstained:
        return "field 'failure_layer': 'abstained' on a record that did not abstain"
    if row.safe_resolution and not (row.S or row.abstained):
        return ("field 'safe_resolution': true, but the record neither succeeded strictly "
                "nor abstained")
    return _behaviour_problem(row) or _judge_problem(row) or _case_problem(row)


def _case_problem(row: ArchiveRow) -> str | None:
    """A case turn's row holds its indices, kind and safety, its turn within its case; a
    single-turn row holds no case column."""
    from simulator.archive.row import CASE_FIELDS

    if getattr(row, "case_id", None) is None:
        held = [f for f in CASE_FIELDS if getattr(row, f, None) is not None]
        return f"field {held[0]!r}: a case column on a row of no case" if held else None
    for field in ("case_turn", "case_turns", "turn_kind", "turn_safe", "fault_active"):
        if getattr(row, field, None) is None:
            return f"field {field!r}: missing on a case turn"
    if row.case_turn > row.case_turns:
        return f"field 'case_turn': {row.case_turn} of a case of {row.case_turns} turns"
    return None


def _judge_problem(row: ArchiveRow) -> str | None:
    """A judged row has every metric's score and its band; an unjudged or unlabelled one
    has none (simulator/judge/model.py: unjudged is never a score)."""
    from simulator.judge.metrics import METRIC_NAMES, band_of

    status = getattr(row, "judge_status", None)
    for m in METRIC_NAMES:
        score, band = getattr(row, f"judge_{m}"), getattr(row, f"judge_{m}_band")
        if status != "judged":
            if score is not None or band is not None:
                return (f"field 'judge_{m}': a score on a row the judge did not judge "
                        f"(judge_status {status!r})")
            continue
        expected = "not_applicable" if score is None else band_of(score)
        if band != expected:
            return (f"field 'judge_{m}_band': {band!r} does not match score {score} "
                    f"(expected {expected!r})")
    return None


def _behaviour_problem(row: ArchiveRow) -> str | None:
    """The ConInstruct label agrees with the answer's kind (simulator/scoring/behaviour.py):
    B1 and B3 answer, B2 does not, and an errored record has no response to label."""
    label = row.behaviour
    if label is None:
        return None
    if row.provider_error or row.agent_error or row.reader_error:
        return (f"field 'behaviour': {label!r} on a provider, agent or reader error (nothing "
                "to label)")
    if label in ("B1", "B3") and row.abstained:
        return f"field 'behaviour': {label!r} (an answer) on an abstention"
    if label == "B2" and not row.abstained:
        return "field 'behaviour': 'B2' (a clarification, a non-answer) on an answer"
    return None


def header_problem(header: ArchiveHeader, row: ArchiveRow) -> str | None:
    """The first way ``row`` disagrees with the archive's ``header``; None if it agrees."""
    if row.run_id != header.run_id:
        return f"field 'run_id': {row.run_id!r} is not the header's run {header.run_id!r}"
    if getattr(row, "judge_status", None) is not None and header.judge is None:
        return "field 'judge_status': judge scores, but the header names no judge"
    if row.agent != header.agent:
        return f"field 'agent': {row.agent!r} is not the header's agent {header.agent!r}"
    return None


class TaskAgreement:
    """Rows of one task agree on its unit, variant and domain (the bootstrap's clusters):
    an edited unit would move a record to another cluster and change every interval."""

    def __init__(self) -> None:
        self._first: dict[int, tuple[tuple[int, int, str], str]] = {}

    def problem(self, row: ArchiveRow, where: str) -> str | None:
        """Remember ``row`` (found at ``where``, e.g. ``line 7``); name a disagreement."""
        mine = (row.unit, row.variant, row.domain)
        seen = self._first.setdefault(row.task_row, (mine, where))
        if seen[0] == mine:
            return None
        for name, ours, theirs in zip(("unit", "variant", "domain"), mine, seen[0],
                                      strict=True):
            if ours != theirs:
                return (f"field {name!r}: task_row {row.task_row} has {name} {ours!r} here "
                        f"but {theirs!r} on {seen[1]}")
        return None  # pragma: no cover (some field differs)
