"""Design `power_gateway` (lexicons/powers): a gateway of MCP powers with confidence tiers.

    design.py   PowerGateway: route (tiers), activate (did-you-mean), agent_view, token meter
    catalog.py  servers.yaml: each power's MCP tools, steering text, bundled child servers
    tokens.py   real token counts (tiktoken, offline)
    cost.py     the weighted token cost per tier against every tool at start-up
The MCP server that serves it is routing.mcp (a thin adapter; this package knows no protocol).
"""
from __future__ import annotations

from routing.core.model import Domain

from .design import PowerGateway, agent_view


def build(domain: Domain, **options) -> PowerGateway:
    return PowerGateway(domain, **options)


__all__ = ["PowerGateway", "agent_view", "build"]
