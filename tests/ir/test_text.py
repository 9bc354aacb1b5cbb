"""Expressions and matrices as plain text in messages (no LaTeX on a terminal)."""

import sympy as sp

from symcot import Layout, Map, n
from symcot.errors import DimensionError
from symcot.ir.text import plain, text


def test_a_matrix_reads_as_rows():
    assert plain(sp.latex(sp.Matrix([[1, 2], [3, 4]]))) == "[[1, 2], [3, 4]]"
    assert plain(r"\left[\begin{smallmatrix}1 & 0 \\ 0 & 1\end{smallmatrix}\right]") == "[[1, 0], [0, 1]]"


def test_size_errors_print_plain_text():
    lay = Layout("p", [("pos", n), ("cnt", 2)])
    x = lay.vars()
    assert text(x.pos) == "π_pos"
    try:
        Map("W", lay, lay, {"cnt": sp.Matrix([[1, 2, 3], [3, 4, 5]]) @ x.cnt}, keep=["pos"])
    except DimensionError as e:
        assert str(e) == "matrix [[1, 2, 3], [3, 4, 5]] has 3 columns but is applied to π_cnt of size 2"
    else:
        raise AssertionError("a 2 × 3 matrix applied to a block of 2 is refused")
    try:
        Map("W", lay, lay, {"cnt": x.pos}, keep=["pos"])
    except DimensionError as e:
        assert str(e) == "W: block 'cnt' has size 2 but is assigned an expression of size n: π_pos"
    else:
        raise AssertionError("a block of n assigned to a block of 2 is refused")
