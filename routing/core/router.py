"""The Router: a read-only object built from one domain's lexicon that routes queries."""
from __future__ import annotations

import time
from dataclasses import replace
from datetime import date
from functools import cached_property
from pathlib import Path as FsPath
from typing import Any

from routing.core.calibration import NearestNegatives, apply, features, load_or_fit, negative_questions, wants_calibration
from routing.core.clock import parse_today
from routing.core.enrich import enriched, name_words
from routing.core.errors import ErrorCode
from routing.core.index import QueryAnalysis, RouterIndex
from routing.core.lexicon import DEFAULT_LEXICON_ROOT, SHARED_DIR, load_domain
from routing.core.model import Domain, Thresholds
from routing.core.params import ParamPlan, suggest_params
from routing.core.schema import ErrorInfo, Match, Path, RouteResult, Status, status_message
from routing.core.bare import mark_bare
from routing.core.records import record_terms
from routing.core.sole import lifted, mark_clear_lead, mark_sole_tool, mark_sole_writer, mark_whole_question, sure_correction
from routing.core.scoring import (
    Scored,
    Signal,
    combine,
    content_terms,
    match_patterns,
    score_action,
    score_example,
    score_keyword,
    score_semantic,
    scored_for,
    stronger_for,
)
from routing.core.text import validate_query, words  # validate_query: routing.core.router's importers read it here too
from routing.dates import DateLexicon, load_date_lexicon
from routing.paths.classify import several_asks, without_dates
from routing.paths.decide import decide_path
from routing.paths.events import EventLog
from routing.paths.plan import plan_path

MAX_MULTIPLE = 3
MAX_WEAK = 5


class Router:
    """Design `tools`: build once per lexicon version; `route` never mutates it."""

    design = "tools"
    target_noun = "tool"  # what a question routes to, in a person's word (as DomainDesign.target_noun)
    request_options = frozenset({"data_mode"})  # replay runs the fast path's pipeline on recorded data

    def __init__(self, domain: Domain, *, date_lexicon: DateLexicon | None = None, encoder: Any = None, dense: bool = True):
        self.domain = domain
        self.date_lexicon = date_lexicon or load_date_lexicon(domain.root.parent / SHARED_DIR / "dates.yaml")
        self.index = RouterIndex(domain, self.date_lexicon)
        # The semantic signal: an embedding index of the tools' examples, only when the domain weighs it.
        self.encoder = encoder if encoder is not None else _semantic_hook(domain)
        # The learned signal: a model trained on the examples, only when the domain weighs it and has enough.
        self.learned = _learned_hook(domain, self.encoder)
        if self.learned is None and domain.settings.weights.learned > 0:
            self.domain = domain = _without_learned(domain)
        # The dense list (routing.semantic.dense): the MiniLM transformer's ranking, fused with the
        # lexical one by z-scores, for domains with few examples per tool, when it is built.
        self.dense, self.dense_off = _dense_hook(domain) if dense else (None, None)
        self.available = [{"name": t.name, "description": t.description} for t in domain.tools]
        # Words that name a parameter ("status", "customer"): the query speaks of it, never a value.
        self.param_words = frozenset(w for t in domain.tools for p in t.params for w in name_words(p.name).split() if len(w) >= 3)
        # What suggest_params reads of each tool, found once (index-aligned with self.index.tools).
        self.param_plans = tuple(ParamPlan.of(t, domain.settings.weights.identifier_kinds, domain.settings.weights.explicit_kinds) for t in self.index.tools)
        # terms that name a record looked up by its number (keywords of the detail and search tools:
        # "invoice 1045"); a number right after another term ("payment 5000") may be an amount
        self.record_terms = record_terms(domain.tools)
        from routing.paths.config import load_path_config
        from routing.paths.replay import load_replay

        # Path settings, tool groups and replay data are part of the lexicon, built with the router:
        # a broken one fails the build (the registry then keeps the last good router).
        self.paths = load_path_config(domain, date_lexicon=self.date_lexicon)
        self.replay = load_replay(domain.root)
        # Calibrated confidence (routing.core.calibration): fitted or read from its cache, never per query.
        self.calibrator = None
        self.negatives = None
        self.dense_calibration = None
        if wants_calibration(domain):
            negatives = negative_questions(domain.root)
            self.negatives = NearestNegatives(self.index, negatives) if negatives else None
            self.calibrator = load_or_fit(self, self.negatives)
        # A fused domain without labelled questions to calibrate on: a calibration fitted at build
        # from synthetic questions made of the catalog itself (routing.semantic.dense_calibration).
        if self.dense is not None and self.calibrator is None:
            from routing.semantic.dense_calibration import load_or_fit_synthetic

            self.dense_calibration = load_or_fit_synthetic(self)

    @property
    def data_modes(self) -> tuple[str, ...]:
        """The data modes this domain offers beside routing only: "replay" when it has recorded
        responses (lexicons/<domain>/replay.yaml), else none."""
        return ("replay",) if self.replay is not None else ()

    @classmethod
    def load(cls, name: str, root: FsPath | str = DEFAULT_LEXICON_ROOT, **kwargs) -> "Router":
        return cls(load_domain(name, root), **kwargs)

    def run_llm(self, result: RouteResult, *, client=None) -> RouteResult:
        """Run the LLM path of a result for real (routing.paths.run)."""
        from routing.paths.run import run_llm

        return run_llm(self, result, client=client)

    def next_context(self, result, context=None) -> dict:
        """The context the next turn of a conversation starts from (the cfo mode carries over)."""
        from routing.paths.plan import next_context

        return next_context(result, context)

    def describe(self) -> dict:
        return self.domain.describe(confidence=self.confidence_source())

    def confidence_source(self) -> dict:
        """How this domain's confidence is made: from what it knows (examples, descriptions), by
        which signals with which weights, and whether a calibration fitted on questions maps it."""
        d = self.domain
        examples = sum(len(t.examples) for t in d.tools)
        described = enriched(d)
        if examples and described:
            source = f"examples ({examples}) and descriptions (each tool's name, description and parameters)"
        elif described:
            source = "descriptions only (each tool's name, description and parameters): no example questions"
        else:
            source = f"examples ({examples}) and the lexicon's keywords and patterns"
        w = d.settings.weights
        signals = {k: v for k, v in (("keyword", w.keyword), ("pattern", w.pattern), ("action", w.action), ("example", w.example),
                                     ("semantic", w.semantic if self.encoder is not None else 0.0),
                                     ("learned", w.learned if self.learned is not None else 0.0),
                                     ("agreement", w.agreement)) if v > 0}
        if self.calibrator is not None:
            how = "a weighted sum of the signals, mapped to the probability of being right by a calibration fitted on this domain's questions"
        else:
            how = "a weighted sum of the signals, not calibrated" + (
                " (calibration: fit is set, but there are no labelled questions to fit it on: add golden.yaml cases)" if wants_calibration(d) else "")
        out = {"source": source, "signals": signals, "calibrated": self.calibrator is not None, "how": how}
        if self.dense is not None:
            from routing.semantic.dense import CEILING, FLOOR

            signals["semantic"] = self.dense_cap
            out["dense"] = {**self.dense.describe(), "confidence": (
                f"the stronger of the lexical sum and {self.dense_cap} x the dense value ((cosine - {FLOOR}) / ({CEILING} - {FLOOR}), "
                f"0 to 1): the dense list alone makes at best a weak match")}
            out["how"] = ("the order: the lexical list and the dense list fused by z-scores; the confidence: " + how)
            if self.dense_calibration is None and self.calibrator is None:
                from routing.semantic.dense_calibration import not_fitted_because

                why = not_fitted_because(d)
                out["dense"]["not_calibrated"] = why or "the synthetic questions could not be fitted (a single class)"
            if self.dense_calibration is not None:
                out["calibrated"] = True
                out["calibration"] = {"from": "synthetic", **self.dense_calibration.to_dict()}
                out["dense"]["confidence"] = self.dense_calibration.describe()
                out["how"] = ("the order: the lexical list and the dense list fused by z-scores; the confidence: "
                              + self.dense_calibration.describe())
        elif self.dense_off:
            out["dense"] = {"used": False, "why": self.dense_off}
        return out

    @property
    def dense_cap(self) -> float:
        """The most confidence the dense list alone gives (its value times this): below the
        domain's `medium`, so an embedding alone makes at best a weak match. Its cosines are not
        calibrated: on Seal-Tools the best tool's cosine is 0.5-0.65 whether it is right or not."""
        return round(dense_cap_for(self.domain), 4)

    @cached_property
    def _dense_only_weights(self):
        return self.domain.with_weights(keyword=0.0, pattern=0.0, action=0.0, example=0.0, semantic=self.dense_cap,
                                        learned=0.0, fuzzy_penalty=0.0).settings.weights

    @property
    def name(self) -> str:
        return self.domain.name

    @property
    def thresholds(self) -> Thresholds:
        return self.domain.settings.thresholds

    # ------------------------------------------------------------------ routing

    def analyze(self, query: str, *, today: date | str | None = None) -> QueryAnalysis:
        return self.index.analyze(query, today=parse_today(today))

    def route(
        self,
        query: Any,
        *,
        today: date | str | None = None,
        thresholds: Thresholds | dict | None = None,
        context: dict | None = None,
        on_event=None,
    ) -> RouteResult:
        """`on_event(event)` is called with each event as it happens (the events also land in the result)."""
        started = time.perf_counter()
        log = EventLog(on_event, started=started)
        log.emit("route_started")
        ref = parse_today(today)
        th = self._thresholds(thresholds)
        problem = validate_query(query)
        if problem:
            return self._invalid(query, ref, th, problem, started, log)
        a = self.index.analyze(query, today=ref)
        regex_timeouts: list[str] = []
        scored = lifted(self.score(a, regex_timeouts=regex_timeouts), th.medium, th.high, th.margin)
        status = classify(scored, a, th)
        matches = self._matches(scored, status, a, th)
        path, path_reason = decide_path(status, matches)
        clarifying = self.domain.settings.clarifying_question if status is Status.NEEDS_CLARIFICATION else None
        if regex_timeouts:  # a pattern that could not be tried is said, never dropped
            log.emit("regex_timeout", patterns=regex_timeouts,
                     message=f"{len(regex_timeouts)} regex pattern(s) ran out of time and were not counted: {', '.join(regex_timeouts)}")
        candidates = [
            {"name": self.index.tools[s.tool].name, "confidence": s.confidence, "score_breakdown": s.breakdown}
            for s in scored[:MAX_WEAK]
        ]
        planned = self.plan_path(status, path, matches, candidates, a, query, ref, th, context, log)
        return RouteResult(
            query=query,
            domain=self.name,
            today=ref.isoformat(),
            normalized=a.normalized,
            corrections=list(a.corrections),
            status=status,
            message=status_message(status, matches, clarifying),
            clarifying_question=clarifying,
            path=path,
            path_reason=path_reason,
            matches=matches,
            dates=[d.to_dict() for d in a.dates],
            error=None,
            events=log.events,
            timing_ms=round((time.perf_counter() - started) * 1000, 3),
            available=self.available if status is Status.NOT_FOUND else [],
            thresholds=th.to_dict(),
            tokens=[{"text": u.surface, "role": u.role, "key": u.key, "via": u.via} for u in a.units],
            candidates=candidates,
            **planned,
        )

    def score(self, a: QueryAnalysis, *, top: int = MAX_WEAK, regex_timeouts: list[str] | None = None,
              lift: bool = True) -> list[Scored]:
        """The best `top` candidates, best first, with full breakdowns (timed-out regexes added to `regex_timeouts`);
        a leader whose terms point to it alone is marked for routing.core.sole's lift, made by the tier rule at
        the thresholds in use (`lift=False`: unmarked, as a labelled calibration is fitted and applied)."""
        w, signals, timeouts = self._signals(a)
        if regex_timeouts is not None:
            regex_timeouts.extend(timeouts)
        if self.dense is not None:
            scored = self._fused(a, w, *signals, top=max(top, 2))
        else:
            scored = combine(self.index, w, *signals, top=max(top, 2),
                             content_terms=content_terms(a) if w.agreement > 0 else 0)
        scored = self.calibrate(a, scored)
        if not lift:
            return scored[:top]
        tools = self.index.tools  # terms all pointing to one tool: marked here, lifted by the tier rule (routing.core.sole)
        scored = mark_bare(scored, a, tools, w, signals[2], self.domain.settings.languages)  # one subject several tools serve: a choice (routing.core.bare)
        terms = [k for k, via in a.concepts.items() if via != "fuzzy"]
        scored = mark_sole_tool(scored, terms, tools, self.index.term_holders)
        scored = mark_whole_question(scored, signals[0], tools)
        paths = self.paths  # the words that make the question ask several things, read only where a rule needs them
        several = lambda: several_asks(without_dates(words(a.text), a), paths) if paths is not None else []  # noqa: E731
        asked = _write_first(a, w.explicit_kinds, self.domain.words.negations, several)
        scored = mark_sole_writer(scored, terms, [k for k, _ in asked], tools, w.explicit_kinds, self.index.term_holders,
                                  strong=bool(asked) and asked[0][1] >= 1.0)
        if w.clear_lead > 0:  # a domain whose settings ask for it (cfo): see routing.core.sole.mark_clear_lead
            sure = not any(not sure_correction(c, a.source) for c in a.corrections)  # one slip of a long word is no guess
            scored = mark_clear_lead(scored, w.clear_lead, list(a.concepts) if sure else terms, tools,
                                     misspelt=not sure and len(terms) < len(a.concepts), several=several,
                                     holders=self.index.term_holders, unheld=w.clear_lead_unheld, subset=w.clear_lead_subset,
                                     writes=w.explicit_kinds)
        return scored[:top]

    def _signals(self, a: QueryAnalysis, index: RouterIndex | None = None, encoder: Any = None, learned_model: Any = None):
        """(weights, (keyword, action, pattern, example, semantic, learned), regexes that timed out);
        `index` / `encoder`: another index and semantic hook of the same tools (the calibration's held-out ones)."""
        index = index or self.index
        w = self.domain.settings.weights
        patterns = match_patterns(a, index)
        keyword = score_keyword(a, index, patterns)
        example = score_example(a, index)
        semantic = score_semantic(a, index, encoder or self.encoder) if w.semantic > 0 else {}
        learned_model = learned_model or self.learned
        learned = learned_model.score(a) if learned_model is not None else {}
        # The kind fitting the verb is evidence about a subject: a question naming nothing the domain knows
        # (no term, idiom, date, number or name: "thanks a lot ji, bahut help hui") gets no points for it.
        names_something = a.concepts or patterns.by_tool or a.dates or a.names or any(u.role == "number" for u in a.units)
        action = score_action(a, index, w) if names_something else {}
        return w, (keyword, action, patterns.by_tool, example, semantic, learned), patterns.timeouts

    def fusion(self, a: QueryAnalysis, *, vector=None, exclude_tool: int | None = None, exclude_row: int | None = None,
               index: RouterIndex | None = None, encoder: Any = None, learned_model: Any = None):
        """The lexical and dense lists of a question and their z-score fusion (routing.semantic.dense),
        one tool or one text optionally left out, the lexical list optionally from another index of
        the same tools (one with an example held out): what the synthetic calibration routes at build."""
        w, signals, _ = self._signals(a, index, encoder, learned_model)
        return self._fusion(a, w, *signals, vector=vector, exclude_tool=exclude_tool, exclude_row=exclude_row, index=index)

    def _fusion(self, a, w, keyword, action, pattern, example, semantic, learned, *, vector=None, exclude_tool=None,
                exclude_row=None, index=None):
        from routing.semantic import dense as dn

        lexical = combine(index or self.index, w, keyword, action, pattern, example, semantic, learned,
                          top=dn.DEPTH + (exclude_tool is not None), raw_only=True)
        lexical = [(t, raw) for t, raw in lexical if t != exclude_tool][:dn.DEPTH]
        ranked = self.dense.rank(a.text, dn.DEPTH, vector=vector, exclude_tool=exclude_tool, exclude_row=exclude_row)
        known = dn.known_share(a, index or self.index)  # the fusion's policy: routing.semantic.dense.FusionPolicy
        fused = self.dense.policy.fuse(lexical, ranked, known)
        return dn.Fusion(lexical=lexical, ranked=ranked, fused=fused, order=dn.fused_order(fused, self.index.tools), known=known,
                         knows_word=dn.knows_a_word(a, index or self.index))

    def _fused(self, a, w, keyword, action, pattern, example, semantic, learned, *, top: int) -> list[Scored]:
        """The lexical list (combine's order) and the dense list, fused by z-scores; each
        candidate's confidence: calibrated at build from synthetic questions when that could be fitted
        (routing.semantic.dense_calibration), else the stronger of its lexical sum and its capped dense value."""
        from routing.semantic import dense as dn

        f = self._fusion(a, w, keyword, action, pattern, example, semantic, learned)
        order = f.order[:top]
        dense_signal = {}
        for t, cos in f.ranked:
            if t not in order:  # only the candidates' dense views are read
                continue
            value = dn.dense_value(cos)
            if value > 0:
                dense_signal[t] = Signal(value=value, parts={"semantic": value}, evidence=[f"dense cos {cos:.2f}"])
        lexical_view = scored_for(self.index, w, order, keyword, action, pattern, example, semantic, learned)
        # Each candidate's dense view where its confidence is higher (made only there).
        scored = stronger_for(self.index, self._dense_only_weights, lexical_view, {}, {}, {}, {}, dense_signal)
        if self.dense_calibration is not None and self.calibrator is None:
            from routing.semantic.dense_calibration import apply_probability, floored

            # Never below the top tool's lexical sum where the catalog knows a word of the question (dense_calibration.floored).
            p = floored(self.dense_calibration.probability(f), lexical_view[0].confidence if lexical_view else 0.0, f.knows_word,
                        len(self.index.tools), self.dense_cap)
            scored = apply_probability(scored, p, f)
        return scored

    def calibrate(self, a: QueryAnalysis, scored: list[Scored]) -> list[Scored]:
        """The top confidence as the probability it is right (routing.core.calibration), if fitted."""
        if self.calibrator is None or not scored:
            return scored
        return apply(scored, self.calibrator.probability(features(a, scored, self.index, self.negatives)))

    def plan_path(self, status, path, matches, candidates, analysis, query, today, thresholds, context, log) -> dict:
        """Hand-off to the path planner (routing.paths.plan): the path fields of the result (category,
        model, pipeline, enrichments and their results, tools sent, estimate, typed path fields)."""
        return plan_path(self, status=status, path=path, matches=matches, candidates=candidates, analysis=analysis,
                         query=query, today=today, thresholds=thresholds.to_dict(), context=context, log=log)

    # ------------------------------------------------------------------ helpers

    def _thresholds(self, override: Thresholds | dict | None) -> Thresholds:
        if override is None:
            return self.thresholds
        if isinstance(override, Thresholds):
            return override
        unknown = sorted(set(override) - {"high", "medium", "low", "margin"})
        if unknown:
            raise ValueError(f"unknown threshold(s) {unknown}: use high, medium, low, margin")
        values = {}
        for k, v in override.items():
            if v is None:
                continue
            try:
                number = float(v)
            except (TypeError, ValueError):
                raise ValueError(f"threshold {k} must be a number between 0 and 1, not {v!r}") from None
            if not 0.0 <= number <= 1.0:  # also refuses NaN
                raise ValueError(f"threshold {k} must be between 0 and 1, not {v!r}")
            values[k] = number
        merged = replace(self.thresholds, **values)
        if not merged.low <= merged.medium <= merged.high:  # a tier band turned inside out means nothing
            raise ValueError(f"thresholds must satisfy low <= medium <= high; with the domain's own for those not given "
                             f"they are low {merged.low:g}, medium {merged.medium:g}, high {merged.high:g}")
        return merged

    def _matches(self, scored: list[Scored], status: Status, a: QueryAnalysis, th: Thresholds) -> list[Match]:
        if status in (Status.NOT_FOUND, Status.NEEDS_CLARIFICATION):
            return []
        count = MAX_MULTIPLE if status is Status.MULTIPLE_MATCHES else MAX_WEAK if status is Status.WEAK_MATCHES else 1
        chosen = scored[:count]
        if status is Status.MULTIPLE_MATCHES:
            # Two or three alternatives: drop a third that is far behind, never go below two.
            chosen = [s for i, s in enumerate(chosen) if i < 2 or s.confidence >= th.low]
        out = []
        arguments: dict = {}  # the query's argument text, read once for all the matches
        tools, plans, markers = self.index.tools, self.param_plans, self.domain.words.value_markers
        for s in chosen:
            tool, plan = tools[s.tool], plans[s.tool]
            params, notes = suggest_params(tool, a, s.pattern_params, self.param_words, markers, plan=plan, arguments=arguments,
                                           numbers=self.domain.words.numbers, record_terms=self.record_terms)
            out.append(
                Match(
                    name=tool.name,
                    confidence=s.confidence,
                    match_type=s.match_type,
                    description=tool.description,
                    kind=tool.kind,
                    key_params=list(plan.key_params),
                    suggested_params=params,
                    score_breakdown=s.breakdown,
                    param_notes=notes,
                    evidence=s.evidence,
                    raw_score=s.raw,
                )
            )
        return out

    def _invalid(self, query: Any, ref: date, th: Thresholds, problem: str, started: float, log=None) -> RouteResult:
        return RouteResult(
            query=query,
            domain=self.name,
            today=ref.isoformat(),
            normalized="",
            corrections=[],
            status=Status.NOT_FOUND,
            message=problem,
            clarifying_question=None,
            path=Path.LLM,
            path_reason="the query could not be read",
            matches=[],
            dates=[],
            error=ErrorInfo(ErrorCode.INVALID_QUERY.value, problem),
            events=_rejected(log),
            timing_ms=round((time.perf_counter() - started) * 1000, 3),
            available=self.available,
            thresholds=th.to_dict(),
        )


def _semantic_hook(domain: Domain):
    if domain.settings.weights.semantic <= 0:
        return None
    from routing.semantic.signal import build_semantic  # numpy/model2vec only for domains that use it

    return build_semantic(domain)


def dense_cap_for(domain: Domain) -> float:
    from routing.semantic.dense import CAP_OF_MEDIUM

    return CAP_OF_MEDIUM * domain.settings.thresholds.medium


def _dense_hook(domain: Domain):
    """(the dense list, None) or (None, why not) for describe()."""
    from routing.semantic import dense

    return dense.build_dense(domain)


def _learned_hook(domain: Domain, semantic):
    if domain.settings.weights.learned <= 0:
        return None
    from routing.semantic.learned import train

    encoder = getattr(semantic, "encoder", None)
    if encoder is None:
        from routing.semantic.encoders import get_encoder

        encoder = get_encoder()
    return train(domain, encoder)


def _without_learned(domain: Domain) -> Domain:
    """Too few examples to learn from: the learned signal's weight goes to the other two signals
    that read the examples (example, semantic), in proportion, so confidence keeps its scale."""
    w = domain.settings.weights
    share = w.example + w.semantic
    if share > 0:
        f = (share + w.learned) / share
        return domain.with_weights(example=w.example * f, semantic=w.semantic * f, learned=0.0)
    return domain.with_weights(example=w.learned, learned=0.0)


def _write_first(a: QueryAnalysis, writes, negations, several) -> tuple:
    """The verbs, a strong "all" before a strong write verb set aside ("all the customers who are late, send them a reminder",
    "saare ... reminder bhej do"); not where the write is negated or the question asks several things (002's LLM path)."""
    verbs = [u for u in a.units if u.kinds]
    at = next((i for i, u in enumerate(verbs) if any(k in writes and s >= 1.0 for k, s in u.kinds)), None)
    if not at or not all(all(k == "list" and s >= 1.0 for k, s in u.kinds) for u in verbs[:at]) or any(
            t.text in negations for t in a.tokens[max(0, verbs[at].first - 2):verbs[at].first]) or several():
        return a.actions
    return tuple(k for u in verbs[at:] for k in u.kinds)


def _rejected(log) -> list[dict]:
    if log is None:
        return [{"type": "route_started"}, {"type": "route_rejected", "code": ErrorCode.INVALID_QUERY.value}]
    log.emit("route_rejected", code=ErrorCode.INVALID_QUERY.value)
    return log.events


def classify(scored: list[Scored], a: QueryAnalysis, th: Thresholds) -> Status:
    scored = lifted(scored, th.medium, th.high, th.margin)  # a leader marked by routing.core.sole, at these thresholds
    top = scored[0].confidence if scored else 0.0
    second = scored[1].confidence if len(scored) > 1 else 0.0
    # Vague words ("data") or a bare verb ("show me") with nothing to say what: ask, don't guess.
    says_what = a.concepts or a.literals or a.dates or any(u.role == "number" for u in a.units)
    if (a.vague and not a.concepts or a.actions and not says_what) and top < th.medium:
        return Status.NEEDS_CLARIFICATION
    if top < th.low or top <= 0.0:  # a candidate that scored nothing is no candidate, whatever the bands say
        return Status.NOT_FOUND
    # Compared at the 4 decimals confidences are reported with: 0.95 - 0.85 is 0.0999999... in floats.
    if top >= th.high and round(top - second, 4) >= round(th.margin, 4):
        return Status.ACTIVATED
    if top >= th.medium and len(scored) > 1:
        return Status.MULTIPLE_MATCHES
    # A lone candidate that is not confident is a weak match: there are no alternatives to offer.
    return Status.WEAK_MATCHES
