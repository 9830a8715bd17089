"""The protocol every routing design implements (shared/CONTRACT.md, "Designs").

A design is built once from one domain's lexicon folder and is read-only afterwards:
`route(query, *, today, thresholds, context) -> RouteResult` answers in the contract's shape,
with the design's own fields (a frozen dataclass, `RouteResult.design_fields`) added under
documented names; `describe()` says what the catalog page and `domains` show.
"""
from __future__ import annotations

from datetime import date
from typing import Any, ClassVar, Mapping, Protocol, runtime_checkable

from routing.core.model import Domain, Thresholds
from routing.core.schema import RouteResult


@runtime_checkable
class RoutingDesign(Protocol):
    design: ClassVar[str]  # the name a domain's settings.yaml gives under `design:`
    domain: Domain

    @property
    def name(self) -> str: ...

    @property
    def thresholds(self) -> Thresholds: ...

    def route(
        self,
        query: Any,
        *,
        today: date | str | None = None,
        thresholds: Thresholds | Mapping | None = None,
        context: Mapping | None = None,
    ) -> RouteResult: ...

    def describe(self) -> dict: ...


# Optional methods a design may add (callers look them up with getattr):
#   run_llm(result, *, client=None) -> RouteResult      run its LLM path for real (`route --llm`)
#   next_context(result, context=None) -> dict         what the next turn of a conversation starts from


class DomainDesign:
    """What every design built on one domain's lexicon shares: its name, thresholds and the
    catalog description (a design adds its own fields to `describe()`)."""

    design: ClassVar[str]
    request_options: ClassVar[frozenset[str]] = frozenset()  # context options the design reads (max_depth, data_mode)
    # What a question routes to, in a person's word (Coverage's "Top power per query"): tool, power, tier, datasource.
    target_noun: ClassVar[str] = "tool"
    domain: Domain

    @property
    def name(self) -> str:
        return self.domain.name

    @property
    def thresholds(self) -> Thresholds:
        return self.domain.settings.thresholds

    def describe(self) -> dict:
        return self.domain.describe()
