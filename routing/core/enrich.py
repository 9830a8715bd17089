"""Index-time enrichment: what a tool is known by beyond its example questions.

A domain whose settings say `enrich: true` (an imported tool catalog does) indexes, for every
tool, a few texts derived from what the tool already says about itself, beside its examples:
its name's words ('getHealthWorkforce' -> 'get health workforce'), its description, and its
parameters (each parameter's words and description). They go where examples go (the example
signal's BM25 tool documents and nearest entry, and the embeddings), so a catalog known only by
its descriptions routes on the same machinery as one with examples. Nothing here knows a language.
"""
from __future__ import annotations

import re

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_SEPARATORS = re.compile(r"[_\-.:/]+")


def name_words(name: str) -> str:
    """'getHealthWorkforce' -> 'get health workforce'; 'list_open_PRs' -> 'list open prs'."""
    spaced = _CAMEL.sub(" ", _SEPARATORS.sub(" ", name))
    return " ".join(spaced.split()).casefold()


# The example signal of an enriched domain: its tool documents (BM25) weigh more than the nearest
# entry (one entry per tool says little on its own), and the nearest entry is looked for among more
# leaders (a catalog of thousands ties often at the cut).
ENRICHED_TOOL_SHARE = 0.9  # Seal-Tools dev, with the BM25F tool document and sentences: 0.7 37.5 % / 92.9 %, 0.8 37.6 / 94.0, 0.85 37.5 / 94.2, 0.9 37.5 / 94.5, 1.0 37.4 / 94.0
ENRICHED_NEAREST_TOOLS = 30


def enriched(domain) -> bool:
    return bool(domain.settings.extra.get("enrich"))


# The tool document of an enriched domain is a BM25F document (Robertson & Zaragoza's fields): a
# word's frequency is summed over the tool's fields, each weighed and normalised by its own length,
# then saturated once (k1). The name says most in few words; a parameter's description least.
# Seal-Tools dev (4,076 tools, descriptions only), the tool document alone: one bag of the two
# entries (before) 36.9 % / 88.9 %; fields with name 3, description 1, parameter names 1, their
# descriptions 0.5: 37.5 % / 90.7 %; name 2 or 4, parameter descriptions 1, b 0.3 or 0.75
# everywhere, k1 0.8 or 2: within 0.4 points of it (a plateau, not a peak).
FIELD_WEIGHTS = {"name": 3.0, "description": 1.0, "parameter": 1.0, "parameter_description": 0.5, "example": 1.0}
FIELD_LENGTH_NORM = {"name": 0.5, "description": 0.75, "parameter": 0.5, "parameter_description": 0.75, "example": 0.75}
ENRICHED_K1 = 1.2  # BM25's usual saturation: real word counts now, not a count of entries (k1 3.0 there)


def tool_fields(tool) -> list[tuple[str, str]]:
    """(field, text) of what a tool says about itself: its name's words, its description, then each
    parameter's name words and description, in that order (empty texts left out)."""
    out = [("name", name_words(tool.name)), ("description", tool.description or "")]
    for p in tool.params:
        out += [("parameter", name_words(p.name)), ("parameter_description", p.description or "")]
    return [(f, t) for f, t in out if t.strip()]


def tool_documents(tool) -> list[str]:
    """The derived texts of one tool, in a fixed order (name, description, parameters)."""
    out = [name_words(tool.name)]
    if tool.description:
        out.append(tool.description)
    params = [" ".join(x for x in (name_words(p.name), p.description) if x) for p in tool.params]
    if params:
        out.append(" ; ".join(params))
    seen: set[str] = set()
    texts = [t for t in out if t and not (t.casefold() in seen or seen.add(t.casefold()))]
    # Two entries per tool: what it is (name and description) and what it takes (its parameters).
    # A word said in both counts twice in the tool's document, as it would in a TF-IDF of the text.
    # (Measured on Seal-Tools dev: one joined entry 36.8 % / 87.2 %, three entries lower, two 36.4 % / 88.3 %.)
    return [" ; ".join(texts[:2]), *texts[2:]] if texts else []
