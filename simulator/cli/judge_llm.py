"""The LLM judge's command-line options and how ``layerrag judge`` runs it.

Kept apart from the agent's live options (simulator/cli/live_options.py) on purpose: the
judge's budget (``--judge-max-calls``), its spend ledger and its counts are its own, so a
judge never spends the agent's budget and a report never mixes the two.
"""

from __future__ import annotations

import argparse
import functools
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.live.cache import default_cache_path

if TYPE_CHECKING:
    from simulator.judge.llm import LLMJudge
    from simulator.judge.llm_run import LLMJudgeRun
    from simulator.judge.model import Judgment
    from simulator.live.budget import Spend
    from simulator.runner.store import RunStore

EXIT_BUDGET = 3
EXIT_PROVIDER_REFUSING = 7


def is_llm_judge(name: str) -> bool:
    return ":" in name


def add_llm_judge_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "LLM judge", "with --judge PROVIDER:MODEL (openai:, anthropic:, google:); the judge's "
                     "calls are budgeted, cached and counted apart from the agent's")
    add = functools.partial(group.add_argument, default=argparse.SUPPRESS)
    add("--base-url", metavar="URL",
        help="an OpenAI-compatible server for openai:MODEL (llama.cpp, vLLM, Ollama)")
    add("--judge-max-calls", type=int, metavar="N",
        help="at most N judge requests for this run directory in all (retries count, cache "
             "hits do not); the command stops with exit 3, re-run with more to resume")
    add("--judge-attempts", type=int, metavar="N",
        help="requests per record when the reply is malformed (default 3), then the "
             "record is unjudged")
    add("--judge-output", choices=("auto", "json_schema", "json_object", "tool",
                                   "json_prompt"),
        help="how the judgment is requested (default auto: as --structured-output)")
    add("--concurrency", type=int, metavar="N", help="judge calls in flight (default 8)")
    add("--timeout", type=float, metavar="S", help="request timeout in seconds (default 180)")
    add("--attempts", type=int, metavar="N",
        help="attempts per request on transient provider errors (default 3)")
    add("--backoff", type=float, metavar="S", help="linear backoff step (default 2)")
    add("--rpm", type=float, metavar="N", help="judge requests per minute (default: no limit)")
    add("--cache", metavar="PATH|off",
        help=f"call cache (default {default_cache_path()}); 'off' disables it")
    add("--replay", action="store_true",
        help="answer from the call cache only; a miss stops the command")
    add("--price", action="append", metavar="MODEL=IN,OUT",
        help="USD per million input and output tokens of the judge model")
    add("--no-progress", action="store_true", help="no progress lines on stderr")


_DESTS = ("base_url", "judge_max_calls", "judge_attempts", "judge_output", "concurrency",
          "timeout", "attempts", "backoff", "rpm", "cache", "replay", "price")


def refuse_llm_options_for(args: argparse.Namespace) -> None:
    """The LLM-judge options mean nothing to the deterministic judge: say so, exit 2."""
    from simulator.errors import UsageError

    given = [d for d in _DESTS if hasattr(args, d)]
    if given:
        flag = "--" + given[0].replace("_", "-")
        raise UsageError(f"{flag} applies to an LLM judge (--judge PROVIDER:MODEL); the "
                         "deterministic judge makes no calls")


@dataclass
class JudgeCall:
    """One invocation of an LLM judge over one run: the result and its spend."""

    run: LLMJudgeRun
    judge: LLMJudge
    spent: Spend
    stats: dict[str, int]
    probes: dict[str, dict[str, Judgment]] | None = None
    """Calibration's probe judgments, by probe and record key."""

    def summary(self) -> str:
        s, st = self.spent, self.stats
        cost = f", ${s.cost_usd:.4f}" if s.cost_usd else ""
        ms = st.get("judge_ms", 0) / max(1, st.get("requests", 0) - st.get("preflight", 0))
        kept = (f"{self.run.resumed} judgments kept from an earlier invocation, "
                if self.run.resumed else "")
        return (f"judge calls ({self.judge.name}, {self.judge.output_method}): {kept}"
                f"{st.get('requests', 0)} requests this time ({st.get('preflight', 0)} "
                f"preflight), {st.get('judge_cache_hits', 0)} from the cache, "
                f"{st.get('judge_malformed', 0)} malformed replies, {ms / 1000:.2f} s per "
                f"call; this run directory's judge spend: {s.calls} calls, "
                f"{s.input_tokens} in + {s.output_tokens} out tokens{cost} "
                "(apart from the agent's)")

    def as_json(self) -> dict[str, Any]:
        return {"judge": self.judge.name, "output_method": self.judge.output_method,
                "resumed": self.run.resumed, "judged_now": self.run.called,
                "this_invocation": self.stats, "run_dir_spend": self.spent.model_dump()}


def run_llm_judge(args: argparse.Namespace, store: RunStore, *, write: bool = True,
                  probes: bool = False) -> JudgeCall:
    """Build the judge from ``args`` and judge every record of ``store`` (and, with
    ``probes``, calibration's probe inputs of every record it judged)."""
    from simulator.cli.live_options import live_options_from_args
    from simulator.errors import UsageError
    from simulator.judge.llm import DEFAULT_ATTEMPTS, LLMJudge
    from simulator.judge.llm_run import JUDGE_SPEND_FILE, judge_probes, judge_store_llm
    from simulator.live.budget import read_spend
    from simulator.live.services import build_services

    max_calls = getattr(args, "judge_max_calls", None)
    if max_calls is not None and max_calls < 0:
        raise UsageError(f"--judge-max-calls must be 0 or more, got {max_calls}")
    options = live_options_from_args(argparse.Namespace(**{
        k: v for k, v in vars(args).items() if k in _DESTS and k not in (
            "base_url", "judge_max_calls", "judge_attempts", "judge_output")}))
    options = options.model_copy(update={"max_calls": max_calls})
    ledger = None if store.read_only or not write else Path(store.run_dir) / JUDGE_SPEND_FILE
    services = build_services(options, spent=read_spend(Path(store.run_dir) /
                                                        JUDGE_SPEND_FILE),
                              spend_ledger=ledger)
    try:
        judge = LLMJudge(args.judge, services=services, base_url=getattr(args, "base_url", None),
                         output=getattr(args, "judge_output", "auto"),
                         attempts=getattr(args, "judge_attempts", DEFAULT_ATTEMPTS))
        run = judge_store_llm(store, judge, concurrency=options.concurrency, write=write,
                              progress=False if getattr(args, "no_progress", False) else None)
        probed = None
        if probes and run.stopped is None:
            judged = {j.judgment.key for j in run.judged if j.judgment.status == "judged"}
            probed, run.stopped = judge_probes(
                judge, {k: v for k, v in run.items.items() if k in judged},
                concurrency=options.concurrency)
        services.budget.checkpoint()
    finally:
        services.close()
    return JudgeCall(run, judge, services.budget.spent, services.stats.snapshot(), probed)


def stop_code(call: JudgeCall) -> int | None:
    """The exit code of a judge that stopped early (after saying why), else None."""
    from simulator.live.errors import BudgetExhausted, ProviderRefusing

    stop = call.run.stopped
    if stop is None:
        return None
    judged = sum(1 for j in call.run.judged if j.judgment.status == "judged")
    left = sum(1 for j in call.run.judged if j.judgment.status == "unjudged"
               and (j.judgment.reason or "").startswith("judge provider error"))
    print(f"judge stopped: {stop}; {judged} records judged so far are stored"
          f"{f', {left} provider errors left to retry' if left else ''}. Re-run the same "
          "command to resume" + (" with a larger --judge-max-calls"
                                 if isinstance(stop, BudgetExhausted) else ""),
          file=sys.stderr)
    print(call.summary(), file=sys.stderr)
    if isinstance(stop, BudgetExhausted):
        return EXIT_BUDGET
    if isinstance(stop, ProviderRefusing):
        return EXIT_PROVIDER_REFUSING
    raise stop  # a replay miss: one line, exit 2
