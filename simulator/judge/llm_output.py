"""The LLM judge's output contract: the paper's strict JSON schema (Table 5) and its parser.

Sixteen keys, ``<metric>_score`` and ``<metric>_justification`` for the eight metrics. A
score is a number in [0, 1] or null where the metric cannot apply; the metrics the prompt
declares not applicable are held to null by the schema itself. The parser accepts nothing
less: a missing key, a score outside [0, 1], a string where a number belongs, a score for a
metric that cannot apply, or prose around the object (outside ``json_prompt``) is a
malformed judgment with a reason, which the judge retries and then fails closed on
(:mod:`simulator.judge.llm`), never a silent pass.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Collection
from typing import Any, Literal

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage
from langchain_core.runnables import Runnable

from simulator.judge.metrics import METRIC_NAMES, MetricName
from simulator.judge.model import MetricScore

JudgeOutputMethod = Literal["json_schema", "json_object", "tool", "json_prompt"]
JUDGE_TOOL = "submit_judgment"


def judgment_schema(not_applicable: Collection[MetricName] = ()) -> dict[str, Any]:
    """The strict schema of one judgment (the not-applicable metrics' scores are null)."""
    props: dict[str, Any] = {}
    for m in METRIC_NAMES:
        props[f"{m}_score"] = ({"type": "null"} if m in not_applicable
                               else {"type": ["number", "null"]})
        props[f"{m}_justification"] = {"type": "string"}
    return {"type": "object", "properties": props, "required": list(props),
            "additionalProperties": False}


def bind_judge_output(model: BaseChatModel, method: JudgeOutputMethod,
                      schema: dict[str, Any]) -> Runnable[Any, Any]:
    """``model`` asked to reply through ``method`` (the reader's methods, with this schema)."""
    if method == "tool":
        params = {k: v for k, v in schema.items() if k != "additionalProperties"}
        tool = {"title": JUDGE_TOOL, "description": "Submit the judgment of the turn.",
                **params}
        return model.bind_tools([tool], tool_choice=JUDGE_TOOL)
    if method == "json_prompt":
        return model
    response_format = ({"type": "json_schema", "json_schema": {
        "name": "judgment", "schema": schema, "strict": True}}
        if method == "json_schema" else {"type": "json_object", "schema": schema})
    extra_body = {**(getattr(model, "extra_body", None) or {}),
                  "response_format": response_format}
    return model.bind(extra_body=extra_body)


_FENCE = re.compile(r"```(?:json)?\s*(\{.*\})\s*```", re.DOTALL)


def _payload(message: AIMessage, method: JudgeOutputMethod) -> tuple[Any, str | None]:
    if method == "tool":
        for call in message.tool_calls:
            if call["name"] == JUDGE_TOOL:
                return call["args"], None
        return None, "no judgment tool call"
    text = message.text.strip()
    fenced = _FENCE.fullmatch(text) or (_FENCE.search(text) if method == "json_prompt"
                                        else None)
    if fenced:
        text = fenced.group(1)
    elif method == "json_prompt":
        start, end = text.find("{"), text.rfind("}")
        text = text[start:end + 1] if 0 <= start < end else text
    try:
        return json.loads(text), None
    except json.JSONDecodeError:
        return None, "the judgment was not valid JSON"


def parse_judgment(message: AIMessage, method: JudgeOutputMethod,
                   not_applicable: Collection[MetricName] = ()
                   ) -> tuple[dict[MetricName, MetricScore] | None, str | None]:
    """The eight scores, or None and why the reply is malformed."""
    value, why = _payload(message, method)
    if why is None:
        scores, why = scores_from(value, not_applicable)
        if scores is not None:
            return scores, None
    meta = message.response_metadata
    if {meta.get("finish_reason"), meta.get("stop_reason")} & {"length", "max_tokens",
                                                                "MAX_TOKENS"}:
        why = f"{why}, cut off at the output token limit"
    return None, why


def scores_from(value: Any, not_applicable: Collection[MetricName] = ()
                ) -> tuple[dict[MetricName, MetricScore] | None, str | None]:
    """Check a decoded judgment object against the contract (also used on cache replays)."""
    if not isinstance(value, dict):
        return None, "the judgment is not a JSON object"
    expected = {f"{m}_{part}" for m in METRIC_NAMES for part in ("score", "justification")}
    missing = sorted(expected - set(value))
    if missing:
        return None, f"the judgment lacks {', '.join(missing[:3])}" + (
            f" and {len(missing) - 3} more" if len(missing) > 3 else "")
    extra = sorted(set(value) - expected)
    if extra:
        return None, f"the judgment has unknown keys ({', '.join(extra[:3])})"
    scores: dict[MetricName, MetricScore] = {}
    for m in METRIC_NAMES:
        raw, text = value[f"{m}_score"], value[f"{m}_justification"]
        if not isinstance(text, str):
            return None, f"{m}_justification is not a string"
        if raw is None:
            scores[m] = MetricScore.not_applicable(text.strip() or "not applicable")
            continue
        if m in not_applicable:
            return None, f"{m}_score is {raw!r}, but the metric cannot apply to this turn"
        if isinstance(raw, bool) or not isinstance(raw, int | float) or not math.isfinite(raw):
            return None, f"{m}_score is {raw!r}, not a number"
        if not 0.0 <= raw <= 1.0:
            return None, f"{m}_score is {raw}, outside [0, 1]"
        scores[m] = MetricScore.scored(float(raw), text.strip())
    return scores, None
