"""The ``layerrag`` pytest fixture (registered through the ``pytest11`` entry point).

Importing this module costs nothing: the fixture loads layerrag when a test asks for it.
"""

from __future__ import annotations

from types import ModuleType

import pytest


@pytest.fixture
def layerrag() -> ModuleType:
    """layerrag's testing API: ``layerrag.evaluate(agent=..., scenarios=[...])``."""
    import simulator.testing

    return simulator.testing
