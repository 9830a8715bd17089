"""routing.paths.catalog: the tools as OpenAI function schemas, their token estimate, and catalog search."""
from __future__ import annotations

import json
import math

import pytest

from routing import Router
from routing.paths.catalog import catalog_cost, estimate_tokens, function_schema, function_schemas, search_catalog


@pytest.fixture(scope="module")
def domain():
    return Router.load("accounting").domain


def test_every_tool_becomes_a_valid_function_schema(domain):
    for tool in domain.tools:
        schema = function_schema(tool)
        fn = schema["function"]
        assert schema["type"] == "function"
        assert fn["name"] == tool.name and fn["description"] == tool.description
        params = fn["parameters"]
        assert params["type"] == "object"
        assert list(params["properties"]) == [p.name for p in tool.params]
        assert set(params.get("required", [])) == {p.name for p in tool.params if p.required}
        for p in tool.params:
            prop = params["properties"][p.name]
            assert prop["type"] in {"string", "number", "boolean"}
            if p.values:
                assert prop["enum"] == list(p.values)
            if p.default is not None:
                assert prop["default"] == p.default
        json.dumps(schema)  # serialisable as sent to a model


def test_invoice_list_status_is_an_enum_with_its_default(domain):
    props = function_schema(domain.tool("invoice_list"))["function"]["parameters"]["properties"]
    assert "unpaid" in props["status"]["enum"] and props["status"]["default"] == "all"
    assert props["date_from"] == {"type": "string", "format": "date"}


def test_estimate_tokens_is_a_quarter_of_the_compact_json():
    obj = {"name": "invoice_list", "values": [1, 2, 3]}
    compact = json.dumps(obj, separators=(",", ":"))
    assert estimate_tokens(obj) == math.ceil(len(compact) / 4)
    assert estimate_tokens("abcde") == 2
    assert estimate_tokens(None) == 0 and estimate_tokens("") == 0


def test_routed_tools_cost_less_than_the_whole_catalog(domain):
    cost = catalog_cost(domain, ["invoice_list", "invoice_list"])
    assert cost.routed_names == ("invoice_list",)
    assert cost.catalog_tools == len(domain.tools)
    assert cost.catalog_tokens == estimate_tokens(function_schemas(domain))
    assert 0 < cost.routed_tokens < cost.catalog_tokens
    assert cost.saved_tokens == cost.catalog_tokens - cost.routed_tokens
    assert 0 < cost.saved_share < 1
    assert catalog_cost(domain, []).routed_tokens == 0


def test_function_schemas_keep_catalog_order_and_skip_unknown_names(domain):
    names = [s["function"]["name"] for s in function_schemas(domain, ["receivables_aging", "nope", "invoice_list"])]
    assert names == [t.name for t in domain.tools if t.name in {"receivables_aging", "invoice_list"}]


def test_search_finds_a_tool_by_a_variant_in_any_language(domain):
    view = search_catalog(domain, "  PIUTANG ")
    assert any(canonical == "receivable" for canonical, _ in view.synonyms)
    assert [t.name for t in view.tools] == [t.name for t in domain.tools if "receivable" in t.keywords]
    faktur = search_catalog(domain, "faktur")
    assert {t.name for t in domain.tools if "invoice" in t.keywords} <= {t.name for t in faktur.tools}
    everything = search_catalog(domain, "")
    assert len(everything.tools) == len(domain.tools) and len(everything.patterns) == len(domain.patterns)
    assert search_catalog(domain, "zzzz-nothing").tools == ()
