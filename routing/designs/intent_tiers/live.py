"""Data mode `live`: the analyst's tools run on records read from an HTTP data source.

settings.yaml `live_data: {base_urls: [http://...], timeout_s: 3}` names the sources, tried in
order (the environment's ROUTING_LIVE_DATA_URL, comma-separated, replaces the list). One request per
routed question: GET <base>/roster?until=YYYY-MM-DD answers {"players": [...]} in the shape of
fixtures/players.yaml. Nothing here runs unless a request asks for data_mode live; replay never
reaches this module (and runs inside guard.no_network). No source, or none answering with a
readable roster, is UPSTREAM_DOWN with every source's reason.
"""
from __future__ import annotations

import json
import os
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from datetime import date
from typing import Mapping

from routing.core.errors import LexiconError

from .data import Roster, parse_roster

ENV_URL = "ROUTING_LIVE_DATA_URL"
DEFAULT_TIMEOUT_S = 3.0
MAX_BYTES = 5_000_000


@dataclass(frozen=True)
class LiveSource:
    base_urls: tuple[str, ...]
    timeout_s: float = DEFAULT_TIMEOUT_S
    origin: str = ""  # where the list came from: settings.yaml or the environment


def live_source(settings_extra: Mapping, environ: Mapping[str, str] | None = None) -> LiveSource:
    env = os.environ if environ is None else environ
    raw = settings_extra.get("live_data") if isinstance(settings_extra.get("live_data"), Mapping) else {}
    try:
        timeout = float(raw.get("timeout_s", DEFAULT_TIMEOUT_S))
    except (TypeError, ValueError):
        timeout = DEFAULT_TIMEOUT_S
    timeout = min(max(timeout, 0.1), 60.0) if timeout == timeout else DEFAULT_TIMEOUT_S
    if env.get(ENV_URL, "").strip():
        urls = tuple(u.strip().rstrip("/") for u in env[ENV_URL].split(",") if u.strip())
        return LiveSource(urls, timeout, f"environment {ENV_URL}")
    urls = tuple(str(u).strip().rstrip("/") for u in raw.get("base_urls") or () if str(u).strip())
    return LiveSource(urls, timeout, "settings.yaml live_data.base_urls")


def fetch_roster(source: LiveSource, today: date) -> tuple[Roster | None, dict]:
    """(roster, report): the first source that answers with a readable roster. report: {source,
    url, tried: [{url, reason}], reason} (reason set when no source answered)."""
    tried: list[dict] = []
    if not source.base_urls:
        return None, {"source": None, "tried": [], "reason": f"no live data source is configured (set {ENV_URL} or live_data.base_urls in settings.yaml)"}
    for base in source.base_urls:
        if urllib.parse.urlsplit(base).scheme not in ("http", "https"):
            tried.append({"url": base, "reason": "not an http(s) URL"})
            continue
        url = f"{base}/roster?{urllib.parse.urlencode({'until': today.isoformat()})}"
        try:
            with urllib.request.urlopen(urllib.request.Request(url, headers={"Accept": "application/json"}), timeout=source.timeout_s) as resp:
                body = resp.read(MAX_BYTES + 1)
            if len(body) > MAX_BYTES:
                raise ValueError(f"answer over {MAX_BYTES} bytes")
            roster = parse_roster(json.loads(body), url)
        except urllib.error.HTTPError as exc:
            tried.append({"url": url, "reason": f"HTTP {exc.code}"})
            continue
        except (urllib.error.URLError, OSError) as exc:
            tried.append({"url": url, "reason": f"no answer ({getattr(exc, 'reason', exc)})"})
            continue
        except (ValueError, LexiconError) as exc:
            tried.append({"url": url, "reason": f"unreadable answer ({str(exc)[:120]})"})
            continue
        return roster, {"source": base, "url": url, "tried": tried, "reason": None}
    reasons = "; ".join(f"{t['url']}: {t['reason']}" for t in tried)
    return None, {"source": None, "tried": tried, "reason": f"no live data source answered ({reasons})"}
