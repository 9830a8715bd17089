"""The mirror's encoder (mirror.yaml `encoder`, routing/designs/datasource_mirror/encoder.py): which one
embeds the index and the question, what describe() and the playground say about it, a bad value named
with its file and line, and L2's voters embedded in one batch with the answers one at a time would give."""
from __future__ import annotations

import shutil

import pytest

from routing import load_router
from routing.core.errors import LexiconError
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, load_domain
from routing.designs.datasource_mirror.router import MirrorRouter
from routing.semantic import minilm

TODAY = "2026-01-22"
BUILT = minilm.dense_encoder() is not None
needs_transformer = pytest.mark.skipif(not BUILT, reason="the MiniLM transformer is not built (python -m routing build-encoder)")


def _factory_with(tmp_path, line: str):
    shutil.copytree(DEFAULT_LEXICON_ROOT / "factory", tmp_path / "factory")
    shutil.copytree(DEFAULT_LEXICON_ROOT / "_shared", tmp_path / "_shared")
    path = tmp_path / "factory" / "mirror.yaml"
    text = path.read_text(encoding="utf-8").replace("store: numpy\n", f"store: numpy\n{line}\n")
    path.write_text(text, encoding="utf-8")
    return text.splitlines().index(line) + 1


@needs_transformer
def test_auto_embeds_with_the_transformer_and_says_why():
    mirror = load_router("factory").describe()["mirror"]
    assert mirror["encoder"] == "transformer:minilm-l6"
    assert "encoder: auto" in mirror["encoder_why"] and "transformer" in mirror["encoder_why"]


@needs_transformer
def test_the_seed_example_is_close_under_the_transformer():
    # shared/seeds 003: "Show me the bots" canonicalises to "List machines", distance < 0.2
    r = load_router("factory").route("Show me the bots", today=TODAY).to_dict()
    assert r["canonical"] == "list machines" and r["layer"] == "L1" and r["nearest"]["distance"] < 0.2


@pytest.mark.parametrize("setting, name", [("table", "static:minilm-tokenlearn"), ("static", "static:minilm-static")])
def test_a_setting_picks_the_table(tmp_path, setting, name, monkeypatch):
    monkeypatch.delenv("ROUTING_ENCODER", raising=False)
    _factory_with(tmp_path, f"encoder: {setting}")
    router = MirrorRouter(load_domain("factory", tmp_path))
    assert router.describe()["mirror"]["encoder"] == name
    r = router.route("Show me the bots", today=TODAY).to_dict()
    assert r["datasource"] == "maintenance"


def test_routing_encoder_in_the_environment_wins(tmp_path):
    _factory_with(tmp_path, "encoder: transformer")
    router = MirrorRouter(load_domain("factory", tmp_path), environ={"ROUTING_ENCODER": "static"})
    mirror = router.describe()["mirror"]
    assert mirror["encoder"] == "static:minilm-static" and mirror["encoder_why"] == "ROUTING_ENCODER=static"


def test_an_unknown_encoder_names_the_file_and_line(tmp_path):
    line = _factory_with(tmp_path, "encoder: bert-large")
    with pytest.raises(LexiconError) as err:
        MirrorRouter(load_domain("factory", tmp_path))
    problem = next(p for p in err.value.problems if "encoder" in p.message)
    assert problem.file == "factory/mirror.yaml" and problem.line == line
    assert "auto, transformer, table, static" in problem.message and "bert-large" in problem.message


@pytest.mark.parametrize("query", ["brp pcs yg di-scrap di line cat kemarin?", "how long was the filler out of action yday arvo",
                                   "the big lathe keeps acting up, has anyone logged work on it?"])
def test_the_voters_batch_gives_each_voter_its_own_nearest_entry(query):
    router = load_router("factory")
    r = router.route(query, today=TODAY).to_dict()
    assert len(r["votes"]) >= 2  # L1 was not sure: L2 voted
    for vote in r["votes"]:
        alone = router.nearest(vote["text"])
        assert vote["datasource"] == alone["datasource"] and vote["nearest"] == alone["text"]
        assert vote["distance"] == pytest.approx(alone["distance"], abs=1e-3)
