"""Inject layerrag's faults into your own LangChain ``create_agent`` agent.

Run:  python examples/langchain_create_agent.py

The agent below is an ordinary ``create_agent`` agent: a chat model, two tools, and one
extra middleware. ``FaultInjectionMiddleware`` takes its fault plan from each run's
``context`` (``FaultPlan``), so one agent serves every scenario, sync or async. Swap
``SearchThenAnswerModel`` (deterministic, offline) for any chat model, e.g.
``init_chat_model("openai:gpt-4.1-mini")``.
"""

from __future__ import annotations

import asyncio

from langchain.agents import create_agent

from middleware import SCENARIO_NAMES, FaultInjectionMiddleware, FaultPlan, policy_tools
from middleware.adapters.scripted_model import SearchThenAnswerModel
from simulator.corpus import build_corpus
from simulator.endpoints import PolicyEnvironment


def build_agent(env: PolicyEnvironment):  # noqa: ANN201  (a compiled LangGraph graph)
    return create_agent(
        SearchThenAnswerModel(),
        tools=policy_tools(env),                    # search_policies + fetch_document
        middleware=[FaultInjectionMiddleware()],    # faults per run, from context
        context_schema=FaultPlan,
    )


def main() -> dict[str, str]:
    corpus = build_corpus()
    env = PolicyEnvironment.from_corpus(corpus)
    agent = build_agent(env)
    task = corpus.tasks[0]
    print(f"Q: {task.question}\n")
    answers: dict[str, str] = {}
    for scenario in SCENARIO_NAMES:
        plan = FaultPlan(scenario=scenario, task=task, seed=0)
        state = agent.invoke({"messages": [("user", task.question)]}, context=plan)
        answers[scenario] = state["messages"][-1].content
        print(f"{scenario:22s} {answers[scenario][:90]}")

    async def concurrently() -> list[str]:
        runs = [agent.ainvoke({"messages": [("user", task.question)]},
                              context=FaultPlan(scenario=s, task=task))
                for s in ("clean", "schema_drift")]
        return [state["messages"][-1].content for state in await asyncio.gather(*runs)]

    clean, drifted = asyncio.run(concurrently())
    answers["async clean"], answers["async schema_drift"] = clean, drifted
    print(f"\nasync, concurrently: clean -> {clean[:50]}... | schema_drift -> {drifted[:60]}")
    return answers


if __name__ == "__main__":
    main()
