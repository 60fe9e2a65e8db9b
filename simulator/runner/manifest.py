"""The run manifest: what a run directory holds, so resuming never mixes configurations."""

from __future__ import annotations

import datetime as dt
import subprocess
from importlib import metadata
from pathlib import Path
from typing import Any

from simulator.corpus import Corpus
from simulator.errors import UsageError
from simulator.runner.completeness import ExpectedRecords, expected_records
from simulator.runner.config import RunConfig
from simulator.runner.identity import definition_change, definitions
from simulator.runner.store import STORE_FILE, RunStore

TRACKED_PACKAGES = ("layerrag", "langchain", "langchain-core", "langgraph", "scikit-learn",
                    "pydantic", "numpy", "openai", "anthropic", "google-genai")


def package_versions() -> dict[str, str]:
    versions = {}
    for name in TRACKED_PACKAGES:
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            continue
    return versions


def git_revision() -> str | None:
    """The source checkout's commit, when layerrag runs from one."""
    root = Path(__file__).resolve().parents[2]
    if not (root / ".git").exists():
        return None
    try:
        out = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True,
                             text=True, timeout=5, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def build_manifest(config: RunConfig, corpus: Corpus, run_id: str,
                   prompt_template_hashes: dict[str, str] | None = None,
                   structured_output: dict[str, str] | None = None,
                   tool_call_mode: dict[str, str] | None = None,
                   agent: Any = None) -> dict[str, Any]:
    """The manifest; ``structured_output`` (live readers: the method each model answers
    through, as the run's preflight fixed it) and ``tool_call_mode`` (live tool-calling
    agents: how each model is asked for tool calls) are written only when there is one;
    ``agent`` (the runner's AgentSpec) is recorded with the scenario definitions
    (simulator/runner/identity.py)."""
    extra = {name: value for name, value in (("structured_output", structured_output),
                                             ("tool_call_mode", tool_call_mode)) if value}
    return {**extra,
        "definitions": definitions(config.scenarios, agent),
        "expected_records": expected_for(config, corpus).model_dump(mode="json"),
        "run_id": run_id,
        "created": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
        "corpus": corpus.name,
        "corpus_hash": corpus.corpus_hash,
        "config": config.model_dump(mode="json"),
        "versions": package_versions(),
        "git_revision": git_revision(),
        "prompt_template_hashes": prompt_template_hashes or {},
    }


def expected_for(config: RunConfig, corpus: Corpus) -> ExpectedRecords:
    """The records the run of ``config`` on ``corpus`` is made to hold."""
    from simulator.runner.cells import cells

    if config.suite == "cases":  # the corpus holds one task per turn of the run's cases
        total = len(corpus.tasks) * len(config.models) * len(config.scenarios) \
            * len(config.modes) * len(config.arms) * config.epochs
    else:
        total = sum(1 for _ in cells(config, corpus))
    axes = len(config.models) * len(config.scenarios) * len(config.modes) * len(config.arms)
    return expected_records(config.models, config.scenarios, config.modes, config.arms,
                            max(1, total // max(1, axes)))


def check_or_write_manifest(store: RunStore, config: RunConfig, corpus: Corpus,
                            run_id: str, templates: dict[str, str],
                            structured_output: dict[str, str] | None = None,
                            tool_call_mode: dict[str, str] | None = None,
                            agent: Any = None) -> dict[str, Any]:
    """Write the manifest of a new run, or check that a resumed run has the same one.

    The manifest is built first (``git rev-parse`` and all), then claimed in one store
    transaction that takes the write lock before it reads: two runs started together on
    one directory cannot both find it empty, so exactly one of them proceeds.
    """
    ours = build_manifest(config, corpus, run_id, templates, structured_output,
                          tool_call_mode, agent)
    existing = store.claim(ours)
    if existing.get("run_id") != run_id:
        theirs = existing.get("config")
        theirs = theirs if isinstance(theirs, dict) else {}
        ours = config.model_dump(mode="json")
        diff = sorted(k for k in set(theirs) | set(ours) if theirs.get(k) != ours.get(k))
        what = ", ".join(diff) if diff else "corpus"
        raise UsageError(
            f"{store.run_dir} holds run {existing.get('run_id')} with a different configuration "
            f"({what} differ); use another --out or the same options to resume"
        )
    changed = definition_change(existing.get("definitions"), ours["definitions"])
    if changed:
        raise UsageError(
            f"{store.run_dir} holds run {existing.get('run_id')} with a different "
            f"configuration ({changed}: its definition differs from the one this run used); "
            "use another --out, or the same definition to resume")
    for name, fixed in (("structured_output", structured_output),
                        ("tool_call_mode", tool_call_mode)):
        if fixed and existing.get(name) != fixed:
            # a run from before these were recorded, or a model whose method was not yet
            # fixed: record what this invocation uses (a recorded one is reused, not changed)
            existing = {**existing, name: {**fixed, **(existing.get(name) or {})}}
            store.write_manifest(existing)
    return existing


def recorded_structured_output(run_dir: Path, name: str = "structured_output"
                               ) -> dict[str, str]:
    """The structured-output methods (or, with ``name="tool_call_mode"``, the tool-call
    modes) a run directory's manifest records (none when there is no run there yet)."""
    if not (Path(run_dir) / STORE_FILE).is_file():
        return {}
    with RunStore(run_dir, create=False) as store:
        manifest = store.manifest() or {}
    methods = manifest.get(name)
    return dict(methods) if isinstance(methods, dict) else {}
