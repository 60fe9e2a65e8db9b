"""The statistics take RunRecords as readily as archive rows (the policies helper uses both)."""

from __future__ import annotations

from simulator.archive import rows_from_records
from simulator.stats import paired_difference
from tests.archive.run_factory import record_from_row, small_rows


def test_paired_difference_gives_the_same_effect_on_records_and_on_their_rows() -> None:
    records = [record_from_row(r) for r in small_rows() if r.scenario == "schema_drift"]
    rows = rows_from_records(records)

    def split(items: list) -> tuple[list, list]:  # type: ignore[type-arg]
        return ([x for x in items if x.contract_mode == "repair"],
                [x for x in items if x.contract_mode == "strict"])

    on_records = paired_difference(*split(records), replicates=300)
    on_rows = paired_difference(*split(rows), replicates=300)
    assert on_records == on_rows
    assert on_rows.estimate > 0.5
