"""Read and validate a spec folder. Every problem is a :class:`SpecError` naming its place."""

from __future__ import annotations

import hashlib
import re
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from simulator.answers.formats import YES_NO, value_matches_format
from simulator.corpus.spec import CorpusDecl, CorpusSpec, DomainSpec, UnitSpec
from simulator.errors import SpecError

CORPUS_FILE = "corpus.toml"


def bundled_spec_dir(name: str = "enterprise_v2") -> Path:
    """The spec folder shipped with the package (installed wheel or source checkout)."""
    here = Path(__file__).resolve().parent.parent
    for root in (here / "_bundled_specs", here.parent / "corpus_specs"):
        if (root / name / CORPUS_FILE).is_file():
            return root / name
    raise SpecError(str(here / "_bundled_specs" / name), CORPUS_FILE, "bundled spec not found")


def load_spec(spec_dir: Path | str | None = None) -> CorpusSpec:
    """Load and validate every file in ``spec_dir`` (default: the bundled enterprise_v2)."""
    root = Path(spec_dir) if spec_dir is not None else bundled_spec_dir()
    corpus_path = root / CORPUS_FILE
    if not root.is_dir():
        raise SpecError(str(root), "spec", "not a directory")
    if not corpus_path.is_file():
        raise SpecError(str(root), CORPUS_FILE, "missing: every spec folder needs one")
    corpus = load_corpus_decl(root)

    domain_files = sorted(p for p in root.glob("*.toml") if p.name != CORPUS_FILE)
    domains: dict[str, DomainSpec] = {}
    files: dict[str, str] = {}
    seen_units: dict[str, Path] = {}
    for path in domain_files:
        spec = load_domain_file(path, corpus)
        if spec.domain in domains:
            raise SpecError(str(path), "domain", f"{spec.domain!r} already defined in "
                            f"{files[spec.domain]}")
        for unit in spec.units:
            if unit.id in seen_units:
                raise SpecError(str(path), "id", f"duplicate id, first used in "
                                f"{seen_units[unit.id].name}", unit=unit.id)
            seen_units[unit.id] = path
        domains[spec.domain] = spec
        files[spec.domain] = str(path)
    missing = [d.id for d in corpus.domains if d.id not in domains]
    if missing:
        raise SpecError(str(corpus_path), "domains", f"no file defines {', '.join(missing)}")
    ordered = tuple(domains[d.id] for d in corpus.domains)
    return CorpusSpec(corpus=corpus, domains=ordered, spec_hash=_hash_files(root), files=files)


def load_corpus_decl(spec_dir: Path) -> CorpusDecl:
    path = Path(spec_dir) / CORPUS_FILE
    return _validate(CorpusDecl, _read_toml(path), path)  # type: ignore[no-any-return]


def load_domain_file(path: Path, corpus: CorpusDecl) -> DomainSpec:
    """Validate one domain file against its corpus declaration."""
    spec: DomainSpec = _validate(DomainSpec, _read_toml(path), path)
    declared = {d.id for d in corpus.domains}
    if spec.domain not in declared:
        raise SpecError(str(path), "domain", f"unknown domain {spec.domain!r}; corpus.toml "
                        f"declares {', '.join(sorted(declared))}")
    ids = [u.id for u in spec.units]
    for i, unit in enumerate(spec.units):
        if unit.id in ids[:i]:
            raise SpecError(str(path), "id", "duplicate id in this file", unit=unit.id)
        _check_unit(unit, corpus, path)
    return spec


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise SpecError(str(path), "syntax", f"malformed TOML: {exc}") from None
    except UnicodeDecodeError as exc:
        raise SpecError(str(path), "encoding", f"not UTF-8: {exc}") from None


def _validate(model: type[BaseModel], raw: dict[str, Any], path: Path) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = err["loc"]
        unit = None
        if len(loc) >= 2 and loc[0] == "units" and isinstance(loc[1], int):
            units = raw.get("units") or []
            unit_raw = units[loc[1]] if loc[1] < len(units) else {}
            unit = str(unit_raw.get("id", f"#{loc[1] + 1}")) if isinstance(unit_raw, dict) else None
            loc = loc[2:]
        field = ".".join(str(p) for p in loc) or "(file)"
        why = "missing required field" if err["type"] == "missing" else err["msg"]
        if err["type"] == "extra_forbidden":
            why = "unknown field (typo?)"
        raise SpecError(str(path), field, why, unit=unit) from None


def _mentions(text: str, value: str) -> bool:
    pattern = r"(?<![\w$€£])" + re.escape(value) + r"(?!\w)"
    return re.search(pattern, text, flags=re.IGNORECASE) is not None


def _check_unit(unit: UnitSpec, corpus: CorpusDecl, path: Path) -> None:
    def fail(field: str, why: str) -> SpecError:
        return SpecError(str(path), field, why, unit=unit.id)

    if len(unit.questions) != 3:
        raise fail("questions", f"expected exactly 3 question variants, got {len(unit.questions)}")
    if len(set(unit.questions)) != 3:
        raise fail("questions", "question variants must differ")
    if unit.access_group not in corpus.access_groups:
        raise fail("access_group", f"{unit.access_group!r} is not declared in corpus.toml")
    cur, old = unit.current, unit.superseded
    if cur.value.strip().lower() == old.value.strip().lower():
        raise fail("superseded.value", f"equals the current value {cur.value!r}")
    if cur.version == old.version:
        raise fail("superseded.version", f"equals the current version {cur.version!r}")
    if old.effective_year >= cur.effective_year:
        raise fail("superseded.effective_year",
                   f"{old.effective_year} is not before the current {cur.effective_year}")
    for which, ver in (("current", cur), ("superseded", old)):
        if not value_matches_format(ver.value, unit.answer_format):
            raise fail(f"{which}.value", f"{ver.value!r} is not a {unit.answer_format} value")
        if not _mentions(ver.prose, ver.value):
            raise fail(f"{which}.prose", f"does not state the value {ver.value!r}")
        if unit.answer_format == "yes_no":
            polar = [a for a in ver.aliases if a.lower() in YES_NO]
            if len(polar) != 1:
                raise fail(f"{which}.aliases", "a yes_no value needs exactly one of yes / no")
    if unit.answer_format == "yes_no":
        polarity = {a.lower() for v in (cur, old) for a in v.aliases if a.lower() in YES_NO}
        if polarity != set(YES_NO):
            raise fail("superseded.aliases", "current and superseded must differ in yes / no")


def _hash_files(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.glob("*.toml")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()
