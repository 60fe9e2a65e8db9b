"""What is wrong with a spec, every problem at once, each naming file, unit and field.

Validation works like a linter: it does not stop at the first problem, so converting twenty
units takes one run, not thirteen. An *error* makes the spec unusable (the corpus cannot be
generated, or would silently be other than written); a *warning* is something the author
should look at that may be deliberate (a question asked in two domains, a cue two domains
share, prose the extractive reader misreads).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from simulator.errors import SpecError

Severity = Literal["error", "warning"]


class Problem(BaseModel):
    """One finding: where (file, unit, field), what, and how serious."""

    model_config = ConfigDict(frozen=True, extra="forbid")
    file: str
    field: str
    message: str
    unit: str | None = None
    severity: Severity = "error"

    def line(self) -> str:
        """``file: unit ID: field: message`` (no unit part for file-level problems)."""
        where = f"{self.file}: unit {self.unit}: {self.field}" if self.unit else \
            f"{self.file}: {self.field}"
        return f"{where}: {self.message}"


class SpecProblems(SpecError):
    """A spec with at least one error. Its message is the first error's line and a count of
    the others, with the command that lists them all; :attr:`problems` holds them all
    (warnings included).

    ``validate`` is that command. The default is enterprise_v2's; a case spec names its
    folder and suite (:func:`simulator.cases.loader.validate_command`), since the bare
    command validates the bundled enterprise_v2 and would not list a case spec's problems.
    """

    def __init__(self, problems: Sequence[Problem], *,
                 validate: str = "layerrag corpus validate") -> None:
        self.problems = tuple(problems)
        errors = [p for p in self.problems if p.severity == "error"]
        first = errors[0]
        more = len(errors) - 1
        why = first.message + (f" (and {more} more error{'s' if more > 1 else ''}; "
                               f"`{validate}` lists them all)" if more else "")
        super().__init__(first.file, first.field, why, unit=first.unit)

    @property
    def errors(self) -> tuple[Problem, ...]:
        return tuple(p for p in self.problems if p.severity == "error")


def did_you_mean(given: str, known: Iterable[str]) -> str:
    """`` Did you mean: x?`` when something in ``known`` is close to ``given``, else ``""``."""
    close = difflib.get_close_matches(given, list(known), n=1, cutoff=0.6)
    return f" Did you mean: {close[0]}?" if close else ""


def errors_of(problems: Iterable[Problem]) -> list[Problem]:
    return [p for p in problems if p.severity == "error"]
