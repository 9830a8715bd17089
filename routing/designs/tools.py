"""Design `tools`: rank an API's tools for a query (accounting, cfo, imported domains).

The ranking itself lives in routing.core (index, signals, router); the fast/LLM path layer in
routing.paths. This module only says how a domain of this design is built.
"""
from __future__ import annotations

from routing.core.model import Domain
from routing.core.router import Router


def build(domain: Domain, **options) -> Router:
    return Router(domain, **options)
