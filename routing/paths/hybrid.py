"""The hybrid path: what the fast path runs and what the LLM path sends, with its cost.

routing.paths.decide_path decides fast vs llm; this module fills the path fields of the contract
(category, model, pipeline, enrichments, tools_sent, estimate, events) for every domain, from the
domain's `paths:` settings (and, if present, its groups.yaml of meta-tools):

  fast  the matched intent's fixed pipeline with the query's parameters (dates resolved with the
        domain's fiscal year), its enrichments, the cheapest model only for formatting, no tools.
  llm   a keyword classifier (no LLM) picks general_chat / bookkeeper / cfo; only that category's
        tools are sent; the model is cheap or capable (analytical, multi-step or long queries).

A conversation passes the previous turn's mode in `context={"mode": ...}`: an action request in a
cfo conversation uses bookkeeper tools for that turn and emits `mode_switch`.

    run_llm(router, result, client=None) -> RouteResult    # the real call (routing.llm)
    cost_profile(router) / monthly_cost(profile, volume, mix)   # the catalog page's simulator
"""
from __future__ import annotations

import json
import statistics
import threading
import weakref
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Callable, Mapping

from routing.paths.catalog import estimate_tokens, function_schema
from routing.dates.resolver import DateSettings, resolve_expression
from routing.core.errors import ErrorCode, LexiconError, Problem
from routing.core.lexicon import SHARED_DIR, Domain, Param, Tool
from routing.paths.llm import ChatRequest, LLMClient, LLMReply
from routing.paths.decide import decide_path
from routing.core.schema import ErrorInfo, Path, RouteResult, Status
from routing.core.text import words
from routing.core.yamlio import ProblemCollector, line_of, read_yaml

GENERAL_CHAT = "general_chat"
TIERS = ("cheap", "capable")
ENRICHMENT_NAMES = ("trend_analysis", "currency_format", "ranking", "alert_evaluation")
GROUPS_FILE = "groups.yaml"
# A domain without tool groups sends at most this many of its tools on the LLM path (the design: 15-20).
MAX_TOOLS_SENT = 20
OPERATION_PARAM = "operation"  # a meta-tool's argument naming which of its API tools to run


# ---------------------------------------------------------------- configuration


@dataclass(frozen=True)
class ModelSpec:
    tier: str
    name: str
    input_usd_per_1m: float
    output_usd_per_1m: float
    base_latency_ms: float
    ms_per_output_token: float

    def cost_usd(self, tokens_in: int, tokens_out: int) -> float:
        return (tokens_in * self.input_usd_per_1m + tokens_out * self.output_usd_per_1m) / 1_000_000


@dataclass(frozen=True)
class MetaTool:
    """A module-level tool sent to the model; it stands for an explicit list of API tools."""

    name: str
    group: str
    description: str
    outputs: tuple[str, ...]
    tools: tuple[str, ...]
    common_params: tuple[Param, ...] = ()

    def as_tool(self) -> Tool:
        operation = Param(
            name=OPERATION_PARAM,
            type="enum",
            values=self.tools,
            required=True,
            description="which operation of this module to run",
        )
        return Tool(self.name, self.description, "action", (), (), (operation,) + self.common_params, ())


@dataclass(frozen=True)
class PathConfig:
    domain: str
    default_category: str
    classifier: dict[str, tuple[tuple[str, ...], ...]]
    analytical: tuple[tuple[str, ...], ...]
    multi_step: tuple[tuple[str, ...], ...]
    request_verbs: tuple[tuple[str, ...], ...]
    multi_step_verbs: int
    long_query_words: int
    models: dict[str, ModelSpec]
    answer_tokens: dict[str, int]
    tool_call_tokens: int
    pipeline_step_ms: float
    message_overhead_tokens: int
    enrichments_by_output: dict[str, str]
    outputs_by_kind: dict[str, tuple[str, ...]]
    system_prompts: dict[str, str]
    tool_categories: dict[str, str]  # intent name -> category
    send_groups: dict[str, tuple[str, ...]]  # category -> groups of meta-tools sent
    meta_tools: tuple[MetaTool, ...]
    cost: dict = field(default_factory=dict)
    schemas: dict[str, dict] = field(default_factory=dict, compare=False)  # tool name -> function schema
    schema_tokens: dict[str, int] = field(default_factory=dict, compare=False)  # tool name -> its tokens
    tools_by_category: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    category_sets: dict[str, frozenset] = field(default_factory=dict, compare=False)

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(self.classifier)

    def tools_for(self, category: str) -> tuple[str, ...]:
        """Every tool the category may send (computed once per category)."""
        cached = self.tools_by_category.get(category)
        if cached is None:
            if self.meta_tools:
                groups = self.send_groups.get(category, ())
                cached = tuple(m.name for m in self.meta_tools if m.group in groups)
            elif category == GENERAL_CHAT:
                cached = ()
            else:
                cached = tuple(name for name, cat in self.tool_categories.items() if cat == category)
            self.tools_by_category[category] = cached
        return cached

    def tools_to_send(self, category: str, ranked: list[str]) -> tuple[str, ...]:
        """What goes to the model: a group's meta-tools, or (a domain without groups) at most
        MAX_TOOLS_SENT of the category's tools, the router's best candidates first."""
        tools = self.tools_for(category)
        if self.meta_tools or len(tools) <= MAX_TOOLS_SENT:
            return tools
        allowed = self.category_sets.setdefault(category, frozenset(tools))
        head = [name for name in ranked if name in allowed]
        return tuple(dict.fromkeys(head + list(tools[: MAX_TOOLS_SENT])))[:MAX_TOOLS_SENT]

    def meta_tool(self, name: str) -> MetaTool | None:
        return next((m for m in self.meta_tools if m.name == name), None)

    def enrichments_for(self, outputs: tuple[str, ...] | list[str]) -> list[str]:
        return list(dict.fromkeys(self.enrichments_by_output[o] for o in outputs if o in self.enrichments_by_output))


_line = line_of


def _phrases(value: Any, p: ProblemCollector, line: int, what: str) -> tuple[tuple[str, ...], ...]:
    if value is None:
        return ()
    if not isinstance(value, list):
        p.add(line, f"{what} must be a list of words or phrases")
        return ()
    out = []
    for i, item in enumerate(value):
        key = words(str(item)) if isinstance(item, (str, int)) else ()
        if not key:
            p.add(_line(value, i) or line, f"{what}: item {i + 1} has no letters or digits")
            continue
        out.append(key)
    return tuple(out)


def _num(node: Any, key: str, p: ProblemCollector, where: str, default: float, *, lo: float = 0.0) -> float:
    value = node.get(key, default) if isinstance(node, dict) else default
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < lo:
        p.add(_line(node, key), f"{where}.{key} must be a number >= {lo:g}, not {value!r}")
        return default
    return float(value)


def _label(domain: Domain, file: str) -> str:
    return f"{domain.root.parent.name}/{domain.name}/{file}"


def _outputs(value: Any) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


def load_path_config(domain: Domain, *, date_lexicon=None) -> PathConfig:
    """Read and check the domain's `paths:` settings, groups.yaml and the intents' path keys.
    Raises LexiconError naming file, line and problem for everything wrong at once."""
    p = ProblemCollector(_label(domain, "settings.yaml"))
    raw = domain.settings.extra.get("paths")
    if raw is None:
        # No section of its own (an imported domain): the shared defaults apply.
        shared = domain.root.parent / SHARED_DIR / "paths.yaml"
        p = ProblemCollector(f"{shared.parent.parent.name}/{shared.parent.name}/{shared.name}")
        data = read_yaml(shared, p.label) if shared.exists() else None
        raw = data.get("paths") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        raise LexiconError([Problem(p.label, None, "no 'paths:' section: the hybrid path needs models, prices, a classifier and system prompts")])
    cls = raw.get("classifier")
    classifier: dict[str, tuple[tuple[str, ...], ...]] = {}
    if not isinstance(cls, dict) or GENERAL_CHAT not in cls:
        p.add(_line(raw, "classifier"), f"paths.classifier must map {GENERAL_CHAT} and each mode to its words")
    else:
        for cat, items in cls.items():
            classifier[str(cat)] = _phrases(items, p, _line(cls, cat), f"paths.classifier.{cat}")
    default_category = str(raw.get("default_category", ""))
    if classifier and default_category not in classifier:
        p.add(_line(raw, "default_category"), f"paths.default_category {default_category!r} is not a classifier category ({', '.join(classifier)})")
    ms = raw.get("model_selection") or {}
    msl = _line(raw, "model_selection")
    analytical = _phrases(ms.get("analytical"), p, _line(ms, "analytical") or msl, "paths.model_selection.analytical")
    multi = _phrases(ms.get("multi_step"), p, _line(ms, "multi_step") or msl, "paths.model_selection.multi_step")
    verbs = _phrases(ms.get("request_verbs"), p, _line(ms, "request_verbs") or msl, "paths.model_selection.request_verbs")
    models: dict[str, ModelSpec] = {}
    mraw = raw.get("models") or {}
    for tier in TIERS:
        m = mraw.get(tier) if isinstance(mraw, dict) else None
        if not isinstance(m, dict) or not m.get("name"):
            p.add(_line(mraw, tier) or _line(raw, "models"), f"paths.models.{tier} needs a name and prices")
            continue
        where = f"paths.models.{tier}"
        models[tier] = ModelSpec(
            tier=tier,
            name=str(m["name"]),
            input_usd_per_1m=_num(m, "input_usd_per_1m", p, where, 0.0),
            output_usd_per_1m=_num(m, "output_usd_per_1m", p, where, 0.0),
            base_latency_ms=_num(m, "base_latency_ms", p, where, 500.0),
            ms_per_output_token=_num(m, "ms_per_output_token", p, where, 15.0),
        )
    est = raw.get("estimate") or {}
    answer = est.get("answer_tokens") or {}
    answer_tokens = {k: int(_num(answer, k, p, "paths.estimate.answer_tokens", d)) for k, d in (("fast", 180), ("llm", 260), (GENERAL_CHAT, 60))}
    e_by_o = raw.get("enrichments_by_output") or {}
    if not isinstance(e_by_o, dict) or not e_by_o:
        p.add(_line(raw, "enrichments_by_output"), "paths.enrichments_by_output must map output shapes to enrichments")
        e_by_o = {}
    for shape, name in e_by_o.items():
        if name not in ENRICHMENT_NAMES:
            p.add(_line(e_by_o, shape), f"unknown enrichment {name!r} (known: {', '.join(ENRICHMENT_NAMES)})")
    obk = raw.get("outputs_by_kind") or {}
    outputs_by_kind = {str(k): _outputs(v) for k, v in obk.items()} if isinstance(obk, dict) else {}
    prompts_raw = raw.get("system_prompts") or {}
    prompts = {str(k): str(v).strip() for k, v in prompts_raw.items()} if isinstance(prompts_raw, dict) else {}
    for needed in list(classifier) + ["format"]:
        if not prompts.get(needed):
            p.add(_line(raw, "system_prompts"), f"paths.system_prompts.{needed} is missing")
    # Intent categories: the tool's own `category:`, else paths.tool_categories, else the default.
    tc = raw.get("tool_categories") or {}
    mapped: dict[str, str] = {}
    if isinstance(tc, dict):
        for cat, names in tc.items():
            for n in names or []:
                mapped[str(n)] = str(cat)
                if domain.tool(str(n)) is None:
                    p.add(_line(tc, cat), f"paths.tool_categories.{cat}: unknown tool {n!r}")
    tool_categories = {t.name: str(t.category or mapped.get(t.name) or default_category) for t in domain.tools}
    meta_tools, send = _load_groups(domain, p.problems)
    tp = ProblemCollector(_label(domain, "tools.yaml"))
    underlying = {name for m in meta_tools for name in m.tools}
    meta_names = {m.name for m in meta_tools}
    for t in domain.tools:
        cat = tool_categories[t.name]
        if classifier and cat not in classifier:
            tp.add(None, f"tool {t.name}: category {cat!r} is not one of {', '.join(c for c in classifier if c != GENERAL_CHAT)}")
        pipeline = t.extra.get("pipeline")
        pl = _line(pipeline)
        if pipeline is not None and not isinstance(pipeline, list):
            tp.add(pl, f"tool {t.name}: pipeline must be a list of {{tool, params}} steps")
            pipeline = []
        params = {x.name for x in t.params}
        for i, step in enumerate(pipeline or []):
            sl = _line(pipeline, i) or pl
            if not isinstance(step, dict) or not step.get("tool"):
                tp.add(sl, f"tool {t.name}: pipeline step {i + 1} needs a tool")
                continue
            if underlying and step["tool"] not in underlying:
                tp.add(sl, f"tool {t.name}: pipeline step {step['tool']!r} is not an API tool of any meta-tool in {GROUPS_FILE}")
            for value in (step.get("params") or {}).values():
                if isinstance(value, str) and value.startswith("$") and value[1:] not in params:
                    tp.add(sl, f"tool {t.name}: pipeline parameter {value} is not one of its params ({', '.join(sorted(params)) or 'none'})")
        for name in t.extra.get("enrichments") or []:
            if name not in ENRICHMENT_NAMES:
                tp.add(_line(t.extra.get("enrichments")), f"tool {t.name}: unknown enrichment {name!r}")
        for shape in _outputs(t.output):
            if e_by_o and shape not in e_by_o:
                tp.add(None, f"tool {t.name}: unknown output shape {shape!r} (known: {', '.join(e_by_o)})")
        group = t.extra.get("group")
        if group is not None and meta_names and group not in meta_names:
            tp.add(None, f"tool {t.name}: group {group!r} is not a meta-tool in {GROUPS_FILE}")
        period = t.extra.get("default_period")
        if period is not None and not _period_resolves(str(period), domain, date_lexicon):
            tp.add(None, f"tool {t.name}: default_period {period!r} is not a date expression the resolver knows")
    problems = p.problems + tp.problems
    if problems:
        raise LexiconError(problems)
    cfg = PathConfig(
        domain=domain.name,
        default_category=default_category,
        classifier=classifier,
        analytical=analytical,
        multi_step=multi,
        request_verbs=verbs,
        multi_step_verbs=int(ms.get("multi_step_verbs", 2)) if isinstance(ms, dict) else 2,
        long_query_words=int(ms.get("long_query_words", 30)) if isinstance(ms, dict) else 30,
        models=models,
        answer_tokens=answer_tokens,
        tool_call_tokens=int(_num(est, "tool_call_tokens", p, "paths.estimate", 60)),
        pipeline_step_ms=_num(est, "pipeline_step_ms", p, "paths.estimate", 150),
        message_overhead_tokens=int(_num(est, "message_overhead_tokens", p, "paths.estimate", 12)),
        enrichments_by_output={str(k): str(v) for k, v in e_by_o.items()},
        outputs_by_kind=outputs_by_kind,
        system_prompts=prompts,
        tool_categories=tool_categories,
        send_groups=send,
        meta_tools=meta_tools,
        cost=dict(raw.get("cost") or {}),
    )
    for m in meta_tools:
        cfg.schemas[m.name] = function_schema(m.as_tool())
    for t in domain.tools:
        cfg.schemas.setdefault(t.name, function_schema(t))
    cfg.schema_tokens.update({name: estimate_tokens(schema) for name, schema in cfg.schemas.items()})
    return cfg


def _period_resolves(expression: str, domain: Domain, date_lexicon=None) -> bool:
    from routing.dates.resolver import load_date_lexicon

    lexicon = date_lexicon or load_date_lexicon(domain.root.parent / "_shared" / "dates.yaml")
    s = domain.settings
    # Any fixed reference date will do: the question is whether the words resolve at all.
    ranges = resolve_expression(expression, today=date(2026, 1, 22), settings=DateSettings(s.week_start, s.fiscal_year_start_month, s.fiscal_year_label), lexicon=lexicon)
    return any(r.resolved for r in ranges)


def _load_groups(domain: Domain, problems: list[Problem]) -> tuple[tuple[MetaTool, ...], dict[str, tuple[str, ...]]]:
    path = domain.root / GROUPS_FILE
    if not path.exists():
        return (), {}
    label = _label(domain, GROUPS_FILE)
    p = ProblemCollector(label)
    try:
        data = read_yaml(path, label)
    except LexiconError as exc:
        problems.extend(exc.problems)
        return (), {}
    if not isinstance(data, dict) or not isinstance(data.get("meta_tools"), list):
        problems.append(Problem(label, 1, "must have send: and a meta_tools: list"))
        return (), {}
    common: list[Param] = []
    for i, cp in enumerate(data.get("common_params") or []):
        if not isinstance(cp, dict) or not cp.get("name"):
            p.add(_line(data.get("common_params"), i), "each common param needs a name")
            continue
        common.append(Param(name=str(cp["name"]), type=str(cp.get("type", "string")), description=str(cp.get("description") or "")))
    out: list[MetaTool] = []
    owner: dict[str, str] = {}
    raw = data["meta_tools"]
    for i, m in enumerate(raw):
        ml = _line(raw, i)
        if not isinstance(m, dict) or not m.get("name") or not m.get("group"):
            p.add(ml, f"meta-tool {i + 1} needs a name and a group")
            continue
        tools = m.get("tools")
        if not isinstance(tools, list) or not tools:
            p.add(ml, f"meta-tool {m['name']} needs an explicit tools: list of API tool names")
            tools = []
        for j, t in enumerate(tools):
            if str(t) in owner:
                p.add(_line(tools, j) or ml, f"API tool {t!r} is listed under both {owner[str(t)]} and {m['name']}")
            owner[str(t)] = str(m["name"])
        if any(x.name == m["name"] for x in out):
            p.add(ml, f"meta-tool {m['name']!r} is defined twice")
        out.append(
            MetaTool(
                name=str(m["name"]),
                group=str(m["group"]),
                description=str(m.get("description") or "").strip(),
                outputs=_outputs(m.get("output")),
                tools=tuple(str(t) for t in tools),
                common_params=tuple(common),
            )
        )
    send_raw = data.get("send") or {}
    send: dict[str, tuple[str, ...]] = {}
    groups = {m.group for m in out}
    if not isinstance(send_raw, dict) or not send_raw:
        p.add(_line(data, "send"), "send: must map each category to the groups whose meta-tools are sent")
    else:
        for cat, names in send_raw.items():
            send[str(cat)] = tuple(str(n) for n in (names or []))
            for n in send[str(cat)]:
                if n not in groups:
                    p.add(_line(send_raw, cat), f"send.{cat}: no meta-tool is in group {n!r}")
    problems.extend(p.problems)
    return tuple(out), send


_CONFIGS: dict[int, tuple[weakref.ref, PathConfig | LexiconError]] = {}
_CONFIG_LOCK = threading.Lock()


def path_config(router) -> PathConfig:
    """The router's path configuration, built once per router (lexicon version). Raises LexiconError."""
    domain = router.domain
    with _CONFIG_LOCK:
        hit = _CONFIGS.get(id(domain))
        if hit is not None and hit[0]() is domain:
            cached = hit[1]
        else:
            try:
                cached = load_path_config(domain, date_lexicon=router.date_lexicon)
            except LexiconError as exc:
                cached = exc
            _CONFIGS[id(domain)] = (weakref.ref(domain, lambda _r, k=id(domain): _CONFIGS.pop(k, None)), cached)
    if isinstance(cached, LexiconError):
        raise cached
    return cached


# ---------------------------------------------------------------- classification


@dataclass(frozen=True)
class Classification:
    category: str
    hits: dict[str, list[str]]
    reason: str


def _find_phrases(tokens: tuple[str, ...], phrases_by_label: dict[str, tuple[tuple[str, ...], ...]]) -> dict[str, list[str]]:
    """Non-overlapping phrase hits, longest first, per label."""
    used = [False] * len(tokens)
    hits: dict[str, list[str]] = {label: [] for label in phrases_by_label}
    ordered = sorted(((ph, label) for label, phs in phrases_by_label.items() for ph in phs), key=lambda x: -len(x[0]))
    for phrase, label in ordered:
        n = len(phrase)
        for i in range(len(tokens) - n + 1):
            if tokens[i : i + n] == phrase and not any(used[i : i + n]):
                used[i : i + n] = [True] * n
                hits[label].append(" ".join(phrase))
    return hits


def _contains(tokens: tuple[str, ...], phrases: tuple[tuple[str, ...], ...]) -> list[str]:
    found = []
    for phrase in phrases:
        n = len(phrase)
        if any(tokens[i : i + n] == phrase for i in range(len(tokens) - n + 1)):
            found.append(" ".join(phrase))
    return found


def classify_category(query: str, cfg: PathConfig, *, has_concepts: bool, previous_mode: str | None = None) -> Classification:
    """Keyword classifier (no LLM): general chat only when nothing in the query names business data;
    action words beat report words on a tie only when they come first; else the conversation's mode."""
    tokens = words(query)
    hits = _find_phrases(tokens, cfg.classifier)
    modes = [c for c in cfg.classifier if c != GENERAL_CHAT]
    counts = {c: len(hits.get(c, [])) for c in modes}
    best = max(counts.values(), default=0)
    if best > 0:
        leaders = [c for c in modes if counts[c] == best]
        if len(leaders) == 1:
            chosen = leaders[0]
        else:
            first = {c: min(tokens.index(h.split()[0]) for h in hits[c]) for c in leaders}
            chosen = min(leaders, key=lambda c: (first[c], modes.index(c)))
        return Classification(chosen, hits, f"{chosen} words: {', '.join(hits[chosen])}")
    if hits.get(GENERAL_CHAT) and not has_concepts:
        return Classification(GENERAL_CHAT, hits, f"chat words only: {', '.join(hits[GENERAL_CHAT])}")
    if previous_mode in modes:
        return Classification(previous_mode, hits, f"no mode words; the conversation continues in {previous_mode}")
    return Classification(cfg.default_category, hits, f"no mode words; {cfg.default_category} by default")


@dataclass(frozen=True)
class ModelChoice:
    spec: ModelSpec
    reason: str


def choose_model(query: str, category: str, cfg: PathConfig) -> ModelChoice:
    """Cheapest for chat and simple questions; capable for analytical, multi-step or long ones."""
    cheap, capable = cfg.models["cheap"], cfg.models["capable"]
    if category == GENERAL_CHAT:
        return ModelChoice(cheap, "chat needs the cheapest model")
    tokens = words(query)
    reasons = []
    analytical = _contains(tokens, cfg.analytical)
    if analytical:
        reasons.append("analytical (" + ", ".join(analytical) + ")")
    markers = _contains(tokens, cfg.multi_step)
    verbs = _contains(tokens, cfg.request_verbs)
    if markers or len(verbs) >= cfg.multi_step_verbs:
        reasons.append("multi-step (" + ", ".join(markers + verbs) + ")")
    if len(tokens) >= cfg.long_query_words:
        reasons.append(f"long ({len(tokens)} words)")
    if reasons:
        return ModelChoice(capable, "capable model: " + "; ".join(reasons))
    return ModelChoice(cheap, "a simple question: the cheapest model")


# ---------------------------------------------------------------- planning


def _context_mode(context: Mapping | None) -> str | None:
    if not isinstance(context, Mapping):
        return None
    mode = context.get("mode") or context.get("previous_mode")
    return str(mode) if mode else None


def fill_pipeline(tool: Tool, params: dict[str, Any], router, today: date) -> tuple[list[dict], list[str]]:
    """The intent's fixed steps with the query's parameters; a date left open takes the intent's
    default_period (resolved with the domain's fiscal year). Returns steps and notes."""
    values = dict(params)
    notes: list[str] = []
    period = tool.extra.get("default_period")
    wants_dates = [p for p in tool.params if p.role in ("date_from", "date_to") and p.name not in values]
    if period and wants_dates:
        ranges = [r for r in resolve_expression(str(period), today=today, settings=router.index.date_settings, lexicon=router.date_lexicon) if r.resolved]
        if ranges:
            r = ranges[0]
            for p in wants_dates:
                values[p.name] = (r.start if p.role == "date_from" else r.end).isoformat()
            notes.append(f"no date in the question: {period} ({r.start.isoformat()} to {r.end.isoformat()})")
    raw_steps = tool.extra.get("pipeline")
    if not raw_steps:  # a domain without pipelines: the tool itself, with the query's parameters
        return [{"tool": tool.name, "params": {k: v for k, v in values.items() if v is not None}}], notes
    steps = []
    for step in raw_steps:
        filled: dict[str, Any] = {}
        open_params: list[str] = []
        for key, value in (step.get("params") or {}).items():
            if isinstance(value, str) and value.startswith("$"):
                name = value[1:]
                if values.get(name) is not None:
                    filled[key] = values[name]
                else:
                    open_params.append(key)
            else:
                filled[key] = value
        out = {"tool": str(step["tool"]), "params": filled}
        if open_params:
            out["open"] = open_params
        steps.append(out)
    return steps, notes


def estimate_cost(cfg: PathConfig, model: ModelSpec, *, system: str, user: str, tools: tuple[str, ...], answer_tokens: int, steps: int = 0, tool_call: bool = False) -> dict:
    """Tokens in (system prompt, question, tool schemas) and out (answer, tool call), priced with the
    model's per-token prices; latency = model base + output tokens + pipeline steps. Planning figures."""
    tokens_in = cfg.message_overhead_tokens + estimate_tokens(system) + estimate_tokens(user)
    tokens_in += sum(cfg.schema_tokens.get(t, 0) for t in tools)
    tokens_out = answer_tokens + (cfg.tool_call_tokens if tool_call else 0)
    latency = model.base_latency_ms + tokens_out * model.ms_per_output_token + steps * cfg.pipeline_step_ms
    return {
        "tokens": tokens_in + tokens_out,
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "cost_usd": round(model.cost_usd(tokens_in, tokens_out), 6),
        "latency_ms": round(latency),
        "model": model.name,
    }


def _outputs_of(tool: Tool, cfg: PathConfig) -> tuple[str, ...]:
    return _outputs(tool.output) or cfg.outputs_by_kind.get(tool.kind, ())


def plan_route(router, status: Status, matches: list, analysis, query: Any, context: Mapping | None) -> Callable[[RouteResult], RouteResult] | None:
    """Router.plan_path: a function that fills the path fields of a routed result."""
    try:
        cfg = path_config(router)
    except LexiconError as exc:
        # Routing still answers; the result says why its path fields are missing.
        failure = {"message": str(exc), "problems": [p.to_dict() for p in exc.problems]}

        def unplanned(result: RouteResult) -> RouteResult:
            return replace(result, extra=dict(result.extra, path_config_error=failure))

        return unplanned
    path, _ = decide_path(status, matches)
    previous = _context_mode(context)
    has_concepts = bool(getattr(analysis, "concepts", None))

    def plan(result: RouteResult) -> RouteResult:
        text = query if isinstance(query, str) else ""
        today = date.fromisoformat(result.today)
        extra = dict(result.extra)
        if path is Path.FAST:
            top = matches[0]
            tool = router.domain.tool(top.name)
            category = cfg.tool_categories.get(top.name, cfg.default_category)
            model = cfg.models["cheap"]
            pipeline, notes = fill_pipeline(tool, top.suggested_params, router, today)
            declared = tool.extra.get("enrichments")  # an explicit [] means none
            enrichments = list(declared) if declared is not None else cfg.enrichments_for(_outputs_of(tool, cfg))
            tools_sent: tuple[str, ...] = ()
            user = json.dumps({"question": text, "pipeline": pipeline}, ensure_ascii=False)
            estimate = estimate_cost(cfg, model, system=cfg.system_prompts["format"], user=user, tools=(), answer_tokens=cfg.answer_tokens["fast"], steps=len(pipeline))
            extra.update(model_tier="cheap", model_reason="the fast path: the cheapest model only formats the answer", pipeline_notes=notes)
            classified_by = f"intent {top.name}"
            enrichment_source = "the intent's"
        else:
            c = classify_category(text, cfg, has_concepts=has_concepts, previous_mode=previous)
            category = c.category
            choice = choose_model(text, category, cfg)
            model = choice.spec
            pipeline = []
            tools_sent = cfg.tools_to_send(category, [c["name"] for c in result.extra.get("candidates", [])])
            likely = _likely_outputs(result, router, cfg, category)
            enrichments = cfg.enrichments_for(likely) if category != GENERAL_CHAT else []
            answer = cfg.answer_tokens[GENERAL_CHAT if category == GENERAL_CHAT else "llm"]
            estimate = estimate_cost(cfg, model, system=cfg.system_prompts[category], user=text, tools=tools_sent, answer_tokens=answer, tool_call=bool(tools_sent))
            extra.update(model_tier=model.tier, model_reason=choice.reason, classifier={"category": category, "hits": c.hits, "reason": c.reason})
            classified_by = c.reason
            enrichment_source = "predicted from the likely intents' output" if enrichments else ""
        mode = category if category in cfg.classifier else cfg.default_category
        events = _events(result.events, status, category, path, tools_sent, pipeline, enrichments, classified_by)
        switched = previous is not None and mode != GENERAL_CHAT and previous != GENERAL_CHAT and mode != previous
        conversation_mode = previous if (previous and mode == GENERAL_CHAT) else mode
        if switched:
            reason = "an action request" if mode != cfg.default_category else "a report request"
            events.append({"type": "mode_switch", "from": previous, "to": mode, "reason": f"{reason}; {mode} tools for this turn"})
            # The cross-over is for one turn: the conversation stays in its mode.
            conversation_mode = previous if previous == cfg.default_category else mode
        extra.update(
            mode=mode,
            previous_mode=previous,
            conversation_mode=conversation_mode,
            enrichments_source=enrichment_source,
        )
        return replace(
            result,
            category=category,
            model=model.name,
            pipeline=pipeline,
            enrichments=enrichments,
            tools_sent=list(tools_sent),
            estimate=estimate,
            events=events,
            extra=extra,
        )

    return plan


def _likely_outputs(result: RouteResult, router, cfg: PathConfig, category: str) -> tuple[str, ...]:
    """Output shapes of the candidate intents in the chosen category (what the tools will likely return)."""
    low = result.thresholds.get("low", router.thresholds.low)
    shapes: list[str] = []
    for cand in result.extra.get("candidates", []):
        if cand.get("confidence", 0) < low or cfg.tool_categories.get(cand["name"]) != category:
            continue
        tool = router.domain.tool(cand["name"])
        if tool is not None:
            shapes.extend(_outputs_of(tool, cfg))
    return tuple(dict.fromkeys(shapes))


def _events(existing: list[dict], status: Status, category: str, path: Path, tools_sent, pipeline, enrichments, reason: str) -> list[dict]:
    events = []
    for e in existing:
        if e.get("type") == "route_classified":
            e = dict(e, category=category, path=path.value, reason=reason)
        events.append(e)
    events.append({"type": "tools_filtered", "count": len(tools_sent), "tools": list(tools_sent)})
    events.append({"type": "pipeline_executing", "steps": len(pipeline), "tools": [s["tool"] for s in pipeline]})
    events.append({"type": "enrichments_applying", "enrichments": list(enrichments)})
    return events


# ---------------------------------------------------------------- the real LLM call


def build_request(router, result: RouteResult, *, model_name: str | None = None) -> ChatRequest:
    """The chat-completions request for a planned result (fast path: format only, no tools)."""
    cfg = path_config(router)
    text = result.query if isinstance(result.query, str) else ""
    model = model_name or result.model or cfg.models["cheap"].name
    if result.path is Path.FAST:
        user = json.dumps({"question": text, "pipeline": result.pipeline, "enrichments": result.enrichments}, ensure_ascii=False)
        return ChatRequest(model, ({"role": "system", "content": cfg.system_prompts["format"]}, {"role": "user", "content": user}))
    category = result.category or cfg.default_category
    tools = tuple(cfg.schemas[t] for t in result.tools_sent if t in cfg.schemas)
    messages = ({"role": "system", "content": cfg.system_prompts.get(category, "")}, {"role": "user", "content": text})
    return ChatRequest(model, messages, tools)


def run_llm(router, result: RouteResult, *, client: LLMClient | None = None) -> RouteResult:
    """Run the planned path for real. Never raises: faults come back as UPSTREAM_DOWN with the reason
    and the request that was (or would have been) sent."""
    if result.error is not None and result.error.code == ErrorCode.INVALID_QUERY.value:
        return result
    try:
        cfg = path_config(router)
    except LexiconError as exc:
        return replace(result, error=ErrorInfo(ErrorCode.LEXICON_INVALID.value, str(exc)))
    client = client or LLMClient()
    tier = result.extra.get("model_tier") or "cheap"
    planned = result.model or cfg.models["cheap"].name
    request = build_request(router, result, model_name=client.config.model_name(tier, planned))
    reply: LLMReply = client.complete(request)
    llm = {
        "model": reply.model,
        "tier": tier,
        "tool_call": reply.tool_call,
        "text": reply.text,
        "attempts": reply.attempts,
        "latency_ms": reply.latency_ms,
        "endpoint": client.config.endpoint,
        "request": request.to_dict(),
    }
    events = list(result.events)
    if not reply.ok:
        events.append({"type": "llm_failed", "reason": reply.reason})
        error = ErrorInfo(ErrorCode.UPSTREAM_DOWN.value, reply.reason or "The LLM endpoint failed.", {"attempts": reply.attempts, "status_code": reply.status_code})
        return replace(result, llm=llm, error=error, events=events)
    events.append({"type": "llm_called", "tool": (reply.tool_call or {}).get("name"), "model": reply.model})
    extra = dict(result.extra)
    enrichments = result.enrichments
    called = cfg.meta_tool((reply.tool_call or {}).get("name", "")) if reply.tool_call else None
    if called is not None:
        enrichments = cfg.enrichments_for(called.outputs)
        extra["enrichments_source"] = f"the output of {called.name}"
    elif reply.tool_call and router.domain.tool(reply.tool_call["name"]) is not None:
        enrichments = cfg.enrichments_for(_outputs_of(router.domain.tool(reply.tool_call["name"]), cfg))
        extra["enrichments_source"] = f"the output of {reply.tool_call['name']}"
    return replace(result, llm=llm, events=events, enrichments=enrichments, extra=extra)


def run_llm_for_dict(router, result: dict, *, client: LLMClient | None = None) -> dict:
    """run_llm for a result the page holds as a dict: routes it again (same query, date, thresholds
    and conversation mode) and runs it."""
    context = {"mode": result["previous_mode"]} if result.get("previous_mode") else None
    again = router.route(result["query"], today=result.get("today"), thresholds=result.get("thresholds") or None, context=context)
    return run_llm(router, again, client=client).to_dict()


def next_context(result: dict | RouteResult, context: Mapping | None = None) -> dict:
    """The context for the next turn of a conversation: carries the conversation's mode."""
    data = result.to_dict() if isinstance(result, RouteResult) else result
    out = dict(context or {})
    if data.get("conversation_mode"):
        out["mode"] = data["conversation_mode"]
    return out


# ---------------------------------------------------------------- enrichments on data


def apply_enrichments(rows: list[dict], names: list[str], *, currency: str, amount_key: str = "amount", threshold: float | None = None) -> dict:
    """Apply enrichments to a tool's rows ([{..., amount}] in order): ranking sorts and ranks,
    currency_format adds `<amount_key>_display`, trend_analysis compares first and last,
    alert_evaluation flags rows at or above the threshold."""
    from routing.paths.money import format_money

    out = [dict(r) for r in rows]
    summary: dict[str, Any] = {}
    amounts = [float(r[amount_key]) for r in out if isinstance(r.get(amount_key), (int, float))]
    if "trend_analysis" in names and len(amounts) >= 2:
        first, last = amounts[0], amounts[-1]
        change = last - first
        summary["trend"] = {
            "change": change,
            "change_pct": round(change / first * 100, 1) if first else None,
            "direction": "up" if change > 0 else "down" if change < 0 else "flat",
            "mean": round(statistics.fmean(amounts), 2),
        }
    if "ranking" in names:
        out.sort(key=lambda r: -float(r.get(amount_key) or 0))
        for i, r in enumerate(out, 1):
            r["rank"] = i
    if "alert_evaluation" in names and threshold is not None:
        for r in out:
            r["alert"] = isinstance(r.get(amount_key), (int, float)) and r[amount_key] >= threshold
        summary["alerts"] = sum(1 for r in out if r.get("alert"))
    if "currency_format" in names:
        for r in out:
            if isinstance(r.get(amount_key), (int, float)):
                r[f"{amount_key}_display"] = format_money(r[amount_key], currency)
        if "trend" in summary:
            summary["trend"]["change_display"] = format_money(summary["trend"]["change"], currency)
    return {"rows": out, "summary": summary}


# ---------------------------------------------------------------- monthly cost


@dataclass(frozen=True)
class CostProfile:
    """Cost of one message on each path, and of the naive baseline (every tool, capable model)."""

    known: dict  # fast path, averaged over the intents
    novel: dict  # LLM path, averaged over modes and model tiers
    chat: dict  # general chat
    all_tools: dict  # every API tool sent to the capable model
    all_tools_count: int
    currency: str
    usd_to_display: float
    novel_capable_share: float


def _avg(estimates: list[dict]) -> dict:
    if not estimates:
        return {"tokens": 0, "cost_usd": 0.0, "latency_ms": 0}
    return {
        "tokens": round(statistics.fmean(e["tokens"] for e in estimates)),
        "cost_usd": statistics.fmean(e["cost_usd"] for e in estimates),
        "latency_ms": round(statistics.fmean(e["latency_ms"] for e in estimates)),
    }


def cost_profile(router, *, today: date | str = "2026-01-22", capable_share: float | None = None) -> CostProfile:
    """Per-message costs: known = each intent's fast path; novel = each mode's LLM path with the
    cheap and capable model (weighted by capable_share); chat = general chat; baseline = every API
    tool (each meta-tool's operations as separate functions) to the capable model."""
    cfg = path_config(router)
    share = float(cfg.cost.get("novel_capable_share", 0.5) if capable_share is None else capable_share)
    today_d = date.fromisoformat(str(today)) if not isinstance(today, date) else today
    known = []
    for t in router.domain.tools:
        steps, _ = fill_pipeline(t, {}, router, today_d)
        user = json.dumps({"question": t.examples[0][1] if t.examples else t.description, "pipeline": steps}, ensure_ascii=False)
        known.append(estimate_cost(cfg, cfg.models["cheap"], system=cfg.system_prompts["format"], user=user, tools=(), answer_tokens=cfg.answer_tokens["fast"], steps=len(steps)))
    sample = statistics.median([len(ex) for t in router.domain.tools for _, ex in t.examples] or [40])
    question = "x" * int(sample)
    novel = []
    for mode in cfg.categories:
        if mode == GENERAL_CHAT:
            continue
        tools = cfg.tools_for(mode)
        for tier, weight in (("cheap", 1 - share), ("capable", share)):
            e = estimate_cost(cfg, cfg.models[tier], system=cfg.system_prompts[mode], user=question, tools=tools, answer_tokens=cfg.answer_tokens["llm"], tool_call=True)
            novel.append((e, weight))
    total_w = sum(w for _, w in novel) or 1.0
    novel_avg = {
        "tokens": round(sum(e["tokens"] * w for e, w in novel) / total_w),
        "cost_usd": sum(e["cost_usd"] * w for e, w in novel) / total_w,
        "latency_ms": round(sum(e["latency_ms"] * w for e, w in novel) / total_w),
    }
    chat = estimate_cost(cfg, cfg.models["cheap"], system=cfg.system_prompts[GENERAL_CHAT], user=question, tools=(), answer_tokens=cfg.answer_tokens[GENERAL_CHAT])
    every = _every_tool_schemas(router.domain, cfg)
    capable = cfg.models["capable"]
    tokens_in = cfg.message_overhead_tokens + estimate_tokens(cfg.system_prompts[cfg.default_category]) + estimate_tokens(question) + sum(estimate_tokens(s) for s in every)
    tokens_out = cfg.answer_tokens["llm"] + cfg.tool_call_tokens
    baseline = {
        "tokens": tokens_in + tokens_out,
        "cost_usd": capable.cost_usd(tokens_in, tokens_out),
        "latency_ms": round(capable.base_latency_ms + tokens_out * capable.ms_per_output_token),
    }
    return CostProfile(
        known=_avg(known),
        novel=novel_avg,
        chat={k: chat[k] for k in ("tokens", "cost_usd", "latency_ms")},
        all_tools=baseline,
        all_tools_count=len(every),
        currency=str(cfg.cost.get("display_currency", "USD")),
        usd_to_display=float(cfg.cost.get("usd_to_display", 1.0)),
        novel_capable_share=share,
    )


def _every_tool_schemas(domain: Domain, cfg: PathConfig) -> list[dict]:
    if not cfg.meta_tools:
        return [cfg.schemas[t.name] for t in domain.tools]
    out = []
    for m in cfg.meta_tools:
        for name in m.tools:
            tool = Tool(name, m.description, "action", (), (), m.common_params, ())
            out.append(function_schema(tool))
    return out


@dataclass(frozen=True)
class MonthlyCost:
    rows: list[dict]  # per path: {path, share, messages, cost_per_message_usd, monthly_usd, latency_ms}
    total_usd: float
    baseline_usd: float
    volume: int

    @property
    def saved_usd(self) -> float:
        return self.baseline_usd - self.total_usd

    @property
    def saved_share(self) -> float:
        return self.saved_usd / self.baseline_usd if self.baseline_usd else 0.0


def monthly_cost(profile: CostProfile, *, volume: int, mix: Mapping[str, float]) -> MonthlyCost:
    """Traffic mix (known / novel / chat, normalised to 1) and monthly volume -> cost per path."""
    if volume < 0:
        raise ValueError("volume must be zero or more")
    weights = {k: max(0.0, float(mix.get(k, 0.0))) for k in ("known", "novel", "chat")}
    total_w = sum(weights.values())
    if total_w <= 0:
        raise ValueError("the traffic mix must have at least one share above zero")
    rows = []
    for key, label, per in (("known", "fast path (known intents)", profile.known), ("novel", "LLM path (novel questions)", profile.novel), ("chat", "general chat", profile.chat)):
        share = weights[key] / total_w
        messages = round(volume * share)
        rows.append(
            {
                "path": label,
                "key": key,
                "share": share,
                "messages": messages,
                "tokens_per_message": per["tokens"],
                "cost_per_message_usd": per["cost_usd"],
                "monthly_usd": per["cost_usd"] * messages,
                "latency_ms": per["latency_ms"],
            }
        )
    total = sum(r["monthly_usd"] for r in rows)
    return MonthlyCost(rows=rows, total_usd=total, baseline_usd=profile.all_tools["cost_usd"] * volume, volume=volume)
