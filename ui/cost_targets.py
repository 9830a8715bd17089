"""The catalog's cost tab, below the simulator: prompt caching (first call vs cached call) and the
design's target table beside our estimates, with the difference explained (routing.paths.monthly)."""
from __future__ import annotations

import streamlit as st

from routing.paths.monthly import cost_profile, design_comparison


def _usd(x: float) -> str:
    return f"${x:,.2f}" if x >= 1 or x == 0 else f"${x:.5f}".rstrip("0")


def render_design_targets(router, *, capable_share: float | None = None) -> None:
    profile = cost_profile(router, capable_share=capable_share)
    table = design_comparison(router, profile)
    st.markdown("##### Against the design's targets, with and without prompt caching")
    st.dataframe(
        [
            {
                "Path": r["path"],
                "Target / message": _usd(r["target_usd"]),
                "Ours, first call": _usd(r["first_call_usd"]),
                "Ours, cached call": _usd(r["cached_call_usd"]),
                "Target latency": f"~{r['target_ms']:,} ms",
                "Our latency": f"~{r['estimate_ms']:,} ms",
            }
            for r in table["rows"]
        ],
        hide_index=True, width="stretch", key="design_targets_table",
    )
    m = table["monthly"]
    st.dataframe(
        [
            {"": f"{m['messages']:,} messages / month (mix {', '.join(f'{k} {v:.0%}' for k, v in m['mix'].items())})",
             "Target": _usd(m["target_usd"]), "Ours, no caching": _usd(m["first_call_usd"]),
             f"Ours, caching ({m['cache_hit_rate']:.0%} of calls hit)": _usd(m["cached_usd"]),
             "Every tool, no caching": _usd(m["baseline_usd"]), "Every tool, caching": _usd(m["baseline_cached_usd"])}
        ],
        hide_index=True, width="stretch", key="design_targets_month",
    )
    with st.expander("Why ours differ from the targets"):
        for r in table["rows"]:
            st.markdown(f"**{r['path']}**: {r['why']} Latency: {r['latency_why']}.")
        st.caption(
            "Caching: the system prompt and the tool definitions come first and are marked cacheable "
            "(Anthropic: cache_control on the system prompt and the last tool; OpenAI: automatic for a prefix of "
            f"{profile.cache_min_tokens:,} tokens or more). A cached call pays the cached-input price for that prefix "
            "(settings.yaml: cached_input_usd_per_1m); a prefix below the minimum is never cached."
        )
