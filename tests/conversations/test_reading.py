"""How layerrag's own agents read a turn of a conversation: the turn's message in its thread,
nothing new repeated, names held to their kind, the thread's article only, and the reasons
they decline when the article is the case's but does not answer the message (rule 6 of
simulator/answers/conversation.py). Each rule is pinned with a failing and a passing side."""

from __future__ import annotations

import hashlib
import json

from simulator.answers.conversation import identifier_tokens, needs_clarification, unanswered
from simulator.answers.extract import Thread, extract_value
from simulator.readers.base import Conversation, Evidence, ReaderInput
from simulator.readers.deterministic import DeterministicReader

BACKUP = ("Error BKP-4102 means the backup catalog stayed locked after a failed snapshot. "
          "The fix ships in backup agent release 7.4.2; check the installed agent with "
          "`bkpctl --version` first. Servers still on the legacy 6.x agent line install "
          "release 6.9.8 instead. Never delete the catalog to clear the lock.")
LAPTOP = ("A lost laptop is reported within 24 hours. Check its last encryption state and "
          "revoke its certificate. If personal data may have been on an unencrypted disk, the "
          "Data Protection Officer decides on notification within 72 hours.")
LEAK = ("Close the kitchen's isolation valve, switch off appliances and sign the wet floor. "
        "Urgent leak repairs are attended by the maintenance contractor within 2 hours. If "
        "water reaches outlets or the floor below, call the Building Manager.")
VERSION = r"version_number (pattern: \d+\.\d+(?:\.\d+){0,2})"
ERROR_CODE = r"error_code (pattern: [A-Z]{2,6}-\d{3,5})"
FIRST = "The job log on FS-0142 shows BKP-4102. Which backup agent release fixes the lock?"


def _read(evidence: tuple[Evidence, ...], fmt: str, message: str,
          history: tuple[tuple[str, str], ...] = ()) -> tuple[str | None, str | None]:
    thread = Conversation(history=history, message=message)
    question = " ".join([*thread.user_messages, message])
    answer = DeterministicReader().read(ReaderInput(
        question=question, answer_format=fmt, evidence=evidence, conversation=thread)).answer
    return answer.answer, answer.reason


def _doc(doc_id: str, title: str, text: str) -> Evidence:
    return Evidence(doc_id=doc_id, title=title, text=text, status="current",
                    effective_year=2025)


def test_a_follow_up_is_read_for_its_own_message_not_the_thread_s_first_question() -> None:
    thread = Thread(context=FIRST)
    assert extract_value(BACKUP, FIRST, VERSION) == "7.4.2"
    # read as one joined question, the first question's sentence wins ...
    assert extract_value(BACKUP, f"{FIRST} And on the older agent line?",
                         VERSION) == "7.4.2"
    # ... read as a turn, the follow-up's own words pick the sentence
    assert extract_value(BACKUP, "And on the older agent line?", VERSION,
                         thread=thread) == "6.9.8"


def test_a_value_already_given_is_repeated_only_when_nothing_new_is_there() -> None:
    asked = "SEC-21004: the laptop was stolen. Within how long should it have been reported?"
    said = ("For SEC-21004: 24 hours (sources: doc_1)",)
    assert extract_value(LAPTOP, "And by when?", "duration", thread=Thread(context=asked)) \
        == "24 hours"
    assert extract_value(LAPTOP, "And by when?", "duration",
                         thread=Thread(context=asked, said=said)) == "72 hours"
    only = "A lost laptop is reported within 24 hours."
    assert extract_value(only, "And by when?", "duration",
                         thread=Thread(context=asked, said=said)) == "24 hours"


def test_in_a_conversation_a_role_is_a_role_and_a_system_is_not() -> None:
    message = "It's dripping through to the floor below now. Who do I call?"
    context = "There's water under the sink in BLD-A-K2. How quickly will the contractor come?"
    # the single-question reading keeps its published behaviour: a sentence's opening verb
    assert extract_value(LEAK, message, "role") == "Close"
    assert extract_value(LEAK, message, "role",
                         thread=Thread(context=context, names_by_kind=True)) == "Building Manager"
    sso = "Only the Tenant Administrator may change it in the Security Console."
    assert extract_value(sso, "Which tool?", "system",
                         thread=Thread(names_by_kind=True)) == "Security Console"


def test_a_release_the_evidence_never_names_is_not_answered_from_it() -> None:
    why = unanswered("When will agent 8.0 be released for FS-0142?", [FIRST],
                     VERSION, "6.9.8", [BACKUP])
    assert why is not None and "release 8.0" in why
    # a release the thread or the article names is fine
    assert unanswered("Is 6.9.8 the fix for the 6.x line?", [FIRST], VERSION,
                      "6.9.8", [BACKUP]) is None


def test_a_question_about_next_year_is_not_answered_by_what_is_in_force() -> None:
    rates = "Overtime is paid at 150% of the hourly rate."
    assert unanswered("Will overtime rates go up in next year's pay deal?", [],
                      "percentage", "150%", [rates]) is not None
    assert unanswered("What is the overtime rate?", [], "percentage", "150%", [rates]) is None
    planned = "From next year overtime is paid at 175% of the hourly rate."
    assert unanswered("What will the overtime rate be next year?", [], "percentage", "175%",
                      [planned]) is None


def test_a_yes_no_question_needs_its_predicate_not_its_topic_and_no_events() -> None:
    vpn = "VPN-619 means the client renegotiated with a cipher the gateway no longer accepts."
    assert unanswered("Will the VPN be replaced by zero-trust access this year?", [], "yes_no",
                      "no", [vpn]) is not None  # a prediction
    assert unanswered("Did anyone log on to the domain controllers during the gap?", [],
                      "yes_no", "yes", ["Domain controller logs with a gap are reported."]) \
        is not None  # an event of the case
    logs = "Never delete the current log files to make room."
    assert unanswered("Can I delete today's logs to make room?", [], "yes_no", "no",
                      [logs]) is None
    assert unanswered("Can I bring a heater from home?", [], "yes_no", "no", [logs]) \
        is not None  # shares no two content words


def test_the_reader_declines_with_the_reason_and_never_reads_another_case_s_article() -> None:
    backup = _doc("doc_b", "Backup error BKP-4102", BACKUP)
    other = _doc("doc_o", "Client hospitality expenses",
                 "Rejection code EXC-104 means the limit was exceeded.")
    value, why = _read((backup, other), VERSION,
                       "When will agent 8.0 be released for FS-0142?", ((FIRST, "7.4.2"),))
    assert value is None and why is not None and "8.0" in why
    # the thread's article states no new error code: the other article's is not read
    value, why = _read((backup, other), ERROR_CODE,
                       "The restore still fails after the update. Which code is that?",
                       ((FIRST, "For FS-0142, BKP-4102: 7.4.2"),))
    assert value is None
    # a single question falls back to the next article, as it always has
    single = DeterministicReader().read(ReaderInput(
        question="Which code is that?", answer_format=ERROR_CODE,
        evidence=(backup, other))).answer
    assert single.answer == "BKP-4102"


def test_a_new_unnamed_thing_closing_with_too_gets_a_question() -> None:
    thread = ["PRM-5521 renewal was refused with PKG-212."]
    assert needs_clarification(thread, "My colleague was refused too. Can they appeal?")
    assert not needs_clarification(thread, "What if their client is too old to do that?")


def test_identifier_tokens_leave_amounts_shares_and_prose_after_a_command_out() -> None:
    assert identifier_tokens("Differences above $0.05 are defects; 99.9% uptime; 7.4.2") \
        == ("7.4.2",)
    assert identifier_tokens("dnsctl query against the resolver returns DNS-0005") == (
        "dnsctl query", "DNS-0005")


def test_a_single_question_hashes_as_before_and_a_turn_differently() -> None:
    plain = ReaderInput(question="q?", answer_format="count", evidence=())
    turn = ReaderInput(question="q?", answer_format="count", evidence=(),
                       conversation=Conversation(message="q?"))
    # the hash of a single question as it was computed before conversations existed
    before = {"question": "q?", "answer_format": "count", "evidence": [], "notes": [],
              "instructions": ""}
    body = json.dumps(["t", before], sort_keys=True)
    assert plain.prompt_hash("t") == hashlib.sha256(body.encode()).hexdigest()[:16]
    assert plain.prompt_hash("t") != turn.prompt_hash("t")
