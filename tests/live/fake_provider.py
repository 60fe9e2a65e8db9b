"""A real HTTP server on loopback that speaks the OpenAI, Anthropic and Gemini chat APIs.

Tests script it: each request takes the next :class:`Step` from the script (or asks a
``handler``), so a test can say "429 with Retry-After, then 500, then a valid answer" and
count exactly what arrived. By default it answers as the deterministic reader would (it
parses the layerrag prompt back into the reader input), so a live run through it must score
exactly like a deterministic run; a tool-calling agent's request (one that offers
``search_policies``) it answers as the deterministic tool-calling model would, with tool
calls and, last, the structured final answer (OpenAI protocol).

``python -m tests.live.fake_provider --latency 0.2`` serves one standalone (used by
``benchmarks/live.py``): it prints its URL and serves until stdin closes.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage

from simulator.agents.tool_model import DeterministicToolCallingModel
from simulator.answers.extract import stop_words
from simulator.readers.base import Conversation, Evidence, ReaderInput
from simulator.readers.chat_output import ANSWER_TOOL
from simulator.readers.chat_prompt import SYSTEM
from simulator.readers.deterministic import DeterministicReader
from tests.live.fake_judge import fake_judgment, is_judge_request, judge_prompt


@dataclass(frozen=True)
class Answer:
    """A well-formed answer; ``value`` None means "work it out from the prompt"."""

    value: dict[str, Any] | None = None
    delay: float = 0.0
    usage: tuple[int, int] = (100, 20)


@dataclass(frozen=True)
class Status:
    """An HTTP error with a protocol-shaped body (and Retry-After headers if given)."""

    code: int
    retry_after: str | None = None
    retry_after_ms: str | None = None
    message: str = "scripted error"


@dataclass(frozen=True)
class Malformed:
    """A 200 whose answer is not the contract: invalid JSON, or valid JSON off-schema;
    ``finish_reason="length"`` makes it a reply cut off at the output token limit."""

    content: str = "The answer is 30 days."
    finish_reason: str = "stop"


@dataclass(frozen=True)
class BrokenBody:
    """A 200 whose HTTP body is truncated JSON (a broken proxy or server)."""


@dataclass(frozen=True)
class Raw:
    """A 200 with any body at all: an HTML page, JSON without ``choices``, ..."""

    body: bytes
    content_type: str = "application/json"


HTML_PAGE = b"<html><body><h1>502 Bad Gateway</h1></body></html>"
NO_CHOICES = b'{"id": "x", "object": "chat.completion", "error": "upstream timed out"}'
EMPTY_CHOICES = b'{"id": "x", "object": "chat.completion", "created": 0, "choices": []}'

Step = Answer | Status | Malformed | BrokenBody | Raw
EMULATIONS = ("llama.cpp", "vllm", "ollama", "no-tools", "small-context", "vllm-no-parser",
              "llama-server-no-jinja", "tool-call-text")
"""Structured-output behaviours of local servers (``FakeProvider(emulate=...)``):

- ``llama.cpp`` (llama-cpp-python's ``llama_cpp.server``): ``response_format`` type
  ``json_schema`` gets HTTP 500 "Input should be 'text' or 'json_object'"; ``json_object``
  with a schema is honoured; ``tool_choice: "required"`` gets HTTP 500 (it takes
  ``"none"``, ``"auto"`` or a named tool), and so does an assistant message whose
  ``content`` is null beside its tool calls;
- ``no-tools``: a server that offers no tool calling at all: tools and ``tool_choice`` are
  ignored and the model answers in text;
- ``small-context``: llama-server started with a context smaller than the agent's second
  turn: every request that carries a tool result gets HTTP 400 "the request exceeds the
  available context size" (its preflight, one short turn, passes);
- ``vllm``: every ``response_format`` is honoured (guided decoding);
- ``vllm-no-parser``: vLLM started without ``--enable-auto-tool-choice``: ``tool_choice:
  "auto"`` gets HTTP 400 (``required`` and a named tool are served by guided decoding);
- ``llama-server-no-jinja``: llama.cpp's ``llama-server`` without ``--jinja``: any request
  with ``tools`` gets HTTP 500 "tools param requires --jinja flag";
- ``tool-call-text``: a server whose tool-call parser is off (or a model template it does
  not parse): the model's tool call comes back as text, ``<tool_call>{...}</tool_call>`` in
  ``content``, and no ``tool_calls``;
- ``ollama``: an Ollama without structured outputs: ``response_format`` is ignored and the
  model wraps its JSON in prose and a fenced block.
"""
LLAMA_CPP_500 = ("1 validation error for CreateChatCompletionRequest\nresponse_format.type\n"
                 "  Input should be 'text' or 'json_object' [type=literal_error, "
                 "input_value='json_schema', input_type=str]")
LLAMA_CPP_TOOL_CHOICE_500 = (
    "1 validation error for CreateChatCompletionRequest\ntool_choice\n  Input should be 'none' "
    "or 'auto' [type=literal_error, input_value='required', input_type=str]")
LLAMA_CPP_NULL_CONTENT_500 = (
    "1 validation error for CreateChatCompletionRequest\nmessages.2.content\n  Input should "
    "be a valid string [type=string_type, input_value=None, input_type=NoneType]")
LLAMA_SERVER_CONTEXT_400 = "the request exceeds the available context size, try increasing it"
VLLM_AUTO_400 = ('"auto" tool choice requires --enable-auto-tool-choice and --tool-call-parser '
                 'to be set')
LLAMA_SERVER_JINJA_500 = "tools param requires --jinja flag"
PREFLIGHT_MARK = "preflight marker"
READER_SYSTEM_HEAD = SYSTEM.splitlines()[0]
"""How layerrag's pipeline reader's system prompt begins (simulator/readers/chat_prompt.py)."""
FIXED_ANSWER = {"answer": "30 days", "citations": ["doc-1"], "abstain": False, "reason": None}


@dataclass(frozen=True)
class Request:
    protocol: str
    path: str
    headers: dict[str, str]
    body: dict[str, Any]

    @property
    def prompt(self) -> str:
        """The text of the last user message, whatever the protocol."""
        if self.protocol == "gemini":
            return "".join(p.get("text", "") for p in self.body["contents"][-1]["parts"])
        content = self.body["messages"][-1]["content"]
        if isinstance(content, list):
            return "".join(block.get("text", "") for block in content)
        return str(content)

    @property
    def is_case_turn(self) -> bool:
        """A pipeline reader's prompt for a turn of a support conversation."""
        first = (self.body.get("messages") or [{}])[0]
        return self.protocol == "openai" and first.get("role") == "system" and \
            CASE_SYSTEM_TAIL in str(first.get("content"))

    @property
    def is_preflight(self) -> bool:
        """The run's preflight request (simulator/readers/chat_probe.py), not a record's."""
        return PREFLIGHT_MARK in self.prompt

    @property
    def uses_tools(self) -> bool:
        return bool(self.body.get("tools"))

    @property
    def tool_names(self) -> set[str]:
        return {t.get("function", {}).get("name") for t in self.body.get("tools") or []}

    @property
    def is_judge(self) -> bool:
        """An LLM judge's request (simulator/judge/llm_prompt.py's system prompt)."""
        return self.protocol == "openai" and is_judge_request(self.body)

    @property
    def is_driven(self) -> bool:
        """A call the deterministic driver answers: an agent turn, or any other OpenAI call
        of a graph's own model (a grader, a rewriter, an answering node, a retriever tool
        of its own), which is every OpenAI call but layerrag's pipeline reader's."""
        if self.is_agent:
            return True
        if self.protocol != "openai" or self.is_preflight or self.is_judge:
            return False
        first = (self.body.get("messages") or [{}])[0]
        return not (first.get("role") == "system"
                    and str(first.get("content")).startswith(READER_SYSTEM_HEAD))

    @property
    def is_agent(self) -> bool:
        """A tool-calling agent's turn (its tools include the search tool)."""
        return self.protocol == "openai" and "search_policies" in self.tool_names


def agent_turn(request: Request) -> AIMessage:
    """The next message of the deterministic tool-calling model, from the wire messages."""
    names: dict[str, str] = {}
    messages: list[BaseMessage] = []
    for m in request.body["messages"]:
        if m["role"] == "user":
            messages.append(HumanMessage(m["content"]))
        elif m["role"] == "assistant":
            calls = [{"name": c["function"]["name"], "args": json.loads(c["function"]["arguments"]),
                      "id": c["id"], "type": "tool_call"} for c in m.get("tool_calls") or []]
            names.update((c["id"], c["name"]) for c in calls)
            messages.append(AIMessage(m.get("content") or "", tool_calls=calls))
        elif m["role"] == "tool":
            messages.append(ToolMessage(m["content"], tool_call_id=m["tool_call_id"],
                                        name=names.get(m["tool_call_id"])))
    bound = {t["function"]["name"]: t["function"] for t in request.body.get("tools") or []}
    choice = request.body.get("tool_choice")
    schema = _json_schema(request)
    if schema is not None:  # with_structured_output as response_format: a forced schema
        bound, choice = {schema["name"]: schema}, schema["name"]
    return DeterministicToolCallingModel()._next(messages, bound, choice)


def _json_schema(request: Request) -> dict[str, Any] | None:
    """The function-shaped schema a ``json_schema`` response format asks for, if any."""
    fmt = request.body.get("response_format") or {}
    if fmt.get("type") != "json_schema":
        return None
    spec = fmt.get("json_schema") or {}
    return {"name": spec.get("name", "response"), "parameters": spec.get("schema", {})}


_DOC = re.compile(r"<document (?P<attrs>[^>]*)>\n(?P<text>.*?)\n</document>", re.DOTALL)
_ATTR = re.compile(r'(\w+)=("(?:[^"\\]|\\.)*"|\d+)')


_EARLIER = re.compile(r"^Conversation so far:\n", re.MULTILINE)
_TURN = re.compile(r"^User: (.*)\nAssistant: (.*)$", re.MULTILINE)
CASE_SYSTEM_TAIL = "This is a support conversation"


def reader_input(prompt: str, *, case: bool = False) -> ReaderInput:
    """Parse a rendered layerrag prompt back into the reader input it was made from (a
    conversation turn's, with ``case`` or when it shows the conversation so far)."""
    question = re.search(r"^Question: (.*)$", prompt, re.MULTILINE)
    fmt = re.search(r"^Answer format: (.*)$", prompt, re.MULTILINE)
    evidence = []
    for match in _DOC.finditer(prompt):
        attrs = {k: json.loads(v) for k, v in _ATTR.findall(match.group("attrs"))}
        evidence.append(Evidence(text=match.group("text"), **attrs))
    notes = re.search(r"^Notes from the search tool:\n((?:- .*\n?)+)", prompt, re.MULTILINE)
    told = re.search(r"^Additional instructions: (.*)\Z", prompt, re.MULTILINE | re.DOTALL)
    conversation = None
    if case or _EARLIER.search(prompt):
        pairs = tuple(_TURN.findall(prompt.split("\n\nQuestion: ")[0]))
        conversation = Conversation(history=pairs,
                                    message=question.group(1) if question else "")
    asked = question.group(1) if question else ""
    if conversation is not None:  # searched with the thread, as the pipeline searches
        asked = " ".join([*conversation.user_messages, asked])
    return ReaderInput(question=asked,
                       answer_format=fmt.group(1) if fmt else "", evidence=tuple(evidence),
                       notes=tuple(line[2:] for line in notes.group(1).splitlines())
                       if notes else (), instructions=told.group(1).strip() if told else "",
                       conversation=conversation)


def extractive_answer(request: Request) -> dict[str, Any]:
    """Answer the layerrag prompt as the deterministic reader would, from its evidence (a
    judge's prompt as the fake judge would: tests/live/fake_judge.py)."""
    if request.is_judge:
        return fake_judgment(judge_prompt(request.body))
    item = reader_input(request.prompt, case=request.is_case_turn)
    answer = DeterministicReader().read(item).answer
    body = {"answer": answer.answer, "citations": list(answer.citations),
            "abstain": answer.abstained, "reason": answer.reason,
            "conflict": answer.conflict.model_dump()}
    if item.conversation is not None:
        body |= {"steps": list(answer.steps), "identifiers": list(answer.identifiers),
                 "answer_type": answer.answer_type or
                 ("abstain" if answer.abstained else "diagnose")}
    return body


class FakeProvider:
    """Start with ``with FakeProvider() as fake:``; ``fake.url`` is its base URL."""

    def __init__(self, *, latency: float = 0.0, reject_json_schema: bool = False,
                 handler: Callable[[Request], Step | None] | None = None,
                 emulate: str | None = None) -> None:
        if emulate is not None and emulate not in EMULATIONS:
            raise ValueError(f"emulate one of {EMULATIONS}, not {emulate!r}")
        self.emulate = emulate
        self.latency = latency
        self.reject_json_schema = reject_json_schema
        self.handler = handler
        self.requests: list[Request] = []
        self.active = 0
        self.max_active = 0
        """Most requests in progress at once (to check a concurrency limit)."""
        self._script: deque[Step] = deque()
        self._lock = threading.Lock()
        self._server: ThreadingHTTPServer | None = None

    def script(self, *steps: Step) -> FakeProvider:
        with self._lock:
            self._script.extend(steps)
        return self

    def request_started(self) -> None:
        with self._lock:
            self.active += 1
            self.max_active = max(self.max_active, self.active)

    def request_finished(self) -> None:
        with self._lock:
            self.active -= 1

    @property
    def calls(self) -> list[Request]:
        """The requests records made (every request but the preflight)."""
        return [r for r in self.requests if not r.is_preflight]

    def next_step(self, request: Request) -> Step:
        with self._lock:
            self.requests.append(request)
            if self._script:
                return self._script.popleft()
        step = self.handler(request) if self.handler is not None else None
        return step or Answer()

    @property
    def url(self) -> str:
        assert self._server is not None, "start the server first"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def start(self) -> FakeProvider:
        stop_words()  # the extractive reader's lazy import costs seconds on a busy machine:
        # paid here, not inside the first request, where it would count against a timeout
        self._server = _Server(("127.0.0.1", 0), _Handler)
        self._server.fake = self  # type: ignore[attr-defined]
        threading.Thread(target=self._server.serve_forever, daemon=True,
                         kwargs={"poll_interval": 0.05}).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeProvider:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 256

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client that gave up (timeout) leaves a broken pipe behind: not an error."""


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    """Headers and body are separate writes: with Nagle on, delayed ACKs add ~40 ms."""

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 (http.server's naming)
        fake: FakeProvider = self.server.fake  # type: ignore[attr-defined]
        fake.request_started()
        try:
            self._respond(fake)
        finally:
            fake.request_finished()

    def _respond(self, fake: FakeProvider) -> None:
        body = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))))
        protocol = ("openai" if self.path.endswith("/chat/completions") else
                    "anthropic" if self.path.endswith("/messages") else "gemini")
        request = Request(protocol, self.path, {k.lower(): v for k, v in self.headers.items()},
                          body)
        step = fake.next_step(request)
        if fake.latency:
            time.sleep(fake.latency)
        fmt = (body.get("response_format") or {}).get("type")
        if fake.reject_json_schema and fmt == "json_schema":
            step = Status(400, message="response_format type json_schema is not supported")
        if fake.emulate == "llama.cpp" and fmt == "json_schema":
            step = Status(500, message=LLAMA_CPP_500)
        if fake.emulate == "llama.cpp" and body.get("tool_choice") == "required":
            step = Status(500, message=LLAMA_CPP_TOOL_CHOICE_500)
        if fake.emulate == "llama.cpp" and any(
                m.get("role") == "assistant" and m.get("tool_calls") and m.get("content") is None
                for m in body.get("messages") or []):
            step = Status(500, message=LLAMA_CPP_NULL_CONTENT_500)
        if fake.emulate == "small-context" and any(
                m.get("role") == "tool" for m in body.get("messages") or []):
            step = Status(400, message=LLAMA_SERVER_CONTEXT_400)
        if fake.emulate == "vllm-no-parser" and body.get("tool_choice") == "auto":
            step = Status(400, message=VLLM_AUTO_400)
        if fake.emulate == "llama-server-no-jinja" and body.get("tools"):
            step = Status(500, message=LLAMA_SERVER_JINJA_500)
        if (fake.emulate == "tool-call-text" and isinstance(step, Answer) and body.get("tools")
                and request.is_driven):
            turn = agent_turn(request)
            if turn.tool_calls:
                call = turn.tool_calls[0]
                text = json.dumps({"name": call["name"], "arguments": call["args"]})
                turn = AIMessage(content=f"<tool_call>\n{text}\n</tool_call>")
            time.sleep(step.delay)
            self._send(200, _agent_body(request, turn, step.usage))
            return
        if fake.emulate == "no-tools" and isinstance(step, Answer) and request.is_agent:
            step = Malformed("duration")  # what a model with no tool template said
        if fake.emulate == "ollama" and isinstance(step, Answer) and not request.is_agent:
            value = step.value if step.value is not None else extractive_answer(request)
            step = Malformed(f"Sure! Here is the answer:\n```json\n{json.dumps(value)}\n```")
        if isinstance(step, Answer) and request.is_driven and step.value is None:
            time.sleep(step.delay)
            self._send(200, _agent_body(request, agent_turn(request), step.usage))
        elif isinstance(step, Answer):
            time.sleep(step.delay)
            value = step.value if step.value is not None else extractive_answer(request)
            self._send(200, _answer_body(request, json.dumps(value), value, step.usage))
        elif isinstance(step, Malformed):
            self._send(200, _answer_body(request, step.content, None, (100, 20),
                                         step.finish_reason))
        elif isinstance(step, BrokenBody):
            self._send(200, b'{"id": "x", "choices": [{"mess')
        elif isinstance(step, Raw):
            self._send(200, step.body, content_type=step.content_type)
        else:
            headers = {k: v for k, v in (("retry-after", step.retry_after),
                                         ("retry-after-ms", step.retry_after_ms)) if v}
            self._send(step.code, _error_body(protocol, step), headers)

    def _send(self, code: int, body: dict[str, Any] | bytes,
              headers: dict[str, str] | None = None,
              content_type: str = "application/json") -> None:
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        self.send_response(code)
        self.send_header("content-type", content_type)
        self.send_header("content-length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)


def _answer_body(request: Request, text: str, value: dict[str, Any] | None,
                 usage: tuple[int, int], finish_reason: str = "stop") -> dict[str, Any]:
    """A protocol-shaped success: a tool call when tools were offered, else text."""
    as_tool = request.uses_tools and value is not None
    if request.protocol == "openai":
        message: dict[str, Any] = {"role": "assistant", "content": text}
        if request.uses_tools:
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": "call_1", "type": "function",
                "function": {"name": ANSWER_TOOL, "arguments": text}}]}
        return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0,
                "model": request.body["model"],
                "choices": [{"index": 0, "message": message, "finish_reason": finish_reason}],
                "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                          "total_tokens": sum(usage)}}
    if request.protocol == "anthropic":
        block = ({"type": "tool_use", "id": "toolu_1", "name": ANSWER_TOOL, "input": value}
                 if as_tool else {"type": "text", "text": text})
        return {"id": "msg_1", "type": "message", "role": "assistant",
                "model": request.body["model"], "content": [block],
                "stop_reason": "tool_use" if as_tool else "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": usage[0], "output_tokens": usage[1]}}
    part = {"functionCall": {"name": ANSWER_TOOL, "args": value}} if as_tool else {"text": text}
    return {"candidates": [{"content": {"parts": [part], "role": "model"},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": usage[0], "candidatesTokenCount": usage[1],
                              "totalTokenCount": sum(usage)}}


def _agent_body(request: Request, message: AIMessage, usage: tuple[int, int]
                ) -> dict[str, Any]:
    """An OpenAI chat completion carrying ``message`` (tool calls, or text)."""
    wire: dict[str, Any] = {"role": "assistant", "content": message.content or None}
    if message.tool_calls and _json_schema(request) is not None:
        wire["content"] = json.dumps(message.tool_calls[0]["args"])  # the schema's JSON
    elif message.tool_calls:
        wire["tool_calls"] = [{"id": c["id"], "type": "function", "function": {
            "name": c["name"], "arguments": json.dumps(c["args"])}} for c in message.tool_calls]
    return {"id": "chatcmpl-1", "object": "chat.completion", "created": 0,
            "model": request.body["model"],
            "choices": [{"index": 0, "message": wire,
                         "finish_reason": "tool_calls" if "tool_calls" in wire else "stop"}],
            "usage": {"prompt_tokens": usage[0], "completion_tokens": usage[1],
                      "total_tokens": sum(usage)}}


def _error_body(protocol: str, step: Status) -> dict[str, Any]:
    if protocol == "anthropic":
        return {"type": "error", "error": {"type": "api_error", "message": step.message}}
    if protocol == "gemini":
        return {"error": {"code": step.code, "message": step.message, "status": "UNAVAILABLE"}}
    return {"error": {"message": step.message, "type": "scripted", "code": None}}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds per request")
    parser.add_argument("--fixed-answer", action="store_true",
                        help="answer every request with one canned answer (cheapest)")
    parser.add_argument("--emulate", choices=EMULATIONS, default=None,
                        help="answer structured-output requests as this server does")
    args = parser.parse_args()
    handler = (lambda request: Answer(FIXED_ANSWER)) if args.fixed_answer else None
    with FakeProvider(latency=args.latency, handler=handler, emulate=args.emulate) as fake:
        print(fake.url, flush=True)
        sys.stdin.read()


if __name__ == "__main__":
    main()
