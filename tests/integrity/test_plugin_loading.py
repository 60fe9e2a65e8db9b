"""A plugin that goes wrong at import is one line naming it and the cause, exit 2.

Every way a module can fail while imported (raise, a syntax error, ``sys.exit`` with any
code, a name some component already has, reader prefixes included) and every path given
where a module belongs. The plugin files live in ``tmp_path``; the ones that would
register something fail before they do, so the registries of this process stay as built.
"""

from __future__ import annotations

import itertools
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from simulator.cli.main import main
from simulator.errors import UsageError
from simulator.plugins import load_plugins

_counter = itertools.count()

BROKEN = {
    "raises": ('raise RuntimeError("boom")\n', "RuntimeError: boom"),
    "syntax_error": ("def f(:\n", "SyntaxError"),
    "exits_zero": ("import sys\nsys.exit(0)\n", "sys.exit(0)"),
    "exits_three": ("import sys\nsys.exit(3)\n", "sys.exit(3)"),
    "duplicate_fault": ("from middleware import fault\n@fault(layer='freshness')\n"
                        "def stale_index():\n    return None\n",
                        "fault 'stale_index' is already registered"),
    "duplicate_policy": ("from policies import policy\n"
                         "@policy(layers='freshness', claims='non_answer')\n"
                         "def freshness_check():\n    return None\n",
                         "policy 'freshness_check' is already registered"),
    "duplicate_scenario_group": (
        "from middleware import Scenario, add_scenario\n"
        "add_scenario(Scenario(name='misleading', layer='freshness', answerable=False, "
        "description='x'))\n", "scenario 'misleading' is already registered"),
    "duplicate_reader_prefix": ("from simulator.readers.base import readers\n"
                                "readers.add('openai', lambda model: None)\n",
                                "model 'openai' is already registered"),
    "duplicate_reader": ("from simulator.readers.base import readers\n"
                         "readers.add('deterministic', lambda model: None)\n",
                         "model 'deterministic' is already registered"),
}


def plugin_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str) -> str:
    name = f"layerrag_test_plugin_{next(_counter)}"
    (tmp_path / f"{name}.py").write_text(body)
    monkeypatch.chdir(tmp_path)
    return name


@pytest.mark.parametrize("case", sorted(BROKEN))
def test_a_plugin_failing_at_import_is_one_line_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, case: str) -> None:
    body, why = BROKEN[case]
    name = plugin_module(tmp_path, monkeypatch, body)
    with pytest.raises(UsageError) as info:
        load_plugins([name], discover=lambda group: [])
    message = str(info.value)
    assert name in message and why in message and "\n" not in message


@pytest.mark.parametrize("command", [["list", "faults"], ["run", "--tasks", "1"]],
                         ids=["list", "run"])
@pytest.mark.parametrize("case", ["syntax_error", "exits_zero", "exits_three"])
def test_the_cli_exits_2_with_one_line_for_a_broken_plugin(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        command: list[str], case: str) -> None:
    name = plugin_module(tmp_path, monkeypatch, BROKEN[case][0])
    argv = [*command, "--plugin", name]
    if command[0] == "run":
        argv += ["--out", str(tmp_path / "run")]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and name in err, err
    assert not (tmp_path / "run").exists()


def test_an_entry_point_that_exits_is_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = plugin_module(tmp_path, monkeypatch, "import sys\nsys.exit(0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    point = EntryPoint(name="mine", value=name, group="layerrag.faults")
    with pytest.raises(UsageError, match=r"entry point 'mine'.*sys\.exit\(0\)"):
        load_plugins(discover=lambda group: [point] if group == "layerrag.faults" else [])


@pytest.mark.parametrize("given", ["../x", "nowhere/plugin.py", "./"])
def test_a_path_that_is_no_python_file_is_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UsageError, match="not a module name and not a .py file"):
        load_plugins([given], discover=lambda group: [])


def test_a_relative_file_path_is_resolved_against_the_current_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "marker_plugin.py").write_text("import os\nLOADED_FROM = os.getcwd()\n")
    monkeypatch.chdir(tmp_path)
    loaded = load_plugins(["sub/marker_plugin.py"], discover=lambda group: [])
    assert loaded["module:sub/marker_plugin.py"] == "sub/marker_plugin.py"
    import sys
    assert sys.modules["layerrag_plugin_marker_plugin"].LOADED_FROM == str(tmp_path)


def test_the_reserved_reader_prefixes_are_the_chat_providers() -> None:
    from simulator.readers.base import BUILTIN_PROVIDERS
    from simulator.readers.chat_clients import PROVIDERS

    assert set(BUILTIN_PROVIDERS) == set(PROVIDERS)


def test_a_cache_path_that_is_a_directory_is_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["run", "--out", str(tmp_path / "run"), "--model", "openai:m", "--base-url",
                 "http://127.0.0.1:9/v1", "--cache", str(tmp_path), "--tasks", "1"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a directory" in err, err
    assert not (tmp_path / "run").exists()
