"""Generated archives (a genuine one, mutated field by field, line by line and byte by byte):
``archive recompute`` ends in 0 or 2, never a traceback; an edit that breaks a scoring rule is
refused naming its line, never recomputed into changed figures."""

from __future__ import annotations

import gzip
import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from simulator.archive import ARCHIVE_FIELDS
from tests.fuzz.conftest import Workspace, assert_clean, layerrag

FUZZ = settings.get_profile("fuzz")
VALUES = st.one_of(st.booleans(), st.none(), st.integers(-2, 300), st.sampled_from(
    ["", "clean", "strict", "repair", "reader", "provider", "x y", "run-0", "local",
     "deterministic", "abstained", "a" * 200, "sha256:" + "0" * 64]),
    st.lists(st.integers(0, 3), max_size=2), st.floats(allow_nan=True))
FIELDS = st.sampled_from([*ARCHIVE_FIELDS, "answer", "latency_ms", "api_key", ""])
HEADER_FIELDS = st.sampled_from(["archive_version", "run_id", "created", "corpus_hash",
                                 "prompt_template_hashes", "versions", "fields", "pipeline",
                                 "agent", "extra"])


def _lines(space: Workspace) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    header, *rows = (json.loads(line) for line in
                     gzip.decompress(space.archive.read_bytes()).splitlines())
    return header, rows


@st.composite
def mutations(draw: st.DrawFn) -> tuple[str, int, str, Any]:
    kind = draw(st.sampled_from(["set", "delete", "header-set", "header-delete", "drop-line",
                                 "duplicate-line", "swap-lines", "raw-line", "flip"]))
    return kind, draw(st.integers(0, 10_000)), draw(
        HEADER_FIELDS if kind.startswith("header") else FIELDS), draw(VALUES)


def _mutate(header: dict[str, Any], rows: list[dict[str, Any]], kind: str, at: int,
            name: str, value: Any) -> list[str]:
    i = at % len(rows)
    if kind == "set":
        rows[i] = {**rows[i], name: value}
    elif kind == "delete":
        rows[i] = {k: v for k, v in rows[i].items() if k != name}
    elif kind == "header-set":
        header[name] = value
    elif kind == "header-delete":
        header.pop(name, None)
    elif kind == "drop-line":
        del rows[i]
    elif kind == "duplicate-line":
        rows.insert(i, rows[i])
    elif kind == "swap-lines":
        rows[i], rows[-1 - i] = rows[-1 - i], rows[i]
    elif kind == "flip" and name in rows[i] and isinstance(rows[i][name], bool):
        rows[i] = {**rows[i], name: not rows[i][name]}
    lines = [json.dumps(x, separators=(",", ":")) for x in (header, *rows)]
    if kind == "raw-line":
        lines[i % len(lines)] = str(value)[:50]
    return lines


def check_archive(space: Workspace, edits: list[tuple[str, int, str, Any]],
                  damage: tuple[int, int] | None) -> None:
    header, rows = _lines(space)
    lines: list[str] = []
    for kind, at, name, value in edits:
        lines = _mutate(header, rows, kind, at, name, value)
        if kind == "raw-line":
            break
    data = gzip.compress(("\n".join(lines or [json.dumps(header), *map(json.dumps, rows)])
                          + "\n").encode("utf-8", "surrogatepass"))
    if damage is not None:
        at, byte = damage
        data = data[: at % len(data)] + bytes([byte]) + data[at % len(data) + 1:]
    path = space.fresh("archive")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    argv = ["archive", "recompute", str(path), "--replicates", "2", "--format", "csv"]
    outcome = layerrag(argv)
    assert_clean(outcome, argv)
    assert path.read_bytes() == data
    space.assert_unchanged(argv)


@pytest.mark.slow
@settings(FUZZ, max_examples=200)
@given(edits=st.lists(mutations(), min_size=1, max_size=3),
       damage=st.none() | st.tuples(st.integers(0, 10_000), st.integers(0, 255)))
def test_generated_archives_end_in_0_or_2(workspace: Workspace,
                                          edits: list[tuple[str, int, str, Any]],
                                          damage: tuple[int, int] | None) -> None:
    check_archive(workspace, edits, damage)


@pytest.mark.slow
@settings(FUZZ, max_examples=40)
@given(at=st.integers(0, 10_000))
def test_an_archive_with_one_s_flipped_is_always_refused_naming_the_line(
        workspace: Workspace, at: int) -> None:
    header, rows = _lines(workspace)
    i = at % len(rows)
    rows[i] = {**rows[i], "S": not rows[i]["S"]}
    path = workspace.fresh("flipped")
    path.write_bytes(gzip.compress("".join(
        json.dumps(x, separators=(",", ":")) + "\n" for x in (header, *rows)).encode()))
    outcome = layerrag(["archive", "recompute", str(path)])
    assert outcome.code == 2 and outcome.out == ""
    assert f"line {i + 2}: field 'S'" in outcome.err


@pytest.mark.fuzz_long
@settings(FUZZ, max_examples=3000)
@given(edits=st.lists(mutations(), min_size=1, max_size=6),
       damage=st.none() | st.tuples(st.integers(0, 10_000), st.integers(0, 255)))
def test_many_generated_archives(workspace: Workspace, edits: list[tuple[str, int, str, Any]],
                                 damage: tuple[int, int] | None) -> None:
    check_archive(workspace, edits, damage)
