"""The one check protocol: every check is ``run(self, ctx)``; the options reach the checks that use them.

An old-style check (``run(self, claim_id, max_size, progress, jobs=1)``) is one clear error naming its file and
line; a check's schedule (what it enumerates) is what its run checks.
"""

from __future__ import annotations

import inspect
import textwrap

import pytest

from symcot.check.context import RunContext, Schedule, check_signature, schedule_of
from symcot.check.exhaustive import Progress, size_schedule
from symcot.check.verdict import Verdict
from symcot.claims import Claim
from symcot.cli import main
from symcot.errors import SymcotError
from symcot.registry import load_claims
from tests.conftest import ROOT


class Recorder:
    """A check of the protocol that keeps every context it is run with."""

    variant, method = "as-written", "records its context"

    def __init__(self) -> None:
        self.seen: list[RunContext] = []

    def run(self, ctx: RunContext) -> Verdict:
        self.seen.append(ctx)
        return Verdict(ctx.claim_id, self.variant, "verified", self.method, ctx.max_size, 0, 0.0)


class OldStyle:
    """A check written with the signature of symcot before the context."""

    variant, method = "as-written", "the old way"

    def run(self, claim_id, max_size, progress, jobs=1):  # noqa: ANN001, ANN201 - the old user code, as written
        return Verdict(claim_id, self.variant, "verified", self.method, max_size, 0, 0.0)


OLD_LINE = inspect.getsourcelines(OldStyle.run)[1]


def test_every_check_class_of_the_claims_has_the_one_signature():
    claims = load_claims(ROOT / "proofs" / "cot_path_to_tree")
    classes = {type(chk) for c in claims.values() for chk in c.checks}
    assert len(classes) >= 12  # construction, property, lemma, in-use, symbolic, all-n, departures, bound, …
    for cls in classes:
        params = list(inspect.signature(cls.run).parameters)
        assert params == ["self", "ctx"], (cls.__module__, cls.__name__, params)
        assert inspect.signature(cls.run).return_annotation in ("Verdict", Verdict), cls.__name__


def test_an_old_style_check_is_one_error_naming_its_file_and_line():
    with pytest.raises(SymcotError) as e:
        Claim("demo:old", "theorem", "-", "-", [OldStyle()], default_max_size=2)
    msg = str(e.value)
    assert msg.startswith(f"{__file__}:{OLD_LINE}: OldStyle.run(self, claim_id, max_size, progress, jobs)")
    assert "a check's signature is run(self, ctx) -> Verdict" in msg and "RunContext" in msg
    claim = Claim("demo:later", "theorem", "-", "-", [Recorder()], default_max_size=2)
    claim.checks.append(OldStyle())  # added after the claim was declared: the run says so, before calling it
    with pytest.raises(SymcotError, match=f"{OLD_LINE}: OldStyle.run"):
        claim.run()


def test_the_signature_check_accepts_the_protocol_and_names_what_is_missing():
    check_signature(Recorder())

    class Star:
        variant, method = "x", "y"

        def run(self, *args):  # noqa: ANN002, ANN201
            return None

    check_signature(Star())
    with pytest.raises(SymcotError, match="has no run method"):
        check_signature(object())

    class KeywordOnly:
        variant, method = "x", "y"

        def run(self, ctx, *, extra):  # noqa: ANN001, ANN201
            return None

    with pytest.raises(SymcotError, match=r"KeywordOnly\.run\(self, ctx\)"):
        check_signature(KeywordOnly())


def test_an_old_style_check_in_a_users_proofs_is_one_line_at_load(tmp_path, capsys):
    text = textwrap.dedent('''
        from symcot.check.verdict import Verdict
        from symcot.claims import Claim


        class Mine:
            variant, method = "as-written", "mine"

            def run(self, claim_id, max_size, progress, jobs=1):
                return Verdict(claim_id, self.variant, "verified", self.method, max_size, 0, 0.0)


        CLAIM = Claim("demo:mine", "theorem", "-", "-", [Mine()], default_max_size=2)
    ''')
    d = tmp_path / "user"
    d.mkdir()
    (d / "mine.py").write_text(text)
    assert main(["verify", "--proofs", str(d), "--no-progress"]) == 2
    err = capsys.readouterr().err
    line = text.splitlines().index("    def run(self, claim_id, max_size, progress, jobs=1):") + 1
    assert f"{d / 'mine.py'}:{line}: Mine.run(self, claim_id, max_size, progress, jobs): a check's signature is " \
           "run(self, ctx)" in err
    assert "Traceback" not in err and "TypeError" not in err


def test_the_options_reach_every_check_in_its_context():
    a, b = Recorder(), Recorder()
    b.default_max_size = 3  # a check's own default size
    claim = Claim("demo:ctx", "theorem", "-", "-", [a, b], default_max_size=5)
    progress = Progress(False)
    claim.run(max_size=None, progress=progress, jobs=2, engine="batched", reach=7)
    assert a.seen == [RunContext("demo:ctx", 5, progress, 2, "batched", 7)]
    assert b.seen[0].max_size == 3
    marker = object()
    claim.run_check(a, 4, shard_engine=marker)
    assert a.seen[-1] == RunContext("demo:ctx", 4, a.seen[-1].progress, 1, "exact", None, marker)
    ctx = claim.context(a)  # the defaults: the claim's size, quiet, one job, exact replay
    assert (ctx.max_size, ctx.progress.enabled, ctx.jobs, ctx.engine, ctx.reach, ctx.shard_engine) == (
        5, False, 1, "exact", None, None)
    with pytest.raises(SymcotError, match="unknown engine 'fast'"):
        RunContext("x", 1, engine="fast")


def test_engine_and_reach_reach_a_construction_check():
    claim = load_claims(ROOT / "proofs" / "cot_path_to_tree")["thm:cotwidofpath"]
    chk = next(c for c in claim.checks if type(c).__name__ == "ConstructionCheck" and c.variant == "repaired")
    assert chk.families[0].reach
    plain = claim.run_check(chk, 2)
    far = claim.run_check(chk, 2, reach=5)
    batched = claim.run_check(chk, 2, reach=5, engine="batched", jobs=2)
    assert plain.families[0]["sizes_complete"] == [1, 2] and not plain.method.endswith("[batched engine]")
    assert far.families[0]["sizes_complete"] == [1, 2, 3, 4, 5] and far.verdict == "verified"
    assert batched.method.endswith("[batched engine]") and batched.inputs_checked == far.inputs_checked
    for row, (reach, engine) in ((plain, (None, "exact")), (far, (5, "exact")), (batched, (5, "batched"))):
        sched = schedule_of(chk, claim.context(chk, 2, engine=engine, reach=reach))
        assert sched is not None and sched.engine == engine and sched.inputs() == row.inputs_checked


def test_the_schedules_are_what_the_checks_run():
    claims = load_claims(ROOT / "proofs" / "cot_path_to_tree")
    seen = set()
    for claim in claims.values():
        for chk in claim.checks:
            name = type(chk).__name__
            if name not in ("PropertyCheck", "BoundCheck", "DeparturesCheck") or name in seen:
                continue
            seen.add(name)
            ctx = claim.context(chk, 3)
            sched = schedule_of(chk, ctx)
            assert sched is not None and sched.engine == ("exact" if name == "DeparturesCheck" else "property")
            row = chk.run(ctx)
            assert row.verdict in ("verified", "refuted", "unknown"), (claim.id, row.notes)
            if row.verdict == "verified":
                assert row.inputs_checked == sched.inputs(), (claim.id, chk.variant)
    assert seen == {"PropertyCheck", "BoundCheck", "DeparturesCheck"}
    lemma = claims["lem:mMc"]
    assert all(schedule_of(chk, lemma.context(chk)) is None for chk in lemma.checks)  # Z3 enumerates no family


def test_a_schedule_counts_its_steps_and_stops_early():
    claim = load_claims(ROOT / "proofs" / "cot_path_to_tree")["thm:cotdfs"]
    every, sampled = claim.checks[0].families  # simple digraphs × every source; 12 seeded ones per size 5..12
    steps = size_schedule([every, sampled], 3)
    assert [(s, f.name) for s, f in steps] == [(1, every.name), (2, every.name), (3, every.name)] + [
        (s, sampled.name) for s in range(5, 13)]
    assert Schedule(steps, "exact").inputs() == 1 + 2 * 4 + 3 * 64 + 12 * 8
    assert Schedule(steps, "exact").inputs(stop_above=5) == 1 + 2 * 4  # stops past 5: a lower bound
