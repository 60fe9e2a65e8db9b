"""Nothing the agent under test can reach holds an evaluator-only value.

During real runs (the pipeline, ``react`` and ``examples.custom_agent``, over every scenario
on a few tasks), a spy walks everything reachable from what the agent is handed:

- tool-calling agents: a user middleware installed innermost, as a user's would be, walks
  ``request.runtime`` (context, store, stream writer, ...), ``request.state``, ``request.tool``
  and the tool call on every tool call, and ``state`` / ``runtime`` before every model call,
  and the ``ModelRequest``'s model, tools, messages and settings on every model call;
- the pipeline: its runtime context (the :class:`BatchContext` of :class:`AgentContext`\\ s:
  chain, gate, reader, fetcher), its graph state, and every ``ReaderInput`` its reader is
  handed (a spy reader in place of the deterministic one).

The walk follows object attributes, dict / list / tuple / set items, pydantic fields and
private attributes, dataclass fields, ``functools.partial`` parts, bound methods' ``__self__``,
weak references, and functions' closure cells and defaults. It does not follow classes,
modules or a function's ``__globals__`` (any Python code can import any module; the promise is
about what the harness *hands* the agent), nor frames, coroutines and asyncio tasks (the
running stack reaches the runner by construction).

What counts as evaluator-only, and why this check is fair: required document ids are document
ids, which the retriever legitimately returns, and expected answers are values a document's
text legitimately states, so neither can be looked for as a bare string. The walk instead
looks for the label *objects* (a :class:`Labels`, a :class:`Corpus` that holds labels, the
:class:`MatrixRunner` that owns one, the :class:`Recorder` the scorer reads) and for
label-only *values*: every task's expected, accepted and superseded answers and unit id are
replaced by canary strings that occur in no document, so finding one means a label leaked. A
positive control walks the runner itself and must find both.
"""

from __future__ import annotations

import dataclasses
import functools
import types
import weakref
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from langchain.agents.middleware import AgentMiddleware
from pydantic import BaseModel

from simulator.agents.harness import Recorder, ToolRunContext
from simulator.agents.registry import resolve_agent
from simulator.corpus import Corpus, Labels
from simulator.endpoints import PolicyEnvironment
from simulator.runner.config import RunConfig
from simulator.runner.matrix import Cell, MatrixRunner
from simulator.vocabulary import SCENARIO_GROUPS, SCENARIO_NAMES

CANARY = "LABELCANARY"
SCENARIOS = tuple(dict.fromkeys((*SCENARIO_NAMES, *SCENARIO_GROUPS["misleading"])))
ROWS = range(2)
_LEAVES = (str, bytes, int, float, complex, bool, type(None))
_NOT_FOLLOWED = (type, types.ModuleType, types.FrameType, types.CoroutineType,
                 types.GeneratorType, types.AsyncGeneratorType, types.CodeType)


def _children(obj: Any) -> Iterator[Any]:
    if isinstance(obj, Mapping):
        for k, v in list(obj.items()):
            yield k
            yield v
    elif isinstance(obj, (list, tuple, set, frozenset)):
        yield from list(obj)
    if isinstance(obj, BaseModel):
        yield from (obj.__dict__ or {}).values()
        yield from (getattr(obj, "__pydantic_private__", None) or {}).values()
        yield from (getattr(obj, "__pydantic_extra__", None) or {}).values()
    if isinstance(obj, types.FunctionType):
        yield from (c.cell_contents for c in obj.__closure__ or () if _filled(c))
        yield obj.__defaults__
        yield obj.__kwdefaults__
        yield getattr(obj, "__wrapped__", None)
        return
    if isinstance(obj, types.MethodType):
        yield obj.__self__
        yield obj.__func__
        return
    if isinstance(obj, functools.partial):
        yield obj.func
        yield obj.args
        yield obj.keywords
    if isinstance(obj, weakref.ref):
        yield obj()
    if dataclasses.is_dataclass(obj):
        yield from (getattr(obj, f.name, None) for f in dataclasses.fields(obj))
    if hasattr(obj, "__dict__") and not isinstance(obj, BaseModel):
        yield from list(vars(obj).values())
    for slot in getattr(type(obj), "__slots__", ()):
        if isinstance(slot, str) and slot not in ("__dict__", "__weakref__"):
            yield getattr(obj, slot, None)


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018  (an empty cell raises)
    except ValueError:
        return False
    return True


def walk(*roots: Any) -> Iterator[Any]:
    """Every object reachable from ``roots`` by the rules of the module docstring."""
    seen: set[int] = set()
    stack = list(roots)
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, _LEAVES) or isinstance(obj, _NOT_FOLLOWED):
            continue
        stack.extend(_children(obj))


def evaluator_only(obj: Any) -> str | None:
    """Why ``obj`` is evaluator-only, or None."""
    if isinstance(obj, Labels):
        return f"Labels of {obj.task_id}"
    if isinstance(obj, Recorder):
        return "the scorer's Recorder"
    if isinstance(obj, Corpus) and obj.labels:
        return f"corpus {obj.name} with {len(obj.labels)} labels"
    if isinstance(obj, MatrixRunner):
        return "the MatrixRunner (it owns the labelled corpus)"
    if isinstance(obj, str) and CANARY in obj:
        return f"a label value: {obj[:60]!r}"
    return None


class Findings:
    def __init__(self) -> None:
        self.leaks: set[str] = set()
        self.reached: set[str] = set()
        self.walks = 0

    def look(self, *roots: Any) -> None:
        self.walks += 1
        for obj in walk(*roots):
            why = evaluator_only(obj)
            if why is not None:
                self.leaks.add(why)
            for kind in (PolicyEnvironment, ToolRunContext, BaseModel):
                if isinstance(obj, kind):
                    self.reached.add(kind.__name__)


class SpyMiddleware(AgentMiddleware):
    """A user's middleware that reads everything it is handed."""

    def __init__(self, findings: Findings) -> None:
        super().__init__()
        self.findings = findings

    def wrap_tool_call(self, request: Any, handler: Any) -> Any:
        self.findings.look(request.runtime, request.state, request.tool, request.tool_call)
        return handler(request)

    async def awrap_tool_call(self, request: Any, handler: Any) -> Any:
        self.findings.look(request.runtime, request.state, request.tool, request.tool_call)
        return await handler(request)

    def wrap_model_call(self, request: Any, handler: Any) -> Any:
        self.findings.look(*_model_parts(request))
        return handler(request)

    async def awrap_model_call(self, request: Any, handler: Any) -> Any:
        self.findings.look(*_model_parts(request))
        return await handler(request)


def _model_parts(request: Any) -> tuple[Any, ...]:
    """What a model call adds to what ``before_model`` walked (its state and runtime)."""
    return (request.model, request.tools, request.messages, request.model_settings,
            getattr(request, "system_message", None), request.response_format)

    def before_model(self, state: Any, runtime: Any) -> None:
        self.findings.look(state, runtime)

    async def abefore_model(self, state: Any, runtime: Any) -> None:
        self.findings.look(state, runtime)


class SpyReader:
    """The deterministic reader, walking every input it is handed."""

    def __init__(self, inner: Any, findings: Findings) -> None:
        self.inner, self.findings = inner, findings
        self.name, self.provider = inner.name, inner.provider
        self.template_version = inner.template_version

    def read(self, item: Any) -> Any:
        self.findings.look(item)
        return self.inner.read(item)


@pytest.fixture(scope="module")
def canary_corpus(corpus: Corpus) -> Corpus:
    """enterprise_v2 with every label-only value replaced by a canary."""
    labels = tuple(lab.model_copy(update={
        "expected_answer": f"{CANARY}-{lab.row}-expected",
        "accepted_answers": (f"{CANARY}-{lab.row}-expected", f"{CANARY}-{lab.row}-alias"),
        "superseded_answers": (f"{CANARY}-{lab.row}-superseded",),
        "unit_id": f"{CANARY}-{lab.unit}-unit"}) for lab in corpus.labels)
    return corpus.model_copy(update={"labels": labels})


def _cells(runner: MatrixRunner, corpus: Corpus, agent: str) -> list[Cell]:
    return [Cell("deterministic", s, mode, "uncontrolled", corpus.tasks[r], corpus.labels[r],
                 agent) for s in SCENARIOS for mode in runner.config.modes for r in ROWS]


def test_the_walk_finds_labels_where_they_are(canary_corpus: Corpus) -> None:
    """Positive control: the runner owns the labelled corpus, and the walk finds it."""
    findings = Findings()
    findings.look(MatrixRunner(RunConfig(), canary_corpus))
    assert any(why.startswith("Labels of") for why in findings.leaks)
    assert any(why.startswith("a label value") for why in findings.leaks)


@pytest.mark.slow
@pytest.mark.parametrize("agent", ["react", "examples.custom_agent:build_agent"])
def test_a_user_middleware_reaches_nothing_evaluator_only(canary_corpus: Corpus,
                                                          agent: str) -> None:
    findings = Findings()
    spec = resolve_agent(agent)
    factory = spec.factory
    assert factory is not None

    def spied(model: Any, tools: Any, middleware: Any) -> Any:
        return factory(model, tools, [*middleware, SpyMiddleware(findings)])

    runner = MatrixRunner(RunConfig(scenarios=SCENARIOS, agent=agent), canary_corpus,
                          agent=dataclasses.replace(spec, factory=spied))
    records = runner.run_cells(_cells(runner, canary_corpus, agent))
    assert all(r.trace["tool_calls"] for r in records)
    assert findings.walks >= len(records) * 2
    assert {"PolicyEnvironment", "ToolRunContext"} <= findings.reached  # the walk got in
    assert findings.leaks == set()


def test_the_pipeline_hands_its_nodes_and_reader_nothing_evaluator_only(
        canary_corpus: Corpus) -> None:
    from simulator.agent.graph import run_episodes
    from simulator.agent.state import BatchContext

    findings = Findings()
    config = RunConfig(scenarios=SCENARIOS, pipeline="open")  # the reader reads every record
    runner = MatrixRunner(config, canary_corpus)
    runner.readers["deterministic"] = SpyReader(runner.readers["deterministic"], findings)
    contexts = [runner.context(c) for c in _cells(runner, canary_corpus, "pipeline")]
    findings.look(BatchContext(tuple(contexts)))
    episodes = run_episodes(runner.graph, contexts)
    findings.look(episodes)
    assert findings.walks >= len(contexts) + 2
    assert "PolicyEnvironment" in findings.reached
    assert findings.leaks == set()
