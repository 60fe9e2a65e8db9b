"""Command-line options for live runs: one group for every command that runs records
(``run``, ``study focused``, ``credit``; simulator/cli/live_run.py runs them). A new live
option is one ``add(...)`` line here (and its name in ``_LIVE_DESTS``).

Options that change answers (output tokens, temperature, structured-output method) become
generation settings in the run config (and so the run id); the others become
:class:`~simulator.live.options.LiveOptions`, which a resumed run may change freely
(raise the budget, lower the concurrency, switch to replay).
"""

from __future__ import annotations

import argparse
import functools
import math
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from simulator.errors import UsageError
from simulator.live.cache import default_cache_path
from simulator.live.options import LiveOptions, Price
from simulator.live.policy import RetryPolicy

_OFF = ("off", "none", "no")


def add_source_priority_option(parser: argparse.ArgumentParser) -> None:
    """``--source-priority`` (RAG-Stress's instruction to chat models), for every command
    that runs records: it changes prompts, so it is part of the run id when given."""
    from simulator.vocabulary import SOURCE_PRIORITIES

    parser.add_argument("--source-priority", choices=SOURCE_PRIORITIES, default=None,
                        help="RAG-Stress source-priority instruction for chat models: strict "
                             "(rely on the documents) or soft (they may be wrong); part of "
                             "the run id (docs/misleading.md)")


def add_live_options(parser: argparse.ArgumentParser) -> None:
    """The live options. None has a parser default (each is absent unless given, and the
    functions below fill in the defaults), so :func:`given_live_options` can tell which
    ones a user named."""
    group = parser.add_argument_group(
        "live models", "calls, budgets and record/replay for openai:/anthropic:/google: models")
    add = functools.partial(group.add_argument, default=argparse.SUPPRESS)
    add("--concurrency", type=int, metavar="N", help="records in flight at once (default 8)")
    add("--rpm", type=float, metavar="N",
        help="requests per minute per model (default: no limit)")
    add("--max-calls", type=int, metavar="N",
        help="stop cleanly after N provider requests in this run directory "
             "(retries count; cache hits do not); re-run with more to resume")
    add("--max-tokens", type=int, metavar="N",
        help="stop cleanly once N input+output tokens are spent")
    add("--timeout", type=float, metavar="S", help="request timeout in seconds (default 180)")
    add("--attempts", type=int, metavar="N", help="total attempts per call (default 3)")
    add("--backoff", type=float, metavar="S",
        help="linear backoff step in seconds: wait S, 2S, ... (default 2)")
    add("--max-output-tokens", type=int, metavar="N",
        help="output token cap per call (default 600)")
    add("--temperature", type=float, metavar="T",
        help="sampling temperature (default: the provider's)")
    add("--structured-output", choices=("auto", "json_schema", "json_object", "tool",
                                        "json_prompt"),
        help="how answers are requested (default auto: a tool call for Anthropic and "
             "Gemini; for OpenAI-compatible servers the first of json_schema, json_object, "
             "json_prompt the server accepts, found once per run)")
    add("--tool-choice", choices=("detect", "required", "auto", "named"),
        help="how a tool-calling agent's model is asked for tool calls (default detect: "
             "the first of required, auto, named the server accepts, found once per run; "
             "docs/live_models.md)")
    add("--cache", metavar="PATH|off",
        help=f"call cache shared across runs (default {default_cache_path()}); "
             "'off' disables recording")
    add("--keep-provider-errors", action="store_true",
        help="on resume, keep records stored as provider errors (default: retry them)")
    add("--replay", action="store_true",
        help="answer from the call cache only; a miss stops the run")
    add("--price", action="append", metavar="MODEL=IN,OUT",
        help="USD per million input and output tokens, e.g. "
             "openai:gpt-4o=2.5,10 (repeatable); records cost_usd")


_LIVE_DESTS = ("concurrency", "rpm", "max_calls", "max_tokens", "timeout", "attempts",
               "backoff", "max_output_tokens", "temperature", "structured_output", "tool_choice",
               "cache",
               "replay", "price", "keep_provider_errors")


def given_live_options(args: argparse.Namespace) -> list[str]:
    """The live options named on the command line, as flags (``--max-calls``)."""
    return ["--" + dest.replace("_", "-") for dest in _LIVE_DESTS if hasattr(args, dest)]


def check_live_options_apply(args: argparse.Namespace, models: tuple[str, ...]) -> None:
    """Refuse live options given for a run whose readers are all deterministic."""
    from simulator.live.options import is_live

    unused = given_live_options(args) if not is_live(models) else []
    if unused:
        raise UsageError(f"{unused[0]} applies to live models only; the deterministic reader "
                         "makes no provider calls")


def generation_from_args(args: argparse.Namespace) -> dict[str, Any]:
    """Generation settings (part of the run id) for live runs."""
    from simulator.readers.chat_clients import GenerationSettings

    try:
        settings = GenerationSettings(
            max_output_tokens=getattr(args, "max_output_tokens", 600),
            temperature=getattr(args, "temperature", None),
            output=getattr(args, "structured_output", "auto"),
            tool_choice=getattr(args, "tool_choice", None) or "detect")
    except ValidationError as exc:
        raise UsageError(_first_error(exc, "generation")) from None
    dump = settings.model_dump()
    if settings.tool_choice != "detect":  # part of the run id only when given
        dump["tool_choice"] = settings.tool_choice
    return dump


def live_options_from_args(args: argparse.Namespace) -> LiveOptions:
    cache_arg = getattr(args, "cache", None)
    cache: Path | None = (default_cache_path() if cache_arg is None else
                          None if cache_arg.lower() in _OFF else Path(cache_arg).expanduser())
    if cache is not None and cache.is_dir():
        raise UsageError(f"--cache {cache_arg or cache}: is a directory; name the cache file, "
                         f"e.g. {cache / 'calls.sqlite'}")
    try:
        return LiveOptions(
            concurrency=getattr(args, "concurrency", 8), rpm=getattr(args, "rpm", None),
            max_calls=getattr(args, "max_calls", None),
            max_tokens=getattr(args, "max_tokens", None),
            timeout_s=getattr(args, "timeout", 180.0),
            retry=RetryPolicy(attempts=getattr(args, "attempts", 3),
                              backoff_s=getattr(args, "backoff", 2.0)),
            cache=cache, replay=getattr(args, "replay", False),
            keep_provider_errors=getattr(args, "keep_provider_errors", False),
            prices=dict(parse_price(p) for p in getattr(args, "price", [])),
        )
    except ValidationError as exc:
        raise UsageError(_first_error(exc, "live option")) from None


def parse_price(text: str) -> tuple[str, Price]:
    model, sep, numbers = text.rpartition("=")
    parts = numbers.split(",")
    try:
        if not sep or not model or len(parts) != 2:
            raise ValueError
        price = (float(parts[0]), float(parts[1]))
    except ValueError:
        raise UsageError(f"--price {text!r}: expected MODEL=IN,OUT in USD per million "
                         "tokens, e.g. openai:gpt-4o=2.5,10") from None
    if not all(math.isfinite(p) and p >= 0 for p in price):
        raise UsageError(f"--price {text!r}: a price is a finite number of USD, at least 0")
    return model, price


_FLAGS = {"concurrency": "--concurrency", "rpm": "--rpm", "max_calls": "--max-calls",
          "max_tokens": "--max-tokens", "timeout_s": "--timeout", "attempts": "--attempts",
          "backoff_s": "--backoff", "max_output_tokens": "--max-output-tokens",
          "temperature": "--temperature"}


def _first_error(exc: ValidationError, what: str) -> str:
    err = exc.errors()[0]
    field = str(err["loc"][-1]) if err["loc"] else what
    value = err.get("input")
    return f"{_FLAGS.get(field, field)} {value!r}: {err['msg'].lower()}"
