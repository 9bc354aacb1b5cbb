"""Reference algorithms on whole batches of inputs, vectorised over the batch with numpy.

Each function here restates, over arrays, a reference of :mod:`symcot.algorithms` (which stays the
definition): the DFS dynamic and the Strahler fold along it (:mod:`.dfs`), the Dijkstra dynamic and BFS with
``twd``/``mwd`` (:mod:`.dijkstra`), Algorithm 1, the width counts and the Strahler fold along a Dyck word
(:mod:`.paths`), and the tree quantities the theorems' conclusions compare with (:mod:`.trees`). Their
results are :class:`~symcot.algorithms.batched.fields.Fields`: the state fields the per-input states have,
as arrays over ``(row, step)``. The test suite checks every one against its per-input reference on every
input up to 9 vertices; the batched checker spot-checks a few rows of every batch as it runs.
"""

from symcot.algorithms.batched.fields import Fields

__all__ = ["Fields"]
