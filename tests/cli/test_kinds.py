"""Every construction command on every kind of claim: real output, or one line saying what the claim is."""

import pytest

from symcot.cli import main
from symcot.cli.kinds import what_it_is

#: One claim of each kind: a first-paper decoder, a Cookbook lemma, an encoder, a fidelity statement, a λ scan,
#: a symbolic identity, a property of inputs.
CLAIMS = ["thm:cotdfs", "sec:ffnn_minmax", "sec:tie-breaking", "thm:cotdfs:fact1", "thm:cottreestrahler:lambda",
          "fact:affine", "ch6:zero-mean", "ch8:dyck-uhat", "sec:multihead", "ch8:mod"]
COMMANDS = [["replay", "{}", "--dyck", "UD"], ["replay", "{}", "--input", "01"], ["latex", "{}"],
            ["latex", "{}", "--n", "2"], ["export", "{}", "--n", "2", "--format", "numpy", "-o", "{tmp}/x.npz"],
            ["coverage", "{}", "--max-size", "1", "--no-progress"]]


def test_what_a_claim_is():
    from symcot.registry import load_claims, select

    claims = {c.id: c for c in select(load_claims(None), ["sec:ffnn_minmax", "sec:tie-breaking", "fact:affine",
                                                          "thm:cottreestrahler:lambda"])}
    assert what_it_is(claims["sec:ffnn_minmax"]) == "a lemma about a network gadget"
    assert what_it_is(claims["sec:tie-breaking"]) == "checked through an encoder construction"
    assert what_it_is(claims["fact:affine"]) == "a symbolic identity"
    assert what_it_is(claims["thm:cottreestrahler:lambda"]) == "a scan of a construction's constant λ"


def test_grids_and_checks_that_run_a_transformer_are_encoders_and_formulas_say_so():
    from symcot.claims import PropertyCheck
    from symcot.cli.kinds import as_formulas, is_encoder
    from symcot.registry import load_claims, select

    claims = {c.id: c for c in select(load_claims(None), ["ch8:dyck-uhat", "sec:multihead", "ch8:mod"])}
    assert what_it_is(claims["ch8:dyck-uhat"]) == "checked through an encoder construction"
    assert what_it_is(claims["sec:multihead"]) == "checked through an encoder construction"
    assert is_encoder(claims["sec:multihead"].checks[0]) and not is_encoder(claims["sec:multihead"].checks[-1])
    assert as_formulas(claims["ch8:mod"]).startswith("layer 1's uniform averages")
    assert as_formulas(claims["ch8:dyck-uhat"]) is None
    assert not is_encoder(PropertyCheck("p", [], lambda x: None))  # a plain property runs no transformer


@pytest.mark.parametrize("claim", CLAIMS)
@pytest.mark.parametrize("command", COMMANDS, ids=lambda c: " ".join(c[:1] + c[2:3]))
def test_no_command_ends_in_an_internal_error(capsys, tmp_path, claim, command):
    status = main([a.format(claim, tmp=tmp_path) for a in command])
    err = capsys.readouterr().err.strip()
    assert status in (0, 1, 2)
    if status == 2:
        assert err.startswith("symcot: error:") and "\n" not in err and "internal error" not in err, err


@pytest.mark.parametrize(("argv", "message"), [
    (["replay", "sec:ffnn_minmax"], "sec:ffnn_minmax is a lemma about a network gadget, with no construction: "
                                    "nothing to replay"),
    (["coverage", "sec:tie-breaking"], "sec:tie-breaking is checked through an encoder construction; symcot coverage "
                                       "handles decoder constructions only (symcot replay shows"),
    (["mutate", "sec:tie-breaking"], "symcot mutate handles decoder constructions only"),
    (["export", "sec:tie-breaking", "--n", "3", "--format", "numpy", "-o", "x.npz"],
     "symcot export handles decoder constructions only (its torch module runs a causal decoder"),
    (["latex", "fact:affine"], "fact:affine is a symbolic identity, with no construction: nothing to print"),
])
def test_what_cannot_be_done_says_why(capsys, tmp_path, monkeypatch, argv, message):
    monkeypatch.chdir(tmp_path)
    assert main([*argv, "--no-progress"] if argv[0] in ("coverage", "mutate") else argv) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and message in err, err
