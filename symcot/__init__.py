"""symcot: machine-check chain-of-thought Transformer constructions.

The engine behind the paper checks: a named-block IR (:mod:`symcot.ir`), the decoder semantics of the
paper's Section 3 (:mod:`symcot.model`), exact replay with traces (:mod:`symcot.replay`), reference
algorithms (:mod:`symcot.algorithms`), input spaces (:mod:`symcot.inputs`) and checkers
(:mod:`symcot.check`).
"""

__version__ = "0.1.0"
