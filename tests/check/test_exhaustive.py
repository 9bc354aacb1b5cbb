"""Checker mechanics: exit codes, max_size accounting, and family-count errors."""

from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
from symcot.check.context import RunContext
from symcot.check.exhaustive import Family, run_construction_check
from symcot.check.verdict import Verdict, exit_status
from symcot.inputs import digraphs_with_sources


def row(verdict):
    return Verdict("c", "v", verdict, "m", 1, 1, 0.0)


def test_exit_status():
    assert exit_status([row("verified"), row("proved")]) == 0
    assert exit_status([row("verified"), row("refuted")]) == 1
    assert exit_status([row("refuted"), row("unknown")]) == 2
    assert exit_status([row("error")]) == 2


def test_family_count_mismatch_is_an_error_not_a_verdict(dfs_proofs):
    wrong = Family("digraphs with a wrong count", digraphs_with_sources, lambda k: 3, dfs_proofs.describe)
    r = run_construction_check("thm:cotdfs", DfsConstruction(), dfs_proofs.SPEC, [wrong], 2)
    assert r.verdict == "error" and any("yielded 1 inputs at size 1, expected 3" in x for x in r.notes)


def test_capped_family_keeps_max_size_honest(dfs_proofs):
    capped = Family("digraphs to 2", digraphs_with_sources, dfs_proofs.DIGRAPHS.count, dfs_proofs.describe,
                    max_size=2)
    trees = dfs_proofs.TREES
    r = run_construction_check("thm:cotdfs", DfsConstruction(), dfs_proofs.SPEC, [capped, trees], 4)
    assert r.verdict == "verified"
    assert r.max_size == 2  # trees reached 4 but the digraph family stopped at 2


def test_paper_size_mismatch_is_refuted(dfs_proofs):
    r = run_construction_check("thm:cotdfs", DfsConstruction(), dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 2,
                               {"d": "6*n + 4", "layers": 2, "heads": 1})
    assert r.verdict == "refuted"
    qs = {d["quantity"] for d in r.counterexample["differences"]}
    assert qs == {"d", "heads per layer (max)"}


def test_parallel_run_gives_the_same_verdict_and_counterexample(dfs_proofs, monkeypatch):
    from symcot.check import parallel
    from symcot.constructions.mutant import Mutant

    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 10)
    monkeypatch.setattr(parallel, "CHUNK", 7)
    good = run_construction_check("thm:cotdfs", DfsConstruction(), dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 3, jobs=2)
    assert good.verdict == "verified" and good.inputs_checked == 1 + 8 + 192
    # This mutant first fails at n = 3 (not n = 2), so the failure is found inside a parallel size.
    bad = Mutant(DfsConstruction(), 1, "W_2", ("flg1", 0), [("flg2", 0)], 0)
    one = run_construction_check("thm:cotdfs", bad, dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 3, jobs=1)
    two = run_construction_check("thm:cotdfs", bad, dfs_proofs.SPEC, [dfs_proofs.DIGRAPHS], 3, jobs=2)
    assert one.verdict == two.verdict == "refuted"
    assert one.counterexample == two.counterexample and one.inputs_checked == two.inputs_checked


def test_property_check_verifies_and_refutes_with_the_smallest_input(dfs_proofs):
    from proofs.cot_path_to_tree.algorithms import phi
    from symcot.claims import PropertyCheck

    def right(inp):
        g, r = inp
        return None if len(phi(g, r)) == 2 * (g.n - 1) else {"length": len(phi(g, r))}

    def wrong(inp):  # deliberately false: |φ(T)| = 2n
        g, r = inp
        w = phi(g, r)
        return None if len(w) == 2 * g.n else {"expected": 2 * g.n, "got": len(w), "word": w}

    ok = PropertyCheck("as-written", [dfs_proofs.TREES], right).run(RunContext("demo", 5))
    assert ok.verdict == "verified" and ok.max_size == 5 and ok.inputs_checked == 1 + 2 + 9 + 64 + 625
    bad = PropertyCheck("broken", [dfs_proofs.TREES], wrong).run(RunContext("demo", 5))
    assert bad.verdict == "refuted" and bad.max_size is None
    assert bad.counterexample["size"] == 1 and bad.counterexample["got"] == 0 and bad.inputs_checked == 1


def test_a_check_with_its_own_default_size_gets_it_when_no_size_is_asked(dfs_proofs):
    from symcot.claims import Claim

    seen = []

    class Probe:
        variant, method, symbolic = "probe", "records the size it is given", False

        def __init__(self, default=None):
            if default is not None:
                self.default_max_size = default

        def run(self, ctx):
            seen.append(ctx.max_size)
            return Verdict(ctx.claim_id, self.variant, "verified", self.method, ctx.max_size, 0, 0.0)

    claim = Claim("demo:sizes", "theorem", "-", "-", [Probe(), Probe(2)], default_max_size=5)
    claim.run()
    claim.run(max_size=7)
    assert seen == [5, 2, 7, 7]
