"""Self-consistency of version metadata within one result set, without the registry.

Documents that share a title are versions of one policy. Their metadata contradicts itself
when a version marked ``current`` is older than one marked ``superseded``, when two versions
are both marked ``current``, or when the version labels run against the effective years.
Labels are compared only within one scheme (``v5`` vs ``v6.1``, ``Rev B`` vs ``Rev C``,
``2021.3`` vs ``2025.1``): free-text labels of different schemes have no order.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations

from simulator.readers.base import Evidence

_PART = re.compile(r"\d+|[A-Za-z]+")


def version_key(label: str) -> tuple[str, tuple[int, ...]] | None:
    """``(scheme, order)`` of a version label, or None when it has no orderable part.

    The scheme is the label's leading word ("v", "rev", "edition", or "" for bare numbers);
    the order is its numbers, or a single capital letter's position (``Rev B`` -> 2).
    """
    parts = _PART.findall(label.strip())
    if not parts:
        return None
    scheme = parts[0].lower() if parts[0].isalpha() and len(parts) > 1 else ""
    rest = parts[1:] if scheme else parts
    if all(p.isdigit() for p in rest):
        return scheme, tuple(int(p) for p in rest)
    if len(rest) == 1 and len(rest[0]) == 1 and rest[0].isupper():
        return scheme, (ord(rest[0]) - ord("A") + 1,)
    return None


def _versions_disagree(a: Evidence, b: Evidence) -> bool:
    if a.version is None or b.version is None or a.effective_year == b.effective_year:
        return False
    ka, kb = version_key(a.version), version_key(b.version)
    if ka is None or kb is None or ka[0] != kb[0] or ka[1] == kb[1]:
        return False
    newer_by_year = (a.effective_year or 0) > (b.effective_year or 0)
    return newer_by_year != (ka[1] > kb[1])


def contradictions(evidence: Sequence[Evidence]) -> list[str]:
    """What the version metadata of ``evidence`` says against itself, one line per finding."""
    by_title: dict[str, list[Evidence]] = defaultdict(list)
    for item in evidence:
        by_title[item.title].append(item)
    found = []
    for title, versions in by_title.items():
        current = [v for v in versions if v.status == "current"]
        if len(current) > 1:
            found.append(f"'{title}': {len(current)} versions marked current")
        for a, b in combinations(versions, 2):
            for new, old in ((a, b), (b, a)):
                if (new.status == "current" and old.status == "superseded"
                        and (new.effective_year or 0) < (old.effective_year or 0)):
                    found.append(f"'{title}': current {new.doc_id} ({new.effective_year}) is "
                                 f"older than superseded {old.doc_id} ({old.effective_year})")
            if _versions_disagree(a, b):
                found.append(f"'{title}': version labels {a.version!r} and {b.version!r} run "
                             "against their effective years")
    return found
