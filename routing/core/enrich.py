"""Index-time enrichment: what a tool is known by beyond its example questions.

A domain whose settings say `enrich: true` (an imported tool catalog does) indexes, for every
tool, a few texts derived from what the tool already says about itself, beside its examples:
its name's words ('getHealthWorkforce' -> 'get health workforce'), its description, and its
parameters (each parameter's words and description). They go where examples go (the example
signal's BM25 tool documents and nearest entry, and the embeddings), so a catalog known only by
its descriptions routes on the same machinery as one with examples. Nothing here knows a language.
"""
from __future__ import annotations

import math
import re
from collections import Counter, defaultdict
from datetime import date

from routing.core.text import normalize, tokenize
from routing.core.units import unit_features

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


def described(index, tools) -> tuple[dict[str, frozenset[int]], list[dict[str, float]]]:
    """What each tool's own description says in the domain's words, for a domain whose tools a person
    described and named terms for (an enriched domain reads the description as a document of its own):
    (term -> the tools whose description names that term of the lexicon; per tool, the other words of its
    description, each weighed by its rarity among the descriptions, log(1 + n/df) / log(1 + n): a word
    of one description of many 1.0 or nearly, a word of every description log 2 / log(1 + n)).

    A term a description names is one the tool holds for the lift rules (routing.core.sole), as its
    keywords and related terms are: "Show one invoice in full - lines, taxes, payments and status"
    holds payment. A question's word its description uses is no unknown word for that tool (the
    keyword signal's `description` part, routing.core.scoring.score_keyword): "output tax" and "net"
    name no term, yet gst_summary is "output tax, input tax credit and net GST payable"."""
    holders: dict[str, set[int]] = defaultdict(set)
    own: list[set[str]] = []
    for i, t in enumerate(tools):
        found: set[str] = set()
        if t.description:
            a = index.analyze(t.description, today=date(2000, 1, 1), correct=False, with_dates=False)
            for c in a.concepts:
                holders[c].add(i)
            found = {u.key for u in a.units if u.role == "literal"}
        own.append(found)
    n = max(len(tools), 1)
    df = Counter(w for ws in own for w in ws)
    scale = math.log(1.0 + n)
    weights = [{w: math.log(1.0 + n / df[w]) / scale for w in ws} for ws in own]
    return {c: frozenset(ids) for c, ids in holders.items()}, weights


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


def tool_field_features(index, tool) -> list[tuple[str, str, list[str], list[str]]]:
    """(field, text, keys, extras) of each of a tool's fields (routing.core.enrich.tool_fields),
    from one analysis of them all joined: a unit belongs to the field of its first token."""
    parts = tool_fields(tool)
    if not parts:
        return []
    # No date finding: a description's "today" is a word of it (a quarter of the catalog's build time).
    a = index.analyze(" ; ".join(t for _, t in parts), today=date(2000, 1, 1), correct=False, with_dates=False)
    owner: list[int] = []
    for n, (_, text) in enumerate(parts):
        owner += [n] * len(tokenize(normalize(text)))
    if len(owner) != len(a.tokens):  # the joined text tokenised differently: analyse each field alone
        return [(f, t, list(ea.keys), list(ea.extras)) for f, t in parts
                for ea in (index.analyze(t, today=date(2000, 1, 1), correct=False, with_dates=False),)]
    groups: list[list] = [[] for _ in parts]
    for u in a.units:
        groups[owner[u.first]].append(u)
    return [(f, t, *unit_features(g, a.tokens, a.text)) for (f, t), g in zip(parts, groups)]


def derived_entries(fields: list[tuple[str, str, list[str], list[str]]]) -> list[tuple[str, list[str], list[str]]]:
    """The two entries of a tool's own texts, beside its examples (for the nearest entry and its
    evidence): what it is (name and description) and what it takes (its parameters): (text, keys, extras)."""
    out = []
    for group in (("name", "description"), ("parameter", "parameter_description")):
        parts = [fl for fl in fields if fl[0] in group]
        if parts:
            out.append((" ; ".join(fl[1] for fl in parts), [k for fl in parts for k in fl[2]],
                        list(dict.fromkeys(x for fl in parts for x in fl[3]))))
    return out


def fields_tf(index, example_tf: list[dict[str, int]], fields) -> list[dict[str, float]]:
    """BM25F term frequencies: per tool and feature, the sum over its fields (name, description,
    parameters, their descriptions, and its examples as one more field) of the field's weight
    times the feature's count there, over the field's length relative to that field's mean."""
    n = max(len(index.tools), 1)
    lengths: list[dict[str, int]] = []
    counts: list[dict[str, Counter]] = []
    for ti, per_tool in enumerate(fields):
        length: dict[str, int] = defaultdict(int)
        count: dict[str, Counter] = defaultdict(Counter)
        for f, _, keys, extras in per_tool:
            length[f] += len(keys)
            count[f].update(index.example_features(keys, extras))
        if example_tf[ti]:
            length["example"] = len(index.tools[ti].examples)
            count["example"] = Counter(example_tf[ti])
        lengths.append(length)
        counts.append(count)
    mean = {f: sum(x.get(f, 0) for x in lengths) / n for f in FIELD_WEIGHTS}
    out: list[dict[str, float]] = []
    for length, count in zip(lengths, counts):
        tf: dict[str, float] = defaultdict(float)
        for f, c in count.items():
            b = FIELD_LENGTH_NORM[f]
            scale = FIELD_WEIGHTS[f] / (1 - b + b * length[f] / (mean[f] or 1.0))
            for feature, k in c.items():
                tf[feature] += scale * k
        out.append(tf)
    return out
