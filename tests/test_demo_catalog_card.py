"""What the playground shows on a catalog imported from descriptions (issue 22's demo): the "why" chart
is truthful (each bar's solid length is the confidence, a calibration that takes points off is a
hatched end, nothing left of zero, every confidence written inside the plot area) and the words of the
card, chart and help say what a descriptions-only tool is known by (its description, not "similar
example questions" it does not have)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from routing import Router
from routing.quality.tool_import import import_tool_catalog
from ui.charts import score_breakdown_figure
from ui.signal_words import NO_POINTS, Knowledge, knowledge_of, legend_words, match_words, why_help

ROOT = Path(__file__).resolve().parent.parent
THRESHOLDS = {"high": 0.85, "medium": 0.25, "low": 0.08}
# A calibrated runner-up as the closing note saw it: its lexical sum past "medium", a negative
# calibration part, and a confidence whose label needs three decimals (0.079 against low 0.08).
CANDIDATES = [
    {"name": "bookFlight", "confidence": 0.69, "score_breakdown": {"example": 0.39, "calibration": 0.30}},
    {"name": "sendEmail", "confidence": 0.079, "score_breakdown": {"example": 0.279, "calibration": -0.20}},
    {"name": "getStockPrice", "confidence": 0.0, "score_breakdown": {"calibration": 0.0}},
]


def _rows(fig) -> dict[str, dict[str, float]]:
    """Per row label, the length each legend entry draws."""
    rows: dict[str, dict[str, float]] = {}
    for trace in fig.data:
        if trace.type != "bar":
            continue
        for x, y in zip(trace.x, trace.y):
            rows.setdefault(y.replace("✓ ", ""), {})[trace.name] = float(x)
    return rows


def test_a_calibrated_runner_up_draws_its_confidence_not_its_lexical_sum():
    fig = score_breakdown_figure(CANDIDATES, THRESHOLDS, chosen=["bookFlight"],
                                 labels={"example": "description words", "calibration": "calibration"})
    rows = _rows(fig)
    hatched = "taken off by calibration"
    solid = {name: sum(v for k, v in parts.items() if k != hatched) for name, parts in rows.items()}
    assert solid["sendEmail"] == pytest.approx(0.079, abs=1e-4)  # not 0.279 past "medium"
    assert solid["bookFlight"] == pytest.approx(0.69, abs=1e-4)
    assert solid["sendEmail"] < THRESHOLDS["low"] < THRESHOLDS["medium"]
    assert rows["sendEmail"][hatched] == pytest.approx(0.20, abs=1e-4)  # what calibration took off, drawn apart
    assert rows["bookFlight"].get(hatched, 0.0) == 0.0
    assert all(v >= 0 for parts in rows.values() for v in parts.values())  # nothing left of zero
    assert fig.layout.xaxis.range[0] >= -0.02
    hover = next(t for t in fig.data if t.name == "description words")
    assert list(hover.customdata)[:2] == pytest.approx([0.39, 0.279])  # the hover keeps the signal's full points


def test_every_confidence_label_is_inside_the_plot_area_with_its_digits():
    fig = score_breakdown_figure(CANDIDATES, THRESHOLDS)
    labels = [a for a in fig.layout.annotations if a.yref == "y"]
    assert [a.text for a in labels] == ["<b>0.69</b>", "<b>0.079</b>", "<b>0.00</b>"]
    for a in labels:  # right-aligned on the plot area's own right edge: never cut, whatever its length
        assert (a.xref, a.x, a.xanchor) == ("paper", 1, "right")
    assert fig.layout.xaxis.range[1] > 1.15  # room right of 1.0, where no bar or threshold line reaches


def test_signal_words_follow_what_a_tool_is_known_by():
    imported = Knowledge(described=True, with_examples=frozenset({"convertCurrency"}), any_examples=True)
    assert match_words("example", imported, "bookFlight") == "words of its description"
    assert match_words("example", imported, "convertCurrency") == "its example questions and description"
    assert match_words("example", Knowledge(), "invoice_list") == "similar example questions"
    assert match_words("semantic", imported, "bookFlight") == "similar meaning"
    only = Knowledge(described=True, with_examples=frozenset(), any_examples=False)
    assert legend_words("example", only) == "description words"
    said = why_help("tool", only, ["example", "semantic", "calibration"])
    assert "example questions" not in said and "learned" not in said and "hatched" in said
    assert "description" in said and "similar meaning" in said


def _catalog(root: Path, *, examples: bool = True) -> None:
    tools = [
        ("bookFlight", "Book a flight ticket between two airports", {"origin": "Departure airport"}, []),
        ("sendEmail", "Send an email message to a recipient", {"subject": "Subject line"}, []),
        ("convertCurrency", "Convert an amount of money from one currency to another", {"amount": "The amount"},
         ["how many euros is 100 dollars"]),
    ]
    listed = [{"type": "function", "function": {"name": n, "description": d, "parameters": {
        "type": "object", "properties": {k: {"type": "string", "description": v} for k, v in p.items()}}},
        **({"examples": e} if e and examples else {})} for n, d, p, e in tools]
    path = root.parent / "catalog.json"
    path.write_text(json.dumps(listed), encoding="utf-8")
    import_tool_catalog(path, "travel", root=root)


def _lexicons(tmp_path, monkeypatch, *, examples: bool):
    import shutil

    import ui.common

    root = tmp_path / "lexicons"
    root.mkdir()
    shutil.copytree(ROOT / "lexicons" / "_shared", root / "_shared")  # the shared words every domain reads
    _catalog(root, examples=examples)
    monkeypatch.setenv("ROUTING_LEXICONS", str(root))
    ui.common.get_registry.clear()
    yield root
    ui.common.get_registry.clear()


@pytest.fixture()
def travel(tmp_path, monkeypatch):
    """The imported catalog where one tool (convertCurrency) has an example question."""
    yield from _lexicons(tmp_path, monkeypatch, examples=True)


@pytest.fixture()
def described(tmp_path, monkeypatch):
    """The same catalog known by its descriptions alone: no tool has an example question."""
    yield from _lexicons(tmp_path, monkeypatch, examples=False)


def test_knowledge_of_an_imported_catalog(travel):
    known = knowledge_of(Router.load("travel", travel).domain)
    assert known.described and known.with_examples == {"convertCurrency"}


def test_the_card_of_a_descriptions_only_tool_says_its_description(travel):
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.query_params.update({"domain": "travel", "today": "2026-01-22", "q": "book a flight ticket between two airports"})
    at.run()
    assert not at.exception, at.exception
    result = at.session_state["conversation"][0]["result"]
    top = result["matches"][0]
    assert top["name"] == "bookFlight" and top["match_type"] == "example"
    shown = "\n".join(str(m.value) for m in at.markdown)
    assert "**`bookFlight`**" in shown and "mostly from words of its description" in shown
    assert "similar example questions" not in shown
    why = next(m for m in at.markdown if str(m.value).startswith("**Why**"))
    # A catalog where one tool has an example: the help names both, and no signal this chart lacks.
    assert "example questions and the words of its name, description and parameters" in why.help
    assert "learned" not in why.help and "keywords" not in why.help


# ---------------------------------------------------------------- every page on an imported catalog

def _page(page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.query_params.update({"domain": "travel", "today": "2026-01-22"})
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, at.exception
    return at


def _shown(at: AppTest) -> str:
    parts = [e.value for e in at.markdown] + [e.value for e in at.caption] + [e.value for e in at.info] + [e.value for e in at.warning]
    return "\n".join(str(p) for p in parts)


def test_playground_without_examples_says_what_to_ask_not_an_empty_try(described):
    at = _page("playground")
    shown = _shown(at)
    assert "**Try:**" not in shown and not [b for b in at.button if (b.key or "").startswith("example-")]
    assert "No example questions to try here" in shown and "“Book a flight ticket between two airports”" in shown
    assert "click an example" not in shown


def test_how_confidence_is_made_is_one_line_with_the_whole_account_on_hover(travel):
    made = Router.load("travel", travel).confidence_source()
    if not (made.get("dense") or made.get("calibrated")):
        pytest.skip("this catalog routes without the dense list here: no confidence account is shown")
    at = _page("playground")
    line = next(c for c in at.caption if "How confidence is made" in c.value)
    assert len(line.value) < 320 and line.help == made["how"]


def test_coverage_and_tuner_say_the_golden_corpus_is_empty_and_what_to_do(travel):
    at = _page("coverage")
    assert "has no golden questions yet" in _shown(at) and "Upload a file" in _shown(at)
    assert "0 questions from" not in _shown(at)
    assert at.button(key="coverage_run_button").disabled
    at = _page("tuner")
    assert "has no golden questions yet" in _shown(at) and "Upload a labelled CSV" in _shown(at)


def test_editor_without_synonyms_opens_the_way_to_add_the_first_term(travel):
    at = _page("editor")
    assert "No synonyms yet" in _shown(at)
    assert not [s for s in at.selectbox if s.label == "Canonical term"]  # no empty picker ("No options to select")
    assert [t for t in at.text_input if t.label == "New canonical term"]


def test_catalog_of_an_imported_catalog_hides_a_kind_every_tool_shares_and_says_what_a_tool_is_known_by(travel):
    at = _page("catalog")
    heads = [e.label for e in at.expander if "Book a flight" in e.label]
    assert heads == ["**bookFlight** — Book a flight ticket between two airports"]  # not "· chat" on every tool
    shown = _shown(at)
    assert "**Known by:** the words of its name, description and parameters" in shown
    assert "travel has no synonyms yet" in shown and "Clear the search" not in shown


def test_a_match_no_signal_gave_points_is_not_said_to_come_from_a_keyword():
    """A calibrated runner-up that no signal scored comes back with the default match_type `keyword`;
    the card must not say "mostly from a keyword" beside a chart that shows calibration alone."""
    imported = Knowledge(described=True, with_examples=frozenset(), any_examples=False)
    assert match_words("keyword", imported, "sendEmail", {"calibration": 0.0231}) == NO_POINTS
    assert match_words("keyword", imported, "getStockPrice", {"example": 0.18, "calibration": -0.1}) == "words of its description"
    assert match_words("example", imported, "x", {"example": 0.2}) == "words of its description"
    assert match_words("hybrid", imported, "x", {"example": 0.2, "semantic": 0.1}) == "words and similar meaning"
    assert match_words("pattern", Knowledge(), "x", None) == "a phrase pattern"  # no breakdown: the router's word


def test_the_reliability_sentence_says_how_an_imported_catalog_is_calibrated(travel):
    """The tuner's reliability diagram said "not calibrated ... add `calibration: fit`" of a catalog whose
    settings say `calibration: fit` and whose confidence is calibrated at build on synthetic questions."""
    from ui.calibration import calibration_sentence

    router = Router.load("travel", travel)
    said = calibration_sentence({"calibrated": False}, router)
    assert "add `calibration: fit`" not in said  # the import writes it already
    if (router.confidence_source().get("calibration") or {}).get("from") == "synthetic":
        assert "calibrated at build on" in said and "synthetic questions" in said
    else:
        assert "no labelled questions to fit on" in said


def test_catalog_search_placeholder_speaks_the_domains_own_words(travel):
    at = _page("catalog")
    hint = at.text_input(key="catalog_search").placeholder
    assert "piutang" not in hint and "e.g. origin" in hint  # a word of this catalog: its first parameter


def test_catalog_builds_the_chosen_domain_first_and_every_other_domain_last(monkeypatch):
    """A first visit built every domain's router for the "All domains" table before drawing anything
    (seconds of blank page on a catalog that calibrates at build); now the chosen domain's catalog is
    drawn first and the table, at the top, is filled last."""
    import ui.common

    asked: list[str] = []
    real = ui.common.router_state
    monkeypatch.setattr(ui.common, "router_state", lambda name: asked.append(name) or real(name))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.query_params.update({"domain": "powers", "today": "2026-01-22"})
    at.switch_page("app_pages/catalog.py")
    at.run()
    assert not at.exception, at.exception
    assert asked and asked[0] == "powers" and len(set(asked)) > 1
    assert at.expander[0].label.startswith("All domains")  # still the first thing under the title


def test_every_part_a_design_adds_to_a_breakdown_has_words_in_the_legend():
    """The Why chart's legend says what a part is in words, never the breakdown's key: the lifts of
    routing.core.sole ("sole"), the gateway's levels, hints and named bonus, football's triggers."""
    from ui.signal_words import Knowledge, legend_words

    for key in ("sole", "sole_write", "named", "level", "category", "hint", "trigger", "entity"):
        words = legend_words(key, Knowledge())
        assert words != key and "_" not in words, key
