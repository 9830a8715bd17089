"""A record named by its number ("invoice 1180", "INV-2210", "open invoice 1077") is one record (issue 22,
held-out sets): a list's term set on that term ("open" read as unpaid + invoice) filters no set of such
records, the question asks about the one it names (`list_patterns_kept`). (A create tool is not ruled
out by it: "create invoice 1190 for Sharma" numbers the new invoice, "same as invoice 1180" names another.)

A term numbers a record where a detail or search tool of the domain has it as its own keyword (as
the parameters read "invoice 1045", routing.core.params), the number follows it with only stop words
between, none a value marker ("expense of 25000"), and the number is no amount the question states
(routing.core.quantities: "NEFT se 1.1 lakh", "rent 65k", "30 days", "15%"). "record payment 5000" and
"office rent 30000" state amounts: a payment and an expense are no records looked up by number.
"""
from __future__ import annotations

from typing import Sequence

from routing.core.analysis import QueryAnalysis, numbered_terms
from routing.core.quantities import PLAIN, read_quantities

def record_terms(tools: Sequence) -> frozenset[str]:
    """The terms a number right after them numbers a record of: a detail or search tool's own keywords."""
    return frozenset(k for t in tools if t.kind in ("detail", "search") for k in t.keywords)


def records_numbered(a: QueryAnalysis, index) -> frozenset[str]:
    """The record terms whose record the question names by its number (above)."""
    if not any(u.role == "number" for u in a.units):
        return frozenset()
    terms = index.record_terms
    if not terms or not terms & a.concepts.keys():
        return frozenset()
    words = index.domain.words
    amounts = frozenset(i for q in read_quantities(a, words.numbers) if q.kind != PLAIN for i in range(q.first, q.last))
    return numbered_terms(a, markers=words.value_markers, amounts=amounts) & terms


def list_patterns_kept(found: list, a: QueryAnalysis, index) -> list:
    """`found` (term patterns that matched) without a list's term set on a numbered record's term."""
    numbered = records_numbered(a, index) if found else frozenset()
    if not numbered:
        return found
    tools = index.tools
    return [cp for cp in found if tools[cp.tool].kind != "list" or not cp.terms & numbered]
