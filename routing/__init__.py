"""Route natural-language business questions to the tools of an AI agent.

    from routing import Router
    router = Router.load("accounting")
    result = router.route("outstanding invoices", today="2026-01-22")
    result.status, result.top.name, result.to_dict()

Pure Python: never imports Streamlit. See shared/CONTRACT.md for the result's shape.
"""
from .errors import ErrorCode, LexiconError, Problem, QueryError
from .lexicon import Domain, Thresholds, list_domain_names, load_domain
from .registry import RouterRegistry, RouterState
from .router import Router
from .schema import Correction, ErrorInfo, Match, Path, RouteResult, Status

__all__ = [
    "Correction",
    "Domain",
    "ErrorCode",
    "ErrorInfo",
    "LexiconError",
    "Match",
    "Path",
    "Problem",
    "QueryError",
    "RouteResult",
    "Router",
    "RouterRegistry",
    "RouterState",
    "Status",
    "Thresholds",
    "list_domain_names",
    "load_domain",
]
