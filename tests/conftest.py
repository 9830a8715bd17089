"""Shared fixtures. Every test routes against one fixed reference date, like Duckling's corpus."""
from __future__ import annotations

import os
from datetime import date
from pathlib import Path

import pytest

# The dense list's encoder is `auto` by default: the MiniLM transformer where `build-encoder` ran and
# the catalog is small, else the token table. A test's routes must not depend on whether this machine
# built the transformer: the suite routes with the shipped table (servers it starts inherit this), and
# tests/test_dense.py checks `auto` itself and the transformer by name.
os.environ.setdefault("ROUTING_DENSE_ENCODER", "static")

from routing import Router

ROOT = Path(__file__).resolve().parent.parent
TODAY = date(2026, 1, 22)  # a Thursday: the reference date of shared/CONTRACT.md's date table


def write_csv(path: Path, rows, header=("text", "category")) -> Path:
    """A labelled CSV as import-csv reads it."""
    import csv

    with path.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(header)
        w.writerows(rows)
    return path


@pytest.fixture()
def lexicon_root(tmp_path) -> Path:
    """An empty lexicon root (only _shared/) for domains a test imports."""
    import shutil

    root = tmp_path / "lexicons"
    root.mkdir()
    shutil.copytree(ROOT / "lexicons" / "_shared", root / "_shared")
    return root


@pytest.fixture(scope="session")
def accounting() -> Router:
    return Router.load("accounting")


@pytest.fixture(scope="session")
def shipped():
    """One router per shipped domain, built on first use (any design): shipped("cfo")."""
    from routing import load_router

    built: dict = {}

    def router(name: str):
        if name not in built:
            built[name] = load_router(name)
        return built[name]

    return router


@pytest.fixture(scope="session")
def today() -> date:
    return TODAY


def shared_data(name: str) -> Path:
    """A public data set of ../shared/data (beside the clone), else the workplace's copy."""
    for base in (ROOT.parent / "shared" / "data", Path("/work/shared/data")):
        if (base / name).is_dir():
            return base / name
    return ROOT.parent / "shared" / "data" / name


@pytest.fixture()
def scratch(tmp_path, monkeypatch) -> Path:
    """Pages route over (and write to) a copy of lexicons/: the repo's files are never touched."""
    import shutil

    import ui.common

    root = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", root, ignore=shutil.ignore_patterns(".history"))
    monkeypatch.setenv("ROUTING_LEXICONS", str(root))
    ui.common.get_registry.clear()
    yield root
    ui.common.get_registry.clear()


def app_page(page: str):
    """The whole app (navigation included) under AppTest, switched to one page."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=90)
    at.switch_page(page)
    return at
