"""One fault per operational layer, each in its own module, registered by name.

The module of fault ``x`` is ``x.py``. Which faults exist, their layers and parameters:
``layerrag list faults`` (derived from the registry, so it cannot drift);
tests/integrity/test_registries_and_contracts.py keeps the imports below and the
import-linter independence contract in pyproject.toml in step with the modules here.
"""

from middleware.faults import (  # noqa: F401  (importing registers each fault)
    conflicting_evidence,
    corrupted_metadata,
    misleading_evidence,
    missing_tool_output,
    partial_timeout,
    permission_denied,
    schema_drift,
    stale_index,
    wrong_session,
)
from middleware.faults.base import FaultFactory, fault, faults, get_fault

__all__ = ["FaultFactory", "fault", "faults", "get_fault"]
