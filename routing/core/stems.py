"""Word forms as a fallback: a query word the domain has never seen ("transferring") is read as
the known word with the same Snowball stem ("transfer"), through PyStemmer.

Only unknown words are stemmed, and only onto words the domain already uses: stemming every word
merged words of different meaning ("general"/"generate", "organ"/"organise") and taught the router
to accept off-topic questions. Which stemmer serves which language is a setting of the stemmer
library, not a word of the language."""
from __future__ import annotations

try:  # optional: without PyStemmer, unknown words simply stay unknown
    import Stemmer as _stemmer
except ImportError:  # pragma: no cover - exercised only where PyStemmer is missing
    _stemmer = None
try:  # optional: Sastrawi undoes Indonesian nasal prefixes Snowball keeps ("mengirim" -> "kirim")
    from Sastrawi.Stemmer.StemmerFactory import StemmerFactory as _SastrawiFactory
except ImportError:  # pragma: no cover
    _SastrawiFactory = None

# ISO 639-1 code -> Snowball algorithm (those PyStemmer ships and our languages use).
ALGORITHMS = {"en": "english", "id": "indonesian", "es": "spanish", "fr": "french", "de": "german", "pt": "portuguese", "it": "italian", "nl": "dutch"}
DICTIONARY_STEMMERS = {"id"}  # languages Sastrawi (dictionary-based) also stems, after Snowball
MIN_STEM = 3  # a stem shorter than this says too little to stand for a word
MIN_PREFIXED = 4  # ... and where a prefix went too ("dibayar" -> bayar; "kumar" is no ku- + mar)
MIN_DERIVED = 4  # the same for the weaker derived reading ("busy" is not "bus")


def stemmers(languages) -> list:
    """The stem functions (word -> stem) serving the languages, in their order; empty without PyStemmer."""
    out = []
    available = set(_stemmer.algorithms()) if _stemmer is not None else set()
    for lang in languages:
        algo = ALGORITHMS.get(lang)
        if algo in available:
            out.append(_stemmer.Stemmer(algo).stemWord)
        if lang in DICTIONARY_STEMMERS and _SastrawiFactory is not None:
            out.append(_SastrawiFactory().create_stemmer().stem)
    return out


class Stems:
    """Maps a stem to the known word it stands for, per domain language."""

    def __init__(self, languages, vocabulary, irregular=()):
        self._stemmers = stemmers(languages)  # functions word -> stem
        # "spent" -> spend (words.yaml `irregular`): a form no stemmer finds, read as its word where the domain knows it
        self._irregular = {form: base for form, base in irregular if form not in vocabulary}
        self._vocabulary = vocabulary
        self._known: list[dict[str, str]] = []
        for st in self._stemmers:
            table: dict[str, str] = {}
            for w in sorted(vocabulary, key=lambda x: (len(x), x)):  # the shortest known form wins
                s = st(w)
                if len(s) >= MIN_STEM:
                    table.setdefault(s, w)
            self._known.append(table)
        self._cache: dict[str, str | None] = {}

    def __bool__(self) -> bool:
        return bool(self._stemmers or self._irregular)

    def _base(self, word: str) -> str | None:
        """The known word an irregular form stands for: its base, or the known word of the base's stem."""
        base = self._irregular.get(word)
        if base is None or base in self._vocabulary:
            return base
        return next((table[st(base)] for st, table in zip(self._stemmers, self._known) if st(base) in table), None)

    def known_form(self, word: str) -> str | None:
        """The known word sharing `word`'s stem in one of the languages (the first that has one),
        if it is no longer than `word`: an inflected or derived form read as its base."""
        if word in self._cache:
            return self._cache[word]
        found = self._base(word) if word in self._irregular else None
        if found is None and not any(ch.isdigit() for ch in word):
            for st, table in zip(self._stemmers, self._known):
                s = st(word)
                # Only towards a form no longer than the word: "transferring" -> "transfer", never
                # "good" -> "goods" or "jual" -> "penjualan" (a shorter word is its own meaning).
                # A stem that lost a prefix is a word of its own below MIN_PREFIXED letters: "Kumar" is a
                # name, no ku- + "mar" (March)
                if len(s) >= (MIN_STEM if word[:2] == s[:2] else MIN_PREFIXED) and s in table and table[s] != word \
                        and len(table[s]) <= len(word):
                    found = table[s]
                    break
        if len(self._cache) > 50_000:
            self._cache.clear()
        self._cache[word] = found
        return found

    def derived_form(self, word: str) -> str | None:
        """A weaker reading, for a word with no known_form: where the stemmer rewrote the word's
        ending ("rainy" -> "raini", not a prefix of the word), the stem less that rewritten last
        letter, if it is a known word's stem of at least MIN_DERIVED letters ("rain")."""
        key = "\0" + word
        if key in self._cache:
            return self._cache[key]
        found = None
        if not any(ch.isdigit() for ch in word):
            for st, table in zip(self._stemmers, self._known):
                s = st(word)
                if not word.startswith(s) and len(s) > MIN_DERIVED and s[:-1] in table and len(table[s[:-1]]) < len(word):
                    found = table[s[:-1]]
                    break
        if len(self._cache) > 50_000:
            self._cache.clear()
        self._cache[key] = found
        return found
