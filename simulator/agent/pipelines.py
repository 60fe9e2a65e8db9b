"""Which stops the pipeline itself makes before a prompt: the paper's, or none.

The paper's pipeline ends a record with a structured unknown, before any prompt, when the
last tool call was missing, rejected by the strict contract, or denied. Those stops are
controls the harness hard-codes, and they do the job of some mitigation policies
(``access_aware_abstention``; ``evidence_gate`` on missing output): beside them such a
policy can add nothing, and its layer credit would say "no effect" about the harness rather
than about the policy. The ``open`` pipeline has no built-in stop: the reader is prompted
with whatever evidence survived (none after a missing or rejected call, the caller's visible
hits after a denial), as an agent that keeps going after a failed tool call would be. That
is where a policy that duplicates a stop shows what it is worth.

This module is light on purpose: run configs and ``--help`` import it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from simulator.registry import Registry
from simulator.vocabulary import DEFAULT_PIPELINE, PIPELINES

PIPELINE_HELP = ("paper (default): stop before a prompt when the tool output is missing, "
                 "rejected by the strict contract or denied, as in the paper; open: no "
                 "built-in stop, the reader sees whatever evidence survived")


def pipeline_of(manifest: Mapping[str, Any] | None) -> str:
    """The pipeline a run was made with, from its manifest (runs made before the option
    existed, and manifests without a config, are the paper's)."""
    config = (manifest or {}).get("config") or {}
    return str(config.get("pipeline", DEFAULT_PIPELINE))


def stops_before_prompt(pipeline: str) -> bool:
    """Does ``pipeline`` end unusable calls itself, without a prompt?"""
    return pipeline == "paper"


_KNOWN: Registry[str] = Registry("pipeline")
for _name in PIPELINES:
    _KNOWN.add(_name, _name)


def check_pipeline(name: str) -> str:
    """``name`` if it is a pipeline; otherwise a UsageError with a suggestion."""
    return _KNOWN.get(name)
