"""``--structured-output auto`` against servers that answer in structure differently.

The loopback server emulates llama.cpp's ``llama_cpp.server`` (HTTP 500 on ``json_schema``),
vLLM (accepts every method) and an Ollama without structured outputs (ignores
``response_format``, wraps its JSON in prose). Each run must end with zero provider errors,
score like the deterministic reader the server imitates, and name the method it found in
the manifest and in the run's summary; a resumed run reuses that method without probing.
The llama.cpp recipe in docs/live_models.md is run as written against the emulation.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.config import RunConfig
from simulator.runner.matrix import run_matrix
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import FakeProvider
from tests.live.test_live_run import records, scored

ROOT = Path(__file__).resolve().parents[2]
FOUND = {"llama.cpp": "json_object", "vllm": "json_schema", "ollama": "json_prompt"}


def run_cli(fake: FakeProvider, out: Path, *extra: str) -> int:
    return main(["run", "--out", str(out), "--spec", str(TINY_SPEC), "--model", "openai:m1",
                 "--base-url", fake.url, "--timeout", "2", "--backoff", "0", "--no-progress",
                 "--scenarios", "clean,conflicting_evidence", "--format", "none", *extra])


def manifest(run_dir: Path) -> dict:
    with RunStore(run_dir, create=False) as store:
        return store.manifest() or {}


def formats(requests: list) -> list[str | None]:
    return [(r.body.get("response_format") or {}).get("type") for r in requests]


@pytest.mark.parametrize("server", sorted(FOUND))
def test_auto_finds_the_method_the_server_accepts_and_records_it(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str],
        server: str) -> None:
    with FakeProvider(emulate=server) as fake:
        code = run_cli(fake, tmp_path / "live")
        preflights = [r for r in fake.requests if r.is_preflight]
    err = capsys.readouterr().err
    live = records(tmp_path / "live")
    assert code == 0 and live and not any(r.provider_error for r in live.values())
    assert manifest(tmp_path / "live")["structured_output"] == {"openai:m1": FOUND[server]}
    assert f"structured output: openai:m1 {FOUND[server]}" in err
    assert main(["report", str(tmp_path / "live")]) == 0  # the report's header says it too
    assert f"- structured output: openai:m1 {FOUND[server]}" in capsys.readouterr().out
    order = ["json_schema", "json_object", None]
    assert formats(preflights) == order[:order.index(
        None if FOUND[server] == "json_prompt" else FOUND[server]) + 1]
    run_matrix(RunConfig(models=("deterministic",), spec=str(TINY_SPEC),
                         scenarios=("clean", "conflicting_evidence")),
               tmp_path / "det", progress=False)
    expected = records(tmp_path / "det")
    assert {k: scored(r) for k, r in live.items()} == {k: scored(r) for k, r in expected.items()}


def test_a_resumed_run_reuses_the_recorded_method_without_probing(
        tmp_path: Path, canary_keys: dict) -> None:
    out = tmp_path / "live"
    with FakeProvider(emulate="llama.cpp") as fake:
        assert run_cli(fake, out, "--cache", "off", "--max-calls", "6") == 3
        assert formats([r for r in fake.requests if r.is_preflight]) == [
            "json_schema", "json_object"]
        before = len(fake.requests)
        assert run_cli(fake, out, "--cache", "off") == 0
        again = fake.requests[before:]
    assert formats([r for r in again if r.is_preflight]) == ["json_object"]
    assert set(formats(again)) == {"json_object"}
    assert manifest(out)["structured_output"] == {"openai:m1": "json_object"}


def test_forcing_json_schema_on_llama_cpp_stops_as_a_refusing_server_with_exit_7(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    """The issue's run: every prompted record failed and the run exited 0. Now the run stops
    after five records refused alike, names the server's reason, and keeps what it wrote."""
    with FakeProvider(emulate="llama.cpp") as fake:
        code = run_cli(fake, tmp_path / "live", "--structured-output", "json_schema",
                       "--attempts", "1")
    live = records(tmp_path / "live")
    prompted = [r for r in live.values() if r.prompt_hash is not None]
    assert code == 7 and prompted and all(r.provider_error for r in prompted)
    assert "structured_output" not in manifest(tmp_path / "live")  # nothing was verified
    stop = next(line for line in capsys.readouterr().err.splitlines()
                if line.startswith("stopped:"))
    assert "the same provider error ended 5 records in a row" in stop
    assert "validation error for CreateChatCompletionRequest" in stop


def recipe_command() -> list[str]:
    """The ``layerrag run`` command of the llama.cpp recipe in docs/live_models.md."""
    text = (ROOT / "docs" / "live_models.md").read_text(encoding="utf-8")
    section = text.split("## A local model with llama.cpp", 1)[1].split("\n## ", 1)[0]
    for block in re.findall(r"```bash\n(.*?)```", section, re.DOTALL):
        for line in block.replace("\\\n", " ").splitlines():
            if line.strip().startswith("layerrag run"):
                return shlex.split(line.split("#")[0])
    raise AssertionError("docs/live_models.md: the llama.cpp recipe has no layerrag run")


def test_the_llama_cpp_recipe_runs_as_written_against_an_emulating_server(
        tmp_path: Path, no_keys: None, capsys: pytest.CaptureFixture[str]) -> None:
    argv = recipe_command()
    assert argv[:2] == ["layerrag", "run"] and "--base-url" in argv
    argv = argv[1:]
    with FakeProvider(emulate="llama.cpp") as fake:
        argv[argv.index("--base-url") + 1] = fake.url + "/v1"
        argv[argv.index("--out") + 1] = str(tmp_path / "recipe")
        code = main([*argv, "--no-progress", "--format", "none"])
    assert code == 0, capsys.readouterr().err
    assert manifest(tmp_path / "recipe")["structured_output"].popitem()[1] == "json_object"
    assert not any(r.provider_error for r in records(tmp_path / "recipe").values())


def test_a_server_that_takes_another_method_never_replays_the_first_ones_answers(
        tmp_path: Path, canary_keys: dict, capsys: pytest.CaptureFixture[str]) -> None:
    """The same prompts and settings, against a server that refuses json_schema: the cache
    key holds the method found, so every answer is asked again (issue 27, item 5)."""
    cache = str(tmp_path / "calls.sqlite")
    with FakeProvider(emulate="vllm") as fake:
        assert run_cli(fake, tmp_path / "first", "--cache", cache) == 0
        first = [r for r in fake.requests if not r.is_preflight]
    with FakeProvider(emulate="llama.cpp") as fake:
        assert run_cli(fake, tmp_path / "second", "--cache", cache) == 0
        asked = [r for r in fake.requests if not r.is_preflight]
    # every prompt the first run asked is asked again (none replayed from its method)
    assert first and len(asked) == len(first)
    assert all((r.body.get("response_format") or {}).get("type") == "json_object"
               for r in asked)
    assert manifest(tmp_path / "second")["structured_output"] == {"openai:m1": "json_object"}
