"""Multi-turn cases through the agent: one LangGraph thread per case, one graph invoke per
turn, faults scheduled per turn, every turn scored and every case resolved or not.

The case corpus is simulator/cases (specs, generation, labels); this package runs it
(issue 29). docs/cases.md is the reference.
"""
