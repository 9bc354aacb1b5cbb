"""A newcomer's first mistakes get one clear line: a file for --proofs, minus-led values, cycles, typos, globs."""

import argparse

import pytest

from symcot.cli import main
from symcot.cli.argv import attach_dash_values, unrecognized
from symcot.errors import InvalidInputError, UnknownClaimError
from symcot.inputs.parse import parent_cycle, parse_tree
from symcot.registry import select


def _err(capsys) -> str:
    err = capsys.readouterr().err.strip()
    assert "\n" not in err, err
    return err


# -- --proofs FILE ---------------------------------------------------------------------------------


def test_proofs_given_a_file_says_it_is_a_file(tmp_path, capsys):
    f = tmp_path / "claims" / "mine.py"
    f.parent.mkdir()
    f.write_text("")
    assert main(["verify", "--proofs", str(f)]) == 2
    assert _err(capsys) == (f"symcot: error: --proofs {f} is a file, not a directory: pass the claims directory "
                            f"that holds it ({f.parent})")


def test_proofs_given_a_missing_directory_still_says_so(tmp_path, capsys):
    assert main(["claims", "--proofs", str(tmp_path / "nope")]) == 2
    assert _err(capsys) == f"symcot: error: proofs directory {tmp_path / 'nope'} does not exist"


# -- values that start with a minus ----------------------------------------------------------------


@pytest.mark.parametrize("argv", [["--tree", "-1,0,0"], ["--tree=-1,0,0"], ["--tre", "-1,0,0"]])
def test_a_parent_array_after_tree_with_a_space_or_an_equals_sign(argv, capsys):
    assert main(["replay", "thm:cotdfs", *argv]) == 0
    assert capsys.readouterr().out.startswith("thm:cotdfs/as-written on Digraph(n=3; 0->1, 0->2, 1->0, 2->0), source 0")


def _options(*specs: tuple[str, dict]) -> dict[str, argparse.Action]:
    p = argparse.ArgumentParser()
    for name, kw in specs:
        p.add_argument(name, **kw)
    p.add_argument("-o", "--output")
    return p._option_string_actions


def test_every_one_value_option_takes_a_minus_led_value():
    opts = _options(("--tree", {}), ("--lam", {}), ("--debug", {"action": "store_true"}))
    assert attach_dash_values(["--tree", "-1,0,0", "--lam", "-3/2"], opts) == ["--tree=-1,0,0", "--lam=-3/2"]
    assert attach_dash_values(["--tree", "-,0,0"], opts) == ["--tree=-,0,0"]
    # options, flags and what follows -- are left alone
    assert attach_dash_values(["--debug", "-1", "-o", "-x", "--tree", "--lam"], opts) == [
        "--debug", "-1", "-o", "-x", "--tree", "--lam"]
    assert attach_dash_values(["--", "--tree", "-1"], opts) == ["--", "--tree", "-1"]


# -- a cycle in a parent array ---------------------------------------------------------------------


def test_a_cycle_in_a_parent_array_is_named(capsys):
    assert main(["replay", "thm:cotdfs", "--tree=-1,2,1"]) == 2
    assert _err(capsys) == ("symcot: error: the parent array has a cycle 1 → 2 → 1 (each vertex's parent, "
                            "followed, must reach the root -1)")


@pytest.mark.parametrize(("parents", "cycle"), [
    ([-1, 0, 0], None), ([-1, 2, 1], [1, 2, 1]), ([-1, 1], [1, 1]), ([1, -1, 3, 4, 2], [2, 3, 4, 2]),
    ([-1, 0, 3, 2, 1], [2, 3, 2]),
])
def test_parent_cycle(parents, cycle):
    assert parent_cycle(parents) == cycle


def test_parse_tree_refuses_a_self_parent():
    with pytest.raises(InvalidInputError, match="cycle 1 → 1"):
        parse_tree("-1,1")


# -- misspelt options ------------------------------------------------------------------------------


@pytest.mark.parametrize(("argv", "message"), [
    (["verify", "--max-sise", "3"], "unrecognized arguments: --max-sise; did you mean --max-size? "
                                    "(see 'symcot verify --help')"),
    (["verify", "--max-sise=3"], "unrecognized arguments: --max-sise=3; did you mean --max-size? "
                                 "(see 'symcot verify --help')"),
    (["replay", "thm:cotdfs", "--dyk", "UD"], "unrecognized arguments: --dyk UD; did you mean --dyck? "
                                             "(see 'symcot replay --help')"),
    (["latex", "thm:cotdfs", "--zzz"], "unrecognized arguments: --zzz (see 'symcot latex --help')"),
])
def test_an_unknown_option_gets_the_closest_one(argv, message, capsys):
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2
    assert _err(capsys) == f"symcot: error: {message}"


def test_unrecognized_with_two_misspellings():
    text = unrecognized(["--max-sise", "--jbos", "2"], ["--max-size", "--jobs", "-h"])
    assert text == "unrecognized arguments: --max-sise --jbos 2; did you mean --max-size (for --max-sise), " \
                   "--jobs (for --jbos)?"


# -- claim ids as shell-style globs ----------------------------------------------------------------


def test_select_takes_globs_in_order_each_claim_once(claims):
    ids = [c.id for c in select(claims, ["thm:cotwidof*", "thm:cotwidofpath"])]
    assert ids == [c for c in claims if c.startswith("thm:cotwidof")]
    assert [c.id for c in select(claims, ["thm:cotdfs", "thm:cotdf?"])] == ["thm:cotdfs"]


def test_a_glob_that_matches_nothing_is_one_line(claims, capsys):
    with pytest.raises(UnknownClaimError, match=r"^no claim matches 'thm:nothing\*' \(symcot claims lists the "):
        select(claims, ["thm:nothing*"])
    assert main(["verify", "thm:nothing*"]) == 2
    assert _err(capsys).startswith("symcot: error: no claim matches 'thm:nothing*'")


def test_verify_with_a_glob_and_a_variant_not_every_match_has(capsys, tmp_path):
    report = tmp_path / "r.json"
    assert main(["verify", "thm:cotdfs:ph?", "--variant", "as-written", "--max-size", "2", "--no-progress",
                 "--json", str(report)]) == 0
    import json

    rows = json.loads(report.read_text())["claims"]
    assert {r["id"] for r in rows} == {"thm:cotdfs:phi"}


def test_one_claim_commands_take_a_glob_that_names_one(capsys):
    assert main(["replay", "thm:cotdfs:ph?", "--dyck", "UD"]) == 0
    assert capsys.readouterr().out.startswith("thm:cotdfs:phi/as-written")
    assert main(["latex", "thm:cotpathtotre?", "--n", "2", "--fragment"]) == 0
    assert main(["replay", "thm:cotwidof*", "--dyck", "UD"]) == 2
    assert _err(capsys).startswith("symcot: error: 'thm:cotwidof*' matches ")


def test_mutate_resolves_globs_too(capsys):
    assert main(["mutate", "thm:nothing*"]) == 2
    assert _err(capsys).startswith("symcot: error: no claim matches 'thm:nothing*'")
