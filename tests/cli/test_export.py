"""``symcot export``: numpy and torch files that load back, and one-line errors."""

import builtins

import numpy as np
import pytest

from symcot.cli import main
from symcot.export import load_npz


def test_export_numpy_and_torch(tmp_path, capsys):
    pytest.importorskip("torch")
    npz, pt = tmp_path / "dfs.npz", tmp_path / "dfs.pt"
    assert main(["export", "thm:cotdfs", "--n", "5", "--format", "numpy", "-o", str(npz)]) == 0
    assert main(["export", "thm:cotdfs", "--n", "5", "--format", "torch", "-o", str(pt)]) == 0
    assert "d = 33, 2 layers, heads per layer [0, 2]" in capsys.readouterr().out
    state, meta = load_npz(npz)
    assert meta["claim"] == "thm:cotdfs" and meta["d_model"] == 33
    assert meta["sizes"] == {"n": 5} and meta["vertices"] == 5
    assert state["blocks.1.attn.W_Q.0.bilinear_weight"].shape[0] == 5
    from symcot.export import load_torch

    model = load_torch(pt)
    for k, v in model.state_dict().items():
        assert np.array_equal(v.numpy(), state[k])
    # the example prompt (the path on 5 vertices, source 0) runs: DFS walks to the end and back
    import torch

    ex = meta["example"]
    y = model.generate(torch.tensor([ex["prompt"]], dtype=torch.float64), 9)
    cur = model.block("cur", y)[0].argmax(-1).tolist()
    assert cur[:5] == [1, 2, 3, 4, 3] and ex["input"]["tree"] == "path"


def test_export_with_lambda(tmp_path, capsys):
    out = tmp_path / "s.npz"
    assert main(["export", "thm:cottreestrahler", "--variant", "repaired", "--n", "4", "--lam", "9",
                 "--format", "numpy", "-o", str(out)]) == 0
    assert "λ = 9" in capsys.readouterr().out
    _, meta = load_npz(out)
    assert meta["constants"] == {"lambda": "9"} and meta["variant"] == "repaired"


@pytest.mark.parametrize("argv,message", [
    (["thm:cotdfs", "--n", "0", "--format", "numpy", "-o", "x.npz"], "--n must be at least 1"),
    (["thm:cotdfs", "--n", "3", "--lam", "2", "--format", "numpy", "-o", "x.npz"], "has no constant λ"),
    (["thm:cotdfs", "--n", "3", "--lam", "abc", "--format", "numpy", "-o", "x.npz"], "--lam must be an integer"),
    (["thm:cotdfs", "--n", "3", "--format", "numpy", "-o", "/nonexistent/x.npz"], "does not exist"),
    (["thm:nope", "--n", "3", "--format", "numpy", "-o", "x.npz"], "unknown claim"),
    (["lem:addwidplus1", "--n", "3", "--format", "numpy", "-o", "x.npz"], "with no construction: nothing to export"),
])
def test_export_errors_are_one_line(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["export", *argv]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err


def test_export_without_torch_says_how_to_install(tmp_path, capsys, monkeypatch):
    real = builtins.__import__

    def no_torch(name, *a, **k):
        if name == "torch" or name.startswith("torch."):
            raise ImportError("No module named 'torch'")
        return real(name, *a, **k)

    monkeypatch.setattr(builtins, "__import__", no_torch)
    assert main(["export", "thm:cotdfs", "--n", "3", "--format", "torch", "-o", str(tmp_path / "d.pt")]) == 2
    err = capsys.readouterr().err.strip()
    assert "pip install 'symcot[torch]'" in err and "torch==2.13.0" in err
    assert not (tmp_path / "d.pt").exists()
