"""Judging policies: layer credit and the focused study, rendered beside the reports.

It sits above the runner (the study and credit run arms when no run holds them), the
statistics and the report formatting it renders with, and below the CLI; the policies
themselves (``policies/``) know nothing of how they are judged. The arms table it shows is
plain statistics over records (:mod:`simulator.stats.arms`), which reports use too.
"""

from simulator.evaluation.credit import MATERIAL, METRICS, LayerCredit, ScenarioChange, layer_credit
from simulator.evaluation.study import (
    SELECTION_RULE,
    STUDY_ARMS,
    FocusedStudy,
    read_study,
    run_focused_study,
    select_tasks,
    study_config,
    summarize,
)
from simulator.stats.arms import (
    ArmCell,
    Intervention,
    abstained_on_answerable,
    arm_table,
    incorrect_interventions,
)

__all__ = [
    "MATERIAL", "METRICS", "SELECTION_RULE", "STUDY_ARMS", "ArmCell", "FocusedStudy",
    "Intervention", "LayerCredit", "ScenarioChange", "abstained_on_answerable", "arm_table",
    "incorrect_interventions", "layer_credit", "read_study", "run_focused_study",
    "select_tasks", "study_config", "summarize",
]
