"""How a live model is asked for tool calls, and the preflight that picks the way its server
accepts.

LangChain's ``create_agent`` with a ``ToolStrategy`` response format forces a tool call on
every model turn (``tool_choice: "required"``). OpenAI, vLLM (with
``--enable-auto-tool-choice``) and llama.cpp's ``llama-server --jinja`` accept that;
llama-cpp-python's server answers it with HTTP 500 (it takes ``"none"``, ``"auto"`` or a
named tool), and some servers ignore it. So a live tool-calling agent's model is asked in
one of three modes:

``required``  what LangChain sends: ``tool_choice: "required"``;
``auto``      ``tool_choice: "auto"``, with one sentence added to the system prompt asking
              for a tool call on every turn (:data:`AUTO_INSTRUCTION`);
``named``     a named tool per step: the search tool until a search result came back,
              then the final-answer tool.

Before the first record, :func:`fix_tool_call_mode` sends the agent's real tools with each
mode in :data:`DETECT_ORDER` (or only the one ``--tool-choice`` names) and keeps the first
that comes back as a well-formed call of an offered tool; the mode is recorded in the run's
manifest, reused when the run resumes, shown in the summary line, and part of every agent
call's cache key; the disciplined model applies it (simulator/agents/live.py). If none
works the run stops in one line naming what the server said to each, exit 2, nothing
written; a server that refuses every mode with an error is left to the run (its records
become provider errors carrying the server's reason) and probed again on the next run.
A JSON-in-text protocol for servers with no tool calling at all is not built: such a server
is refused by the preflight.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage

from simulator.agent.observation import SEARCH_TOOL
from simulator.agents.answer import ANSWER_TOOL
from simulator.agents.prompt import SYSTEM_PROMPT

log = logging.getLogger(__name__)

ToolCallMode = Literal["required", "auto", "named"]
TOOL_CALL_MODES: tuple[ToolCallMode, ...] = ("required", "auto", "named")
DETECT_ORDER: tuple[ToolCallMode, ...] = TOOL_CALL_MODES
"""What ``--tool-choice detect`` (the default) tries, first accepted wins."""
AUTO_INSTRUCTION = ("Reply to every turn with a tool call: search with search_policies, "
                    f"then submit with {ANSWER_TOOL}. Never answer in plain text.")
PROBE_QUESTION = ("Question: How many days does the preflight marker policy allow?\n"
                  "Answer format: duration")
"""The tool-calling preflight's one user message: small, fixed, label-free."""


TEXT_TOOL_CALL = "wrote its tool call as text, which the server did not parse"
PARSER_HINT = ("start the server with its tool-call parser (vLLM: --enable-auto-tool-choice "
               "--tool-call-parser NAME; llama-server: --jinja; Ollama: a model whose "
               "template supports tools)")
_TEXT_CALL = re.compile(r'<tool_call>|^\s*\{\s*"name"\s*:\s*"[^"]+"\s*,\s*'
                        r'"(arguments|parameters)"\s*:', re.MULTILINE)


def text_tool_call(content: Any) -> bool:
    """The reply is a tool call written as text (Hermes-style ``<tool_call>`` tags, or a
    bare ``{"name": ..., "arguments": ...}`` object): the model called a tool, the server's
    parser did not turn it into ``tool_calls``."""
    text = content if isinstance(content, str) else " ".join(
        str(b.get("text", "")) if isinstance(b, dict) else str(b) for b in content or [])
    return bool(_TEXT_CALL.search(text))


def tool_choice(mode: str, messages: Sequence[BaseMessage]) -> str:
    """The ``tool_choice`` a model is bound with in ``mode`` at this point of the run."""
    if mode == "auto":
        return "auto"
    if mode == "named":
        searched = any(getattr(m, "type", None) == "tool" and getattr(m, "name", None)
                       == SEARCH_TOOL for m in messages)
        return ANSWER_TOOL if searched else SEARCH_TOOL
    return "required"


FORCED = ("required", "any")
"""``tool_choice`` values that force some tool call (OpenAI's and LangChain's spelling)."""


def forced(choice: Any) -> bool:
    """Whether ``choice`` forces a call of any tool (``"required"``, ``"any"``,
    Anthropic's ``{"type": "any"}``); a named tool and ``"auto"`` do not."""
    if isinstance(choice, dict):
        return choice.get("type") == "any"
    return choice in FORCED


def offered_names(tools: Sequence[Any]) -> list[str]:
    """The names of the tools a call offers, in the provider's format (OpenAI's
    ``{"function": {"name"}}``, Anthropic's ``{"name"}``)."""
    names = []
    for tool in tools:
        if isinstance(tool, dict):
            name = (tool.get("function") or {}).get("name") or tool.get("name")
        else:
            name = getattr(tool, "name", None)
        if name:
            names.append(str(name))
    return names


def with_mode(messages: list[BaseMessage], kwargs: dict[str, Any], mode: str,
              rebind: Callable[[list[Any], str], Any]) -> tuple[list[BaseMessage],
                                                               dict[str, Any]]:
    """A model call's messages and keyword arguments as ``mode`` asks for them.

    Only a call that forces a tool call changes (the server refused the forcing, which is
    what the mode is for); a call with ``"auto"``, a named tool or no tools is sent as it
    is. ``named`` names the search tool until a search result came back, then the answer
    tool, when they are offered (else the only tool offered, else it falls back to
    ``auto``). ``auto`` adds one sentence asking for a tool call to the system message.
    ``rebind(tools, choice)`` writes ``choice`` in the provider's own format.
    """
    if mode == "required" or not forced(kwargs.get("tool_choice")):
        return messages, kwargs
    names = offered_names(kwargs.get("tools") or [])
    choice = tool_choice(mode, messages)
    if mode == "named" and choice not in names:
        choice = names[0] if len(names) == 1 else "auto"
    kwargs = {**kwargs, "tool_choice": rebind(list(kwargs.get("tools") or []), choice)}
    if choice == "auto":
        messages = _asking_for_a_tool_call(messages, names)
    return messages, kwargs


def _asking_for_a_tool_call(messages: list[BaseMessage],
                            names: list[str]) -> list[BaseMessage]:
    """``messages`` with a sentence asking for a tool call at the end of the system message
    (one is put first if there is none)."""
    ours = {SEARCH_TOOL, ANSWER_TOOL} <= set(names)
    sentence = AUTO_INSTRUCTION if ours else (
        f"Reply to this turn with a tool call ({', '.join(names)}). "
        "Never answer in plain text.")
    first = messages[0] if messages else None
    if isinstance(first, SystemMessage) and isinstance(first.content, str):
        return [SystemMessage(f"{first.content}\n\n{sentence}".strip()), *messages[1:]]
    return [SystemMessage(sentence), *messages]


async def fix_tool_call_mode(reader: Any, tools: Sequence[Any], services: Any) -> str:
    """The mode ``reader``'s model is asked for tool calls in this run, found as the module
    docstring says (a recorded mode is kept without a request). Raises
    :class:`~simulator.readers.chat_probe.PreflightFailed` when none works."""
    from simulator.readers.chat_probe import PreflightFailed

    recorded = services.tool_call_mode.get(reader.name)
    if recorded is not None:
        return cast(str, recorded)
    forced = reader.settings.tool_choice
    candidates = DETECT_ORDER if forced == "detect" else (forced,)
    tried: list[str] = []
    for mode in candidates:
        why = await _try(reader, tools, mode)
        if why is None:
            services.tool_call_mode[reader.name] = mode
            if tried:
                log.info("%s: tool calls as %s (%s)", reader.name, mode, "; ".join(tried))
            return mode
        tried.append(f"{mode}: {why}")
    if all(why.split(": ", 1)[1].startswith("refused") for why in tried):
        # the server answers every mode with errors: the run's records will say so (as
        # provider errors), and a re-run probes again, as the structured-output preflight does
        log.warning("%s: every tool-call mode was refused (%s); using %s, to be probed again "
                    "when the run is re-run", reader.name, "; ".join(tried), candidates[0])
        return candidates[0]
    where = f" at {reader.base_url}" if reader.base_url else ""
    hint = (f"; {PARSER_HINT}" if any(why.endswith(TEXT_TOOL_CALL) for why in tried) else "")
    raise PreflightFailed(f"preflight: {reader.name}{where} made no usable tool call "
                          f"({'; '.join(tried)}){hint}; nothing was run (docs/live_models.md, "
                          "tool-calling agents)")


async def _try(reader: Any, tools: Sequence[Any], mode: str) -> str | None:
    """None when ``mode`` gets a well-formed call of an offered tool, else why not."""
    from simulator.live.classify import describe, is_fatal, is_provider_error, status_of
    from simulator.live.policy import acall_with_retries
    from simulator.readers.chat_probe import PreflightFailed

    svc = reader.services
    system = SYSTEM_PROMPT + (f"\n\n{AUTO_INSTRUCTION}" if mode == "auto" else "")
    messages = [SystemMessage(system), HumanMessage(PROBE_QUESTION)]
    bound = reader.chat_model.bind_tools(list(tools), tool_choice=tool_choice(mode, []))
    offered = {getattr(t, "name", None) or getattr(t, "__name__", "") for t in tools}

    async def attempt() -> AIMessage:
        svc.budget.reserve_call()
        svc.stats.add("preflight")
        return cast(AIMessage, await bound.ainvoke(messages))

    try:
        message = await acall_with_retries(attempt, svc.retry, sleep=svc.pause)
    except Exception as exc:
        if not is_provider_error(exc):
            raise
        if is_fatal(exc) or status_of(exc) is None:
            where = f" at {reader.base_url}" if reader.base_url else ""
            raise PreflightFailed(f"preflight: {reader.name}{where} did not answer a "
                                  f"tool-calling request ({describe(exc)}); nothing was run"
                                  ) from None
        return f"refused ({describe(exc)})"
    calls = message.tool_calls or []
    if not calls and text_tool_call(message.content):
        return TEXT_TOOL_CALL
    if not calls:
        return "answered without a tool call"
    if any(c.get("name") not in offered for c in calls):
        return f"called an unknown tool {calls[0].get('name')!r}"
    return None
