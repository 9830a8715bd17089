"""A tool catalog (OpenAI tools, MCP tools/list, OpenAPI 3) -> a new, editable domain folder.

    result = import_tool_catalog(Path("tools.json"), "shop", root=Path("lexicons"))

writes lexicons/<name>/ with settings.yaml (design `tools`, `enrich: true`: every tool is also
known by its name's words, its description and its parameters, see routing.core.enrich),
tools.yaml (one tool per function / MCP tool / operation: name, description, params with their
descriptions, the catalog's example questions if it has any), synonyms.yaml and patterns.yaml
(empty, for the editor) and golden.yaml (empty: questions to measure it come from the user).
Written like import-csv: validated first, then renamed into place as a whole.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from routing.core.lexicon import DEFAULT_LEXICON_ROOT
from routing.quality.catalog import Catalog, CatalogProblem, read_catalog
from routing.quality.importer import (
    IMPORTED_SETTINGS,
    IMPORTED_THRESHOLDS,
    ImportProblem,
    checked_texts,
    import_target,
    new_domain_files,
    tool_name_for,
    write_domain_folder,
)

# Scoring of a domain known by descriptions (and perhaps a few examples): the words of the tools'
# documents (names, descriptions, parameters: the `example` signal over the enriched entries) and
# the embeddings of the same texts. Weights by how many examples there are: routing.core.enrich.
# Measured on Seal-Tools dev (4,076 tools, descriptions only): the static embeddings cost top-5
# (88 % -> 71 % at 0.35, 87 % at 0.08) and the name's words as keywords changed nothing, so both
# start at 0; a person who adds synonyms raises `keyword`.
CATALOG_WEIGHTS = {"keyword": 0.0, "pattern": 0.35, "action": 0.0, "example": 1.0, "semantic": 0.0, "fuzzy_penalty": 0.02}

# Tiers of a domain known by descriptions only (uncalibrated: nothing to fit until golden.yaml has
# questions), chosen on Seal-Tools dev and checked on its test split:
#   low 0.08   a question sharing words with a description is shown its best 5 (weak_matches), not
#              nothing: with the BM25F tool document (routing.core.enrich) the dev questions' top
#              confidence starts at 0.08; between 0.08 and 0.1 the right tool is first for 28 % of
#              them (0.1 left 58 questions not_found, 14 of them with the right tool first; 0.08: 8, none);
#   medium 0.25  the best eighth of the questions (233 of 1,804 on dev: right first 81 %) offers 2-3 alternatives;
#   high 0.85  unchanged: descriptions alone rarely make a tool certain.
CATALOG_THRESHOLDS = {**IMPORTED_THRESHOLDS, "low": 0.08, "medium": 0.25}

HEADERS = {
    "settings.yaml": "# Imported tool catalog. enrich: each tool is also known by its name, description and parameters.\n",
    "tools.yaml": "# One tool per function / operation. Add examples (questions it answers) to sharpen it.\n",
    "synonyms.yaml": "# Canonical term -> variants. Add terms here to make keywords count.\n",
    "patterns.yaml": "# Phrases / term sets / regexes -> a tool (see lexicons/accounting/patterns.yaml).\n",
    "golden.yaml": "# Questions with the tool they expect: python -m routing eval --domain NAME\n",
}


@dataclass(frozen=True)
class CatalogImport:
    domain: str
    folder: Path
    format: str
    tools: int
    params: int
    examples: int
    renamed: dict[str, str] = field(default_factory=dict)

    def to_dict(self) -> dict:
        return {"domain": self.domain, "folder": str(self.folder), "format": self.format, "tools": self.tools,
                "params": self.params, "examples": self.examples, "renamed": dict(self.renamed)}


def catalog_files(name: str, catalog: Catalog, *, source_label: str = "") -> tuple[dict[str, object], dict[str, str]]:
    """The parsed content of each file of the new domain, and the names that had to change."""
    tools_yaml: list[dict] = []
    used: set[str] = set()
    renamed: dict[str, str] = {}
    for t in catalog.tools:
        tool = tool_name_for(t.name)
        base, k = tool, 2
        while tool in used:
            tool, k = f"{base[:60]}_{k}", k + 1
        used.add(tool)
        entry: dict = {"name": tool, "description": t.description or tool.replace("_", " ") + ".", "kind": "chat"}
        if tool != t.name:
            entry["label"] = t.name
            renamed[t.name] = tool
        if t.params:
            entry["params"] = [
                {k: v for k, v in (("name", p.name), ("type", p.type), ("values", list(p.values) or None),
                                   ("required", p.required or None), ("description", p.description or None)) if v is not None}
                for p in t.params
            ]
        if t.examples:
            entry["examples"] = list(t.examples)
        tools_yaml.append(entry)
    what = {"openai": "an OpenAI tools list", "mcp": "an MCP tools/list result", "openapi": "an OpenAPI 3 document"}[catalog.format]
    title = f" ({catalog.title})" if catalog.title else ""
    settings = {
        "name": name,
        "description": f"Imported from {source_label or what}{title}: {len(tools_yaml)} tools ({what}).",
        "languages": ["en"],
        "thresholds": dict(CATALOG_THRESHOLDS),
        **IMPORTED_SETTINGS,
        "scoring": dict(CATALOG_WEIGHTS),
        "enrich": True,
        "calibration": "fit",
    }
    return new_domain_files(settings, tools_yaml, [], []), renamed


def import_tool_catalog(
    source: str | bytes | Path,
    name: str,
    *,
    root: Path | str = DEFAULT_LEXICON_ROOT,
    fmt: str | None = None,
    force: bool = False,
    source_label: str = "",
) -> CatalogImport:
    """Turn a tool catalog into lexicons/<name>/; refuses to replace a domain unless `force`."""
    root = Path(root)
    folder = import_target(root, name, force=force, example="shop")
    if isinstance(source, Path) and not source_label:
        source_label = source.name
    try:
        catalog = read_catalog(source, label=source_label, fmt=fmt)
    except CatalogProblem as exc:
        raise ImportProblem(str(exc)) from None
    files, renamed = catalog_files(name, catalog, source_label=source_label)
    write_domain_folder(root, name, checked_texts(name, files, root, HEADERS, unchecked=("golden.yaml",)))
    return CatalogImport(name, folder, catalog.format, len(catalog.tools), sum(len(t.params) for t in catalog.tools),
                         sum(len(t.examples) for t in catalog.tools), renamed)
