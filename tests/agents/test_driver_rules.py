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


def test_page_headers_tell_versions_apart_behind_a_prompt_label(corpus: Corpus) -> None:
    """Pages that carry only their contents (the agentic-RAG tutorial's context) still say
    which version is current: FaultyRetriever's header fields, read after a ``Context:``
    label on the same line."""
    from simulator.agents.evidence_text import page_header, read_result

    labels = corpus.labels[0]
    current = next(d for d in corpus.documents if d.doc_id == labels.required_doc_ids[0])
    older = next((d for d in corpus.documents if d.policy_id == current.policy_id
                  and d.doc_id != current.doc_id), None)
    assert older is not None, "the first task's policy has an older version"
    pages = [f"{page_header(d.doc_id, d.title, {'status': d.status, 'version': d.version, 'effective_year': d.effective_year})}\n{d.text}"  # noqa: E501
             for d in (older, current)]
    reading = read_result("Context: " + "\n\n".join(pages))
    assert reading is not None
    by_id = {e.doc_id: e for e in reading.evidence}
    assert by_id[current.doc_id].status == "current"
    assert by_id[older.doc_id].status == older.status != "current"
    assert by_id[current.doc_id].effective_year == current.effective_year
    got = _ask(Answered, "Question: " + task_message(corpus.tasks[0]) + "\nContext: "
               + "\n\n".join(pages))
    assert got.answer in labels.accepted_answers and got.citations == [current.doc_id]


def test_a_tool_result_without_a_name_is_matched_to_its_call_by_id(corpus: Corpus) -> None:
    """A hand-written tool node (the LangGraph quickstart's) sets no ``name`` on its tool
    messages: the driver reads the result by its ``tool_call_id`` instead of searching
    again."""
    from langchain_core.messages import ToolMessage
    from langchain_core.tools import tool

    @tool
    def search_policies(query: str) -> str:
        """Search the policy library."""
        return ""

    doc = next(d for d in corpus.documents if d.doc_id == corpus.labels[0].required_doc_ids[0])
    model = DeterministicToolCallingModel().bind_tools([search_policies])
    question = HumanMessage(task_message(corpus.tasks[0]))
    first = model.invoke([question])
    assert first.tool_calls and first.tool_calls[0]["name"] == "search_policies"
    result = ToolMessage(f"[{doc.doc_id}] {doc.title}\n{doc.text}",
                         tool_call_id=first.tool_calls[0]["id"])
    reply = model.invoke([question, first, result])
    assert not reply.tool_calls and f"[{doc.doc_id}]" in str(reply.content)
