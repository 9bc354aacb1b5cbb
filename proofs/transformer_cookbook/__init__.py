"""The feed-forward chapter of a draft of *The Transformer Cookbook*, stated as symcot claims.

The subject is the draft at commit 582e0e1 (4 February 2025) of ``pentagonalize/Transformer-Cookbook``, chapter 3
"Feed-Forward Layers" (with chapter 2's definitions): every verdict is about that draft only. One claim module per
labelled recipe, keyed by the section's label; the weights are stated once, in :mod:`.recipes`, and every claim
module reads them from there. The ReLU recipes are decided by the Z3 lemma prover (for every dimension where the
recipe has one and its rows are local; otherwise size by size, as each module says); the GELU statements about
Taylor expansions by SymPy, and the largest error of the GELU approximations by certified arb balls.
"""

#: The paper under check (read by the registry without importing this package).
TITLE = "The Transformer Cookbook (draft)"
SUBJECT = ("a draft of The Transformer Cookbook, LaTeX source at commit 582e0e1 (4 February 2025) of "
           "pentagonalize/Transformer-Cookbook, chapter 3 (feed-forward networks), chapter 4 (self-attention), "
           "chapter 5 (positional encodings), chapter 6 (layer normalisation) and chapter 8 (recipes)")

#: label -> what the draft labels with it, and whether it names a statement that can be checked. Every
#: ``\\label`` of chapter 3 (the section labels name the recipes; ``eq:gelu`` is the tanh line of GELU's definition).
LABELS: dict[str, tuple[str, bool]] = {
    "eq:gelu": ("equation: GELU ≈ its tanh form and x σ(1.702x) (no error stated: Taylor agreement, largest error)",
                True),
    "sec:ffnn_cpwl": ("section: a univariate CPWL function by one hidden layer of ReLU units", True),
    "sec:ffnn_identity": ("section: the identity by a zero FFN and the residual connection", True),
    "sec:ffnn_cancel_residual": ("section: f' = f plus units ±I that cancel the residual connection", True),
    "sec:ffnn_minmax": ("section: min and max of two reals by an FFN", True),
    "sec:ffnn_addition": ("section: add coordinates d1 and d2 of the stream into d3", True),
    "sec:ffnn_boolean": ("section: the Boolean connectives and any φ by its full DNF", True),
    "sec:ffnn_conditional": ("section: if p then φ else ψ by two ReLU units per coordinate", True),
    "sec:ffnn_multiplication": ("section: approximate multiplication with GELU (Taylor expansions at 0)", True),
    # chapter 4 (self-attention), begun: a model description per badge (module attention)
    "eq:att_logit": ("equation: the score s_ij = q_i · k_j / √d_hid, a definition, run by every SMAT claim", False),
    "eq:att_weight": ("equation: α_i = softmax(s_i), a definition, run by every SMAT claim (ch4:quadratic-"
                      "maximization's temperature rule measures it against the hard rules)", False),
    "sec:att_dnf": ("section: \"Dot-Product and Disjunctive Normal Form\", commented out (\"ToDo\"): no construction "
                    "in this draft", False),
    "sec:identity-attention": ("section: zero Q, K, V and the residual pass the input unchanged", True),
    "sec:uniform-attention": ("section: zero Q, K and a diagonal V average chosen dimensions", True),
    "ch4:quadratic-maximization": ("section (no label; id ours): table lookup by s = 2 a_i j - j²", True),
    "ch4:predecessor": ("section (no label; id ours): periodic v_i and A make position i attend to i - 1", True),
    "eq:maximising-attention": ("equation: v_i = (cos θ_i, sin θ_i, (-1)^i 10) and the score A v_i · v_j", True),
    "sec:tie-breaking": ("section: ±1/(j+1) on {0,1} scores makes AHAT simulate leftmost/rightmost UHAT", True),
    # chapter 5 (positional encodings): positions computed by uniform attention over a BOS (module positional)
    "ch5:one-over-i": ("subsection (no label; id ours): 1/i by future-masked uniform attention and a BOS", True),
    "ch5:i-over-n": ("subsection (no label; id ours): i/n by unmasked uniform attention and a BOS", True),
    "ch5:sinusoidal": ("section (no label; id ours): PE(p, 2i), PE(p, 2i+1) for 1 ≤ i ≤ d, the d coordinates of "
                       "an encoding", True),
    "ch5:rope": ("subsection (no label; id ours): RoPE; the relative position determines the relative rotation",
                 True),
    "ch5:alibi": ("subsection (no label; id ours): ALiBi's bias favours recent keys; uniform attention only with no "
                  "bias", True),
    "ch5:powers-of-i": ("section (no label; id ours): \"four consecutive powers of i\" (\"No idea why four are "
                        "needed\"): no construction in this draft", False),
    "ch5:learned": ("section (no label; id ours): learned positional encodings, prose with no weights or formula: no "
                    "construction in this draft", False),
    "eq:relative-key-keys": ("equation: Shaw et al.'s relative keys e_ij, a definition (the draft claims nothing "
                             "checkable of it)", False),
    "eq:relative-key-values": ("equation: Shaw et al.'s relative values z_i, a definition (no claim in the draft)",
                               False),
    "eq:relative-key-query": ("equation: Huang et al.'s query-key-relative score, a definition (no claim in the "
                              "draft)", False),
    # chapter 6 (layer normalisation): the recipes that give weights (module layernorm)
    "sec:layernorm": ("chapter: LayerNorm's and RMSNorm's definitions (run by symcot.model's Norm), no recipe",
                      False),
    "ch4:layernorm-hash": ("subsection (no label; id ours): lh(a) = LN(a, 1, -a, -1) = (a, 1, -a, -1)/√(2a² + 2)",
                           True),
    "ch6:zero-mean": ("subsection (no label; id ours): x ‖ -x has mean 0, so LN only scales it", True),
    "ch6:normalize-pm1": ("subsection (no label; id ours): activations clipped to ±ε, then LN gives ±1", True),
    "sec:ln_hash": ("subsection: the layer-norm hash φ(x, y) = LN(x, y, -x, -y), and φ(x, y) = φ(x/y)", True),
    "eq:integer-key-retrieval": ("equation: φ(i) · φ(j) = 1 ⟺ i = j", True),
    # chapter 8 (recipes): modules assembly_heads, assembly_ngram, assembly_mod,
    # assembly_comparison; the sections with no construction are listed with the reason
    "ch8:induction-heads": ("section (no label; id ours): Induction Heads, no construction in this draft (\"Will "
                            "write\")", False),
    "sec:multihead": ("section: H single-head layers on (H+1)d coordinates simulate an H-head layer", True),
    "eq:n-gram-assumption": ("equation: the n-gram assumption, a definition (the reference law of ch8:n-gram)",
                             False),
    "fig:transformer-n-gram-label": ("figure: the heads of a 4-gram transformer, an illustration of ch8:n-gram",
                                     False),
    "ch8:n-gram": ("section (no label; id ours): n - 1 hard-attention heads, an AND MLP and E = log p give an "
                   "n-gram LM's next-symbol law", True),
    "eq:transformer-ngram-function": ("equation: the score -|⟨q, k⟩|, a definition (used by eq:hard-attention-scores "
                                      "and ch8:n-gram)", False),
    "eq:hard-attention-scores": ("equation: ⟨(t - h, -1), (1, j)⟩ under -|·| is -|j - t + h|, maximal at j = t - h",
                                 True),
    "eq:hard-attention-values": ("equation: the value map onehot(y_t), a definition (run as part of ch8:n-gram)",
                                 False),
    "ch8:mod": ("section (no label; id ours): parity and MOD m without positional encodings by the layer-norm hash",
                True),
    "ch8:eliza": ("section (no label; id ours): ELIZA, no construction in this draft (\"Will write\")", False),
    "sec:assembly_comparison": ("section: comparing two counts by gtz and an FFN, the result as a Boolean", True),
    # chapter 8, § Dyck Language: the three recipes (modules dyck_smat, dyck_uhat, dyck_ahat)
    "ch8:dyck-smat": ("subsection (no label; id ours): one SMAT layer, one head, recognises Dyck-1", True),
    "ch8:dyck-uhat": ("subsection (no label; id ours): a (D+1)-layer UHAT recognises Dyck-(k, D)", True),
    "ch8:dyck-ahat": ("subsection (no label; id ours): a two-layer AHAT generates Dyck-(k, D) (next-token sets)",
                      True),
}

#: The claim modules of this package, in the order ``symcot verify`` and ``symcot claims`` take them.
MODULES: tuple[str, ...] = (
    "ffnn_cpwl",
    "ffnn_identity",
    "ffnn_cancel_residual",
    "ffnn_minmax",
    "ffnn_addition",
    "ffnn_boolean",
    "ffnn_conditional",
    "ffnn_multiplication",
    "eq_gelu",
    "attention",
    "attention_temperature",
    "attention_predecessor",
    "attention_ties",
    "positional",
    "positional_rotary",
    "positional_alibi",
    "layernorm",
    "assembly_heads",
    "assembly_ngram",
    "assembly_mod",
    "assembly_comparison",
    "dyck_smat",
    "dyck_uhat",
    "dyck_ahat",
)
