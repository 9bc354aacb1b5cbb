

def test_polish_breaks_ties_between_equally_small_models_the_same_way():
    import z3

    from symcot.lemmas.solver import _polish

    x0, x1 = z3.Reals("x0 x1")
    for hard in ([x0 + x1 == 2, x0 >= 0, x1 >= 0], [x1 + x0 == 2, x1 >= 0, x0 >= 0]):
        m = _polish(hard, {"x": [x0, x1]}, [], 2000)
        assert m is not None
        assert [m.eval(v).as_long() for v in (x0, x1)] == [0, 2]
    m = _polish([z3.Or(x0 == 1, x0 == -1)], {"x": [x0]}, [], 2000)
    assert m is not None and m.eval(x0).as_long() == -1  # |x| ties, then the smaller x
