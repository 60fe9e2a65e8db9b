"""The fuzz suite's harness: the CLI run in process, a workspace of things already written,
hypothesis profiles, and a count of the generated inputs tried.

Default: about 500 generated inputs, derandomized (the same inputs on every run), in well
under a minute. ``python -m pytest -m fuzz_long tests/fuzz`` runs the long profile: the
``fuzz_long`` tests, 6,000 inputs in all.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import shutil
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from simulator.archive import export_archive
from simulator.cli.main import main
from tests.conftest import TINY_SPEC

settings.register_profile(
    "fuzz", deadline=None, derandomize=True, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

TRIED: list[int] = [0]
"""Generated inputs tried in this session (every call of :func:`layerrag`)."""


@dataclass(frozen=True)
class Outcome:
    code: int
    out: str
    err: str


def layerrag(argv: Sequence[str]) -> Outcome:
    """Run ``layerrag ARGV`` in this process; an exception escaping it fails the test."""
    TRIED[0] += 1
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(list(argv))
        except SystemExit as exc:  # argparse: --help (0) or a usage error (2)
            code = exc.code if isinstance(exc.code, int) else 2
    return Outcome(code, out.getvalue(), err.getvalue())


def assert_clean(outcome: Outcome, argv: Sequence[str]) -> None:
    """Exit 0 or 2, and never a traceback."""
    assert outcome.code in (0, 2), (argv, outcome.code, outcome.err[-2000:])
    assert "Traceback" not in outcome.err, (argv, outcome.err[-2000:])


def digests(root: Path) -> dict[str, str]:
    """Each file under ``root`` (SQLite's transient -wal/-shm files aside) and its digest."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()
            and not p.name.endswith(("-wal", "-shm"))}


@dataclass
class Workspace:
    """Things already written, which no input may change: a run, its archive, a spec."""

    root: Path
    run: Path
    archive: Path
    file: Path
    spec: Path
    before: dict[str, str] = field(default_factory=dict)
    counter: list[int] = field(default_factory=lambda: [0])

    def fresh(self, name: str = "out") -> Path:
        """A path nothing exists at yet, inside the workspace."""
        self.counter[0] += 1
        return self.root / "fresh" / f"{name}-{self.counter[0]}"

    def assert_unchanged(self, argv: Sequence[str]) -> None:
        """Every file written before the fuzzing started is as it was."""
        now = digests(self.root)
        changed = sorted(k for k, v in self.before.items() if now.get(k) != v)
        assert not changed, (argv, changed)


@pytest.fixture(scope="session")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Workspace]:
    root = tmp_path_factory.mktemp("fuzz")
    environment = pytest.MonkeyPatch()
    for key in ("OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "GEMINI_API_KEY"):
        environment.delenv(key, raising=False)  # no generated input may reach a provider
    environment.setenv("XDG_CACHE_HOME", str(root / "xdg"))  # the default call cache
    run = root / "run"
    assert main(["run", "--out", str(run), "--spec", str(TINY_SPEC), "--tasks", "3",
                 "--scenarios", "clean,schema_drift", "--modes", "strict,repair",
                 "--no-progress", "--format", "none"]) == 0
    archive = root / "run.jsonl.gz"
    export_archive(run, archive)
    file = root / "FILE"
    file.write_text("a file that is not a directory\n")
    spec = root / "spec"
    shutil.copytree(TINY_SPEC, spec)
    (root / "fresh").mkdir()
    space = Workspace(root=root, run=run, archive=archive, file=file, spec=spec)
    space.before = digests(root)
    yield space
    environment.undo()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if TRIED[0]:
        terminalreporter.write_line(f"fuzz: {TRIED[0]} generated inputs tried")
