"""AppTest checks of issue 24 (the demo experience), each for what a first-time user saw go wrong."""
from __future__ import annotations

from conftest import app_page


def on(page: str, domain: str):
    at = app_page(page)
    at.session_state["domain"] = domain
    return at.run()


def metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def test_factory_coverage_runs_its_slang_and_plain_questions(scratch):
    at = on("app_pages/coverage.py", "factory")
    assert not at.exception
    assert any("40 questions" in c.value for c in at.caption)
    run = at.button(key="coverage_run_button")
    assert not run.disabled
    run.click().run()
    assert not at.exception
    m = metrics(at)
    assert m["Questions"] == "40" and m["Top-1"].endswith("%")


def test_factory_tuner_says_why_it_cannot_tune(scratch):
    at = on("app_pages/tuner.py", "factory")
    assert not at.exception
    assert any("l1" in i.value and "l2" in i.value for i in at.info)
    m = metrics(at)
    assert m["Questions"] == "40" and m["Top-1"].endswith("%")


def test_tuner_and_coverage_show_the_same_tier_accuracy(scratch):
    for domain in ("cfo", "powers"):
        cov = on("app_pages/coverage.py", domain)
        cov.button(key="coverage_run_button").click().run()
        tun = on("app_pages/tuner.py", domain)
        assert not cov.exception and not tun.exception
        assert metrics(cov)["Tier accuracy"] == metrics(tun)["Tier accuracy"], domain
