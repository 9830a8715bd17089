"""A question that asks (a request word of words.yaml `request`, or "?") with a bare verb and one word of its own
says nothing of what it wants: a clarifying question (shared/seeds 000 and 002), not "no tool matches". Two words of
its own, a name, a term, a date or a number say what; a question that does not ask keeps its one word as before."""
from __future__ import annotations

import pytest

from routing import load_router

TODAY = "2026-01-22"


@pytest.mark.parametrize("domain, query", [
    ("cfo", "can you look at something for me?"),
    ("cfo", "can u check smthing for me"),
    ("accounting", "could you pull something up for me?"),
    ("accounting", "tolong cekin sesuatu dong"),
])
def test_a_bare_ask_gets_the_clarifying_question(domain, query):
    router = load_router(domain)
    r = router.route(query, today=TODAY).to_dict()
    assert r["status"] == "needs_clarification"
    assert r["clarifying_question"] == router.domain.settings.clarifying_question


@pytest.mark.parametrize("domain, query", [
    ("cfo", "ok thanks, that's all"),                       # asks nothing
    ("cfo", "paneer butter masala ki recipe batao"),         # words of its own: another subject
    ("accounting", "where can I buy cheap shoes?"),
    ("accounting", "can you help with my homework?"),
])
def test_what_says_another_subject_stays_not_found(domain, query):
    r = load_router(domain).route(query, today=TODAY).to_dict()
    assert r["status"] == "not_found"
