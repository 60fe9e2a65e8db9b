"""Each record's trajectory: built at scoring time, stored beside the record, evaluator-side.

:mod:`.model` is its shape, :mod:`.build` makes one from a finished episode,
:mod:`.effects` reads what each fault did off a tool result, :mod:`.reasons` says why each
score came out as it did.
"""

from simulator.runner.trajectory.model import TRAJECTORY_VERSION, Trajectory

__all__ = ["TRAJECTORY_VERSION", "Trajectory"]
