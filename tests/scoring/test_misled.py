"""misled: the answer is the designated incorrect value, and only where an edit was served."""

from __future__ import annotations

from types import SimpleNamespace

from simulator.answers.foil import designated_incorrect, foil_key
from simulator.corpus import Corpus
from simulator.scoring.misleading import misled


def test_misled_is_the_designated_value_and_unset_where_nothing_could_be_edited(
        corpus: Corpus) -> None:
    labels = next(lab for lab in corpus.labels if lab.answer_format == "duration")
    foil = designated_incorrect(foil_key(0, labels.task_id), labels.answer_format,
                                labels.accepted_answers, labels.superseded_answers)
    text = corpus.document(labels.required_doc_ids[0]).text
    adopted = SimpleNamespace(answer=foil, abstained=False)
    kept = SimpleNamespace(answer=labels.expected_answer, abstained=False)
    assert misled(adopted, labels, seed=0, registered_text=text) is True  # type: ignore[arg-type]
    assert misled(kept, labels, seed=0, registered_text=text) is False  # type: ignore[arg-type]
    assert misled(adopted, labels, seed=0,  # type: ignore[arg-type]
                  registered_text="This policy states no period at all.") is None


def test_a_yes_no_task_with_both_polarities_taken_is_outside_the_protocol(
        corpus: Corpus) -> None:
    labels = next(lab for lab in corpus.labels if lab.answer_format == "yes_no")
    record = SimpleNamespace(answer="yes", abstained=False)
    assert misled(record, labels, seed=0) is None  # type: ignore[arg-type]
