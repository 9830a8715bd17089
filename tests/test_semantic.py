"""The embedding layer: encoders (static, OpenAI-compatible via the fake server, cached), vector
stores (numpy; Chroma when installed), and the semantic signal of design `tools`."""
from __future__ import annotations


import numpy as np
import pytest

from routing.core.lexicon import load_domain
from routing.core.router import Router
from routing.core.scoring import _match_type
from routing.semantic import CachedEncoder, NumpyStore, OpenAIEncoder, get_encoder
from routing.semantic.store import get_store
from tests.fake_openai import FakeOpenAI


def test_static_encoder_shape_norm_and_meaning():
    enc = get_encoder("static")
    m = enc.encode(["count operators on active shift", "how many workers are on shift", "stock level of steel sheets", ""])
    assert m.dtype == np.float32 and m.shape == (4, enc.dimension) and enc.dimension == 128
    assert np.allclose(np.linalg.norm(m[:3], axis=1), 1.0, atol=1e-5)
    assert not m[3].any()  # an empty text is the zero vector, not NaN
    assert m[0] @ m[1] > m[0] @ m[2]  # the paraphrase is closer than another topic
    assert enc.encode([]).shape == (0, enc.dimension)


def test_static_encoder_matches_model2vec_reference():
    from model2vec import StaticModel

    from routing.semantic import DEFAULT_STATIC_PATH

    ref = StaticModel.from_pretrained(str(DEFAULT_STATIC_PATH)).encode(["Café résumé, stock-level of SKU-42?"])[0]
    ours = get_encoder("static").encode(["Café résumé, stock-level of SKU-42?"])[0]
    assert float(ref @ ours / np.linalg.norm(ref)) > 0.9999


def test_openai_encoder_against_fake_server_with_cache(tmp_path):
    with FakeOpenAI() as fake:
        enc = CachedEncoder(OpenAIEncoder("text-embedding-3-small", base_url=fake.url, api_key="k"), tmp_path / "c.sqlite")
        a = enc.encode(["open work orders", "open work orders today"])
        assert a.shape == (2, 64) and enc.name == "openai:text-embedding-3-small"
        assert [r.get("model") for r in fake.requests] == ["text-embedding-3-small"]
        b = enc.encode(["open work orders", "scrap this month"])  # one cached, one new
        assert np.allclose(a[0], b[0])
        assert fake.requests[-1]["input"] == ["scrap this month"]
        assert (enc.hits, enc.misses) == (1, 3)
    # A fresh process-level cache object reads the same file: no endpoint needed any more.
    again = CachedEncoder(OpenAIEncoder("text-embedding-3-small", base_url="http://127.0.0.1:9/v1", api_key="k"), tmp_path / "c.sqlite")
    assert np.allclose(again.encode(["scrap this month"])[0], b[1])


def test_numpy_store_nearest_first_with_distance():
    s = NumpyStore(2)
    s.add(["a", "b", "c"], np.array([[1, 0], [0, 1], [0.6, 0.8]], np.float32), [{"x": 1}, {"x": 2}, {"x": 3}])
    hits = s.query(np.array([1, 0], np.float32), k=2)
    assert [h.id for h in hits] == ["a", "c"] and hits[0].distance == 0.0 and abs(hits[1].distance - 0.4) < 1e-6
    assert hits[1].metadata == {"x": 3}
    assert NumpyStore(2).query(np.array([1, 0], np.float32)) == []
    with pytest.raises(ValueError, match="unknown vector store"):
        get_store("faiss", 2)


def test_chroma_store_uses_our_vectors(tmp_path):
    pytest.importorskip("chromadb", reason="chromadb is an optional extra (requirements-extras.txt)")
    enc = get_encoder("static")
    s = get_store("chroma", enc.dimension, path=str(tmp_path / "db"), collection="mirror-test", encoder=enc)
    texts = ["count operators on active shift", "stock level of steel sheets"]
    s.add(["hr", "inv"], enc.encode(texts), [{"ds": "hr"}, {"ds": "inventory"}])
    hit = s.query(enc.encode(["how many operators on shift"])[0], 1)[0]
    assert hit.id == "hr" and hit.metadata["ds"] == "hr"


def test_match_type_names_the_signal_that_carried():
    assert _match_type({"example": 0.6, "action": 0.1}) == "example"
    assert _match_type({"semantic": 0.5, "example": 0.2}) == "semantic"
    assert _match_type({"semantic": 0.5, "keyword": 0.3}) == "hybrid"
    assert _match_type({"keyword": 0.5, "semantic": 0.3}) == "hybrid"
    assert _match_type({"keyword": 0.5, "semantic": 0.1}) == "keyword"
    assert _match_type({"pattern": 0.3, "semantic": 0.6}) == "pattern"


def _with_semantic(domain, weight):
    return domain.with_weights(semantic=weight)


def test_semantic_signal_only_when_weighted_and_in_breakdown():
    dom = load_domain("accounting")
    assert Router(dom).encoder is None  # weight 0: no index built, nothing scored
    router = Router(_with_semantic(dom, 0.3))
    assert router.encoder is not None
    res = router.route("which customers have not paid what they owe me", today="2026-01-22")
    top = res.matches[0]
    assert "semantic" in top.score_breakdown
    assert abs(sum(top.score_breakdown.values()) - top.confidence) < 1e-3
    assert any(e.startswith("semantic:") for e in top.evidence)


def test_imported_domain_gets_semantic_weight(tmp_path):
    import shutil
    from pathlib import Path

    from routing.quality.importer import import_labelled_csv

    shutil.copytree(Path("lexicons/_shared"), tmp_path / "_shared")
    csv = tmp_path / "d.csv"
    rows = ["text,category"] + [f"where is my card {i},card_arrival" for i in range(6)] + [f"exchange rate for euro {i},exchange_rate" for i in range(6)]
    csv.write_text("\n".join(rows) + "\n")
    import_labelled_csv(csv, "mini", root=tmp_path, holdout=0.0)
    dom = load_domain("mini", tmp_path)
    assert dom.settings.weights.semantic > 0
    res = Router(dom).route("has my new card shipped yet", today="2026-01-22")
    assert res.matches and res.matches[0].name == "card_arrival"
    assert res.matches[0].score_breakdown.get("semantic", 0) > 0


def test_factory_mirror_on_chroma_store(tmp_path):
    pytest.importorskip("chromadb", reason="chromadb is an optional extra (requirements-extras.txt)")
    from routing import load_router

    router = load_router("factory", store="chroma", store_options={"path": str(tmp_path / "db")})
    assert type(router.store).__name__ == "ChromaStore" and len(router.store) == len(router.entries)
    r = router.route("how many guys are working on the floor", today="2026-01-22").to_dict()
    assert r["layer"] == "L1" and r["datasource"] == "hr"
    again = load_router("factory", store="chroma", store_options={"path": str(tmp_path / "db")})
    assert len(again.store) == len(router.entries)  # persisted: not added twice
