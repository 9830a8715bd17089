"""Intent entities (`entities:` in tools.yaml): what an intent reads from the question into its
pipeline's parameters. `period` / `date` come from the resolved date ranges (a param's role);
`amount` is the first number of the question outside its dates (grouping commas allowed, Indian or
Western, a currency symbol before it); a party (`customer`, `supplier`, `party`) is the param the
router filled from the question's free words, without the amount and its currency symbol."""
from __future__ import annotations

from typing import Any

import regex

from routing.paths.money import INR_SYMBOLS

PARTY_ENTITIES = ("customer", "supplier", "party")
_SYMBOLS = tuple(s.lower() for s in INR_SYMBOLS) + ("$", "rp", "idr", "usd")
# ASCII digits only: \d also matches digits of other scripts that int() may refuse.
_AMOUNT = regex.compile(r"(?<![\w.])([0-9]{1,3}(?:,[0-9]{2,3})+|[0-9]+)(?:\.([0-9]{1,2}))?(?![\w])")


def extract_amount(text: str, date_spans: list[tuple[int, int]]) -> float | int | None:
    for m in _AMOUNT.finditer(text):
        if any(a <= m.start() < b for a, b in date_spans):
            continue
        whole = int(m.group(1).replace(",", ""))
        return whole + int(m.group(2)) / 10 ** len(m.group(2)) if m.group(2) else whole
    return None


def entity_params(tool, params: dict[str, Any], analysis) -> tuple[dict[str, Any], list[str]]:
    """The router's suggested params with the intent's entities read from the question. Returns the
    params and notes saying what was read."""
    wanted = [str(e) for e in tool.extra.get("entities") or []]
    if not wanted or analysis is None:
        return params, []
    out, notes = dict(params), []
    names = {p.name for p in tool.params}
    text = getattr(analysis, "text", "") or ""
    spans = [tuple(d.to_dict().get("span") or (0, 0)) for d in getattr(analysis, "dates", ())]
    amount = None
    if "amount" in wanted and "amount" in names and out.get("amount") is None:
        amount = extract_amount(text, spans)
        if amount is not None:
            out["amount"] = amount
            notes.append(f"amount read from the question: {amount}")
    for party in PARTY_ENTITIES:
        value = out.get(party)
        if party in wanted and isinstance(value, str):
            kept = [w for w in value.split() if w.lower().strip(".") not in _SYMBOLS and not _AMOUNT.fullmatch(w)]
            cleaned = " ".join(kept)
            if cleaned != value:
                out[party] = cleaned or None
                notes.append(f"{party}: {cleaned or '(none named)'}")
    return out, notes
