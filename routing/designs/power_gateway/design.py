"""Design `power_gateway`: resolve a query to MCP powers in confidence tiers; the calling agent,
which holds the conversation, chooses (activate_power). Knows nothing of the MCP protocol:
routing.mcp serves it; the playground draws it.

Ranking reuses the common machinery (routing.core: lexicon, index, signals, Router.score), so
synonyms ("pg", "repo", "mongo", "payments") and typos ("postgress") work as in every domain.
The gateway adds its tiers' shapes (shared/CONTRACT.md, design power_gateway):

    activated         power {name, confidence, match_type} and the power's tools
    multiple_matches  the top 2-3 matches (name, confidence, match_type, description, keywords);
                      the message ends "Use activate_power(name) to select one."
    weak_matches      the top 5, and a message asking to clarify or rephrase
    not_found         available_powers (name, description), and a message

`agent_view(result)` is the reply exactly as an agent receives it (what resolve_intent returns);
`token_meter` counts it with a real tokenizer against every power's tools sent at start-up.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Mapping

from routing.core.clock import parse_today
from routing.core.errors import LexiconError, Problem
from routing.core.model import Domain, Thresholds
from routing.core.router import Router, validate_query
from routing.core.schema import Match, RouteResult, Status
from routing.core.scoring import Scored
from routing.core.sole import lifted
from routing.designs.base import DomainDesign
from routing.paths.decide import decide_path

from .catalog import PowerCatalog, did_you_mean, load_catalog
from .tokens import DEFAULT_ENCODING, count_tokens

TOOL_SEPARATOR = "__"  # a power's tool as the gateway lists it: sqlite__query_database
SELECT_HINT = "Use activate_power(name) to select one."
POWER_NOT_FOUND = "POWER_NOT_FOUND"

# The gateway's own two tools, as every MCP client lists them at start-up (routing.mcp serves these).
GATEWAY_TOOLS: tuple[dict, ...] = (
    {
        "name": "resolve_intent",
        "description": (
            "Find the power (MCP server) for a request. Returns a confidence tier: activated (the power and "
            "its tools), multiple_matches or weak_matches (candidates to choose from with activate_power), "
            "or not_found (every power available). Send only the user's current request."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {
                "query": {"type": "string", "description": "The user's request, in their words", "maxLength": 1000},
                "verbose": {"type": "boolean", "default": False, "description": "Also return the full routing result (scores, events)"},
            },
            "required": ["query"],
            "additionalProperties": False,
        },
    },
    {
        "name": "activate_power",
        "description": (
            "Switch on a power by name (from resolve_intent): its tools are added to this server's tool list "
            "(notifications/tools/list_changed) as <power>__<tool>, and returned."
        ),
        "inputSchema": {
            "type": "object",
            "properties": {"name": {"type": "string", "description": "A power's name, e.g. sqlite"}},
            "required": ["name"],
            "additionalProperties": False,
        },
    },
)


@dataclass(frozen=True)
class PowerMatch(Match):
    """A match of the contract plus the power's keywords (design power_gateway)."""

    keywords: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {**super().to_dict(), "keywords": list(self.keywords)}


@dataclass(frozen=True)
class PowerFields:
    """The design's own fields of a RouteResult (shared/CONTRACT.md, design power_gateway)."""

    power: dict | None = None
    tools: list[dict] | None = None
    available_powers: list[dict] | None = None
    token_meter: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        out: dict[str, Any] = {"power": self.power, "tools": self.tools, "available_powers": self.available_powers}
        if self.token_meter:
            out["token_meter"] = dict(self.token_meter)
        return out


def match_type_of(breakdown: Mapping[str, float]) -> str:
    """keyword / semantic / hybrid, from the signals that really carried the match.

    Only an embedding signal (`semantic` in the breakdown, present when the router has an encoder)
    counts as semantic; every other signal (terms, synonyms, typo fixes, patterns, example-question
    overlap) is lexical, i.e. keyword."""
    semantic = max(breakdown.get("semantic", 0.0), 0.0)
    lexical = sum(v for k, v in breakdown.items() if k not in ("semantic", "fuzzy_penalty") and v > 0)
    if semantic <= 0:
        return "keyword"
    return "semantic" if lexical <= 0 else "hybrid"


def tier_message(status: Status, names: list[str], confidence: float = 0.0) -> str:
    def listed(items: list[str]) -> str:
        return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" or {items[-1]}"

    if status is Status.ACTIVATED:
        return f"Activated {names[0]} (confidence {confidence:.2f}); its tools are listed."
    if status is Status.MULTIPLE_MATCHES:
        return f"Several powers fit: {listed(names)}. {SELECT_HINT}"
    if status is Status.WEAK_MATCHES:
        return (f"Only weak matches ({listed(names)}). Could you clarify or rephrase which service you mean? "
                f"If one of these is right, use activate_power(name).")
    return "No power matches this request. These are the powers available; rephrase naming a service, or use activate_power(name)."


def agent_view(result: Mapping[str, Any]) -> dict:
    """The reply exactly as an agent receives it from resolve_intent: only what its tier needs."""
    status = result.get("status")
    out: dict[str, Any] = {"query": result.get("query"), "status": status, "message": result.get("message")}
    if result.get("error"):
        out["error"] = {k: v for k, v in result["error"].items() if k in ("code", "message")}
    if result.get("corrections"):
        out["corrections"] = [{"from": c["from"], "to": c["to"]} for c in result["corrections"]]
    if status == Status.ACTIVATED.value:
        out["power"] = result.get("power")
        out["tools"] = result.get("tools") or []
    elif status in (Status.MULTIPLE_MATCHES.value, Status.WEAK_MATCHES.value):
        out["matches"] = [
            {k: m.get(k) for k in ("name", "confidence", "match_type", "description", "keywords")}
            for m in result.get("matches") or []
        ]
    else:
        out["available_powers"] = result.get("available_powers") or []
    return out


def _str_list(value: Any) -> list[str]:
    """A tools.yaml list of terms (a missing key: none)."""
    return [] if value is None else [value] if isinstance(value, str) else [str(v) for v in value]


def _check_hints(domain: Domain, hints: Mapping[str, frozenset[str]]) -> None:
    """A hint is a canonical term of synonyms.yaml (else it could never match): refused with the
    file and the power's line otherwise."""
    canonicals = {c for c, _ in domain.synonyms}
    wrong = [(name, h) for name, terms in hints.items() for h in sorted(terms - canonicals)]
    if not wrong:
        return
    path = domain.root / "tools.yaml"
    lines = path.read_text(encoding="utf-8").splitlines() if path.exists() else []

    def line(name: str) -> int | None:
        return next((i + 1 for i, text in enumerate(lines) if text.strip() in (f"- name: {name}", f"name: {name}")), None)

    problems = [
        Problem(f"{domain.root.name}/tools.yaml", line(name), f"power {name}: hint {h!r} is not a canonical term in synonyms.yaml")
        for name, h in wrong
    ]
    if problems:
        raise LexiconError(problems)


class PowerGateway(DomainDesign):
    """Design `power_gateway`: built once per lexicon version; `route` never mutates it."""

    design = "power_gateway"
    target_noun = "power"

    def __init__(self, domain: Domain, *, encoder: Any = None, **router_options: Any):
        self.domain = domain
        self.router = Router(domain, encoder=encoder, **router_options)
        self.catalog: PowerCatalog = load_catalog(domain)
        gw = domain.settings.extra.get("gateway") or {}
        self.encoding = str(gw.get("encoding") or DEFAULT_ENCODING)
        self.named_bonus = float(gw.get("named_bonus", 0.0) or 0.0)
        self.hint_points = float(gw.get("hint_points", 0.0) or 0.0)
        self.topic_cap = float(gw.get("topic_cap", 1.0) if gw.get("topic_cap") is not None else 1.0)
        self.named_floor = float(gw.get("named_floor", 0.0) or 0.0)
        self.named_lead = float(gw.get("named_lead", 0.0) or 0.0)
        self._hints = {t.name: frozenset(_str_list(t.extra.get("hints"))) for t in domain.tools}
        _check_hints(domain, self._hints)
        self._all_hints = frozenset(h for hints in self._hints.values() for h in hints)
        claimed = {c for t in domain.tools for c in (*t.keywords, *t.related)}
        self._topics = self._all_hints - claimed
        self._tool_no = {t.name: i for i, t in enumerate(self.router.index.tools)}
        self.available_powers = [{"name": t.name, "description": t.description} for t in domain.tools]
        self._keywords = {t.name: tuple(t.keywords) for t in domain.tools}
        self._own_terms = frozenset(k for t in domain.tools for k in t.keywords)  # any power's own keywords
        # 004's Medium: a kind of service several powers offer ("database", "message"; settings
        # gateway.categories), each power holding the term among its `related` terms
        holders: dict[str, set[str]] = {}
        for t in domain.tools:
            for c in t.related:
                holders.setdefault(c, set()).add(t.name)
        kinds = set(_str_list(gw.get("categories")))
        self._categories = {c: frozenset(names) for c, names in holders.items() if c in kinds and len(names) >= 2}
        self.category_floor = float(gw.get("category_floor", 0.0) or 0.0)
        self.category_equals = float(gw.get("category_equals", 0.0) or 0.0)  # holders this close to the best are equals
        self._all_tools_tokens: int | None = None
        self.all_tools_tokens()  # loads the tokenizer now, at build time, not on the first query

    # ------------------------------------------------------------ protocol of a design

    # The common ranking's parts, for pages and tools that work on any ranking design (dates page,
    # threshold tuner, coverage): the same index, and scores with this design's named signal.
    @property
    def index(self):
        return self.router.index

    @property
    def date_lexicon(self):
        return self.router.date_lexicon

    def analyze(self, query: str, *, today: date | str | None = None):
        return self.router.analyze(query, today=today)

    def score(self, a, *, top: int = 5) -> list[Scored]:
        # Every power is scored (a catalog of powers is small), so a power found only by a hint
        # or by its name still competes; the best `top` are kept.
        every = self.router.score(a, top=max(top, len(self.router.index.tools)))
        return self._levels(self._named(self._hinted(every, a), a), a)[:top]

    def classify_scored(self, scored: list[Scored], a, th: Thresholds) -> Status:
        """The gateway's tier of scored candidates (the threshold tuner re-classifies with this too):
        the bands of shared/seeds 004 as it states them - activated at >= high, multiple_matches at
        >= medium (the top 2-3; at least two powers with any evidence), weak_matches at >= low (the
        top 5), not_found below low."""
        scored = lifted(scored, th.medium, th.high, th.margin)  # a leader marked by routing.core.sole, at these thresholds
        top = scored[0].confidence if scored else 0.0
        second = scored[1].confidence if len(scored) > 1 else 0.0
        if top < th.low or top <= 0.0:
            return Status.NOT_FOUND  # also a bare verb that names no service: the gateway has four tiers
        if top >= th.high and round(top - second, 4) >= round(th.margin, 4):
            return Status.ACTIVATED
        if top >= th.medium and len(scored) > 1 and scored[1].confidence > 0.0:
            return Status.MULTIPLE_MATCHES
        # 0.5-0.84 with no other power in sight is no choice between "multiple plausible matches"
        # (004 line 132): the agent is asked to clarify, with the one candidate (weak_matches)
        return Status.WEAK_MATCHES

    def describe(self) -> dict:
        return self.domain.describe(
            live_powers=[n for n, p in self.catalog.powers.items() if p.live],
            mcp_tool_count=sum(len(p.tools) for p in self.catalog.powers.values()),
        )

    def route(
        self,
        query: Any,
        *,
        today: date | str | None = None,
        thresholds: Thresholds | Mapping | None = None,
        context: Mapping | None = None,
    ) -> RouteResult:
        started = time.perf_counter()
        ref = parse_today(today)
        th = self.router._thresholds(thresholds)
        problem = validate_query(query)
        if problem:
            result = replace(
                self.router._invalid(query, ref, th, problem, started),
                available=self.available_powers, design=self.design,
                design_fields=PowerFields(available_powers=self.available_powers),
            )
            return self._metered(result, started)
        a = self.router.index.analyze(query, today=ref)
        scored = lifted(self.score(a), th.medium, th.high, th.margin)
        status = self.classify_scored(scored, a, th)
        base = self.router._matches(scored, status, a, th)
        matches = [self._power_match(m) for m in base]
        path, path_reason = decide_path(status, matches)
        names = [m.name for m in matches]
        fields = PowerFields()
        if status is Status.ACTIVATED:
            top = matches[0]
            fields = PowerFields(
                power={"name": top.name, "confidence": top.confidence, "match_type": top.match_type},
                tools=self.power_tools(top.name),
            )
        elif status is Status.NOT_FOUND:
            fields = PowerFields(available_powers=self.available_powers)
        result = RouteResult(
            query=query,
            domain=self.name,
            today=ref.isoformat(),
            normalized=a.normalized,
            corrections=list(a.corrections),
            status=status,
            message=tier_message(status, names, matches[0].confidence if matches else 0.0),
            clarifying_question=None,
            path=path,
            path_reason=path_reason.replace("tools fit", "powers fit").replace("no tool", "no power"),
            matches=matches,
            dates=[],
            error=None,
            events=[{"type": "route_started"}, {"type": "route_classified", "status": status.value}],
            timing_ms=0.0,
            thresholds=th.to_dict(),
            tokens=[{"text": u.surface, "role": u.role, "key": u.key, "via": u.via} for u in a.units],
            candidates=[
                {"name": self.router.index.tools[s.tool].name, "confidence": s.confidence, "score_breakdown": s.breakdown}
                for s in scored[:5]
            ],
            available=self.available_powers if status is Status.NOT_FOUND else [],
            design=self.design,
            design_fields=fields,
        )
        return self._metered(result, started)

    # ------------------------------------------------------------ powers

    def power_tools(self, name: str) -> list[dict]:
        """The power's tools as the agent gets them (names prefixed, guidance appended), from servers.yaml."""
        spec = self.catalog.get(name)
        if spec is None:
            return []
        return [t.as_agent_tool(prefix=f"{name}{TOOL_SEPARATOR}") for t in spec.tools]

    def activate(self, name: Any) -> dict:
        """activate_power without a protocol: the power's tools from servers.yaml, or a clear error
        with a did-you-mean. routing.mcp starts the power's child server where there is one."""
        known = self.catalog.names()
        if not isinstance(name, str) or name.strip() not in known:
            text = name if isinstance(name, str) else repr(name)
            close = did_you_mean(text, known) if isinstance(name, str) else []
            hint = f" Did you mean {' or '.join(close)}?" if close else f" Known powers: {', '.join(known)}."
            return {
                "status": "error",
                "error": {"code": POWER_NOT_FOUND, "message": f"There is no power named {text!r}.{hint}"},
                "did_you_mean": close,
            }
        name = name.strip()
        spec = self.catalog.get(name)
        return {
            "status": "activated",
            "power": name,
            "live": spec.live,
            "server": spec.server_label,
            "tools": self.power_tools(name),
        }

    def eval_metrics(self, report) -> dict:
        """Extra metrics of `eval` for this design (cost.validation_metrics)."""
        from .cost import validation_metrics

        return validation_metrics(self, report)

    # ------------------------------------------------------------ tokens

    def all_tools_tokens(self) -> int:
        """Tokens of every power's tools, as an agent would load them at start-up without the gateway."""
        if self._all_tools_tokens is None:
            every = [t for name in self.catalog.names() for t in self.power_tools(name)]
            self._all_tools_tokens = count_tokens(every, self.encoding)
        return self._all_tools_tokens

    def gateway_tools_tokens(self) -> int:
        return count_tokens(list(GATEWAY_TOOLS), self.encoding)

    def _metered(self, result: RouteResult, started: float) -> RouteResult:
        view = agent_view(result.to_dict())
        meter = {
            "response_tokens": count_tokens(view, self.encoding),
            "all_tools_tokens": self.all_tools_tokens(),
            "encoding": self.encoding,
        }
        return replace(result, design_fields=replace(result.design_fields, token_meter=meter),
                       timing_ms=round((time.perf_counter() - started) * 1000, 3))

    def _hinted(self, scored: list[Scored], a) -> list[Scored]:
        """The `hint` signal: a power with one of its `hints` (tools.yaml: topic words such as "metrics" or "report")
        in the query is at least `gateway.hint_points` times the share of the query's topic words it holds (a weak
        match); a power the common ranking did not list at all enters with the hint alone."""
        if self.hint_points <= 0 or not a.concepts:
            return scored
        asked = self._all_hints & a.concepts.keys()  # the query's topic words
        # each power by the share of the query's topic words it holds, said twice counted twice: "analyse the business" puts
        # analytics, crm, stripe before aws; "a performance report for the business" stripe and crm before postgres (report)
        said = Counter(u.key for u in a.units if u.role == "concept" and u.key in asked)
        total = sum(said.get(h, 1) for h in asked)
        hinted = {name: sum(said.get(h, 1) for h in hints & asked) / total for name, hints in self._hints.items() if hints & asked}
        if not hinted:
            return scored
        seen = {self.router.index.tools[s.tool].name for s in scored}
        scored = list(scored) + [
            Scored(tool=self._tool_no[name], confidence=0.0, raw=0.0, breakdown={}, evidence=[],
                   pattern_params={}, match_type="keyword")
            for name in sorted(hinted.keys() - seen)
        ]
        points = {name: round(self.hint_points * share, 4) for name, share in hinted.items()}
        out = [
            self._set(s, points[name], "hint")
            if (name := self.router.index.tools[s.tool].name) in points and s.confidence < points[name] else s
            for s in scored
        ]
        out.sort(key=lambda s: (-s.confidence, self.router.index.tools[s.tool].name))
        return out

    def _levels(self, scored: list[Scored], a) -> list[Scored]:
        """004's levels of evidence on top of the points. A power matched by one of its own
        `keywords` (its name, or a term no other power claims as its own: "ec2", "tickets"), with
        no other power at thresholds.low or above, is an "exact keyword match" (High): at least
        `gateway.named_floor`. So is a power called by its own name ("mongodb", "sqlite") that
        leads every other power `gateway.named_lead` times over: a word of the query that also
        fits another power ("events" in "aggregate the events collection in mongodb") leaves that
        one far behind and no real choice. A query asking for a topic (a `hints` word that is no
        power's keyword or related term: "insights", "metrics", "report") leaves every power not
        matched by its own keyword at most `gateway.topic_cap` (Low: "show customer insights").
        Other powers count by their evidence without their `hint` points: a topic word lends a
        weak match, never a rival to an exact keyword match ("reports" in "list the files in the
        reports folder" leaves filesystem activated)."""
        if not scored or not a.concepts:
            return scored
        concepts = a.concepts.keys()
        topic = bool(self._topics & concepts)
        low = self.router._thresholds(None).low
        # a question naming a category several powers share, and no power's own word, asks for one of them
        # (004's Medium, "check my database"): the holders rise together until the best is at least category_floor
        # (order kept); the holders of every kind asked ("an SQL query on our database"; none for kinds no power
        # holds together) within category_equals of their best are equals, in the catalog's order (the examples'
        # wording decides nothing); one further ahead keeps its lead. A topic word beside a category is what the
        # category's data is about ("query the sales database").
        name_of = lambda s: self.router.index.tools[s.tool].name  # noqa: E731
        in_category, lift, equals, top = frozenset(), 0.0, set(), 0.0
        if self.category_floor and self._own_terms.isdisjoint(concepts):
            asked = [self._categories[c] for c in concepts if c in self._categories]
            in_category, every = frozenset().union(*asked), frozenset.intersection(*asked) if asked else frozenset()
            lift = max(self.category_floor - max((s.confidence for s in scored if name_of(s) in in_category), default=0.0), 0.0)
            top = max((s.confidence for s in scored if name_of(s) in every), default=0.0)
            equals = {name_of(s) for s in scored if name_of(s) in every and round(top - s.confidence, 4) <= round(self.category_equals, 4)}
        out = []
        for i, s in enumerate(scored):
            name = self.router.index.tools[s.tool].name
            own = bool(set(self._keywords.get(name, ())) & concepts)
            named = name in concepts
            # a topic word lends a power a weak match, no claim on the request: a rival there by
            # its hint alone ("reports" in "list the files in the reports folder") is no choice
            others = max((o.confidence - max(o.breakdown.get("hint", 0.0), 0.0)
                          for j, o in enumerate(scored) if j != i), default=0.0)
            target, signal = s.confidence, "level"
            clear_lead = named and self.named_lead > 0 and others * self.named_lead <= s.confidence
            if own and self.named_floor and (others < low or clear_lead) and s.confidence < self.named_floor:
                target = self.named_floor
            elif name in equals:
                target, signal = round(top + lift, 4), "category"  # the kind of service names none of them: each is as likely
            elif lift and name in in_category:
                target, signal = round(s.confidence + lift, 4), "category"
            elif topic and not own and name not in in_category and s.confidence > self.topic_cap:
                target = self.topic_cap
            out.append(s if target == s.confidence else self._set(s, target, signal))
        # equals in the catalog's order (its author's: postgres, mysql, mongodb, then sqlite), the others by name
        out.sort(key=lambda s: (-s.confidence, name_of(s) not in equals, s.tool if equals else 0, name_of(s)))
        return out

    @staticmethod
    def _set(s: Scored, confidence: float, signal: str) -> Scored:
        """`s` at `confidence`: the difference is the `signal` part of the breakdown."""
        breakdown = dict(s.breakdown)
        breakdown[signal] = round(confidence - s.confidence, 4)
        return replace(s, confidence=round(confidence, 4), raw=round(s.raw + confidence - s.confidence, 4),
                       breakdown=breakdown, evidence=s.evidence + [f"{signal}: {confidence:.2f}"])

    def _bonus(self, scored: list[Scored], names: set[str], signal: str, points: float, why) -> list[Scored]:
        """`points` more for the powers in `names` (the `signal` part of the breakdown); the sum is
        capped at 1 with the breakdown scaled so it still adds up to the confidence. Ranked again,
        ties A-Z by name."""
        out = []
        for s in scored:
            name = self.router.index.tools[s.tool].name
            if name not in names:
                out.append(s)
                continue
            parts = {**s.breakdown, signal: points}
            total = s.raw + points
            scale = 1.0 / total if total > 1.0 else 1.0
            breakdown = {k: round(v * scale, 4) for k, v in parts.items()}
            confidence = round(min(1.0, total), 4)
            drift = round(confidence - sum(breakdown.values()), 4)
            if drift:
                biggest = max(breakdown, key=lambda k: breakdown[k])
                breakdown[biggest] = round(breakdown[biggest] + drift, 4)
            out.append(replace(s, confidence=confidence, raw=round(total, 4), breakdown=breakdown,
                               evidence=s.evidence + [why(name)]))
        out.sort(key=lambda s: (-s.confidence, self.router.index.tools[s.tool].name))
        return out

    def _named(self, scored: list[Scored], a) -> list[Scored]:
        """The `named` signal: a power named in the query (its own canonical term, "slack", "pg")
        gains `gateway.named_bonus` points (see _bonus)."""
        if self.named_bonus <= 0 or not a.concepts:
            return scored
        named = {self.router.index.tools[s.tool].name for s in scored} & a.concepts.keys()
        if not named:
            return scored
        return self._bonus(scored, named, "named", self.named_bonus, lambda name: f"named: {name}")

    def _power_match(self, m: Match) -> PowerMatch:
        return PowerMatch(
            name=m.name, confidence=m.confidence, match_type=match_type_of(m.score_breakdown),
            description=m.description, kind=m.kind, key_params=[], suggested_params={},
            score_breakdown=m.score_breakdown, param_notes=[], evidence=m.evidence, raw_score=m.raw_score,
            keywords=self._keywords.get(m.name, ()),
        )
