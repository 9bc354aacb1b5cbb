"""The claims of *Chain-of-Thought Shows the Path to a Tree*, one module per claim or group of claims.

Each module declares ``CLAIM`` or ``CLAIMS`` (:class:`symcot.claims.Claim`): the statement, the construction
or gadget it is about, its readings and repairs, and the input families. ``symcot verify`` runs the modules
listed in :data:`MODULES`, in that order (a module missing from the list is not run, so nothing is picked
up by accident).
"""

#: The paper under check (read by the registry without importing this package).
TITLE = "Chain-of-Thought Shows the Path to a Tree"
SUBJECT = "Chain-of-Thought Shows the Path to a Tree (LaTeX source)"

#: label -> what the paper labels with it, and whether it is a statement that can be checked. A label that is not
#: (a definition) says in its text why it has no claim of its own; every other label must have a claim. Extracted
#: from the LaTeX source (``\\label{...}`` of theorems, lemmas, propositions, observations, numbered equations,
#: the algorithm and the definition); section and figure labels are left out.
LABELS: dict[str, tuple[str, bool]] = {
    "eq:dfsdynamic": ("equation: a definition (the DFS dynamic), used as the reference of thm:cotdfs", False),
    "obs:dynamicwidbfs": ("observation", True),
    "obs:dynamicstrdfs": ("observation", True),
    "eq:dynamicstrdfs": ("equation", True),
    "lem:bijectionpathtree": ("lemma", True),
    "prop:heightpathtree": ("proposition", True),
    "prop:widthpathtree": ("proposition", True),
    "algo:pathtotree": ("algorithm", True),
    "def:algorelationbycot": ("definition (CoT realization): the notion every construction check applies", False),
    "eq:depth-height": ("equation (in the proof of prop:heightpathtree)", True),
    "lem:bilinearstack": ("lemma", True),
    "thm:cotdfs": ("theorem", True),
    "thm:cotdijkstra": ("theorem", True),
    "thm:cotpathtotree": ("theorem", True),
    "eq:proprelu": ("equation", True),
    "thm:cottreestrahler": ("theorem", True),
    "eq:strahM": ("equation", True),
    "eq:strahc": ("equation", True),
    "eq:gatingTBstrahlertree": ("equation", True),
    "lem:shiftonehot": ("lemma", True),
    "lem:mMc": ("lemma", True),
    "thm:cotpathstrahler": ("theorem", True),
    "obs:strpathtwoMc": ("observation", True),
    "lem:widsupffn": ("lemma", True),
    "thm:cotwidoftree": ("theorem", True),
    "lem:addonetospecificheight": ("lemma", True),
    "eq:addonetospecificheight": ("equation (the statement of lem:addonetospecificheight)", True),
    "lem:addwidplus1": ("lemma", True),
    "eq:addwidplus1": ("equation (the statement of lem:addwidplus1)", True),
    "thm:cotwidofpath": ("theorem", True),
}

#: The claim modules of this package, in the order ``symcot verify`` and ``symcot claims`` take them.
MODULES: tuple[str, ...] = (
    "algo_pathtotree",
    "eq_depth_height",
    "eq_proprelu",
    "facts",
    "frv_identity",
    "gates",
    "ind_identities",
    "lem_addonetospecificheight",
    "eq_addonetospecificheight",
    "lem_addwidplus1",
    "eq_addwidplus1",
    "lem_bijectionpathtree",
    "lem_bilinearstack",
    "lem_mMc",
    "lem_shiftonehot",
    "lem_widsupffn",
    "obs_dynamicstrdfs",
    "obs_strpathtwoMc",
    "prop_heightpathtree",
    "prop_widthpathtree",
    "thm_cotdfs",
    "thm_cotdfs_phi",
    "thm_cotdijkstra",
    "thm_cotpathstrahler",
    "thm_cotpathtotree",
    "thm_cottreestrahler",
    "thm_cotwidofpath",
    "thm_cotwidoftree",
    "section3",
)
