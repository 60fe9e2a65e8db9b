"""Query-side domain inference from cue words: the reported retriever's domain heuristic.

The rule (the one the spec writers were given): a domain's cue counts when a query word,
lowercased with a trailing ``s``/``es``/``ed``/``ing`` stripped, equals the cue likewise
stripped; the domain with strictly most cue hits wins; no hit or a tie is *unresolved*.

Two readings are fixed here, once:

- "Stripped" is ambiguous for ``-es`` (``expenses`` is ``expense`` + ``s``, ``passes`` is
  ``pass`` + ``es``), so every way of stripping one listed suffix counts, and so does the
  unstripped word: a word and a cue match when their sets of forms intersect. A form must
  keep at least three letters, so ``bus`` never becomes ``bu``. ``hired`` still does not match
  ``hire`` (stripping ``ed`` gives ``hir``); specs list both forms when they need both.
- A hit is a distinct cue of the domain matched by some query word: repeating a cue word does
  not outvote a question that names two cues of another domain.

Only the query text is read. The task's labelled domain never enters this module.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

_WORD = re.compile(r"[a-z0-9]+")
_SUFFIXES = ("ing", "es", "ed", "s")
_MIN_STEM = 3


def word_forms(word: str) -> frozenset[str]:
    """The word lowercased, and every form with one trailing s/es/ed/ing stripped."""
    word = word.lower()
    forms = {word}
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
            forms.add(word[: -len(suffix)])
    return frozenset(forms)


def query_words(text: str) -> list[str]:
    """Lowercased alphanumeric words; apostrophes and hyphens split words (``team's``)."""
    return _WORD.findall(text.lower())


class DomainInference(BaseModel):
    """What the heuristic concluded for one query, with its evidence."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    domain: str | None
    """The winning domain, or None when unresolved (no cue hit, or a tie for most hits)."""
    hits: dict[str, int]
    """Domain -> number of its distinct cues the query matched (only domains with hits)."""

    @property
    def resolved(self) -> bool:
        return self.domain is not None


class DomainCues(BaseModel):
    """The cue words of each domain (``Corpus.cues``), ready to match queries against.

    Attached to a :class:`~simulator.retrieval.index.DocumentIndex` as ``index.cues`` so that
    the retriever protocol stays ``(index, query, context, top_k)``: the cues describe the
    corpus the index was built from, not the caller.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")
    cues: dict[str, tuple[str, ...]] = Field(default_factory=dict)
    """Domain id -> cue words, in corpus order."""

    _cue_forms: dict[str, tuple[frozenset[str], ...]] = PrivateAttr(default_factory=dict)

    def model_post_init(self, context: Any, /) -> None:
        self._cue_forms = {domain: tuple(word_forms(cue) for cue in words)
                           for domain, words in self.cues.items()}

    @classmethod
    def of(cls, cues: DomainCues | Mapping[str, Sequence[str]]) -> DomainCues:
        """Accept an existing DomainCues or a plain mapping such as ``Corpus.cues``."""
        if isinstance(cues, DomainCues):
            return cues
        return cls(cues={domain: tuple(words) for domain, words in cues.items()})

    def infer(self, query: str) -> DomainInference:
        """Apply the cue rule to ``query``; see the module docstring."""
        forms: set[str] = set()
        for word in query_words(query):
            forms |= word_forms(word)
        hits = {domain: count for domain, cue_forms in self._cue_forms.items()
                if (count := sum(1 for cue in cue_forms if cue & forms))}
        return DomainInference(domain=_strict_winner(hits.items()), hits=hits)


def _strict_winner(hits: Iterable[tuple[str, int]]) -> str | None:
    ranked = sorted(hits, key=lambda item: -item[1])
    if not ranked or (len(ranked) > 1 and ranked[0][1] == ranked[1][1]):
        return None
    return ranked[0][0]


def infer_domain(query: str, cues: DomainCues | Mapping[str, Sequence[str]]) -> str | None:
    """The domain the query's cue words point to, or None when unresolved."""
    return DomainCues.of(cues).infer(query).domain
