"""The call budget is on disk before a call is sent: a run killed at any moment has counted
every request it made, so resuming can never exceed ``--max-calls``.

Before, the spend file was written when records were flushed: after a kill -9 it counted
24 calls where 28 had been sent, and the resumed run got 4 calls more than its budget.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from simulator.errors import UsageError
from simulator.live.budget import CallBudget, journal_of, read_spend, write_spend
from simulator.live.errors import BudgetExhausted
from simulator.runner.live import SPEND_FILE, load_spend, run_live_matrix
from tests.live.fake_provider import FakeProvider, Request
from tests.live.test_live_run import live_config, live_options


def test_a_reserved_call_is_on_disk_before_it_returns(tmp_path: Path) -> None:
    ledger = tmp_path / SPEND_FILE
    budget = CallBudget(max_calls=2, ledger=ledger)
    budget.reserve_call()
    assert read_spend(ledger).calls == 1
    budget.add_usage(10, 5, None)
    assert read_spend(ledger).tokens == 15


def test_a_budget_read_back_from_the_ledger_refuses_the_call_past_its_limit(
        tmp_path: Path) -> None:
    ledger = tmp_path / SPEND_FILE
    first = CallBudget(max_calls=3, ledger=ledger)
    first.reserve_call()
    first.reserve_call()
    # The process dies here, mid-call: nothing else is saved. The next run reads the ledger.
    resumed = CallBudget(max_calls=3, spent=read_spend(ledger), ledger=ledger)
    resumed.reserve_call()
    with pytest.raises(BudgetExhausted):
        resumed.reserve_call()
    assert read_spend(ledger).calls == 3


def test_every_request_a_provider_receives_is_already_counted_in_the_spend_file(
        tmp_path: Path, sleeps: list[float], canary_keys: dict) -> None:
    out = tmp_path / "run"
    lag: list[tuple[int, int]] = []
    lock = threading.Lock()

    def count(request: Request) -> None:
        if request.is_preflight:  # sent before the run directory exists: counted with the
            return                # first record (simulator/readers/chat_probe.py)
        with lock:
            lag.append((len(lag) + 2, load_spend(out).calls))

    with FakeProvider(handler=count) as fake:
        summary = run_live_matrix(live_config(fake, scenarios=("clean",)), out,
                                  options=live_options(tmp_path, cache=None, concurrency=4),
                                  progress=False, sleep=sleeps.append)
    assert summary.stopped is None and lag
    assert all(on_disk >= received for received, on_disk in lag), lag
    assert load_spend(out).calls == len(fake.requests) == len(lag) + 1


def test_a_spend_file_that_is_not_one_is_refused_not_reset(tmp_path: Path) -> None:
    (tmp_path / SPEND_FILE).write_text("{not json")
    with pytest.raises(UsageError, match=SPEND_FILE):
        load_spend(tmp_path)
    assert (tmp_path / SPEND_FILE).read_text() == "{not json"


def test_the_journal_holds_each_call_until_a_checkpoint_writes_the_ledger(
        tmp_path: Path) -> None:
    ledger = tmp_path / SPEND_FILE
    journal = journal_of(ledger)
    budget = CallBudget(ledger=ledger)
    budget.reserve_call()
    budget.reserve_call()
    assert not ledger.exists() and len(journal.read_text().splitlines()) == 2
    assert read_spend(ledger).calls == 2
    budget.checkpoint()
    assert journal.read_text() == "" and read_spend(ledger).calls == 2
    budget.reserve_call()
    budget.close()
    assert read_spend(ledger).calls == 3


def test_a_kill_between_the_ledger_and_the_journal_never_undercounts(tmp_path: Path) -> None:
    ledger = tmp_path / SPEND_FILE
    budget = CallBudget(ledger=ledger)
    for _ in range(3):
        budget.reserve_call()
    budget.add_usage(10, 5, None)
    write_spend(ledger, budget.spent)  # the checkpoint's first half, then the kill
    budget.close()
    assert read_spend(ledger) == budget.spent  # the larger of the two, not their sum


def test_a_torn_last_journal_line_is_the_call_that_was_never_sent(tmp_path: Path) -> None:
    ledger = tmp_path / SPEND_FILE
    budget = CallBudget(ledger=ledger)
    budget.reserve_call()
    budget.close()
    with journal_of(ledger).open("a") as journal:
        journal.write('{"calls": 2, "input_tok')
    assert read_spend(ledger).calls == 1
    journal_of(ledger).write_text('{"calls": 2, "input_tok\n{"calls": 3}\n')
    with pytest.raises(UsageError, match=r"journal:1: not a spend record"):
        read_spend(ledger)
