"""The references of :mod:`proofs.cot_path_to_tree.algorithms` on whole batches, vectorised with numpy.

Each function restates, over arrays, a per-input reference (which stays the definition): the DFS dynamic
and the Strahler fold along it (:mod:`.dfs`), the Dijkstra dynamic and BFS with ``twd``/``mwd``
(:mod:`.dijkstra`), Algorithm 1, the width counts and the Strahler fold along a Dyck word (:mod:`.paths`),
and the tree quantities the theorems' conclusions compare with (:mod:`.trees`). Results are
:class:`symcot.algorithms.batched.fields.Fields`. The tests check every one against its per-input reference
on every input up to 9 vertices; the batched checker spot-checks rows of every batch as it runs.
"""
