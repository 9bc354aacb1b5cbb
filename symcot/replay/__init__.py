"""Replay engines.

Exact single-input replay with traces (here), batched replay (:mod:`.batched`) and symbolic replay
with Z3 (:mod:`.symbolic`).
"""

from symcot.replay.trace import StepTrace, Trace, fmt_block, fmt_value, render_text, replay

__all__ = ["StepTrace", "Trace", "fmt_block", "fmt_value", "render_text", "replay"]
