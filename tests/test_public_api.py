"""The ``layerrag`` package is the one public face (issue 26, item 9): every name in its
``__all__`` resolves to the object its home module defines, and importing it loads nothing
heavy."""

from __future__ import annotations

import importlib
import subprocess
import sys

import pytest

import layerrag


@pytest.mark.parametrize("name", layerrag.__all__)
def test_every_public_name_is_its_home_modules_object(name: str) -> None:
    home = importlib.import_module(layerrag._HOME[name])
    assert getattr(layerrag, name) is getattr(home, name)


def test_an_unknown_name_fails_like_any_module() -> None:
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        layerrag.nope  # noqa: B018


def test_importing_layerrag_loads_neither_langchain_nor_the_corpus() -> None:
    code = ("import sys, layerrag; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('langchain', 'langchain_core', 'langgraph', 'simulator', 'sklearn')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"
