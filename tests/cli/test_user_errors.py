"""An exception in the user's own code names its file, line, claim and input; --debug prints the traceback."""

import json
import textwrap

import pytest

from symcot.cli import main

BOOM = textwrap.dedent('''
    """A reference that fails on one input."""
    import dataclasses
    import importlib

    from symcot.claims import Claim, ConstructionCheck
    from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction

    P = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")


    def reference(inp):
        g, s = inp
        if g.n == 2 and g.arcs == ((0, 1),):
            raise RuntimeError("boom")
        return P.SPEC.reference(inp)


    SPEC = dataclasses.replace(P.SPEC, reference=reference)
    CLAIM = Claim("demo:boom", "theorem", "DFS with a failing reference", "test",
                  [ConstructionCheck(DfsConstruction, SPEC, [P.DIGRAPHS])], default_max_size=2)
''')


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    """A terminal wide enough that a message is one line (at 80 columns it wraps: see test_verify_output)."""
    monkeypatch.setenv("COLUMNS", "400")


def _proofs(tmp_path, text, name="demo.py"):
    d = tmp_path / "user"
    d.mkdir(exist_ok=True)
    (d / name).write_text(text)
    return d


@pytest.mark.parametrize("engine", ["exact", "batched"])
def test_an_exception_in_a_reference_names_file_line_and_input(tmp_path, capsys, engine):
    d = _proofs(tmp_path, BOOM)
    out = tmp_path / "r.json"
    assert main(["verify", "--proofs", str(d), "--engine", engine, "--jobs", "1", "--no-progress",
                 "--json", str(out)]) == 2
    printed = capsys.readouterr().out
    line = BOOM.splitlines().index('        raise RuntimeError("boom")') + 1
    want = (f"check failed: {d / 'demo.py'}:{line}: RuntimeError: boom (in reference, on input "
            "Digraph(n=2; 0->1), source 0)")
    assert want in printed
    row = json.loads(out.read_text())["claims"][0]
    assert row["verdict"] == "error" and row["notes"][-1] == want
    assert 'raise RuntimeError("boom")' in row["details"]["traceback"]


def test_debug_prints_the_traceback_of_an_error_row(tmp_path, capsys):
    d = _proofs(tmp_path, BOOM)
    assert main(["verify", "--proofs", str(d), "--jobs", "1", "--no-progress", "--debug"]) == 2
    err = capsys.readouterr().err
    assert "traceback of demo:boom [as-written]:" in err and "Traceback (most recent call last)" in err
    assert 'raise RuntimeError("boom")' in err


def test_a_worker_process_reports_the_location_too(tmp_path, capsys, monkeypatch):
    import symcot.check.parallel as parallel

    monkeypatch.setattr(parallel, "PARALLEL_THRESHOLD", 1)  # every size in the pool
    d = _proofs(tmp_path, BOOM)
    assert main(["verify", "--proofs", str(d), "--engine", "exact", "--jobs", "2", "--no-progress"]) == 2
    assert f"{d / 'demo.py'}:" in capsys.readouterr().out


def test_syntax_error_in_a_proofs_module(tmp_path, capsys):
    d = _proofs(tmp_path, "CLAIM = (\n")
    assert main(["verify", "--proofs", str(d)]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith(f"symcot: error: {d / 'demo.py'}:1: syntax error:") and "\n" not in err


def test_exception_while_importing_a_proofs_module(tmp_path, capsys):
    d = _proofs(tmp_path, "import math\n\nX = math.sqrt(4)\nY = undefined_name + 1\n")
    assert main(["claims", "--proofs", str(d)]) == 2
    err = capsys.readouterr().err.strip()
    assert err == (f"symcot: error: {d / 'demo.py'}:4: NameError: name 'undefined_name' is not defined "
                   f"(while importing the proofs module {d / 'demo.py'}) (--debug for the traceback)")
    assert main(["claims", "--proofs", str(d), "--debug"]) == 2
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err and "undefined_name + 1" in err


PARSER = textwrap.dedent('''
    """A construction read with its own parser."""
    import importlib

    from symcot.claims import Claim, ConstructionCheck
    from proofs.cot_path_to_tree.constructions.cotdfs import DfsConstruction
    from symcot.errors import InvalidInputError
    from symcot.inputs import Digraph

    P = importlib.import_module("proofs.cot_path_to_tree.thm_cotdfs")


    def parse(text):
        if text == "bad":
            raise InvalidInputError("'bad' is not a path length")
        k = int(text)
        return Digraph.from_arcs(k, [(i, i + 1) for i in range(k - 1)]), 0


    CLAIM = Claim("demo:parse", "theorem", "DFS on paths", "test",
                  [ConstructionCheck(DfsConstruction, P.SPEC, [P.DIGRAPHS], input_kind="custom", parse_input=parse)],
                  default_max_size=2)
''')


def test_replay_with_a_custom_parser_and_its_errors(tmp_path, capsys):
    d = _proofs(tmp_path, PARSER)
    assert main(["replay", "demo:parse", "--proofs", str(d), "--input", "3"]) == 0
    assert "stopped by the stop rule" in capsys.readouterr().out
    assert main(["replay", "demo:parse", "--proofs", str(d), "--input", "bad"]) == 2
    assert capsys.readouterr().err.strip() == "symcot: error: --input 'bad': 'bad' is not a path length"
    assert main(["replay", "demo:parse", "--proofs", str(d), "--input", "x"]) == 2
    err = capsys.readouterr().err.strip()
    line = PARSER.splitlines().index("    k = int(text)") + 1
    assert err == (f"symcot: error: {d / 'demo.py'}:{line}: ValueError: invalid literal for int() with base 10: 'x' "
                   "(in parse, in the input parser of as-written, --input 'x') (--debug for the traceback)")
    assert main(["replay", "demo:parse", "--proofs", str(d), "--graph", "0-1"]) == 2
    assert "reads its input with --input TEXT" in capsys.readouterr().err


def test_a_bug_inside_symcot_is_still_an_internal_error(capsys, monkeypatch):
    import functools

    import symcot.cli.claims as claims_cmd
    from symcot import registry

    # a call that fails inside symcot, with no frame of user code: discover(0.5, args) is a TypeError
    monkeypatch.setattr(claims_cmd, "run", functools.partial(registry.discover, 0.5))
    assert main(["claims"]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("symcot: internal error: TypeError:") and "please report it" in err
