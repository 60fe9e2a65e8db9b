"""The fault chain as layerrag's own agent uses it: one environment, one chain per scenario,
one invoke per record and attempt, then the contract step.

Run:  python examples/tool_chain.py
"""

from __future__ import annotations

from middleware import (
    SCENARIO_NAMES,
    FaultContext,
    ToolCall,
    build_tool_chain,
    check_contract,
    get_scenario,
)
from simulator.corpus import build_corpus
from simulator.endpoints import PolicyEnvironment


def main() -> dict[str, tuple[str, str]]:
    corpus = build_corpus()
    env = PolicyEnvironment.from_corpus(corpus, retriever="tfidf_domain_validity", top_k=3)
    task = corpus.tasks[0]
    statuses: dict[str, tuple[str, str]] = {}
    print(f"{'scenario':22s} {'strict':8s} {'repair':8s} evidence (repair)")
    for name in SCENARIO_NAMES:
        chain = build_tool_chain(get_scenario(name), env)
        call = ToolCall(name="search_policies",
                        args={"query": task.question, "session": task.session.model_dump()})
        raw = chain.invoke(call, FaultContext(task=task, attempt=0, seed=0))
        strict, repair = check_contract(raw, mode="strict"), check_contract(raw, mode="repair")
        hits = repair.payload.hits if repair.payload else ()
        statuses[name] = (strict.status, repair.status)
        print(f"{name:22s} {strict.status:8s} {repair.status:8s} "
              f"{[(h.doc_id, h.metadata.status) for h in hits]}")
    return statuses


if __name__ == "__main__":
    main()
