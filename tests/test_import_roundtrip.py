"""An import validates its data once and writes it as YAML: what the router later reads from disk must
be that same data, whatever a description says ("yes", a date, "null", a control character...)."""
from __future__ import annotations

import json
import math

from hypothesis import given, settings
from hypothesis import strategies as st

from routing.core.lexicon import load_domain
from routing.core.yamlio import parse_yaml
from routing.quality.importer import _dump
from routing.quality.catalog import read_catalog
from routing.quality.tool_import import catalog_files, import_tool_catalog

# Every character but the lone surrogates (no UTF-8 file can hold them).
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)  # past the dumper's 120-character folding
SCALARS = st.one_of(TEXT, st.integers(), st.booleans(), st.none(), st.floats(allow_nan=False))
DATA = st.recursive(SCALARS, lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(TEXT, inner, max_size=4)), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(DATA)
def test_what_the_importer_dumps_reads_back_the_same(data):
    back = parse_yaml(_dump({"value": data}), "tools.yaml")["value"]
    assert back == data
    assert type(back) is type(data) or isinstance(back, type(data))  # a LineDict / LineList is its dict / list


TRICKY = ["yes", "no", "on", "off", "2024-01-01", "null", "~", "1.0", "1e3", "0x1F", "# not a comment",
          "key: value", "- item", "line one\nline two", "tab\there", "bell\x07", "next line\x85 end", "İstanbul ﬁle"]


def test_descriptions_that_look_like_other_yaml_values_arrive_as_written(lexicon_root, tmp_path):
    tools = [{"type": "function", "function": {
        "name": f"tool_{i}", "description": text,
        "parameters": {"type": "object", "properties": {"p": {"type": "string", "description": text}}}}}
        for i, text in enumerate(TRICKY)]
    path = tmp_path / "tricky.json"
    path.write_text(json.dumps(tools), encoding="utf-8")
    import_tool_catalog(path, "tricky", root=lexicon_root)
    validated, _ = catalog_files("tricky", read_catalog(path.read_bytes(), label=path.name), source_label=path.name)
    on_disk = parse_yaml((lexicon_root / "tricky" / "tools.yaml").read_text(encoding="utf-8"), "tools.yaml")
    assert on_disk == validated["tools.yaml"]
    domain = load_domain("tricky", lexicon_root)
    described = {t.name: t.description for t in domain.tools}
    assert described["tool_0"] == "yes" and described["tool_4"] == "2024-01-01" and described["tool_5"] == "null"
    assert described["tool_8"] == "1e3" and described["tool_16"].startswith("next line")


def test_finite_floats_only_because_nan_never_equals_itself():
    # The strategy above leaves NaN out for equality's sake; a NaN still writes and reads as NaN.
    assert math.isnan(parse_yaml(_dump({"v": float("nan")}), "x.yaml")["v"])
