"""Loading and validating the lexicon files of a domain.

A domain is a folder `lexicons/<name>/` with:
  settings.yaml  name, description, languages, thresholds, dates, vague words, scoring weights
  tools.yaml     the tools: name, description, kind, keywords, params, examples
  synonyms.yaml  canonical term -> variants in every language
  patterns.yaml  phrase / term set / regex -> tool and parameter hints
  golden.yaml    the golden corpus (read by routing.evaluate, not by the router)
Language-wide words live in `lexicons/_shared/` (words.yaml, dates.yaml).

Every problem found is reported with its file and line; nothing half-valid is returned.
"""
from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from routing.core.errors import LexiconError, Problem
from routing.core.patterns import PatternSafetyError, check_regex
from routing.core.text import words
from routing.core.yamlio import ProblemCollector, line_of, read_yaml

REPO_ROOT = Path(__file__).resolve().parents[2]
# ROUTING_LEXICONS points the app and CLI at another lexicon folder (tests use a scratch copy).
DEFAULT_LEXICON_ROOT = Path(os.environ.get("ROUTING_LEXICONS") or REPO_ROOT / "lexicons")
SHARED_DIR = "_shared"
DOMAIN_FILES = ("settings.yaml", "tools.yaml", "synonyms.yaml", "patterns.yaml")

KINDS = ("list", "search", "detail", "summary", "report", "create", "action", "chat")
PARAM_TYPES = ("string", "enum", "date", "number", "boolean")
DATE_ROLES = ("date_from", "date_to", "query")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@dataclass(frozen=True)
class Thresholds:
    high: float = 0.85
    medium: float = 0.50
    low: float = 0.30
    margin: float = 0.10

    def to_dict(self) -> dict:
        return {"high": self.high, "medium": self.medium, "low": self.low, "margin": self.margin}


@dataclass(frozen=True)
class Weights:
    """How many points each signal can add to a tool's confidence (see routing.scoring)."""

    keyword: float = 0.55
    action: float = 0.25
    pattern: float = 0.35
    example: float = 0.25
    semantic: float = 0.0
    fuzzy_penalty: float = 0.03
    # Kind fit without a strong verb: every kind starts neutral; a weak verb for the kind, the
    # domain's default kind (only when there is no verb at all) and a date range each add a bonus.
    default_kind: str = "list"
    kind_neutral: float = 0.4
    kind_bonus: float = 0.2
    date_kinds: tuple[str, ...] = ("list", "summary", "report")
    # Kinds never assumed: writes need a verb asking for them; detail views need an identifier.
    explicit_kinds: tuple[str, ...] = ("create", "action")
    identifier_kinds: tuple[str, ...] = ("detail",)
    # Kinds that take free text as an argument (a name, a search term): unknown words in the
    # query are that argument, so they do not count against these tools.
    argument_kinds: tuple[str, ...] = ("search", "detail", "create", "action")
    # Kinds a name in the query points to (a capitalised unknown word: "bills from CV Abadi").
    name_kinds: tuple[str, ...] = ("search",)
    # Action verbs count in example similarity at this fraction of a content word.
    example_verb_weight: float = 0.5


@dataclass(frozen=True)
class Param:
    name: str
    type: str = "string"
    default: Any = None
    values: tuple[str, ...] = ()
    required: bool = False
    role: str | None = None  # date_from / date_to: where a resolved date range goes
    default_note: str | None = None
    description: str = ""


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    kind: str
    keywords: tuple[str, ...]
    related: tuple[str, ...]
    params: tuple[Param, ...]
    examples: tuple[tuple[str, str], ...]  # (language, text)
    category: str | None = None
    output: str | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def key_params(self) -> list[str]:
        return [p.name for p in self.params]


@dataclass(frozen=True)
class Pattern:
    tool: str
    phrase: str | None = None
    terms: tuple[str, ...] = ()
    regex: str | None = None
    params: tuple[tuple[str, Any], ...] = ()
    weight: float = 1.0
    line: int = 0

    @property
    def label(self) -> str:
        if self.phrase is not None:
            return f'phrase "{self.phrase}"'
        if self.terms:
            return "terms [" + ", ".join(self.terms) + "]"
        return f"regex /{self.regex}/"


@dataclass(frozen=True)
class Settings:
    name: str
    description: str
    languages: tuple[str, ...]
    thresholds: Thresholds
    week_start: int
    fiscal_year_start_month: int
    timezone: str
    currency: str
    vague_words: tuple[str, ...]
    clarifying_question: str
    weights: Weights
    fiscal_year_label: str = "start"   # dates.fiscal_year_label: "FY2025" starts (start) or ends (end) in 2025
    design: str = "tools"  # which routing design routes this domain (routing.designs.DESIGNS)
    design_line: int | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class LanguageWords:
    stopwords: frozenset[str]
    actions: tuple[tuple[tuple[str, ...], str, float], ...]  # (words, kind, strength)
    suffixes: tuple[tuple[str, str], ...]  # (suffix, replacement), longest first


@dataclass(frozen=True)
class Domain:
    name: str
    root: Path
    settings: Settings
    tools: tuple[Tool, ...]
    synonyms: tuple[tuple[str, tuple[str, ...]], ...]  # (canonical, variants)
    patterns: tuple[Pattern, ...]
    words: LanguageWords
    fingerprint: str

    def tool(self, name: str) -> Tool | None:
        return self._tools_by_name.get(name)

    def describe(self, **more: Any) -> dict:
        """What `python -m routing domains` and the catalog say of the domain; a design adds to it."""
        return {
            "name": self.name,
            "design": self.settings.design,
            "description": self.settings.description,
            "languages": list(self.settings.languages),
            "tool_count": len(self.tools),
            "tools": [t.name for t in self.tools],
            **more,
        }

    @property
    def _tools_by_name(self) -> dict[str, Tool]:
        by_name = self.__dict__.get("_by_name")
        if by_name is None:  # built once; frozen dataclasses allow a cache in __dict__
            by_name = {t.name: t for t in self.tools}
            object.__setattr__(self, "_by_name", by_name)
        return by_name


# ---------------------------------------------------------------- helpers


_Collector = ProblemCollector
_line = line_of


def _as_str_list(value: Any, where: _Collector, line: int, what: str) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        where.add(line, f"{what} must be a list of words, not {type(value).__name__}")
        return []
    out = []
    for i, item in enumerate(value):
        item_line = _line(value, i) or line
        if not isinstance(item, (str, int, float)) or isinstance(item, bool):
            where.add(item_line, f"{what}: item {i + 1} must be text, not {type(item).__name__}")
        elif not str(item).strip():
            where.add(item_line, f"{what}: item {i + 1} is empty")
        else:
            out.append(str(item).strip())
    return out


def _number(value: Any, where: _Collector, line: int, what: str, lo: float, hi: float, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        where.add(line, f"{what} must be a number between {lo} and {hi}, not {value!r}")
        return default
    if not lo <= float(value) <= hi:
        where.add(line, f"{what} must be between {lo} and {hi}, not {value}")
        return default
    return float(value)


def fingerprint_files(paths: list[Path]) -> str:
    digest = hashlib.sha256()
    for path in sorted(paths):
        digest.update(str(path.parent.name + "/" + path.name).encode())
        try:
            digest.update(path.read_bytes())
        except OSError:
            digest.update(b"<missing>")
    return digest.hexdigest()[:16]


def domain_files(root: Path, name: str) -> list[Path]:
    """Every file whose change must rebuild the domain's router (golden corpora excluded)."""
    folder = root / name
    shared = root / SHARED_DIR
    extra = sorted(p for p in folder.glob("*.yaml") if p.name not in DOMAIN_FILES and not p.name.startswith(("golden", "heldout")))
    return [folder / f for f in DOMAIN_FILES] + extra + [shared / "words.yaml", shared / "dates.yaml", shared / "paths.yaml"]


def list_domain_names(root: Path = DEFAULT_LEXICON_ROOT) -> list[str]:
    if not root.is_dir():
        return []
    return sorted(
        p.name for p in root.iterdir() if p.is_dir() and not p.name.startswith(("_", ".")) and (p / "tools.yaml").exists()
    )


# ---------------------------------------------------------------- shared words


def parse_language_words(data: Any, label: str) -> LanguageWords:
    c = _Collector(label)
    stop: set[str] = set()
    actions: list[tuple[tuple[str, ...], str, float]] = []
    suffixes: list[tuple[str, str]] = []
    if not isinstance(data, dict):
        raise LexiconError([Problem(label, 1, "must be a mapping of language code -> words")])
    for lang, block in data.items():
        lang_line = _line(data, lang)
        if not isinstance(block, dict):
            c.add(lang_line, f"language {lang!r} must map to stopwords/actions/suffixes")
            continue
        for key in block:
            if key not in ("stopwords", "actions", "suffixes"):
                c.add(_line(block, key), f"unknown section {key!r} under {lang!r} (expected stopwords, actions, suffixes)")
        stop.update(" ".join(words(w)) for w in _as_str_list(block.get("stopwords"), c, _line(block, "stopwords"), f"{lang}.stopwords"))
        acts = block.get("actions") or {}
        if not isinstance(acts, dict):
            c.add(_line(block, "actions"), f"{lang}.actions must map kind -> strong/weak verbs")
            acts = {}
        for kind, verbs in acts.items():
            kind_line = _line(acts, kind)
            if kind not in KINDS:
                c.add(kind_line, f"{lang}.actions: unknown kind {kind!r} (known: {', '.join(KINDS)})")
                continue
            if not isinstance(verbs, dict):
                c.add(kind_line, f"{lang}.actions.{kind} must have strong: and weak: lists")
                continue
            for strength_name, strength in (("strong", 1.0), ("weak", 0.5)):
                for verb in _as_str_list(verbs.get(strength_name), c, _line(verbs, strength_name), f"{lang}.actions.{kind}.{strength_name}"):
                    actions.append((words(verb), kind, strength))
        for rule in _as_str_list(block.get("suffixes"), c, _line(block, "suffixes"), f"{lang}.suffixes"):
            suffix, _, repl = rule.partition(">")
            suffixes.append((suffix.strip().casefold(), repl.strip().casefold()))
    if c.problems:
        raise LexiconError(c.problems)
    suffixes = sorted(set(suffixes), key=lambda s: (-len(s[0]), s))
    return LanguageWords(frozenset(stop), tuple(actions), tuple(suffixes))


# ---------------------------------------------------------------- domain files


def _parse_settings(data: Any, label: str, folder_name: str) -> Settings:
    c = _Collector(label)
    if not isinstance(data, dict):
        raise LexiconError([Problem(label, 1, "settings must be a mapping")])
    th = data.get("thresholds") or {}
    tl = _line(data, "thresholds")
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
    vague = data.get("vague") or {}
    vl = _line(data, "vague")
    if not isinstance(vague, dict):
        c.add(vl, "vague must have words: and question:")
        vague = {}
    question = vague.get("question") or "What are you looking for?"
    if not isinstance(question, str):
        c.add(_line(vague, "question") or vl, "vague.question must be text")
        question = "What are you looking for?"
    w = data.get("scoring") or {}
    wl = _line(data, "scoring")
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

    weights = Weights(
        keyword=num("keyword", 0.55),
        action=num("action", 0.25),
        pattern=num("pattern", 0.35),
        example=num("example", 0.25),
        semantic=num("semantic", 0.0),
        fuzzy_penalty=num("fuzzy_penalty", 0.03, 0.5),
        default_kind=default_kind,
        kind_neutral=num("kind_neutral", 0.4),
        kind_bonus=num("kind_bonus", 0.2),
        date_kinds=date_kinds,
        example_verb_weight=num("example_verb_weight", 0.5),
        explicit_kinds=kinds_list("explicit_kinds", ["create", "action"]),
        identifier_kinds=kinds_list("identifier_kinds", ["detail"]),
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
    if c.problems:
        raise LexiconError(c.problems)
    known = {"name", "design", "description", "languages", "thresholds", "dates", "timezone", "currency", "vague", "scoring"}
    return Settings(
        name=name,
        description=str(data.get("description") or ""),
        languages=tuple(str(x) for x in (data.get("languages") or [])),
        thresholds=thresholds,
        week_start=WEEKDAYS.index(week_start_name),
        fiscal_year_start_month=fy,
        fiscal_year_label=fy_label,
        timezone=str(data.get("timezone") or "UTC"),
        currency=str(data.get("currency") or ""),
        vague_words=tuple(_as_str_list(vague.get("words"), c, _line(vague, "words") or vl, "vague.words")),
        clarifying_question=question,
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
        if pname in seen:
            c.add(pl, f"tool {tool}: param {pname!r} is listed twice")
        seen.add(pname)
        ptype = str(p.get("type", "string"))
        if ptype not in PARAM_TYPES:
            c.add(pl, f"tool {tool}: param {pname!r} has unknown type {ptype!r} (known: {', '.join(PARAM_TYPES)})")
        role = p.get("role")
        if role is not None and role not in DATE_ROLES:
            c.add(pl, f"tool {tool}: param {pname!r} role must be date_from, date_to or query, not {role!r}")
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


def _parse_tools(data: Any, label: str) -> tuple[Tool, ...]:
    c = _Collector(label)
    if not isinstance(data, dict) or not isinstance(data.get("tools"), list):
        raise LexiconError([Problem(label, 1, "must have a top-level 'tools:' list")])
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
    out = []
    seen: dict[tuple, int] = {}
    for i, p in enumerate(raw):
        pl = _line(raw, i)
        if not isinstance(p, dict):
            c.add(pl, f"pattern {i + 1} must be a mapping with tool: and phrase:/terms:/regex:")
            continue
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
            Pattern(tool=tool, phrase=phrase, terms=terms, regex=regex, params=tuple(params.items()), weight=weight, line=pl)
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


def load_shared_words(root: Path = DEFAULT_LEXICON_ROOT) -> LanguageWords:
    path = root / SHARED_DIR / "words.yaml"
    return parse_language_words(read_yaml(path, _label(root, path)), _label(root, path))


def _label(root: Path, path: Path) -> str:
    try:
        return str(path.relative_to(root.parent))
    except ValueError:
        return str(path)


def load_domain(name: str, root: Path | str = DEFAULT_LEXICON_ROOT, *, overrides: dict[str, Any] | None = None) -> Domain:
    """Load and validate one domain. `overrides` maps a file name (e.g. "synonyms.yaml") to
    already-parsed data to use instead of the file on disk (the editor's in-memory preview)."""
    root = Path(root)
    folder = root / name
    if not (folder / "tools.yaml").exists() and "tools.yaml" not in (overrides or {}):
        known = ", ".join(list_domain_names(root)) or "none"
        raise LexiconError([Problem(str(folder), None, f"unknown domain {name!r} (known: {known})")])
    overrides = overrides or {}
    problems: list[Problem] = []

    def data_of(file: str, required: bool = True) -> Any:
        if file in overrides:
            return overrides[file]
        path = folder / file
        if not path.exists():
            if required:
                problems.append(Problem(_label(root, path), None, "file is missing"))
            return None
        try:
            return read_yaml(path, _label(root, path))
        except LexiconError as exc:
            problems.extend(exc.problems)
            return None

    raw = {f: data_of(f, required=f in ("settings.yaml", "tools.yaml")) for f in DOMAIN_FILES}
    if problems:
        raise LexiconError(problems)
    fingerprint = fingerprint_files(domain_files(root, name)) + ("*" if overrides else "")
    return domain_from_data(name, raw, root=root, fingerprint=fingerprint)


def domain_from_data(
    name: str,
    raw: dict[str, Any],
    *,
    root: Path | str = DEFAULT_LEXICON_ROOT,
    fingerprint: str = "memory",
    shared: LanguageWords | None = None,
) -> Domain:
    """Validate parsed lexicon data (file name -> data) into a Domain; files need not exist."""
    root = Path(root)
    folder = root / name
    lbl = {f: _label(root, folder / f) for f in DOMAIN_FILES}
    problems: list[Problem] = []

    def attempt(fn, *args):
        try:
            return fn(*args)
        except LexiconError as exc:
            problems.extend(exc.problems)
            return None

    settings = attempt(_parse_settings, raw.get("settings.yaml") or {}, lbl["settings.yaml"], name)
    tools = attempt(_parse_tools, raw.get("tools.yaml"), lbl["tools.yaml"])
    syn = attempt(_parse_synonyms, raw.get("synonyms.yaml"), lbl["synonyms.yaml"])
    if shared is None:
        shared = attempt(load_shared_words, root)
    if problems:
        raise LexiconError(problems)
    synonyms, _ = syn
    canonicals = {canon for canon, _ in synonyms}
    attempt(_check_tool_terms, tools, canonicals, lbl["tools.yaml"], raw.get("tools.yaml"))
    patterns = attempt(_parse_patterns, raw.get("patterns.yaml"), lbl["patterns.yaml"], {t.name: t for t in tools}, canonicals)
    if problems:
        raise LexiconError(problems)
    return Domain(
        name=name,
        root=folder,
        settings=settings,
        tools=tools,
        synonyms=synonyms,
        patterns=patterns or (),
        words=shared,
        fingerprint=fingerprint,
    )
