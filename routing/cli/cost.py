"""`cost`: the token cost table of a power_gateway domain (real token counts, measured tier shares)."""
from __future__ import annotations

import json

from routing.cli.common import EXIT_OK, UsageError, load_cli_router


def format_table(t: dict) -> str:
    lines = [
        f"Token cost of the {t['domain']} gateway ({t['encoding']}, tier shares measured on {t['queries']} validation queries)",
        "",
        f"{'tier':18} {'queries':>7} {'share':>7} {'reply':>8} {'follow-up':>10} {'weighted':>9}",
    ]
    for r in t["tiers"]:
        lines.append(f"{r['tier']:18} {r['queries']:>7} {r['share']:>7.1%} {r['reply_tokens']:>8.1f} {r['follow_up_tokens']:>10.1f} {r['weighted_tokens']:>9.1f}")
    lines += [
        "",
        f"gateway tools (resolve_intent + activate_power): {t['gateway_tools_tokens']:,} tokens",
        f"per query with the gateway:                      {t['per_query_tokens']:,.1f} tokens",
        f"every power's tools at start-up ({t['all_tools_count']} tools):      {t['all_tools_tokens']:,} tokens",
        f"saved per query:                                 {t['saved_share']:.1%}",
        "",
        f"{'power':12} {'tools':>5} {'tokens':>7}",
    ]
    lines += [f"{p['power']:12} {p['tools']:>5} {p['tokens']:>7}" for p in t["powers"]]
    return "\n".join(lines)


def cmd_cost(args) -> int:
    gateway = load_cli_router(args)
    if getattr(gateway, "design", None) != "power_gateway":
        raise UsageError(f"domain {args.domain!r} uses design {gateway.design!r}; `cost` measures power_gateway domains (e.g. powers)")
    from routing.designs.power_gateway.cost import cost_table

    table = cost_table(gateway)
    print(json.dumps(table, indent=2) if args.json else format_table(table))
    return EXIT_OK


def register(sub) -> None:
    c = sub.add_parser("cost", help="token cost per tier of a power gateway against every tool at start-up")
    c.add_argument("--domain", default="powers", help="a domain of design power_gateway (default powers)")
    c.add_argument("--json", action="store_true", help="JSON instead of a table")
    c.set_defaults(func=cmd_cost)
