"""The documentation runs as written.

Every ```python block in README.md and docs/*.md is executed, each in a fresh interpreter
from the repository root, unless its first line marks it as a fragment
(``# fragment: ...``, shown to the reader). Every ``layerrag`` command in a shell block is
parsed by the real parser: the subcommand and every option must exist (names are resolved
when a command runs, so no plugin is loaded into the test process). Shell blocks are not
executed (several run the full matrix or call paid providers); what they print is covered
by the CLI tests.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))
FENCE = re.compile(r"^```(\w+)[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
FRAGMENT = "# fragment"


def blocks(language: tuple[str, ...]) -> list[tuple[str, str]]:
    found = []
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for match in FENCE.finditer(text):
            if match.group(1) in language:
                line = text.count("\n", 0, match.start()) + 1
                found.append((f"{path.relative_to(ROOT)}:{line}", match.group(2)))
    return found


PYTHON = blocks(("python",))
OPERATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")", "$("})
SHELL = blocks(("bash", "sh", "shell", "console"))


def layerrag_commands(block: str) -> list[list[str]]:
    """Each ``layerrag ...`` command of a shell block, continuation lines joined, comments
    and ``&&`` chains split off."""
    joined = block.replace("\\\n", " ")
    commands = []
    for line in joined.splitlines():
        # tokens first, so an operator inside quotes (python -c "a; b") splits nothing
        lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
        lexer.whitespace_split, lexer.commenters = True, "#"
        words: list[str] = []
        for token in [*lexer, ";"]:
            if token in OPERATORS:
                if words and words[0] == "layerrag":
                    commands.append(words[1:])
                words = []
            else:
                words.append(token)
    return commands


@pytest.mark.slow
@pytest.mark.parametrize(("where", "code"), PYTHON, ids=[w for w, _ in PYTHON])
def test_python_block_runs_as_written(where: str, code: str, tmp_path: Path) -> None:
    if code.lstrip().startswith(FRAGMENT):
        pytest.skip(f"{where} is marked as a fragment")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "MPLBACKEND": "Agg"}
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, f"{where} failed:\n{result.stderr[-3000:]}"


def test_a_fragment_says_why_it_does_not_run_as_written() -> None:
    marked = [(where, code.lstrip().splitlines()[0]) for where, code in PYTHON
              if code.lstrip().startswith(FRAGMENT)]
    for where, first in marked:
        assert re.match(r"# fragment: \S", first), f"{where}: say why, '# fragment: ...'"


@pytest.mark.parametrize(("where", "block"), SHELL, ids=[w for w, _ in SHELL])
def test_layerrag_commands_in_shell_blocks_parse(where: str, block: str) -> None:
    from simulator.cli.main import build_parser, invoked_subcommand

    for argv in layerrag_commands(block):
        try:
            build_parser(only=invoked_subcommand(argv)).parse_args(argv)
        except SystemExit as exc:
            assert exc.code == 0, f"{where}: layerrag {shlex.join(argv)} does not parse"
