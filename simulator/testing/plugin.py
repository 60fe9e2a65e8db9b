"""The ``layerrag`` pytest fixture (registered through the ``pytest11`` entry point).

Importing this module costs nothing: the fixture loads layerrag when a test asks for it.
Under the fixture, a layerrag error (an agent the preflight refuses, a rate over records
that measured nothing) fails the test with its one line, not a traceback into layerrag.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest


class _Failing:
    """``target`` (the testing module, or an evaluation), whose calls turn a layerrag error
    into ``pytest.fail`` with the error's one line."""

    def __init__(self, target: Any) -> None:
        self._target = target

    def __getattr__(self, name: str) -> Any:
        from simulator.errors import LayerragError
        from simulator.testing import Evaluation

        value = getattr(self._target, name)
        if not callable(value) or isinstance(value, type):
            return value

        @functools.wraps(value)
        def call(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            try:
                result = value(*args, **kwargs)
            except LayerragError as exc:
                failed = str(exc)
            else:
                return _Failing(result) if isinstance(result, Evaluation) else result
            pytest.fail(f"layerrag: {failed}", pytrace=False)  # outside the except: no chain

        return call


@pytest.fixture
def layerrag() -> Any:
    """layerrag's testing API: ``layerrag.evaluate(agent=..., scenarios=[...])``."""
    import simulator.testing

    return _Failing(simulator.testing)
