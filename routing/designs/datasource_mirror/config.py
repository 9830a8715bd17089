"""The mirror's settings (lexicons/<domain>/mirror.yaml) and its sample questions, validated.

Thresholds are cosine distances; ROUTER_L1_THRESHOLD / ROUTER_L2_THRESHOLD override the YAML."""
from __future__ import annotations

import os
from dataclasses import dataclass, field

from routing.core.errors import LexiconError, Problem
from routing.core.yamlio import ProblemCollector, check_keys, line_of, read_yaml

ENV_L1 = "ROUTER_L1_THRESHOLD"
ENV_L2 = "ROUTER_L2_THRESHOLD"
KEYS = ("thresholds", "variants", "votes", "store", "encoder", "llm_variants", "rewrites", "filler")
ENCODERS = ("auto", "transformer", "table", "static")
THRESHOLD_KEYS = ("l1", "l2", "weak")


@dataclass(frozen=True)
class MirrorConfig:
    l1: float = 0.4
    l2: float = 0.6
    weak: float = 0.8
    variants: int = 5
    votes: int = 3
    store: str = "numpy"
    encoder: str = "auto"  # auto | transformer | table | static (routing/designs/datasource_mirror/encoder.py)
    llm_variants: bool = False  # also ask an LLM endpoint for `variants` paraphrases per sample (cached)
    rewrites: dict[str, tuple[str, ...]] = field(default_factory=dict)  # canonical -> variants
    filler: frozenset[str] = frozenset()
    samples: dict[str, tuple[str, ...]] = field(default_factory=dict)  # datasource -> questions
    sources: dict[str, str] = field(default_factory=dict)  # "l1"/"l2" -> where the value came from
    languages: tuple[str, ...] = ()  # the domain's: rewrites match word forms through their stemmers


def _line(node, key=None):
    return line_of(node, key) if isinstance(node, (dict, list)) else None


def _distance(value, label: str, where: str, line, problems: list[Problem]) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError):
        problems.append(Problem(where, line, f"{label} must be a cosine distance between 0 and 2, not {value!r}"))
        return None
    if not 0.0 <= number <= 2.0:
        problems.append(Problem(where, line, f"{label} must be a cosine distance between 0 and 2, not {value!r}"))
        return None
    return number


def load_config(domain, environ=None) -> MirrorConfig:
    environ = os.environ if environ is None else environ
    folder = domain.root
    problems: list[Problem] = []
    mpath, spath = folder / "mirror.yaml", folder / "sample_questions.yaml"
    mlabel, slabel = f"{domain.name}/mirror.yaml", f"{domain.name}/sample_questions.yaml"
    data = read_yaml(mpath, mlabel, root=folder.parent) if mpath.exists() else {}
    if not isinstance(data, dict):
        raise LexiconError([Problem(mlabel, None, "mirror.yaml must be a mapping")])
    keys = ProblemCollector(mlabel)
    check_keys(data, KEYS, keys, "mirror.yaml")
    th = data.get("thresholds") or {}
    check_keys(th, THRESHOLD_KEYS, keys, "thresholds", _line(data, "thresholds"))
    problems.extend(keys.problems)
    llm_variants = data.get("llm_variants", False)
    if not isinstance(llm_variants, bool):
        problems.append(Problem(mlabel, _line(data, "llm_variants"), f"llm_variants must be true or false, not {llm_variants!r}"))
    encoder = str(data.get("encoder", "auto")).strip().lower()
    if encoder not in ENCODERS:
        problems.append(Problem(mlabel, _line(data, "encoder"), f"encoder must be one of {', '.join(ENCODERS)}, not {data.get('encoder')!r}"))
        encoder = "auto"
    values, sources = {}, {}
    for key, env in (("l1", ENV_L1), ("l2", ENV_L2)):
        value, source = th.get(key, MirrorConfig.__dataclass_fields__[key].default), f"{mlabel} thresholds.{key}"
        if environ.get(env):
            value, source = environ[env], f"environment {env}"
        got = _distance(value, f"thresholds.{key}" if source.startswith(mlabel) else env, mlabel if source.startswith(mlabel) else source, _line(th, key) if source.startswith(mlabel) else None, problems)
        values[key], sources[key] = got, source
    weak = _distance(th.get("weak", 0.8), "thresholds.weak", mlabel, _line(th, "weak"), problems)
    rewrites: dict[str, tuple[str, ...]] = {}
    for canon, variants in (data.get("rewrites") or {}).items():
        if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
            problems.append(Problem(mlabel, _line(data.get("rewrites"), canon), f"rewrites.{canon} must be a list of phrases"))
            continue
        rewrites[str(canon).lower()] = tuple(v.lower().strip() for v in variants if v.strip())
    samples_raw = read_yaml(spath, slabel, root=folder.parent) if spath.exists() else None
    if not isinstance(samples_raw, dict) or not samples_raw:
        problems.append(Problem(slabel, None, "sample_questions.yaml must map each datasource to its questions"))
        samples_raw = {}
    names = {t.name for t in domain.tools}
    samples: dict[str, tuple[str, ...]] = {}
    for ds, qs in samples_raw.items():
        if ds not in names:
            problems.append(Problem(slabel, _line(samples_raw, ds), f"{ds!r} is not a datasource in tools.yaml (known: {', '.join(sorted(names))})"))
            continue
        if not isinstance(qs, list) or not all(isinstance(q, str) and q.strip() for q in qs):
            problems.append(Problem(slabel, _line(samples_raw, ds), f"{ds}: a list of questions"))
            continue
        samples[ds] = tuple(qs)
    if problems:
        raise LexiconError(problems)
    if values["l1"] > values["l2"]:
        raise LexiconError([Problem(mlabel, _line(th, "l1"), f"the L1 threshold ({values['l1']}) must not exceed L2's ({values['l2']})")])
    return MirrorConfig(
        l1=values["l1"], l2=values["l2"], weak=max(weak, values["l2"]),
        variants=int(data.get("variants", 5)), votes=int(data.get("votes", 3)), store=str(data.get("store", "numpy")),
        encoder=encoder, llm_variants=llm_variants is True,
        rewrites=rewrites, filler=frozenset(str(w).lower() for w in data.get("filler") or ()), samples=samples, sources=sources,
        languages=tuple(domain.settings.languages),
    )
