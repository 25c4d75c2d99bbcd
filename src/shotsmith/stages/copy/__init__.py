"""The parts of :func:`shotsmith.write_copy`, one job per module.

rules (what every caption obeys), evidence (what each screen shows), writer (grounded
slot templates), user (copy the user wrote), llm_copy (an LLM's answer, checked).
The checker itself lives in :mod:`shotsmith.grounding`.
"""
