"""The report's misleading-evidence section: absent from ordinary runs, MR by position and
instruction when misleading rows are there, and the instruction named whenever one was given."""

from __future__ import annotations

from simulator.report.misleading import misleading_section, render_misleading
from tests.stats.test_misleading import row


def test_an_ordinary_run_has_no_section() -> None:
    rows = [row("clean", t, S=True) for t in range(3)]
    assert misleading_section(rows, replicates=50, seed=0) is None
    assert render_misleading(None) == []


def test_a_run_with_an_instruction_says_which_even_without_misleading_rows() -> None:
    rows = [row("clean", t, S=True, priority="soft") for t in range(3)]
    section = misleading_section(rows, replicates=50, seed=0)
    assert section is not None and section.instructions == {"soft": 3} and not section.rates
    assert "soft (3 records)" in "\n".join(render_misleading(section))


def test_misleading_rows_give_mr_per_position_and_the_contrasts() -> None:
    rows = [row("clean", t, S=True, priority="strict") for t in range(4)]
    rows += [row(f"misleading_{p}", t, misled=t < 2, priority="strict")
             for p in ("beginning", "middle", "end") for t in range(4)]
    section = misleading_section(rows, replicates=50, seed=0)
    assert section is not None
    assert [(r.position, r.misled, r.eligible) for r in section.rates] == [
        ("beginning", 2, 4), ("middle", 2, 4), ("end", 2, 4)]
    text = "\n".join(render_misleading(section))
    assert "| uncontrolled | strict | strict | 50.0 [" in text and "end − middle" in text
