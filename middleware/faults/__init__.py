"""One fault per operational layer, each in its own module, registered by name.

| fault                 | layer         | module                  |
|-----------------------|---------------|-------------------------|
| stale_index           | freshness     | stale_index.py          |
| schema_drift          | contract      | schema_drift.py         |
| partial_timeout       | completeness  | partial_timeout.py      |
| missing_tool_output   | completeness  | missing_tool_output.py  |
| permission_denied     | authorization | permission_denied.py    |
| wrong_session         | session       | wrong_session.py        |
| conflicting_evidence  | evidence      | conflicting_evidence.py |
| corrupted_metadata    | metadata      | corrupted_metadata.py   |
| misleading_evidence   | integrity     | misleading_evidence.py  |
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
