"""Native exact batched replay: one decoder as generated straight-line C, compiled once and run through ctypes.

The numpy engine (:mod:`symcot.replay.batched`) is memory-bound on the sparse maps of the constructions. This
module generates, for one :class:`~symcot.replay.scaling.ScaledDecoder`, a C function that pushes one token
through every layer with one local ``int64_t`` variable per map coordinate, compiles it with the system C
compiler (``$CC``, else ``cc``/``gcc``) into a cache directory and runs a whole batch of prompts in one ctypes
call (the loop over rows is in C; rows are independent).

**Semantics** (those of :meth:`symcot.replay.batched.state.RunState.push` and :meth:`BatchedDecoder.run
<symcot.replay.batched.BatchedDecoder.run>`, hence of :mod:`symcot.model.semantics`), per row ``b``: push the
``P`` prompt tokens (scale ``s_token``) one by one; then for ``t = 1 … steps[b]``: ``y_t`` is the output of
the last push (scale ``s_out``), ``outs[b, t-1] = y_t``, and if ``t < steps[b]`` the next token
``y_t·fb_num/fb_den`` is pushed. A push of ``z``, layer by layer: for each head, ``K(z)`` and ``V(z)`` are
cached at this position, ``q = Q(z)``, every cached position ``i`` scores ``⟨K_i, q⟩`` and the head selects
the *smallest* index among the maximal scores; ``α = W_O(values · v_up) · alpha_up``; ``ffn_in = α + z·z_up``
(``ffn_in = z`` without heads); ``z = W_2(max(W_1(ffn_in), 0))``.

**Exactness.** Every value is an exact integer (the scaling of :mod:`symcot.replay.scaling`). Each push has
two compiled forms computing the same values in the same order:

- *checked*: every multiplication, addition and negation that can overflow is done with
  ``__builtin_mul_overflow`` / ``__builtin_add_overflow`` / ``__builtin_sub_overflow``; only operations
  that cannot overflow (copies, multiplications by 0 or 1, additions of 0, ReLU, comparisons) are plain;
- *plain* (the fast path): plain int64 operations, taken only when the magnitudes of the token's live
  coordinates and of every value cached so far (a running maximum kept in the cache) are at most the
  threshold :func:`~symcot.replay.native.bounds.fast_threshold` computes in exact integers, which proves
  that no operation of the push overflows.

In both, the attention scores are computed by ``select_head``, plainly where the product of the running key
maximum and ``Σ|q|`` proves them safe, checked otherwise. A row on which any checked operation overflows is
abandoned with status 1 (the checks cover every partial sum in the generated order, so status 1 may also be
reported where only a partial sum or an unselected score leaves int64: it is conservative, never wrong).
The feedback ``y·fb_num/fb_den`` is exact: since ``gcd(fb_num, fb_den) = 1``, ``fb_den`` divides ``y·fb_num``
iff it divides ``y``; otherwise the row is abandoned with status 2. A row with status 0 therefore carries
exactly the values of exact replay. The argmax and ReLU compare exact integers.

**What is computed.** Coordinates that nothing downstream reads (not the final output, nor a key, query or
value the selection or ``W_O`` uses) are not computed at all (a backward liveness pass); coordinates that are
copies of others are aliases, and map outputs that are constants are folded into the code. Only the key
coordinates where both ``K`` and ``Q`` can be non-zero are cached and scored, and only the value coordinates
``W_O`` reads. A head none of whose value coordinates ``W_O`` reads is skipped. None of this changes an exact
result: the skipped values never reach the output.

**Shared prompt prefixes.** The caches of one call are reused row after row; when a row's prompt agrees with
the previous row's on its first ``k ≤ P - 1`` tokens (and those positions were computed without overflow),
those ``k`` positions are not pushed again: their cached keys and values depend only on those tokens.

**Entry points.** :meth:`NativeDecoder.run` takes the ``(P, d, B)`` token array of
:meth:`BatchedDecoder.tokens <symcot.replay.batched.BatchedDecoder.tokens>` (copied into row-major blocks
inside C); :meth:`NativeDecoder.run_indexed` takes the distinct tokens and a ``(B, P)`` index instead
(:func:`~symcot.replay.native.decoder.index_prompts`), which avoids building that array at all.
:func:`~symcot.replay.native.check.check_indexed` runs the same rows and compares every ``y_t`` with expected
values inside the kernel, returning per row only the first step that differs (:mod:`.check`).

**Modules.** :mod:`.liveness` (what must be computed), :mod:`.emit` (straight-line int64 C, checked or
plain), :mod:`.bounds` (the fast path's threshold), :mod:`.source` (the generated part of a kernel, around
the fixed part ``kernel.c``, a C file shipped with the package), :mod:`.build` (the compiler and the cache
of compiled kernels), :mod:`.decoder` (:class:`NativeDecoder`, the ctypes binding) and :mod:`.check` (runs
checked against expected values inside the kernel).
"""

from symcot.replay.native.bounds import fast_threshold
from symcot.replay.native.build import BASE_FLAGS, DEFAULT_OPT, NativeError, cache_dir, compiler, native_available
from symcot.replay.native.check import CheckResult, StopSpec, Term, check_indexed
from symcot.replay.native.decoder import NativeDecoder, index_prompts
from symcot.replay.native.source import BLOCK_BYTES, generate_source

__all__ = ["BASE_FLAGS", "BLOCK_BYTES", "DEFAULT_OPT", "CheckResult", "NativeDecoder", "NativeError", "StopSpec",
           "Term", "cache_dir", "check_indexed", "compiler", "fast_threshold", "generate_source", "index_prompts",
           "native_available"]
