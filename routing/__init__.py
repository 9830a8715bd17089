"""Route natural-language questions to the tools of an AI agent.

    from routing import load_router
    router = load_router("accounting")            # the domain's design, built from lexicons/accounting/
    result = router.route("outstanding invoices", today="2026-01-22")
    result.status, result.top.name                # (Status.ACTIVATED, 'invoice_list')
    result.to_dict()                              # the shape of shared/CONTRACT.md

Pure Python: never imports Streamlit. Packages: core (ranking), dates, paths (fast / LLM),
designs (one per routing design), editing (safe write-back), quality (eval, tuning, import),
cli. See README "How it is built".
"""
from routing.core.errors import ErrorCode, LexiconError, Problem
from routing.core.lexicon import list_domain_names, load_domain
from routing.core.model import Domain, Thresholds
from routing.core.router import Router
from routing.core.schema import Correction, ErrorInfo, Match, Path, RouteResult, Status
from routing.designs import DESIGNS, RoutingDesign, build_router, load_router
from routing.registry import RouterRegistry, RouterState

__all__ = [
    "Correction",
    "DESIGNS",
    "Domain",
    "ErrorCode",
    "ErrorInfo",
    "LexiconError",
    "Match",
    "Path",
    "Problem",
    "RouteResult",
    "Router",
    "RouterRegistry",
    "RouterState",
    "RoutingDesign",
    "Status",
    "Thresholds",
    "build_router",
    "list_domain_names",
    "load_domain",
    "load_router",
]
