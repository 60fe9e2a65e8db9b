"""A record's trajectory as text for a terminal: what ``layerrag show`` prints.

One block per record, in the order things happened: the cell and its verdict first (what a
reader scanning failures wants), then the task, each tool call with what came back and what
each fault did to it, the policy decisions, the answer, and the truth it was scored
against with a reason for every check. ``side_by_side`` puts a record beside its clean
twin, so the fault's effect shows as the difference between two columns.
"""

from __future__ import annotations

import textwrap
from itertools import zip_longest

from simulator.runner.record import RunRecord
from simulator.runner.trajectory.model import HitSeen, ToolStep, Trajectory

HIT_TEXT_CHARS = 160
"""The most characters of a hit's text shown (``--json`` has the stored text)."""
_MARK = {True: "ok  ", False: "FAIL"}


def record_lines(record: RunRecord, path: Trajectory | None, *, no_trajectory: str
                 ) -> list[str]:
    """The block for one record (unwrapped lines; the caller wraps them to its width)."""
    lines = [f"== {record.key.as_str()} (task row {record.task_row})",
             *_case_lines(record), _headline(record)]
    if path is None:
        return [*lines, f"   ({no_trajectory}: the scores above are all the store kept)"]
    if record.case is not None and path.question != record.case.message:
        lines += ["", f"Message: {record.case.message}", f"   searched as: {path.question}"]
    else:
        lines += ["", f"Question: {path.question}"]
    extra = path.task_message.removeprefix(path.question).strip()
    if extra:
        lines += [f"   {line}" for line in extra.splitlines()]
    for number, step in enumerate(path.steps, 1):
        lines += _step_lines(number, step)
    if not path.steps:
        lines.append("No tool call.")
    for decision in path.policy:
        lines.append(f"Policy {decision.policy}: {decision.action} ({decision.reason})")
    if path.terminated:
        lines.append(f"Run ended by: {path.terminated}")
    lines += _answer_lines(path)
    lines += _turn_verdict_lines(record) if _unvalued(record) else _verdict_lines(path)
    return lines


def _case_lines(record: RunRecord) -> list[str]:
    """A case turn's place in its conversation and its case scores (none otherwise)."""
    case = record.case
    if case is None:
        return []
    score = case.score
    exact = {True: "exact", False: "NOT exact", None: "n/a"}[score.identifier_exact]
    lines = [f"Case {case.case_key}, turn {case.turn} of {case.turns} ({case.kind}); faults "
             f"{'acted' if case.fault_active else 'off'}; memory {case.memory}",
             f"Turn {'safe' if score.safe else 'NOT safe'}; identifiers {exact}"
             + ("; corrupted identifier" if score.corrupted else "")]
    lines += [f"   earlier: {user!r} -> {reply!r}" for user, reply in case.history]
    reply = case.reply
    if reply is not None:
        lines.append(f"   reply: {reply.text!r}")
        if reply.steps:
            workflow = {True: "in order", False: "NOT in order", None: "n/a"}[score.workflow_ok]
            lines.append(f"   steps ({workflow}"
                         + ("; a prohibited action" if score.prohibited else "") + "): "
                         + "; ".join(f"{n}. {step}" for n, step in enumerate(reply.steps, 1)))
        lines.append(f"   answer type: {reply.reply_type}"
                     + ("" if score.type_fit else " (the turn wants another: NOT a fit)"))
    return lines


def _unvalued(record: RunRecord) -> bool:
    """A case turn with no expected value (clarify or abstain): no strict verdict."""
    return record.case is not None and record.case.score.S is None


_SAFE_REPLY = {"underspecified": "a clarifying question (the message leaves out what an "
                                 "answer needs)",
               "unanswerable": "a structured non-answer (the documents do not answer it)"}


def _turn_verdict_lines(record: RunRecord) -> list[str]:
    """The verdict of a clarify or abstain turn: what a safe reply was, and whether this
    one was (the strict checks do not apply: the turn has no value)."""
    assert record.case is not None
    case, score = record.case, record.case.score
    reply = case.reply
    if score.errored or reply is None:
        did = "the turn errored: no reply"
    elif reply.abstained:
        did = "the reply asked" if reply.clarify else "the reply declined without asking"
    else:
        did = f"the reply stated {reply.answer!r}"
    return [f"Expected: {_SAFE_REPLY.get(case.kind, 'a safe reply')}",
            f"   safe {_MARK[score.safe]} {did}"]


def _headline(record: RunRecord) -> str:
    if _unvalued(record):
        assert record.case is not None
        return (f"{record.case.kind} turn: {'safe' if record.case.score.safe else 'NOT safe'}"
                f" (no value expected; strict S does not apply)")
    if record.S:
        return "S ok: strictly successful"
    layer = record.failure_layer or "unknown"
    flags = [name for name in ("agent_error", "provider_error", "reader_error")
             if getattr(record, name, False)]
    safe = "safe" if record.safe_resolution else "not safe"
    return f"S FAIL, {safe}, failure layer {layer}" + (
        f" ({', '.join(flags)})" if flags else "")


def _step_lines(number: int, step: ToolStep) -> list[str]:
    args = ", ".join(f"{k}={v!r}" for k, v in step.args.items())
    hidden = "" if step.shown else "  [retried by a policy before the agent saw it]"
    came = f"{len(step.hits)} hits" if step.hits else step.status
    lines = ["", f"Call {number}: {step.tool}({args}) -> {step.status}, {came}{hidden}"]
    by_doc: dict[str, list[str]] = {h.doc_id: [] for h in step.hits}
    general: list[str] = []
    for effect in step.faults:
        doc = effect.effect.split(":", 1)[0].split(" ", 1)[0]
        who = effect.fault or "no fault of this scenario"
        (by_doc[doc] if doc in by_doc else general).append(f"{who}: {effect.effect}")
    lines += [f"   ! {line}" for line in general]
    for hit in step.hits:
        lines += _hit_lines(hit, by_doc[hit.doc_id])
    lines += [f"   note: {note}" for note in step.notes]
    lines += [f"   repaired: {repair}" for repair in step.repairs]
    if step.message:
        lines.append(f"   message: {step.message}")
    return lines


def _hit_lines(hit: HitSeen, effects: list[str]) -> list[str]:
    meta = " | ".join(str(v) for v in (hit.status, hit.effective_year, hit.version,
                                       hit.domain) if v is not None)
    text = hit.text if len(hit.text) <= HIT_TEXT_CHARS else hit.text[:HIT_TEXT_CHARS] + "..."
    return [f"   [{hit.doc_id}] {hit.title} | {meta}", f"      {text}",
            *(f"      ! {line}" for line in effects)]


def _answer_lines(path: Trajectory) -> list[str]:
    answer = path.answer
    cites = ", ".join(answer.citations) or "none"
    if answer.abstained:
        head = f"Answer: abstained ({answer.reason or 'no reason given'})"
        if answer.value is not None:
            head += f"; submitted with the value {answer.value!r}"
    elif answer.value is None:
        head = f"Answer: none ({answer.reason or 'no answer'})"
    else:
        head = f"Answer: {answer.value!r}"
    lines = ["", head, f"   citations: {cites}"]
    if answer.prose:
        lines.append(f"   prose: {answer.prose}")
    return lines


def _verdict_lines(path: Trajectory) -> list[str]:
    v = path.verdict
    lines = [f"Expected: {v.expected_answer!r} from {', '.join(v.required_doc_ids)}"]
    if len(v.accepted_answers) > 1:
        lines.append(f"   accepted: {', '.join(v.accepted_answers)}")
    if v.superseded_answers:
        lines.append(f"   superseded: {', '.join(v.superseded_answers)}")
    for name in ("E", "R", "G", "V", "S"):
        check = getattr(v, name)
        lines.append(f"   {name}    {_MARK[check.ok]} {check.why}")
    lines.append(f"   safe {_MARK[v.safe_resolution.ok]} {v.safe_resolution.why}")
    if v.failure_layer:
        lines.append(f"Why S failed: {v.failure_layer}: {v.failure_why}")
    return lines


def wrapped(lines: list[str], width: int) -> list[str]:
    """``lines`` wrapped to ``width``, continuation lines keeping their indent."""
    out: list[str] = []
    for line in lines:
        indent = " " * (len(line) - len(line.lstrip()) + 2)
        out += textwrap.wrap(line, width, subsequent_indent=indent,
                             break_on_hyphens=False) or [""]
    return out


def side_by_side(left: list[str], right: list[str], width: int) -> list[str]:
    """Two blocks in two columns of ``width`` characters in all (a gutter between)."""
    column = max(20, (width - 3) // 2)
    return [f"{a:<{column}} | {b}".rstrip() for a, b in
            zip_longest(wrapped(left, column), wrapped(right, column), fillvalue="")]
