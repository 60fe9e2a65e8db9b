"""misled: the answer is the designated incorrect value of the task's current document
(the function the fault uses), and unset where nothing could be edited."""

from __future__ import annotations

from types import SimpleNamespace

from simulator.answers.foil import document_foil, foil_key
from simulator.corpus import Corpus
from simulator.scoring.misleading import misled


def test_misled_is_the_designated_value_and_unset_where_nothing_could_be_edited(
        corpus: Corpus) -> None:
    labels = next(lab for lab in corpus.labels if lab.answer_format == "duration")
    task = corpus.tasks[labels.row]
    text = corpus.document(labels.required_doc_ids[0]).text
    older = [corpus.document(d).text for d in labels.superseded_doc_ids]
    foil = document_foil(foil_key(0, task.task_id), task.question, task.answer_format, text,
                         older)
    assert foil is not None
    adopted = SimpleNamespace(answer=foil.value, abstained=False)
    kept = SimpleNamespace(answer=labels.expected_answer, abstained=False)
    assert misled(adopted, task, seed=0, registered_text=text,  # type: ignore[arg-type]
                  older_texts=older) is True
    assert misled(kept, task, seed=0, registered_text=text,  # type: ignore[arg-type]
                  older_texts=older) is False
    assert misled(adopted, task, seed=0,  # type: ignore[arg-type]
                  registered_text="This policy states no period at all.") is None


def test_a_yes_no_task_with_both_polarities_taken_is_outside_the_protocol(
        corpus: Corpus) -> None:
    labels = next(lab for lab in corpus.labels if lab.answer_format == "yes_no")
    task = corpus.tasks[labels.row]
    record = SimpleNamespace(answer="yes", abstained=False)
    text = corpus.document(labels.required_doc_ids[0]).text
    older = [corpus.document(d).text for d in labels.superseded_doc_ids]
    assert misled(record, task, seed=0, registered_text=text,  # type: ignore[arg-type]
                  older_texts=older) is None
