"""AppTest checks of issue 24 (the demo experience), each for what a first-time user saw go wrong."""
from __future__ import annotations

import json

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
    titles = {json.loads(c.proto.spec)["layout"]["title"]["text"] for c in at.get("plotly_chart")}
    assert {"Top datasource per query", "Expected vs top datasource"} <= titles  # its own word, not "tool"


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


# ---------------------------------------------------------------- the playground (items 3, 4, 6, 7)

TODAY = "2026-01-22"


def playground(**params):
    at = app_page("app_pages/playground.py")
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def ask(at, query: str):
    at.chat_input(key="query").set_value(query).run()
    assert not at.exception, at.exception
    return at.session_state["conversation"][0]["result"]


def bar_text(at) -> str:
    return next(m.value for m in at.markdown if m.value.startswith("**Conversation**"))


def test_moving_a_threshold_reasks_in_place_not_a_copy():
    at = playground(today=TODAY)
    assert ask(at, "show invoices")["status"] == "multiple_matches"
    at.slider(key="_th_accounting_medium").set_value(0.95).run()
    at.slider(key="_th_accounting_high").set_value(0.99).run()
    assert not at.exception
    conv = at.session_state["conversation"]
    # The card asked with the domain's thresholds stays; the re-asked one is replaced, not copied.
    assert [e["result"]["status"] for e in conv] == ["weak_matches", "multiple_matches"]
    assert "2 questions," in bar_text(at)


def test_switching_domain_adds_no_card_and_switching_back_restores_it():
    at = playground(today=TODAY)
    ask(at, "outstanding invoices")
    at.selectbox(key="_w_domain").set_value("cfo").run()
    assert not at.exception
    assert not any(m.value.startswith("**Conversation**") for m in at.markdown)  # cfo's conversation is empty
    assert not any(e.get("domain") == "cfo" for e in at.session_state["conversation"])
    assert at.query_params["domain"] == ["cfo"] or at.query_params["domain"] == "cfo"
    at.selectbox(key="_w_domain").set_value("accounting").run()
    assert "1 question," in bar_text(at)


def test_back_to_an_earlier_link_restores_the_domain():
    at = playground(today=TODAY)
    at.selectbox(key="_w_domain").set_value("cfo").run()
    # The browser's Back re-runs the page with the earlier address: the URL is the state. (A person
    # presses Back seconds later; an address written a moment ago would be a fast slider's echo.)
    at.session_state["_url_written_recent"] = []
    at.query_params.clear()
    at.query_params["domain"] = "accounting"
    at.query_params["today"] = TODAY
    at.run()
    assert not at.exception and at.session_state["domain"] == "accounting"
    assert at.selectbox(key="_w_domain").value == "accounting"


def test_football_options_are_in_the_link_and_reask_the_top_question():
    at = playground(domain="football", today=TODAY, max_depth="L1")
    assert at.radio(key="football_max_depth").value == "L1"
    ask(at, "why is Saka declining")
    first = at.session_state["conversation"][0]["result"]
    at.radio(key="football_max_depth").set_value("L2").run()
    conv = [e for e in at.session_state["conversation"] if e["domain"] == "football"]
    assert len(conv) == 2 and conv[0]["options"]["max_depth"] == "L2"
    assert first["max_depth"] == "L1" and conv[0]["result"]["max_depth"] == "L2"  # the card follows the sidebar
    qp = {k: at.query_params[k] for k in at.query_params}
    flat = {k: (v[0] if isinstance(v, list) else v) for k, v in qp.items()}
    assert flat["max_depth"] == "L2" and flat["data_mode"] == "replay" and flat["q"] == "why is Saka declining"


def test_a_link_opens_coverage_tuner_and_editor_on_its_domain(scratch):
    for page, key in (("coverage", "coverage_domain_pick"), ("tuner", "tuner_domain_pick"), ("editor", "ed:domain_select")):
        at = app_page(f"app_pages/{page}.py")
        at.query_params["domain"] = "cfo"
        at.run()
        assert not at.exception, page
        assert at.session_state["domain"] == "cfo", page
        assert at.selectbox(key=key).value == "cfo", page


def test_catalog_search_is_in_the_link():
    at = app_page("app_pages/catalog.py")
    at.query_params["domain"] = "accounting"
    at.query_params["search"] = "piutang"
    at.run()
    assert not at.exception
    assert at.text_input(key="catalog_search").value == "piutang"


def test_a_confidence_is_never_rounded_onto_a_threshold_it_missed():
    from ui.common import confidence_text

    th = {"high": 0.95, "medium": 0.5, "low": 0.3}
    assert confidence_text(0.9476, th) == "0.948"
    assert confidence_text(0.95, th) == "0.95" and confidence_text(0.7, th) == "0.70"
    assert confidence_text(0.4999, th) == "0.4999"
    # the mirror's distances read with three decimals, never rounded onto the limit they missed
    assert confidence_text(0.3996, {"low": 0.4}, digits=3) == "0.3996" and confidence_text(0.41234, {"low": 0.4}, digits=3) == "0.412"


# ---------------------------------------------------------------- wording (items 5, 8, 9)


def test_compare_two_unknown_players_names_two_players():
    from routing import load_router

    r = load_router("football").route("compare Saka vs Foden", today=TODAY).to_dict()
    assert r["error"]["code"] == "PLAYER_NOT_FOUND"
    assert r["error"]["details"]["names"] == ["saka", "foden"]
    assert "'saka' or 'foden'" in r["error"]["message"]
    one = load_router("football").route("compare Kevin De Bruyne and Okafor", today=TODAY).to_dict()
    assert one["error"]["details"]["names"] == ["kevin de bruyne"]


def test_player_not_found_lists_the_players_on_the_card_in_plain_words():
    at = playground(domain="football", today=TODAY)
    ask(at, "compare Saka vs Foden")
    assert not any("PLAYER_NOT_FOUND:" in e.value or "**PLAYER_NOT_FOUND**" in e.value for e in at.error)
    assert any("'saka' or 'foden'" in w.value for w in at.warning)  # a fact about the data, not a red failure
    assert any(c.value == "Code `PLAYER_NOT_FOUND`" for c in at.caption)
    assert not any("Catalog page" in c.value for c in at.caption)
    players = next(e for e in at.expander if "players on record" in e.label)
    assert "Okafor" in " ".join(m.value for m in players.markdown)


def test_which_player_is_a_calm_question_not_a_red_box():
    at = playground(domain="football", today=TODAY)
    ask(at, "why is he declining")
    assert not at.error
    assert any(i.value.startswith("'he' refers to a player") for i in at.info)


def test_factory_tables_are_chips_and_powers_are_powers():
    at = playground(domain="factory", today=TODAY)
    ask(at, "which kit conked out this week")
    md = " ".join(m.value for m in at.markdown)
    assert "['" not in md and "<code style='white-space:nowrap'>work_requests</code>" in md
    at = playground(domain="powers", today=TODAY)
    ask(at, "launch my rocket to Mars")
    labels = [e.label for e in at.expander]
    assert any(label.startswith("The ") and label.endswith("powers this domain has") for label in labels) or \
        not any("tools this domain has" in label for label in labels)
    assert not at.get("plotly_chart") or all("0.00" not in el.proto.spec for el in at.get("plotly_chart"))


def test_a_powers_candidate_has_no_tool_kind():
    """Item 9: every power's kind was "list" (a tool's field); a power's card names no kind."""
    at = playground(domain="powers", today=TODAY)
    assert ask(at, "check my database")["status"] == "multiple_matches"
    heads = [m for m in at.markdown if "mostly from" in m.value]
    assert len(heads) >= 2 and not any("kind" in m.proto.help or "Not a match" in m.value for m in heads)


def test_only_a_domain_with_recorded_responses_suggests_replay():
    """accounting has no replay.yaml: its card never suggests a replay data mode, nor has a toggle; cfo does."""
    at = playground(domain="accounting", today=TODAY)
    assert ask(at, "outstanding invoices")["enrichments"]  # the fast path predicts enrichments
    shown = " ".join(c.value for c in at.caption) + " ".join(m.value for m in at.markdown)
    assert "replay" not in shown.casefold()
    assert not any(t.label == "Replay data" for t in at.toggle)
    at = playground(domain="cfo", today=TODAY)
    assert ask(at, "show me revenue trend")["path"] == "fast"
    assert any("replay data mode" in c.value for c in at.caption)
    assert any(t.label == "Replay data" for t in at.toggle)


def test_cfo_replay_is_in_the_link_both_ways():
    """Item 4: cfo's Replay data opens from a link, and switching it on writes it to the address."""
    at = playground(domain="cfo", today=TODAY, data_mode="replay")
    assert at.toggle(key="data_mode_replay_cfo").value is True
    assert ask(at, "show me revenue trend")["data_mode"] == "replay"
    at = playground(domain="cfo", today=TODAY)
    at.toggle(key="data_mode_replay_cfo").set_value(True).run()
    ask(at, "show me revenue trend")
    flat = {k: at.query_params[k] for k in at.query_params}
    assert flat["data_mode"] in ("replay", ["replay"])


def test_tuner_marker_labels_sit_at_different_heights():
    from routing.quality.tuning import Sweep, SweepPoint
    from ui.coverage_charts import sweep_figure

    pts = tuple(SweepPoint(v / 100, True, 0.5, 0.5, {}) for v in range(101))
    fig = sweep_figure(Sweep("high", 0.85, 0.86, pts), 0.84).to_plotly_json()
    labels = {a["text"]: a for a in fig["layout"]["annotations"]}
    assert set(labels) == {"in file", "best", "slider"}
    heights = {(a.get("y"), a.get("yshift")) for a in labels.values()}
    assert len(heights) == 3  # three values within 0.02 of each other, three separate rows
    # ... above the plot area (paper y 1 and up), where no line (accuracy is often 100 %) strikes them through
    assert all(a["yref"] == "paper" and a["y"] >= 1 and a["yanchor"] == "bottom" for a in labels.values())


# ---------------------------------------------------------------- the Dates page (item 13)


def test_dates_page_offers_the_domains_languages_only():
    at = app_page("app_pages/dates.py")
    at.query_params["domain"] = "cfo"
    at.query_params["today"] = TODAY
    at.run()
    assert not at.exception
    shown = list(at.dataframe[0].value["expression"])
    assert "pichle mahine" in shown and "minggu lalu" in shown and "last week" in shown  # cfo: en, hi, id
    at = app_page("app_pages/dates.py")
    at.query_params["domain"] = "accounting"
    at.run()
    shown = list(at.dataframe[0].value["expression"])
    assert "minggu lalu" in shown and "pichle mahine" not in shown


def test_a_date_is_quoted_as_typed():
    from routing import load_router

    r = load_router("cfo").route("expenses for the last 6 months", today=TODAY).to_dict()
    assert r["dates"][0]["text"] == "last 6 months"


def test_a_follow_up_example_clicked_first_asks_what_it_follows():
    at = playground(domain="football", today=TODAY)
    button = next(b for b in at.button if b.label == "why is he declining")
    button.click().run()
    assert not at.exception
    conv = at.session_state["conversation"]
    assert [e["query"] for e in conv] == ["why is he declining", "how is Marco Diaz doing"]
    assert conv[0]["result"]["entities"][0]["name"] == "Marco Diaz"
    assert not at.error


# ---------------------------------------------------------------- from demo to test (one click)


def golden_text(root, domain):
    return (root / domain / "golden.yaml").read_text(encoding="utf-8")


def test_right_keeps_the_question_as_a_test_and_coverage_counts_it(scratch):
    at = playground(today=TODAY)
    ask(at, "unpaid invoices from Budi")
    at.button(key=next(b.key for b in at.button if b.key and b.key.startswith("fb-right-"))).click().run()
    assert not at.exception
    assert any("Add to `accounting/golden.yaml`" in m.value for m in at.markdown)
    before = golden_text(scratch, "accounting")
    assert "unpaid invoices from Budi" not in before  # nothing is written before Save
    at.button(key=next(b.key for b in at.button if b.key and b.key.startswith("fb-save-"))).click().run()
    assert not at.exception
    after = golden_text(scratch, "accounting")
    assert "queries: [unpaid invoices from Budi]" in after and "tool: invoice_list" in after.split("unpaid invoices from Budi")[0].splitlines()[-2]
    assert any("Saved golden.yaml" in s.value for s in at.success)
    at.switch_page("app_pages/coverage.py")
    at.run()
    assert not at.exception
    n = int(next(c.value for c in at.caption if "questions from" in c.value).split()[0])
    assert n == 148  # 147 + the one kept
    assert metrics(at)["Questions"] == "148"  # run at once: the kept case is measured without pressing Run


def test_wrong_should_be_writes_the_corrected_answer(scratch):
    at = playground(today=TODAY)
    ask(at, "outstanding invoices")
    key = next(s.key for s in at.selectbox if s.key and s.key.startswith("fb-tool-")).removeprefix("fb-tool-")
    at.selectbox(key=f"fb-tool-{key}").set_value("invoice_search")
    at.selectbox(key=f"fb-tier-{key}").set_value("activated")
    at.button(key=f"fb-wrong-{key}").click().run()
    assert any("fails this test now" in m.value for m in at.markdown)
    at.button(key=f"fb-save-{key}").click().run()
    text = golden_text(scratch, "accounting")
    assert "- expect: {tool: invoice_search, status: activated}\n    queries: [outstanding invoices]" in text


# ---------------------------------------------------------------- carry on from a card, context, export


def test_choosing_a_candidate_shows_the_call_the_agent_makes():
    at = playground(today=TODAY)
    result = ask(at, "show invoices")
    assert result["status"] == "multiple_matches"
    name = result["matches"][1]["name"]
    at.button(key=next(b.key for b in at.button if b.key and b.key.endswith(f"-{name}") and b.key.startswith("choose-"))).click().run()
    assert not at.exception
    assert any(f'"tool": "{name}"' in c.value for c in at.code)
    assert any("Chosen tool" in m.value and name in m.value for m in at.markdown)


def test_choosing_an_ambiguous_player_asks_about_that_player():
    at = playground(domain="football", today=TODAY)
    result = ask(at, "how is Diaz doing")
    assert result["error"]["code"] == "AMBIGUOUS_ENTITY"
    at.button(key=next(b.key for b in at.button if b.key and b.key.endswith("-p-tomas-diaz"))).click().run()
    assert not at.exception
    top = at.session_state["conversation"][0]
    assert top["query"] == "how is Tomás Díaz doing" and top["result"]["entities"][0]["id"] == "p-tomas-diaz"
    assert any("Players" in m.value and "Tomás Díaz" in m.value for m in at.markdown)  # the context panel


def test_activate_shows_the_activate_power_reply_and_is_in_the_link():
    at = playground(domain="powers", today=TODAY)
    ask(at, "list the tables in the sqlite database")
    at.button(key=next(b.key for b in at.button if b.key and b.key.startswith("activate-") and b.key.endswith("-sqlite"))).click().run()
    assert not at.exception
    assert any("the `activate_power` reply for **sqlite**" in m.value for m in at.markdown)
    flat = {k: at.query_params[k] for k in at.query_params}
    assert "sqlite" in str(flat.get("power"))
    assert any("Active powers" in m.value and "sqlite" in m.value for m in at.markdown)


def test_the_conversation_exports_as_json_and_markdown():
    import json

    from ui.conversation import export_json, export_markdown

    at = playground(today=TODAY)
    ask(at, "outstanding invoices")
    ask(at, "invoices last week")
    conv = at.session_state["conversation"]
    turns = json.loads(export_json(conv))["turns"]
    assert [t["query"] for t in turns] == ["outstanding invoices", "invoices last week"]
    assert turns[0]["result"]["matches"][0]["name"] == "invoice_list"
    md = export_markdown(conv)
    assert md.index("## 1. outstanding invoices") < md.index("## 2. invoices last week")
    assert "“last week” → 2026-01-12 .. 2026-01-18" in md
    assert {b.label for b in at.get("download_button")} >= {"JSON", "Markdown"}


# ---------------------------------------------------------------- the editor (item 12)


def test_editor_says_how_the_mirror_is_routed(scratch):
    at = app_page("app_pages/editor.py")
    at.query_params["domain"] = "factory"
    at.run()
    assert not at.exception
    assert any("semantic mirror" in i.value and "mirror.yaml" in i.value for i in at.info)
    # What it has, shown; no empty synonym table, no "0 of 0 terms", no accounting placeholder.
    from routing import load_router

    cfg = load_router("factory").config
    tables = {tuple(d.value.columns): d.value for d in at.dataframe}
    rewrites = tables[("Read as", "The ways people say it")]
    assert len(rewrites) == len(cfg.rewrites) > 0 and "conked out" in " ".join(rewrites["The ways people say it"])
    assert len(tables[("Datasource", "Sample question")]) == sum(map(len, cfg.samples.values()))
    assert {m.label: m.value for m in at.metric}["L1"] == f"{cfg.l1:.2f}"
    assert not at.get("arrow_data_editor") and not any("0 of 0 terms" in c.value for c in at.caption)
    assert all("faktur" not in (t.placeholder or "") for t in at.text_input)


def test_editor_placeholders_are_in_the_domains_own_words(scratch):
    at = app_page("app_pages/editor.py")
    at.query_params["domain"] = "powers"
    at.run()
    assert not at.exception
    shown = " ".join(t.placeholder or "" for t in at.text_input)
    assert "faktur" not in shown and "tagihan" not in shown and "diskon" not in shown
    assert "postgresql" in shown  # a variant of powers' first synonym


def test_fix_in_the_editor_without_an_unknown_word_points_to_patterns(scratch):
    at = app_page("app_pages/editor.py")
    at.session_state["editor_prefill"] = {"domain": "accounting", "kind": "synonym", "canonical": None, "variant": "", "query": "show invoices"}
    at.run()
    assert not at.exception
    said = " ".join(s.value for s in at.success) + " ".join(i.value for i in at.info)
    assert "a synonym will not help" in said and "Patterns tab" in said


def test_tuner_sliders_are_in_the_link(scratch):
    at = app_page("app_pages/tuner.py")
    at.query_params["domain"] = "accounting"
    at.query_params["high"] = "0.93"
    at.run()
    assert not at.exception
    assert at.slider(key="tuner_high").value == 0.93
    at.slider(key="tuner_margin").set_value(0.2).run()
    flat = {k: at.query_params[k] for k in at.query_params}
    flat = {k: (v[0] if isinstance(v, list) else v) for k, v in flat.items()}
    assert flat == {"domain": "accounting", "high": "0.93", "margin": "0.20"}
