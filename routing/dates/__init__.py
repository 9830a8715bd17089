"""Date expressions in any of a domain's languages -> inclusive calendar or rolling ranges.

Every word lives in lexicons/_shared/dates.yaml; the code knows rules, not words.
"""
from routing.dates.resolver import (
    CALENDAR,
    DEFAULT_LEXICON_PATH,
    ROLLING,
    DateLexicon,
    DateRange,
    DateSettings,
    find_dates,
    load_date_lexicon,
    resolve_expression,
)

__all__ = [
    "CALENDAR",
    "DEFAULT_LEXICON_PATH",
    "ROLLING",
    "DateLexicon",
    "DateRange",
    "DateSettings",
    "find_dates",
    "load_date_lexicon",
    "resolve_expression",
]
