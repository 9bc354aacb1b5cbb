"""The pytest plugin: a claims directory's claim variants as test items, only when a run asks for them."""

import textwrap

import pytest

pytest_plugins = ["pytester"]

#: A claims directory's module: DFS as written (passes), and a mutant refuted at n = 3.
CLAIMS = textwrap.dedent('''
    import importlib

    from symcot.claims import Claim, ConstructionCheck
    from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
    from symcot.constructions.mutant import Mutant

    P = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")


    def broken():
        return Mutant(DfsConstruction(), 1, "W_2", ("flg1", 0), [("flg2", 0)], 0)


    CLAIMS = [
        Claim("demo:plain", "theorem", "DFS", "test", [ConstructionCheck(DfsConstruction, P.SPEC, [P.DIGRAPHS])],
              default_max_size=2),
        Claim("demo:broken", "theorem", "DFS, one coefficient off", "test",
              [ConstructionCheck(broken, P.SPEC, [P.DIGRAPHS])], default_max_size=3),
    ]
''')

TEST = "def test_ordinary():\n    assert True\n"


@pytest.fixture()
def project(pytester):
    """A project with an ordinary test and a claims directory ``claims/``."""
    pytester.makepyfile(test_ordinary=TEST)
    claims = pytester.mkdir("claims")
    (claims / "demo.py").write_text(CLAIMS)
    return pytester


def run(pytester, *args):
    return pytester.runpytest("-p", "no:cacheprovider", "--symcot-jobs", "1", *args)


def test_a_verified_claim_passes_and_a_refuted_one_fails_with_its_counterexample(project):
    result = run(project, "--symcot-proofs", "claims", "-v")
    result.assert_outcomes(passed=1, failed=1)  # the ordinary test is not collected: the claims alone
    result.stdout.fnmatch_lines([
        "claims/demo.py::demo:plain[[]as-written[]] PASSED*",
        "claims/demo.py::demo:broken[[]mutant[]] FAILED*",
    ])
    result.stdout.fnmatch_lines([
        "demo:broken [[]mutant[]]: refuted",
        "  method: exhaustive exact replay, every CoT step [[]batched engine[]]; max size 2, 31 inputs checked",
        "  counterexample (simple digraphs × every source, n = 3):",
        "    input: * Digraph(n=3; 0->1, 0->2), source 0",
        "    step: * 1",
        "    layer: * 1",
        "    block: * flg1",
        "    expected: * [[]1[]]",
        "    got: * [[]2[]]",
        "*",
        "  notes:",
        "    deliberately broken: layer 1 W_2, coefficient of flg2[[]0[]] in flg1[[]0[]] set to 0",
    ])
    assert "Traceback" not in result.stdout.str()


def test_k_selects_by_claim_id(project):
    result = run(project, "--symcot-proofs", "claims", "-k", "demo:plain")
    result.assert_outcomes(passed=1, deselected=1)


def test_max_size_applies_to_every_claim(project):
    result = run(project, "--symcot-proofs", "claims", "--symcot-max-size", "2")
    result.assert_outcomes(passed=2)


def test_the_plugin_is_inert_unless_asked(project):
    result = run(project)
    result.assert_outcomes(passed=1)
    assert "demo:" not in result.stdout.str()


def test_paths_given_with_the_option_run_both(project):
    result = run(project, "test_ordinary.py", "--symcot-proofs", "claims", "-k", "plain or ordinary")
    result.assert_outcomes(passed=2, deselected=1)


def test_a_node_id_runs_that_claim_variant_alone(project):
    run(project, "--symcot-proofs", "claims", "claims/demo.py::demo:plain[as-written]").assert_outcomes(passed=1)


def test_the_ini_setting_adds_the_claims_to_a_run_without_paths(project):
    project.makeini("[pytest]\nsymcot_proofs = claims\n")
    run(project, "-k", "plain or ordinary").assert_outcomes(passed=2, deselected=1)
    run(project, "test_ordinary.py").assert_outcomes(passed=1)
    run(project, "claims/demo.py::demo:plain[as-written]").assert_outcomes(passed=1)


def test_a_broken_claims_module_is_one_collection_error(project):
    (project.path / "claims" / "bad.py").write_text("CLAIMS = [1]\n")
    result = run(project, "--symcot-proofs", "claims")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*bad.py: CLAIM/CLAIMS must hold symcot.claims.Claim objects, got int"])


def test_a_missing_directory_is_a_usage_error(project):
    result = run(project, "--symcot-proofs", "nowhere")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*symcot claims directory * does not exist"])


def run_cached(pytester, *args):
    """A run in a subprocess with pytest's cache on (as a user's ``pytest --lf`` runs)."""
    return pytester.runpytest_subprocess("--symcot-jobs", "1", "--symcot-proofs", "claims", *args)


def test_last_failed_reruns_only_the_failed_claim_variant(project):
    first = run_cached(project, "-v")
    first.assert_outcomes(passed=1, failed=1)
    again = run_cached(project, "--lf", "-v")
    again.assert_outcomes(failed=1)  # the passed variant is not even collected
    again.stdout.fnmatch_lines(["*collected 1 item", "run-last-failure: rerun previous 1 failure*",
                                "claims/demo.py::demo:broken[[]mutant[]] FAILED*"])
    assert "demo:plain" not in again.stdout.str()
    first_failed = run_cached(project, "--ff", "-v")
    first_failed.assert_outcomes(passed=1, failed=1)
    first_failed.stdout.fnmatch_lines(["run-last-failure: rerun previous 1 failure first*",
                                       "claims/demo.py::demo:broken[[]mutant[]] FAILED*",
                                       "claims/demo.py::demo:plain[[]as-written[]] PASSED*"])


ALLN = textwrap.dedent('''
    import importlib
    import pathlib
    import sys

    sys.path.insert(0, str(pathlib.Path({example!r}).parent))
    EX = importlib.import_module("prefix_sum")
    CLAIM = EX.CLAIM
''')


def test_all_n_adds_an_item_per_all_n_row(pytester):
    from pathlib import Path

    example = Path(__file__).resolve().parent.parent / "docs" / "examples" / "prefix_sum" / "prefix_sum.py"
    claims = pytester.mkdir("claims")
    (claims / "demo.py").write_text(ALLN.format(example=str(example)))
    result = run(pytester, "--symcot-proofs", "claims", "--symcot-all-n", "-v", "-k", "as-written")
    result.assert_outcomes(passed=2, deselected=2)
    result.stdout.fnmatch_lines(["claims/demo.py::demo:prefixsum[[]as-written[]] PASSED*",
                                 "claims/demo.py::demo:prefixsum[[]all-n:as-written[]] PASSED*"])
    plain = run(pytester, "--symcot-proofs", "claims", "-v", "--collect-only", "-q")
    assert "all-n:" not in plain.stdout.str() and "demo:prefixsum[saturating]" in plain.stdout.str()
