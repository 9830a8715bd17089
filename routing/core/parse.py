"""Parsing and validating each lexicon file into the model: settings, tools, synonyms, patterns and
the shared language words. Every problem is collected with its file and line; nothing half-valid
is returned (a LexiconError lists them all)."""
from __future__ import annotations

from typing import Any
from routing.core.errors import LexiconError, Problem
from routing.core.patterns import PatternSafetyError, check_regex
from routing.core.text import words
from routing.core.yamlio import ProblemCollector, check_keys, line_of, number, str_list
from routing.core.model import KINDS, NUMBER_ROLES, PARAM_ROLES, PARAM_TYPES, Param, Pattern, Settings, Thresholds, Tool, WEEKDAYS, Weights
from routing.core.parse_words import parse_language_words  # noqa: F401 (re-exported: lexicon.py and tests import it here)


# ---------------------------------------------------------------- the keys each file may hold

SETTINGS_KEYS = frozenset({"name", "design", "description", "languages", "thresholds", "dates", "timezone", "currency", "vague", "scoring", "paths", "calibration", "enrich", "dense", "dense_encoder",
                           "other_senses"})
THRESHOLDS_KEYS = frozenset({"high", "medium", "low", "margin"})
DATES_KEYS = frozenset({"week_start", "fiscal_year_start_month", "fiscal_year_label", "quarters", "comparisons"})
VAGUE_KEYS = frozenset({"words", "question"})
SCORING_KEYS = frozenset({
    "keyword", "action", "pattern", "example", "semantic", "learned", "fuzzy_penalty", "default_kind", "kind_neutral", "kind_bonus",
    "date_kinds", "example_verb_weight", "explicit_kinds", "identifier_kinds", "message_kinds", "argument_kinds", "name_kinds", "agreement",
    "clear_lead",
    "clear_lead_unheld",
    "clear_lead_subset",
})
TOOLS_FILE_KEYS = frozenset({"tools"})
# A tool's own keys, then the hybrid path's (routing.paths.config reads them from Tool.extra),
# `entities` (documentation: what the intent reads from the question) and `label` (the importer's).
TOOL_KEYS = frozenset({
    "name", "description", "kind", "keywords", "related", "params", "examples", "category", "output",
    "pipeline", "enrichments", "group", "default_period", "entities", "label",
})
PARAM_KEYS = frozenset({"name", "type", "default", "values", "required", "role", "default_note", "description"})
PATTERNS_FILE_KEYS = frozenset({"patterns"})
PATTERN_KEYS = frozenset({"phrase", "terms", "regex", "tool", "params", "weight", "order"})

# Keys a routing design adds to settings.yaml (top level) and to each tool in tools.yaml. Design
# `tools` adds none. A design not listed here validates its own keys: only the shared sections
# (thresholds, dates, vague, scoring, params, patterns) are then checked for unknown keys.
DESIGN_KEYS: dict[str, dict[str, frozenset[str]]] = {"tools": {"settings": frozenset(), "tool": frozenset()}}


def register_design_keys(design: str, *, settings: tuple[str, ...] = (), tool: tuple[str, ...] = ()) -> None:
    """A design declares the keys it reads, so that misspellings of them are refused too."""
    DESIGN_KEYS[design] = {"settings": frozenset(settings), "tool": frozenset(tool)}


def _design_keys(design: Any, part: str, base: frozenset[str]) -> frozenset[str] | None:
    """The keys allowed at `part` for this design, or None when the design checks its own."""
    own = DESIGN_KEYS.get(design if isinstance(design, str) else "tools")
    return None if own is None else base | own[part]


# ---------------------------------------------------------------- helpers


_Collector = ProblemCollector
_line = line_of


_as_str_list = str_list  # the shared validators (routing.core.yamlio), said once
_number = number


# ---------------------------------------------------------------- domain files


def _parse_settings(data: Any, label: str, folder_name: str) -> Settings:
    c = _Collector(label)
    if not isinstance(data, dict):
        raise LexiconError([Problem(label, 1, "settings must be a mapping")])
    allowed = _design_keys(data.get("design", "tools"), "settings", SETTINGS_KEYS)
    if allowed is not None:
        check_keys(data, allowed, c, "settings")
    if "dense_encoder" in data and data["dense_encoder"] not in ("auto", "static", "transformer"):
        c.add(_line(data, "dense_encoder"), f"dense_encoder must be auto (the default), static (the shipped token table) or transformer "
                                            f"(the MiniLM transformer), not {data['dense_encoder']!r}")
    th = data.get("thresholds") or {}
    tl = _line(data, "thresholds")
    check_keys(th, THRESHOLDS_KEYS, c, "thresholds", tl)
    if not isinstance(th, dict):
        c.add(tl, "thresholds must be a mapping of high/medium/low/margin")
        th = {}
    thresholds = Thresholds(
        high=_number(th.get("high"), c, _line(th, "high") or tl, "thresholds.high", 0, 1, 0.85),
        medium=_number(th.get("medium"), c, _line(th, "medium") or tl, "thresholds.medium", 0, 1, 0.50),
        low=_number(th.get("low"), c, _line(th, "low") or tl, "thresholds.low", 0, 1, 0.30),
        margin=_number(th.get("margin"), c, _line(th, "margin") or tl, "thresholds.margin", 0, 1, 0.10),
    )
    if not thresholds.low <= thresholds.medium <= thresholds.high:
        c.add(tl, f"thresholds must satisfy low <= medium <= high (got {thresholds.low}, {thresholds.medium}, {thresholds.high})")
    dates = data.get("dates") or {}
    dl = _line(data, "dates")
    check_keys(dates, DATES_KEYS, c, "dates", dl)
    week_start_name = str(dates.get("week_start", "monday")).casefold() if isinstance(dates, dict) else "monday"
    if week_start_name not in WEEKDAYS:
        c.add(_line(dates, "week_start") or dl, f"dates.week_start must be a weekday name, not {week_start_name!r}")
        week_start_name = "monday"
    fy = dates.get("fiscal_year_start_month", 1) if isinstance(dates, dict) else 1
    if isinstance(fy, bool) or not isinstance(fy, int) or not 1 <= fy <= 12:
        c.add(_line(dates, "fiscal_year_start_month") or dl, f"dates.fiscal_year_start_month must be 1-12, not {fy!r}")
        fy = 1
    fy_label = dates.get("fiscal_year_label", "start") if isinstance(dates, dict) else "start"
    if fy_label not in ("start", "end"):
        c.add(_line(dates, "fiscal_year_label") or dl, f"dates.fiscal_year_label must be start or end, not {fy_label!r}")
        fy_label = "start"
    comparisons = dates.get("comparisons", "asked") if isinstance(dates, dict) else "asked"
    if comparisons not in ("asked", "aside"):
        c.add(_line(dates, "comparisons") or dl, f"dates.comparisons must be asked or aside, not {comparisons!r}")
        comparisons = "asked"
    quarters = dates.get("quarters", "calendar") if isinstance(dates, dict) else "calendar"
    if quarters not in ("calendar", "fiscal"):
        c.add(_line(dates, "quarters") or dl, f"dates.quarters must be calendar or fiscal, not {quarters!r}")
        quarters = "calendar"
    vague = data.get("vague") or {}
    vl = _line(data, "vague")
    check_keys(vague, VAGUE_KEYS, c, "vague", vl)
    if not isinstance(vague, dict):
        c.add(vl, "vague must have words: and question:")
        vague = {}
    question = vague.get("question") or "What are you looking for?"
    if not isinstance(question, str):
        c.add(_line(vague, "question") or vl, "vague.question must be text")
        question = "What are you looking for?"
    w = data.get("scoring") or {}
    wl = _line(data, "scoring")
    check_keys(w, SCORING_KEYS, c, "scoring", wl)
    if not isinstance(w, dict):
        c.add(wl, "scoring must be a mapping")
        w = {}
    default_kind = str(w.get("default_kind", "list"))
    if default_kind not in KINDS:
        c.add(_line(w, "default_kind") or wl, f"scoring.default_kind must be one of {', '.join(KINDS)}")
        default_kind = "list"
    date_kinds = tuple(_as_str_list(w.get("date_kinds", ["list", "summary", "report"]), c, _line(w, "date_kinds") or wl, "scoring.date_kinds"))
    for k in date_kinds:
        if k not in KINDS:
            c.add(_line(w, "date_kinds") or wl, f"scoring.date_kinds: unknown kind {k!r}")

    def kinds_list(key: str, default: list[str]) -> tuple[str, ...]:
        out = tuple(_as_str_list(w.get(key, default), c, _line(w, key) or wl, f"scoring.{key}"))
        for k in out:
            if k not in KINDS:
                c.add(_line(w, key) or wl, f"scoring.{key}: unknown kind {k!r}")
        return out

    def num(key: str, default: float, hi: float = 1.0) -> float:
        return _number(w.get(key), c, _line(w, key) or wl, f"scoring.{key}", 0, hi, default)

    def count(key: str, default: int, hi: int) -> int:
        value = w.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
            c.add(_line(w, key) or wl, f"scoring.{key} must be a whole number between 0 and {hi}, not {value!r}")
            return default
        return int(_number(value, c, _line(w, key) or wl, f"scoring.{key}", 0, hi, default))

    weights = Weights(
        keyword=num("keyword", 0.55),
        action=num("action", 0.25),
        pattern=num("pattern", 0.35),
        example=num("example", 0.25),
        semantic=num("semantic", 0.0),
        learned=num("learned", 0.0),
        agreement=num("agreement", 0.0),
        clear_lead=num("clear_lead", 0.0),
        clear_lead_unheld=count("clear_lead_unheld", 0, 3),
        clear_lead_subset=num("clear_lead_subset", 0.0),
        fuzzy_penalty=num("fuzzy_penalty", 0.03, 0.5),
        default_kind=default_kind,
        kind_neutral=num("kind_neutral", 0.4),
        kind_bonus=num("kind_bonus", 0.2),
        date_kinds=date_kinds,
        example_verb_weight=num("example_verb_weight", 0.5),
        explicit_kinds=kinds_list("explicit_kinds", ["create", "action"]),
        identifier_kinds=kinds_list("identifier_kinds", ["detail"]),
        message_kinds=kinds_list("message_kinds", ["action"]),
        argument_kinds=kinds_list("argument_kinds", ["search", "detail", "create", "action"]),
        name_kinds=kinds_list("name_kinds", ["search"]),
    )
    design = data.get("design", "tools")
    if not isinstance(design, str) or not design.isidentifier():
        c.add(_line(data, "design"), f"design must be the name of a routing design (e.g. tools), not {design!r}")
        design = "tools"
    name = str(data.get("name") or folder_name)
    if name != folder_name:
        c.add(_line(data, "name"), f"name {name!r} must match the folder name {folder_name!r}")
    other_senses = tuple(_as_str_list(data.get("other_senses"), c, _line(data, "other_senses"), "other_senses"))
    if c.problems:
        raise LexiconError(c.problems)
    known = {"name", "design", "description", "languages", "thresholds", "dates", "timezone", "currency", "vague", "scoring", "other_senses"}  # others (paths, calibration, enrich, dense, dense_encoder) stay in extra
    return Settings(
        name=name,
        description=str(data.get("description") or ""),
        languages=tuple(str(x) for x in (data.get("languages") or [])),
        thresholds=thresholds,
        week_start=WEEKDAYS.index(week_start_name),
        fiscal_year_start_month=fy,
        fiscal_year_label=fy_label,
        quarters=quarters,
        comparisons=comparisons,
        timezone=str(data.get("timezone") or "UTC"),
        currency=str(data.get("currency") or ""),
        vague_words=tuple(_as_str_list(vague.get("words"), c, _line(vague, "words") or vl, "vague.words")),
        clarifying_question=question,
        other_senses=other_senses,
        weights=weights,
        design=design,
        design_line=_line(data, "design"),
        extra={k: v for k, v in data.items() if k not in known},
    )


def _parse_params(raw: Any, c: _Collector, line: int, tool: str) -> tuple[Param, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        c.add(line, f"tool {tool}: params must be a list")
        return ()
    out: list[Param] = []
    seen: set[str] = set()
    for i, p in enumerate(raw):
        pl = _line(raw, i)
        if isinstance(p, str):
            p = {"name": p}
        if not isinstance(p, dict) or not p.get("name"):
            c.add(pl, f"tool {tool}: param {i + 1} needs a name")
            continue
        pname = str(p["name"])
        check_keys(p, PARAM_KEYS, c, f"param {pname!r} of tool {tool}", pl)
        if pname in seen:
            c.add(pl, f"tool {tool}: param {pname!r} is listed twice")
        seen.add(pname)
        ptype = str(p.get("type", "string"))
        if ptype not in PARAM_TYPES:
            c.add(pl, f"tool {tool}: param {pname!r} has unknown type {ptype!r} (known: {', '.join(PARAM_TYPES)})")
        role = p.get("role")
        if role is not None and role not in PARAM_ROLES:
            c.add(pl, f"tool {tool}: param {pname!r} role must be one of {', '.join(PARAM_ROLES)}, not {role!r}")
        elif role in NUMBER_ROLES and ptype != "number":
            c.add(pl, f"tool {tool}: param {pname!r} role {role} takes a number: its type must be number, not {ptype}")
        values = tuple(_as_str_list(p.get("values"), c, pl, f"tool {tool} param {pname} values"))
        default = p.get("default")
        if values and default is not None and str(default) not in values:
            c.add(pl, f"tool {tool}: param {pname!r} default {default!r} is not one of its values")
        out.append(
            Param(
                name=pname,
                type=ptype,
                default=default,
                values=values,
                required=bool(p.get("required", False)),
                role=role,
                default_note=p.get("default_note"),
                description=str(p.get("description") or ""),
            )
        )
    return tuple(out)


def _parse_tools(data: Any, label: str, design: Any = "tools") -> tuple[Tool, ...]:
    c = _Collector(label)
    if not isinstance(data, dict) or not isinstance(data.get("tools"), list):
        raise LexiconError([Problem(label, 1, "must have a top-level 'tools:' list")])
    tool_keys = _design_keys(design, "tool", TOOL_KEYS)
    if tool_keys is not None:
        check_keys(data, TOOLS_FILE_KEYS, c, "tools.yaml")
    tools: list[Tool] = []
    seen: dict[str, int] = {}
    raw_tools = data["tools"]
    for i, t in enumerate(raw_tools):
        tl = _line(raw_tools, i)
        if not isinstance(t, dict):
            c.add(tl, f"tool {i + 1} must be a mapping with name, description, kind")
            continue
        name = t.get("name")
        if not isinstance(name, str) or not name.strip():
            c.add(tl, f"tool {i + 1} has no name")
            continue
        if tool_keys is not None:
            check_keys(t, tool_keys, c, f"tool {name}", tl)
        if name in seen:
            c.add(tl, f"tool {name!r} is defined twice (first on line {seen[name]})")
        seen[name] = tl
        kind = t.get("kind", "list")
        if kind not in KINDS:
            c.add(_line(t, "kind") or tl, f"tool {name}: unknown kind {kind!r} (known: {', '.join(KINDS)})")
        description = t.get("description")
        if not isinstance(description, str) or not description.strip():
            c.add(tl, f"tool {name}: description is missing")
            description = ""
        examples: list[tuple[str, str]] = []
        ex = t.get("examples") or {}
        if isinstance(ex, list):
            examples = [("", e) for e in _as_str_list(ex, c, _line(t, "examples"), f"tool {name} examples")]
        elif isinstance(ex, dict):
            for lang, items in ex.items():
                examples += [(str(lang), e) for e in _as_str_list(items, c, _line(ex, lang), f"tool {name} examples.{lang}")]
        else:
            c.add(_line(t, "examples"), f"tool {name}: examples must be a list or language -> list")
        tools.append(
            Tool(
                name=name,
                description=description.strip(),
                kind=kind if kind in KINDS else "list",
                keywords=tuple(_as_str_list(t.get("keywords"), c, _line(t, "keywords") or tl, f"tool {name} keywords")),
                related=tuple(_as_str_list(t.get("related"), c, _line(t, "related") or tl, f"tool {name} related")),
                params=_parse_params(t.get("params"), c, _line(t, "params") or tl, name),
                examples=tuple(examples),
                category=t.get("category"),
                output=t.get("output"),
                extra={k: v for k, v in t.items() if k not in {"name", "description", "kind", "keywords", "related", "params", "examples", "category", "output"}},
            )
        )
    if not tools and not c.problems:
        c.add(1, "no tools defined")
    if c.problems:
        raise LexiconError(c.problems)
    return tuple(tools)


def _parse_synonyms(data: Any, label: str) -> tuple[tuple[tuple[str, tuple[str, ...]], ...], dict[str, int]]:
    c = _Collector(label)
    if data is None:
        return (), {}
    if not isinstance(data, dict):
        raise LexiconError([Problem(label, 1, "must map each canonical term to a list of variants")])
    out = []
    lines: dict[str, int] = {}
    owner: dict[tuple[str, ...], tuple[str, int]] = {}
    for canonical, variants in data.items():
        line = _line(data, canonical)
        if not isinstance(canonical, str) or not canonical.strip():
            c.add(line, "a canonical term is empty")
            continue
        items = _as_str_list(variants, c, line, f"synonyms of {canonical!r}")
        own_key = words(canonical)
        for form in [canonical] + items:
            key = words(form)
            if form != canonical and key == own_key:
                continue  # "profit and loss" under profit_and_loss: the canonical's own words
            if not key:
                c.add(line, f"variant {form!r} of {canonical!r} has no letters or digits")
                continue
            if key in owner and owner[key][0] != canonical:
                c.add(line, f"variant {form!r} is listed under both {owner[key][0]!r} (line {owner[key][1]}) and {canonical!r}")
            elif key in owner and form != canonical:
                c.add(line, f"variant {form!r} is listed twice under {canonical!r}")
            owner.setdefault(key, (canonical, line))
        out.append((canonical, tuple(items)))
        lines[canonical] = line
    if c.problems:
        raise LexiconError(c.problems)
    return tuple(out), lines


def _parse_patterns(data: Any, label: str, tools: dict[str, Tool], canonicals: set[str]) -> tuple[Pattern, ...]:
    c = _Collector(label)
    if data is None:
        return ()
    raw = data.get("patterns") if isinstance(data, dict) else None
    if not isinstance(raw, list):
        raise LexiconError([Problem(label, 1, "must have a top-level 'patterns:' list")])
    check_keys(data, PATTERNS_FILE_KEYS, c, "patterns.yaml")
    out = []
    seen: dict[tuple, int] = {}
    for i, p in enumerate(raw):
        pl = _line(raw, i)
        if not isinstance(p, dict):
            c.add(pl, f"pattern {i + 1} must be a mapping with tool: and phrase:/terms:/regex:")
            continue
        check_keys(p, PATTERN_KEYS, c, f"pattern {i + 1}", pl)
        tool = p.get("tool")
        if tool not in tools:
            c.add(_line(p, "tool") or pl, f"pattern names unknown tool {tool!r}")
            continue
        kinds = [k for k in ("phrase", "terms", "regex") if p.get(k) is not None]
        if len(kinds) != 1:
            c.add(pl, "a pattern needs exactly one of phrase:, terms:, regex:")
            continue
        phrase = p.get("phrase")
        terms: tuple[str, ...] = ()
        regex = p.get("regex")
        if phrase is not None and (not isinstance(phrase, str) or not words(phrase)):
            c.add(pl, "pattern phrase is empty")
            continue
        if p.get("terms") is not None:
            terms = tuple(_as_str_list(p.get("terms"), c, pl, "pattern terms"))
            unknown = [t for t in terms if t not in canonicals]
            if unknown:
                c.add(pl, f"pattern terms {unknown} are not canonical terms in synonyms.yaml")
                continue
            if not terms:
                c.add(pl, "pattern terms list is empty")
                continue
        if regex is not None:
            if not isinstance(regex, str) or not regex.strip():
                c.add(pl, "pattern regex is empty")
                continue
            try:
                check_regex(regex)
            except PatternSafetyError as exc:
                c.add(_line(p, "regex") or pl, str(exc))
                continue
        order: tuple[str, ...] = ()
        if p.get("order") is not None:
            order = tuple(_as_str_list(p.get("order"), c, _line(p, "order") or pl, "pattern order"))
            if len(order) < 2 or any(t not in canonicals for t in order):
                c.add(_line(p, "order") or pl, f"pattern order {list(order)} must list two or more canonical terms of synonyms.yaml")
                continue
            if regex is not None:
                c.add(_line(p, "order") or pl, "pattern order applies to a phrase: or terms: pattern, not a regex:")
                continue
        params = p.get("params") or {}
        if not isinstance(params, dict):
            c.add(_line(p, "params") or pl, "pattern params must be a mapping name -> value")
            params = {}
        tool_params = {tp.name: tp for tp in tools[tool].params}
        for pname, pvalue in params.items():
            if pname not in tool_params:
                c.add(_line(params, pname) or pl, f"pattern sets param {pname!r}, which tool {tool} does not have (it has: {', '.join(tool_params) or 'none'})")
            elif tool_params[pname].values and str(pvalue) not in tool_params[pname].values:
                c.add(_line(params, pname) or pl, f"pattern sets {pname}={pvalue!r}, not one of {list(tool_params[pname].values)}")
        weight = _number(p.get("weight"), c, _line(p, "weight") or pl, "pattern weight", 0, 1, 1.0)
        key = (tool, " ".join(words(phrase)) if phrase else None, tuple(sorted(terms)), regex)
        if key in seen:
            c.add(pl, f"duplicate pattern (same as line {seen[key]})")
        seen[key] = pl
        out.append(
            Pattern(tool=tool, phrase=phrase, terms=terms, regex=regex, params=tuple(params.items()), weight=weight, line=pl, order=order)
        )
    if c.problems:
        raise LexiconError(c.problems)
    return tuple(out)


def _check_tool_terms(tools: tuple[Tool, ...], canonicals: set[str], label: str, data: Any) -> None:
    c = _Collector(label)
    raw = data.get("tools") if isinstance(data, dict) else []
    for i, t in enumerate(tools):
        line = _line(raw, i) if isinstance(raw, list) else 0
        for term in t.keywords + t.related:
            if term not in canonicals:
                c.add(line, f"tool {t.name}: keyword {term!r} is not a canonical term in synonyms.yaml")
    if c.problems:
        raise LexiconError(c.problems)
