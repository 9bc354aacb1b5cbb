"""The claims of *Chain-of-Thought Shows the Path to a Tree*, one module per claim or group of claims.

Each module declares ``CLAIM`` or ``CLAIMS`` (:class:`symcot.claims.Claim`): the statement, the construction
or gadget it is about, its readings and repairs, and the input families. ``symcot verify`` runs the modules
listed in :data:`MODULES`, in that order (a module missing from the list is not run, so nothing is picked
up by accident).
"""

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
