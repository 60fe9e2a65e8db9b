"""Judging policies: layer credit, arms side by side, and the focused study."""

from policies.evaluation.arms_table import (
    ArmCell,
    Intervention,
    abstained_on_answerable,
    arm_table,
    incorrect_interventions,
)
from policies.evaluation.credit import MATERIAL, METRICS, LayerCredit, ScenarioChange, layer_credit
from policies.evaluation.study import (
    SELECTION_RULE,
    STUDY_ARMS,
    FocusedStudy,
    read_study,
    run_focused_study,
    select_tasks,
    study_config,
    summarize,
)

__all__ = [
    "MATERIAL", "METRICS", "SELECTION_RULE", "STUDY_ARMS", "ArmCell", "FocusedStudy",
    "Intervention", "LayerCredit", "ScenarioChange", "abstained_on_answerable", "arm_table",
    "incorrect_interventions", "layer_credit", "read_study", "run_focused_study",
    "select_tasks", "study_config", "summarize",
]
