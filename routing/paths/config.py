"""A domain's path settings, built once per router: models and prices, the keyword classifier's
phrases, tool groups (groups.yaml meta-tools), output kinds and enrichments. A broken setting is a
lexicon error naming file and line."""
from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from typing import Any

from routing.core.errors import LexiconError, Problem
from routing.core.lexicon import SHARED_DIR
from routing.core.model import Domain, Param, Tool
from routing.core.text import words
from routing.core.yamlio import ProblemCollector, check_keys, file_label, line_of, number, read_yaml, str_list
from routing.dates import DateSettings, resolve_expression
from routing.paths.catalog import estimate_tokens, function_schema

GENERAL_CHAT = "general_chat"
# The system prompt of a domain that declares no modes (only general_chat in its classifier, e.g. an
# imported catalog): the question goes to its own tools, and its `category` is null.
NO_MODE = "tools"
TIERS = ("cheap", "capable")
ENRICHMENT_NAMES = ("trend_analysis", "currency_format", "ranking", "alert_evaluation")
GROUPS_FILE = "groups.yaml"
# A domain without tool groups sends at most this many of its tools on the LLM path (the design: 15-20).
MAX_TOOLS_SENT = 20
OPERATION_PARAM = "operation"  # a meta-tool's argument naming which of its API tools to run
# groups.yaml `match_intent: {description}`: a tool offered to the model on the LLM path beside the
# meta-tools; the router's own matcher answers it (routing.paths.run), a secondary signal.
MATCH_INTENT = "match_intent"
# The keys each part of the path settings may hold (anything else is refused: a misspelling).
_KEYS = {
    "paths": {"default_category", "classifier", "model_selection", "models", "estimate", "enrichments_by_output",
              "outputs_by_kind", "tool_categories", "system_prompts", "cost", "conversation_modes", "prompt_cache"},
    "paths.model_selection": {"analytical", "multi_step", "request_verbs", "multi_step_verbs", "long_query_words"},
    "paths.models": set(TIERS),
    "model": {"name", "input_usd_per_1m", "cached_input_usd_per_1m", "output_usd_per_1m", "base_latency_ms", "ms_per_output_token"},
    "paths.estimate": {"answer_tokens", "tool_call_tokens", "pipeline_step_ms", "message_overhead_tokens"},
    "paths.estimate.answer_tokens": {"fast", "llm", GENERAL_CHAT},
    "groups": {"send", "common_params", "meta_tools", "match_intent"},
    "meta_tool": {"name", "group", "description", "output", "tools"},
    "common_param": {"name", "type", "description"},
}


# ---------------------------------------------------------------- configuration


@dataclass(frozen=True)
class ModelSpec:
    tier: str
    name: str
    input_usd_per_1m: float
    output_usd_per_1m: float
    base_latency_ms: float
    ms_per_output_token: float
    # Price of input tokens read from the provider's prompt cache (OpenAI: half price, automatic on a
    # prefix of 1,024 tokens or more; Anthropic: a tenth, on blocks marked cache_control).
    cached_input_usd_per_1m: float | None = None

    def cost_usd(self, tokens_in: int, tokens_out: int, *, cached_in: int = 0) -> float:
        cached_in = min(max(cached_in, 0), tokens_in)
        cached_price = self.input_usd_per_1m if self.cached_input_usd_per_1m is None else self.cached_input_usd_per_1m
        return ((tokens_in - cached_in) * self.input_usd_per_1m + cached_in * cached_price + tokens_out * self.output_usd_per_1m) / 1_000_000


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
    # Conversation modes (cfo / bookkeeper, switching between them): only domains that declare them.
    has_modes: bool = False
    # Prompt caching: the provider's minimum cacheable prefix (tokens); 0 = no caching.
    cache_min_tokens: int = 0
    # "anthropic": cache_control marks on the system prompt and the last tool; "openai": automatic.
    cache_style: str = "openai"
    schemas: dict[str, dict] = field(default_factory=dict, compare=False)  # tool name -> function schema
    schema_tokens: dict[str, int] = field(default_factory=dict, compare=False)  # tool name -> its tokens
    tools_by_category: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False)
    category_sets: dict[str, frozenset] = field(default_factory=dict, compare=False)
    phrase_orders: dict[str, list] = field(default_factory=dict, compare=False)  # routing.paths.classify's, sorted once
    match_intent: str = ""  # the description of the match_intent tool (groups.yaml); "" = not offered

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(self.classifier)

    @property
    def answer_categories(self) -> tuple[str, ...]:
        """The categories a non-chat question may take: the modes, or "" (no mode) when none."""
        return tuple(c for c in self.classifier if c != GENERAL_CHAT) or ("",)

    def system_prompt(self, category: str) -> str:
        """The system prompt of a category ("": a domain without modes: its NO_MODE prompt)."""
        return self.system_prompts.get(category or NO_MODE, "")

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
        allowed = self.category_sets.get(category)
        if allowed is None:  # built once per category (setdefault would build it on every call)
            allowed = self.category_sets[category] = frozenset(tools)
        head = [name for name in ranked if name in allowed]
        return tuple(dict.fromkeys(head + list(tools[: MAX_TOOLS_SENT])))[:MAX_TOOLS_SENT]

    def meta_tool(self, name: str) -> MetaTool | None:
        return next((m for m in self.meta_tools if m.name == name), None)

    def enrichments_for(self, outputs: tuple[str, ...] | list[str]) -> list[str]:
        return list(dict.fromkeys(self.enrichments_by_output[o] for o in outputs if o in self.enrichments_by_output))


_line = line_of


def _phrases(value: Any, p: ProblemCollector, line: int, what: str) -> tuple[tuple[str, ...], ...]:
    out = []
    for i, item in enumerate(str_list(value, p, line, what)):
        key = words(item)
        if not key:
            p.add(_line(value, i) or line, f"{what}: item {i + 1} has no letters or digits")
            continue
        out.append(key)
    return tuple(out)


def _num(node: Any, key: str, p: ProblemCollector, where: str, default: float, *, lo: float = 0.0) -> float:
    value = node.get(key, default) if isinstance(node, dict) else default
    return number(value, p, _line(node, key), f"{where}.{key}", lo, None, default)


def _label(domain: Domain, file: str) -> str:
    return file_label(domain.root.parent, domain.root / file)


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
        p = ProblemCollector(file_label(domain.root.parent, shared))
        data = read_yaml(shared, p.label, root=domain.root.parent) if shared.exists() else None
        raw = data.get("paths") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        raise LexiconError([Problem(p.label, None, "no 'paths:' section: the hybrid path needs models, prices, a classifier and system prompts")])
    check_keys(raw, _KEYS["paths"], p, "paths", _line(raw))
    for sub in ("model_selection", "models", "estimate"):
        check_keys(raw.get(sub), _KEYS[f"paths.{sub}"], p, f"paths.{sub}", _line(raw, sub))
    if isinstance(raw.get("estimate"), dict):
        check_keys(raw["estimate"].get("answer_tokens"), _KEYS["paths.estimate.answer_tokens"], p, "paths.estimate.answer_tokens")
    cls = raw.get("classifier")
    classifier: dict[str, tuple[tuple[str, ...], ...]] = {}
    if not isinstance(cls, dict) or GENERAL_CHAT not in cls:
        p.add(_line(raw, "classifier"), f"paths.classifier must map {GENERAL_CHAT} and each mode to its words")
    else:
        for cat, items in cls.items():
            classifier[str(cat)] = _phrases(items, p, _line(cls, cat), f"paths.classifier.{cat}")
    default_category = str(raw.get("default_category") or "")
    modes = [c for c in classifier if c != GENERAL_CHAT]
    if modes and default_category not in classifier:
        p.add(_line(raw, "default_category"), f"paths.default_category {default_category!r} is not a classifier category ({', '.join(classifier)})")
    elif classifier and not modes and default_category:
        p.add(_line(raw, "default_category"), f"paths.default_category {default_category!r}: the classifier declares no modes to default to")
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
        check_keys(m, _KEYS["model"], p, where, _line(mraw, tier))
        models[tier] = ModelSpec(
            tier=tier,
            name=str(m["name"]),
            input_usd_per_1m=_num(m, "input_usd_per_1m", p, where, 0.0),
            output_usd_per_1m=_num(m, "output_usd_per_1m", p, where, 0.0),
            base_latency_ms=_num(m, "base_latency_ms", p, where, 500.0),
            ms_per_output_token=_num(m, "ms_per_output_token", p, where, 15.0),
            cached_input_usd_per_1m=_num(m, "cached_input_usd_per_1m", p, where, 0.0) if "cached_input_usd_per_1m" in m else None,
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
    for needed in list(classifier) + ["format"] + ([] if modes or not classifier else [NO_MODE]):
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
        if classifier and (cat or modes) and cat not in classifier:
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
    pc = raw.get("prompt_cache")
    if pc is not None and (not isinstance(pc, dict) or pc.get("style", "openai") not in ("openai", "anthropic")):
        p.add(_line(raw, "prompt_cache"), "paths.prompt_cache must be {min_prefix_tokens: N, style: openai | anthropic}")
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
        has_modes=bool(raw.get("conversation_modes", False)),
        cache_style=str((raw.get("prompt_cache") or {}).get("style", "openai")),
        cache_min_tokens=int(_num(raw.get("prompt_cache") or {}, "min_prefix_tokens", p, "paths.prompt_cache", 0)) if raw.get("prompt_cache") else 0,
    )
    for m in meta_tools:
        cfg.schemas[m.name] = function_schema(m.as_tool())
    mi = _match_intent_spec(domain)
    if mi.get("description"):
        object.__setattr__(cfg, "match_intent", mi["description"])
        cfg.schemas[MATCH_INTENT] = {"type": "function", "function": {
            "name": MATCH_INTENT, "description": mi["description"],
            "parameters": {"type": "object", "properties": {
                "question": {"type": "string", "description": mi.get("question", "")},
                "intent": {"type": "string", "description": mi.get("intent", "")}},
                "required": ["question"]}}}
    for t in domain.tools:
        cfg.schemas.setdefault(t.name, function_schema(t))
    cfg.schema_tokens.update({name: estimate_tokens(schema) for name, schema in cfg.schemas.items()})
    return cfg


_PROBE_DATE = date(2001, 6, 15)


def _period_resolves(expression: str, domain: Domain, date_lexicon=None) -> bool:
    from routing.dates import load_date_lexicon

    lexicon = date_lexicon or load_date_lexicon(domain.root.parent / "_shared" / "dates.yaml")
    s = domain.settings
    # Validation only asks whether the words resolve at all, so any date does; results never see it.
    ranges = resolve_expression(expression, today=_PROBE_DATE, settings=DateSettings.of(s), lexicon=lexicon)
    return any(r.resolved for r in ranges)


def _match_intent_spec(domain: Domain) -> dict[str, str]:
    """groups.yaml `match_intent: {description, question, intent}` (the tool's and its parameters'
    descriptions), or {} when the domain offers no match_intent."""
    path = domain.root / GROUPS_FILE
    if not path.exists():
        return {}
    try:
        data = read_yaml(path, _label(domain, GROUPS_FILE))
    except LexiconError:
        return {}  # _load_groups reports the problem
    mi = data.get(MATCH_INTENT) if isinstance(data, dict) else None
    return {str(k): str(v).strip() for k, v in mi.items() if isinstance(v, str)} if isinstance(mi, dict) else {}


def _load_groups(domain: Domain, problems: list[Problem]) -> tuple[tuple[MetaTool, ...], dict[str, tuple[str, ...]]]:
    path = domain.root / GROUPS_FILE
    if not path.exists():
        return (), {}
    label = _label(domain, GROUPS_FILE)
    p = ProblemCollector(label)
    try:
        data = read_yaml(path, label, root=domain.root.parent)
    except LexiconError as exc:
        problems.extend(exc.problems)
        return (), {}
    if not isinstance(data, dict) or not isinstance(data.get("meta_tools"), list):
        problems.append(Problem(label, 1, "must have send: and a meta_tools: list"))
        return (), {}
    check_keys(data, _KEYS["groups"], p, GROUPS_FILE)
    common: list[Param] = []
    for i, cp in enumerate(data.get("common_params") or []):
        if not isinstance(cp, dict) or not cp.get("name"):
            p.add(_line(data.get("common_params"), i), "each common param needs a name")
            continue
        check_keys(cp, _KEYS["common_param"], p, f"common param {cp['name']}", _line(data.get("common_params"), i))
        common.append(Param(name=str(cp["name"]), type=str(cp.get("type", "string")), description=str(cp.get("description") or "")))
    out: list[MetaTool] = []
    owner: dict[str, str] = {}
    raw = data["meta_tools"]
    for i, m in enumerate(raw):
        ml = _line(raw, i)
        check_keys(m, _KEYS["meta_tool"], p, f"meta-tool {i + 1}", ml)
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


def path_config(router) -> PathConfig:
    """The router's path configuration, built with the router (Router.paths). Raises the
    LexiconError the build met, for a router built without one."""
    cfg = getattr(router, "paths", None)
    if isinstance(cfg, PathConfig):
        return cfg
    if isinstance(cfg, LexiconError):
        raise cfg
    return load_path_config(router.domain, date_lexicon=router.date_lexicon)
