"""Card part of design `datasource_mirror` (factory): the funnel (L0 ->) L1 -> L2 -> L3 with distances,
thresholds and votes, the canonical query, the enriched entry it hit, and a 2-D map of the index."""
from __future__ import annotations

import html

import plotly.graph_objects as go
import streamlit as st

from ui.common import confidence_text, router_state

LAYER_NOTES = {
    "L0": "canonical phrases name one datasource",
    "L1": "nearest enriched entry",
    "L2": "original + variations, majority vote",
    "L3": "LLM splits the question",
}
DATASOURCE_COLORS = ("#4c78a8", "#f58518", "#54a24b", "#e45756", "#b279a2", "#eeca3b", "#9d755d", "#72b7b2")


def _esc(text) -> str:
    return html.escape(str(text if text is not None else ""))


def render(result: dict, entry: dict, *, key: str, latest: bool) -> None:
    layer = result.get("layer")
    ds = result.get("datasource")
    if ds:
        tables = ", ".join(f"`{t}`" for t in result.get("tables") or [])
        st.markdown(f":material/database: **{ds}** answered at **{layer}** · tables {tables}")
    else:
        st.markdown(":material/database: **No datasource** · no layer was sure")
    by = {"model": "the model rewrote it", "table": "the rewrite table put it in the index's words"}.get(result.get("canonical_by") or "table", "")
    st.markdown(f"Read as: **{_esc(result.get('canonical'))}** · {by}")
    near = result.get("nearest") or {}
    if near.get("text"):
        kind = f" ({near['kind']})" if near.get("kind") else ""
        sample = f" — from sample “{_esc(near['sample'])}”" if near.get("sample") and near.get("sample") != near.get("text") else ""
        st.markdown(f"Nearest enriched entry{kind}: “{_esc(near['text'])}” at distance **{near['distance']:.3f}**{sample}")
    _funnel(result)
    votes = result.get("votes") or []
    if votes:
        with st.expander(f"L2 votes ({sum(v['counted'] for v in votes)} counted of {len(votes)})", expanded=latest and layer == "L2"):
            st.dataframe(
                [{"variation": v["text"], "written by": v.get("source", "table"), "nearest": v.get("nearest"), "datasource": v["datasource"],
                  "distance": v["distance"], "counted": "yes" if v["counted"] else "no (too far)"} for v in votes],
                hide_index=True, use_container_width=True,
            )
    for s in result.get("subqueries") or []:
        st.markdown(f"L3 sub-query “{_esc(s['query'])}” → **{s.get('datasource') or 'none'}** ({s.get('layer') or '-'})")
    if not result.get("llm") and not result.get("error"):
        _llm_answer(result, key)
    if latest:
        with st.expander("Map of the index (2-D projection)", expanded=False):
            note = _index_note(result)
            if note:
                st.caption(note)
            fig = _projection(result)
            if fig is not None:
                st.plotly_chart(fig, key=f"mirror-map-{key}", config={"displayModeBar": False})


def _llm_answer(result: dict, key: str) -> None:
    """The request asks for the LLM only here: the model canonicalises, writes L2's variations and
    (when no layer is sure) splits the question at L3; the answer is drawn as its own small card."""
    from ui.path_view import llm_runner

    answer = llm_runner(result, f"mirror-{key}", label="Run on the LLM (model canonical form, L2 variations, L3)")
    if not answer or answer.get("design") != "datasource_mirror":
        return
    llm = answer.get("llm") or {}
    source = {"model": "the model", "cache": "the model (cached reading of this question)"}.get(llm.get("source"), "the rewrite table (fallback)")
    why = f" — {llm['reason']}" if llm.get("reason") else ""
    ds = answer.get("datasource")
    st.markdown(f":material/psychology: With the LLM: canonical **{_esc(answer.get('canonical'))}** by {source}{_esc(why)} → "
                + (f"**{ds}** at **{answer.get('layer')}**" if ds else "no datasource"))
    votes = answer.get("votes") or []
    if votes:
        st.caption("L2 voters: " + "; ".join(f"“{_esc(v['text'])}” ({v.get('source')}) → {v['datasource']}" for v in votes))
    for s in answer.get("subqueries") or []:
        st.caption(f"L3 sub-query “{_esc(s['query'])}” → {s.get('datasource') or 'none'} ({s.get('layer') or '-'})")


def _funnel(result: dict) -> None:
    rows = {r["layer"]: r for r in result.get("funnel") or []}
    names = ("L0", "L1", "L2", "L3") if "L0" in rows else ("L1", "L2", "L3")  # L0 only where it answered
    cols = st.columns(len(names), gap="small")
    for col, name in zip(cols, names):
        r = rows.get(name)
        with col.container(border=True):
            if r is None:
                st.markdown(f"**{name}** · not needed")
                st.caption(LAYER_NOTES[name])
                continue
            mark = ":green[**accepted**]" if r.get("accepted") else (
                f":orange[**overruled by {r['overruled_by']}**]" if r.get("overruled_by") else ":red[**passed on**]")
            st.markdown(f"**{name}** · {mark}")
            st.caption(LAYER_NOTES[name])
            bits = []
            if r.get("distance") is not None:
                if "threshold" in r:  # a statement, not a question: under the limit or not
                    sign = "<" if r["distance"] < r["threshold"] else "≥"
                    # never rounded onto the limit it missed (0.3996 < 0.40 reads 0.3996, not 0.400)
                    bits.append(f"distance {confidence_text(r['distance'], {'low': r['threshold']}, digits=3)} {sign} limit {r['threshold']:.2f}")
                else:
                    bits.append(f"distance {r['distance']:.3f}")
            if r.get("phrases"):
                bits.append("phrases " + ", ".join(r["phrases"]))
            if r.get("votes"):
                bits.append("votes " + ", ".join(f"{k} {v}" for k, v in r["votes"].items()))
            if name == "L3":
                bits.append("LLM call made" if r.get("llm") else (r.get("reason") or "no LLM call"))
            bits.append(f"{r.get('ms', 0):.2f} ms")
            st.markdown(" · ".join(_esc(b) for b in bits))


def _index_note(result: dict) -> str:
    """How big the index is and how many of its entries the LLM wrote (or why none)."""
    router = router_state(result.get("domain", "")).router
    info = getattr(router, "llm_report", None)
    if router is None or not hasattr(router, "entries") or info is None:
        return ""
    llm = sum(e["kind"] == "llm_variant" for e in router.entries)
    why = f" — {info['reason']}" if info.get("reason") else ""
    cached = f", {info['cached']} sample(s) from the cache" if info.get("cached") else ""
    encoder = getattr(router, "encoder", None)
    by = f" · embedded by {encoder.name}" if encoder is not None else ""
    return f"{len(router.entries)} entries{by} · {llm} LLM variants{cached}{why}"


def _projection(result: dict):
    state = router_state(result.get("domain", ""))
    router = state.router
    if router is None or not hasattr(router, "entries"):
        return None
    import numpy as np

    texts = [e["text"] for e in router.entries]
    # the index's own vectors and the question's: the transformer would take seconds to embed every entry again
    vecs = np.vstack([router.vectors, router.encoder.encode([result.get("canonical") or ""])])
    centred = vecs - vecs[:-1].mean(axis=0)
    _, _, vt = np.linalg.svd(centred[:-1], full_matrices=False)
    xy = centred @ vt[:2].T
    fig = go.Figure()
    for n, ds in enumerate(sorted({e["datasource"] for e in router.entries})):
        idx = [i for i, e in enumerate(router.entries) if e["datasource"] == ds]
        color = DATASOURCE_COLORS[n % len(DATASOURCE_COLORS)]  # distinct hues: the theme's paired ones look alike
        fig.add_trace(go.Scatter(x=xy[idx, 0], y=xy[idx, 1], mode="markers", name=ds, text=[texts[i] for i in idx],
                                 hovertemplate="%{text}<extra>" + ds + "</extra>",
                                 marker={"size": 6, "opacity": 0.7, "color": color}))
    fig.add_trace(go.Scatter(x=[xy[-1, 0]], y=[xy[-1, 1]], mode="markers", name="your question",
                             text=[result.get("canonical")], hovertemplate="%{text}<extra>query</extra>",
                             marker={"size": 16, "symbol": "star", "color": "black", "line": {"width": 1, "color": "white"}}))
    fig.update_layout(height=360, margin={"l": 10, "r": 10, "t": 10, "b": 10}, xaxis={"visible": False}, yaxis={"visible": False})
    return fig


# ---------------------------------------------------------------- the editor's view of this design


def render_lexicon(router, domain: str) -> None:
    """The Lexicon editor's left column for this design: what routes it (rewrites, sample questions,
    limits), read from the router as built, in place of the synonym / pattern tables it has none of."""
    cfg = router.config
    st.info(
        f"**{domain}** is routed by the semantic mirror: a question is put in the index's words with the "
        f"**rewrites** and matched by distance to the **sample questions** of each datasource. It has no "
        f"synonyms or patterns. These live in `mirror.yaml` and `sample_questions.yaml`: edit them in a text "
        f"editor, then press *Reload from disk* (this page does not write them).", icon=":material/info:")
    tabs = st.tabs([f"Rewrites ({len(cfg.rewrites)})", f"Sample questions ({sum(map(len, cfg.samples.values()))})", "Limits"])
    with tabs[0]:
        st.caption("A phrase on the right is read as the phrase on the left (longest first); sample questions are "
                   "expanded the other way into the index. From `mirror.yaml` `rewrites:`.")
        search = st.text_input("Search phrases", key=f"mirror_rewrite_search_{domain}", placeholder="type to filter")
        rows = [{"Read as": canon, "The ways people say it": ", ".join(variants)} for canon, variants in cfg.rewrites.items()
                if not search or search.casefold() in (canon + " " + " ".join(variants)).casefold()]
        st.dataframe(rows, hide_index=True, width="stretch", key=f"mirror_rewrites_{domain}")
        st.caption(f"{len(rows)} of {len(cfg.rewrites)} phrases shown.")
    with tabs[1]:
        st.caption("Each datasource's sample questions: the mirror's index (each also indexed in "
                   f"{cfg.variants} variants). From `sample_questions.yaml`.")
        rows = [{"Datasource": ds, "Sample question": q} for ds, questions in cfg.samples.items() for q in questions]
        st.dataframe(rows, hide_index=True, width="stretch", key=f"mirror_samples_{domain}")
    with tabs[2]:
        st.caption("Cosine distances: a nearest entry within L1 answers at once; within L2 the variations vote; "
                   "beyond, the LLM (L3). The tier thresholds of other domains do not apply.")
        c1, c2, c3 = st.columns(3)
        c1.metric("L1", f"{cfg.l1:.2f}", help=f"from {cfg.sources.get('l1', 'mirror.yaml')}")
        c2.metric("L2", f"{cfg.l2:.2f}", help=f"from {cfg.sources.get('l2', 'mirror.yaml')}")
        c3.metric("Weak", f"{cfg.weak:.2f}", help="when no layer is sure, datasources nearer than this are offered as weak matches")
        st.caption(f"Votes at L2: {cfg.votes} variations · variants per sample: {cfg.variants} · store: {cfg.store}. "
                   f"L1 from {cfg.sources.get('l1', 'mirror.yaml')}; L2 from {cfg.sources.get('l2', 'mirror.yaml')}.")
