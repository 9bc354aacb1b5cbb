"""Replay engines: exact single-input replay with traces (batched and symbolic replay come later)."""

from symcot.replay.trace import StepTrace, Trace, fmt_block, fmt_value, render_text, replay

__all__ = ["StepTrace", "Trace", "fmt_block", "fmt_value", "render_text", "replay"]
