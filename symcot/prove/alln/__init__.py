"""The all-n prover: one CoT step maps the encoding of every reachable state to the next, for every size."""
