"""Suggested parameters for a matched tool: from patterns, from the query's terms, from its dates,
and defaults (with a note) for required parameters the query left open."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from routing.core.index import QueryAnalysis
from routing.core.model import NumberWords, Tool
from routing.core.quantities import AMOUNT, DAYS, PLAIN, Quantity, read_quantities

_ARGUMENT_ROLES = ("literal", "number")
# why a date said was not taken (QueryAnalysis.occasions, .untaken), as the parameters' notes say it
_UNTAKEN = {"occasion": "is when something happens", "story": "is told before the question", "taken back": "was taken back",
            "aside": "frames the question", "comparison": "is the period compared with"}
WRITE_AMOUNT = 1000  # a plain number this large ending a write's name is its amount ("Sharma 12000"), a smaller one a name's ("Studio 54")
CODE_JOINS = "-/#_"  # what joins a record code's letters and digits ("INV-0788", "PB/0987"); "m8", "500 ml" are no code  # the units a run of argument words is made of


@dataclass(frozen=True, slots=True)
class ParamPlan:
    """What suggest_params reads of one tool, found once per tool (it depends on nothing else)."""

    names: frozenset[str]  # the tool's parameter names: a pattern's parameters are kept only if named
    valued: tuple[tuple[str, tuple[str, ...]], ...]  # (name, values) of each parameter with values
    dated: tuple[tuple[str, bool], ...]  # (name, True for date_from / False for date_to)
    query_name: str | None  # the parameter the query's free words go to
    shaped: bool  # that parameter takes only words shaped like a value (a lone free-text one)
    required: tuple[tuple[str, Any, str], ...]  # (name, default, note) of each required parameter
    key_params: tuple[str, ...]
    numbered: tuple[tuple[str, str], ...] = ()  # (name, role) of each number parameter with a role: amount, count, days
    counted: frozenset[str] = frozenset()  # the concepts a count stands next to ("top 5", "5 customers"): keywords and related
    identifier: bool = False  # the query parameter names one record (a detail tool's id): a run with a code is it
    # a write's query parameter (the customer of an invoice to create) holds no number: there is no record to
    # identify yet, so an amount or a count beside the name is none of it ("create invoice for Sharma 12000")
    writes: bool = False

    @classmethod
    def of(cls, tool: Tool, identifier_kinds=(), write_kinds=()) -> "ParamPlan":
        ps = tool.params
        query_param = next((p for p in ps if p.role == "query"), None)
        shaped = False
        if query_param is None:
            free = [p for p in ps if p.type == "string" and not p.role and not p.values]
            query_param = free[0] if len(free) == 1 else None
            shaped = True
        return cls(
            names=frozenset(p.name for p in ps),
            valued=tuple((p.name, p.values) for p in ps if p.values),
            dated=tuple((p.name, p.role == "date_from") for p in ps if p.role in ("date_from", "date_to")),
            query_name=query_param.name if query_param is not None else None,
            shaped=shaped,
            required=tuple((p.name, p.default, p.default_note or f"{p.name} = {p.default} by default"
                            if p.default is not None else f"{p.name} is required and the question does not give it")
                           for p in ps if p.required),
            key_params=tuple(p.name for p in ps),
            numbered=tuple((p.name, p.role) for p in ps if p.role in ("amount", "count", "days")),
            counted=frozenset(tool.keywords) | frozenset(tool.related),
            identifier=tool.kind in identifier_kinds and query_param is not None and not shaped,
            writes=tool.kind in write_kinds,
        )


def suggest_params(
    tool: Tool, a: QueryAnalysis, pattern_params: dict[str, Any], param_words: frozenset[str] = frozenset(),
    value_markers: frozenset[str] | None = None, *, plan: ParamPlan | None = None, arguments: dict | None = None,
    numbers: NumberWords | None = None, record_terms: frozenset[str] | None = None,
) -> tuple[dict[str, Any], list[str]]:
    """`param_words`: words that name a parameter somewhere in the domain ("status", "customer"):
    a query that uses one speaks of the parameter, so it is never taken as a value of one.
    `value_markers` (words.yaml): when given, a free-text parameter not marked `role: query` takes
    only words shaped like a value (see `argument_text`); None: any leftover words.
    `plan`: ParamPlan.of(tool), when kept; `arguments`: a dict kept across the tools of one query
    with the same `param_words`, where the query's argument text is kept once read.
    `numbers` (words.yaml `numbers`): how quantities are written, for the number parameters with a
    role (amount, count, days); a quantity one of them takes is no part of the argument text.
    `record_terms`: the terms a number right after them numbers a record of ("invoice 1045"); None:
    any term."""
    plan = plan or ParamPlan.of(tool)
    params: dict[str, Any] = {}
    notes: list[str] = []
    if pattern_params:
        names = plan.names
        for name, value in pattern_params.items():
            if name in names:
                params[name] = value
    # A query term that names one of a parameter's values sets it ("unpaid" -> status=unpaid).
    if plan.valued:
        concepts = a.concepts
        for name, values in plan.valued:
            if name in params:
                continue
            hit = next((v for v in values if v in concepts), None) or next((v for v in values if _code_said(a, v)), None)
            if hit is not None:
                params[name] = hit
    if a.dates:
        resolved = [d for d in a.dates if d.resolved]
        if resolved:
            first = resolved[0]
            for name, is_from in plan.dated:
                if name not in params:
                    params[name] = (first.start if is_from else first.end).isoformat()
            if len(resolved) > 1:
                notes.append(f"{len(resolved)} date ranges found; using the first ({first.text})")
        for d in a.dates:
            if not d.resolved:
                notes.append(f'could not use "{d.text}": {d.reason}')
            elif d.note:
                notes.append(f'"{d.text}": {d.note}')
    if (a.occasions or a.untaken) and plan.dated:  # "We meet the bank tomorrow and ...": said, set aside, so the user sees why
        notes.extend(f'"{d.text}" {_UNTAKEN[why]}, not the period asked: set aside'
                     for d, why in (*((d, "occasion") for d in a.occasions), *a.untaken))
    taken: tuple[Quantity, ...] = ()
    if plan.numbered and numbers is not None:
        quantities = _quantities(a, numbers, arguments)
        if quantities:
            taken = _take_numbers(plan, a, quantities, params, value_markers or frozenset(), record_terms)
    if plan.writes and numbers is not None:  # what no number parameter took is still no part of the name
        taken = (*taken, *_amounts_beside(a, _quantities(a, numbers, arguments), taken))
    # The words a search takes ("find invoice for Sharma Traders"); a tool with no search parameter
    # but one free-text one ("customer") takes them there ("outstanding invoices from acme").
    query_name = plan.query_name
    if query_name is not None and query_name not in params:
        shaped = value_markers if plan.shaped else None
        if taken:  # "received 40,000 from Arora Steels": the amount is no part of the customer's name
            argument = argument_text(a, concept_words=param_words, value_markers=shaped, name_only=bool(plan.writes),
                                     skip=frozenset(t for q in taken for t in range(q.first, q.last)))
        elif arguments is None:
            argument = argument_text(a, concept_words=param_words, value_markers=shaped, identifier=plan.identifier,
                                     name_only=bool(plan.writes))
        else:
            key = (shaped is None, plan.identifier, bool(plan.writes))
            argument = arguments.get(key)
            if argument is None:
                argument = arguments[key] = argument_text(a, concept_words=param_words, value_markers=shaped,
                                                          identifier=plan.identifier, name_only=bool(plan.writes))
        if argument:
            params[query_name] = argument
    for name, default, note in plan.required:
        if name not in params:
            if default is not None:
                params[name] = default
            notes.append(note)
    return params, notes


def _amounts_beside(a: QueryAnalysis, quantities, taken) -> tuple:
    """The quantities of a write's question that are no part of a name: an amount written as one (a currency,
    a multiplier, digit groups: "50,000", "1.5 lakh", "5 juta"), a span of days ("due in 30 days"), a count
    of a term ("5 invoices"), or a plain number of WRITE_AMOUNT or more not followed by a word in capitals
    ("for Sharma 12000", "Bluedart 12000 dated 5 Jan"); a number inside a name stays ("Studio 54", "Century 21
    Realty", "Route 66 Motors"), and so does a code's ("INV-1044")."""
    units, tokens = {u.first: u for u in a.units}, a.tokens
    def free(q) -> bool:
        gap = a.text[tokens[q.first - 1].end : tokens[q.first].start] if q.first > 0 else " "
        if gap in CODE_JOINS or any(ch.isalpha() for ch in tokens[q.first].text):  # "" (glued) is in it too
            return False  # a code's number ("INV-1044"), glued to its letters or read in one word with them
        after = units.get(q.last)
        if q.kind in (AMOUNT, DAYS) or after is not None and after.role == "concept":
            return True
        named = after is not None and after.role in _ARGUMENT_ROLES and not _uncased(a, after.first, after.last)
        return q.kind == PLAIN and q.value >= WRITE_AMOUNT and not named
    return tuple(q for q in quantities if q not in taken and free(q))


def _compact(text: str) -> str:
    return "".join(ch for ch in text.casefold() if ch.isalnum())


@lru_cache(maxsize=1024)
def _code_value(value: str) -> str:
    """`value` compacted where it is written as a code (letters with digits), else "" (read once per value)."""
    v = _compact(value)
    return "" if not v or v.isalpha() or v.isdigit() else v


def _code_said(a: QueryAnalysis, value: str) -> bool:
    """A value written as a code (letters with digits: "GSTR-1", "194C") typed in the question, its separators
    as the asker wrote them ("gstr 1", "GSTR1"); a value of letters is read by the lexicon's terms instead."""
    v = _code_value(value)
    if not v:
        return False
    toks = [_compact(t.text) for t in a.tokens]
    for i in range(len(toks)):
        joined = ""
        for t in toks[i : i + 3]:
            joined += t
            if joined == v:
                return True
            if len(joined) >= len(v):
                break
    return False


def _quantities(a: QueryAnalysis, numbers: NumberWords, arguments: dict | None) -> tuple[Quantity, ...]:
    """The question's quantities, read once per query (the analysis's when it read them; else kept in
    `arguments` when given)."""
    if a.quantities is not None:
        return a.quantities
    if arguments is None:
        return read_quantities(a, numbers)
    got = arguments.get("quantities")
    if got is None:
        got = arguments["quantities"] = read_quantities(a, numbers)
    return got


def _take_numbers(plan: ParamPlan, a: QueryAnalysis, quantities: tuple[Quantity, ...], params: dict[str, Any],
                  markers: frozenset[str], record_terms: frozenset[str] | None = None) -> tuple[Quantity, ...]:
    """Fill the number parameters (role amount / count / days) from the question's quantities, each
    quantity to one parameter: days from a span of days ("over 60 days"); a count from a whole number
    next to a term of the tool ("top 5", "5 biggest customers"); an amount from money ("₹40,000",
    "1.5 lakh"), else from a plain number that neither counts a term nor numbers a record
    ("payment of 500"; not "invoice 1045"). Returns the quantities taken."""
    taken: list[Quantity] = []
    unit_at = {}
    for ui, u in enumerate(a.units):
        for t in range(u.first, u.last):
            unit_at[t] = ui
    for name, role in plan.numbered:
        if name in params:
            continue
        free = [q for q in quantities if q not in taken]
        if role == "days":
            hit = next((q for q in free if q.kind == DAYS), None)
        elif role == "count":
            hit = next((q for q in free if q.kind == PLAIN and 0 < q.value <= 1000 and _counts(a, unit_at, q, plan.counted)), None)
        else:
            hit = next((q for q in free if q.kind == AMOUNT), None)
            if hit is None:
                hit = next((q for q in free if q.kind == PLAIN and not _counts(a, unit_at, q, None)
                            and not _numbers_record(a, unit_at, q, markers, record_terms)), None)
        if hit is not None:
            params[name] = hit.value
            taken.append(hit)
    return tuple(taken)


def _neighbour(a: QueryAnalysis, unit_at: dict, q: Quantity, step: int):
    """The unit next to the quantity (step -1: before, +1: after), and whether stop words stand between."""
    units = a.units
    i = unit_at.get(q.first if step < 0 else q.last - 1)
    if i is None:
        return None, False
    i += step
    stopped = False
    while 0 <= i < len(units) and units[i].role == "stop":
        stopped = True
        i += step
    return (units[i] if 0 <= i < len(units) else None), stopped


def _counts(a: QueryAnalysis, unit_at: dict, q: Quantity, terms: frozenset[str] | None) -> bool:
    """A whole number right before a term ("5 customers", "10 biggest expenses") or right after one with
    nothing between ("top 5"): it counts what the term names. `terms`: only these (None: any term)."""
    if not q.whole:
        return False
    after, stopped = _neighbour(a, unit_at, q, 1)
    if after is not None and not stopped and after.role == "concept" and (terms is None or after.key in terms):
        return True
    before, stopped = _neighbour(a, unit_at, q, -1)
    return (terms is not None and before is not None and not stopped and before.role == "concept" and before.key in terms
            and (after is None or after.role != "concept"))


def _numbers_record(a: QueryAnalysis, unit_at: dict, q: Quantity, markers: frozenset[str],
                    record_terms: frozenset[str] | None = None) -> bool:
    """A number after a term of a record (`record_terms`; None: any term), nothing or words other than
    a value marker between ("invoice 1045", "faktur no 1456"): the record's number, no amount
    ("payment of 500", "payment 5000" state one)."""
    i = unit_at.get(q.first)
    if i is None:
        return False
    units = a.units
    j = i - 1
    while j >= 0 and units[j].role == "stop":
        if units[j].key in markers:
            return False
        j -= 1
    return j >= 0 and units[j].role == "concept" and (record_terms is None or units[j].key in record_terms)


def argument_text(a: QueryAnalysis, *, concept_words: frozenset[str] = frozenset(), value_markers: frozenset[str] | None = None,
                  skip: frozenset[int] = frozenset(), identifier: bool = False, name_only: bool = False) -> str:
    """The words a search or detail tool takes as its argument: each run of unknown words and
    numbers, cut from the query with its separators and its casing ("INV-2026-001", "PT Maju Jaya").
    A run said twice is taken once; a word in `concept_words` ends a run and is never part of one.
    With `value_markers`, only a run shaped like a value is taken: one holding a digit (a number, an
    id), one written with a capital (a name; the query's first word does not count unless all
    capitals, "AAPL"), or one right after a marker word ("from acme"); leftover words are not a value.
    A unit over a token in `skip` (a quantity a number parameter took) ends a run and is none of it.
    `identifier`: the argument names one record; where a run holds a code, the runs without one are none of it
    ("the full breakdown of INV/2026/0087 (items, PPN, payments). thx!" -> "INV/2026/0087").
    `name_only`: the argument names a party (a write's customer): where the first run is a name written with capitals,
    runs with no capital are none of it ("Reddy Constructions, 85,000 plus 18% GST" -> "Reddy Constructions"); a name
    typed in lower case keeps every run ("reddy constructions for work at Site B").
    (Ending a capitalised name at its last capital, "Bharat Packaging sent" -> "Bharat Packaging", was tried and
    left: it cut "Dr. Mehta clinic", "Tata Steel ltd", "Reddy Constructions pvt ltd" in a review's probes.)"""
    units = a.units
    n = len(units)
    told = any(u.told for u in units)  # words of a statement before the ask: no argument where the ask has its own
    def arg(j: int, keep_told: bool) -> bool:
        v = units[j]
        if v.key in concept_words or (skip and v.first in skip) or (v.told and not keep_told):
            return False
        # a stop word typed with a capital inside the question, before a capitalised word, begins a name with it
        # ("invoices for Kak Ros", "faktur dari PT Gan Jaya"): "kak" alone is how the asker is addressed
        return v.role in _ARGUMENT_ROLES or (v.role == "stop" and v.first > 0 and j + 1 < n and units[j + 1].role == "literal"
                                             and v.surface.isalpha() and not _uncased(a, v.first, v.last)
                                             and not _uncased(a, units[j + 1].first, units[j + 1].last))
    # a write's party may be named only in the statement ("Received 75k from Sinha Traders. Please record the payment")
    for keep_told in ((False, True) if told and name_only else (False,) if told else (True,)):
        runs: list[tuple[int, int]] = []
        i = 0
        while i < n:
            if not arg(i, keep_told):
                i += 1
                continue
            start = i
            i += 1
            while i < n and arg(i, keep_told):
                i += 1
            runs.append((start, i))
        if keep_told and told:  # the statement's names, where it has some ("shipped 25 boxes to PT Griya Keramik")
            runs = [r for r in runs if any(units[j].told == "name" for j in range(*r))] or runs
        if runs:
            break
    if value_markers is None:
        coded = [r for r in runs if _coded_run(units, *r)]
        if identifier and coded:
            runs = coded
        # a code alone is the whole argument with the letters glued to its front ("INV-0788"); beside a name it is
        # no part of it ("from Kalyani Steels against INV-4410": the customer)
        runs = [_id_edges(a, units, lo, hi, front=len(runs) == 1, identifier=identifier) if (lo, hi) in coded else (lo, hi)
                for lo, hi in runs]
        if name_only and runs and _named(a, units, *runs[0]):
            # one small word (three letters or fewer) between two runs is the name's own ("Sharma and Sons", "House of
            # Spices", "Mehta and sons"; not "Sinha Traders this morning")
            for k in range(len(runs) - 1, 0, -1):
                (lo, hi), (lo2, hi2) = runs[k - 1], runs[k]
                if lo2 == hi + 1 and units[hi].role == "stop" and len(units[hi].surface) <= 3 and _uncased(a, units[hi].first, units[hi].last):
                    runs[k - 1:k + 1] = [(lo, hi2)]
            runs = [(lo, hi) for lo, hi in runs if _capitals(a, units, lo, hi)]
    unique: list[str] = []
    seen: set[str] = set()
    for lo, hi in runs:
        text = a.surface_of(units[lo].first, units[hi - 1].last) if value_markers is None else _value_of(a, units, lo, hi, value_markers)
        if text:
            folded = text.casefold()
            if folded not in seen:  # a run said twice is taken once
                seen.add(folded)
                unique.append(text)
    return " ".join(unique)


def _coded(u) -> bool:
    """A number, or a word with a digit in it ("KJ-5521" read whole)."""
    return u.role == "number" or not u.surface.isalpha() and any(ch.isdigit() for ch in u.surface)


def _coded_run(units, start: int, end: int) -> bool:
    return any(_coded(units[j]) for j in range(start, end))


def _id_edges(a: QueryAnalysis, units, start: int, end: int, *, front: bool, identifier: bool = False) -> tuple[int, int]:
    """A run holding a record's code as an argument: lower-case words after the code are none of it ("INV-0788
    full details", "KJ-5521 please", "#3321 urgent", a detail's "invoice 1077 thanks"); with `front`, the letters
    glued to its front are the code's ("INV-0788", where "inv" is read as the invoice term)."""
    lo, hi = start, end
    if front and _coded(units[lo]) and lo > 0 and units[lo - 1].surface.isalpha() and _joined(a, units[lo - 1], units[lo]):
        lo -= 1
    # only after a code of letters and digits written as one ("INV-0788"); a number's own words stay ("1.8 lakh")
    code = identifier or any(any(ch in CODE_JOINS for ch in units[j].surface) and _coded(units[j])
               or _coded(units[j]) and a.text[a.tokens[units[j].first].start - 1:a.tokens[units[j].first].start] == "#"
               or (j > lo and _joined(a, units[j - 1], units[j]) and units[j - 1].surface.isalpha() != units[j].surface.isalpha()
                   and any(ch in CODE_JOINS for ch in a.text[a.tokens[units[j - 1].last - 1].end : a.tokens[units[j].first].start]))
               for j in range(lo, hi))
    while code and hi - 1 > lo and not _coded(units[hi - 1]) and not _joined(a, units[hi - 2], units[hi - 1]) \
            and units[hi - 1].surface.isalpha() and _uncased(a, units[hi - 1].first, units[hi - 1].last):
        hi -= 1
    return lo, hi


def _capitals(a: QueryAnalysis, units, start: int, end: int) -> list[int]:
    """The units of units[start:end] written with a capital."""
    return [j for j in range(start, end) if any(ch.isupper() for ch in a.surface_of(units[j].first, units[j].last))]


def _named(a: QueryAnalysis, units, start: int, end: int) -> bool:
    """units[start:end] hold a name written with capitals: two capitalised words or more, or one not first in the
    question (a capital there may just begin the sentence)."""
    caps = _capitals(a, units, start, end)
    return len(caps) > 1 or bool(caps) and units[caps[0]].first > 0


def _value_of(a: QueryAnalysis, units, start: int, end: int, markers: frozenset[str]) -> str:
    """The value in a run of leftover words (units[start:end]), or "" when it holds none."""
    # No letter is a digit (checked over every code point): a word of letters holds none.
    digits = [j for j in range(start, end) if _coded(units[j])]
    if digits:  # an id or a number: its own tokens, joined without spaces ("pet number 7" -> "7", "abc-12")
        lo, hi = digits[0], digits[-1]
        while lo > start and _joined(a, units[lo - 1], units[lo]):
            lo -= 1
        while hi + 1 < end and _joined(a, units[hi], units[hi + 1]):
            hi += 1
        return a.surface_of(units[lo].first, units[hi].last)
    first, last = units[start].first, units[end - 1].last
    marked = start > 0 and units[start - 1].role == "stop" and units[start - 1].key in markers
    if not marked and _uncased(a, first, last):
        return ""  # no capital in the run, however its surface is read: no name (most runs)
    text = a.surface_of(first, last)
    if marked:
        return text
    cased = [w for w in text.split() if w[:1].isupper()]
    named = bool(cased) and (units[start].first > 0 or len(cased) > 1 or any(len(w) > 1 and w.isupper() for w in cased))
    return text if named else ""


def _uncased(a: QueryAnalysis, first: int, last: int) -> bool:
    """No capital in tokens first..last-1, in either text QueryAnalysis.surface_of may read them
    from (str.islower: some cased letter and no capital one)."""
    if not a.text[a.tokens[first].start : a.tokens[last - 1].end].islower():
        return False
    return not a.source_spans or a.source[a.source_spans[first][0] : a.source_spans[last - 1][1]].islower()


def _joined(a: QueryAnalysis, left, right) -> bool:
    """Two units written as one token ("abc-12"): no space between them."""
    between = a.text[a.tokens[left.last - 1].end : a.tokens[right.first].start]
    return not any(ch.isspace() for ch in between)
