"""The offline driver's documented rules for requests that are not a tool loop (issue 26,
item 6; docs/agents.md, "What the offline driver answers"): a yes/no grade, an
answer-shaped schema, a rewrite request, evidence pasted into a prompt, and everything
else an agent error that says "run with --model" — never a silent pass."""

from __future__ import annotations

from typing import Any, Literal

import pytest
from langchain_core.messages import HumanMessage
from pydantic import BaseModel, Field

from simulator.agents.prompt import task_message
from simulator.agents.tool_model import DeterministicToolCallingModel, DriverCannotAnswer
from simulator.corpus import Corpus
from simulator.errors import UsageError
from simulator.testing import evaluate


class GradeDocuments(BaseModel):
    """The LangGraph agentic-RAG tutorial's grader."""

    binary_score: str = Field(description="Relevance score: 'yes' if relevant, or 'no'")


class Relevant(BaseModel):
    relevant: bool


class Choice(BaseModel):
    verdict: Literal["yes", "no"]


class Answered(BaseModel):
    answer: str | None
    citations: list[str]


class Plan(BaseModel):
    steps: list[str]
    owner: str


def _context_prompt(corpus: Corpus, row: int, *, with_document: bool) -> str:
    """A prompt of the kind a graph's node builds: retrieved context pasted above the task
    message (no tool message anywhere)."""
    task, labels = corpus.tasks[row], corpus.labels[row]
    doc = next(d for d in corpus.documents if d.doc_id == labels.required_doc_ids[0])
    context = f"[{doc.doc_id}] {doc.title}\n{doc.text}" if with_document else "(nothing)"
    return f"Here is the retrieved context:\n{context}\n\nUser question: {task_message(task)}"


def _ask(schema: type[BaseModel], prompt: str) -> Any:
    model = DeterministicToolCallingModel()
    return model.with_structured_output(schema).invoke([HumanMessage(prompt)])


@pytest.mark.parametrize(("schema", "field", "yes", "no"), [
    (GradeDocuments, "binary_score", "yes", "no"),
    (Relevant, "relevant", True, False),
    (Choice, "verdict", "yes", "no"),
])
def test_a_one_field_grade_says_whether_the_evidence_answers(
        corpus: Corpus, schema: type[BaseModel], field: str, yes: Any, no: Any) -> None:
    assert getattr(_ask(schema, _context_prompt(corpus, 0, with_document=True)), field) == yes
    assert getattr(_ask(schema, _context_prompt(corpus, 0, with_document=False)), field) == no


def test_an_answer_shaped_schema_gets_the_answer_read_from_a_prompt(corpus: Corpus) -> None:
    labels = corpus.labels[0]
    got = _ask(Answered, _context_prompt(corpus, 0, with_document=True))
    assert got.answer in labels.accepted_answers
    assert got.citations == [labels.required_doc_ids[0]]


def test_any_other_schema_is_refused_by_name(corpus: Corpus) -> None:
    with pytest.raises(DriverCannotAnswer, match="cannot answer schema Plan; run with --model"):
        _ask(Plan, _context_prompt(corpus, 0, with_document=True))


def test_a_rewrite_request_gets_the_question_back(corpus: Corpus) -> None:
    task = corpus.tasks[3]
    prompt = ("Look at the input and try to reason about the underlying semantic intent.\n"
              f"Here is the initial question:\n{task_message(task)}\n"
              "Formulate an improved question:")
    reply = DeterministicToolCallingModel().invoke([HumanMessage(prompt)])
    assert reply.content == task.question and not reply.tool_calls


def _planner(model: Any, tools: Any, middleware: Any) -> Any:
    """A graph whose first node asks for a schema the driver has no rule for."""
    from langgraph.graph import END, START, MessagesState, StateGraph

    planner = model.with_structured_output(Plan)

    def plan(state: MessagesState) -> dict[str, Any]:
        steps = planner.invoke(state["messages"])
        return {"messages": [HumanMessage(str(steps))]}

    graph = StateGraph(MessagesState)
    graph.add_node("plan", plan)
    graph.add_edge(START, "plan")
    graph.add_edge("plan", END)
    return graph.compile()


def test_an_agent_that_needs_another_schema_is_told_to_run_with_a_model() -> None:
    with pytest.raises(UsageError, match="failed: the offline driver cannot answer schema "
                                         "Plan; run with --model"):
        evaluate(_planner, tasks=1)
