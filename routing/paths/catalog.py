"""A domain's tools as a model sees them: OpenAI function schemas, their token cost, and search.

    function_schema(tool)            -> {"type": "function", "function": {name, description, parameters}}
    estimate_tokens(obj)             -> int, a documented heuristic (see below)
    catalog_cost(domain, names)      -> CatalogCost: whole catalog versus only the named tools
    search_catalog(domain, text)     -> CatalogView: the tools, synonyms and patterns that mention text

Pure Python; no tokenizer dependency: the estimate is meant for comparisons ("the whole catalog
costs 12x the routed tools"), not for billing.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Any, Iterable

from routing.core.model import Domain, Param, Pattern, Tool

# JSON-schema type of each lexicon parameter type (routing.lexicon.PARAM_TYPES).
_JSON_TYPES = {"string": "string", "enum": "string", "date": "string", "number": "number", "boolean": "boolean"}
# About four characters of compact JSON per token for English-ish text (OpenAI's rule of thumb).
CHARS_PER_TOKEN = 4


def param_schema(p: Param) -> dict:
    schema: dict[str, Any] = {"type": _JSON_TYPES.get(p.type, "string")}
    if p.type == "date":
        schema["format"] = "date"
    if p.values:
        schema["enum"] = list(p.values)
    if p.default is not None:
        schema["default"] = p.default
    if p.description:
        schema["description"] = p.description
    return schema


def function_schema(tool: Tool) -> dict:
    """The tool in OpenAI's `tools` format, parameters as a JSON schema built from its params."""
    parameters: dict[str, Any] = {
        "type": "object",
        "properties": {p.name: param_schema(p) for p in tool.params},
    }
    required = [p.name for p in tool.params if p.required]
    if required:
        parameters["required"] = required
    return {
        "type": "function",
        "function": {"name": tool.name, "description": tool.description, "parameters": parameters},
    }


def function_schemas(domain: Domain, names: Iterable[str] | None = None) -> list[dict]:
    """Schemas of every tool of the domain, or of the named ones (in catalog order; unknown names skipped)."""
    wanted = None if names is None else set(names)
    return [function_schema(t) for t in domain.tools if wanted is None or t.name in wanted]


def estimate_tokens(obj: Any) -> int:
    """ceil(characters / 4) of the object as compact JSON (a string is measured as is); 0 for empty."""
    if obj is None:
        return 0
    text = obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False, separators=(",", ":"), default=str)
    return math.ceil(len(text) / CHARS_PER_TOKEN)


@dataclass(frozen=True)
class CatalogCost:
    """Tokens of the tool definitions sent with one request: the whole catalog or the routed tools."""

    catalog_tools: int
    catalog_tokens: int
    routed_names: tuple[str, ...]
    routed_tokens: int

    @property
    def saved_tokens(self) -> int:
        return self.catalog_tokens - self.routed_tokens

    @property
    def saved_share(self) -> float:
        """Fraction of the catalog's tokens not sent (0..1)."""
        return self.saved_tokens / self.catalog_tokens if self.catalog_tokens else 0.0


def catalog_cost(domain: Domain, routed_names: Iterable[str]) -> CatalogCost:
    names = tuple(dict.fromkeys(routed_names))
    return CatalogCost(
        catalog_tools=len(domain.tools),
        catalog_tokens=estimate_tokens(function_schemas(domain)),
        routed_names=names,
        routed_tokens=estimate_tokens(function_schemas(domain, names)) if names else 0,
    )


# ---------------------------------------------------------------- searchable catalog


@dataclass(frozen=True)
class CatalogView:
    tools: tuple[Tool, ...]
    synonyms: tuple[tuple[str, tuple[str, ...]], ...]
    patterns: tuple[Pattern, ...]


def _hit(needle: str, *haystacks: Any) -> bool:
    return any(needle in str(h).casefold() for h in haystacks if h is not None)


def tool_matches(tool: Tool, needle: str) -> bool:
    return _hit(
        needle,
        tool.name,
        tool.description,
        tool.kind,
        tool.category,
        *tool.keywords,
        *tool.related,
        *(p.name for p in tool.params),
        *(text for _, text in tool.examples),
    )


def search_catalog(domain: Domain, text: str = "") -> CatalogView:
    """Everything in the domain that mentions `text` (case-insensitive); all of it for empty text.

    A synonym group matches on its canonical term or any variant; a pattern on its phrase, terms,
    regex or tool; a tool on its name, description, kind, terms, parameter names or examples, or
    when it is about a term whose synonyms match ("faktur" finds the invoice tools).
    """
    needle = (text or "").strip().casefold()
    if not needle:
        return CatalogView(domain.tools, domain.synonyms, domain.patterns)
    synonyms = tuple(s for s in domain.synonyms if _hit(needle, s[0], *s[1]))
    terms = {canonical for canonical, _ in synonyms}
    return CatalogView(
        tools=tuple(t for t in domain.tools if tool_matches(t, needle) or terms.intersection(t.keywords)),
        synonyms=synonyms,
        patterns=tuple(p for p in domain.patterns if _hit(needle, p.tool, p.phrase, p.regex, *p.terms)),
    )
