"""The route path's faster ways of computing the same things (issue 22, speed): each is checked
against the way it replaced. (The whole replies of main and a branch are compared on Seal-Tools
by scripts/speed_compare.py; speed itself is measured by `python -m routing bench --zero-shot`.)"""
from __future__ import annotations

import dataclasses
import pickle
import random

import numpy as np
import pytest
import regex

from routing.core.example_arrays import ExampleArrays
from routing.core.sentences import _SENTENCE_END, split_sentences
from routing.core.text import Token, tokenize, words
from routing.core.units import Unit, unit_features

TEXTS = [
    "Find the SLA of the compute service. Then back up /home/user/data. Finally update shipment ZzRpnklbRL.",
    "Version 37.5 is out! Is it? Yes; fine.",
    "a.b c. d",
    "Hello!  World",
    "x ;y ; z",
    "¿Qué pasó? Sí. 你好。 世界",
    "one sentence only",
    "Ends with a dot.",
    "Dots... and more... things",
    "Q3 2016? FY2025! 1.750.000 units; 2,500 more.",
]


def _sentences_by_gap_search(units, tokens, text):
    """split_sentences as it was: one search of each gap between tokens."""
    if len(tokens) < 2:
        return ()
    sentence = [0] * len(tokens)
    n = 0
    for i in range(1, len(tokens)):
        if _SENTENCE_END.search(text, tokens[i - 1].end, tokens[i].start):
            n += 1
        sentence[i] = n
    if n == 0:
        return ()
    groups = [[] for _ in range(n + 1)]
    for u in units:
        groups[sentence[u.first]].append(u)
    out = []
    for g in groups:
        keys, extras = unit_features(g, tokens, text)
        if keys:
            out.append((tuple(keys), tuple(dict.fromkeys(extras))))
    return tuple(out) if len(out) > 1 else ()


@pytest.mark.parametrize("text", TEXTS)
def test_sentences_found_once_match_the_gap_search(text):
    norm = text.casefold()
    tokens = tokenize(norm)
    units = [Unit("literal", t.text, t.text, i, i + 1) for i, t in enumerate(tokens)]
    assert split_sentences(units, tokens, norm) == _sentences_by_gap_search(units, tokens, norm)


def test_sentences_are_split_at_all():
    norm = TEXTS[0].casefold()
    tokens = tokenize(norm)
    units = [Unit("literal", t.text, t.text, i, i + 1) for i, t in enumerate(tokens)]
    assert len(split_sentences(units, tokens, norm)) == 3
    assert regex.compile(_SENTENCE_END.pattern)  # the pattern is one terminal and one space


def test_tokens_and_units_made_by_the_fast_init_are_the_same_objects():
    t = Token("abc", 1, 4)
    assert (t.text, t.start, t.end) == ("abc", 1, 4)
    assert t == Token(text="abc", start=1, end=4) and hash(t) == hash(Token("abc", 1, 4))
    assert repr(t) == "Token(text='abc', start=1, end=4)"
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.text = "x"
    with pytest.raises(TypeError):
        Token("abc", 1)
    u = Unit("concept", "k", "surface", 0, 2)
    assert (u.via, u.kinds) == ("keyword", ())
    assert dataclasses.replace(u, via="fuzzy").via == "fuzzy"
    assert pickle.loads(pickle.dumps(u)) == u
    assert Unit("action", "a", "a", 1, 2, via="fuzzy", kinds=(("create", 1.0),)).kinds == (("create", 1.0),)


def test_words_are_the_tokens_of_the_normalised_text():
    text = "Show me ZzRpnklbRL's invoices, 2025-03-15 to 15/03!"
    assert words(text) == tuple(t.text for t in tokenize(text.casefold()))
    assert words(text) is words(text)  # kept: a route asks twice


def _arrays(seed: int) -> ExampleArrays:
    rng = random.Random(seed)
    n_tools = 60
    counts = [rng.choice([0, 1, 1, 2, 3, 7]) for _ in range(n_tools)]
    ranges, start = [], 0
    for c in counts:
        ranges.append((start, start + c))
        start += c
    n_examples = start
    vocab = [f"w{i}" for i in range(40)]
    word_postings = {}
    for w in vocab:
        ids = sorted(rng.sample(range(n_examples), rng.randint(1, max(1, n_examples // 3))))
        word_postings[w] = (np.array(ids, dtype=np.int64), np.array([rng.choice([0.5, 1.0, 1.5, rng.random() + 0.1]) for _ in ids]))
    return ExampleArrays({}, word_postings, ranges, n_tools, n_examples)


@pytest.mark.parametrize("seed", range(8))
def test_nearest_examples_by_the_padded_table_match_the_loop(seed):
    arrays = _arrays(seed)
    assert arrays.padded is not None
    rng = random.Random(100 + seed)
    for _ in range(20):
        words_only = rng.sample(list(arrays.word_postings), 6)
        leaders = rng.sample(range(arrays.n_tools), 12)
        fast = arrays.nearest(words_only, leaders, 2.0)
        padded, arrays.padded = arrays.padded, None
        try:
            loop = arrays.nearest(words_only, leaders, 2.0)
        finally:
            arrays.padded = padded
        assert fast == loop
        assert fast  # some leader shares a word
