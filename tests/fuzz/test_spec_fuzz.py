"""Generated spec folders (the tiny spec, mutated line by line and file by file): validating,
building and running on them ends in 0 or 2, never a traceback, and leaves them unchanged."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.conftest import TINY_SPEC
from tests.fuzz.conftest import Workspace, assert_clean, digests, layerrag

FUZZ = settings.get_profile("fuzz")
FILES = sorted(p.name for p in TINY_SPEC.glob("*.toml"))
JUNK = st.sampled_from(['= "x"', "[[units]]", "[units.current]", 'id = "RET-01"',
                        'domain = "finance"', "value = 3", "effective_year = \"2020\"",
                        "questions = []", 'answer_format = "colour"', "[[domains]]",
                        'id = "returns"', "\x00", "é", "]]", "= [", 'version = ""',
                        'access_group = "nobody"', "effective_year = 99999", "name = 1"])


@st.composite
def line_edits(draw: st.DrawFn) -> tuple[str, str, int, str]:
    """(file, kind, line number, text) for one textual mutation of a spec file."""
    return (draw(st.sampled_from(FILES)),
            draw(st.sampled_from(["delete", "duplicate", "replace", "insert", "truncate",
                                  "bytes"])),
            draw(st.integers(0, 80)), draw(JUNK))


def _edit_text(path: Path, kind: str, at: int, text: str) -> None:
    lines = path.read_bytes().split(b"\n")
    at %= max(len(lines), 1)
    if kind == "delete":
        del lines[at]
    elif kind == "duplicate":
        lines.insert(at, lines[at])
    elif kind == "replace":
        lines[at] = text.encode()
    elif kind == "insert":
        lines.insert(at, text.encode())
    elif kind == "truncate":
        lines = lines[:at]
    else:
        lines[at] = lines[at][: len(lines[at]) // 2] + b"\xff\xfe" + lines[at][len(lines[at]) // 2:]
    path.write_bytes(b"\n".join(lines))


STRUCTURAL = ["directory named x.toml", "symlink loop", "empty file", "domain declared twice",
              "no corpus.toml", "a file that is a symlink to nothing", "unreadable bytes"]


def _restructure(spec: Path, change: str) -> None:
    if change == "directory named x.toml":
        (spec / "x.toml").mkdir()
    elif change == "symlink loop":
        os.symlink(spec / "loop.toml", spec / "loop.toml")
    elif change == "empty file":
        (spec / "empty.toml").write_text("")
    elif change == "domain declared twice":
        shutil.copy(spec / "returns.toml", spec / "returns_again.toml")
    elif change == "no corpus.toml":
        (spec / "corpus.toml").unlink()
    elif change == "a file that is a symlink to nothing":
        os.symlink(spec / "absent", spec / "dangling.toml")
    else:
        (spec / "finance.toml").write_bytes(b"\x80\x81\x82 not utf-8")


def check_spec(space: Workspace, edits: list[tuple[str, str, int, str]],
               changes: list[str]) -> None:
    spec = space.fresh("spec")
    shutil.copytree(TINY_SPEC, spec)
    for file, kind, at, text in edits:
        _edit_text(spec / file, kind, at, text)
    for change in changes:
        _restructure(spec, change)
    before = digests(spec)
    commands = [["corpus", "validate", "--spec", str(spec)],
                ["corpus", "build", "--spec", str(spec), "--out", str(space.fresh())],
                ["run", "--spec", str(spec), "--out", str(space.fresh()), "--tasks", "1",
                 "--scenarios", "clean", "--modes", "strict", "--no-progress",
                 "--format", "none"]]
    for argv in commands:
        outcome = layerrag(argv)
        assert_clean(outcome, argv)
        if outcome.code == 2 and argv[1] == "validate":
            break  # an invalid spec: building and running on it say the same
    assert digests(spec) == before
    space.assert_unchanged(commands[0])


@pytest.mark.slow
@settings(FUZZ, max_examples=80)
@given(edits=st.lists(line_edits(), max_size=3),
       changes=st.lists(st.sampled_from(STRUCTURAL), max_size=2, unique=True))
def test_generated_specs_end_in_0_or_2_and_are_left_unchanged(
        workspace: Workspace, edits: list[tuple[str, str, int, str]],
        changes: list[str]) -> None:
    check_spec(workspace, edits, changes)


@pytest.mark.fuzz_long
@settings(FUZZ, max_examples=1000)
@given(edits=st.lists(line_edits(), max_size=6),
       changes=st.lists(st.sampled_from(STRUCTURAL), max_size=3, unique=True))
def test_many_generated_specs(workspace: Workspace, edits: list[tuple[str, str, int, str]],
                              changes: list[str]) -> None:
    check_spec(workspace, edits, changes)
