"""The conversation rules of layerrag's own offline agents (docs/cases.md, "How the agents
converse", numbers them 1 to 7): how the pipeline (its conversation front,
simulator/conversations/runner.py) and the tool-calling driver (simulator/agents/
tool_model.py) turn a thread into one search, when they ask instead of answering, and when
the deterministic reader declines. Public rules over what the agent sees, no label.

Rules 1 to 3 are the front's, here; 4, 5 and 7 are how the deterministic reader reads a
turn (simulator/answers/extract.py's ``Thread``, simulator/readers/deterministic.py,
simulator/answers/instructions.py); 6 is :func:`unanswered`, which that reader applies.

1. **Search from the conversation.** The question searched is the earlier user messages of
   the thread, oldest first, then the current one, joined by spaces: a follow-up ("and on
   the older firmware?") carries the identifiers and topic its thread named. Replies are
   not searched: they would echo old answers into new searches.
2. **Clarify.** The pipeline asks a clarifying question instead of searching when the
   thread names no identifier at all, or when the current message names none and points at
   a new, unnamed thing ("another", "the other", "different", "also", or "too" closing a
   clause: "my colleague was refused too").
3. **Identifiers.** The reply names every identifier the thread's user messages named
   (:func:`identifier_tokens`), in order of first mention, as a support agent does ("For
   LIC-2207 on CS-30418: ..."). Served another thread's memory, it names that thread's:
   which is what identifier exactness measures.

6. **Decline when the article does not answer the message.** Searching with the whole
   thread finds the case's article for any question about the case, including one the
   article does not answer ("will the VPN be replaced this year?"). So the value read is
   withdrawn, and the reply says that the knowledge base does not answer the message and
   why, when
   a. *only the topic matches*: the message has three content words or more (words of
      three letters or more, not stop words, compared on their first five letters) and no
      sentence of the cited evidence that states the value shares one of them. A shorter
      message ("and by when?"), or one that opens by referring back ("And", "So", "It's",
      "They", "That", "What if", ...), is a follow-up of the thread's topic and is not
      tested;
   b. *it asks about a release the evidence never names*: the message names a dotted
      release ("8.0", "1.31") that no earlier user message named and no cited document
      mentions;
   c. *it asks about a later time*: the message asks about next year or the future, and
      no cited sentence speaks of that time (articles state what is in force);
   d. *a yes/no question asks what happened or what someone will do*: it opens with
      "Will", "Did", "Has", "Have", "Was" or "Were"; articles state rules and procedures,
      not the events of a case or predictions;
   e. *a yes/no answer rests on the topic alone*: no cited sentence shares two of the
      message's content words (one, when the message has one).

An identifier here is a token shaped like one: an upper-case code with a dash and digits
(``LIC-2207``, ``CS-30418``, ``FLR-2-EAST``), a lower-case name with a dash and digits
(``db-rpt-03``, ``k8s-wk-11``), a word with digits (``r2``, ``F4``), a dotted release
(``11.2``), an absolute path, or a command: a tool whose name ends in ``ctl``, ``adm``
or ``cli`` with up to three arguments (``replctl status --lag``), stopping at a small word
such as "and", "on" or "against", or a verb of reporting ("returns", "shows").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from simulator.answers.formats import parse_format

_IDENTIFIER = re.compile(
    r"(?P<command>\b[a-z][a-z0-9-]*(?:ctl|adm|cli)"
    r"(?: (?!(?:and|the|on|to|for|then|with|shows|is|in|of|or|at|by|as|from|into|against|"
    r"but|so|returns|gives|fails|says|prints|reports)\b)(?:--?)?[a-z][\w-]*){0,3})"
    r"|(?<![\w.-])[A-Za-z0-9]+(?:-[A-Za-z0-9]+)+(?![\w-])"   # LIC-2207, db-rpt-03, BLD-B-F4
    r"|\b[A-Za-z]+\d+[A-Za-z0-9]*\b"                        # r2, F4, k8s
    r"|(?<![\w.$€£])\d+\.\d+(?:\.\d+)*\b(?!\s?%)"          # 11.2, 7.4.2; not $0.05, 99.9%
    r"|(?P<path>(?<!\S)/[\w.-]+(?:/[\w.-]+)+)")               # /var/lib/pgsql
_NEW_THING = re.compile(r"\b(another|the other|other|different|also)\b|\btoo\b(?=\s*[.?!,;])",
                        re.IGNORECASE)

CLARIFY_REASON = ("To look up the right article I need to know which one you mean: which "
                  "error code, asset, ticket or version is this about?")
"""A clarifying question: a non-answer whose reason ends in a question mark
(:func:`asks`)."""
NOT_IN_KB = "The knowledge base does not say; I cannot answer that from it."


def asks(reason: str | None) -> bool:
    """Whether a non-answer's reason is a clarifying question: it ends with "?" (a
    trailing full stop a prose reader added aside)."""
    return reason is not None and reason.rstrip().rstrip(".").rstrip().endswith("?")


def restating(identifiers: Sequence[str], text: str) -> str:
    """Rule 3's reply: the identifiers, then the text."""
    return f"For {', '.join(identifiers)}: {text}" if identifiers else text


def identifier_tokens(text: str) -> tuple[str, ...]:
    """Identifier-shaped tokens of ``text``, each once, in order of first mention: a dashed
    token counts when it holds a digit (``LIC-2207``, not ``follow-up``)."""
    found = (m.group(0) for m in _IDENTIFIER.finditer(text)
             if m.group("path") or m.group("command") or any(ch.isdigit() for ch in m.group(0)))
    return tuple(dict.fromkeys(found))


def conversation_question(history: Sequence[str], message: str) -> str:
    """Rule 1: the earlier user messages, then the current one."""
    return " ".join([*history, message])


def needs_clarification(history: Sequence[str], message: str) -> bool:
    """Rule 2: nothing in the thread says which thing the user means."""
    if not identifier_tokens(conversation_question(history, message)):
        return True
    return not identifier_tokens(message) and _NEW_THING.search(message) is not None


def thread_identifiers(history: Sequence[str], message: str) -> tuple[str, ...]:
    """Rule 3: the identifiers the thread's user messages named."""
    return identifier_tokens(conversation_question(history, message))


SPEAKS_MIN_WORDS = 3
_REFERS_BACK = re.compile(r"\s*(and|so|then|ok|okay|it|it's|its|they|they're|that|those|"
                          r"this|these|what if)\b", re.IGNORECASE)
_STOP = frozenset("""a an the and or of to in on for with is are was be by at it its this that
these those what which who whom when how do does did can could will would should we they their
our my your you me them there here from as not no yes if then than after before about into out
up down over more most less any all some one two once have has had get got just also too
still now why where whats it's is that's i'm""".split())


def _content(text: str) -> frozenset[str]:
    return frozenset(w[:5] for w in re.findall(r"[a-z]+", text.lower())
                     if len(w) > 2 and w not in _STOP)


def speaks_to(message: str, value: str, texts: Sequence[str]) -> bool:
    """Rule 6a: some sentence of ``texts`` that states ``value`` shares a content word with
    ``message``."""
    wanted = _content(message)
    if len(wanted) < SPEAKS_MIN_WORDS or _REFERS_BACK.match(message):
        return True
    return any(value in sentence and wanted & _content(sentence)
               for text in texts for sentence in _sentences(text))


_RELEASE = re.compile(r"(?<![\w.$€£])\d+\.\d+(?:\.\d+)*(?![\w%]|\.\d)")
_LATER = re.compile(r"\bnext\s+(?:fiscal\s+|calendar\s+)?year\b|\bin\s+(?:the\s+)?future\b",
                    re.IGNORECASE)


_EVENT = re.compile(r"\s*(?:will|did|has|have|was|were)\b", re.IGNORECASE)


def _sentences(text: str) -> list[str]:
    return re.split(r"(?<=[.!?])\s+", text)


def unanswered(message: str, earlier: Sequence[str], answer_format: str, value: str,
               cited: Sequence[str]) -> str | None:
    """Rule 6: why the cited evidence does not answer ``message`` although ``value`` was
    read from it (a reply's reason), or None when it does. ``earlier`` are the thread's
    earlier user messages; ``cited`` the texts of the documents the value cites."""
    said_before = " ".join(earlier)
    unseen = [r for r in dict.fromkeys(_RELEASE.findall(message))
              if r not in said_before and not any(r in text for text in cited)]
    if unseen:
        return (f"The knowledge base does not mention release {unseen[0]}; "
                "I cannot answer that from it.")
    if _LATER.search(message) and not any(_LATER.search(text) for text in cited):
        return ("The knowledge base states what is in force now, not what will change; "
                "I cannot answer that from it.")
    if parse_format(answer_format).name == "yes_no":
        if _EVENT.match(message):
            return ("The knowledge base states rules and procedures, not what happened or "
                    "what someone will do; I cannot answer that from it.")
        wanted = _content(message)
        need = min(2, len(wanted))
        if need and not any(len(wanted & _content(sentence)) >= need
                            for text in cited for sentence in _sentences(text)):
            return NOT_IN_KB
        return None
    return None if speaks_to(message, value, cited) else NOT_IN_KB
