"""The built-in mitigation controls, one module each; importing registers them.

The module of policy ``x`` is ``x.py`` (``_``-prefixed modules are shared helpers). Which
policies exist, their layers and claims: ``layerrag list policies`` (derived from the
registry); tests/integrity/test_registries_and_contracts.py keeps the imports below and
the import-linter independence contract in pyproject.toml in step with the modules here.
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
