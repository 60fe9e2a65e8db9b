"""Read and validate a spec folder, reporting every problem at once.

:func:`check_spec` reads every file it can, validates every unit it can read, runs the
checks of :mod:`simulator.corpus.checks` on what validated, and returns the spec (when there
is no error) with every problem found. :func:`load_spec` is the strict form the rest of
layerrag uses: the spec, or a :class:`~simulator.corpus.problems.SpecProblems` naming the
first error and counting the others.
"""

from __future__ import annotations

import hashlib
import shlex
import tomllib
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

from pydantic import BaseModel, ValidationError

from simulator.corpus.checks import corpus_problems, spec_problems, unit_problems
from simulator.corpus.problems import Problem, SpecProblems, did_you_mean, errors_of
from simulator.corpus.spec import (
    CorpusDecl,
    CorpusSpec,
    DomainFile,
    DomainHeader,
    DomainSpec,
    UnitSpec,
)

CORPUS_FILE = "corpus.toml"


class SpecCheck(NamedTuple):
    """Everything :func:`check_spec` found."""

    spec: CorpusSpec | None
    """The validated spec, or None when there is any error."""
    problems: tuple[Problem, ...]
    corpus: CorpusDecl | None
    files: tuple[DomainFile, ...]
    """Every domain file, valid or not, for checks that look across them (cues)."""

    @property
    def errors(self) -> list[Problem]:
        return errors_of(self.problems)


def bundled_spec_dir(name: str = "enterprise_v2") -> Path:
    """The spec folder shipped with the package (installed wheel or source checkout)."""
    here = Path(__file__).resolve().parent.parent
    for root in (here / "_bundled_specs", here.parent / "corpus_specs"):
        if (root / name / CORPUS_FILE).is_file():
            return root / name
    raise SpecProblems([Problem(file=str(here / "_bundled_specs" / name), field=CORPUS_FILE,
                                message="bundled spec not found")])


SpecCheckFn = Callable[[SpecCheck], list[Problem]]
_LAYER_CHECKS: list[SpecCheckFn] = []
"""Checks of a spec that need a layer above this one (the retriever's domain cues):
registered by that layer when it is imported, run by :func:`load_spec`, so every command
that reads a spec (``run``, ``audit retriever``, ``study``, ``credit``) refuses what
``corpus build`` and ``corpus validate`` refuse."""


def register_spec_check(check: SpecCheckFn) -> SpecCheckFn:
    """Add ``check`` to what :func:`load_spec` runs (its errors refuse the spec)."""
    if check not in _LAYER_CHECKS:
        _LAYER_CHECKS.append(check)
    return check


def load_spec(spec_dir: Path | str | None = None) -> CorpusSpec:
    """Load and validate every file in ``spec_dir`` (default: the bundled enterprise_v2),
    with every registered layer check: any error refuses the spec."""
    check = check_spec(spec_dir)
    # the command that lists every problem of this spec (the bare one checks the bundled)
    validate = "layerrag corpus validate" + (
        f" --spec {shlex.quote(str(spec_dir))}" if spec_dir is not None else "")
    if check.spec is None:
        raise SpecProblems(check.problems, validate=validate)
    errors = [p for fn in _LAYER_CHECKS for p in fn(check) if p.severity == "error"]
    if errors:
        raise SpecProblems(errors, validate=validate)
    return check.spec


def check_spec(spec_dir: Path | str | None = None) -> SpecCheck:
    """Validate a spec folder and collect every problem (see the module docstring)."""
    root = Path(spec_dir) if spec_dir is not None else bundled_spec_dir()
    corpus_path = root / CORPUS_FILE
    if not root.is_dir():
        return _fatal(Problem(file=str(root), field="spec", message="not a directory"))
    if not corpus_path.is_file():
        return _fatal(Problem(file=str(root), field=CORPUS_FILE,
                              message="missing: every spec folder needs one"))
    problems: list[Problem] = []
    corpus = _read_model(CorpusDecl, corpus_path, problems)
    if corpus is not None:
        problems += corpus_problems(corpus, str(corpus_path))
    files = tuple(_read_domain_file(path, corpus, problems)
                  for path in sorted(root.glob("*.toml")) if path.name != CORPUS_FILE)
    problems += spec_problems(files, corpus, str(corpus_path))
    spec = None
    if corpus is not None and not errors_of(problems):
        domains = {f.header.domain: DomainSpec(**dict(f.header), units=f.units)
                   for f in files if f.header is not None}
        spec = CorpusSpec(corpus=corpus, domains=tuple(domains[d.id] for d in corpus.domains),
                          spec_hash=_hash_files(root),
                          files={f.header.domain: str(f.path) for f in files if f.header})
    return SpecCheck(spec=spec, problems=tuple(problems), corpus=corpus, files=files)


def _fatal(problem: Problem) -> SpecCheck:
    return SpecCheck(spec=None, problems=(problem,), corpus=None, files=())


def _read_domain_file(path: Path, corpus: CorpusDecl | None,
                      problems: list[Problem]) -> DomainFile:
    before = len(errors_of(problems))
    raw = read_toml(path, problems)
    if raw is None:
        return DomainFile(path, None, (), complete=False)
    head = {k: v for k, v in raw.items() if k != "units"}
    header = validate(DomainHeader, head, path, problems)
    if header is not None and corpus is not None:
        declared = list(dict.fromkeys(d.id for d in corpus.domains))
        if header.domain not in declared:
            problems.append(Problem(
                file=str(path), field="domain",
                message=f"unknown domain {header.domain!r}.{did_you_mean(header.domain, declared)}"
                        f" corpus.toml declares {', '.join(declared)}"))
    raw_units = raw.get("units")
    units: list[UnitSpec] = []
    if not isinstance(raw_units, list) or not raw_units:
        problems.append(Problem(file=str(path), field="units",
                                message="missing: a domain file needs at least one [[units]]"))
        raw_units = []
    for i, raw_unit in enumerate(raw_units):
        label = _unit_label(raw_unit, i)
        if not isinstance(raw_unit, dict):
            problems.append(Problem(file=str(path), field=f"units[{i}]", unit=label,
                                    message="must be a [[units]] table"))
            continue
        unit = validate(UnitSpec, raw_unit, path, problems, unit=label)
        if unit is not None:
            problems += unit_problems(unit, corpus, str(path))
            units.append(unit)
    complete = len(errors_of(problems)) == before
    return DomainFile(path, header, tuple(units), complete)


def _unit_label(raw_unit: object, index: int) -> str:
    if isinstance(raw_unit, dict) and isinstance(raw_unit.get("id"), str):
        return str(raw_unit["id"])
    return f"#{index + 1}"


def _read_model(model: type[CorpusDecl], path: Path,
                problems: list[Problem]) -> CorpusDecl | None:
    raw = read_toml(path, problems)
    return None if raw is None else validate(model, raw, path, problems)


def read_toml(path: Path, problems: list[Problem]) -> dict[str, Any] | None:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        problems.append(Problem(file=str(path), field="syntax", message=f"malformed TOML: {exc}"))
    except UnicodeDecodeError as exc:
        problems.append(Problem(file=str(path), field="encoding", message=f"not UTF-8: {exc}"))
    except OSError as exc:  # a folder named x.toml, a dangling or looping symlink, ...
        problems.append(Problem(file=str(path), field="file",
                                message=f"cannot be read: {exc.strerror or exc}"))
    return None


def validate(model: type[Any], raw: dict[str, Any], path: Path, problems: list[Problem],
             unit: str | None = None) -> Any:
    """``model`` validated from ``raw``, or None after adding one problem per field error.

    A misspelled field is reported once, as unknown with a suggestion, not also as the
    required field it was meant to be.
    """
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = exc.errors()
    missing = {(e["loc"][:-1], e["loc"][-1]) for e in errors if e["type"] == "missing"}
    meant = set()
    for err in errors:
        if err["type"] == "extra_forbidden":
            meant.add((err["loc"][:-1], _closest(model, err["loc"])))
    for err in errors:
        loc = err["loc"]
        if err["type"] == "missing" and (loc[:-1], loc[-1]) in meant:
            continue
        if err["type"] == "extra_forbidden":
            name, parent = str(loc[-1]), loc[:-1]
            known = _fields_at(model, parent)
            close = _closest(model, loc)
            hint = f" Did you mean: {close}?" if close else f" Known: {', '.join(known)}."
            if close and (parent, close) in missing:
                hint += f" ({close} is required and missing.)"
            why = f"unknown field {name!r}.{hint}"
        else:
            why = _why(err)
        problems.append(Problem(file=str(path), field=dotted(loc), message=why, unit=unit))
    return None


def _closest(model: type[BaseModel], loc: tuple[int | str, ...]) -> str | None:
    hint = did_you_mean(str(loc[-1]), _fields_at(model, loc[:-1]))
    return hint[len(" Did you mean: "):-1] if hint else None


def _fields_at(model: type[BaseModel], loc: tuple[int | str, ...]) -> list[str]:
    """The field names of the model found at ``loc`` inside ``model``."""
    current: Any = model
    for part in loc:
        if isinstance(part, int):
            continue
        field = current.model_fields.get(part) if hasattr(current, "model_fields") else None
        if field is None:
            return []
        current = field.annotation
        args = [a for a in typing.get_args(current) if isinstance(a, type)]
        if args and not hasattr(current, "model_fields"):
            current = args[0]
    return list(current.model_fields) if hasattr(current, "model_fields") else []


def dotted(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(file)"


def _why(err: Any) -> str:
    kind, given = err["type"], err.get("input")
    if kind == "missing":
        return "missing required field"
    if kind in ("int_type", "int_parsing", "int_from_float"):
        return f"must be a whole number written without quotes (like 2024), not {given!r}"
    if kind == "string_type":
        return f"must be text in quotes, not {given!r}"
    if kind in ("tuple_type", "list_type"):
        return f'must be a list, like ["a", "b"], not {given!r}'
    if kind == "too_short":
        return "must not be empty"
    if kind == "string_too_short":
        return f"is too short: at least {err['ctx']['min_length']} characters"
    if kind == "string_pattern_mismatch":
        return ("must start with a letter or digit and use only letters, digits, '_', '.' "
                f"and '-', not {given!r}")
    return str(err["msg"])


def _hash_files(root: Path) -> str:
    digest = hashlib.sha256()
    for path in sorted(root.glob("*.toml")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()

