"""Design `datasource_mirror`: a question -> one of the domain's datasources (factory).

Index time: every sample question is kept as written, canonicalised, and expanded into variants;
each text is embedded into the vector store with its datasource. With mirror.yaml `llm_variants: true`
and an LLM endpoint, the model's paraphrases of each sample join them (kind llm_variant, cached beside
the domain: llm_variants.py); describe()["mirror"]["llm_variants"] says how many and why none. Query time:
  L0  where L2 would answer otherwise (L1 too, with two phrases or more): the canonical phrases that the
      samples of one datasource alone use, when the question's all name one (phrases.py);
  L1  the canonical query's nearest entry, accepted at distance < thresholds.l1;
  L2  the original plus `votes` variations, k=1 each, majority vote among hits < thresholds.l2;
  L3  with an LLM endpoint: the model splits the question into sub-queries, each routed by L1/L2;
      without one: weak_matches (nearest datasources within thresholds.weak) or not_found.
"""
from __future__ import annotations

import json
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from datetime import date
from typing import Any, Mapping

from routing.core.clock import parse_today
from routing.core.errors import ErrorCode
from routing.core.lexicon import SHARED_DIR
from routing.core.model import Domain, Thresholds
from routing.core.router import validate_query
from routing.core.schema import ErrorInfo, Match, Path, RouteResult, Status
from routing.dates import DateSettings, find_dates, load_date_lexicon
from routing.designs.base import DomainDesign
from routing.semantic import get_store
from routing.semantic.dense import encode_cached

from .canonical import canonicalise, clean, expand, variations
from .config import MirrorConfig, load_config
from .encoder import choose as choose_encoder
from .llm_canonical import ReadCache, ask_model
from .llm_variants import CACHE_FILE, disabled_report, make_client, paraphrase_samples
from .phrases import L1_OVERRULED_BY, named_datasource, phrase_owners

NOT_ASKED = "L3 not run: the request did not ask for the LLM"


@dataclass(frozen=True)
class MirrorFields:
    datasource: str | None
    tables: list[str]
    layer: str | None
    canonical: str
    nearest: dict | None  # {text, distance, datasource, kind, sample}
    votes: list[dict] = field(default_factory=list)  # L2: [{text, datasource, distance, counted}]
    funnel: list[dict] = field(default_factory=list)  # one row per layer tried
    subqueries: list[dict] = field(default_factory=list)  # L3
    canonical_by: str = "table"  # who wrote `canonical`: "table" (the rewrite table) or "model"

    def to_dict(self) -> dict:
        return {"datasource": self.datasource, "tables": list(self.tables), "layer": self.layer, "canonical": self.canonical,
                "canonical_by": self.canonical_by, "nearest": self.nearest, "votes": list(self.votes), "funnel": list(self.funnel),
                "subqueries": list(self.subqueries)}


class MirrorRouter(DomainDesign):
    untunable_reason = ("The mirror routes by distance to its index in layers (L1, L2 and the LLM as L3), "
                        "not by the four tier thresholds; its limits are `l1` and `l2` in mirror.yaml. "
                        "The Coverage page measures it on its golden questions.")
    design = "datasource_mirror"
    target_noun = "datasource"

    def __init__(self, domain: Domain, *, encoder=None, store: str | None = None, store_options: dict | None = None,
                 llm_client=None, environ: Mapping[str, str] | None = None, **_):
        self.domain = domain
        self.config: MirrorConfig = load_config(domain, environ)
        self.encoder, self.encoder_why = (encoder, "given by the caller") if encoder is not None else choose_encoder(self.config.encoder, environ)
        self.llm_client = llm_client  # the client run_llm uses (default: one from the environment, made per call)
        self.llm_reads = ReadCache()  # the model's canonical forms, by question
        self.date_lexicon = load_date_lexicon(domain.root.parent / SHARED_DIR / "dates.yaml")
        paraphrases, self.llm_report = self._paraphrases(environ)
        self.entries: list[dict] = []
        for ds, questions in self.config.samples.items():
            for i, q in enumerate(questions):
                canon = canonicalise(q, self.config)
                texts = [("sample", clean(q)), ("canonical", canon)] + [("variant", v) for v in expand(canon, self.config, self.config.variants)]
                texts += [("llm_variant", canonicalise(p, self.config)) for p in paraphrases.get(q, ())]
                seen = set()
                for kind, text in texts:
                    if text in seen:
                        continue
                    seen.add(text)
                    self.entries.append({"datasource": ds, "kind": kind, "text": text, "sample": q})
        vectors = encode_cached(self.encoder, [e["text"] for e in self.entries])  # a rebuild reads the slow encoder's vectors back
        self.vectors = vectors  # the entries' vectors, in entry order (the playground's projection draws them)
        options = dict(store_options or {})
        if (store or self.config.store) == "chroma":
            llm = f"-llm{len(self.entries)}" if self.llm_report["used"] else ""
            options.setdefault("collection", f"mirror-{domain.name}-{domain.fingerprint[:12]}{llm}".replace(":", "-"))
            options.setdefault("encoder", self.encoder)
        self.store = get_store(store or self.config.store, self.encoder.dimension, **options)
        if len(self.store) != len(self.entries):
            self.store.add([f"{e['datasource']}:{n}" for n, e in enumerate(self.entries)], vectors, self.entries)
        # The raw index (sample questions only, as written): what L1 would see without the mirror.
        self.raw_store = get_store("numpy", self.encoder.dimension)
        raw = [e for e in self.entries if e["kind"] == "sample"]
        self.raw_store.add([str(n) for n in range(len(raw))], vectors[[i for i, e in enumerate(self.entries) if e["kind"] == "sample"]], raw)
        self.available = [{"name": t.name, "description": t.description} for t in domain.tools]
        settings = DateSettings.of(domain.settings)
        self.owners = phrase_owners(  # canonical phrase -> the one datasource whose samples use it; no date
            self.config, lambda phrase: bool(find_dates(phrase, today=date(2000, 1, 1), settings=settings, lexicon=self.date_lexicon)))

    # ---------------------------------------------------------------- protocol

    def describe(self) -> dict:
        out = self.domain.describe()
        out["mirror"] = {"entries": len(self.entries), "encoder": self.encoder.name, "encoder_why": self.encoder_why, "store": type(self.store).__name__,
                         "l1": self.config.l1, "l2": self.config.l2, "thresholds_from": dict(self.config.sources),
                         "llm_variants": {**self.llm_report, "entries": sum(e["kind"] == "llm_variant" for e in self.entries)}}
        return out

    def _paraphrases(self, environ) -> tuple[dict[str, list[str]], dict]:
        """mirror.yaml llm_variants: the model's paraphrases per sample question (cached), and what happened."""
        if not self.config.llm_variants:
            return {}, disabled_report()
        samples = [q for qs in self.config.samples.values() for q in qs]
        client = make_client(self.llm_client, environ)
        return paraphrase_samples(samples, self.config.variants, client=client, cache_path=self.domain.root / CACHE_FILE)

    def tables(self, datasource: str | None) -> list[str]:
        tool = next((t for t in self.domain.tools if t.name == datasource), None)
        return [str(x) for x in (tool.extra.get("tables") or [])] if tool else []

    def nearest(self, text: str, *, raw: bool = False) -> dict | None:
        return self._nearest_vector(self.encoder.encode([text])[0], raw=raw)

    def _nearest_vector(self, vector, *, raw: bool = False) -> dict | None:
        hits = (self.raw_store if raw else self.store).query(vector, 1)
        if not hits:
            return None
        h = hits[0]
        return {"text": h.metadata.get("text"), "distance": round(h.distance, 4), "datasource": h.metadata.get("datasource"),
                "kind": h.metadata.get("kind"), "sample": h.metadata.get("sample")}

    def layers(self, query: str, *, read: dict | None = None) -> tuple[str | None, str | None, dict | None, list[dict], list[dict], str]:
        """(layer, datasource, nearest, votes, funnel, canonical) by L1 then L2; L3 is the caller's.
        `read`: the model's reading (llm_canonical.ask_model); its canonical form and variations
        replace the table's when it has them (source "model" or "cache")."""
        cfg = self.config
        by_model = bool(read and read.get("canonical") and read.get("source") in ("model", "cache"))
        canon = read["canonical"] if by_model else canonicalise(query, cfg)
        funnel: list[dict] = []
        named, phrases = named_datasource(canon, self.owners)
        t0 = time.perf_counter()
        hit = self.nearest(canon)
        d = hit["distance"] if hit else None
        ok = hit is not None and d < cfg.l1
        funnel.append({"layer": "L1", "threshold": cfg.l1, "distance": d, "datasource": hit and hit["datasource"],
                       "accepted": ok, "ms": round((time.perf_counter() - t0) * 1000, 3)})
        if ok:
            if named and named != hit["datasource"] and len(phrases) >= L1_OVERRULED_BY:
                return self._named(named, phrases, canon, funnel, [])
            return "L1", hit["datasource"], hit, [], funnel, canon
        t0 = time.perf_counter()
        votes = []
        voters = list(self._voters(query, canon, read if by_model else None))
        # the others in one batch (one forward pass of the transformer, not one a voter); the canonical form's
        # nearest entry is L1's, already found
        fresh = [text for text, _ in voters if text != canon]
        vectors = dict(zip(fresh, self.encoder.encode(fresh))) if fresh else {}
        for text, source in voters:
            h = hit if text == canon else self._nearest_vector(vectors[text])
            if h:
                votes.append({"text": text, "datasource": h["datasource"], "distance": h["distance"], "nearest": h["text"],
                              "counted": h["distance"] < cfg.l2, "source": source})
        tally = Counter(v["datasource"] for v in votes if v["counted"])
        winner, best = None, None
        if tally:
            ranked = tally.most_common()
            top = ranked[0][1]
            leaders = [ds for ds, c in ranked if c == top]
            # A majority of the counted votes, or a plurality of two or more without a tie.
            if top * 2 > sum(tally.values()) or (top >= 2 and len(leaders) == 1):
                winner = leaders[0]
                best = min((v for v in votes if v["counted"] and v["datasource"] == winner), key=lambda v: v["distance"])
        funnel.append({"layer": "L2", "threshold": cfg.l2, "distance": best["distance"] if best else min((v["distance"] for v in votes), default=None),
                       "datasource": winner, "accepted": winner is not None, "votes": dict(tally), "ms": round((time.perf_counter() - t0) * 1000, 3)})
        if named and named != winner:
            return self._named(named, phrases, canon, funnel, votes)
        if winner:
            near = {"text": best["nearest"], "distance": best["distance"], "datasource": winner}
            return "L2", winner, near, votes, funnel, canon
        return None, None, hit, votes, funnel, canon

    def _named(self, ds: str, phrases: list[str], canon: str, funnel: list[dict], votes: list[dict]) -> tuple:
        """Layer "L0": the question's canonical phrases name `ds` alone (routing/designs/datasource_mirror/
        phrases.py), where L1's or L2's answer is another datasource or none. The nearest entry shown is
        `ds`'s own nearest (its distance makes the confidence, as at L1)."""
        hits = self.store.query(self.encoder.encode([canon])[0], 50)
        h = next((h for h in hits if h.metadata.get("datasource") == ds), None)
        near = {"text": h.metadata.get("text"), "distance": round(h.distance, 4), "datasource": ds} if h else \
            {"text": "", "distance": 1.0, "datasource": ds}
        for step in funnel:  # the layer that would have answered otherwise is overruled, not accepted
            if step.get("accepted"):
                step.update(accepted=False, overruled_by="L0")
        funnel.insert(0, {"layer": "L0", "phrases": phrases, "datasource": ds, "accepted": True, "distance": near["distance"]})
        return "L0", ds, near, votes, funnel, canon

    def route(self, query: Any, *, today: date | str | None = None, thresholds: Thresholds | Mapping | None = None,
              context: Mapping | None = None) -> RouteResult:
        """L1 and L2 only: no model and no network (L3 and the model's reading run in run_llm)."""
        return self._route(query, today=today, context=context, client=None)

    def run_llm(self, result: RouteResult, *, client=None) -> RouteResult:
        """The request asked for the LLM: the model canonicalises the question and writes L2's
        variations (the table is the fallback), and L3 splits it when no layer was sure."""
        if result.error is not None and result.error.code == ErrorCode.INVALID_QUERY.value:
            return result
        client = client or make_client(self.llm_client)
        return self._route(result.query, today=result.today, context=None, client=client)

    def _route(self, query: Any, *, today, context, client) -> RouteResult:
        started = time.perf_counter()
        ref = parse_today(today)
        problem = validate_query(query)
        if problem:
            return self._result(query, ref, Status.NOT_FOUND, problem, [], MirrorFields(None, [], None, "", None), started,
                                error=ErrorInfo(ErrorCode.INVALID_QUERY.value, problem))
        read = ask_model(query, self.config, client=client, cache=self.llm_reads) if client is not None else None
        layer, ds, near, votes, funnel, canon = self.layers(query, read=read)
        subqueries: list[dict] = []
        by = "model" if read and read["source"] in ("model", "cache") else "table"
        events = [{"type": "route_started"}, {"type": "mirror_canonicalised", "canonical": canon, "by": by}]
        error = None
        if read is not None:
            events.append({"type": "llm_called" if read["source"] == "model" else ("llm_cached" if by == "model" else "llm_failed"),
                           "model": read.get("model"), "reason": read.get("reason")})
        if layer is None:
            if client is None:
                step = {"layer": "L3", "accepted": False, "llm": False, "reason": NOT_ASKED, "ms": 0.0}
                subqueries = []
            elif read is not None and read.get("upstream_down"):
                # The endpoint just failed on the canonical form: not asked again (a hanging one would cost its timeout twice).
                step = {"layer": "L3", "accepted": False, "llm": False, "reason": f"L3 not run: the LLM endpoint failed ({read['reason']})", "ms": 0.0}
            else:
                layer, ds, near, subqueries, step = self._layer3(query, context, client)
                if step.get("reason") and not step["accepted"]:
                    error = ErrorInfo(ErrorCode.UPSTREAM_DOWN.value, step["reason"]) if step.get("upstream_down") else None
            funnel.append(step)
        if read is not None and read.get("upstream_down") and error is None:
            error = ErrorInfo(ErrorCode.UPSTREAM_DOWN.value, f"The model did not canonicalise the question ({read['reason']}); the rewrite table did.")
        if ds:
            status = Status.ACTIVATED
            conf = round(max(0.0, min(1.0, 1.0 - near["distance"])), 4)
            names = [ds] + [s["datasource"] for s in subqueries if s.get("datasource") and s["datasource"] != ds]
            matches = [self._match(n, conf if n == ds else conf, layer) for n in dict.fromkeys(names)]
            if len(matches) > 1:
                status = Status.MULTIPLE_MATCHES
            message = f"{ds} ({layer}): nearest '{near['text']}' at distance {near['distance']:.2f}."
        else:
            weak = self._weak(canon)
            status = Status.WEAK_MATCHES if weak else Status.NOT_FOUND
            # Contract order: higher confidence first, equal confidence A-Z (at the reported precision).
            matches = sorted((self._match(n, round(max(0.0, 1 - d), 4), None) for n, d in weak), key=lambda m: (-m.confidence, m.name))
            message = ("Only weak matches: no layer was sure. Could you rephrase, or name the data you mean?" if weak
                       else "No datasource matches this question. These are the datasources available.")
        events.append({"type": "route_classified", "status": status.value, "layer": layer})
        fields = MirrorFields(ds, self.tables(ds), layer, canon, near, votes, funnel, subqueries, canonical_by=by)
        result = self._result(query, ref, status, message, matches, fields, started, events=events, canonical=canon, error=error)
        if client is not None:
            config = getattr(client, "config", None)
            llm = {"model": (read or {}).get("model"), "canonical_by": by, "canonical": canon,
                   "variations": list((read or {}).get("variations") or []), "source": (read or {}).get("source"),
                   "reason": (read or {}).get("reason"), "latency_ms": (read or {}).get("latency_ms"),
                   "usage": (read or {}).get("usage"), "endpoint": getattr(config, "endpoint", None), "tool_call": None, "text": None}
            result = replace(result, llm=llm)
        return result

    # ---------------------------------------------------------------- helpers
    def _weak(self, canon: str) -> list[tuple[str, float]]:
        hits = self.store.query(self.encoder.encode([canon])[0], 20)
        out: dict[str, float] = {}
        for h in hits:
            if h.distance < self.config.weak:
                out.setdefault(h.metadata["datasource"], h.distance)
        return list(out.items())[:5]

    def _voters(self, query: str, canon: str, read: dict | None) -> list[tuple[str, str]]:
        """L2's voters, each with who wrote it: the original ("question"), the canonical form and its
        variations ("model" when the model's reading is used, else "table")."""
        cfg = self.config
        if read is None:
            texts = variations(query, canon, cfg, cfg.votes)
            return [(t, "question" if i == 0 else "table") for i, t in enumerate(texts)]
        out = [(clean(query) or query, "question")]
        for text in [canon, *read.get("variations", [])]:
            if text and text not in {t for t, _ in out}:
                out.append((text, "model"))
            if len(out) >= cfg.votes + 1:
                break
        return out

    def _layer3(self, query: str, context, client) -> tuple:
        from routing.paths.llm import ChatRequest

        t0 = time.perf_counter()
        if not getattr(getattr(client, "config", None), "configured", True):
            return None, None, None, [], {"layer": "L3", "accepted": False, "llm": False, "upstream_down": True,
                                          "reason": "no LLM endpoint configured (set OPENAI_BASE_URL or OPENAI_API_KEY)",
                                          "ms": round((time.perf_counter() - t0) * 1000, 3)}
        names = ", ".join(t.name for t in self.domain.tools)
        request = ChatRequest(model="gpt-4o-mini", messages=(
            {"role": "system", "content": f"Split the user's question into at most 3 short standalone sub-questions, one per kind of data ({names}). Answer with a JSON list of strings only."},
            {"role": "user", "content": query},
        ))
        reply = client.complete(request)
        parts: list[str] = []
        if reply.ok and reply.text:
            try:
                parsed = json.loads(reply.text)
                parts = [str(p) for p in parsed if isinstance(p, str) and p.strip()][:3] if isinstance(parsed, list) else []
            except ValueError:
                parts = []
        subs = []
        for p in parts:
            layer, ds, near, _, _, canon = self.layers(p)
            subs.append({"query": p, "canonical": canon, "layer": layer, "datasource": ds, "nearest": near})
        routed = [s for s in subs if s["datasource"]]
        step = {"layer": "L3", "accepted": bool(routed), "llm": True, "subqueries": len(parts), "upstream_down": not reply.ok,
                "reason": None if reply.ok else reply.reason, "ms": round((time.perf_counter() - t0) * 1000, 3)}
        if not routed:
            return None, None, None, subs, step
        first = routed[0]
        return "L3", first["datasource"], first["nearest"], subs, step

    def _match(self, name: str, confidence: float, layer: str | None) -> Match:
        tool = self.domain.tool(name)
        return Match(name=name, confidence=confidence, match_type="semantic", description=tool.description, kind=tool.kind,
                     key_params=[], suggested_params={"tables": self.tables(name)},
                     score_breakdown={"semantic": confidence}, evidence=[f"layer {layer}" if layer else "nearest only"], raw_score=confidence)

    def _result(self, query, ref, status, message, matches, fields, started, *, error=None, events=None, canonical="") -> RouteResult:
        text = query if isinstance(query, str) else ""
        settings = DateSettings.of(self.domain.settings)
        dates = [d.to_dict() for d in find_dates(text, today=ref, settings=settings, lexicon=self.date_lexicon)] if text and not error else []
        path = Path.FAST if status is Status.ACTIVATED and fields.layer in ("L0", "L1", "L2") else Path.LLM
        result = RouteResult(
            query=query, domain=self.name, today=ref.isoformat(), normalized=canonical, corrections=[], status=status,
            message=message, clarifying_question=None, path=path,
            path_reason={"L0": "L0: the canonical phrases name one datasource, no LLM",
                         "L1": "L1: a close enriched entry, no LLM", "L2": "L2: the variations agreed, no LLM",
                         "L3": "L3: the LLM split the question"}.get(fields.layer, "no layer was sure")
            + ("; the model wrote the canonical form" if fields.canonical_by == "model" else ""),
            matches=matches, dates=dates, error=error, events=events or [{"type": "route_started"}], timing_ms=0.0,
            available=self.available if status is Status.NOT_FOUND else [], thresholds=self.thresholds.to_dict(),
            design=self.design, design_fields=fields,
        )
        return replace(result, timing_ms=round((time.perf_counter() - started) * 1000, 3))


def build(domain: Domain, **options) -> MirrorRouter:
    return MirrorRouter(domain, **options)
