"""Bad input, in every subcommand, is one line naming the option, file or value, exit 2, no
traceback; nothing already written is lost or changed. One test per class of input from the
issue that found thirteen tracebacks and four silently wrong answers.
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.runner.store import STORE_FILE
from tests.conftest import TINY_SPEC

SMALL = ["--spec", str(TINY_SPEC), "--tasks", "2", "--modes", "strict", "--scenarios",
         "clean", "--no-progress", "--format", "none"]


def one_line_error(capsys: pytest.CaptureFixture[str], *argv: str) -> str:
    """Run ``layerrag ARGV`` in process; it must exit 2 with exactly one line on stderr."""
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: "), err
    return err


def snapshot(root: Path) -> dict[str, str]:
    """Every file under ``root`` and its digest: to show nothing was changed."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            if p.is_file() else "dir" for p in sorted(root.rglob("*"))}


@pytest.fixture(scope="module")
def small_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("small") / "run"
    assert main(["run", "--out", str(out), *SMALL]) == 0
    return out


@pytest.mark.parametrize("tasks", ["0", "-1"])
def test_a_task_count_below_one_names_the_option(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, tasks: str) -> None:
    err = one_line_error(capsys, "run", "--out", str(tmp_path / "r"), "--tasks", tasks)
    assert f"--tasks {tasks}" in err
    assert not (tmp_path / "r").exists()


@pytest.mark.parametrize("command", [["run"], ["study", "focused"], ["corpus", "build"]],
                         ids=["run", "study", "corpus"])
def test_an_out_that_is_a_file_is_refused_and_left_alone(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, command: list[str]) -> None:
    file = tmp_path / "FILE"
    file.write_text("mine")
    err = one_line_error(capsys, *command, "--out", str(file))
    assert str(file) in err
    assert file.read_text() == "mine"


@pytest.mark.parametrize("where", ["run", "export", "plots"])
def test_an_output_under_a_file_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, small_run: Path,
        where: str) -> None:
    blocker = tmp_path / "FILE"
    blocker.write_text("mine")
    target = str(blocker / "sub")
    argv = {"run": ["run", "--out", target, *SMALL],
            "export": ["archive", "export", str(small_run), "--out", target + ".jsonl.gz"],
            "plots": ["report", str(small_run), "--plots", target]}[where]
    assert str(blocker) in one_line_error(capsys, *argv)
    assert blocker.read_text() == "mine"


def test_an_os_error_while_writing_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, small_run: Path) -> None:
    # Checks cannot foresee everything (root may write anywhere, but not in /proc).
    err = one_line_error(capsys, "archive", "export", str(small_run), "--out",
                         "/proc/layerrag-cannot-be-here/a.jsonl.gz")
    assert "/proc/layerrag-cannot-be-here" in err


def test_export_to_a_directory_is_refused_and_leaves_no_temp_file(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, small_run: Path) -> None:
    target = tmp_path / "DIR"
    target.mkdir()
    (target / "kept.txt").write_text("mine")
    err = one_line_error(capsys, "archive", "export", str(small_run), "--out", str(target))
    assert str(target) in err and "directory" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["DIR"]
    assert snapshot(target) == {"kept.txt": hashlib.sha256(b"mine").hexdigest()}


@pytest.mark.parametrize("store", ["garbage", "directory", "foreign"])
@pytest.mark.parametrize("command", ["report", "run", "export", "arms", "credit"])
def test_a_run_store_that_is_not_one_is_refused_and_left_alone(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, store: str, command: str) -> None:
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    path = run_dir / STORE_FILE
    if store == "garbage":
        path.write_bytes(b"this is not SQLite\n" * 50)
    elif store == "directory":
        path.mkdir()
    else:
        import sqlite3

        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE notes (text TEXT)")
        db.close()
    before = snapshot(run_dir)
    argv = {"report": ["report", str(run_dir)],
            "run": ["run", "--out", str(run_dir), *SMALL],
            "export": ["archive", "export", str(run_dir), "--out", str(tmp_path / "a.gz")],
            "arms": ["study", "arms", str(run_dir)],
            "credit": ["credit", "--policy", "schema_repair", "--run", str(run_dir)]}[command]
    err = one_line_error(capsys, *argv)
    assert STORE_FILE in err
    assert snapshot(run_dir) == before


def test_repeated_axis_values_count_once_and_keep_the_run_id(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    base = ["--spec", str(TINY_SPEC), "--tasks", "2", "--no-progress", "--format", "none"]
    assert main(["run", "--out", str(tmp_path / "once"), "--scenarios", "clean",
                 "--modes", "strict", *base]) == 0
    once = capsys.readouterr().err
    assert main(["run", "--out", str(tmp_path / "twice"), "--scenarios", "clean,clean",
                 "--modes", "strict,strict", *base]) == 0
    twice = capsys.readouterr().err
    assert "2 records written, 0 already done, 2 in the matrix" in twice
    assert re.findall(r"run-[0-9a-f]{12}", once) == re.findall(r"run-[0-9a-f]{12}", twice)


@pytest.mark.parametrize("option", [["--base-url", "http://127.0.0.1:9/v1"],
                                    ["--max-calls", "5"], ["--replay"], ["--concurrency", "2"]],
                         ids=lambda o: o[0])
def test_an_option_the_deterministic_reader_cannot_use_is_refused(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, option: list[str]) -> None:
    err = one_line_error(capsys, "run", "--out", str(tmp_path / "r"), *SMALL, *option)
    assert option[0] in err
    assert not (tmp_path / "r").exists()


def test_base_url_with_the_deterministic_reader_is_refused_by_credit_too(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    err = one_line_error(capsys, "credit", "--policy", "schema_repair", "--run",
                         str(tmp_path / "r"), "--base-url", "http://127.0.0.1:9/v1")
    assert "--base-url" in err


def _stdout_closed(*argv: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """Run ``layerrag ARGV`` with a stdout whose reader has already gone (``| head``)."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run([sys.executable, "-m", "simulator.cli.main", *argv], cwd=cwd,
                              stdout=write, stderr=subprocess.PIPE, text=True, timeout=300,
                              check=False)
    finally:
        os.close(write)


@pytest.mark.slow
@pytest.mark.parametrize("argv", [
    ["corpus", "build", "--spec", str(TINY_SPEC), "--out", "corpus"],
    ["study", "focused", "--spec", str(TINY_SPEC), "--out", "focused", "--format", "json",
     "--no-progress"],
], ids=["corpus-build", "study-focused"])
def test_output_into_a_closed_pipe_ends_quietly(tmp_path: Path, argv: list[str]) -> None:
    done = _stdout_closed(*argv, cwd=tmp_path)
    assert done.stderr == ""
    assert done.returncode == 141
    assert any((tmp_path / argv[argv.index("--out") + 1]).iterdir())  # the work is kept


@pytest.mark.parametrize("command", ["report", "recompute", "credit"])
def test_a_negative_bootstrap_seed_names_the_option(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, small_run: Path,
        command: str) -> None:
    # Found by the long fuzz profile: numpy refused the seed with a traceback.
    archive = tmp_path / "a.jsonl.gz"
    if command == "recompute":
        assert main(["archive", "export", str(small_run), "--out", str(archive)]) == 0
        capsys.readouterr()
    argv = {"report": ["report", str(small_run), "--seed", "-1"],
            "recompute": ["archive", "recompute", str(archive), "--seed", "-1"],
            "credit": ["credit", "--policy", "schema_repair", "--bootstrap-seed", "-1"]}[command]
    err = one_line_error(capsys, *argv)
    assert "seed" in err and "-1" in err


@pytest.mark.parametrize("damage", ["symlink loop", "domain in two files"])
@pytest.mark.parametrize("command", ["build", "run"])
def test_a_spec_folder_with_a_loop_or_a_domain_twice_is_one_line(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, damage: str, command: str) -> None:
    # tests/corpus covers a directory named *.toml, a dangling link and a domain listed
    # twice in corpus.toml; these are the other two spec-folder cases.
    import shutil

    spec = tmp_path / "spec"
    shutil.copytree(TINY_SPEC, spec)
    if damage == "symlink loop":
        (spec / "loop.toml").symlink_to(spec / "loop.toml")
        named = "loop.toml"
    else:
        shutil.copy(spec / "returns.toml", spec / "returns_again.toml")
        named = "returns"
    before = snapshot(spec)
    argv = {"build": ["corpus", "build", "--spec", str(spec), "--out", str(tmp_path / "c")],
            "run": ["run", "--spec", str(spec), "--out", str(tmp_path / "r"), "--tasks", "1",
                    "--format", "none", "--no-progress"]}[command]
    assert named in one_line_error(capsys, *argv)
    assert snapshot(spec) == before
