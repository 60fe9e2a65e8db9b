"""The arms a run directory was made with, read back from its manifest.

A run records each arm's policy list (``RunConfig.arm_definitions``), so an arm named on
the command line (``--arms mine=bounded_retry+session_isolation``) keeps its meaning: the
commands that read or resume a run resolve its arm names from here instead of asking for
the definition again.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from simulator.errors import UsageError

if TYPE_CHECKING:
    from simulator.runner.config import RunConfig


def arm_definitions(manifest: Mapping[str, Any] | None) -> dict[str, tuple[str, ...]]:
    """Arm name -> its policies as the manifest recorded them ({} for a run made before
    runs recorded them)."""
    config = (manifest or {}).get("config")
    definitions = config.get("arm_definitions") if isinstance(config, Mapping) else None
    if not isinstance(definitions, Mapping):
        return {}
    order = config.get("arms") if isinstance(config, Mapping) else None
    names = [n for n in (order or ()) if n in definitions]
    names += sorted(n for n in definitions if n not in names)  # the run's order first
    return {str(name): tuple(str(p) for p in definitions[name]) for name in names}


def run_arm_definitions(run_dir: Path) -> dict[str, tuple[str, ...]]:
    """The arms of the run in ``run_dir`` ({} when it holds no run yet)."""
    from simulator.runner.store import STORE_FILE, RunStore

    if not (run_dir / STORE_FILE).is_file():
        return {}
    with RunStore(run_dir, create=False) as store:
        return arm_definitions(store.manifest())


def register_arms_of_run(run_dir: Path, *, redefined: Collection[str] = ()
                         ) -> dict[str, tuple[str, ...]]:
    """Make the run's named arms resolvable in this process; returns them.

    Names in ``redefined`` (``--arms mine=...`` given again) are left to the command line's
    definition, so a changed one is refused by the resume check, which names what differs.
    """
    from policies.compose import register_run_arms

    definitions = run_arm_definitions(run_dir)
    register_run_arms({n: p for n, p in definitions.items() if n not in redefined})
    return definitions


def check_arm_in_run(run_dir: Path, arm: str, definitions: Mapping[str, tuple[str, ...]],
                     *, policy: str | None = None) -> None:
    """Refuse an arm the run does not hold (or, with ``policy``, one without it)."""
    if definitions and arm not in definitions:
        raise UsageError(f"{run_dir} holds arms {', '.join(definitions)}, not {arm!r}; "
                         "name one of them with --arm, or run the arm into another "
                         "directory")
    if policy is not None and arm in definitions and policy not in definitions[arm]:
        raise UsageError(f"arm {arm!r} of {run_dir} is "
                         f"{'+'.join(definitions[arm]) or 'no policies'}, without {policy!r}")


def check_resumes(run_dir: Path, config: RunConfig) -> None:
    """Refuse, at once, to resume a run made with other options.

    The runner checks the whole run id (corpus included) once the corpus is built; this
    compares only the options the manifest recorded, so the common mistake (``--tasks 24``
    into a full run) is one line before seconds of imports and corpus building. Options an
    older manifest did not record are left to the runner's check.
    """
    from simulator.runner.store import STORE_FILE, RunStore

    if not (run_dir / STORE_FILE).is_file():
        return
    with RunStore(run_dir, create=False) as store:
        manifest = store.manifest() or {}
    theirs = manifest.get("config")
    if not isinstance(theirs, Mapping):
        return
    ours = config.model_dump(mode="json")
    differ = sorted(k for k in theirs if k in ours and theirs[k] != ours[k])
    if differ:
        raise UsageError(f"{run_dir} holds run {manifest.get('run_id')} with a different "
                         f"configuration ({', '.join(differ)} differ); use another --out or "
                         "the same options to resume")
