"""The stream checker (symcot.check.parallel): the first failure in stream order, on one process or several."""

import pytest

from symcot.check.parallel import check_stream
from symcot.check.pool import can_fork

needs_fork = pytest.mark.skipif(not can_fork(), reason="no fork start method here")


class _Bar:
    def __init__(self) -> None:
        self.n = 0

    def update(self, k: int) -> None:
        self.n += k


@needs_fork
def test_check_stream_reports_the_first_failure_in_stream_order(monkeypatch):
    monkeypatch.setattr("symcot.check.parallel.CHUNK", 7)
    bad = {45, 23, 80}  # 23 is in the fourth chunk, 45 and 80 later

    def per_input(x: int) -> str | None:
        return f"bad {x}" if x in bad else None

    bar = _Bar()
    one = check_stream(per_input, range(100), 100, 1, _Bar(), threshold=10)
    two = check_stream(per_input, range(100), 100, 2, bar, threshold=10)
    assert one == two == (24, (23, "bad 23"))
    assert bar.n == 24
    assert check_stream(lambda x: None, range(100), 100, 2, _Bar(), threshold=10) == (100, None)


def test_passed_items_count_as_that_many_passing_inputs():
    from symcot.check.parallel import Passed

    bar = _Bar()
    seen = []

    def per_input(x):
        seen.append(x)
        return "bad" if x == "b" else None

    assert check_stream(per_input, [Passed(5), "a", Passed(3), "b", "c"], 11, 1, bar) == (10, ("b", "bad"))
    assert seen == ["a", "b"] and bar.n == 10


def test_batch_items_yield_the_passes_then_the_failure_and_say_that_the_stream_ends():
    from types import SimpleNamespace

    from symcot.check.parallel import Passed, batch_items

    def drain(res):
        items, gen = [], batch_items(res)
        while True:
            try:
                items.append(next(gen))
            except StopIteration as stop:
                return items, stop.value

    assert drain(SimpleNamespace(checked=5, failure=None, error=None)) == ([Passed(5)], False)
    assert drain(SimpleNamespace(checked=3, failure=(2, "w", "mm"), error=None)) == ([Passed(2), ("w", "mm")], True)
    assert drain(SimpleNamespace(checked=1, failure=(0, "w", "mm"), error=None)) == ([("w", "mm")], True)
    import pytest

    with pytest.raises(ValueError):
        drain(SimpleNamespace(checked=0, failure=None, error=ValueError("batch")))
