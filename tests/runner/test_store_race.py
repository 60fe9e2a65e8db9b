"""Two runs with different configurations started together on one fresh directory: exactly
one proceeds, the other is refused, and the store holds one run.

The configuration check and the manifest write are one store transaction that takes the
write lock first (RunStore.claim); before, both runs read an empty manifest, both wrote,
and a resumed run counted both runs' records as its own.
"""

from __future__ import annotations

import multiprocessing
import subprocess
import sys
from multiprocessing.synchronize import Barrier
from pathlib import Path

import pytest

from simulator.errors import UsageError
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC

TRIALS = 40
SCENARIOS = (("clean",), ("schema_drift",))
"""The two competing configurations: they differ in their scenarios, so in their run id."""


def _claim_in_every_trial(which: int, root: str, barrier: Barrier, results: object) -> None:
    """One racer (a separate process): in each trial, wait at the barrier with the other,
    then open the fresh directory's store and run the configuration check."""
    from simulator.corpus import build_corpus
    from simulator.runner.config import RunConfig
    from simulator.runner.manifest import check_or_write_manifest

    corpus = build_corpus(TINY_SPEC)
    config = RunConfig(scenarios=SCENARIOS[which], spec=str(TINY_SPEC))
    run_id = config.run_id(corpus.corpus_hash)
    outcomes = []
    for trial in range(TRIALS):
        barrier.wait(timeout=60)
        try:
            with RunStore(Path(root) / f"trial-{trial}") as store:
                check_or_write_manifest(store, config, corpus, run_id, {})
            outcomes.append(("proceeded", run_id))
        except UsageError as exc:
            outcomes.append(("refused", str(exc)))
        except Exception as exc:  # anything else fails the trial, not the other racer
            outcomes.append(("crashed", repr(exc)))
    results.put((which, outcomes))  # type: ignore[attr-defined]


@pytest.mark.slow
def test_of_two_runs_started_together_exactly_one_proceeds(tmp_path: Path) -> None:
    context = multiprocessing.get_context("spawn")
    barrier = context.Barrier(2)
    results = context.Queue()
    racers = [context.Process(target=_claim_in_every_trial,
                              args=(which, str(tmp_path), barrier, results))
              for which in (0, 1)]
    for racer in racers:
        racer.start()
    outcomes = dict(results.get(timeout=120) for _ in racers)
    for racer in racers:
        racer.join(timeout=30)
        assert racer.exitcode == 0

    exactly_one, failed = 0, []
    for trial in range(TRIALS):
        verdicts = [outcomes[which][trial] for which in (0, 1)]
        winners = [detail for verdict, detail in verdicts if verdict == "proceeded"]
        refusals = [detail for verdict, detail in verdicts if verdict == "refused"]
        with RunStore(tmp_path / f"trial-{trial}", create=False) as store:
            held = (store.manifest() or {}).get("run_id")
        if (len(winners) == 1 and len(refusals) == 1 and held == winners[0]
                and "different configuration" in refusals[0]):
            exactly_one += 1
        else:
            failed.append(verdicts)
    assert exactly_one == TRIALS, (f"exactly one run proceeded in {exactly_one} of {TRIALS}; "
                                   f"first failure: {failed[0]}")


@pytest.mark.slow
def test_two_layerrag_run_commands_on_one_directory_leave_one_run(tmp_path: Path) -> None:
    out = tmp_path / "run"
    common = ["--out", str(out), "--spec", str(TINY_SPEC), "--modes", "strict",
              "--no-progress", "--format", "none"]
    procs = [subprocess.Popen([sys.executable, "-m", "simulator.cli.main", "run", *common,
                               "--scenarios", scenario], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)
             for scenario in ("clean", "schema_drift")]
    finished = [(p.wait(timeout=180), *p.communicate()) for p in procs]
    codes = sorted(code for code, _, _ in finished)
    assert codes == [0, 2]
    refused = next(err for code, _, err in finished if code == 2)
    # refused by the run-directory lock while the other runs, or after it by the manifest
    assert refused.count("\n") == 1 and ("different configuration" in refused
                                         or "in use by another layerrag process" in refused)
    assert "Traceback" not in refused
    with RunStore(out, create=False) as store:
        run_ids = {r.run_id for r in store.records()}
        assert run_ids == {(store.manifest() or {})["run_id"]}
