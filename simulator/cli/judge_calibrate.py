"""``layerrag judge calibrate RUN_DIR --judge PROVIDER:MODEL``: the LLM judge against the
reference judge (and human labels with ``--human FILE``), its two bias probes, and the
weight-robustness check (simulator/stats/calibration.py says how each figure is made)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from simulator.judge.metrics import MetricName
    from simulator.stats.calibration import Agreement, ProbeEffect, ProfileOrder


def calibrate(args: argparse.Namespace, run_dir: Path, weights_name: str,
              weights: dict[MetricName, float]) -> int:
    from simulator.cli.judge_llm import is_llm_judge, run_llm_judge, stop_code
    from simulator.errors import UsageError
    from simulator.judge.human import load_human_labels
    from simulator.judge.run import judge_run
    from simulator.judge.weights import PROFILES
    from simulator.runner.store import RunStore
    from simulator.stats.calibration import agreement, probe_effects, profile_orders

    if not is_llm_judge(args.judge):
        raise UsageError("judge calibrate compares an LLM judge with the reference judge: "
                         "name it with --judge PROVIDER:MODEL")
    reference_records, _ = judge_run(run_dir, store_results=False)
    reference = {j.judgment.key: j.judgment for j in reference_records}
    human = (load_human_labels(args.human, keys=set(reference))
             if args.human is not None else None)
    with RunStore(run_dir, create=False) as store:
        call = run_llm_judge(args, store, probes=True)
    code = stop_code(call)
    if code is not None:
        return code
    llm = {j.judgment.key: j.judgment for j in call.run.judged}
    cell_of = {j.judgment.key: f"{j.arm}/{j.scenario}/{j.contract_mode}"
               for j in reference_records}
    agree = agreement(reference, llm, weights)
    probes = probe_effects(llm, call.probes or {})
    profiles = dict(PROFILES)
    orders = [*profile_orders("deterministic", reference, cell_of, profiles),
              *profile_orders(args.judge, llm, cell_of, profiles)]
    against_human = ({"llm": agreement(human, llm, weights),
                      "reference": agreement(human, reference, weights)}
                     if human is not None else None)
    unjudged = sum(1 for j in llm.values() if j.status == "unjudged")
    if args.json:
        print(json.dumps({
            "run": str(run_dir), "judge": args.judge, "reference": "deterministic",
            "weights": weights_name, "llm_unjudged": unjudged,
            "agreement": [a.model_dump() for a in agree],
            "probes": [p.model_dump() for p in probes],
            "weight_robustness": [o.model_dump() for o in orders],
            "human": None if against_human is None else {
                k: [a.model_dump() for a in v] for k, v in against_human.items()},
            "judge_calls": call.as_json()}, indent=2))
    else:
        sys.stdout.write(render(args.judge, agree, probes, orders, against_human, unjudged,
                                len(llm)))
    print(call.summary(), file=sys.stderr)
    return 0


def _f(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.3f}"


def _signed(value: float | None) -> str:
    return "n/a" if value is None else f"{value:+.4f}"


def _row(cells: Sequence[Any]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _agreement_table(rows: Sequence[Agreement]) -> list[str]:
    from simulator.judge.metrics import SHORT

    out = [_row(["metric", "pairs", "Spearman rho", "Cohen's kappa (bands)", "MAD", "note"]),
           _row(["---"] * 6)]
    for a in rows:
        name = SHORT.get(a.metric, a.metric)  # type: ignore[call-overload]
        out.append(_row([f"{a.metric} ({name})" if a.metric in SHORT else a.metric,
                         a.pairs, _f(a.spearman), _f(a.kappa), _f(a.mad), a.note or ""]))
    return out


def render(judge: str, agree: Sequence[Agreement], probes: Sequence[ProbeEffect],
           orders: Sequence[ProfileOrder],
           human: Mapping[str, Sequence[Agreement]] | None, unjudged: int, total: int) -> str:
    from simulator.judge.metrics import BANDS

    lines = [f"## Calibration: {judge} against the reference judge (deterministic)", "",
             f"{total} records; {unjudged} unjudged by the LLM judge (left out). Pairs: "
             "records both judges scored on the metric.", "", *_agreement_table(agree), "",
             "### Band confusion (rows: reference band; columns: LLM band)", "",
             _row(["metric", "reference", *BANDS]), _row(["---"] * (2 + len(BANDS)))]
    for a in agree:
        if a.pairs:
            for band in BANDS:
                counts = a.confusion[band]
                if any(counts.values()):
                    lines.append(_row([a.metric, band, *(counts[b] for b in BANDS)]))
    lines += ["", "### Bias probes (the LLM judge against itself)", "",
              "evidence_reversed: the same documents, last first (records with two or more); "
              "answer_padded: the answer followed by a true, irrelevant sentence. A robust "
              "judge shifts by about 0.", "",
              _row(["probe", "metric", "pairs", "mean shift", "band changes"]),
              _row(["---"] * 5)]
    for p in probes:
        if p.pairs:
            lines.append(_row([p.probe, p.metric, p.pairs, _signed(p.mean_shift),
                               p.band_changes]))
    lines += ["", "### Weight robustness (cells by mean S_final under each profile)", "",
              _row(["judge", "profile", "Kendall tau vs paper", "max shift", "top 3 cells"]),
              _row(["---"] * 5)]
    for o in orders:
        lines.append(_row([o.judge, o.profile, _f(o.kendall_tau), f"{o.max_shift:.3f}",
                           ", ".join(o.order[:3])]))
    if human is not None:
        for who, rows in human.items():
            lines += ["", f"### Against human labels: {who} judge", "", *_agreement_table(rows)]
    return "\n".join(lines) + "\n"


def human_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--human", type=Path, metavar="FILE.jsonl",
                        help="judge calibrate: human labels, one JSON object per line "
                             "(docs/judge.md)")

