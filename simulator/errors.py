"""Error kinds. Each one the CLI turns into a single line and exit code 2."""

from __future__ import annotations


class LayerragError(Exception):
    """Base of the errors a user can cause and fix: bad input, never a bug."""


class SpecError(LayerragError, ValueError):
    """A corpus or scenario spec is wrong: which file, which unit, which field, and why."""

    def __init__(self, file: str, field: str, why: str, unit: str | None = None) -> None:
        self.file, self.unit, self.field, self.why = file, unit, field, why
        where = f"{file}: unit {unit}: {field}" if unit else f"{file}: {field}"
        super().__init__(f"{where}: {why}")


class UsageError(LayerragError):
    """A command was asked for something that does not exist or cannot be done."""


class ArchiveError(LayerragError):
    """An archive is malformed or tampered with: which line, which field."""
