"""The words a card, its "why" chart and its hover texts use for each scoring signal, from what the
domain's tools are known by. The `example` signal compares a question with a tool's example
questions; in an imported catalog (`enrich: true`) also with the words of its name, description and
parameters, and a tool with no example questions is known by those words alone: calling that
"similar example questions" would be untrue.

Pure functions of a small `Knowledge` value (no Streamlit), so the words are tested on their own."""
from __future__ import annotations

from dataclasses import dataclass

# The signal that carried a match (RouteResult match_type), where the words do not depend on the tool.
MATCH_WORDS = {
    "pattern": "a phrase pattern",
    "fuzzy": "a corrected spelling",
    "synonym": "a synonym",
    "keyword": "a keyword",
    "action": "an action word",
    "semantic": "similar meaning",
    "hybrid": "words and similar meaning",
    "learned": "a model learned from the examples",
    "agreement": "several signals agreeing",
}
# The chart's legend: short, one per signal.
LEGEND_WORDS = {
    "keyword": "keywords",
    "synonym": "synonyms",
    "fuzzy": "corrected spelling",
    "pattern": "phrase pattern",
    "action": "action word",
    "semantic": "similar meaning",
    "learned": "learned model",
    "agreement": "signals agree",
    "description": "words of its description",
    "calibration": "calibration",
    "fuzzy_penalty": "spelling penalty",
    # lifts and levels some designs add on top of the signals (routing.core.sole, the power gateway)
    "sole": "only this tool fits",
    "sole_write": "the one write tool",
    "lead": "far ahead of the rest",
    "named": "named in the question",
    "level": "exact keyword match",
    "category": "a kind of service asked",
    "hint": "topic hint",
    "trigger": "trigger words",
    "entity": "player named",
    "second_entity": "second player named",
    "overruled": "overruled tier",
}
EXAMPLES = "similar example questions"
DESCRIPTION = "words of its description"  # name, description and parameters: what an imported tool says about itself
BOTH = "its example questions and description"


@dataclass(frozen=True)
class Knowledge:
    """What a domain's tools are known by: `described` when the domain indexes each tool's name,
    description and parameters (enrich: true); `with_examples` the tools that have example questions."""

    described: bool = False
    with_examples: frozenset[str] = frozenset()
    any_examples: bool = True


def knowledge_of(domain) -> Knowledge:
    """From a loaded Domain (routing.core.lexicon)."""
    with_examples = frozenset(t.name for t in domain.tools if t.examples)
    return Knowledge(described=bool(domain.settings.extra.get("enrich")), with_examples=with_examples,
                     any_examples=bool(with_examples))


def example_words(knowledge: Knowledge, tool: str | None = None) -> str:
    """The `example` signal for one tool (or, without a tool, for the whole domain's chart)."""
    if not knowledge.described:
        return EXAMPLES
    if tool is not None:
        return BOTH if tool in knowledge.with_examples else DESCRIPTION
    return BOTH if knowledge.any_examples else DESCRIPTION


NO_POINTS = "no signal gave it points: its confidence is calibration's alone"
SCORED = {*LEGEND_WORDS, "example"} - {"calibration", "fuzzy_penalty"}  # signals that give points of their own


def carried_by(match_type: str, breakdown: dict | None) -> str | None:
    """The signal a card names for a match: its match_type, unless the breakdown shows that signal
    gave it no points (a calibrated runner-up's match_type is a default then); then the signal that
    gave the most, or None where no signal gave any."""
    if not breakdown or match_type not in SCORED or float(breakdown.get(match_type) or 0.0) > 0:
        return match_type
    given = {k: float(v) for k, v in breakdown.items() if k in SCORED and float(v or 0.0) > 0}
    return max(given, key=given.get) if given else None


def match_words(match_type: str, knowledge: Knowledge, tool: str | None = None, breakdown: dict | None = None) -> str:
    """'mostly from ...': the words for the signal that contributed most to a match (NO_POINTS, said
    without "mostly from", where the breakdown shows no signal gave it any)."""
    match_type = carried_by(match_type, breakdown)
    if match_type is None:
        return NO_POINTS
    if match_type == "example":
        return example_words(knowledge, tool)
    return MATCH_WORDS.get(match_type, match_type.replace("_", " "))


def legend_words(signal: str, knowledge: Knowledge) -> str:
    if signal == "example":
        return {EXAMPLES: "example questions", DESCRIPTION: "description words", BOTH: "examples and description"}[example_words(knowledge)]
    return LEGEND_WORDS.get(signal, signal.replace("_", " "))


# The help's words for each signal a bar may hold.
HELP_WORDS = {
    "keyword": "keywords", "synonym": "synonyms", "pattern": "phrase patterns", "fuzzy": "corrected spellings",
    "action": "action words", "semantic": "similar meaning", "learned": "a model learned from the examples",
    "agreement": "several signals agreeing", "calibration": "calibration", "fuzzy_penalty": "a spelling penalty",
    "sole": "a lift to the high threshold where every term of the question points to this tool alone",
    "sole_write": "a lift to the high threshold where this is the one write tool holding the question's terms",
    "lead": "a lift to the high threshold where this tool leads every other by the domain's clear lead, in a question asking one thing",
    "named": "the power named in the question", "level": "an exact keyword match (shared/seeds 004's levels)",
    "category": "a kind of service asked with no power named (shared/seeds 004's Medium): its powers raised together, as equals where close",
    "hint": "a topic word that points to it only loosely", "trigger": "the tier's trigger words",
    "entity": "a player named", "second_entity": "a second player named", "overruled": "a tier that fired but lost on precedence",
}


def why_help(noun: str, knowledge: Knowledge, signals: list[str]) -> str:
    """The help of the card's "Why" chart: what a bar, its parts (the signals on this chart) and a
    hatched end mean."""
    described = {EXAMPLES: "similar example questions", DESCRIPTION: "the words of the tool's name, description and parameters",
                 BOTH: "the tool's example questions and the words of its name, description and parameters"}[example_words(knowledge)]
    parts = ", ".join(described if s == "example" else HELP_WORDS.get(s, s.replace("_", " ")) for s in signals)
    text = (f"Each bar is a {noun}; its solid length is the {noun}'s confidence (the number at its right), and its parts "
            f"are the signals that gave it points ({parts}).")
    if any(s in ("calibration", "fuzzy_penalty") for s in signals):
        text += (" A hatched end is what calibration or a spelling penalty took off: points the signals gave that "
                 "the confidence does not keep.")
    return text + f" Dashed lines are the tier thresholds: above “high” a {noun} is activated."


def confidence_summary(made: dict) -> str:
    """One line for the playground's "How confidence is made" (the whole account is its help): a
    confidence a person can read as a probability, or a weighted sum that is not one."""
    calibration = made.get("calibration") or {}
    if calibration.get("from") == "synthetic":
        line = (f"the probability that the top tool is right, calibrated at build on {calibration.get('questions', 0):,} questions "
                f"and {calibration.get('negatives', 0):,} off-topic ones, all made from the catalog itself (no labelled question)")
    elif made.get("calibrated"):
        line = "the probability that the top tool is right, calibrated on this domain's labelled questions"
    else:
        line = "a weighted sum of the signals' points, not calibrated (not a probability)"
    if made.get("dense"):
        line += "; the order fuses the words' list with the similar-meaning list"
    return line + "."
