"""The learned signal (routing.semantic.learned): a model trained on a domain's own examples when it
has enough of them, kept beside the domain, and what a person sees of it in a route."""
from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
import yaml
from conftest import write_csv

from routing import Router, Status
from routing.core.errors import LexiconError
from routing.core.lexicon import load_domain
from routing.quality.importer import IMPORTED_WEIGHTS_LEARNED, import_labelled_csv
from routing.semantic import learned
from routing.semantic.encoders import get_encoder

ROOT = Path(__file__).resolve().parent.parent
TODAY = "2026-01-22"

# Three intents about the same card: what tells them apart is the verb, not the noun.
INTENTS = {
    "card_lost": ["lost", "lose", "stolen", "misplaced", "cannot find", "someone took"],
    "card_arrival": ["not arrived", "still waiting for", "when will I get", "track the delivery of", "has not come", "expecting"],
    "card_declined": ["declined", "refused", "rejected at the shop", "not accepted", "keeps failing at checkout", "bounced"],
    "exchange_rate": ["exchange rate for", "conversion rate of", "how much is a euro in", "rate today for", "currency rate of", "fx rate for"],
}
OBJECTS = ["my card", "the debit card", "my new card", "the bank card", "my visa", "the card"]
OPENERS = ["", "hi,", "please help,", "hello", "urgent:", "quick question,"]
HELD_OUT = [
    ("someone took my visa yesterday", "card_lost"),
    ("my new card has not come yet", "card_arrival"),
    ("the debit card bounced at the shop", "card_declined"),
    ("what is the fx rate for dollars", "exchange_rate"),
]


def write_rows(path: Path, per_intent: int, seed: int = 5) -> Path:
    rng = random.Random(seed)
    held = {q for q, _ in HELD_OUT}
    rows = []
    for label, verbs in INTENTS.items():
        seen: set[str] = set()
        while len(seen) < per_intent:
            text = " ".join(x for x in (rng.choice(OPENERS), rng.choice(verbs), rng.choice(OBJECTS)) if x)
            if label == "exchange_rate":
                text = " ".join(x for x in (rng.choice(OPENERS), rng.choice(verbs), rng.choice(["dollars", "pounds", "yen", "euros"])) if x)
            if text not in held:
                seen.add(text)
        rows += [(t, label) for t in sorted(seen)]
    return write_csv(path, rows)


@pytest.fixture()
def big(lexicon_root, tmp_path) -> Path:
    """An imported domain with 4 x 60 examples: enough to learn from."""
    import_labelled_csv(write_rows(tmp_path / "cards.csv", 60), "cards", root=lexicon_root, holdout=0)
    return lexicon_root


def test_enough_examples_train_a_model_that_routes_new_phrasings(big):
    settings = yaml.safe_load((big / "cards" / "settings.yaml").read_text())
    assert settings["scoring"]["learned"] == IMPORTED_WEIGHTS_LEARNED["learned"] > 0  # on disk, editable
    router = Router.load("cards", big)
    assert router.learned is not None and router.learned.examples == 240
    for query, tool in HELD_OUT:
        res = router.route(query, today=TODAY)
        top = res.top or None
        assert top is not None and top.name == tool, (query, res.ranked_candidates[:2])
        assert top.score_breakdown.get("learned", 0) > 0  # the chart shows the learned bar
        assert any(e.startswith("learned: p ") for e in top.evidence)


def test_the_model_is_kept_beside_the_domain_and_retrained_only_when_examples_change(big, monkeypatch):
    Router.load("cards", big)
    cache = big / "cards" / learned.CACHE_FILE
    assert cache.is_file()
    calls = []
    real = learned._train
    monkeypatch.setattr(learned, "_train", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = Router.load("cards", big).route(HELD_OUT[0][0], today=TODAY)
    assert calls == []  # loaded, not trained
    tools = yaml.safe_load((big / "cards" / "tools.yaml").read_text())
    tools["tools"][0]["examples"].append("my card went missing on the train")
    (big / "cards" / "tools.yaml").write_text(yaml.safe_dump(tools, allow_unicode=True))
    Router.load("cards", big)
    assert calls == [1]  # new examples: a new model
    assert first.top.name == HELD_OUT[0][1]


@pytest.mark.parametrize("damage", ["garbage", "truncated"])
def test_a_broken_model_file_is_retrained_not_fatal(big, damage):
    Router.load("cards", big)
    cache = big / "cards" / learned.CACHE_FILE
    data = cache.read_bytes()
    cache.write_bytes(b"not a model" if damage == "garbage" else data[: len(data) // 2])
    res = Router.load("cards", big).route(HELD_OUT[2][0], today=TODAY)
    assert res.top is not None and res.top.name == HELD_OUT[2][1]
    with np.load(cache) as z:  # written again, whole
        assert z["W"].shape[1] == len(INTENTS)
    assert sorted(p.name for p in (big / "cards").iterdir() if p.name.startswith(".learned")) == [learned.CACHE_FILE]


def test_saves_racing_each_other_never_leave_a_half_written_model(tmp_path):
    """Two builds saving at once (the editor's impact preview builds outside the registry's lock)."""
    import threading

    path = tmp_path / learned.CACHE_FILE
    W = np.arange(200_000, dtype=np.float32).reshape(-1, 4)
    errors: list[str] = []

    def save():
        for _ in range(30):
            learned._save(path, key=np.array("k"), W=W)

    def read():
        for _ in range(200):
            try:
                with np.load(path) as z:
                    assert z["W"].shape == W.shape
            except FileNotFoundError:
                pass
            except Exception as exc:  # noqa: BLE001 - any unreadable file is the failure
                errors.append(type(exc).__name__)

    threads = [threading.Thread(target=save), threading.Thread(target=save), threading.Thread(target=read)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == [] and [p.name for p in tmp_path.iterdir()] == [learned.CACHE_FILE]


def test_training_is_deterministic(big, tmp_path):
    domain = load_domain("cards", big)
    enc = get_encoder()
    a = learned.train(domain, enc, cache=tmp_path / "a.npz")
    b = learned.train(domain, enc, cache=tmp_path / "b.npz")
    assert np.array_equal(a.W, b.W) and np.array_equal(a.V, b.V)
    p = a.probabilities("my card was declined")
    assert np.allclose(p, b.probabilities("my card was declined")) and abs(float(p.sum()) - 1) < 1e-5


def test_too_few_examples_no_model_and_its_weight_goes_to_the_example_signals(lexicon_root, tmp_path):
    import_labelled_csv(write_rows(tmp_path / "few.csv", 20), "few", root=lexicon_root, holdout=0)
    settings_path = lexicon_root / "few" / "settings.yaml"
    settings = yaml.safe_load(settings_path.read_text())
    assert "learned" not in settings["scoring"]  # 80 examples: the importer does not ask for a model
    settings["scoring"]["learned"] = 0.4  # a person asks for one anyway
    settings_path.write_text(yaml.safe_dump(settings))
    router = Router.load("few", lexicon_root)
    w = router.domain.settings.weights
    assert router.learned is None and w.learned == 0
    assert w.example + w.semantic == pytest.approx(settings["scoring"]["example"] + settings["scoring"]["semantic"] + 0.4)
    res = router.route("my card was stolen", today=TODAY)
    assert res.top is not None and res.top.name == "card_lost" and res.status is not Status.NOT_FOUND


def test_a_learned_weight_out_of_range_names_file_and_line(big):
    settings_path = big / "cards" / "settings.yaml"
    text = settings_path.read_text()
    settings_path.write_text(text.replace("learned: 0.4", "learned: 3"))
    with pytest.raises(LexiconError) as err:
        load_domain("cards", big)
    assert "scoring.learned" in str(err.value) and "settings.yaml" in str(err.value)


@pytest.mark.parametrize("query", ["???", "Ωμέγα πάντα", "🙂 🙂"])
def test_text_the_examples_never_use_gets_nothing_from_the_model(big, query):
    """The model's answer to text it has no feature of would be its prior alone: no learned part."""
    res = Router.load("cards", big).route(query, today=TODAY)
    assert all("learned" not in c["score_breakdown"] for c in res.ranked_candidates)
    assert res.status is not Status.ACTIVATED
