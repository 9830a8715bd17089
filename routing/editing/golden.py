"""From demo to test: a question asked in a demo, marked right or wrong, becomes a golden case.

    expect = expectation(result)                          # what the router answered, as an expectation
    expect = expectation(result, tool="invoice_search")   # "Wrong - should be invoice_search"
    preview = preview_golden_case(router, query, expect)  # the YAML diff and what else changes
    result = add_golden_case("accounting", query, expect) # the editor's safe writer (lock, history, atomic)

The case is appended to `cases:` as `{expect: {...}, queries: [question]}` (the mirror's corpus, made
of `{q, expect}` lists, gets an entry in a `demo:` list). A question already in the corpus with the
same expectation is not added twice; with another expectation, the new case is added after it and
the preview says the two disagree (the later case is the one Coverage then checks last).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from routing.core.errors import LexiconError, Problem
from routing.core.yamlio import parse_yaml
from routing.editing.files import GOLDEN_FILE, EditRejected, FileEdit, FileSnapshot, SaveResult, _root, require_plain_name
from routing.editing.history import locked_domain
from routing.editing.roundtrip import _render
from routing.quality.evaluate import GoldenCase, golden_cases, judge

# The result fields a golden case may check, beside tool and status (the design's own fields).
FIELD_KEYS = ("intent", "datasource", "power")
DEMO_LIST = "demo"  # the mirror-format list a demo's questions go to


def expectation(result: dict, *, tool: str | None = None, status: str | None = None, **fields: Any) -> dict:
    """The expected answer of a routed result (its own answer: "Right"), or with corrections
    ("Wrong - should be ..."): the tool, the tier, and the design's intent / datasource / power."""
    out: dict[str, Any] = {}
    top = (result.get("matches") or [{}])[0].get("name") if result.get("matches") else None
    want_tool = tool if tool is not None else top
    if want_tool:
        out["tool"] = want_tool
    out["status"] = status or result.get("status")
    if tool is not None and tool != top and status is None:
        out["status"] = "activated"  # "should be X": the fast path to X is what a person expects
    corrected = tool is not None and tool != top
    for key in FIELD_KEYS:
        own = None if corrected else (result.get(key) if key != "power" else (result.get("power") or {}).get("name"))
        value = fields.get(key, own)  # a corrected answer keeps none of the result's own fields
        if value in (None, "", [], {}) or (key != "intent" and value == out.get("tool")):
            continue  # the mirror's datasource and the gateway's power are its top match: said once, as tool
        out[key] = value
    if result.get("error") and tool is None:
        out["error"] = result["error"].get("code")
    return {k: v for k, v in out.items() if v not in (None, "")}


@dataclass(frozen=True)
class GoldenPreview:
    edit: FileEdit
    case: GoldenCase
    verdict: str  # the router's verdict on the new case now: ok | wrong_tool | wrong_tier | ...
    detail: str
    duplicate: str | None  # "same" (already there, nothing to add) | "differs" (there with another answer) | None
    before: dict  # accuracy figures of the corpus now and with the case
    after: dict

    @property
    def changed(self) -> bool:
        return self.edit.changed


def _is_mirror(data) -> bool:
    return isinstance(data, dict) and not data.get("cases") and any(
        isinstance(v, list) and v and all(isinstance(e, dict) and "q" in e for e in v) for v in data.values())


def golden_case_edit(snapshot: FileSnapshot, query: str, expect: dict) -> FileEdit:
    """The golden file with the case appended, in memory (comments and layout kept)."""
    query = " ".join(str(query).split())
    if not query:
        raise EditRejected("an empty question cannot become a test case")
    data = parse_yaml(snapshot.text, snapshot.label) if snapshot.text.strip() else None
    mirror = _is_mirror(data)
    if mirror and not expect.get("tool"):
        raise EditRejected("this corpus checks a datasource per question: say which one it should reach")

    def mutate(doc):
        from ruamel.yaml.comments import CommentedMap, CommentedSeq

        if doc is None:
            doc = CommentedMap()
        if mirror:
            seq = doc.get(DEMO_LIST)
            if seq is None:
                seq = doc[DEMO_LIST] = CommentedSeq()
            item = CommentedMap([("q", query), ("expect", expect["tool"])])
            item.fa.set_flow_style()
            seq.append(item)
            return doc
        cases = doc.get("cases")
        if cases is None:
            cases = doc["cases"] = CommentedSeq()
        want = CommentedMap(sorted(expect.items(), key=lambda kv: ("tool", "status").index(kv[0]) if kv[0] in ("tool", "status") else 2))
        want.fa.set_flow_style()
        queries = CommentedSeq([query])
        queries.fa.set_flow_style()
        cases.append(CommentedMap([("expect", want), ("queries", queries)]))
        return doc

    return _render(snapshot, mutate, action=f"golden: keep “{query}” as a test case")


def _figures(router, cases: list[GoldenCase]) -> dict:
    from routing.quality.evaluate import run_cases

    m = run_cases(router, cases).metrics()
    return {k: m[k] for k in ("n", "top1", "tier_accuracy", "passed")}


def preview_golden_case(router, query: str, expect: dict, root: Path | str | None = None) -> GoldenPreview:
    """What keeping this question as a test would write and change (nothing is written)."""
    from routing.editing.files import read_file

    snap = read_file(router.name, GOLDEN_FILE, root)
    before_cases = golden_cases(parse_yaml(snap.text, snap.label), snap.label) if snap.text.strip() else []
    edit = golden_case_edit(snap, query, expect)
    after_cases = golden_cases(edit.parsed(), snap.label)
    case = _new_case(after_cases, query)
    same = [c for c in before_cases if c.query.casefold() == case.query.casefold() and c.group != "negative"]
    duplicate = None
    if same:
        duplicate = "same" if any(_same_expectation(c, case) for c in same) else "differs"
    if duplicate == "same":
        edit = FileEdit(snap, snap.text, edit.action)  # nothing to add
        after_cases = before_cases
    verdict, detail = judge(case, router.route(case.query, today=case.today, context=case.context))
    return GoldenPreview(edit, case, verdict, detail, duplicate, _figures(router, before_cases), _figures(router, after_cases))


def _new_case(cases: list[GoldenCase], query: str) -> GoldenCase:
    """The case just appended: the last with this question that is not a negative (those load last)."""
    query = " ".join(str(query).split())
    return next(c for c in reversed(cases) if c.query == query and c.group != "negative")


def _same_expectation(a: GoldenCase, b: GoldenCase) -> bool:
    return (a.tool, a.status, a.error, dict(a.fields)) == (b.tool, b.status, b.error, dict(b.fields))


def add_golden_case(domain: str, query: str, expect: dict, *, root: Path | str | None = None, source: str = "playground") -> SaveResult:
    """Append the case through the editor's safe writer: under the domain lock, the new file must
    read as a golden corpus, a history record is written first, the file is replaced atomically."""
    from routing.editing.files import read_file
    from routing.editing.store import _commit_locked

    root = _root(root)
    require_plain_name(domain)
    try:
        with locked_domain(root / domain):
            snap = read_file(domain, GOLDEN_FILE, root)
            edit = golden_case_edit(snap, query, expect)
            try:
                before = golden_cases(parse_yaml(snap.text, snap.label), snap.label) if snap.text.strip() else []
                case = _new_case(golden_cases(edit.parsed(), snap.label), query)
            except LexiconError as exc:
                return SaveResult("invalid", "Not saved: the golden file would not read back.", (GOLDEN_FILE,), problems=tuple(exc.problems))
            if any(c.query.casefold() == case.query.casefold() and _same_expectation(c, case) for c in before):
                return SaveResult("unchanged", "Already a test case: the golden corpus expects exactly this.", (GOLDEN_FILE,))
            return _commit_locked(domain, [edit], root, action=edit.action, source=source)
    except EditRejected as exc:
        return SaveResult("rejected", str(exc), (GOLDEN_FILE,))
    except LexiconError as exc:
        return SaveResult("invalid", "Not saved: golden.yaml does not parse.", (GOLDEN_FILE,), problems=tuple(exc.problems))


__all__ = ["GoldenPreview", "add_golden_case", "expectation", "golden_case_edit", "preview_golden_case", "Problem"]
