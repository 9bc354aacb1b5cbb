"""Pictures of a replay: a heatmap of the generated tokens (steps × named blocks) beside the input drawn.

Needs matplotlib (``pip install 'symcot[plot]'``). Values are exact in symcot; they are converted to
floats here for colouring only, and the exact values stay in the trace and reports.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from symcot.check.trace import Trace
from symcot.errors import SymcotError
from symcot.inputs.graphs import Digraph


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise SymcotError("--plot needs matplotlib: pip install 'symcot[plot]'") from None
    return plt


def _tree_positions(g: Digraph, root: int) -> dict[int, tuple[float, float]]:
    """Layered drawing: depth downwards, leaves left to right in DFS order (lowest index first)."""
    pos: dict[int, tuple[float, float]] = {}
    nxt = [0.0]
    nbrs = {u: g.out_neighbors(u) for u in range(g.n)}

    def place(u: int, parent: int | None, depth: int) -> float:
        kids = [v for v in nbrs[u] if v != parent]
        if not kids:
            x = nxt[0]
            nxt[0] += 1
        else:
            xs = [place(v, u, depth + 1) for v in kids]
            x = sum(xs) / len(xs)
        pos[u] = (x, -depth)
        return x

    place(root, None, 0)
    return pos


def plot_trace(trace: Trace, path: str | Path, graph: Digraph | None = None, root: int | None = None,
               word: str | None = None) -> None:
    """Write a PNG or SVG (by the file extension): the token heatmap and, if given, the input."""
    plt = _pyplot()
    path = Path(path)
    if path.suffix.lower() not in (".png", ".svg", ".pdf"):
        raise SymcotError(f"--plot writes .png, .svg or .pdf, not {path.suffix or 'a file without extension'}")
    lay = trace.layout
    rows = [trace.prompt[-1]] + [st.token for st in trace.steps]
    data = [[float(v) for v in r] for r in rows]
    has_input = graph is not None or word is not None
    fig, axes = plt.subplots(1, 2 if has_input else 1, figsize=(14 if has_input else 10, 0.35 * len(rows) + 2.5),
                             gridspec_kw={"width_ratios": [3, 1]} if has_input else None, squeeze=False)
    ax = axes[0][0]
    vmax = max((abs(v) for r in data for v in r), default=1.0) or 1.0
    im = ax.imshow(data, aspect="auto", cmap="RdBu_r", vmin=-vmax, vmax=vmax, interpolation="nearest")
    ax.set_yticks(range(len(rows)), [f"y_{t}" for t in range(len(rows))])
    centers, names = [], []
    for b in lay.names:
        o, s = lay.offsets[b], lay.sizes[b]
        centers.append(o + (s - 1) / 2)
        names.append(b)
        ax.axvline(o - 0.5, color="black", linewidth=0.6)
    ax.set_xticks(centers, names, rotation=60, fontsize=8)
    for t, st in enumerate(trace.steps, 1):
        if st.mismatches:
            ax.axhline(t, color="red", linewidth=2, alpha=0.5)
    ax.set_title(f"{trace.construction}: generated tokens (red rows differ from the reference)", fontsize=9)
    fig.colorbar(im, ax=ax, fraction=0.03)
    if has_input:
        ax2 = axes[0][1]
        if word is not None:
            hs = [0]
            for ch in word:
                hs.append(hs[-1] + (1 if ch == "U" else -1))
            ax2.plot(range(len(hs)), hs, marker="o", color="tab:blue")
            ax2.set_title(f"Dyck path {word}", fontsize=9)
            ax2.set_xlabel("step")
            ax2.set_ylabel("height")
        elif graph is not None:
            import networkx as nx

            g = graph.to_networkx()
            if root is not None and graph.is_symmetric() and len(graph.arcs) == 2 * (graph.n - 1):
                pos = _tree_positions(graph, root)
                nx.draw_networkx(g.to_undirected(), pos, ax=ax2, node_color="#cde", node_size=300, font_size=8)
            else:
                nx.draw_networkx(g, nx.circular_layout(g), ax=ax2, node_color="#cde", node_size=300, font_size=8,
                                 arrows=True)
            ax2.set_title("input" + (f" (source {root})" if root is not None else ""), fontsize=9)
            ax2.axis("off")
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
