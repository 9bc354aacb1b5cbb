import pytest

from symcot.registry import load_claims, select
from symcot.study.precision.analysis import run_batch
from symcot.study.precision.batches import batches
from symcot.study.precision.margins import RunStats

CASES = [("thm:cotdfs", "as-written", 3), ("thm:cotdijkstra", "repaired", 3), ("thm:cottreestrahler", "repaired", 4),
         ("thm:cotpathtotree", "as-written", 5)]


def _summary(st: RunStats):
    heads = {k: (h.events, h.strict, h.ties, h.deciding, dict(h.winners), h.gamma.value, h.group_gap.value,
                 h.delta.value, h.beta.value, {b: e.value for b, e in h.error_at.items()})
             for k, h in st.heads.items()}
    return heads, {c: e.value for c, e in st.magnitudes.items()}, st.sums.value, st.context, st.inputs


@pytest.mark.parametrize("claim_id,variant,size", CASES)
def test_certified_float64_figures_equal_the_exact_ones(claim_id, variant, size):
    chk = next(c for c in select(load_claims(None), [claim_id])[0].checks
               if hasattr(c, "construction") and c.variant == variant)
    cons, spec = chk.construction(), chk.spec
    fam = next(f for f in chk.families if f.exhaustive)
    fast, slow = RunStats(), RunStats()
    for b in batches(cons, spec, fam.inputs(size)):
        a = run_batch(b, spec, 1e-3, (10.0,))
        e = run_batch(b, spec, 1e-3, (10.0,), force_exact=True)
        assert a.engine.startswith("float64") and e.engine == "exact"
        assert a.failure is None and e.failure is None
        assert a.outputs.tolist() == e.outputs.tolist()
        fast.merge(a.stats)
        slow.merge(e.stats)
    assert fast.inputs > 0
    assert _summary(fast) == _summary(slow)


def test_the_spec_decides_a_failing_construction():
    # thm:cottreestrahler as written departs from its spec at n = 2 (the final backtrack): the batch says where
    chk = select(load_claims(None), ["thm:cottreestrahler"])[0].checks[0]
    assert chk.variant == "as-written"
    cons, spec = chk.construction(), chk.spec
    found = [run_batch(b, spec, 1e-3).failure for b in batches(cons, spec, chk.families[0].inputs(2))]
    assert any(f is not None and f[2].step == 3 for f in found)
