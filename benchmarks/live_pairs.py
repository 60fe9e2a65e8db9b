"""Do strict and repair records that send the same prompt share their provider errors?

A live run of the tiny spec (4 scenarios x 2 modes x 12 tasks) against a loopback server
that answers each request with HTTP 500 at a seeded rate (3 attempts per call, no
backoff). It prints the provider errors, the strict/repair pairs that sent the same
prompt, and how many of those pairs disagree on ``provider_error`` (0 is the promise,
docs/live_models.md "Pairs share an outcome").

    python benchmarks/live_pairs.py --rate 0.5
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
from pathlib import Path

from simulator.live.options import LiveOptions
from simulator.live.policy import RetryPolicy
from simulator.runner.config import RunConfig
from simulator.runner.live import run_live_matrix
from simulator.runner.store import RunStore
from tests.conftest import TINY_SPEC
from tests.live.fake_provider import FakeProvider, Request, Status

SCENARIOS = ("clean", "schema_drift", "conflicting_evidence", "partial_timeout")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rate", type=float, default=0.5, help="HTTP 500s per request")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    os.environ.setdefault("OPENAI_API_KEY", "sk-benchmark-not-a-key")
    rng = random.Random(args.seed)

    def faulty(request: Request) -> Status | None:
        return Status(500) if not request.is_preflight and rng.random() < args.rate else None

    with FakeProvider(handler=faulty) as fake, tempfile.TemporaryDirectory() as tmp:
        config = RunConfig(models=("openai:m1",), spec=str(TINY_SPEC), base_url=fake.url,
                           scenarios=SCENARIOS)
        options = LiveOptions(concurrency=8, timeout_s=2, cache=None,
                              retry=RetryPolicy(attempts=3, backoff_s=0))
        summary = run_live_matrix(config, Path(tmp) / "run", options=options, progress=False)
        with RunStore(Path(tmp) / "run", create=False) as store:
            records = list(store.records())
    cell = {(r.scenario, r.arm, r.task_row, r.contract_mode): r for r in records}
    pairs = [(cell[(s, a, t, "strict")], cell[(s, a, t, "repair")])
             for (s, a, t, mode) in cell if mode == "strict"]
    shared = [(x, y) for x, y in pairs if x.prompt_hash and x.prompt_hash == y.prompt_hash]
    split = sum(x.provider_error != y.provider_error for x, y in shared)
    print(f"fault rate {args.rate}: {len(records)} records, {summary.provider_errors} provider "
          f"errors (exit {summary.exit_code}), {summary.stats.get('requests', 0)} requests; "
          f"{len(shared)} strict/repair pairs sent the same prompt, {split} disagree on "
          "provider_error")


if __name__ == "__main__":
    main()
