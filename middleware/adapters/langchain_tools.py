"""The endpoints of a PolicyEnvironment as LangChain tools.

The model supplies only the query (or document id). The caller's session comes from the run's
:class:`~middleware.adapters.plan.FaultPlan` (or a fixed ``session``), never from the model;
the endpoint state a fault asked for arrives through the tool runtime's state under
:data:`CONDITIONS_STATE_KEY` (LangGraph strips model-forgeable injected arguments, so the
middleware hands conditions over in a per-call state override instead). Each tool is a
:class:`PolicyTool` that carries its environment, so the middleware can hand it to the faults
that choose from its state (:func:`environment_of`). Their input schemas are explicit
(:class:`SearchArgs`, :class:`FetchArgs`): what the model supplies, nothing injected.
"""

from __future__ import annotations

import json
from typing import Any

from langchain.tools import ToolRuntime
from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, Field

from middleware.adapters.plan import plan_from_context
from simulator.corpus.model import SessionContext
from simulator.endpoints.conditions import HEALTHY, EndpointConditions
from simulator.endpoints.environment import PolicyEnvironment
from simulator.errors import UsageError

CONDITIONS_STATE_KEY = "layerrag_endpoint_conditions"
ATTEMPT_STATE_KEY = "layerrag_attempt"
"""Per-call state: the attempt number of this call, set by a harness that retries or counts
calls itself (simulator.agents.harness); without it the fault middleware counts the tool's
earlier messages."""
HONOURS_CONDITIONS = "layerrag_conditions"
"""Tool metadata flag: the tool reads EndpointConditions from its runtime state."""


class PolicyTool(StructuredTool):
    """A tool backed by a PolicyEnvironment: it honours EndpointConditions."""

    environment: PolicyEnvironment = Field(exclude=True, repr=False)
    session: SessionContext | None = None
    """The caller's session the tool always uses, or None: the run's plan names it."""


def environment_of(tool: BaseTool | None) -> PolicyEnvironment | None:
    """The PolicyEnvironment behind ``tool``, when it is a :class:`PolicyTool`."""
    return tool.environment if isinstance(tool, PolicyTool) else None


def session_of(tool: BaseTool | None) -> SessionContext | None:
    """The caller's session ``tool`` binds, when it is a :class:`PolicyTool` with one."""
    return tool.session if isinstance(tool, PolicyTool) else None


def conditions_from_runtime(runtime: ToolRuntime[Any, Any] | None) -> EndpointConditions:
    state = getattr(runtime, "state", None)
    found = state.get(CONDITIONS_STATE_KEY) if isinstance(state, dict) else None
    return EndpointConditions.model_validate(found) if found else HEALTHY


def _caller(runtime: ToolRuntime[Any, Any] | None, fixed: SessionContext | None
            ) -> SessionContext:
    if fixed is not None:
        return fixed
    plan = plan_from_context(getattr(runtime, "context", None))
    caller = plan.caller if plan is not None else None
    if caller is None:
        raise UsageError("the policy tools need the caller's session: pass session= to "
                         "policy_tools() or run the agent with context=FaultPlan(task=...)")
    return caller


class SearchArgs(BaseModel):
    """What the model supplies to ``search_policies``."""

    query: str = Field(description="What to search the policy library for.")


class FetchArgs(BaseModel):
    """What the model supplies to ``fetch_document``."""

    doc_id: str = Field(description="The doc_id of a search hit.")


def policy_tools(env: PolicyEnvironment, *, session: SessionContext | None = None
                 ) -> list[BaseTool]:
    """``search_policies`` and ``fetch_document`` over ``env``, for any LangChain agent."""

    def search_policies(query: str, runtime: ToolRuntime[Any, Any]) -> str:
        payload = env.search_policies(query, _caller(runtime, session),
                                      conditions_from_runtime(runtime))
        return json.dumps(payload)

    def fetch_document(doc_id: str, runtime: ToolRuntime[Any, Any]) -> str:
        payload = env.fetch_document(doc_id, _caller(runtime, session),
                                     conditions_from_runtime(runtime))
        return json.dumps(payload)

    # The endpoints do no I/O: the async versions answer in the event loop instead of
    # LangChain's default executor thread (a thread start per call under ``ainvoke``).
    async def asearch_policies(query: str, runtime: ToolRuntime[Any, Any]) -> str:
        return search_policies(query, runtime)

    async def afetch_document(doc_id: str, runtime: ToolRuntime[Any, Any]) -> str:
        return fetch_document(doc_id, runtime)

    flag = {HONOURS_CONDITIONS: True}
    return [
        PolicyTool.from_function(
            search_policies, coroutine=asearch_policies, name="search_policies",
            args_schema=SearchArgs, metadata=flag, environment=env,
            session=session,
            description="Search the company policy library. Returns JSON with ranked hits "
                        "(doc_id, title, text, metadata)."),
        PolicyTool.from_function(
            fetch_document, coroutine=afetch_document, name="fetch_document",
            args_schema=FetchArgs, metadata=flag, environment=env,
            session=session,
            description="Look up a policy document's registry record by doc_id: status, "
                        "effective year, version and superseded_by."),
    ]
