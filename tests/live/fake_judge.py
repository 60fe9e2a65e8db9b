"""How the loopback fake provider answers an LLM judge's request: a crude judge of its own.

It reads the judge prompt back (simulator/judge/llm_prompt.py renders it) and scores by
surface rules: is the answer's value in a cited document, are the documents current,
did the assistant abstain. It is a stand-in for a model, deliberately not the reference
judge: calibration against it must show agreement where the surface tells (stale
documents, unsupported values) and disagreement where it does not.
"""

from __future__ import annotations

import json
import re
from typing import Any

from simulator.judge.llm_prompt import SYSTEM as JUDGE_SYSTEM
from simulator.judge.metrics import METRIC_NAMES

JUDGE_SYSTEM_HEAD = JUDGE_SYSTEM.splitlines()[0]
_DOC = re.compile(r"<document (?P<attrs>[^>]*)>\n(?P<text>.*?)\n</document>", re.DOTALL)
_ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\d+)')
_ANSWER = re.compile(r"^Assistant answer \(structured\):\n(\{.*\})$", re.MULTILINE)
_NA = re.compile(r"^Metrics that cannot apply to this turn \(score null\): (.*)\.$",
                 re.MULTILINE)


def is_judge_request(body: dict[str, Any]) -> bool:
    first = (body.get("messages") or [{}])[0]
    return first.get("role") == "system" and str(first.get("content")).startswith(
        JUDGE_SYSTEM_HEAD)


def judge_prompt(body: dict[str, Any]) -> str:
    """The judge's user message (the first one: a retry appends a correction after it)."""
    users = [m for m in body["messages"] if m.get("role") == "user"]
    content = users[0]["content"]
    return content if isinstance(content, str) else "".join(
        b.get("text", "") for b in content)


def fake_judgment(prompt: str) -> dict[str, Any]:
    docs = []
    for match in _DOC.finditer(prompt):
        attrs = {k: json.loads(v) for k, v in _ATTR.findall(match.group("attrs"))}
        docs.append({**attrs, "text": match.group("text")})
    answer = json.loads(_ANSWER.search(prompt).group(1))  # type: ignore[union-attr]
    na = set(_NA.search(prompt).group(1).split(", ")) if _NA.search(prompt) else set()
    value = (answer.get("answer") or "").lower()
    cited = [d for d in docs if d.get("doc_id") in answer.get("citations", [])]
    current = [d for d in docs if d.get("status") == "current"]
    stale = [d for d in docs if d.get("status") not in (None, "current")]
    supported = bool(value) and any(value in d["text"].lower() for d in cited)
    in_current = bool(value) and any(value in d["text"].lower() for d in cited
                                     if d.get("status") == "current")
    abstained = bool(answer.get("abstained"))
    s: dict[str, tuple[float | None, str]] = {
        "hallucination": (None, "a non-answer makes no claim") if abstained else (
            (0.95, "the value is in a cited document") if supported else
            (0.1, "the value is in no cited document")),
        "retrieval_correctness": (0.0, "nothing was retrieved") if not docs else (
            (0.25, "stale documents only") if not current else
            (0.7, "current and stale versions mixed") if stale else
            (0.9, "current documents")),
        "context_sufficiency": (0.0, "no evidence") if not docs else (
            (0.9, "a current document") if current else (0.3, "only stale evidence")),
        "answer_helpfulness": (0.5, "a non-answer") if abstained else (
            (0.9, "a supported current value") if in_current else (0.2, "unsupported")),
        "answer_type_fit": ((0.5, "declined with current evidence") if current else
                            (0.95, "declined without usable evidence")) if abstained else (
            (0.95, "answered from current evidence") if current else
            (0.2, "answered without current evidence")),
    }
    out: dict[str, Any] = {}
    for m in METRIC_NAMES:
        score, why = (None, "cannot apply to this turn") if m in na else s.get(
            m, (None, "cannot apply"))
        out[f"{m}_score"], out[f"{m}_justification"] = score, why
    return out
