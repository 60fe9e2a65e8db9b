"""The conflicting_evidence scenario does not aim with labels: scrambling the document ids in
the task labels changes no payload, answer, disclosure or behaviour label."""

from __future__ import annotations

import random

import pytest

from simulator.corpus import Corpus
from simulator.runner.config import RunConfig
from simulator.runner.matrix import Cell, MatrixRunner

SEEN = ("answer", "citations", "retrieved_doc_ids", "prompt_hash", "behaviour", "abstained",
        "grounded")
"""What the agent produced and what the environment served; E, R and S read the labels."""


@pytest.mark.slow
def test_scrambled_label_doc_ids_change_nothing_in_conflicting_evidence(corpus: Corpus) -> None:
    runner = MatrixRunner(RunConfig(scenarios=("conflicting_evidence",), modes=("strict",)),
                          corpus)
    ids = [(lab.required_doc_ids, lab.superseded_doc_ids) for lab in corpus.labels]
    random.Random(3).shuffle(ids)
    for task, labels, (required, superseded) in zip(corpus.tasks, corpus.labels, ids,
                                                    strict=True):
        scrambled = labels.model_copy(update={"required_doc_ids": required,
                                              "superseded_doc_ids": superseded})
        cells = [Cell("deterministic", "conflicting_evidence", "strict", "uncontrolled", task,
                      lab) for lab in (labels, scrambled)]
        true, other = (runner.run_cell(c) for c in cells)
        assert [getattr(true, f) for f in SEEN] == [getattr(other, f) for f in SEEN]
