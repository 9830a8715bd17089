"""A tool's own description speaks for it (routing.core.enrich.described): a word of the question that
no term of the lexicon names, but the tool's description uses, is no unknown word for that tool (the
keyword signal's `description` part), and a term its description names is one it holds for the lift
rules. What a user sees: the tool, the tier, the breakdown part that says why."""
from __future__ import annotations

import shutil

import pytest
import yaml

from routing import load_router
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, load_domain
from routing.core.router import Router

TODAY = "2026-01-22"


@pytest.fixture(scope="module")
def cfo():
    return load_router("cfo")


@pytest.mark.parametrize("query, tool", [
    ("GST for December: output tax, ITC and the net payable", "gst_summary"),   # "output", "net": its description's
    ("Q3 cash flow - operations, investing, financing", "cash_flow_statement"),
])
def test_words_of_a_description_carry_its_tool_to_the_fast_path(cfo, query, tool):
    r = cfo.route(query, today=TODAY).to_dict()
    m = r["matches"][0]
    assert r["status"] == "activated" and m["name"] == tool
    assert m["score_breakdown"]["description"] > 0


def test_without_the_description_the_same_question_is_less_sure(tmp_path, cfo):
    # the mechanism, not the lexicon: the same domain with gst_summary's description cut to its name
    shutil.copytree(DEFAULT_LEXICON_ROOT / "cfo", tmp_path / "cfo")
    shutil.copytree(DEFAULT_LEXICON_ROOT / "_shared", tmp_path / "_shared")
    path = tmp_path / "cfo" / "tools.yaml"
    text = path.read_text(encoding="utf-8")
    data = yaml.safe_load(text)
    old = next(t["description"] for t in data["tools"] if t["name"] == "gst_summary")
    path.write_text(text.replace(old, "GST summary."), encoding="utf-8")
    query = "GST for December: output tax, ITC and the net payable"
    r = Router(load_domain("cfo", tmp_path)).route(query, today=TODAY).to_dict()
    top = r["candidates"][0]
    assert top["name"] == "gst_summary" and "description" not in top["score_breakdown"]
    # 0.81 on its own words: at most the clear lead's lift to high, against 1.0 with the description
    assert top["confidence"] <= 0.85 < cfo.route(query, today=TODAY).to_dict()["candidates"][0]["confidence"]


def test_a_word_in_many_descriptions_explains_less_than_a_rare_one(cfo):
    words = cfo.index.described_words
    gst = words[cfo.index.tool_index["gst_summary"]]
    assert gst["output"] > gst["period"] > 0     # "period" is in most of cfo's descriptions


def test_a_term_a_description_names_is_held(cfo):
    # "Which GST returns ... are filed, pending or late": pending reads as the term unpaid
    holders = cfo.index.term_holders["unpaid"]
    assert cfo.index.tool_index["gst_filing_status"] in holders


def test_an_enriched_domain_reads_descriptions_as_documents_only(tmp_path):
    from routing.quality.tool_import import import_tool_catalog
    catalog = tmp_path / "tools.json"
    catalog.write_text(
        '[{"type": "function", "function": {"name": "get_weather", "description": "Current weather and forecast for a city",'
        ' "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}},'
        ' {"type": "function", "function": {"name": "send_email", "description": "Send an email to a recipient",'
        ' "parameters": {"type": "object", "properties": {"to": {"type": "string"}}}}}]', encoding="utf-8")
    shutil.copytree(DEFAULT_LEXICON_ROOT / "_shared", tmp_path / "_shared")
    import_tool_catalog(catalog, "cat", root=tmp_path)
    router = Router(load_domain("cat", tmp_path))
    assert router.index.described_words == []
    assert router.route("forecast for Rome", today=TODAY).candidates[0]["name"] == "get_weather"


def test_the_chart_names_the_description_part():
    # the playground's legend says what the part is, in its own colour, not the raw signal name
    from ui.charts import SIGNAL_COLORS, SPARE_COLORS
    from ui.signal_words import LEGEND_WORDS

    assert LEGEND_WORDS["description"] == "words of its description"
    assert SIGNAL_COLORS["description"] not in SPARE_COLORS
