"""Replay data: recorded API responses of a domain's pipeline tools (lexicons/<domain>/replay.yaml),
answered with no network. A recorded series is re-dated so its last value falls in the month the
request ends in (its `to` / `as_of`, else the reference date): the amounts are the recorded ones."""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from routing.core.errors import LexiconError, Problem
from routing.core.yamlio import read_yaml

REPLAY_FILE = "replay.yaml"


@dataclass(frozen=True)
class ReplayData:
    responses: dict[str, dict]

    def run(self, step: dict, today: date) -> dict:
        """One pipeline step answered from the recording: {tool, params, figures?, series?, rows?, checks?, action?}."""
        tool = step["tool"]
        recorded = self.responses.get(tool)
        out: dict[str, Any] = {"tool": tool, "params": dict(step.get("params") or {})}
        if recorded is None:
            out["missing"] = f"no recorded response for {tool}"
            return out
        end = _end_of(out["params"], today)
        for key in ("figures", "rows", "checks", "action"):
            if key in recorded:
                out[key] = recorded[key] if not isinstance(recorded[key], list) else [dict(x) for x in recorded[key]]
        s = recorded.get("series")
        if isinstance(s, dict):
            values = list(s.get("values") or [])
            months = _months_back(end, len(values))
            out["series"] = {
                "metric": str(s.get("metric", "value")),
                "unit": "percent" if str(s.get("metric", "")).endswith("_pct") else "money",
                "points": [{"period": m, "value": v} for m, v in zip(months, values)],
            }
        return out


def _end_of(params: dict, today: date) -> date:
    for key in ("to", "as_of", "date_to"):
        value = params.get(key)
        if isinstance(value, str):
            try:
                return date.fromisoformat(value)
            except ValueError:
                pass
    return today


def _months_back(end: date, n: int) -> list[str]:
    out = []
    y, m = end.year, end.month
    for _ in range(n):
        out.append(f"{y:04d}-{m:02d}")
        y, m = (y, m - 1) if m > 1 else (y - 1, 12)
    return out[::-1]


def load_replay(domain_root: Path) -> ReplayData | None:
    """The domain's replay recordings, or None when it has none. Raises LexiconError on a bad file."""
    path = Path(domain_root) / REPLAY_FILE
    if not path.exists():
        return None
    label = f"{path.parent.parent.name}/{path.parent.name}/{REPLAY_FILE}"
    data = read_yaml(path, label, root=path.parent.parent)
    responses = data.get("responses") if isinstance(data, dict) else None
    if not isinstance(responses, dict):
        raise LexiconError([Problem(label, 1, "must have a responses: mapping of tool name -> recorded response")])
    problems = []
    for tool, r in responses.items():
        if not isinstance(r, dict):
            problems.append(Problem(label, None, f"{tool}: a recorded response must be a mapping"))
            continue
        unknown = set(r) - {"figures", "series", "rows", "checks", "action"}
        if unknown:
            problems.append(Problem(label, None, f"{tool}: unknown key(s) {sorted(unknown)} (known: figures, series, rows, checks, action)"))
    if problems:
        raise LexiconError(problems)
    return ReplayData({str(k): v for k, v in responses.items()})
