"""Which kind of spec a folder holds: enterprise_v2's ``[[units]]`` or multi-turn ``[[cases]]``.

Both kinds share ``corpus.toml``; what tells them apart is the tables of their domain files.
The commands that read either kind (``layerrag corpus validate`` and ``build``) ask this module
rather than a flag, so a case folder is validated as one without being told. The rule looks at
every domain file, not the first: a folder holding both kinds is refused in one line, since
either reader would report the other kind's tables as unknown fields, one problem per file,
and hide the real mistake. A file whose TOML does not parse is still recognised by its table
headers, so a syntax error in a case file is reported by the case validator, not as a missing
``[[units]]`` by enterprise_v2's.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Literal

from simulator.corpus.loader import CORPUS_FILE
from simulator.errors import SpecError

SpecTables = Literal["units", "cases"]
"""The table a spec's domain files are made of: ``units`` (enterprise_v2, docs/corpus.md) or
``cases`` (docs/cases.md)."""
TABLES: tuple[SpecTables, ...] = ("units", "cases")

_HEADER = {table: re.compile(rf"^\s*\[\[\s*{table}\s*(?:\]\]|\.)", re.MULTILINE)
           for table in TABLES}


def spec_tables(root: Path) -> SpecTables | None:
    """``units`` or ``cases``: what the domain files of ``root`` hold; None when no file holds
    either (no folder, no domain file, nothing readable), which the validators report.

    Raises :class:`~simulator.errors.SpecError` (one line naming a file of each kind) when the
    folder holds both.
    """
    found: dict[SpecTables, list[str]] = {table: [] for table in TABLES}
    if root.is_dir():
        for path in sorted(root.glob("*.toml")):
            if path.name == CORPUS_FILE:
                continue
            for table in _tables_of(path):
                found[table].append(path.name)
    units, cases = found["units"], found["cases"]
    if units and cases:
        both = sorted(set(units) & set(cases))
        where = (f"{both[0]} holds both" if both else
                 f"{cases[0]} holds [[cases]] and {units[0]} [[units]]")
        raise SpecError(str(root), "spec", f"mixes the two kinds of spec: {where}; a folder "
                                           "holds enterprise_v2 [[units]] (docs/corpus.md) or "
                                           "multi-turn [[cases]] (docs/cases.md), not both")
    return "cases" if cases else "units" if units else None


def _tables_of(path: Path) -> list[SpecTables]:
    """The tables one file holds: top-level keys when it parses, else its table headers."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return []  # the validator reports the file
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return [table for table in TABLES if _HEADER[table].search(text)]
    return [table for table in TABLES if table in raw]


__all__ = ["TABLES", "SpecTables", "spec_tables"]
