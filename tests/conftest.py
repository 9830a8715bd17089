"""Shared fixtures. Every test routes against one fixed reference date, like Duckling's corpus."""
from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from routing import Router

ROOT = Path(__file__).resolve().parent.parent
TODAY = date(2026, 1, 22)  # a Thursday: the reference date of shared/CONTRACT.md's date table


@pytest.fixture(scope="session")
def accounting() -> Router:
    return Router.load("accounting")


@pytest.fixture(scope="session")
def today() -> date:
    return TODAY
