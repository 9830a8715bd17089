"""Parsing and validating lexicons/_shared/words.yaml into the model's LanguageWords: every language
block is checked (stop words, actions, suffixes, spellings, negations, value markers, vowels,
reduplication, numbers), each problem with its line; the words are those of the domain's languages."""
from __future__ import annotations

from typing import Any

from routing.core.errors import LexiconError, Problem
from routing.core.framing import anchor_words, parse_template
from routing.core.model import KINDS, LanguageWords, NumberWords, VerbUse
from routing.core.text import words
from routing.core.yamlio import ProblemCollector, line_of, str_list

MAX_FACTOR = 10**12  # a multiplier past a trillion is a typo in words.yaml, not a unit of money

_Collector = ProblemCollector
_line = line_of
_as_str_list = str_list


def _anaphora(block: dict, c: Any, lang: str) -> list[str]:
    """words.yaml `anaphora`: one word each, or a suffix written with a leading "-" ("-nya")."""
    out = []
    for w in _as_str_list(block.get("anaphora"), c, _line(block, "anaphora"), f"{lang}.anaphora"):
        key = words(w.lstrip("-"))
        if len(key) != 1:
            c.add(_line(block, "anaphora"), f"{lang}.anaphora: {w!r} must be one word or a suffix like \"-nya\"")
            continue
        out.append(("-" if w.startswith("-") else "") + key[0])
    return out


def _one_words(block: dict, section: str, c: Any, lang: str) -> list[str]:
    """A words.yaml list whose entries must each be one word (`negations`, `value_markers`); any other is
    reported at its section's line."""
    out = []
    for w in _as_str_list(block.get(section), c, _line(block, section), f"{lang}.{section}"):
        key = words(w)
        if len(key) != 1:
            c.add(_line(block, section), f"{lang}.{section}: {w!r} must be one word")
            continue
        out.append(key[0])
    return out


def parse_language_words(data: Any, label: str, languages=None) -> LanguageWords:
    """Every language block is checked; the words are those of `languages` (every block's when None)."""
    c = _Collector(label)
    stop: set[str] = set()
    actions: list[tuple[tuple[str, ...], str, float]] = []
    suffixes: list[tuple[str, str]] = []
    negations: set[str] = set()
    negations_after: set[str] = set()  # of languages whose negation follows the word it negates
    plain: set[str] = set()  # a language's stop words it does not also call a negation (see below)
    markers: set[str] = set()
    gap: set[str] = set()
    vowels: set[str] = set()
    redup: set[str] = set()
    factors: dict[str, tuple[int, str]] = {}  # word -> (factor, the language that said it)
    quantity_words: dict[str, set[str]] = {"currency": set(), "days": set(), "percent": set(), "plus": set()}
    framing: list = []
    courtesy: list = []
    done_after: list = []
    advice: list = []
    irregular: dict[str, str] = {}
    shorthand: dict[str, str] = {}
    contrast_before: set[str] = set()  # words.yaml `contrast`, of languages whose negation comes first
    contrast_after: set[str] = set()  # ... and of those whose negation follows its word (Hindi)
    correction: list = []
    correction_alone: list = []
    additive: set[str] = set()
    comparison: set[str] = set()
    comparison_cues: set[str] = set()
    interrogatives: set[str] = set()
    message_content: list = []
    additive_after: set[str] = set()
    purpose: list = []
    purpose_within: list = []
    preface: list = []
    request: list = []
    anaphora: set[str] = set()
    done: list = []
    past: set[str] = set()
    occasions: set[str] = set()
    narrators: set[str] = set()
    use: dict[str, Any] = {"words": {}, **{k: set() for k in _USE_LISTS}}
    if not isinstance(data, dict):
        raise LexiconError([Problem(label, 1, "must be a mapping of language code -> words")])
    for lang, block in data.items():
        lang_line = _line(data, lang)
        if not isinstance(block, dict):
            c.add(lang_line, f"language {lang!r} must map to stopwords/actions/suffixes/negations")
            continue
        for key in block:
            if key not in _SECTIONS:
                c.add(_line(block, key), f"unknown section {key!r} under {lang!r} (expected {', '.join(_SECTIONS)})")
        keep = languages is None or lang in languages
        after = block.get("negation_after_word", False)
        if not isinstance(after, bool):
            c.add(_line(block, "negation_after_word"), f"{lang}.negation_after_word must be true or false")
            after = False
        said_stop = [" ".join(words(w)) for w in _as_str_list(block.get("stopwords"), c, _line(block, "stopwords"), f"{lang}.stopwords")]
        if keep:
            stop.update(said_stop)
        acts = block.get("actions") or {}
        if not isinstance(acts, dict):
            c.add(_line(block, "actions"), f"{lang}.actions must map kind -> strong/weak verbs")
            acts = {}
        for kind, verbs in acts.items():
            kind_line = _line(acts, kind)
            if kind not in KINDS:
                c.add(kind_line, f"{lang}.actions: unknown kind {kind!r} (known: {', '.join(KINDS)})")
                continue
            if not isinstance(verbs, dict):
                c.add(kind_line, f"{lang}.actions.{kind} must have strong: and weak: lists")
                continue
            for strength_name, strength in (("strong", 1.0), ("weak", 0.5)):
                for verb in _as_str_list(verbs.get(strength_name), c, _line(verbs, strength_name), f"{lang}.actions.{kind}.{strength_name}"):
                    if keep:
                        actions.append((words(verb), kind, strength))
        said = _one_words(block, "negations", c, lang)
        said_markers = _one_words(block, "value_markers", c, lang)
        said_gap = _one_words(block, "negation_gap", c, lang)
        said_suffixes = [rule.partition(">") for rule in _as_str_list(block.get("suffixes"), c, _line(block, "suffixes"), f"{lang}.suffixes")]
        # spelling variants of an ending ("ise>ize", "ogue>og"): read like an inflection, towards a known word
        said_spellings = [rule.partition(">") for rule in _as_str_list(block.get("spellings"), c, _line(block, "spellings"), f"{lang}.spellings")]
        for ending, sep, other in said_spellings:
            if not sep or not ending.strip() or not other.strip() or ending.strip() == other.strip():
                c.add(_line(block, "spellings"), f"{lang}.spellings: {ending + sep + other!r} must read ending>other ending (e.g. ise>ize)")
        said_suffixes += [r for r in said_spellings if r[1] and r[0].strip() and r[2].strip()]
        said_vowels = block.get("vowels", "")
        if not isinstance(said_vowels, str) or not all(ch.isalpha() for ch in said_vowels):
            c.add(_line(block, "vowels"), f"{lang}.vowels must be a run of letters (e.g. aeiou)")
            said_vowels = ""
        said_redup = block.get("reduplication", "")
        if not isinstance(said_redup, str) or not all(ch.isdigit() for ch in said_redup):
            c.add(_line(block, "reduplication"), f"{lang}.reduplication must be the digits written for a doubled word (e.g. \"2\")")
            said_redup = ""
        said_numbers = _number_words(block, c, lang)
        said_framing = _framing(block, c, lang)
        said_courtesy = _framing(block, c, lang, "courtesy")
        said_advice = _framing(block, c, lang, "advice")
        said_irregular = _irregular(block, c, lang)
        said_shorthand = _irregular(block, c, lang, "shorthand")
        said_contrast = _one_words(block, "contrast", c, lang)
        said_correction = _framing(block, c, lang, "correction")
        said_correction_alone = _framing(block, c, lang, "correction_alone")
        said_additive = _one_words(block, "additive", c, lang)
        said_comparison = _one_words(block, "comparison", c, lang)
        said_cues = _one_words(block, "comparison_cues", c, lang)
        said_interrogatives = _one_words(block, "interrogatives", c, lang)
        said_message = _framing(block, c, lang, "message_content")
        said_additive_after = _one_words(block, "additive_after", c, lang)
        said_purpose = _framing(block, c, lang, "purpose")
        said_purpose_within = _framing(block, c, lang, "purpose_within")
        said_preface = _framing(block, c, lang, "preface")
        said_request = _framing(block, c, lang, "request")
        said_anaphora = _anaphora(block, c, lang)
        said_done = _framing(block, c, lang, "done")
        said_done_after = _framing(block, c, lang, "done_after")
        said_use = _verb_use(block, c, lang)
        said_occasions = _one_words(block, "occasions", c, lang)
        said_narrators = _one_words(block, "narrators", c, lang)
        said_past = [e.strip().casefold() for e in _as_str_list(block.get("past"), c, _line(block, "past"), f"{lang}.past") if e.strip()]
        if not keep:
            continue
        framing.extend(said_framing)
        courtesy.extend(said_courtesy)
        advice.extend(said_advice)
        irregular.update(said_irregular)
        shorthand.update(said_shorthand)
        (contrast_after if after else contrast_before).update(said_contrast)
        correction.extend(said_correction)
        correction_alone.extend(said_correction_alone)
        additive.update(said_additive)
        comparison.update(said_comparison)
        comparison_cues.update(said_cues)
        interrogatives.update(said_interrogatives)
        message_content.extend(said_message)
        additive_after.update(said_additive_after)
        purpose.extend(said_purpose)
        purpose_within.extend(said_purpose_within)
        preface.extend(said_preface)
        request.extend(said_request)
        anaphora.update(said_anaphora)
        done.extend(said_done)
        done_after.extend(said_done_after)
        past.update(said_past)
        occasions.update(said_occasions)
        narrators.update(said_narrators)
        for section, said_words in said_use.items():
            use[section].update(said_words)
        for word, factor in said_numbers[0].items():
            other = factors.get(word)
            if other is not None and other[0] != factor:
                c.add(_line(block, "numbers"), f"{lang}.numbers.multipliers: {word!r} is {factor} here but {other[0]} in {other[1]!r}")
            factors[word] = (factor, lang)
        for section, said_words in said_numbers[1].items():
            quantity_words[section].update(said_words)
        redup.update(said_redup)
        negations.update(said)
        plain.update(w for w in said_stop if w not in said)
        if after:
            negations_after.update(said)
        markers.update(said_markers)
        gap.update(said_gap)
        vowels.update(said_vowels.casefold())
        suffixes.extend((suffix.strip().casefold(), repl.strip().casefold()) for suffix, _, repl in said_suffixes)
    if c.problems:
        raise LexiconError(c.problems)
    # A word one spoken language calls a negation and another a plain function word is no negation
    # where both are spoken: a negation read wrongly turns the ask around (Indonesian "tak", not; Hindi
    # "abhi tak", by now: "abhi tak paid invoices" read as unpaid).
    negations -= plain
    negations_after -= plain
    suffixes = sorted(set(suffixes), key=lambda s: (-len(s[0]), s))
    numbers = NumberWords(tuple(sorted((w, f) for w, (f, _) in factors.items())), frozenset(quantity_words["currency"]),
                          frozenset(quantity_words["days"]), frozenset(quantity_words["percent"]), frozenset(quantity_words["plus"]))
    return LanguageWords(frozenset(stop), tuple(actions), tuple(suffixes), frozenset(negations), frozenset(negations_after), frozenset(markers),
                         frozenset(vowels), frozenset(redup), frozenset(gap), numbers, tuple(framing), anchor_words(tuple(framing)),
                         tuple(sorted(irregular.items())), tuple(advice), anchor_words(tuple(advice)),
                         tuple(sorted(shorthand.items())), frozenset(contrast_before), frozenset(contrast_after),
                         tuple(correction), anchor_words(tuple(correction)), tuple(sorted(past, key=lambda e: (-len(e), e))),
                         tuple(purpose), tuple(preface), tuple(request), frozenset(anaphora), tuple(done), anchor_words(tuple(done)),
                         tuple(done_after), anchor_words(tuple(done_after)), tuple(courtesy), anchor_words(tuple(courtesy)),
                         verb_use=VerbUse(tuple(sorted(use["words"].items())), tuple(sorted(use["cues"], key=lambda c: (-len(c), c))),
                                          *(frozenset(use[k]) for k in _USE_LISTS[1:])), occasions=frozenset(occasions),
                         narrators=frozenset(narrators), correction_alone=tuple(correction_alone),
                         correction_alone_anchors=anchor_words(tuple(correction_alone)), additive=frozenset(additive),
                         additive_after=frozenset(additive_after), purpose_within=tuple(purpose_within),
                         interrogatives=frozenset(interrogatives), message_content=tuple(message_content),
                         comparison=frozenset(comparison), comparison_cues=frozenset(comparison_cues))


def _framing(block: dict, c: Any, lang: str, section: str = "framing") -> list:
    """words.yaml `framing` / `advice` / `done`: phrase templates (routing.core.framing), each problem at the section's line."""
    out = []
    for text in _as_str_list(block.get(section), c, _line(block, section), f"{lang}.{section}"):
        template, problem = parse_template(text)
        if problem:
            c.add(_line(block, section), f"{lang}.{section}: {text!r} {problem}")
        else:
            out.append(template)
    return out


# the sections a language of words.yaml may have, as its error names them
_SECTIONS = ("stopwords", "actions", "suffixes", "spellings", "negations", "negation_after_word", "value_markers", "vowels",
             "reduplication", "numbers", "negation_gap", "framing", "advice", "irregular", "shorthand", "contrast", "correction",
             "past", "purpose", "preface", "request", "anaphora", "done", "done_after", "courtesy", "verb_use", "occasions",
             "narrators", "correction_alone", "additive", "additive_after", "purpose_within", "interrogatives", "message_content",
             "comparison", "comparison_cues")
_USE_LISTS = ("cues", "objects", "determiners", "marks", "subjects", "recipients", "markers")


def _verb_use(block: dict, c: Any, lang: str) -> dict:
    """words.yaml `verb_use`: `words` maps a word to the term word it creates as a verb ("bill: invoice", "invoice:
    invoice"); `cues` are phrases ("need to"), the other lists one word each."""
    said = block.get("verb_use")
    if said is None:
        return {}
    if not isinstance(said, dict):
        c.add(_line(block, "verb_use"), f"{lang}.verb_use must map words/cues/objects/marks/markers to their words")
        return {}
    out: dict[str, Any] = {}
    for key in said:
        if key != "words" and key not in _USE_LISTS:
            c.add(_line(said, key), f"{lang}.verb_use: unknown section {key!r} (expected words, {', '.join(_USE_LISTS)})")
    out["words"] = _irregular(said, c, f"{lang}.verb_use", "words", same=True)  # "invoice: invoice" is its own verb
    out["cues"] = [words(w) for w in _as_str_list(said.get("cues"), c, _line(said, "cues"), f"{lang}.verb_use.cues") if words(w)]
    for key in _USE_LISTS[1:]:
        out[key] = _one_words(said, key, c, f"{lang}.verb_use")
    return out


def _irregular(block: dict, c: Any, lang: str, section: str = "irregular", same: bool = False) -> dict[str, str]:
    """words.yaml `irregular` / `shorthand` / `verb_use.words`: one word -> the one word it stands for ("spent: spend",
    "brp: berapa", "bill: invoice"); `same`: a word may stand for itself."""
    said = block.get(section)
    if said is None:
        return {}
    if not isinstance(said, dict):
        c.add(_line(block, section), f"{lang}.{section} must map a word to the word it stands for (e.g. spent: spend)")
        return {}
    out = {}
    for form, base in said.items():
        f, b = words(str(form)), words(base) if isinstance(base, str) else ()
        if len(f) != 1 or len(b) != 1 or (f == b and not same):
            c.add((_line(said, form) or _line(block, section)), f"{lang}.{section}: {form!r}: {base!r} must map one word to another")
        else:
            out[f[0]] = b[0]
    return out


def _number_words(block: dict, c: Any, lang: str) -> tuple[dict[str, int], dict[str, list[str]]]:
    """words.yaml `numbers`: multipliers (word -> a whole factor), currency / days / percent / plus (words, or
    one-character signs such as "₹" and "%"). Each entry is one word or one sign, casefolded."""
    block_numbers = block.get("numbers")
    if block_numbers is None:
        return {}, {}
    line = _line(block, "numbers")
    if not isinstance(block_numbers, dict):
        c.add(line, f"{lang}.numbers must map multipliers / currency / days / percent / plus")
        return {}, {}
    for key in block_numbers:
        if key not in ("multipliers", "currency", "days", "percent", "plus"):
            c.add((_line(block_numbers, key) or line), f"unknown section {key!r} under {lang}.numbers (expected multipliers, currency, days, percent, plus)")
    factors: dict[str, int] = {}
    said_factors = block_numbers.get("multipliers") or {}
    if not isinstance(said_factors, dict):
        c.add((_line(block_numbers, "multipliers") or line), f"{lang}.numbers.multipliers must map word -> factor (e.g. k: 1000)")
        said_factors = {}
    for word, factor in said_factors.items():
        key = words(str(word))
        if len(key) != 1 or not key[0].isalpha():
            c.add((_line(said_factors, word) or line), f"{lang}.numbers.multipliers: {word!r} must be one word of letters")
        elif isinstance(factor, bool) or not isinstance(factor, int) or not 2 <= factor <= MAX_FACTOR:
            c.add((_line(said_factors, word) or line), f"{lang}.numbers.multipliers: {word!r} must be a whole number from 2 to {MAX_FACTOR:,}, not {factor!r}")
        else:
            factors[key[0]] = factor
    listed: dict[str, list[str]] = {}
    for section in ("currency", "days", "percent", "plus"):
        out = listed[section] = []
        for w in _as_str_list(block_numbers.get(section), c, (_line(block_numbers, section) or line), f"{lang}.numbers.{section}"):
            w = w.strip().casefold()
            key = words(w)
            if len(w) == 1 and not w.isalnum():
                out.append(w)  # a sign
            elif len(key) == 1 and key[0] == w:
                out.append(w)
            else:
                c.add((_line(block_numbers, section) or line), f"{lang}.numbers.{section}: {w!r} must be one word or one sign")
    return factors, listed
