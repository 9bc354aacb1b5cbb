"""The papers symcot checks, one package each; ``symcot verify`` runs every package listed in :data:`PAPERS`.

- :mod:`proofs.cot_path_to_tree`: *Chain-of-Thought Shows the Path to a Tree* (the DFS, Dijkstra/BFS,
  path → tree, Strahler and width decoders, and their feed-forward lemmas).
- :mod:`proofs.transformer_cookbook`: the feed-forward chapter of a draft of *The Transformer Cookbook*.

A paper package has the shape of a user's claims directory (``MODULES``, ``TITLE``, ``SUBJECT``, ``LABELS`` in
its ``__init__.py``; one module per claim); ``symcot verify --proofs proofs/<package>`` runs one of them.
"""

#: The paper packages, in the order ``symcot verify`` takes them.
PAPERS: tuple[str, ...] = ("cot_path_to_tree", "transformer_cookbook")
