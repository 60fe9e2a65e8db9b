"""DocumentIndex extensions: corpus cues travel with the index; the fast scoring path."""

from __future__ import annotations

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer

from simulator.corpus import Corpus
from simulator.retrieval import DocumentIndex, corrupt_metadata


def test_an_index_built_from_a_corpus_carries_its_cue_words(tiny_corpus: Corpus) -> None:
    index = DocumentIndex.from_corpus(tiny_corpus)
    assert index.cues is not None
    assert index.cues.cues == tiny_corpus.cues


def test_swapping_metadata_keeps_the_cue_words(tiny_corpus: Corpus) -> None:
    index = DocumentIndex.from_corpus(tiny_corpus)
    swapped = index.with_metadata(corrupt_metadata(index.documents, seed=0))
    assert swapped.cues == index.cues


def test_an_index_over_some_documents_scores_only_those(tiny_corpus: Corpus) -> None:
    index = DocumentIndex.from_corpus(tiny_corpus, tiny_corpus.documents[:3])
    assert len(index.scores("return window")) == 3


def test_scores_equal_scikit_learns_tfidf_cosine(tiny_corpus: Corpus) -> None:
    index = DocumentIndex.from_corpus(tiny_corpus)
    # The reference: scikit-learn's own transform, with the settings the index documents.
    vectorizer = TfidfVectorizer(sublinear_tf=True, stop_words="english", ngram_range=(1, 2))
    matrix = vectorizer.fit_transform(f"{d.title}. {d.text}" for d in index.documents)
    for task in tiny_corpus.tasks:
        reference = (matrix @ vectorizer.transform([task.question]).T).toarray().ravel()
        np.testing.assert_allclose(index.scores(task.question), reference, atol=1e-12)


def test_a_query_with_no_known_word_scores_zero_everywhere(tiny_corpus: Corpus) -> None:
    index = DocumentIndex.from_corpus(tiny_corpus)
    assert not index.scores("zzz qqq the").any()
