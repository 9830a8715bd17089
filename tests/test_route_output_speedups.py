"""The route's output stage (after the scores) computed faster, checked against the way it replaced
(issue 22, speed): suggested parameters from a plan made once per tool and the argument text read
once per question; the path classifier's phrase search and the question's words read from its
analysis; the reply's dataclasses built by an init that writes their __dict__; the lifts asking
their cheapest condition first. Each new way must give what the old one gave on varied inputs."""
from __future__ import annotations

from dataclasses import replace

import dataclasses
import inspect
import pickle
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from routing import Router
from routing.core import sole
from routing.core.bare import moved
from routing.core.fastinit import fast_frozen_dict_init
from routing.core.model import Tool
from routing.core.params import (ParamPlan, _capitals, _code_said, _coded_run, _id_edges, _named, _uncased, argument_text,
                                  suggest_params)
from routing.core.schema import Match, PathFields, RouteResult
from routing.core.scoring import Scored
from routing.core.text import words
from routing.paths import classify
from routing.quality.tool_import import import_tool_catalog

TODAY = "2026-01-22"
CATALOGS = Path(__file__).resolve().parent / "catalogs"
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


# ------------------------------------------------------------------ the ways replaced (as they were)


def old_suggest_params(tool, a, pattern_params, param_words=frozenset(), value_markers=None, identifier_kinds=(), write_kinds=()):
    params, notes = {}, []
    by_name = {p.name: p for p in tool.params}
    for name, value in pattern_params.items():
        if name in by_name:
            params[name] = value
    for p in tool.params:
        if p.name in params or not p.values:
            continue
        hit = next((v for v in p.values if v in a.concepts), None) or next((v for v in p.values if _code_said(a, v)), None)
        if hit is not None:
            params[p.name] = hit
    resolved = [d for d in a.dates if d.resolved]
    if resolved:
        first = resolved[0]
        for p in tool.params:
            if p.role == "date_from" and p.name not in params:
                params[p.name] = first.start.isoformat()
            elif p.role == "date_to" and p.name not in params:
                params[p.name] = first.end.isoformat()
        if len(resolved) > 1:
            notes.append(f"{len(resolved)} date ranges found; using the first ({first.text})")
    for d in a.dates:
        if not d.resolved:
            notes.append(f'could not use "{d.text}": {d.reason}')
        elif d.note:
            notes.append(f'"{d.text}": {d.note}')
    query_param = next((p for p in tool.params if p.role == "query"), None)
    shaped = None
    if query_param is None:
        free = [p for p in tool.params if p.type == "string" and not p.role and not p.values]
        query_param = free[0] if len(free) == 1 else None
        shaped = value_markers
    if query_param is not None and query_param.name not in params:
        argument = old_argument_text(a, concept_words=param_words, value_markers=shaped,
                                     identifier=tool.kind in identifier_kinds and shaped is None, name_only=tool.kind in write_kinds)
        if argument:
            params[query_param.name] = argument
    for p in tool.params:
        if p.name not in params and p.required:
            if p.default is not None:
                params[p.name] = p.default
                notes.append(p.default_note or f"{p.name} = {p.default} by default")
            else:
                notes.append(f"{p.name} is required and the question does not give it")
    return params, notes


def old_argument_text(a, *, concept_words=frozenset(), value_markers=None, identifier=False, name_only=False):
    units = a.units
    spans = _old_spans(a, concept_words, False)  # the later rule: no word of a statement before the ask ...
    if not spans and name_only:  # ... but a write's party, where only the statement names it: its names, if any
        spans = _old_spans(a, concept_words, True)
        spans = [r for r in spans if any(units[j].told == "name" for j in range(*r))] or spans
    if value_markers is None:  # a record's code: the later rule (routing.core.params._id_edges), read the same way
        coded = [s for s in spans if _coded_run(units, *s)]
        if identifier and coded:
            spans = coded
        spans = [_id_edges(a, units, *s, front=len(spans) == 1, identifier=identifier) if s in coded else s for s in spans]
        if name_only and spans and _named(a, units, *spans[0]):  # the later rules: a write's party, its small words
            for k in range(len(spans) - 1, 0, -1):
                (lo, hi), (lo2, hi2) = spans[k - 1], spans[k]
                if lo2 == hi + 1 and units[hi].role == "stop" and len(units[hi].surface) <= 3 and _uncased(a, units[hi].first, units[hi].last):
                    spans[k - 1:k + 1] = [(lo, hi2)]
            spans = [s for s in spans if _capitals(a, units, *s)]
    runs = []
    for lo, hi in spans:
        text = a.surface_of(units[lo].first, units[hi - 1].last)
        if value_markers is not None:
            text = _old_value_of(a, text, units, lo, hi, value_markers)
        if text:
            runs.append(text)
    seen: set[str] = set()
    return " ".join([r for r in runs if not (r.casefold() in seen or seen.add(r.casefold()))])


def _old_spans(a, concept_words, keep_told):
    spans, start, units = [], None, a.units

    def capital_stop(i, u):  # a stop word typed with a capital before a capitalised word begins a name (the later rule)
        return (u.role == "stop" and u.first > 0 and i + 1 < len(units) and units[i + 1].role == "literal" and u.surface.isalpha()
                and not _uncased(a, u.first, u.last) and not _uncased(a, units[i + 1].first, units[i + 1].last))
    for i, u in enumerate(units + (None,)):
        if u is not None and (u.role in ("literal", "number") or capital_stop(i, u)) and u.key not in concept_words \
                and (keep_told or not u.told):
            if start is None:
                start = i
            continue
        if start is not None:
            spans.append((start, i))
            start = None
    return spans


def _old_value_of(a, text, units, start, end, markers):
    digits = [j for j in range(start, end) if units[j].role == "number" or any(ch.isdigit() for ch in units[j].surface)]
    if digits:
        lo, hi = digits[0], digits[-1]
        while lo > start and _old_joined(a, units[lo - 1], units[lo]):
            lo -= 1
        while hi + 1 < end and _old_joined(a, units[hi], units[hi + 1]):
            hi += 1
        return a.surface_of(units[lo].first, units[hi].last)
    if start > 0 and units[start - 1].role == "stop" and units[start - 1].key in markers:
        return text
    cased = [w for w in text.split() if w[:1].isupper()]
    named = bool(cased) and (units[start].first > 0 or len(cased) > 1 or any(len(w) > 1 and w.isupper() for w in cased))
    return text if named else ""


def _old_joined(a, left, right):
    between = a.text[a.tokens[left.last - 1].end : a.tokens[right.first].start]
    return not any(ch.isspace() for ch in between)


def old_find_phrases(tokens, ordered):
    used = [False] * len(tokens)
    hits: dict[str, list[str]] = {}
    at: dict[str, list[int]] = {}
    for i, tok in enumerate(tokens):
        at.setdefault(tok, []).append(i)
    for phrase, label in ordered:
        hits.setdefault(label, [])
        n = len(phrase)
        for i in (at.get(phrase[0], ()) if phrase else range(len(tokens) + 1)):
            if i + n <= len(tokens) and tokens[i : i + n] == phrase and not any(used[i : i + n]):
                used[i : i + n] = [True] * n
                hits[label].append(" ".join(phrase))
    return hits


def old_contains(tokens, phrases):
    at: dict[str, list[int]] = {}
    for i, tok in enumerate(tokens):
        at.setdefault(tok, []).append(i)
    found = []
    for phrase in phrases:
        n = len(phrase)
        starts = range(len(tokens) + 1) if not phrase else at.get(phrase[0], ())
        if any(i + n <= len(tokens) and tokens[i : i + n] == phrase for i in starts):
            found.append(" ".join(phrase))
    return found


# ------------------------------------------------------------------ questions


@pytest.fixture(scope="module")
def routers(tmp_path_factory) -> dict[str, Router]:
    """Hand-written domains (value, date and query parameters, defaults) and an imported catalog
    (free-text parameters that take only words shaped like a value)."""
    import shutil

    root = tmp_path_factory.mktemp("lexicons")
    shutil.copytree(Path(__file__).resolve().parent.parent / "lexicons" / "_shared", root / "_shared")
    import_tool_catalog(CATALOGS / "travel_five.json", "travel", root=root)
    out = {name: Router.load(name) for name in ("accounting", "cfo")}
    out["travel"] = Router.load("travel", root)
    return out


WORDS = ["show", "invoices", "unpaid", "from", "for", "to", "the", "of", "and", "then", "customer", "status", "acme",
         "Sharma", "Traders", "PT", "Maju", "Jaya", "AAPL", "INV-2026-001", "abc-12", "7", "2,500", "₹5,000", "last",
         "month", "march", "2025", "flight", "Rome", "weather", "in", "Paris", "email", "hi", "thanks", "compare",
         "why", "after", "that", "Straße", "İstanbul", "ǅemal", "x²", "(Acme)", '"Kapoor', "Metals\"", "pet", "number",
         "e-mail", "don't", "naya", "banao", "dikhao", "kal", "ka", "bill", "record", "tell", "me", "¹²", "Ⅻ"]
SEPARATORS = [" ", " ", " ", ", ", " - ", "-", "/", "? ", ". ", "  "]


@st.composite
def questions(draw) -> str:
    n = draw(st.integers(1, 14))
    parts = []
    for i in range(n):
        parts.append(draw(st.sampled_from(WORDS)))
        if i < n - 1:
            parts.append(draw(st.sampled_from(SEPARATORS)))
    text = "".join(parts)
    return text[:1].upper() + text[1:] if draw(st.booleans()) else text


def _analyses(routers, query):
    for name, router in routers.items():
        yield name, router, router.analyze(query, today=TODAY)


@SETTINGS
@given(query=questions())
def test_argument_text_is_what_it_was(routers, query):
    for _, router, a in _analyses(routers, query):
        markers = router.domain.words.value_markers
        for cw in (frozenset(), router.param_words):
            assert argument_text(a, concept_words=cw) == old_argument_text(a, concept_words=cw)
            if markers is not None:
                assert argument_text(a, concept_words=cw, value_markers=markers) == old_argument_text(a, concept_words=cw, value_markers=markers)


@SETTINGS
@given(query=questions(), patterns=st.dictionaries(st.sampled_from(["customer", "status", "amount", "city", "nope"]),
                                                   st.sampled_from(["x", "paid", "7"]), max_size=2))
def test_suggested_params_from_a_kept_plan_and_one_argument_text_are_what_they_were(routers, query, patterns):
    for _, router, a in _analyses(routers, query):
        markers = router.domain.words.value_markers
        arguments: dict = {}  # kept across the tools of one question, as Router._matches keeps it
        for tool, plan in zip(router.index.tools, router.param_plans):
            kinds = router.domain.settings.weights.identifier_kinds
            writes = router.domain.settings.weights.explicit_kinds
            want = old_suggest_params(tool, a, patterns, router.param_words, markers, kinds, writes)
            assert suggest_params(tool, a, patterns, router.param_words, markers, plan=plan, arguments=arguments) == want
            assert suggest_params(tool, a, patterns, router.param_words, markers, plan=ParamPlan.of(tool, kinds, writes)) == want
            assert list(plan.key_params) == tool.key_params


def test_a_plan_is_made_of_the_tool_alone(routers):
    for router in routers.values():
        w = router.domain.settings.weights
        assert router.param_plans == tuple(ParamPlan.of(t, w.identifier_kinds, w.explicit_kinds) for t in router.index.tools)


@SETTINGS
@given(query=questions())
def test_the_question_words_read_from_its_analysis_are_words_of_it(routers, query):
    for _, _, a in _analyses(routers, query):
        assert classify.question_words(query, a) == words(query)
    assert classify.question_words(query) == words(query)


PHRASE_WORDS = ["and", "then", "hi", "ok", "show", "list", "after", "that", "a", "b"]


@SETTINGS
@given(tokens=st.lists(st.sampled_from(PHRASE_WORDS), max_size=12).map(tuple),
       phrases=st.lists(st.lists(st.sampled_from(PHRASE_WORDS), max_size=3).map(tuple), max_size=8).map(tuple),
       labels=st.lists(st.sampled_from(["general_chat", "cfo", "bookkeeper"]), min_size=8, max_size=8))
def test_the_phrase_search_finds_what_it_found(tokens, phrases, labels):
    assert classify._contains(tokens, phrases) == old_contains(tokens, phrases)
    firsts = None if any(not ph for ph in phrases) else frozenset(ph[0] for ph in phrases)  # as _first_words keeps them
    assert classify._contains(tokens, phrases, None, firsts) == old_contains(tokens, phrases)
    by_label: dict[str, tuple] = {}
    for phrase, label in zip(phrases, labels):
        by_label[label] = by_label.get(label, ()) + (phrase,)
    ordered = classify._ordered(by_label)
    want = {label: old_find_phrases(tokens, ordered).get(label, []) for label in by_label}
    assert classify._find_phrases(tokens, by_label, ordered) == want
    assert classify._find_phrases(tokens, by_label, ordered, firsts) == want


def test_the_shortcuts_hold_over_every_code_point():
    """No letter is a digit (a word of letters holds no digit), and a text str.islower() calls lower
    holds no character str.isupper() calls a capital (params._uncased)."""
    chars = [chr(c) for c in range(sys.maxunicode + 1) if not 0xD800 <= c <= 0xDFFF]
    assert not [c for c in chars if c.isalpha() and c.isdigit()]
    assert not [c for c in chars if c.isupper() and ("a" + c).islower()]


def test_a_route_still_suggests_the_parameters_it_did(routers):
    """One reply end to end (the goldens and scripts/speed_compare.py check the rest)."""
    r = routers["cfo"].route("naya invoice banao for Sharma Traders", today=TODAY)
    assert r.matches[0].suggested_params.get("customer") == "Sharma Traders"


def _made(fast: bool):
    @dataclasses.dataclass(frozen=True)
    class Made:
        a: int
        b: list = dataclasses.field(default_factory=list)
        c: str = "z"
        d: dict | None = None

    return fast_frozen_dict_init(Made) if fast else Made


@SETTINGS
@given(a=st.integers(), b=st.none() | st.lists(st.integers(), max_size=3), c=st.none() | st.text(max_size=3),
       positional=st.booleans())
def test_the_dict_init_makes_what_the_dataclass_init_made(a, b, c, positional):
    plain, fast = _made(False), _made(True)
    args = (a,) if positional else ()
    kwargs = {k: v for k, v in (("a", a), ("b", b), ("c", c)) if v is not None and (k != "a" or not positional)}
    want, got = plain(*args, **kwargs), fast(*args, **kwargs)
    assert vars(got) == vars(want) and repr(got).replace("Made", "") == repr(want).replace("Made", "")
    assert fast(*args, **kwargs) == got and hash(fast(a, (), "x")) == hash(fast(a, (), "x"))
    if b is None:
        assert got.b == [] and fast(a).b is not fast(a).b  # a fresh default each time
    with pytest.raises(dataclasses.FrozenInstanceError):
        got.a = 1
    assert dataclasses.replace(got, c="w") == fast(a, got.b, "w")


@pytest.mark.parametrize("cls", [Match, PathFields, RouteResult, classify.Classification, classify.ModelChoice])
def test_the_reply_classes_take_their_fields_as_before(cls):
    params = inspect.signature(cls.__init__).parameters
    fields = dataclasses.fields(cls)
    assert list(params)[1:] == [f.name for f in fields]
    for f in fields:
        if f.default is not dataclasses.MISSING:
            assert params[f.name].default == f.default
    if any(f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING for f in fields):
        with pytest.raises(TypeError):
            cls()


def test_a_reply_made_by_the_dict_init_pickles_and_compares(routers):
    r = routers["cfo"].route("naya invoice banao for Sharma Traders", today=TODAY)
    again = pickle.loads(pickle.dumps(r))
    assert again == r and again.matches[0] == r.matches[0] and again.to_dict() == r.to_dict()
    assert dataclasses.replace(r, timing_ms=0.0).to_dict() == {**r.to_dict(), "timing_ms": 0.0}


def _old_leads(scored, medium, high, margin):
    top = scored[0].confidence
    second = scored[1].confidence if len(scored) > 1 else 0.0
    return medium <= top < high and round(top - second, 4) >= round(margin, 4)


def old_lift_sole_tool(scored, concepts, tools, medium, high, margin):
    if not scored or len(set(concepts)) < sole.MIN_TERMS:
        return scored
    top = scored[0]
    if not _old_leads(scored, medium, high, margin):
        return scored
    terms = set(concepts)
    leader = tools[top.tool]
    own_terms = terms & set(leader.keywords)
    if not leader.keywords or len(own_terms) * 2 < len(terms) or not terms <= set(leader.keywords) | set(leader.related):
        return scored
    if any(terms <= set(t.keywords) | set(t.related) for i, t in enumerate(tools) if i != top.tool):
        return scored
    return [moved(top, high, "sole", f"sole: every term is {leader.name}'s own" if own_terms == terms else
                       f"sole: {leader.name} alone holds every term"), *scored[1:]]


def old_lift_sole_writer(scored, concepts, verb_kinds, tools, write_kinds, medium, high, margin):
    # the rule as routing.core.sole states it, written out plainly: the first verb asks for a write, the
    # leader is the one writer holding the terms (another holding only some of them, or relating to a term
    # the leader lacks, is no rival; one holding the same terms or its own keyword the leader lacks is); lifted
    # to high from the middle band, and every reader within the margin held at the margin below it
    if not scored or not concepts or not verb_kinds or verb_kinds[0] not in write_kinds:
        return scored
    top = scored[0]
    if tools[top.tool].kind not in write_kinds or top.confidence < medium:
        return scored
    terms = set(concepts)
    held = {i: terms & (set(t.keywords) | set(t.related)) for i, t in enumerate(tools)}
    writers = [i for i, t in enumerate(tools) if t.kind in write_kinds and t.keywords and held[i]]
    mine = held[top.tool]
    if top.tool not in writers or any(i != top.tool and (held[i] == mine or (held[i] - mine) & set(tools[i].keywords))
                                      for i in writers):
        return scored
    why = f"sole_write: the one write tool for these terms, {tools[top.tool].name}"
    top = top if top.confidence >= high else moved(top, high, "sole_write", why)
    floor = round(top.confidence - margin, 4)
    return [top, *(moved(x, floor, "sole_write", "sole_write: a write was asked, a reader is no rival") if x.confidence > floor else x
                   for x in scored[1:])]


TERMS = ["bill", "invoice", "top", "expense", "gst"]


@st.composite
def lift_cases(draw):
    tools = [Tool(name=f"t{i}", description="", kind=draw(st.sampled_from(["list", "create", "action"])),
                  keywords=tuple(draw(st.lists(st.sampled_from(TERMS), max_size=3))),
                  related=tuple(draw(st.lists(st.sampled_from(TERMS), max_size=2))), params=(), examples=())
             for i in range(draw(st.integers(1, 4)))]
    order = draw(st.permutations(range(len(tools))))[: draw(st.integers(0, len(tools)))]
    confs = sorted(draw(st.lists(st.sampled_from([0.2, 0.5, 0.6, 0.7, 0.85, 0.95]), min_size=len(order), max_size=len(order))), reverse=True)
    scored = [Scored(t, c, c, {"keyword": c}, [], {}, "keyword") for t, c in zip(order, confs)]
    verbs = draw(st.lists(st.sampled_from(["create", "create", "action", "list"]), min_size=1, max_size=2))
    return scored, tools, draw(st.lists(st.sampled_from(TERMS), max_size=3)), verbs


@settings(max_examples=300, deadline=None)
@given(case=lift_cases())
def test_the_lifts_with_their_cheapest_condition_first_lift_what_they_lifted(case):
    scored, tools, concepts, verbs = case
    # now in two steps (routing.core.sole): a mark at scoring, the lift at the thresholds in use
    def plain(xs):
        return [replace(x, lift=()) for x in xs]

    assert (plain(sole.lifted(sole.mark_sole_tool(scored, concepts, tools), 0.5, 0.9, 0.1))
            == old_lift_sole_tool(scored, concepts, tools, 0.5, 0.9, 0.1))
    assert (plain(sole.lifted(sole.mark_sole_writer(scored, concepts, verbs, tools, ("create", "action")), 0.5, 0.9, 0.1))
            == old_lift_sole_writer(scored, concepts, verbs, tools, ("create", "action"), 0.5, 0.9, 0.1))
