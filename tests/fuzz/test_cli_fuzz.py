"""Generated command lines, every subcommand: exit 0 or 2, never a traceback, and nothing
already written changed (a run, its archive, a spec, a plain file)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.fuzz.conftest import Workspace, assert_clean, layerrag

FUZZ = settings.get_profile("fuzz")

NUMBERS = st.sampled_from(["-1", "0", "1", "2", "3", "7", "999999", "1e3", "x", "", "-0",
                           "0.5", "nan", "inf"])
WORDS = st.sampled_from(["clean", "schema_drift", "clean,clean", "all", "", ",", "strict",
                         "repair", "strict,strict", "repair,strict", "nonsense", "clean,",
                         "uncontrolled", "controlled", "uncontrolled,uncontrolled",
                         "fuzzarm=bounded_retry", "fuzzarm2=nope", "md", "csv", "json",
                         "latex", "none", "paper", "open", "react", "pipeline", "mod:fn",
                         "openai:m", "deterministic", "schema_repair", "bounded_retry",
                         "127.0.0.1:9", "off", "openai:m=1,2", "=", "é", "a b"])
"""Values for any option; no URL a live run could reach (no generated input calls out)."""


def _paths(space: Workspace) -> st.SearchStrategy[str]:
    fixed = [space.run, space.archive, space.file, space.spec, space.file / "sub",
             space.root / "missing", Path("/proc/layerrag-fuzz"), space.run / "runs.sqlite"]
    return st.one_of(st.sampled_from([str(p) for p in fixed]),
                     st.builds(lambda: str(space.fresh())))


FLAGS = {
    "run": ["--out", "--scenarios", "--modes", "--arms", "--tasks", "--format", "--model",
            "--base-url", "--seed", "--spec", "--pipeline", "--agent", "--concurrency",
            "--max-calls", "--max-tokens", "--timeout", "--attempts", "--backoff",
            "--temperature", "--structured-output", "--cache", "--price", "--rpm"],
    "report": ["--format", "--plots", "--replicates", "--seed"],
    "archive recompute": ["--format", "--json", "--plots", "--replicates", "--seed"],
    "archive export": ["--out"],
    "study arms": ["--baseline", "--format"],
    "corpus validate": ["--spec"],
    "corpus build": ["--spec", "--seed", "--out"],
    "audit retriever": ["--seed", "--json"],
    "credit": ["--policy", "--run", "--arm", "--baseline", "--mode", "--model", "--tasks",
               "--replicates", "--bootstrap-seed", "--json", "--pipeline", "--base-url"],
}
GOOD = {
    "--scenarios": ["clean", "schema_drift", "clean,schema_drift", "all", "clean,clean"],
    "--modes": ["strict", "repair", "strict,repair", "strict,strict"],
    "--arms": ["uncontrolled", "controlled", "uncontrolled,controlled",
               "fuzzarm=bounded_retry", "uncontrolled,fuzzarm=bounded_retry"],
    "--tasks": ["1", "2", "3"], "--seed": ["0", "1"], "--replicates": ["1", "3"],
    "--bootstrap-seed": ["0", "1"], "--format": ["md", "csv", "json", "latex", "none"],
    "--model": ["deterministic", "openai:m"], "--pipeline": ["paper", "open"],
    "--agent": ["pipeline", "react"], "--policy": ["schema_repair", "bounded_retry"],
    "--arm": ["schema_repair", "controlled"], "--baseline": ["uncontrolled", "controlled"],
    "--mode": ["strict", "repair"],
}
"""Values each option accepts, drawn more often than garbage so commands get past parsing."""
PATH_FLAGS = {"--out", "--spec", "--plots", "--run", "--cache"}
SWITCHES = {"--json", "--replay", "--no-progress"}
POSITIONAL = {"report": "run", "archive recompute": "archive", "archive export": "run",
              "study arms": "run"}


@st.composite
def command_lines(draw: st.DrawFn, space: Workspace) -> list[str]:
    command = draw(st.sampled_from(sorted(FLAGS)))
    argv = command.split()
    if command in POSITIONAL:
        default = str(getattr(space, POSITIONAL[command]))
        argv.append(draw(st.one_of(st.just(default), _paths(space))))
    paths = _paths(space)
    for flag in draw(st.lists(st.sampled_from(FLAGS[command]), max_size=5)):
        if flag in SWITCHES:
            argv.append(flag)
            continue
        if flag in PATH_FLAGS:
            value = draw(paths)
        elif flag in GOOD and draw(st.integers(0, 2)):
            value = draw(st.sampled_from(GOOD[flag]))
        else:
            value = draw(st.one_of(NUMBERS, WORDS))
        argv += [flag, value]
    # Keep every valid command small: the tiny spec, few tasks and replicates, no progress.
    if command in ("run", "credit", "corpus build", "corpus validate", "audit retriever") \
            and "--spec" not in argv:
        argv += ["--spec", str(space.spec)]
    if command in ("run", "credit"):
        if "--tasks" not in argv:
            argv += ["--tasks", "2"]
        argv.append("--no-progress")
    if command == "run":
        if "--out" not in argv:
            argv += ["--out", str(space.fresh())]
        if "--scenarios" not in argv:
            argv += ["--scenarios", "clean"]
        if "--format" not in argv:
            argv += ["--format", "none"]
    if command == "credit":
        if "--run" not in argv:
            argv += ["--run", str(space.run)]
        if "--policy" not in argv:
            argv += ["--policy", draw(st.sampled_from(GOOD["--policy"]))]
    if command in ("report", "archive recompute", "credit") and "--replicates" not in argv:
        argv += ["--replicates", "3"]
    if command in ("corpus build", "archive export") and "--out" not in argv:
        argv += ["--out", str(space.fresh())]
    if draw(st.booleans()) and draw(st.integers(0, 9)) == 0:
        argv.insert(draw(st.integers(1, len(argv))), draw(st.sampled_from(
            ["--", "-x", "--nope", "extra"])))
    return argv


def check(space: Workspace, argv: list[str]) -> None:
    outcome = layerrag(argv)
    assert_clean(outcome, argv)
    space.assert_unchanged(argv)


@pytest.mark.slow
@settings(FUZZ, max_examples=200)
@given(data=st.data())
def test_generated_command_lines_end_in_0_or_2_and_change_nothing(
        workspace: Workspace, data: st.DataObject) -> None:
    check(workspace, data.draw(command_lines(workspace)))


@pytest.mark.fuzz_long
@settings(FUZZ, max_examples=2000)
@given(data=st.data())
def test_many_generated_command_lines(workspace: Workspace, data: st.DataObject) -> None:
    check(workspace, data.draw(command_lines(workspace)))
