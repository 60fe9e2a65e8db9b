"""The instructions of an article: imperative clauses in order, never a statement or a
prohibition (simulator/answers/instructions.py)."""

from __future__ import annotations

import pytest

from simulator.answers.instructions import instructions, is_instruction


def test_a_list_of_instructions_comes_back_in_the_article_s_order() -> None:
    text = ("A worker stuck NotReady after patching usually runs a newer runtime. Read "
            "/var/log/kubelet.log, drain the node, and reinstall the runtime that matches the "
            "kubelet. A drained node must return to Ready within 30 minutes of the fix.")
    assert instructions(text) == ("Read /var/log/kubelet.log", "drain the node",
                                  "reinstall the runtime that matches the kubelet")


def test_clauses_after_a_semicolon_or_then_are_steps_and_an_and_before_an_object_is_not(
        ) -> None:
    text = ("The fix ships in release 7.4.2; check the installed agent with `bkpctl "
            "--version` first. Release the seat with `ledgerctl license release`, then "
            "activate again. Send a remote wipe with mdmctl wipe and the asset tag.")
    assert instructions(text) == (
        "check the installed agent with `bkpctl --version` first",
        "Release the seat with `ledgerctl license release`", "activate again",
        "Send a remote wipe with mdmctl wipe and the asset tag")


@pytest.mark.parametrize("clause", [
    "Never delete the catalog to clear the lock",          # a prohibition
    "Do not restore over the live share",
    "Servers still on the legacy line install 6.9.8",      # a plural subject
    "Error BKP-4102 means the catalog stayed locked",      # a name, then its verb
    "Internal TLS certificates must be renewed in time",   # a subject before a modal
    "Late requests get a loan laptop",                     # a plural noun and a verb
    "Detection rule RAN-900 fires on mass renames",        # an abstract noun opens it
    "The tenant admin uploads the certificate",            # a determiner opens it
    "VPN-619 appears when renegotiation fails",            # a code opens it
])
def test_statements_and_prohibitions_are_not_steps(clause: str) -> None:
    assert not is_instruction(clause)


@pytest.mark.parametrize("clause", [
    "Check its last encryption state", "revoke sessions", "Purge every copy with `mailctl "
    "purge`", "reset credentials of every account logged on", "then reload the resolvers",
    "Submit form FORM-PL2 in the HR portal",
])
def test_imperatives_are_steps(clause: str) -> None:
    assert is_instruction(clause)
