"""Comma lists and paths as the command line gives them, refused when they say nothing.

``--scenarios clean,,stale_index`` names an empty scenario (a typo, never a wish), so it
is refused in one line rather than read as two; a group name (``all``, ``misleading``) is
expanded where it stands, alone or inside a list (``clean,misleading``), duplicates
dropped in first-seen order; ``--out ""`` is an empty path, refused rather than read as
the current directory.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from simulator.errors import UsageError


def split_list(text: str, flag: str = "") -> tuple[str, ...]:
    """``a, b`` -> (a, b); an empty entry (``a,,b``, ``a,``, ``""``) is refused."""
    parts = tuple(part.strip() for part in text.split(","))
    if not all(parts):
        where = f"{flag} {text!r}" if flag else repr(text)
        raise UsageError(f"{where}: an empty name in the comma list; write names separated "
                         "by single commas, e.g. clean,schema_drift")
    return parts


def expand_groups(names: tuple[str, ...], groups: Mapping[str, tuple[str, ...]]
                  ) -> tuple[str, ...]:
    """Each group name replaced by its members, in place; a name seen twice kept once."""
    out: list[str] = []
    for name in names:
        for member in groups.get(name, (name,)):
            if member not in out:
                out.append(member)
    return tuple(out)


def scenario_list(text: str) -> tuple[str, ...]:
    """``--scenarios``: names and group names (``all``, ``misleading``), comma-separated."""
    from simulator.vocabulary import SCENARIO_GROUPS

    return expand_groups(split_list(text, "--scenarios"), SCENARIO_GROUPS)


def output_path(text: str) -> Path:
    """``--out``: a path, never the empty string (which would mean the current directory).

    Raised as a :class:`UsageError`, which argparse lets through to ``main``: one line, not
    argparse's usage block."""
    if not text.strip():
        raise UsageError(f"--out {text!r}: an empty path; name the directory or file to write")
    return Path(text)
