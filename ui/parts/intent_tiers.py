"""Card part of design `intent_tiers` (football): the tier, the triggers in the question, the tools
the agent may and may not use, the players, warnings, the system prompt and, in replay mode, the
numbers computed from the fixtures with the form chart. Sidebar: max depth and data mode."""
from __future__ import annotations

import html
import re

import plotly.graph_objects as go
import streamlit as st

CHART_CONFIG = {"displayModeBar": False}
DEPTH_WORDS = {"L1": "match records", "L2": "event-level detail"}
TIER_STYLE = {"surface": ("#1e7fb8", "How is the player doing"), "deep": ("#7b4fd8", "Why: a deeper analysis"), "compare": ("#c2660f", "Players side by side")}
METRIC_LABELS = {"goals": "Goals", "assists": "Assists", "shots": "Shots", "shots_on_target": "On target", "xg": "xG", "xa": "xA", "key_passes": "Key passes"}
DEPTH_HELP = "L2 lets the Deep tier use event-level data (detailed stats, derived metrics, form chart). L1 lowers Deep to Surface and removes those tools."
MODE_HELP = "replay: the tools run on the bundled fixtures, with the network shut. live: the plan is listed, not run."


def _players_on_record(domain: str, key: str) -> None:
    """The players the bundled data holds, on the card (the Catalog lists tools, not players)."""
    from ui.common import router_state

    router = router_state(domain).router if domain else None
    roster = getattr(router, "roster", None)
    players = list(getattr(roster, "players", None) or [])
    if not players:
        return
    st.caption(f":material/person_search: Check the spelling, or ask about one of the {len(players)} players in the bundled data:")
    with st.expander(f"The {len(players)} players on record", icon=":material/groups:"):
        st.markdown(" · ".join(f"{_esc(p.name)} <span style='opacity:0.65'>({_esc(p.team)})</span>" for p in players), unsafe_allow_html=True)


def link_widgets(router, params: dict) -> dict:
    """Sidebar widget values a link names (?max_depth=L1&data_mode=live)."""
    out = {}
    if params.get("max_depth") in ("L1", "L2"):
        out["football_max_depth"] = params["max_depth"]
    if params.get("data_mode") in ("replay", "live"):
        out["football_data_mode"] = params["data_mode"]
    return out


def request_options(router) -> dict:
    st.sidebar.markdown("**Football analyst**")
    depth = st.sidebar.radio("Max depth", ["L2", "L1"], key="football_max_depth", horizontal=True, help=DEPTH_HELP)
    mode = st.sidebar.radio("Data mode", ["replay", "live"], key="football_data_mode", horizontal=True, help=MODE_HELP)
    return {"max_depth": depth, "data_mode": mode}


def _esc(text) -> str:
    return html.escape(str(text), quote=False)


def highlight(query: str, texts: list[str]) -> str:
    """The question with every fired trigger marked (matched case- and accent-blind where it can)."""
    out = _esc(query)
    for t in sorted({t for t in texts if t}, key=len, reverse=True):
        words = [re.escape(_esc(w)) for w in t.split()]
        rx = re.compile(r"(?<![\w>])(" + r"\W+".join(words) + r")(?![\w<])", re.IGNORECASE)
        out = rx.sub(lambda m: f"<mark style='background:#ffe08a;color:#222;border-radius:0.2rem;padding:0 0.15rem'>{m.group(1)}</mark>", out, count=1)
    return out


def _dot(color: str, *, hollow: bool = False) -> str:
    """A coloured dot drawn with CSS (emoji fonts are not everywhere)."""
    fill = "transparent" if hollow else color
    return (f"<span style='display:inline-block;width:0.65rem;height:0.65rem;border-radius:50%;"
            f"border:2px solid {color};background:{fill};margin-right:0.3rem;vertical-align:middle'></span>")


def _tool_list(allowed: list[str], excluded: list[dict]) -> str:
    rows = [f"<li style='list-style:none'>{_dot('#1e9e5a')} <code>{_esc(t)}</code></li>" for t in allowed]
    for e in excluded:
        removed = "max depth" in e.get("reason", "")
        color = "#c23b3b" if removed else "#888"
        rows.append(
            f"<li style='list-style:none;color:{color}'>{_dot(color, hollow=True)} <s><code>{_esc(e['name'])}</code></s> "
            f"<span style='font-size:0.85rem'>{_esc(e.get('reason', ''))}</span></li>"
        )
    return "<ul style='padding-left:0;margin:0'>" + "".join(rows) + "</ul>"


def form_figure(chart: dict) -> go.Figure:
    games = chart.get("games") or []
    labels = [f"{g['date'][5:]}<br>{g['opponent'].split()[0]}" for g in games]
    fig = go.Figure()
    fig.add_bar(x=labels, y=[g["xg"] for g in games], name="xG", marker_color="#7b4fd8", opacity=0.75)
    fig.add_scatter(x=labels, y=[g["goals"] for g in games], name="Goals", mode="markers", marker=dict(size=12, color="#1e9e5a", symbol="diamond"))
    fig.add_scatter(x=labels, y=[g["rating"] for g in games], name="Match rating", mode="lines+markers", yaxis="y2", line=dict(color="#d08a12", width=3))
    fig.update_layout(
        title=dict(text=f"Form of {chart.get('player', '')}: last {len(games)} games", font=dict(size=14)),
        height=300, margin=dict(l=10, r=10, t=40, b=10), legend=dict(orientation="h", y=-0.25),
        yaxis=dict(title="xG / goals", rangemode="tozero"), yaxis2=dict(title="rating", overlaying="y", side="right", range=[4, 10], dtick=1, showgrid=False),
        bargap=0.35,
    )
    return fig


def _replay(fields: dict, key: str) -> None:
    replay = fields.get("replay")
    live = fields.get("live")
    if fields.get("data_mode") == "live":
        if live and live.get("steps"):
            replay = live
        else:
            if fields.get("plan"):
                why = (live or {}).get("reason") or "no live data source answered"
                st.caption(f":material/cloud_off: Live mode: {_esc(why)}. The plan is listed, not run. Switch the sidebar to replay to run it on the bundled data.")
            return
    if not replay:
        return
    steps = replay.get("steps") or []
    by_player: dict[str, dict] = {}
    for s in steps:
        by_player.setdefault(s["player_id"], {})[s["tool"]] = s["output"]
    if replay is live:
        st.markdown(f"**Answer from the live source** `{_esc(live.get('source'))}` · games up to {live.get('today')}")
    else:
        st.markdown(f"**Answer from the bundled data** · games up to {replay.get('today')} (replay: no network)")
    if fields.get("intent") == "compare" and len(by_player) >= 2:
        _side_by_side(by_player, key)
        return
    for pid, out in by_player.items():
        info = out.get("search_player") or {"name": pid}
        p90 = out.get("calculate_per90") or {}
        st.markdown(f"**{_esc(info.get('name'))}** · {_esc(info.get('position', ''))}, {_esc(info.get('team', ''))} · {p90.get('games', 0)} games, {p90.get('minutes', 0)} minutes")
        if p90.get("minutes"):
            league = out.get("compare_to_league") or {}
            rows = []
            for k in ("goals", "assists", "shots", "xg", "key_passes"):
                m = (league.get("metrics") or {}).get(k)
                row = {"Per 90 minutes": METRIC_LABELS[k], "Player": p90.get(k, 0.0)}
                if league:
                    row.update({"League average": m["league_avg"] if m else None, "Better than % of peers": m["percentile"] if m else None})
                rows.append(row)
            peers = f"{league.get('peers', 0)} {league.get('position', '')} players of {league.get('league', '')}" if league else ""
            st.dataframe(
                rows, hide_index=True, width="stretch", key=f"per90-{key}-{pid}",
                column_config={
                    "Player": st.column_config.NumberColumn(format="%.2f"),
                    "League average": st.column_config.NumberColumn(format="%.2f", help=f"Average of {peers}" if peers else None),
                    "Better than % of peers": st.column_config.ProgressColumn(min_value=0, max_value=100, format="%d%%", help=f"Share of {peers} below this player" if peers else None),
                },
            )
        derived = out.get("calculate_derived")
        if derived:
            words = {"improving": ":green[improving]", "declining": ":red[declining]", "steady": "steady"}
            conv = derived.get("shot_conversion")
            st.markdown(
                f"Form: **{words.get(derived.get('form'), derived.get('form'))}** (rating {derived.get('rating_trend_per_game', 0):+.2f} a game) · "
                f"goals − xG **{derived.get('goals_minus_xg', 0):+.2f}** · conversion **{(conv or 0) * 100:.0f}%** · "
                f"xG per shot **{derived.get('xg_per_shot') or 0:.2f}** · pass completion **{(derived.get('pass_completion') or 0) * 100:.0f}%**"
            )
        detailed = out.get("get_detailed_stats")
        if detailed:
            st.caption("Event detail per 90: " + " · ".join(f"{k.replace('_per90', '').replace('_', ' ')} {v:.1f}" for k, v in detailed.items()))
        chart = out.get("show_form_chart")
        if chart and chart.get("games"):
            st.plotly_chart(form_figure(chart), key=f"form-{key}-{pid}", config=CHART_CONFIG)
        recent = out.get("get_recent_games")
        if recent:
            with st.expander(f"Recent games of {info.get('name')}"):
                st.dataframe(recent, hide_index=True, width="stretch")


def _side_by_side(by_player: dict, key: str) -> None:
    """Compare: one row per metric, one column per player, and who is ahead."""
    names = {pid: (out.get("search_player") or {}).get("name", pid) for pid, out in by_player.items()}
    st.caption(" · ".join(f"**{_esc(names[pid])}**: {(out.get('calculate_per90') or {}).get('games', 0)} games, "
                          f"{(out.get('calculate_per90') or {}).get('minutes', 0)} minutes" for pid, out in by_player.items()))
    rows = []
    for k in ("goals", "assists", "shots", "shots_on_target", "xg", "xa", "key_passes"):
        values = {names[pid]: (out.get("calculate_per90") or {}).get(k) for pid, out in by_player.items()}
        known = {n: v for n, v in values.items() if v is not None}
        best = max(known.values(), default=None)
        leaders = [n for n, v in known.items() if v == best]
        rows.append({"Per 90 minutes": METRIC_LABELS[k], **values, "Ahead": "level" if len(leaders) != 1 else leaders[0]})
    config = {n: st.column_config.NumberColumn(format="%.2f") for n in names.values()}
    st.dataframe(rows, hide_index=True, width="stretch", key=f"compare-{key}", column_config=config)


def render(result: dict, entry: dict, *, key: str, latest: bool) -> None:
    intent = result.get("intent")
    error = result.get("error") or {}
    fired = result.get("triggers_fired") or []
    if intent:
        color, what = TIER_STYLE.get(intent, ("#555", ""))
        label = result.get("tier_label") or intent.title()
        lowered = result.get("requested_intent") and result.get("requested_intent") != intent
        note = f" · lowered from <b>{_esc(result['requested_intent'].title())}</b> by max depth {result.get('max_depth')}" if lowered else ""
        st.markdown(
            f"<div style='border-left:0.4rem solid {color};padding:0.35rem 0.7rem;margin:0.3rem 0 0.6rem 0;background:rgba(128,128,128,0.08);border-radius:0.3rem'>"
            f"<span style='font-size:1.1rem;font-weight:700;color:{color}'>{_esc(label)} tier</span> · {_esc(what)} · "
            f"data depth <b>{_esc(result.get('depth'))}</b> ({DEPTH_WORDS.get(result.get('depth'), '')}) · the agent acts as <b>{_esc(result.get('role') or '')}</b>{note}</div>",
            unsafe_allow_html=True,
        )
    if fired:
        st.markdown("**Words that decided it:** " + highlight(str(result.get("query", "")), [t["text"] for t in fired]), unsafe_allow_html=True)
        st.caption("Triggers fired: " + " · ".join(f"{t['tier']}: “{t['text']}”" for t in fired))
    if result.get("precedence"):
        st.caption(":material/low_priority: " + result["precedence"])
    code = error.get("code")
    if code == "PLAYER_NOT_FOUND":  # the header shows the error; say what to do about it, here
        _players_on_record(str(result.get("domain", "")), key)
    for w in result.get("warnings") or []:
        st.warning(_esc(w.get("message") or ""), icon=":material/warning:")
        st.caption(f"Code `{w.get('code')}`")
    entities = result.get("entities") or []
    if entities:
        st.markdown("**Players:** " + " · ".join(
            f"{_esc(e['name'])} <span style='opacity:0.7;font-size:0.85rem'>({_esc(e.get('team', ''))}; via {_esc(e.get('via', ''))}"
            + (f" “{_esc(e['mention'])}”" if e.get("mention") else "") + ")</span>" for e in entities), unsafe_allow_html=True)
    if intent:
        left, right = st.columns([1, 1], gap="medium")
        with left:
            st.markdown("**Tools the agent may use**")
            st.markdown(_tool_list(result.get("allowed_tools") or [], result.get("excluded_tools") or []), unsafe_allow_html=True)
        with right:
            with st.expander("System prompt (built for this question)", expanded=False, icon=":material/smart_toy:"):
                st.code(result.get("system_prompt") or "", language="text", wrap_lines=True)
            plan = result.get("plan") or []
            if plan:
                st.caption("Plan: " + " → ".join(f"{p['tool']}" for p in plan[: len(result.get('allowed_tools') or [])]) + (" (for each player)" if len({p['player_id'] for p in plan}) > 1 else ""))
    _replay(result, key)
    if intent and not result.get("llm"):
        from ui.path_view import llm_runner

        # Nothing is sent before the button is pressed: the request asks for the LLM here.
        llm_runner(result, f"tiers-{key}", label="Run on the LLM (the tier's prompt and allowed tools)")
