"""The shared records: one class, whichever module a caller imports it from."""

from symcot.model import records, semantics
from symcot.model.attention import Selection


def test_records_are_shared_by_the_fast_and_the_general_loop():
    assert semantics.HeadChoice is records.HeadChoice and semantics.LayerRecord is records.LayerRecord
    sel = Selection("h", 2, 5, 3, 2, False, [2], "unique", [(2, 1)])
    assert isinstance(sel, records.HeadChoice) and sel.margin == 2
