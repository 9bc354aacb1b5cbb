"""Where each construction states its readings and its per-step claims: one place each.

A reading is stated once, in its construction module's ``READINGS`` (the claim reads it from there); the
per-step claims a failure is located by are the all-n statement's cuts and head choices where the
construction has a statement for every variant it builds, else its ``invariants`` — never both.
"""

import dataclasses
import importlib

import pytest

from symcot.claims import Reading
from symcot.constructions.base import Construction

#: The constructions of the paper, by the claims that check them.
CLAIMS = ["thm:cotdfs", "thm:cotdfs:phi", "thm:cotdijkstra", "thm:cotpathtotree", "thm:cottreestrahler",
          "thm:cotpathstrahler", "thm:cotwidofpath", "thm:cotwidoftree", "thm:cotwidoftree:width"]
#: A statement written for some variants only (claim: why): the other variants' proof states its per-step claims itself.
ONE_VARIANT_STATEMENTS = {
    "thm:cotdijkstra": "written for the repaired decoder (λ for a missing arc, a_ii = 0); as-written and missing-arc-0 "
                       "state their prompt by the same segments, and invariants() locates their failures",
    "thm:cottreestrahler": "written for the repaired decoder",
    "thm:cotpathstrahler": "written for the letter/m = π_q and printed-q/m = π_tmp_q readings; tmp-q, q_0 = 0 and "
                           "m-from-the-other-block have none, and invariants() locates their failures",
    "thm:cotwidofpath": "written for the repaired and q-literal-repaired decoders (the k = 0 pulse, the read "
                        "repaired); the refuted readings have none, and invariants() locates their failures",
    "thm:cotwidoftree": "written for the repaired decoder (thm:cotdijkstra's repair, V_max = n); as-written states its "
                        "prompt by the same segments, and invariants() locates its failures",
    "thm:cotwidoftree:width": "written for the as-written decoder with enc every block but dis (the all-n row); "
                              "with dis compared it states its prompt by the same segments, and invariants() locates "
                              "its failures",
}


def _constructions(claim):
    return [chk.construction() for chk in claim.checks if hasattr(chk, "construction")]


def _restated(claim) -> list[str]:
    """The variants whose reading the claim does not take from its construction module's ``READINGS``."""
    cons = _constructions(claim)
    readings = getattr(importlib.import_module(type(cons[0]).__module__), "READINGS", {})
    out = []
    for v in sorted({c.variant for c in cons}):
        r = claim.reading(v)
        if v in readings:
            ok = r is readings[v]
        else:  # the only reading: the statement as printed, described by the library
            ok = r is not None and v == "as-written" and len(readings) == 0
        if not ok:
            out.append(v)
    return out


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_every_reading_is_stated_once_in_its_construction_module(claims, claim_id):
    assert _restated(claims[claim_id]) == []


def test_a_reading_restated_in_the_claim_is_found(claims):
    claim = claims["thm:cotwidofpath"]
    copy = dataclasses.replace(claim, readings={**claim.readings,
                                                "repaired": Reading("repair", claim.readings["repaired"].text)})
    assert _restated(copy) == ["repaired"]


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_per_step_claims_are_stated_once(claims, claim_id):
    cons = _constructions(claims[claim_id])
    cls = type(cons[0])
    own = "invariants" in {k for c in cls.__mro__ if c is not Construction and c is not object for k in vars(c)}
    stated = [c.variant for c in cons if c.all_n is not None]  # a statement may be the instance's (per variant)
    if claim_id in ONE_VARIANT_STATEMENTS:
        assert stated, f"{claim_id} has no all-n statement: drop it from ONE_VARIANT_STATEMENTS"
    if stated and claim_id not in ONE_VARIANT_STATEMENTS:
        assert not own, f"{cls.__name__} states per-step claims in invariants() beside its all-n statement"
    else:
        assert own, f"{cls.__name__} locates no failure: neither a statement for every variant nor invariants()"


def _prompt_places(cons: Construction) -> list[str]:
    """Where a construction states its prompt: the statement's segments (or ``prompt_segments``), its own methods."""
    from symcot.constructions.base import hand_prompt

    places = ["segments"] if cons.stated_prompt() is not None else []
    return places + (["token_keys/token"] if hand_prompt(type(cons)) else [])


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_the_prompt_is_stated_once(claims, claim_id):
    """Every construction states its prompt by segments: its statement's, or prompt_segments without one."""
    for cons in _constructions(claims[claim_id]):
        assert _prompt_places(cons) == ["segments"], cons.label
        if cons.all_n is not None:
            assert cons.stated_prompt().segments is cons.all_n.segments  # not a copy beside the statement


def _hand_written_prompt():
    """A construction (thm:cotwidoftree's, as written) whose class writes its prompt itself: no segments."""
    from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction

    stated = WidthTreeConstruction("as-written").stated_prompt()

    class Hand(WidthTreeConstruction):
        def token_keys(self, inp):
            return stated.keys(inp)

        def token(self, cl, key, lam_value):
            return stated.token(cl, key, lam_value)

    cons = Hand("as-written")
    cons.prompt_segments = None  # the instance's segments dropped: the class's own methods write the prompt
    return Hand, cons


def test_a_prompt_stated_twice_is_found():
    from proofs.cot_path_to_tree.constructions.cotdfs import STATEMENT
    from proofs.cot_path_to_tree.constructions.cotwidoftree import WidthTreeConstruction
    from symcot.inputs import Digraph

    hand, cons = _hand_written_prompt()
    assert _prompt_places(cons) == ["token_keys/token"]
    inp = (Digraph.undirected(3, [(0, 1), (1, 2)]), 1)
    assert cons.prompt(inp).tokens == WidthTreeConstruction("as-written").prompt(inp).tokens
    cons.all_n = STATEMENT  # a statement on an instance whose class writes its prompt: both
    assert _prompt_places(cons) == ["segments", "token_keys/token"]
    with pytest.raises(TypeError, match="states its prompt twice"):
        type("Both", (hand,), {"all_n": STATEMENT})


#: Definition facts of a vocabulary that are not its algorithm's step: each defines an auxiliary symbol that no
#: transition state holds (the first/last step a vertex is current, the matrix view of the flattened A_w, Dkst's
#: largest arc weight W and its count of visited vertices cnt).
AUXILIARY = {"first", "last", "made", "A", "W", "cnt:0", "cnt:step"}


def _extensions():
    """Claim → transitions extending its reference's (or the algorithm it extends) whose definitions a statement's
    vocabulary reads beside the reference's (thm:cotwidoftree as written: the source's relaxed-back distance,
    ``WIDTH_BFS_SOURCE``; tree Strahler: DFS's stack, ``DFS_STACK``, beside the fold on DFS)."""
    from proofs.cot_path_to_tree.algorithms.dfs import DFS_STACK
    from proofs.cot_path_to_tree.algorithms.dijkstra import WIDTH_BFS_SOURCE

    return {"thm:cotwidoftree:width": [WIDTH_BFS_SOURCE], "thm:cottreestrahler": [DFS_STACK]}


def _specs(claim):
    return [chk.spec for chk in claim.checks if hasattr(chk, "spec") and hasattr(chk, "construction")]


def _hand_definitions(vocab, transition, extensions=()) -> list[str]:
    """Definition facts of ``vocab`` that neither come from ``transition`` (or a transition extending it, whose
    states begin with its states) nor define an auxiliary symbol."""
    from symcot.algorithms.logic import Var
    from symcot.algorithms.transition import definitions

    step = Var("τ", lambda c, *_: 0, lambda c, *_: c.T, "step")
    generated = {f.name for f in definitions(transition, step, step)}
    for ext in extensions:
        shared = next((k for k, (a, b) in enumerate(zip(ext.state, transition.state)) if a != b),
                      min(len(ext.state), len(transition.state)))
        assert shared, f"{ext.name} and {transition.name} share no algorithm"
        assert not {v.name for v in ext.state[shared:]} & {v.name for v in transition.state}, \
            f"{ext.name} restates {transition.name}'s state"
        generated |= {f.name for f in definitions(ext, step, step)}
    return sorted(f.name for f in vocab.facts if f.kind == "definition" and f.name not in generated | AUXILIARY)


@pytest.mark.parametrize("claim_id", CLAIMS)
def test_the_algorithm_is_stated_once(claims, claim_id):
    # one transition per claim: the per-input reference, the batched one and the all-n definitions read it
    from symcot.algorithms.reference import Reference

    claim = claims[claim_id]
    refs = {id(s.reference): s.reference for s in _specs(claim)}
    assert refs and all(isinstance(r, Reference) for r in refs.values()), f"{claim_id}: a reference not a Reference"
    for spec in _specs(claim):
        assert spec.reference_batch is None or spec.reference_batch == spec.reference.batch
    for cons in _constructions(claim):
        if cons.all_n is None:
            continue
        ref = next(iter(refs.values()))
        tr = ref.transition
        vocab = cons.all_n.vocabulary
        state = {v.name for v in tr.state}
        assert state <= {s.name for s in vocab.symbols}, f"{claim_id}: the statement speaks of another algorithm"
        assert _hand_definitions(vocab, tr, _extensions().get(claim_id, ())) == [], \
            f"{claim_id}: definitions written beside the transition"


def test_a_definition_written_by_hand_beside_the_transition_is_found(claims):
    from symcot.algorithms.logic import Fact

    cons = _constructions(claims["thm:cotdfs"])[0]
    ref = _specs(claims["thm:cotdfs"])[0].reference
    vocab = cons.all_n.vocabulary
    again = Fact("traverse", (), lambda c: c.T >= 0, "definition", source="the step restated")
    copy = dataclasses.replace(vocab, facts=(*vocab.facts, again))
    assert _hand_definitions(copy, ref.transition) == ["traverse"]
    assert _hand_definitions(vocab, ref.transition) == []


def test_a_conclusion_is_stated_once():
    # a conclusion has one read and one answer, read by the per-input and the batched checker alike
    from symcot.check.spec import Conclusion

    assert {f.name for f in dataclasses.fields(Conclusion)} == {"text", "steps", "read", "answer", "trace"}
