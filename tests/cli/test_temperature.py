"""``symcot temperature``: the table of one claim, and one-line errors."""

import pytest

from symcot.cli import main


def test_temperature_table(capsys):
    assert main(["temperature", "ch4:quadratic-maximization:softmax", "--max-size", "4"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].startswith("ch4:quadratic-maximization:softmax: rule β(n) = (ln(n - 1) + ln(2n - 3))")
    row4 = next(line for line in lines if line.strip().startswith("4 "))
    assert "[2.7081, 2.7081]" in row4 and "2.7090" in row4 and row4.split()[-4:] == ["agrees", "fails", "fails",
                                                                                       "fails"]
    assert "(2.30" in row4  # the measured bracket around ln 10


@pytest.mark.parametrize("argv,message", [
    (["sec:tie-breaking"], "has no softmax temperature check"),
    (["ch4:quadratic-maximization:softmax", "--tol", "x"], "--tol must be a rational"),
    (["ch4:quadratic-maximization:softmax", "--tol", "-1"], "--tol must be positive"),
    (["ch4:quadratic-maximization:softmax", "--max-size", "0"], "--max-size must be at least 1"),
])
def test_temperature_errors_are_one_line(argv, message, capsys):
    assert main(["temperature", *argv]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and message in err[0]
