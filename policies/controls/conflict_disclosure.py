"""conflict_disclosure (evidence): ask the answerer to disclose conflicting evidence.

ConInstruct (papers/coninstruct.txt, §5.2) finds that models which can detect a conflict
rarely say so (Behaviour 1 dominates), and that a guiding prompt asking them to acknowledge
it and request clarification raises Behaviour 2, at a price: they then raise false alarms on
conflict-free inputs (Behaviour 6). This policy is that guiding prompt, adapted to evidence
(:data:`simulator.readers.conflict.GUIDING_PROMPT`). It decides nothing about the evidence
itself: it allows every call and hands the reader (a chat model, or the deterministic reader,
which follows it with its cautious reading) the instruction to disclose.

It is credited on ``disclosure_correct`` (``claims="disclosure"``): the gain is conflicts
acknowledged on the evidence layer, and ``layerrag credit`` measures the paper's trade-off as
the off-target change, false alarms on clean records (and whatever strict success the
clarifications cost there). Which answer is right when versions disagree is not this
policy's business: resolving by validity is the reader's (and metadata_integrity's, where
the metadata itself is wrong).
"""

from __future__ import annotations

from policies.base import Decide, policy
from simulator.agent.gate import Decision, GateInput
from simulator.readers.conflict import GUIDING_PROMPT


@policy(layers="evidence", claims="disclosure")
def conflict_disclosure() -> Decide:
    """Tell the answerer to disclose conflicting evidence and ask for clarification."""

    def decide(state: GateInput) -> Decision:
        return Decision("allow", "guiding prompt: disclose conflicts, ask for clarification",
                        instructions=GUIDING_PROMPT)

    return decide
