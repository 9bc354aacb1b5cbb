"""Batched exact replay: many inputs of one size decoded together under the rules of ``sec:trans``.

The rules are those of :mod:`symcot.model.semantics` (the single source of truth; a test compares the
two on many inputs, head choices included), applied to arrays whose last axis is the batch:

1. *Unique hard attention*: head ``h`` scores every cached position ``i`` by ``⟨K_h z_i, Q_h z_m⟩`` and
   selects, per batch row, the smallest index among the maxima.
2. *Multi-head*: ``α'' = W_O [V_1 z_{j(1)} ‖ … ‖ V_H z_{j(H)}]``; trivial attention gives ``α'' = 0``.
3. *Residual around attention only*: ``W_2 ReLU(W_1(α'' + z))``.
4. *Causal layers over every token*: a token's keys and values are computed once, when it is appended,
   and cached per layer (``(positions, dim, batch)`` arrays).
5. *Chain of thought*: the last layer's output is appended as the next token; rows that need fewer
   steps than others retire (their arrays are dropped from the batch), the rest run on.

Modules, one job each: :mod:`.compiled_map` (one map on ``(d, B)`` arrays), :mod:`.plan` (every map of a
decoder compiled for one number type), :mod:`.state` (the key and value caches, one token's push),
:mod:`.run` (the run loop with its guards and promotions), :mod:`.views` (what callbacks see and runs return)
and :mod:`.decoder` (:class:`BatchedDecoder`, which also dispatches to the native kernel). The prompt tokens
are :mod:`symcot.replay.tokens`.

Exactness is certified by :mod:`symcot.replay.scaling`: the numbers are integers (rational weights and
tokens are scaled to integers), the run uses float64 (BLAS) or int64 only where a bound proves every
partial sum fits, and otherwise object arrays of Python ``int``/``Fraction``. The run's
:class:`~symcot.replay.scaling.Certificate` says which and why.
"""

from symcot.replay.batched.decoder import BatchedDecoder, generate_batch
from symcot.replay.batched.views import BatchRun, RowOutputs, StepView, block_series

__all__ = ["BatchRun", "BatchedDecoder", "RowOutputs", "StepView", "block_series", "generate_batch"]
