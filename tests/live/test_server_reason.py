"""A provider error carries the server's own reason (first line, scrubbed of keys), in the
record, the log and the run's one-line messages: "HTTP 500" alone tells nobody what to
change on their server."""

from __future__ import annotations

from pathlib import Path

from simulator.runner.live import run_live_matrix
from simulator.runner.store import RunStore
from tests.live.conftest import CANARY
from tests.live.fake_provider import FakeProvider, Status
from tests.live.test_live_agent import config, options


def _reasons(run_dir: Path) -> set[str]:
    with RunStore(run_dir, create=False) as store:
        return {r.reason or "" for r in store.records()}


def test_a_provider_error_record_quotes_the_servers_first_line(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    fake.handler = lambda request: Status(
        500, message="Input should be 'auto' or 'none'\n[type=literal_error] more detail")
    run_live_matrix(config(fake), tmp_path / "live", options=options(tmp_path, cache=None),
                    progress=False, sleep=sleeps.append)
    assert _reasons(tmp_path / "live") == {
        "provider error: OpenAIAPIError (HTTP 500): Input should be 'auto' or 'none'"}


def test_a_server_that_echoes_the_key_has_it_scrubbed(
        tmp_path: Path, fake: FakeProvider, sleeps: list[float], canary_keys: dict) -> None:
    fake.handler = lambda request: Status(
        503, message=f"upstream refused Bearer {CANARY}; also saw sk-proj-abcdefghijklmnop")
    run_live_matrix(config(fake), tmp_path / "live", options=options(tmp_path, cache=None),
                    progress=False, sleep=sleeps.append)
    (reason,) = _reasons(tmp_path / "live")
    assert CANARY not in reason and "abcdefghijklmnop" not in reason
    assert reason == ("provider error: OpenAIAPIError (HTTP 503): upstream refused "
                      "Bearer [key]; also saw [key]")
