"""Which kind of help an LLM-path question needs (general_chat / bookkeeper / cfo) and which model
tier answers it: keyword rules from the domain's settings, no LLM."""
from __future__ import annotations

from dataclasses import dataclass

from routing.core.fastinit import fast_frozen_dict_init
from routing.core.text import words
from routing.paths.config import GENERAL_CHAT, ModelSpec, PathConfig

# ---------------------------------------------------------------- classification


@fast_frozen_dict_init
@dataclass(frozen=True)
class Classification:
    category: str
    hits: dict[str, list[str]]
    reason: str


def _ordered(phrases_by_label: dict[str, tuple[tuple[str, ...], ...]]) -> list[tuple[tuple[str, ...], str]]:
    """(phrase, label), longest first (stable: labels and phrases in their written order)."""
    return sorted(((ph, label) for label, phs in phrases_by_label.items() for ph in phs), key=lambda x: -len(x[0]))


def _starts(tokens: tuple[str, ...], phrase: tuple[str, ...], at):
    """Where `phrase` may start in `tokens`, in order: where its first word is (every place, if it has none)."""
    if not phrase:
        return range(len(tokens) + 1)
    return at.get(phrase[0], ())


class _Positions:
    """Where each word of a question is, as a dict's get(): found for a word only when asked (a
    phrase's first word is seldom in the question), absent words told by a set."""

    __slots__ = ("tokens", "present", "found")

    def __init__(self, tokens: tuple[str, ...]):
        self.tokens = tokens
        self.present = frozenset(tokens)
        self.found: dict[str, list[int]] = {}

    def get(self, word: str, default=None):
        if word not in self.present:
            return default
        at = self.found.get(word)
        if at is None:
            at = self.found[word] = []
            i, tokens = -1, self.tokens
            for _ in range(tokens.count(word)):  # each place, found by the tuple's own search
                i = tokens.index(word, i + 1)
                at.append(i)
        return at


_LAST_POSITIONS: tuple = ((), _Positions(()))  # the last question's (tokens, positions): a route asks twice


def _positions(tokens: tuple[str, ...]) -> _Positions:
    """Where each word is (read only by the callers)."""
    global _LAST_POSITIONS
    last_tokens, last_at = _LAST_POSITIONS
    if last_tokens is tokens:
        return last_at
    at = _Positions(tokens)
    _LAST_POSITIONS = (tokens, at)
    return at


def _find_phrases(tokens: tuple[str, ...], phrases_by_label: dict[str, tuple[tuple[str, ...], ...]], ordered=None,
                  firsts: frozenset[str] | None = None) -> dict[str, list[str]]:
    """Non-overlapping phrase hits, longest first, per label (`ordered`: _ordered(phrases_by_label), when
    kept; `firsts`: the phrases' first words, None when one is empty)."""
    hits: dict[str, list[str]] = {label: [] for label in phrases_by_label}
    at = _positions(tokens)
    present = at.present
    if firsts is not None and firsts.isdisjoint(present):  # no phrase's first word in the question
        return hits
    used = [False] * len(tokens)
    for phrase, label in ordered if ordered is not None else _ordered(phrases_by_label):
        if phrase:
            if phrase[0] not in present:  # its first word is not in the question: no hit (most phrases)
                continue
            starts = at.get(phrase[0])
        else:
            starts = range(len(tokens) + 1)  # _starts
        n = len(phrase)
        for i in starts:
            if i + n <= len(tokens) and tokens[i : i + n] == phrase and not any(used[i : i + n]):
                used[i : i + n] = [True] * n
                hits[label].append(" ".join(phrase))
    return hits


def _first_words(cfg: PathConfig, name: str, phrases: tuple[tuple[str, ...], ...]) -> frozenset[str] | None:
    """The first words of one of cfg's phrase lists (kept on cfg); None when one is empty (in every question)."""
    kept = cfg.phrase_orders.get(name)
    if kept is None or kept[0] is not phrases:
        kept = cfg.phrase_orders[name] = (phrases, None if any(not ph for ph in phrases) else frozenset(ph[0] for ph in phrases))
    return kept[1]


def _contains(tokens: tuple[str, ...], phrases: tuple[tuple[str, ...], ...], at: _Positions | None = None,
              firsts: frozenset[str] | None = None) -> list[str]:
    """The phrases found in `tokens`, in their order (`firsts`: _first_words of them, when kept)."""
    found: list[str] = []
    at = _positions(tokens) if at is None else at
    if firsts is not None and firsts.isdisjoint(at.present):  # no phrase's first word in the question
        return found
    for phrase in phrases:
        if not phrase:  # an empty phrase is in every question (as _starts has it)
            found.append("")
            continue
        n = len(phrase)
        if n == 1:
            if phrase[0] in at.present:
                found.append(phrase[0])
            continue
        starts = at.get(phrase[0])
        if starts is None:  # its first word is not in the question (most phrases): not there
            continue
        if any(i + n <= len(tokens) and tokens[i : i + n] == phrase for i in starts):
            found.append(" ".join(phrase))
    return found


def question_words(query: str, analysis=None) -> tuple[str, ...]:
    """words(query), read from the query's analysis (routing.core.index) where that is exact: an ASCII
    question's casefolded words lie at its cleaned form's token spans (ASCII case folding changes no
    length and no letter-or-not), so the slow tokenising regex need not run again on it."""
    source = getattr(analysis, "source", "")
    if source and source.isascii():
        norm = source.casefold()
        return tuple([norm[a:b] for a, b in analysis.source_spans])
    return words(query)


def classify_category(query: str, cfg: PathConfig, *, has_concepts: bool, previous_mode: str | None = None,
                      tokens: tuple[str, ...] | None = None) -> Classification:
    """Keyword classifier (no LLM): general chat only when nothing in the query names business data;
    action words beat report words on a tie only when they come first; else the conversation's mode.
    `tokens`: words(query), when the caller has them."""
    tokens = words(query) if tokens is None else tokens
    kept = cfg.phrase_orders.get("classifier")
    if kept is None or kept[0] is not cfg.classifier:  # the classifier's phrases, longest first: sorted once
        ordered = _ordered(cfg.classifier)
        firsts = None if any(not ph for ph, _ in ordered) else frozenset(ph[0] for ph, _ in ordered)
        kept = cfg.phrase_orders["classifier"] = (cfg.classifier, ordered, firsts)
    hits = _find_phrases(tokens, cfg.classifier, kept[1], kept[2])
    modes = [c for c in cfg.classifier if c != GENERAL_CHAT]
    counts = {c: len(hits.get(c, [])) for c in modes}
    best = max(counts.values(), default=0)
    if best > 0:
        leaders = [c for c in modes if counts[c] == best]
        if len(leaders) == 1:
            chosen = leaders[0]
        else:
            first = {c: min(tokens.index(h.split()[0]) for h in hits[c]) for c in leaders}
            chosen = min(leaders, key=lambda c: (first[c], modes.index(c)))
        return Classification(chosen, hits, f"{chosen} words: {', '.join(hits[chosen])}")
    if hits.get(GENERAL_CHAT) and not has_concepts:
        return Classification(GENERAL_CHAT, hits, f"chat words only: {', '.join(hits[GENERAL_CHAT])}")
    if not modes:
        return Classification(cfg.default_category, hits, f"{cfg.domain} declares no modes: the model chooses among its own {len(cfg.tool_categories)} tools")
    if previous_mode in modes:
        return Classification(previous_mode, hits, f"no mode words; the conversation continues in {previous_mode}")
    return Classification(cfg.default_category, hits, f"no mode words; {cfg.default_category} by default")


@fast_frozen_dict_init
@dataclass(frozen=True)
class ModelChoice:
    spec: ModelSpec
    reason: str


def without_dates(tokens: tuple[str, ...], analysis=None) -> tuple[str, ...]:
    """`tokens` (the question's words) with the words of its dates blanked, where the analysis's tokens align
    with them: a date's words ask nothing ("bulan lalu" is last month, not "then")."""
    units = getattr(analysis, "units", ())
    if not units or len(tokens) != len(analysis.tokens):
        return tokens
    dated = {i for u in units if u.role == "date" for i in range(u.first, u.last)}
    return tuple("" if i in dated else t for i, t in enumerate(tokens)) if dated else tokens


def several_asks(tokens: tuple[str, ...], cfg: PathConfig, at=None) -> list[str]:
    """The words that make a question ask several things (a multi-step marker such as "and then", or
    `multi_step_verbs` request verbs: "compare ... and explain ..."), or [] for a question asking one."""
    at = _positions(tokens) if at is None else at
    markers = _contains(tokens, cfg.multi_step, at, _first_words(cfg, "multi_step", cfg.multi_step))
    verbs = _contains(tokens, cfg.request_verbs, at, _first_words(cfg, "request_verbs", cfg.request_verbs))
    return markers + verbs if markers or len(verbs) >= cfg.multi_step_verbs else []


def choose_model(query: str, category: str, cfg: PathConfig, *, tokens: tuple[str, ...] | None = None,
                 analysis=None) -> ModelChoice:
    """Cheapest for chat and simple questions; capable for analytical, multi-step or long ones
    (`tokens`: words(query), when the caller has them; `analysis`: the router's, whose dates ask nothing)."""
    cheap, capable = cfg.models["cheap"], cfg.models["capable"]
    if category == GENERAL_CHAT:
        return ModelChoice(cheap, "chat needs the cheapest model")
    tokens = words(query) if tokens is None else tokens
    at = _positions(tokens)
    reasons = []
    analytical = _contains(tokens, cfg.analytical, at, _first_words(cfg, "analytical", cfg.analytical))
    if analytical:
        reasons.append("analytical (" + ", ".join(analytical) + ")")
    dateless = without_dates(tokens, analysis)
    several = several_asks(dateless, cfg, at if dateless is tokens else None)
    if several:
        reasons.append("multi-step (" + ", ".join(several) + ")")
    if len(tokens) >= cfg.long_query_words:
        reasons.append(f"long ({len(tokens)} words)")
    if reasons:
        return ModelChoice(capable, "capable model: " + "; ".join(reasons))
    return ModelChoice(cheap, "a simple question: the cheapest model")
