"""The one place in routing/ that reads the clock: the default reference date."""
from __future__ import annotations

from datetime import date


def default_today() -> date:
    return date.today()


def parse_today(value: date | str | None) -> date:
    """A reference date from a caller: a date, an ISO string, or None for the real today."""
    if value is None or value == "":
        return default_today()
    if isinstance(value, date):
        return value
    return date.fromisoformat(str(value).strip())
