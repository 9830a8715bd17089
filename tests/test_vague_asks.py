"""Placeholder words say nothing of what is wanted (settings.yaml `vague`, typed as people type them:
"smthing", "sumthing"): a clarifying question (shared/seeds 000 and 002). One word of another subject keeps
a question not_found (a review of a wider rule: "could you check the weather?" must not ask what to show)."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.mark.parametrize("domain, query", [
    ("cfo", "can u check smthing for me"),
    ("accounting", "could you look up sumthing for me?"),
])
def test_a_placeholder_word_gets_the_clarifying_question(domain, query):
    router = load_router(domain)
    r = router.route(query, today=TODAY).to_dict()
    assert r["status"] == "needs_clarification"
    assert r["clarifying_question"] == router.domain.settings.clarifying_question


@pytest.mark.parametrize("domain, query", [
    ("cfo", "could you check the weather?"),
    ("cfo", "could you find my keys?"),
    ("accounting", "can you get me a taxi?"),
    ("accounting", "bisa tolong cek cuaca?"),
    ("cfo", "ok thanks, that's all"),
])
def test_one_word_of_another_subject_stays_not_found(domain, query):
    r = load_router(domain).route(query, today=TODAY).to_dict()
    assert r["status"] == "not_found"
