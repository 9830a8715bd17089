"""Intent entities (`entities:` in tools.yaml): what an intent reads from the question into its
pipeline's parameters. `period` / `date` come from the resolved date ranges (a param's role);
`amount` is the quantity the router read into the `amount` parameter (routing.core.quantities: money
as the question writes it, "Rs 50,000", "1.5 lakh", never a number inside a date or a code, a
record's number or a count); a party (`customer`, `supplier`, `party`) is the param the router
filled from the question's free words, without a bare number."""
from __future__ import annotations

from typing import Any

from routing.core.model import NumberWords
from routing.core.quantities import AMOUNT, PLAIN, number_value, read_quantities

PARTY_ENTITIES = ("customer", "supplier", "party")


def entity_params(tool, params: dict[str, Any], analysis, numbers: NumberWords | None = None) -> tuple[dict[str, Any], list[str]]:
    """The router's suggested params with the intent's entities read from the question. Returns the
    params and notes saying what was read. `numbers`: the domain's words.yaml `numbers`, for an
    `amount` parameter no role filled."""
    wanted = [str(e) for e in tool.extra.get("entities") or []]
    if not wanted or analysis is None:
        return params, []
    out, notes = dict(params), []
    names = {p.name for p in tool.params}
    roles = {p.name: p.role for p in tool.params}
    if "amount" in wanted and "amount" in names:
        # an `amount` parameter with its role was filled by the router (routing.core.params), which
        # knows a record's number and a count from an amount: only one without a role is read here
        if roles.get("amount") is None and out.get("amount") is None and numbers is not None and getattr(analysis, "tokens", None) is not None:
            quantities = read_quantities(analysis, numbers)
            hit = next((q for q in quantities if q.kind == AMOUNT), None) or next((q for q in quantities if q.kind == PLAIN), None)
            if hit is not None:
                out["amount"] = hit.value
        if out.get("amount") is not None:
            notes.append(f"amount read from the question: {out['amount']}")
    for party in PARTY_ENTITIES:
        value = out.get(party)
        if party in wanted and isinstance(value, str):
            # the router already left the stated amount and its currency out ("Dollar Industries" keeps
            # its name); a bare number left in the party's words is a record's ("Arora Steels 2210")
            kept = [w for w in value.split() if number_value(w) is None]
            cleaned = " ".join(kept)
            if cleaned != value:
                out[party] = cleaned or None
                notes.append(f"{party}: {cleaned or '(none named)'}")
    return out, notes
