"""The matrix's cells, and the runner that turns one cell into a scored record.

:class:`MatrixRunner` owns what a run builds once (the compiled agent graph, each scenario's
tool chain, each arm's gate, each model's reader) and makes the per-record
:class:`~simulator.agent.state.AgentContext`. Both loops use it, through the same compiled
graph: the deterministic one in :mod:`simulator.runner.matrix` (a batch of episodes per
``ainvoke``) and the live one in :mod:`simulator.runner.live` (one episode per
``ainvoke``). Keeping it out of both lets the deterministic loop hand live runs to the live
one without an import cycle.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from middleware import FaultContext, ToolCall, build_tool_chain, get_scenario
from simulator.agent.graph import arun_episodes, build_agent_graph
from simulator.agent.state import AgentContext, DocumentFetcher, Episode
from simulator.agents.registry import AgentSpec, resolve_agent
from simulator.corpus import Corpus, build_corpus
from simulator.corpus.model import Labels, Task
from simulator.errors import UsageError
from simulator.live.loop import run_blocking
from simulator.live.options import is_live
from simulator.readers.call_metadata import Metadata, run_metadata
from simulator.runner.config import RunConfig
from simulator.runner.record import RecordKey, RunRecord
from simulator.runner.scoring import scored
from simulator.runner.trajectory.build import build_trajectory
from simulator.runner.validate import validate_config
from simulator.vocabulary import DEFAULT_AGENT

if TYPE_CHECKING:
    from simulator.agents.harness import ToolRunContext


@dataclass(frozen=True)
class Cell:
    """One record to produce."""

    model: str
    scenario: str
    mode: str
    arm: str
    task: Task
    labels: Labels
    agent: str = DEFAULT_AGENT

    @property
    def key(self) -> RecordKey:
        return RecordKey(model=self.model, scenario=self.scenario, contract_mode=self.mode,
                         arm=self.arm, task_id=self.task.task_id, agent=self.agent)


EXIT_AGENT_ERRORS = 5
"""``layerrag run`` (and ``study focused``, ``credit``) exit code when the matrix is complete
but some records are agent errors: the agent under test broke (re-running does not help;
fix the agent). Provider errors (4) take precedence: re-running retries those."""


@dataclass
class RunSummary:
    run_id: str
    run_dir: Path
    total: int
    already_done: int
    written: int
    seconds: float
    agent_errors: int = 0
    """Records of the run directory stored as agent errors when this invocation ended."""
    first_agent_error: str | None = None
    """The first of them's reason (record order)."""

    @property
    def exit_code(self) -> int:
        return EXIT_AGENT_ERRORS if self.agent_errors else 0


def cells(config: RunConfig, corpus: Corpus) -> Iterator[Cell]:
    pairs = list(zip(corpus.tasks, corpus.labels, strict=True))
    if config.task_rows is not None:
        wanted = set(config.task_rows)
        pairs = [p for p in pairs if p[0].row in wanted]
    pairs = pairs[: config.tasks]
    for model in config.models:
        for scenario in config.scenarios:
            for mode in config.modes:
                for arm in config.arms:
                    for task, labels in pairs:
                        yield Cell(model, scenario, mode, arm, task, labels, config.agent)


class MatrixRunner:
    """Owns the compiled graph and the per-scenario tool chains of one run."""

    def __init__(self, config: RunConfig, corpus: Corpus | None = None,
                 agent: AgentSpec | None = None) -> None:
        """``agent`` overrides the registry for ``config.agent`` (a factory object handed to
        ``simulator.testing.evaluate``)."""
        from policies import get_arm
        from simulator.endpoints import PolicyEnvironment
        from simulator.readers.registry import resolve_reader

        validate_config(config, agent)
        self.config = config
        self.corpus = corpus or build_corpus(config.spec, config.seed)
        unknown = sorted(set(config.task_rows or ()) - {t.row for t in self.corpus.tasks})
        if unknown:
            raise UsageError(f"task_rows {unknown} are not rows of corpus {self.corpus.name} "
                             f"(0..{len(self.corpus.tasks) - 1})")
        self.env = PolicyEnvironment.from_corpus(self.corpus, retriever=config.retriever,
                                                 top_k=config.top_k)
        self.graph = build_agent_graph()
        self.chains = {s: build_tool_chain(get_scenario(s), self.env) for s in config.scenarios}
        self.gates = {a: get_arm(a) for a in config.arms}
        self.readers = {m: resolve_reader(m, base_url=config.base_url,
                                          generation=config.generation) for m in config.models}
        self.agent = agent or resolve_agent(config.agent)
        self.record_timeout = config.record_timeout_seconds
        self.sync_invoke = False
        """Invoke the agent with ``invoke`` on a worker thread (set by the preflight)."""
        self.run_id = config.run_id(self.corpus.corpus_hash)
        self.tool_graphs = self._tool_graphs() if self.agent.kind == "tool_calling" else {}
        if self.tool_graphs:
            self.sync_invoke = run_blocking(self._preflight())

    def _tool_graphs(self) -> dict[str, Any]:
        """One compiled tool-calling agent per model, with layerrag's harness installed."""
        from simulator.agents.preflight import built_graph
        from simulator.agents.tool_model import DeterministicToolCallingModel

        tools, harness = self._tools_and_harness()
        graphs = {}
        for model, reader in self.readers.items():
            if not is_live((model,)):  # the deterministic reader's tool-calling twin
                driver = DeterministicToolCallingModel(
                    conversation=self.config.suite == "cases")
                graphs[model] = built_graph(self.agent, driver, tools, harness)
                continue
            from simulator.agents.live import disciplined
            from simulator.readers.chat import ChatReader

            assert isinstance(reader, ChatReader)  # every live reader is a chat reader

            chat = disciplined(reader.chat_model, model=model, base_url=self.config.base_url,
                               generation=reader.settings.model_dump(),
                               services=reader.services)
            graphs[model] = built_graph(self.agent, chat, tools, harness)
        return graphs

    @property
    def tool_specs(self) -> list[Any]:
        """What a tool-calling agent's model is offered: the tools and the final-answer
        schema (the tool-calling preflight sends exactly these)."""
        from middleware import policy_tools
        from simulator.agents.answer import FinalAnswer

        return [*policy_tools(self.env), FinalAnswer]

    def _tools_and_harness(self) -> tuple[list[Any], list[Any]]:
        """The tools handed to an agent factory, each carrying the harness (faults, the
        contract step, the recording, the arm's policies: simulator/agents/tools.py), and
        the one middleware a ``create_agent`` graph installs to stop once a policy ended
        the record."""
        from middleware import policy_tools
        from simulator.agents.tools import PolicyStopMiddleware, harnessed_tools

        return harnessed_tools(list(policy_tools(self.env))), [PolicyStopMiddleware()]

    async def _preflight(self) -> bool:
        """Run the agent's probe record offline (simulator/agents/preflight.py); return
        whether its graph must be invoked synchronously."""
        from simulator.agents.preflight import built_graph, probe
        from simulator.agents.tool_model import DeterministicToolCallingModel

        graph = self.tool_graphs.get("deterministic")
        if graph is None:  # a live run: a deterministic twin of the agent, for the probe
            graph = built_graph(self.agent, DeterministicToolCallingModel(),
                                *self._tools_and_harness())
        task, labels = self.corpus.tasks[0], self.corpus.labels[0]
        cell = Cell("deterministic", "clean", self.config.modes[0], "uncontrolled", task,
                    labels, self.config.agent)
        if "clean" not in self.chains:
            self.chains["clean"] = build_tool_chain(get_scenario("clean"), self.env)
        if "uncontrolled" not in self.gates:
            from policies import get_arm

            self.gates["uncontrolled"] = get_arm("uncontrolled")
        return await probe(self.agent, graph, lambda: self.tool_context(cell),
                           timeout=self.record_timeout)

    @property
    def instructions(self) -> str:
        """The source-priority instruction of the run, or "" (simulator.vocabulary)."""
        from simulator.vocabulary import SOURCE_PRIORITY_INSTRUCTIONS

        chosen = self.config.source_priority
        return SOURCE_PRIORITY_INSTRUCTIONS[chosen] if chosen is not None else ""

    @property
    def template_versions(self) -> dict[str, str]:
        """Prompt template version of each model's reader (or agent), for the manifest."""
        if self.agent.kind == "tool_calling":
            from simulator.agents.live import AGENT_CALL_VERSION
            from simulator.agents.prompt import PROMPT_VERSION
            from simulator.agents.tool_model import MODEL_NAME

            prompt = PROMPT_VERSION if self.agent.name == "react" else "own-prompt"
            calls = {m: MODEL_NAME if m == "deterministic" else AGENT_CALL_VERSION
                     for m in self.readers}
            return {model: f"{prompt}+{calls[model]}" for model in self.readers}
        return {model: reader.template_version for model, reader in self.readers.items()}

    def context(self, cell: Cell) -> AgentContext:
        return AgentContext(task=cell.task, chain=self.chains[cell.scenario],
                            contract_mode=cell.mode, reader=self.readers[cell.model],
                            seed=self.config.seed, gate=self.gates[cell.arm],
                            fetch_document=self._fetcher(cell), pipeline=self.config.pipeline,
                            instructions=self.instructions, metadata=self.metadata(cell))

    async def _arun_tool_agents(self, batch: Sequence[Cell]) -> list[Episode]:
        """A batch through the tool-calling agent on one event loop: its runs interleave
        (nothing waits on I/O offline, but no tool call starts a thread either)."""
        return list(await asyncio.gather(*(self.arun_tool_agent(c) for c in batch)))

    async def arun_tool_agent(self, cell: Cell) -> Episode:
        """``cell``'s episode through its model's tool-calling agent, under the run's
        record time limit."""
        from simulator.agents.episode import arun_tool_agent

        return await arun_tool_agent(self.tool_graphs[cell.model], self.tool_context(cell),
                                     timeout=self.record_timeout, sync=self.sync_invoke)

    def tool_context(self, cell: Cell) -> ToolRunContext:
        """The run context of ``cell`` for a tool-calling agent (a fresh one, so a fresh
        recorder: :func:`simulator.agents.harness.recorder_of`). No labels: the agent's own
        middleware reads this context."""
        from simulator.agents.harness import ToolRunContext

        return ToolRunContext(task=cell.task, scenario=cell.scenario,
                              contract_mode=cell.mode, seed=self.config.seed,
                              gate=self.gates[cell.arm], fetch_document=self._fetcher(cell),
                              instructions=self.instructions, metadata=self.metadata(cell))

    def metadata(self, cell: Cell) -> Metadata:
        """What every LangChain call of ``cell``'s record carries (no label)."""
        return run_metadata(run_id=self.run_id, scenario=cell.scenario,
                            contract_mode=cell.mode, arm=cell.arm, task_row=cell.task.row,
                            record_key=cell.key.as_str(), model=cell.model, agent=cell.agent)

    def _fetcher(self, cell: Cell) -> DocumentFetcher:
        """fetch_document through the scenario's chain, so its faults apply there too.

        The closure holds the chain, the task and the seed only (not the cell, not the
        runner): a gate hands it to policies, and the agent's context carries it."""
        chain, task, seed = self.chains[cell.scenario], cell.task, self.config.seed

        def fetch(doc_id: str) -> dict[str, Any] | None:
            call = ToolCall(name="fetch_document",
                            args={"doc_id": doc_id, "session": task.session.model_dump()})
            result: dict[str, Any] | None = chain.invoke(call, FaultContext(task=task, seed=seed))
            return result

        return fetch

    def run_cell(self, cell: Cell) -> RunRecord:
        return self.run_cells([cell])[0]

    def run_cells(self, batch: Sequence[Cell]) -> list[RunRecord]:
        """The blocking form of :meth:`arun_cells`."""
        return run_blocking(self.arun_cells(batch))

    async def arun_cells(self, batch: Sequence[Cell]) -> list[RunRecord]:
        """Run a batch of cells through one graph invoke; records in the same order.

        A record's latency is its share of the batch's wall time.
        """
        started = time.perf_counter()
        if self.agent.kind == "tool_calling":
            episodes = await self._arun_tool_agents(batch)
        else:
            episodes = await arun_episodes(self.graph, [self.context(c) for c in batch])
        share = (time.perf_counter() - started) * 1000 / max(len(batch), 1)
        return [self.score(cell, episode, share) for cell, episode in zip(batch, episodes,
                                                                         strict=True)]

    def score(self, cell: Cell, episode: Episode, latency_ms: float, *,
              faults_acted: bool = True) -> RunRecord:
        """``cell``'s record from its episode, with its trajectory. ``faults_acted`` is
        False for a turn of a conversation its scenario's faults did not act on (the
        cases suite's schedule): its trajectory credits no effect to them."""
        reader = self.readers[cell.model]
        registered = {d: self.corpus.document(d).text for d in cell.labels.required_doc_ids}
        record, answer, trace = scored(
            episode, cell.task, cell.labels, run_id=self.run_id, model=cell.model,
            provider=reader.provider, scenario=cell.scenario, contract_mode=cell.mode,
            arm=cell.arm, latency_ms=latency_ms, agent=cell.agent, registered=registered,
        )
        from simulator.runner.scoring import returned_texts

        served = returned_texts(episode)
        edited = {d for d, text in registered.items() if served.get(d, text) != text}
        record = self._misleading(cell, record, registered, edited)
        trajectory = build_trajectory(
            episode, cell.task, cell.labels, record, answer=answer, trace=trace,
            faults=self._fault_names(cell.scenario) if faults_acted else (),
            registry=self.corpus.document,
            top_k=self.config.top_k, instructions=self.instructions)
        return record.model_copy(update={"trajectory": trajectory})

    def _fault_names(self, scenario: str) -> tuple[str, ...]:
        """The names of ``scenario``'s faults (what a trajectory credits effects to)."""
        return tuple(f.name for f in self.chains[scenario].scenario.faults)

    def _misleading(self, cell: Cell, record: RunRecord, registered: dict[str, str],
                    edited: set[str]) -> RunRecord:
        """Add what misleading evidence needs: the run's source priority, and under a
        ``misleading_evidence`` fault whether the designated value was adopted
        (``registered``: the registry's text of the required documents, current first;
        ``edited``: those the record's search results carried with other text)."""
        from simulator.scoring.misleading import misled

        update: dict[str, Any] = {}
        if self.config.source_priority is not None:
            update["source_priority"] = self.config.source_priority
        required = cell.labels.required_doc_ids
        if required and any(f.name == "misleading_evidence"
                            for f in get_scenario(cell.scenario).faults):
            lineage = self.env.registry.lineage(required[0])
            older = [self.corpus.document(d).text for d in lineage[:lineage.index(required[0])]]
            update["misled"] = misled(record, cell.task, seed=self.config.seed,
                                      registered_text=registered[required[0]],
                                      older_texts=older, served_edited=required[0] in edited)
        return record.model_copy(update=update) if update else record
