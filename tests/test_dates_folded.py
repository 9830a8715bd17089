"""The date finder's speed-ups (issue 22) against what they replaced: each family's case-sensitive
pattern for a casefolded ASCII text, with its guard of first characters (routing.dates.folded), must
find the same matches, group for group, as the IGNORECASE pattern; the word gate's keys read per word
(WordGate.present, cached) must be those read from the whole text as before."""
from __future__ import annotations

import re
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from routing.dates import DateSettings, load_date_lexicon
from routing.dates.finder import _DIGIT_SEP, _LEAD, _WORD
from routing.dates.folded import case_sensitive

TODAY = date(2026, 1, 22)
LEXICON = load_date_lexicon()
WORDS = sorted({w for f in LEXICON._families for w in re.findall(r"[a-z]+", f.pattern.pattern.lower())})
PIECES = WORDS + ["1", "15", "2025", "03", "q3", "fy25", "mar5", "5th", "1st", "2019q1", "-", "/", ".", ",", "~", "'", "@", "$"]
SEPS = [" ", " ", "", "-", "/", ", ", ". ", "  "]
ascii_texts = st.lists(st.tuples(st.sampled_from(PIECES), st.sampled_from(SEPS)), min_size=1, max_size=10).map(
    lambda parts: "".join(w + s for w, s in parts))


def _matches(pattern, text):
    return [(m.span(), m.groupdict()) for m in pattern.finditer(text)]


def test_every_family_is_folded():
    assert all(f.folded is not f.pattern for f in LEXICON._families)


@settings(max_examples=400, deadline=None)
@given(ascii_texts)
def test_folded_patterns_match_as_the_originals(text):
    for fam in LEXICON._families:
        assert _matches(fam.folded, text) == _matches(fam.pattern, text), (fam.pattern.pattern[:80], text)


@pytest.mark.parametrize("text", ["from 3 to 5 march", "march 14, 2022 at 10:30 am", "q3 2016", "fy 2025-26", "last 7 days",
                                  "between 1 and 15 january", "jum'at lalu", "6,107.31 on 5 may", "this may take a while"])
def test_folded_patterns_match_known_dates(text):
    for fam in LEXICON._families:
        assert _matches(fam.folded, text) == _matches(fam.pattern, text)


def test_a_construct_not_handled_is_left_alone():
    assert case_sensitive(re.compile(r"(a)(?(1)b|c)", re.IGNORECASE)) is None  # a conditional group
    assert case_sensitive(re.compile("abc")) is None  # not IGNORECASE: nothing to fold
    folded = case_sensitive(re.compile(r"(?<!\w)(?:Jan|FEB)\s*\d", re.IGNORECASE))
    assert folded.fullmatch("jan 5") and folded.fullmatch("feb5") and not folded.fullmatch("mar 5")


def _present_as_it_was(gate, text: str) -> set:
    """WordGate.present as it was: every key read from the whole text's words at once."""
    lowered = text.lower()
    found = _WORD.findall(lowered)
    tokens = set(found)
    out: set = set()
    whole, lead = gate._whole, gate._lead
    for t in tokens.intersection(whole):
        for pieces, i in whole[t]:
            if len(pieces) == 1 or pieces <= tokens:
                out.add(i)
    for t in tokens.intersection(lead):
        out |= lead[t]
    for t in tokens:
        if t.isalpha():
            continue
        head = _LEAD.match(t).group()
        if head != t and head in lead:
            out |= lead[head]
        if t[0] in "12" and t[:4].isdigit():
            out.add("year4_start")
            if len(t) == 4:
                out.add("year4")
    if gate._prefix3:
        heads = {t[:3] for t in tokens}
        for head, pieces in gate._prefix3.items():
            if head and head not in heads:
                continue
            for piece in pieces:
                if any(t.startswith(piece) for t in tokens):
                    out |= gate._prefix[piece]
    if any(c in lowered for c in "0123456789"):
        out.add("digit")
        if _DIGIT_SEP.search(lowered):
            out.add("digit_sep")
    if gate._span is not None and gate._span_b(lowered, found):
        out.add("span_b")
    return out


@settings(max_examples=400, deadline=None)
@given(ascii_texts)
def test_word_gate_keys_per_word_are_those_of_the_whole_text(text):
    gate = LEXICON._word_gate
    for t in (text, text.upper(), text.title()):
        assert gate.present(t) == _present_as_it_was(gate, t)
        assert gate.present(t) == _present_as_it_was(gate, t)  # the second time from the per-word keys


@settings(max_examples=200, deadline=None)
@given(ascii_texts)
def test_found_dates_are_those_of_the_regex_gates(text):
    for t in (text, text.upper()):
        assert repr(LEXICON.find(t, TODAY, DateSettings())) == repr(LEXICON.find(t, TODAY, DateSettings(), word_gate=False))
