"""The built-in mitigation controls, one module each; importing registers them.

| policy                   | layer         | claims     | module                      |
|--------------------------|---------------|------------|-----------------------------|
| schema_repair            | contract      | answer     | schema_repair.py            |
| bounded_retry            | completeness  | answer     | bounded_retry.py            |
| evidence_gate            | completeness  | non_answer | evidence_gate.py            |
| freshness_check          | freshness     | non_answer | freshness_check.py          |
| access_aware_abstention  | authorization | non_answer | access_aware_abstention.py  |
| session_isolation        | session       | non_answer | session_isolation.py        |
| metadata_integrity       | metadata      | answer     | metadata_integrity.py       |
| conflict_disclosure      | evidence      | disclosure | conflict_disclosure.py      |
| evidence_integrity       | integrity     | non_answer | evidence_integrity.py       |
"""

from policies.controls import (  # noqa: F401  (importing registers each policy)
    access_aware_abstention,
    bounded_retry,
    conflict_disclosure,
    evidence_gate,
    evidence_integrity,
    freshness_check,
    metadata_integrity,
    schema_repair,
    session_isolation,
)
