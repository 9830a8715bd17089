"""The quantities a question states, for a tool's number parameters: an amount of money ("₹40,000",
"1.5 lakh", "7.5jt", "Rp 3.750.000", "25k"), a span of days ("more than 60 days", "90+ hari"), a
share ("15%"), or a plain number ("top 5", "payment of 500"). Read from the analysed text, token
by token, with the words of words.yaml `numbers` (multipliers, currency, days, percent); no
language's word lives here.

A number glued to letters or a code ("INV-2210", "Q3", "FY25") is no quantity, nor is one inside a
date the question states ("22.01.2026", "last 30 days")."""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

from typing import TYPE_CHECKING, Sequence

from routing.core.model import NumberWords

if TYPE_CHECKING:
    from routing.core.analysis import QueryAnalysis

# A token that may hold a number: letters a currency or a multiplier may be ("rp5000", "25k", "5jt"),
# then digits. A token of letters and digits mixed otherwise ("a1b2", "2nd") is no quantity.
_NUMBER_TOKEN = re.compile(r"([^\W\d_]*)(\d+)([^\W\d_]*)")
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")
_CODE_JOINS = frozenset("-/#_")  # a number joined by one of these to what precedes it is part of a code
_DECIMAL_SEPARATORS = ".,"

AMOUNT, DAYS, PERCENT, PLAIN = "amount", "days", "percent", "plain"
WRITE_KINDS = ("create", "action")  # the tool kinds (routing.core.model.KINDS) that write


@dataclass(frozen=True, slots=True)
class Quantity:
    value: int | float
    kind: str  # amount | days | percent | plain
    first: int  # the tokens first..last-1 it covers, its marks and multiplier included
    last: int
    text: str  # as the normalised question writes it

    @property
    def whole(self) -> bool:
        return isinstance(self.value, int)


MAX_DIGITS = 15  # more digits than any amount, count or span a question states: no quantity (and no float overflow)


def number_value(digits: str) -> int | float | None:
    """"40,000" -> 40000, "3.750.000" -> 3750000, "2,50,000" -> 250000 (Indian grouping),
    "1,200.50" / "1.200,50" -> 1200.5, "1.5" / "7,5" -> 1.5; None when it is no number ("Sharma"), its
    separators make none ("1.2.3") or it has more than MAX_DIGITS digits."""
    exact = _exact(digits)
    return None if exact is None else _plain(exact)


def _exact(digits: str) -> Decimal | None:
    """number_value as an exact decimal (a multiplier then scales it without a float's error:
    "2.3 lakh" is 230000, not 229999.99999999997)."""
    if _DIGITS.fullmatch(digits) is None or sum(ch.isdigit() for ch in digits) > MAX_DIGITS:
        return None
    if not any(ch in _DECIMAL_SEPARATORS for ch in digits):
        return Decimal(int(digits))
    cut = max(digits.rfind("."), digits.rfind(","))
    head, tail = digits[:cut], digits[cut + 1 :]
    marks = {ch for ch in digits if ch in _DECIMAL_SEPARATORS}
    groups = re.split(r"[.,]", digits)
    if len(marks) == 2:  # both written: the last one is the decimal point
        if digits[cut] in head:  # "1.200.50": the decimal mark repeated
            return None
        return Decimal(int(re.sub(r"[.,]", "", head))) + Decimal(int(tail)) / (10 ** len(tail))
    if len(groups) == 2 and len(tail) != 3:  # one mark, not a group of three after it: a decimal
        return Decimal(int(head)) + Decimal(int(tail)) / (10 ** len(tail))
    if len(tail) == 3 and all(len(g) in (2, 3) for g in groups[1:-1]) and 1 <= len(groups[0]) <= 3:
        return Decimal(int("".join(groups)))  # digit groups
    return None


def _plain(value: Decimal) -> int | float:
    """A whole number as an int, else a float (what JSON and the pipelines take)."""
    return int(value) if value == value.to_integral_value() else float(value)


def read_quantities(a: "QueryAnalysis", words: NumberWords) -> tuple[Quantity, ...]:
    """Every quantity of the question, in order."""
    return quantities_in(a.text, a.tokens, [d.span for d in a.dates], words)


def asks_to_write(units: Sequence) -> bool:
    """A create or action verb among the units: only a request to write states what its amount holds
    (elsewhere "plus" joins two asks: "receivables above 1 lakh plus payables")."""
    return any(kind in WRITE_KINDS for u in units for kind, _ in u.kinds)


def amount_qualifiers(text: str, tokens, units: Sequence, quantities: Sequence[Quantity], words: NumberWords) -> set[int]:
    """The units (indices) of terms that say what an amount holds, not what is asked, in a request to
    write (the caller asks `asks_to_write`): a term right after an amount and "+" or a `plus` word
    ("48,500 + GST", "2 lakh plus GST"), or right after a share in a question that states an amount
    ("1.2 lakh ka invoice, 18% GST laga ke"), or right before a span of days ("payment in 30 days": when it falls
    due). None when no other term would be left to ask for
    ("kitna 18% GST bana": GST is what is asked)."""
    if not quantities:
        return set()
    money = any(q.kind == AMOUNT for q in quantities)
    ends = {q.last: q for q in quantities if q.kind in (AMOUNT, PERCENT)}
    plain_ends = {q.last: q for q in quantities}  # "120 cartons @ 450 + gst": a price without its currency
    out: set[int] = set()
    for ui, u in enumerate(units):
        if u.role != "concept" or u.first == 0:
            continue
        start = u.first
        prev = ui - 1
        if prev >= 0 and units[prev].role in ("literal", "stop") and units[prev].last == start and units[prev].key in words.plus:
            start = units[prev].first  # "plus GST": the word that adds
            added = True
        else:
            added = False
        q = ends.get(start) or (plain_ends.get(start) if added or _plus_sign(text, tokens, start) else None)
        if q is None:
            # "invoice banao plus GST", "... ditambah PPN": an amount stated, the added term is what it holds, unless a
            # verb after it asks for more ("invoice 2 lakh ka banao plus reminder bhejo": two asks)
            if added and not any(later.kinds for later in units[ui + 1:]):
                out.add(ui)
            continue
        gap = text[tokens[start - 1].end : tokens[start].start] if not added else ""
        if q.kind == PERCENT and not money:
            continue
        if added or q.kind == PERCENT or gap.strip() == "+":
            out.add(ui)
    # "payment in 30 days", "payment 30 din mein": a term right before a span of days (a stop word between at most)
    # says when what is written falls due, not what is asked ("create an invoice ..., payment in 30 days")
    before = {u.last: ui for ui, u in enumerate(units)}
    for q in quantities:
        ui = before.get(q.first) if q.kind == DAYS else None
        if ui is not None and units[ui].role == "stop" and ui > 0 and units[ui - 1].last == units[ui].first:
            ui -= 1
        if ui is not None and units[ui].role == "concept" and not units[ui].kinds:
            out.add(ui)
    held = {units[j].key for j in out}
    if out and not any(u.role == "concept" and ui not in out and u.key not in held for ui, u in enumerate(units)):
        return set()
    return out


def _plus_sign(text: str, tokens, start: int) -> bool:
    """A "+" alone between token start-1 and token start ("450 + gst")."""
    return start > 0 and text[tokens[start - 1].end : tokens[start].start].strip() == "+"


def quantities_in(text: str, tokens, spans: Sequence[tuple[int, int]], words: NumberWords) -> tuple[Quantity, ...]:
    """The quantities of a text read as tokens, none inside the character spans (its dates)."""
    out: list[Quantity] = []
    n = len(tokens)
    i = 0
    while i < n:
        tok = tokens[i]
        m = _NUMBER_TOKEN.fullmatch(tok.text)
        if m is None:
            i += 1
            continue
        prefix, digits, suffix = m.groups()
        first = i
        money = bool(prefix) and prefix in words.currency
        if prefix and not money:
            i += 1
            continue
        before = text[tok.start - 1] if tok.start else " "
        if not prefix and (before.isalnum() or before in _CODE_JOINS or (
                before in _DECIMAL_SEPARATORS and i and tokens[i - 1].end == tok.start - 1 and tokens[i - 1].text not in words.currency)):
            i += 1  # part of a code, a word or a version ("INV-2210", "v2.5")
            continue
        # the number's digit groups, each joined to the last by one separator ("1,200.50", "2,50,000")
        j, end = i, tok.end
        while not suffix and j + 1 < n:
            nxt = tokens[j + 1]
            if nxt.start != end + 1 or text[end] not in _DECIMAL_SEPARATORS:
                break
            more = _NUMBER_TOKEN.fullmatch(nxt.text)
            if more is None or more.group(1):
                break
            digits += text[end] + more.group(2)
            suffix = more.group(3)
            j += 1
            end = nxt.end
        last = j + 1
        i = last
        exact = _exact(digits)
        if exact is None:
            continue
        factor = 1
        if suffix:  # glued: "25k", "7.5jt", "60d", "500rs"
            if suffix in words.multipliers:
                factor = words.multipliers[suffix]
            elif suffix in words.currency:
                money = True
            elif suffix not in words.days:
                continue  # "5pcs", "3rd": a count of something else, or an ordinal
        sign_before = _sign_before(text, tokens, first, words.currency)
        money = money or sign_before
        if not money and first and _adjacent(text, tokens[first - 1], tok) and tokens[first - 1].text in words.currency:
            money = True  # "rs 500", "rp 3.750.000", "rs.500": the word is part of the quantity
            first -= 1
        # what follows: a multiplier word, a currency word, a percent or a day word ("1.5 lakh", "90+ days")
        kind = DAYS if suffix and suffix in words.days else None
        k = last
        if k < n and factor == 1 and not suffix and _adjacent(text, tokens[k - 1], tokens[k]) and tokens[k].text in words.multipliers:
            factor = words.multipliers[tokens[k].text]
            k += 1
        gap = text[tokens[k - 1].end : tokens[k].start] if k < n else text[tokens[k - 1].end :]
        if any(ch in words.percent for ch in gap.strip()) or (k < n and _spaced(gap) and tokens[k].text in words.percent):
            kind = PERCENT
            k += k < n and tokens[k].text in words.percent
        elif k < n and _spaced(gap.replace("+", "")) and tokens[k].text in words.days and kind is None:
            kind = DAYS
            k += 1
        elif k < n and _spaced(gap) and tokens[k].text in words.currency:
            money = True
            k += 1
        start, stop = tokens[first].start, tokens[k - 1].end
        if any(s < stop and start < e for s, e in spans):
            continue  # part of a date ("22.01.2026", "last 30 days")
        value = _plain(exact * factor)
        if kind is None:
            kind = AMOUNT if (money or factor != 1 or not isinstance(value, int) or not digits.isdigit()) else PLAIN
        out.append(Quantity(value, kind, first, k, text[start:stop]))
        i = max(i, k)
    return tuple(out)


def _spaced(gap: str) -> bool:
    """Only spaces (or nothing) between two tokens."""
    return not gap.strip()


def _adjacent(text: str, left, right) -> bool:
    """Two tokens with nothing but spaces (or one dot, "rs.500") between them."""
    gap = text[left.end : right.start]
    return not gap.strip() or gap == "."


def _sign_before(text: str, tokens, first: int, currency: frozenset[str]) -> bool:
    """A currency sign right before the number ("₹40,000", "$ 500")."""
    k = tokens[first].start - 1
    floor = tokens[first - 1].end if first else 0
    while k >= floor and text[k].isspace():
        k -= 1
    return k >= floor and text[k] in currency
