"""Whether a question hands its unknown words to a search tool (routing.core.scoring reads it for the keyword
share and the kind's fit): a capitalised name does, unless a verb hands it to another kind ("record a bill from
Tata"); so do words beside terms that only search tools hold ("phone no of supplier ravi plastics")."""
from __future__ import annotations

from routing.core.index import QueryAnalysis, RouterIndex
from routing.core.model import Weights


def terms_point_to_search(a: QueryAnalysis, index: RouterIndex) -> bool:
    """The question's unknown words are what a search looks for where its terms all point to search tools
    alone ("phone no of supplier ravi plastics": only contact_search holds both a contact's phone and
    `supplier`), as a capitalised name does; a verb handing them to another kind says otherwise."""
    if not a.concepts or not a.literals:
        return False
    weights = index.domain.settings.weights
    other = set(weights.argument_kinds) - set(weights.name_kinds)
    if any(kind in other for kind, _ in a.actions):
        return False
    holders = index.term_holders
    held = frozenset.intersection(*(holders.get(c, frozenset()) for c in a.concepts))
    tools = index.tools
    return bool(held) and all(tools[t].kind in weights.name_kinds and tools[t].keywords for t in held)


def name_points_to_search(a: QueryAnalysis, weights: Weights) -> bool:
    """A name asks for a search, unless a verb hands it to another kind ("record a bill from Tata")."""
    if not a.names:
        return False
    other = set(weights.argument_kinds) - set(weights.name_kinds)
    return not any(kind in other for kind, _ in a.actions)


def search_asked(a: QueryAnalysis, index: RouterIndex) -> bool:
    """A name or the terms point the question's unknown words to a search (above)."""
    return name_points_to_search(a, index.domain.settings.weights) or terms_point_to_search(a, index)
