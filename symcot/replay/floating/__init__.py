"""Float and softmax replay in float64/float32/float16/bfloat16 (or exactly) on batches.

:mod:`.formats` (where values are stored and sums formed), :mod:`.maps` (one polynomial map on a batch),
:mod:`.engine` (Section 3's decoder: hard or softmax attention, the layer structure, the chain of thought),
:mod:`.numbers` (a format as the number type of the description's rules) and :mod:`.described` (any model
description, through the exact engine's loop and rules).
"""

from symcot.replay.floating.engine import HARD, FloatContext, FloatDecoder, Hard, Recorder, Softmax, generate
from symcot.replay.floating.formats import FLOAT_FORMATS, FORMATS, Format, get_format

__all__ = ["FLOAT_FORMATS", "FORMATS", "HARD", "FloatContext", "FloatDecoder", "Format", "Hard", "Recorder",
           "Softmax", "generate", "get_format"]
