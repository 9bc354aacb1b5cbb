"""Rendering a mutation analysis: text, Markdown and JSON say the score, survivors, scratch blocks and the default."""

import json
import textwrap
from dataclasses import replace

import pytest

from symcot.report.mutation import (
    advice,
    analysis_dict,
    kill_sizes,
    render_markdown,
    render_text,
    scratch_blocks,
    write_json,
)
from symcot.study.adequacy import Settings, analyse
from symcot.study.coverage import coverage
from symcot.study.mutation import target_of
from tests.check.prefix_sum import claim


@pytest.fixture(scope="module")
def deep():
    t = target_of(claim(deep=True))
    a = analyse(t, Settings(size=4, sample=0, reach=6, budget=30, per_size=2))
    a.coverage = coverage(t.make(), t.spec, t.families, 4)
    return a


def test_the_text_says_score_survivors_scratch_blocks_and_the_default(deep):
    text = render_text(deep)
    killed, bc = deep.score
    assert f"mutation score: {killed}/{bc} behaviour-changing mutants killed at n = 4" in text
    survivors = [line for line in text.splitlines() if line.startswith("  SURVIVOR ")]
    assert len(survivors) == len(deep.by_status("exposed")) == 4
    want = ("fails at n = 5 (every input of that size, bit strings) on 00001: step 5, layer 1, block sum: "
            "expected [1], got [2]")
    assert any(want in s and "the runs part at prompt token x_4, layer 1, block sum" in s for s in survivors)
    assert "scratch-only in block flg (not compared by the check): 6 mutants" in text
    assert "coverage: 9 regions" in text and "saturation n = 2 (none new up to n = 4)" in text
    assert "\n  recommended default size: 6 (current 4; largest kill size 5 + 1 = 6; coverage saturation 2)\n" in text
    assert text.endswith(advice_lines(deep))


def advice_lines(a):
    return "\n".join(textwrap.wrap(advice(a), 110, initial_indent="    ", subsequent_indent="    "))


def test_the_advice_says_what_a_kill_size_is_and_why_the_default_rises(deep):
    why = " ".join(advice(deep).split())
    assert "kill size is the least input size n at which the claim's check first refutes it" in why
    assert "The largest kill size here is 5 (4 mutants, e.g. " in why and "a default of at least 6, one size" in why
    assert "The last new activation region appears at n = 2" in why
    assert why.endswith("The current default 4 is below that: raise the claim's default_max_size to 6.")


def test_the_advice_keeps_a_larger_default_and_says_why(deep):
    bigger = replace(deep, current_default=8)
    assert bigger.recommended_default() == 8
    why = advice(bigger)
    assert "a default of at least 6, one size more" in why
    assert "The current default 8 is already at least that, so the advice keeps it: it never lowers a default" in why
    quiet = replace(deep, results={}, coverage=None)
    assert advice(quiet) == ("No mutant changed the check's verdict on the inputs compared, so the mutants ask for no "
                             "particular size. The advice keeps the current default 4.")


def test_kill_sizes_and_scratch_blocks(deep):
    ks = kill_sizes(deep)
    assert max(ks) == 5 and sum(ks.values()) == deep.score[1]
    assert list(scratch_blocks(deep)) == ["flg"]


def test_json_and_markdown(deep, tmp_path):
    d = analysis_dict(deep)
    assert d["recommended_default"] == 6 and d["max_kill_size"] == 5 and d["counts"]["exposed"] == 4
    assert len(d["mutants"]) == d["decided"] == d["selected"]
    write_json(tmp_path / "m.json", [deep], {"command": "test"})
    back = json.loads((tmp_path / "m.json").read_text())
    assert back["schema"] == "symcot-mutate/1" and back["analyses"][0]["claim"] == "demo:prefixsum"
    md = render_markdown([deep], {"command": "test"})
    assert "| `demo:prefixsum` | as-written | 57 | 57 |" in md and "| 2 | 4 | 6 |" in md
