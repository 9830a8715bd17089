"""The read-only index a Router is built on; the analysis of one query against it is
routing.core.analysis (RouterIndex.analyze).

Build once per lexicon version: phrase tables (synonyms, actions, vague and stop words), the
vocabulary the typo corrector may correct into, an inverted index of tool terms and one of
example questions. Per query: normalise, correct typos, find dates, group tokens into units.
"""
from __future__ import annotations

import math
from bisect import bisect_left
from collections import OrderedDict, defaultdict
from dataclasses import dataclass
from datetime import date

from rapidfuzz import process
from rapidfuzz.distance import OSA

from routing.core.enrich import ENRICHED_K1, ENRICHED_NEAREST_TOOLS, ENRICHED_TOOL_SHARE, enriched, name_words, tool_documents
from routing.core.enrich import derived_entries, described, fields_tf, tool_field_features
from routing.core.model import Domain, Tool
from routing.core.example_arrays import ExampleArrays
from routing.core.analysis import QueryAnalysis, analyze, read_word
from routing.core.patterns import check_regex
from routing.core.records import record_terms
from routing.core.framing import anchor_words, framing_spans
from routing.core.stems import Stems
from routing.core.text import bare_forms, uninflected_forms, words
from routing.core import slips
from routing.core.typos import MIN_CORRECTABLE_LEN, TypoTargets, fuzzy_cutoff, is_common, wordfreq_languages, zipf
from routing.core.wordcache import WORD_CACHE_LIMIT, remember as _remember
from routing.dates import DateLexicon, DateSettings

# Strength a verb lends to its kind: a plain verb ("list", "cari") vs one that could mean several
# kinds ("show", "tampilkan"). Weak is kept low so "show invoices" stays ambiguous, as it is.
STRONG_VERB = 1.0
WEAK_VERB = 0.3

# Weight of a tool's `related` terms (what it can filter by) against its `keywords` (what it is).
RELATED_WEIGHT = 0.75

# Mass of a word the lexicon does not know, relative to a concept (idf units): it dilutes the
# keyword score of tools that do not explain it, but less than a known concept would.
LITERAL_MASS = 0.6

# Example features beyond content words, in the tool documents (not the nearest-example cosine):
# stop words ("~your": "change my name" is not "change your name"; "what can you do" has nothing
# else) and number shapes ("#num", "#pct"). A stop word weighs as a word of its rarity: its idf
# over tools already makes a common one cheap (measured on public data: 1.0 beat 0.3 and 0.6 on
# every figure of scripts/measure.py).
STOP_FEATURE_WEIGHT = 1.0

@dataclass(frozen=True, slots=True)
class Entry:
    """What a word or phrase means to the router. One phrase may have several roles."""

    concept: str | None = None
    kinds: tuple[tuple[str, float], ...] = ()
    vague: bool = False
    stop: bool = False


def term_holders(tools) -> dict[str, frozenset[int]]:
    """Per term, the tools whose keywords or related terms hold it (RouterIndex keeps it as `term_holders`)."""
    out: dict[str, set[int]] = defaultdict(set)
    for i, t in enumerate(tools):
        for c in (*t.keywords, *t.related):
            out[c].add(i)
    return {c: frozenset(ids) for c, ids in out.items()}


@dataclass(frozen=True)
class CompiledPattern:
    index: int
    tool: int
    keys: tuple[str, ...] = ()  # phrase: content keys in order
    terms: frozenset[str] = frozenset()
    regex: object | None = None
    weight: float = 1.0
    params: tuple = ()
    label: str = ""
    order: tuple[str, ...] = ()  # terms named in this order where named (routing.core.model.Pattern.order)

    def in_order(self, units) -> bool:
        """Whether the question (its `units`) names those of `order`'s terms it names in that order."""
        if not self.order:
            return True
        named = list(dict.fromkeys(u.key for u in units if u.role == "concept" and u.key in self.order))
        return named == [t for t in self.order if t in named]


class RouterIndex:
    def __init__(self, domain: Domain, date_lexicon: DateLexicon):
        self.domain = domain
        self.date_lexicon = date_lexicon
        s = domain.settings
        self.date_settings = DateSettings.of(s)
        self.tools: tuple[Tool, ...] = domain.tools
        self.tool_index = {t.name: i for i, t in enumerate(self.tools)}
        self.kinds = tuple(sorted({t.kind for t in self.tools}))
        self.tool_kind = [self.kinds.index(t.kind) for t in self.tools]  # per tool, its kind's place in `kinds`
        self.segmented = False  # questions are split into sentences (an enriched domain, once built)
        # Per word, how analyze() reads it (routing.core.analysis), without / with typo correction:
        # (word -> its reading, word -> (reading, correction)); and how group_units() starts a unit on it.
        self.word_readings: dict[bool, tuple[dict, dict]] = {False: ({}, {}), True: ({}, {})}
        self.unit_words: dict = {}
        # read while the build analyses descriptions and examples too (routing.core.aside), so set first
        self.description_words: frozenset[str] = frozenset()
        self._real_word_cache: OrderedDict[str, bool] = OrderedDict()
        self._real_word_languages = wordfreq_languages(domain.settings.languages)
        self._build_phrases()
        self._build_tool_terms()
        self._build_examples()
        self._build_patterns()
        self.segmented = enriched(domain)
        self._correction_cache: OrderedDict[str, tuple[str, float] | None] = OrderedDict()
        self._read_known_words()

    # ------------------------------------------------------------ build

    def _read_known_words(self) -> None:
        """Each word the domain knows, read at build as a route reads it (analysis.read_word, typos
        corrected): a known word's reading is a function of the word and the index (it never reaches
        the typo path), so a question's words of the catalog cost one look-up from its first route.
        The build's own analyses read without correction and fill the other cache. At most half the
        bounded cache, in A-Z order (the same words in every process)."""
        plain = self.word_readings[True][0]
        room = WORD_CACHE_LIMIT // 2
        for w in sorted(self.known):
            if len(plain) >= room:
                break
            if w not in plain:
                new, fix = read_word(self, w, True)
                if fix is None:
                    plain[w] = new

    def _build_phrases(self) -> None:
        table: dict[tuple[str, ...], dict] = defaultdict(dict)
        d = self.domain
        for canonical, variants in d.synonyms:
            for form in (canonical, *variants):
                key = words(form)
                if key:
                    table[key]["concept"] = canonical
        table.update({k: {"concept": c} for k, c in uninflected_forms(table, d.words.suffixes)})  # "page views" read as "page view" too
        if self._real_word_languages:  # "visitor" read as the listed "visitors" (routing.core.text.bare_forms)
            table.update({k: {"concept": c} for k, c in bare_forms(table, d.words.suffixes, self.frequency)})
        for verb, kind, strength in d.words.actions:
            entry = table[verb].setdefault("kinds", {})
            entry[kind] = max(entry.get(kind, 0.0), STRONG_VERB if strength >= 1.0 else WEAK_VERB)
        for w in d.settings.vague_words:
            table[words(w)]["vague"] = True
        for w in d.words.stopwords:
            table[tuple(w.split())]["stop"] = True
        for w in d.settings.other_senses:  # "train ticket": no ticket of the domain's
            table[words(w)] = {"stop": True}
        self.phrases: dict[tuple[str, ...], Entry] = {
            k: Entry(
                concept=v.get("concept"),
                kinds=tuple(sorted(v.get("kinds", {}).items())),
                vague=v.get("vague", False),
                stop=v.get("stop", False) and not v.get("concept") and not v.get("kinds"),
            )
            for k, v in table.items()
            if k
        }
        self.max_phrase = max((len(k) for k in self.phrases), default=1)
        self.phrase_firsts = frozenset(k[0] for k in self.phrases if len(k) > 1)  # first words of phrases of 2+ words
        self.canonical_form = {canonical: " ".join(words(canonical)) for canonical, _ in d.synonyms}
        self.canonical_words = frozenset(f for f in self.canonical_form.values() if " " not in f)
        known = {w for k in self.phrases for w in k}
        self.phrase_words = frozenset(known)
        self.slips = slips.build(self.phrases)  # split and swapped words of its terms (routing.core.slips)
        known |= set(self.date_lexicon.vocabulary())
        for t in self.tools:
            known.update(w for w in t.name.replace("_", " ").split())
            for _, ex in t.examples:
                known.update(words(ex))
            if enriched(d):
                for ex in tool_documents(t):
                    known.update(words(ex))
        for p in d.patterns:
            if p.phrase:
                known.update(words(p.phrase))
        self.known = frozenset(w for w in known if not any(ch.isdigit() for ch in w))
        senses = {words(w) for w in d.settings.other_senses}  # their words stay typo targets ("tickt" is ticket)
        stops = {w for k, e in self.phrases.items() if e.stop and k not in senses for w in k}
        # Word forms: an unknown word read as the known word with its stem (see routing.core.stems).
        # An irregular form of a verb that asks for something ("sent" of send) states what was done: no action.
        irregular = tuple((f, b) for f, b in d.words.irregular if not (self.phrases.get((b,)) and self.phrases[(b,)].kinds))
        self.stems = Stems(d.settings.languages, self.known, irregular)
        self.fuzzy_targets = sorted(w for w in self.known if len(w) >= MIN_CORRECTABLE_LEN - 1 and w not in stops)
        self._typo_targets = TypoTargets(self.fuzzy_targets)  # the same, by length: a typo is compared with fewer
        self.vowels = d.words.vowels
        # a word the domain knows stays itself; a shorthand of a shorthand (a chain, a cycle) is read as written
        keys = {f for f, _ in d.words.shorthand}
        self.shorthand = {f: w for f, w in d.words.shorthand if f not in self.phrase_words and w not in keys}
        self.past_endings = tuple(d.words.past)  # words.yaml `past`: "issued" is no request to issue
        self.record_terms = record_terms(self.tools)  # terms a number right after them numbers a record of (routing.core.records)
        # the words without one of which a question has no clause to set aside (routing.core.framing):
        # a contrast word, a purpose's words, or a preface's first word at the question's start
        w = d.words
        self.message_anchors = anchor_words(w.message_content)  # what a message to be sent says (routing.core.framing.message_content)
        self.clause_words = w.contrast_before | w.contrast_after | anchor_words(w.purpose) | anchor_words(w.purpose_within) | self.message_anchors
        self.request_words = anchor_words(w.request)  # a request's words: a statement may come before it (routing.core.background)
        self.preface_firsts = frozenset().union(*(t[0].words for t in w.preface if t[0].words is not None))
        if any(t[0].optional or t[0].words is None for t in w.preface):
            self.clause_words = None  # a preface may start with any word: every question is split
        # A domain whose own examples ask how to do a thing ("how do I activate my card?") answers such
        # questions: the how-to rule (words.yaml `advice`) is for domains that answer none.
        self.advice = () if d.words.advice and any(
            framing_spans(words(ex), d.words.advice, d.words.advice_anchors) for t in self.tools for _, ex in t.examples) else d.words.advice
        self.reduplication = d.words.reduplication
        self._abbreviated: dict[tuple[str, str], list[str]] = defaultdict(list)  # (first, last letter) -> words, shortest first
        for w in sorted(self.fuzzy_targets, key=len):
            if w.isalpha():
                self._abbreviated[(w[0], w[-1])].append(w)
                if w[-1] in self.vowels:  # a final vowel goes too: "blnc" is balance
                    self._abbreviated[(w[0], w[-2])].append(w)
        # the terms a clipped word may stand for ("cust" -> customer; RouterIndex.clipped), in order
        self._clip_terms = sorted(w for w in self.fuzzy_targets if w.isalpha() and getattr(self.phrases.get((w,)), "concept", None))
        self.suffixes = d.words.suffixes
        self._lemma_cache: dict[str, str | None] = {}  # lemma() per word: phrase words and suffixes are final here

    def _build_tool_terms(self) -> None:
        self.tool_terms: list[dict[str, float]] = []
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for i, t in enumerate(self.tools):
            terms: dict[str, float] = {}
            for c in t.related:
                terms[c] = RELATED_WEIGHT
            for c in t.keywords:
                terms[c] = 1.0
            if not t.keywords:
                # No explicit keywords (e.g. an imported domain): the tool's name says what it is.
                for key in self.content_keys(name_words(t.name) if enriched(self.domain) else t.name.replace("_", " ")):
                    terms.setdefault(key, 1.0)
            self.tool_terms.append(terms)
            for c, w in terms.items():
                postings[c].append((i, w))
        n = max(len(self.tools), 1)
        self.term_holders = term_holders(self.tools)  # routing.core.sole reads it: no scan of every tool a question
        # What each tool's description says in the domain's words (routing.core.enrich.described): its
        # terms are held, its other words explain a question's words for the keyword signal.
        self.described_words: list[dict[str, float]] = []  # empty: none (an enriched domain's are documents)
        if not enriched(self.domain):
            named, self.described_words = described(self, self.tools)
            self.term_holders = {c: self.term_holders.get(c, frozenset()) | named.get(c, frozenset())
                                 for c in self.term_holders.keys() | named.keys()}
        self.description_words = frozenset().union(*self.described_words)  # every tool's, in one set
        self.term_postings = dict(postings)
        self.term_idf = {c: math.log(1.0 + n / len(p)) for c, p in postings.items()}

    def _build_examples(self) -> None:
        """Index the example questions twice, both as postings (never a loop over every example):

        - per tool, a BM25 "tool document": a feature's term frequency is the number of the tool's
          examples that contain it (saturating at k1), its idf counts tools, not examples, so a word
          every tool's examples use says little; long tools are normalised (b) so volume never wins;
        - per example, an idf-weighted unit vector, to name the nearest example question and to
          reward a near-duplicate.
        Features are content keys (inflections folded onto a key the examples use) plus bigrams of
        consecutive keys, which keep some word order ("card not working" vs "not card")."""
        k1, b = 3.0, 0.75
        EXAMPLES_HALF_TRUST = 40  # examples per tool at which tool document and nearest example weigh alike
        BIGRAM_WEIGHT = 0.5  # word order helps, but one shared word pair must not outvote the words
        self.example_k1 = k1
        self.example_nearest_tools = 10  # nearest-example cosine is computed for this many leaders
        self.example_unseen_share = 0.25  # an unseen query word weighs a quarter of a rare one
        self.example_tool: list[int] = []
        self.example_text: list[str] = []
        key_lists: list[list[str]] = []
        extra_lists: list[tuple[str, ...]] = []
        enrich = enriched(self.domain)
        fields: list[list[tuple[str, str, list[str], list[str]]]] = []  # enriched: per tool, (field, text, keys, extras)
        from_example: list[bool] = []  # per entry: an example question (True) or derived from the tool's fields
        for i, t in enumerate(self.tools):
            entries = [(ex, list(ea.keys), list(ea.extras), True) for _, ex in t.examples
                       for ea in (self.analyze(ex, today=date(2000, 1, 1), correct=False),)]
            if enrich:
                fields.append(tool_field_features(self, t))
                entries += [(text, keys, extras, False) for text, keys, extras in derived_entries(fields[-1])]
            for ex, keys, extras, real in entries:
                if keys or extras:
                    self.example_tool.append(i)
                    self.example_text.append(ex)
                    key_lists.append(keys)
                    extra_lists.append(tuple(extras))
                    from_example.append(real)
        self.example_vocab = frozenset(k for keys in key_lists for k in keys)
        self._fold_cache: dict[str, str | None] = {}  # _fold_example_key() per key, now that the vocabulary is final
        self._folded: dict[str, str] = {}  # example_features' form of each key (_fold_example_key() or the key)
        bags = [set(self.example_features(keys, extras)) for keys, extras in zip(key_lists, extra_lists)]
        vw = self.domain.settings.weights.example_verb_weight
        self.example_verbs = frozenset(" ".join(k) for k, e in self.phrases.items() if e.kinds and not e.concept)
        n_tools = max(len(self.tools), 1)
        n_examples = max(len(bags), 1)
        tool_tf: list[dict[str, int]] = [defaultdict(int) for _ in self.tools]
        example_df: dict[str, int] = defaultdict(int)
        for e, bag in enumerate(bags):
            tf = tool_tf[self.example_tool[e]]
            for f in bag:
                if from_example[e]:
                    tf[f] += 1
                example_df[f] += 1
        if enrich:  # the tool document is the tool's fields and examples, BM25F (routing.core.enrich)
            k1 = self.example_k1 = ENRICHED_K1
            tool_tf = fields_tf(self, tool_tf, fields)
        tool_df: dict[str, int] = defaultdict(int)
        for tf in tool_tf:
            for f in tf:
                tool_df[f] += 1

        def verb_weight(f: str) -> float:
            if f[0] == "~":
                return STOP_FEATURE_WEIGHT
            return BIGRAM_WEIGHT if "+" in f else (vw if f in self.example_verbs else 1.0)

        self.example_idf = {f: math.log(1.0 + n_tools / d) * verb_weight(f) for f, d in tool_df.items()}
        self.unseen_idf = math.log(1.0 + n_tools)
        n_per_tool = [0] * len(self.tools)
        for ti in self.example_tool:
            n_per_tool[ti] += 1
        avg = n_examples / max(sum(1 for c in n_per_tool if c), 1)
        # A tool's examples as one document say more the more of them there are: with a handful
        # per tool the nearest example carries the signal, with a hundred the tool document does.
        self.example_tool_share = avg / (avg + EXAMPLES_HALF_TRUST)
        if enrich:  # entries derived from descriptions: see routing.core.enrich
            self.example_tool_share = max(self.example_tool_share, ENRICHED_TOOL_SHARE)
            self.example_nearest_tools = ENRICHED_NEAREST_TOOLS
        postings: dict[str, list[tuple[int, float]]] = defaultdict(list)
        for ti, tf in enumerate(tool_tf):
            norm_len = k1 if enrich else k1 * (1 - b + b * n_per_tool[ti] / avg)  # enriched: normalised per field
            for f, c in tf.items():
                postings[f].append((ti, self.example_idf[f] * c * (k1 + 1) / (c + norm_len)))
        self.example_postings = dict(postings)
        # Nearest example: unit vectors of its words over example-level idf, reachable by (tool, word).
        # (content words only: stop words and number shapes speak through the tool document above)
        self.example_vec_idf = {f: math.log(1.0 + n_examples / d) * verb_weight(f) for f, d in example_df.items() if "+" not in f and f[0] not in "~#"}
        self.example_vec_unseen = math.log(1.0 + n_examples)
        by_tool_feature: dict[tuple[int, str], list[tuple[int, float]]] = defaultdict(list)
        for e, bag in enumerate(bags):
            words_only = [f for f in bag if "+" not in f and f[0] not in "~#"]  # as in the nearest-example signal of old
            norm = math.sqrt(sum(self.example_vec_idf[f] ** 2 for f in words_only)) or 1.0
            for f in words_only:
                by_tool_feature[(self.example_tool[e], f)].append((e, self.example_vec_idf[f] / norm))
        self.example_by_tool_feature = dict(by_tool_feature)
        # The same as arrays, for a domain with many examples (None: score_example loops as above).
        self.example_arrays = ExampleArrays.build(self.example_tool, self.example_postings, self.example_by_tool_feature, self.example_vec_idf, len(self.tools))

    def example_features(self, keys, extras=()) -> list[str]:
        """Unigram keys ("cards" folded onto "card" when the examples use "card"), bigrams ("a+b")
        and the weaker extras (stop words, number shapes)."""
        folded = list(map(self._folded.get, keys))  # each key's example form, kept per key (a look-up a key)
        if None in folded:
            folded = [f if f is not None else _remember(self._folded, k, self._fold_example_key(k) or k) for f, k in zip(folded, keys)]
        return folded + list(map("+".join, zip(folded, folded[1:]))) + list(extras)  # "+".join((x, y)) == f"{x}+{y}"

    def _fold_example_key(self, key: str) -> str | None:
        if key in self._fold_cache:
            return self._fold_cache[key]
        found = next((cand for cand, _, _ in self.unsuffixed(key) if cand in self.example_vocab), None)
        return _remember(self._fold_cache, key, found)

    def unsuffixed(self, word: str, min_stem: int = 3):
        """(candidate, suffix, replacement) for each of the language's suffixes `word` ends with:
        "invoices" -> ("invoice", "s", ""), ... The one place suffixes are folded."""
        for suffix, repl in self.suffixes:
            if word.endswith(suffix) and len(word) - len(suffix) >= min_stem:
                yield word[: len(word) - len(suffix)] + repl, suffix, repl

    def _build_patterns(self) -> None:
        self.patterns: list[CompiledPattern] = []
        by_first: dict[str, list[int]] = defaultdict(list)
        for i, p in enumerate(self.domain.patterns):
            tool = self.tool_index[p.tool]
            if p.phrase:
                units = self.analyze(p.phrase, today=date(2000, 1, 1), correct=False).units
                keys = tuple(u.key for u in units if u.role not in ("date", "number"))
                cp = CompiledPattern(i, tool, keys=keys, weight=p.weight, params=p.params, label=p.label, order=p.order)
                if cp.keys:
                    by_first[cp.keys[0]].append(i)
            elif p.terms:
                cp = CompiledPattern(i, tool, terms=frozenset(p.terms), weight=p.weight, params=p.params, label=p.label, order=p.order)
            else:
                cp = CompiledPattern(i, tool, regex=check_regex(p.regex), weight=p.weight, params=p.params, label=p.label)
            self.patterns.append(cp)
        self.phrase_by_first = dict(by_first)
        self.term_patterns = [cp for cp in self.patterns if cp.terms]
        self.regex_patterns = [cp for cp in self.patterns if cp.regex is not None]

    # ------------------------------------------------------------ per query

    def correct(self, word: str) -> tuple[str, float] | None:
        """The known word `word` is a typo of, with its score; None if it is no typo of ours."""
        if word in self._correction_cache:
            return self._correction_cache[word]
        best = None
        if len(word) >= MIN_CORRECTABLE_LEN and not any(ch.isdigit() for ch in word):
            cutoff = fuzzy_cutoff(len(word))
            # Optimal string alignment: a swap of two letters is one edit, like a wrong, missing or
            # extra letter. RapidFuzz runs it in C over the whole vocabulary.
            # RapidFuzz turns a similarity cutoff into a distance one (1 - 0.8 = 0.19999...), which
            # drops a score exactly at the cutoff ("monht" -> "month", 0.8): ask a hair below, keep >=.
            found = process.extract(word, self._typo_targets.choices(word, cutoff / 100), scorer=OSA.normalized_similarity,
                                    score_cutoff=cutoff / 100 - 1e-6, limit=8)
            found = [f for f in found if round(f[1] * 100, 6) >= cutoff and (len(word) >= 7 or f[0][0] == word[0])]
            if found:
                # Best score; on a tie, the same letters swapped (the commonest typo: "salse" is "sales",
                # not "sabse"), a canonical term, then a word of the same length, then A-Z.
                letters = sorted(word)
                pick = min(found, key=lambda f: (-round(f[1], 6), sorted(f[0]) != letters, f[0] not in self.canonical_words, abs(len(f[0]) - len(word)), f[0]))
                best = (pick[0], round(float(pick[1]) * 100, 1))
        if len(self._correction_cache) >= WORD_CACHE_LIMIT:
            self._correction_cache.popitem(last=False)
        self._correction_cache[word] = best
        return best

    def abbreviation(self, word: str) -> tuple[str, float] | None:
        """The known word `word` is a chat abbreviation of ("mnth" -> "month"), with its score: `word`
        is its first letter and consonants (the languages' `vowels` dropped), the known word the
        shortest (at most 2.5x as long) that holds its letters in order from the same first to the same
        last (or last but a final vowel); None if there is none, or several of that length."""
        n = len(word)
        if not self.vowels or n < 3 or not (word.isascii() and word.isalpha()) or any(ch in self.vowels for ch in word[1:]):
            return None
        found = None
        for w in self._abbreviated.get((word[0], word[-1]), ()):
            if len(w) <= n:
                continue
            if 2 * len(w) > 5 * n or (found is not None and len(w) > len(found)):  # at most 2.5x: "tlg" is no "trailing"
                break
            rest = iter(w)
            if all(ch in rest for ch in word):  # a subsequence: each letter found after the last
                if found is not None:
                    return None  # two words of that length: no telling which
                found = w
        return None if found is None else (found, round(OSA.normalized_similarity(word, found) * 100, 1))

    def clipped(self, word: str) -> tuple[str, float] | None:
        """The term of the domain `word` is the start of ("cust" -> customer, "prod" -> product, "bal" ->
        balance), with its score: at least 3 letters kept and 2 dropped, at most a third of the term kept;
        the shortest such term, None if there is none, or two of that length that are different terms."""
        n = len(word)
        if n < 3 or not (word.isascii() and word.isalpha()):
            return None
        found, other = None, False
        terms = self._clip_terms
        for t in (terms[i] for i in range(bisect_left(terms, word), len(terms))):  # no copy of the list's tail
            if not t.startswith(word):
                break
            if not n + 2 <= len(t) <= 3 * n:
                continue
            if found is None or len(t) < len(found):
                found, other = t, False
            elif len(t) == len(found) and self.phrases[(t,)].concept != self.phrases[(found,)].concept:
                other = True
        return None if found is None or other else (found, round(OSA.normalized_similarity(word, found) * 100, 1))

    def frequency(self, word: str) -> float:
        """The word's highest Zipf frequency in the domain's languages (wordfreq; 0.0 without it)."""
        return max((zipf(word, lang) for lang in self._real_word_languages or ()), default=0.0)

    def is_real_word(self, word: str) -> bool:
        """A common word of one of the domain's languages is never a typo of ours ("pending" is
        not "spending", "salaries" not "saari"). Word frequencies come from wordfreq, when present."""
        if self._real_word_languages is None:
            return False
        hit = self._real_word_cache.get(word)
        if hit is None:
            hit = any(is_common(word, lang) for lang in self._real_word_languages)
            if len(self._real_word_cache) >= WORD_CACHE_LIMIT:
                self._real_word_cache.popitem(last=False)
            self._real_word_cache[word] = hit
        return hit

    def is_past_form(self, word: str) -> bool:
        """Whether `word` is the past of a verb that asks ("issued" of issue; words.yaml `past`): it states what
        was done, read as a stop word (routing.core.units; a function of the word and the index, so kept per word)."""
        if not self.past_endings or not word.endswith(self.past_endings) or not self.stems:
            return False
        form = self.stems.known_form(word)
        return form is not None and self.asks_only(self.lemma(form) or form)

    def asks_only(self, word: str) -> bool:
        """Whether `word` is a verb that asks for a kind of tool and names no term (words.yaml `actions`)."""
        entry = self.phrases.get((word,))
        return entry is not None and bool(entry.kinds) and entry.concept is None

    def entry(self, word: str):
        """How the lexicon reads one word on its own (its lemma's entry, else its own; None: unknown)."""
        return self.phrases.get((self.lemma(word) or word,)) or self.phrases.get((word,))

    def lemma(self, word: str) -> str | None:
        """A known word that `word` is an inflection of ("invoices" -> "invoice"), if any."""
        if word in self._lemma_cache:
            return self._lemma_cache[word]
        found = next((cand for cand, _, _ in self.unsuffixed(word) if cand in self.phrase_words), None)
        return _remember(self._lemma_cache, word, found)

    def content_keys(self, text: str) -> list[str]:
        """Content keys of a clean text (a lexicon entry or example): no typo correction."""
        return list(self.analyze(text, today=date(2000, 1, 1), correct=False).keys)

    def analyze(self, query: str, *, today: date, correct: bool = True, with_dates: bool = True) -> QueryAnalysis:
        """Normalise, read each word (typos corrected), find dates, group units (routing.core.analysis)."""
        return analyze(self, query, today=today, correct=correct, with_dates=with_dates)
