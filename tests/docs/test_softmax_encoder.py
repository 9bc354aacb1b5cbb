"""docs/examples/softmax_encoder: the tutorial's encoder claim is the file, and its verdicts are the ones shown."""

import re
from pathlib import Path

from symcot.check.context import RunContext
from symcot.check.exhaustive import Progress
from symcot.registry import claims_of, discover, import_modules

ROOT = Path(__file__).resolve().parent.parent.parent
EXAMPLE = ROOT / "docs" / "examples" / "softmax_encoder" / "softmax_encoder.py"


def test_the_tutorials_encoder_is_the_example_file():
    text = (ROOT / "docs" / "tutorial.md").read_text()
    blocks = re.findall(r"```python\n(\"\"\"demo:prefixshare.*?)```", text, flags=re.S)
    assert blocks == [EXAMPLE.read_text()]


def test_the_example_is_verified_as_written_and_its_mutant_refuted():
    claim = claims_of(import_modules(discover(EXAMPLE.parent)))["demo:prefixshare"]
    rows = [chk.run(RunContext(claim.id, 6, Progress(False))) for chk in claim.checks]
    assert [(r.variant, r.verdict, r.max_size) for r in rows] == [("as-written", "verified", 6),
                                                                   ("strict", "refuted", None)]
    cex = rows[1].counterexample
    assert (cex["input"]["string"], cex["position"], cex["layer"], cex["block"]) == ("a", 0, 1, "m")
