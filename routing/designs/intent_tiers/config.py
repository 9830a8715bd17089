"""tiers.yaml of an intent_tiers domain: tiers, triggers, precedence, pronouns, scoring, validated.

Every problem is reported with file and line (LexiconError), like the other lexicon files; regex
triggers go through the same ReDoS check as patterns.yaml.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from routing.core.errors import LexiconError, Problem
from routing.core.model import Domain
from routing.core.patterns import PatternSafetyError, check_regex
from routing.core.yamlio import ProblemCollector, line_of, read_yaml

DEPTHS = ("L1", "L2")
TIERS_FILE = "tiers.yaml"


@dataclass(frozen=True)
class Trigger:
    tier: str
    term: str | None
    regex: Any  # compiled regex.Pattern or None
    source: str  # the term or the regex as written
    weight: float
    needs_player: bool
    line: int
    # language -> words after which the next word, if that language does not know it, is read as
    # a player's name even in lower case ("stats for saka": "for" is English, English has no "saka")
    name_after: tuple[tuple[str, tuple[str, ...]], ...] = ()
    # a word of everyday language ("why", "improve", "analyze", "vs"): it fires only in a question
    # about football (a player, a pronoun, a name, or a term of the game that is no everyday trigger)
    everyday: bool = False
    # terms that, in a question naming fewer than two players, give the trigger's word another
    # sense ("how does Okafor compare to the league average" is one player against the league)
    unless: tuple[str, ...] = ()
    # a word of what the tier's tools report ("goals", "assists"): said of two players, it fires the
    # domain's two-player tier instead (`defaults.two_players`), where this is the one-player tier
    describes: bool = False
    # a word of the time the tools cover ("lately", "these days"): beside a player named, like `describes` it
    # makes a rare lower-case word no name the roster lacks ("Okafor lagi melempem belakangan ini"), but said
    # of two players it stays the one-player tier's (a correction: "how's A lately - wrong guy, how's B?")
    period: bool = False

    @property
    def label(self) -> str:
        return f"term {self.source}" if self.term else f"regex /{self.source}/"


@dataclass(frozen=True)
class Tier:
    name: str
    label: str
    depth: str
    role: str
    description: str
    tools: tuple[str, ...]
    prompt: str
    triggers: tuple[Trigger, ...]


@dataclass(frozen=True)
class Scoring:
    extra_trigger: float = 0.1
    max_trigger: float = 0.7
    entity: float = 0.3
    second_entity: float = 0.1
    overruled: float = -0.3
    player_only: float = 0.25
    player_match: float = 0.85
    ambiguous_gap: float = 0.05


@dataclass(frozen=True)
class TierConfig:
    tiers: dict[str, Tier]
    precedence: tuple[str, ...]
    scoring: Scoring
    downgrade: dict[str, dict[str, str]]  # max depth -> {tier: tier it becomes}
    pronoun_words: frozenset[str]
    pronoun_regexes: tuple[Any, ...]
    tool_depth: dict[str, str] = field(default_factory=dict)
    defaults: dict[str, str] = field(default_factory=dict)  # one_player / two_players -> tier guessed without a trigger
    # language -> words after which a capitalised word the language knows is a place or a time, no name
    places_after: tuple[tuple[str, frozenset[str]], ...] = ()

    def tier(self, name: str) -> Tier:
        return self.tiers[name]


def load_tier_config(domain: Domain) -> TierConfig:
    path = domain.root / TIERS_FILE
    label = _label(domain.root, path)
    if not path.exists():
        raise LexiconError([Problem(label, None, "file is missing (design intent_tiers needs its tiers)")])
    return parse_tier_config(read_yaml(path, label, root=domain.root.parent), label, domain)


def _label(root: Path, path: Path) -> str:
    return f"{root.name}/{path.name}"


def _num(value: Any, c: ProblemCollector, line: int, what: str, lo: float, hi: float, default: float) -> float:
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not lo <= float(value) <= hi:
        c.add(line, f"{what} must be a number between {lo} and {hi}, not {value!r}")
        return default
    return float(value)


def parse_tier_config(data: Any, label: str, domain: Domain) -> TierConfig:
    c = ProblemCollector(label)
    if not isinstance(data, dict) or not isinstance(data.get("tiers"), dict) or not data["tiers"]:
        raise LexiconError([Problem(label, 1, "must have a top-level 'tiers:' mapping of tier name -> tools, depth, triggers")])
    tool_names = {t.name for t in domain.tools}
    canonicals = {canon for canon, _ in domain.synonyms}
    tool_depth = {}
    for t in domain.tools:
        depth = str(t.extra.get("depth", "L1"))
        if depth not in DEPTHS:
            c.add(1, f"tools.yaml: tool {t.name} depth must be L1 or L2, not {depth!r}")
        tool_depth[t.name] = depth
    tiers: dict[str, Tier] = {}
    raw_tiers = data["tiers"]
    for name, block in raw_tiers.items():
        tl = line_of(raw_tiers, name)
        if not isinstance(block, dict):
            c.add(tl, f"tier {name!r} must be a mapping with tools, depth, prompt and triggers")
            continue
        depth = str(block.get("depth", "L1"))
        if depth not in DEPTHS:
            c.add(line_of(block, "depth") or tl, f"tier {name}: depth must be L1 or L2, not {depth!r}")
        tools = block.get("tools") or []
        if not isinstance(tools, list) or not tools:
            c.add(line_of(block, "tools") or tl, f"tier {name}: tools must be a non-empty list of tool names")
            tools = []
        for t in tools:
            if t not in tool_names:
                c.add(line_of(block, "tools") or tl, f"tier {name}: unknown tool {t!r} (tools.yaml has: {', '.join(sorted(tool_names))})")
            elif depth == "L1" and tool_depth.get(t) == "L2":
                c.add(line_of(block, "tools") or tl, f"tier {name} is L1 but tool {t} reads L2 data")
        prompt = block.get("prompt")
        if not isinstance(prompt, str) or not prompt.strip():
            c.add(tl, f"tier {name}: prompt (the system prompt template) is missing")
            prompt = ""
        triggers = []
        raw_triggers = block.get("triggers") or []
        if not isinstance(raw_triggers, list):
            c.add(line_of(block, "triggers") or tl, f"tier {name}: triggers must be a list")
            raw_triggers = []
        for i, trig in enumerate(raw_triggers):
            il = line_of(raw_triggers, i) or tl
            if not isinstance(trig, dict) or len([k for k in ("term", "regex") if trig.get(k)]) != 1:
                c.add(il, f"tier {name}: trigger {i + 1} needs exactly one of term: or regex:")
                continue
            weight = _num(trig.get("weight"), c, il, f"tier {name} trigger {i + 1} weight", 0, 1, 0.6)
            term, compiled = trig.get("term"), None
            if term is not None:
                term = str(term)
                if term not in canonicals:
                    c.add(il, f"tier {name}: trigger term {term!r} is not a canonical term in synonyms.yaml")
                    continue
                source = term
            else:
                source = str(trig["regex"])
                try:
                    compiled = check_regex(source)
                except PatternSafetyError as exc:
                    c.add(il, f"tier {name}: {exc}")
                    continue
            name_after = trig.get("name_after") or {}
            if not isinstance(name_after, dict) or not all(
                    isinstance(lang, str) and isinstance(ws, list) and all(isinstance(w, str) and w.strip() for w in ws)
                    for lang, ws in name_after.items()):
                c.add(il, f"tier {name}: trigger {i + 1} name_after must map a language code to a list of words, e.g. {{en: [for, of]}}")
                name_after = {}
            if name_after and term is None:
                c.add(il, f"tier {name}: trigger {i + 1} name_after needs a term: trigger")
                name_after = {}
            everyday = trig.get("everyday", False)
            if not isinstance(everyday, bool):
                c.add(il, f"tier {name}: trigger {i + 1} everyday must be true or false, not {everyday!r}")
                everyday = False
            unless = trig.get("unless") or []
            if not isinstance(unless, list) or not all(isinstance(u, str) for u in unless):
                c.add(il, f"tier {name}: trigger {i + 1} unless must be a list of canonical terms")
                unless = []
            for u in unless:
                if u not in canonicals:
                    c.add(il, f"tier {name}: trigger {i + 1} unless names {u!r}, not a canonical term in synonyms.yaml")
            describes = trig.get("describes", False)
            if not isinstance(describes, bool):
                c.add(il, f"tier {name}: trigger {i + 1} describes must be true or false, not {describes!r}")
                describes = False
            period = trig.get("period", False)
            if not isinstance(period, bool):
                c.add(il, f"tier {name}: trigger {i + 1} period must be true or false, not {period!r}")
                period = False
            triggers.append(Trigger(name, term, compiled, source, weight, bool(trig.get("needs_player", False)), il,
                                    tuple((lang, tuple(w.strip().lower() for w in ws)) for lang, ws in name_after.items()),
                                    everyday, tuple(unless), describes, period))
        tiers[name] = Tier(
            name=name,
            label=str(block.get("label") or name.title()),
            depth=depth,
            role=str(block.get("role") or "analyst"),
            description=str(block.get("description") or ""),
            tools=tuple(str(t) for t in tools),
            prompt=prompt,
            triggers=tuple(triggers),
        )
    precedence = data.get("precedence") or list(tiers)
    if not isinstance(precedence, list) or sorted(map(str, precedence)) != sorted(tiers):
        c.add(line_of(data, "precedence"), f"precedence must list every tier once: {', '.join(tiers)}")
        precedence = list(tiers)
    raw_scoring = data.get("scoring") or {}
    sl = line_of(data, "scoring")
    defaults = Scoring()
    values = {}
    for key in Scoring.__dataclass_fields__:
        lo = -1.0 if key == "overruled" else 0.0
        values[key] = _num(raw_scoring.get(key), c, line_of(raw_scoring, key) or sl, f"scoring.{key}", lo, 1.0, getattr(defaults, key))
    unknown = set(raw_scoring) - set(Scoring.__dataclass_fields__)
    if unknown:
        c.add(sl, f"scoring: unknown key(s) {sorted(unknown)}")
    downgrade: dict[str, dict[str, str]] = {}
    raw_md = data.get("max_depth") or {}
    for depth, mapping in (raw_md.items() if isinstance(raw_md, dict) else []):
        ml = line_of(raw_md, depth)
        if depth not in DEPTHS or not isinstance(mapping, dict):
            c.add(ml, f"max_depth: {depth!r} must be L1 or L2 mapping tier -> tier")
            continue
        for src, dst in mapping.items():
            if src not in tiers or dst not in tiers:
                c.add(ml, f"max_depth.{depth}: {src} -> {dst} names an unknown tier")
            elif depth == "L1" and tiers[dst].depth != "L1":
                c.add(ml, f"max_depth.L1: {src} must become an L1 tier, and {dst} is {tiers[dst].depth}")
        downgrade[depth] = {str(k): str(v) for k, v in mapping.items()}
    defaults = {}
    raw_defaults = data.get("defaults") or {}
    for k, v in (raw_defaults.items() if isinstance(raw_defaults, dict) else []):
        if k not in ("one_player", "two_players") or v not in tiers:
            c.add(line_of(raw_defaults, k), f"defaults: {k}: {v!r} must be one_player/two_players -> a tier name")
        else:
            defaults[k] = str(v)
    pron = data.get("pronouns") or {}
    pl = line_of(data, "pronouns")
    words = frozenset(str(w).casefold() for w in (pron.get("words") or [])) if isinstance(pron, dict) else frozenset()
    regexes = []
    for src in (pron.get("regex") or []) if isinstance(pron, dict) else []:
        try:
            regexes.append(check_regex(str(src)))
        except PatternSafetyError as exc:
            c.add(pl, f"pronouns.regex: {exc}")
    raw_places = data.get("places_after") or {}
    if not isinstance(raw_places, dict) or not all(
            isinstance(lang, str) and isinstance(ws, list) and all(isinstance(w, str) and w.strip() for w in ws)
            for lang, ws in raw_places.items()):
        c.add(line_of(data, "places_after"), "places_after must map a language code to a list of words, e.g. {en: [after, since]}")
        raw_places = {}
    if c.problems:
        raise LexiconError(c.problems)
    return TierConfig(
        tiers=tiers,
        precedence=tuple(str(p) for p in precedence),
        scoring=Scoring(**values),
        downgrade=downgrade,
        pronoun_words=words,
        pronoun_regexes=tuple(regexes),
        tool_depth=tool_depth,
        defaults=defaults,
        places_after=tuple((str(lang), frozenset(w.strip().casefold() for w in ws)) for lang, ws in raw_places.items()),
    )
