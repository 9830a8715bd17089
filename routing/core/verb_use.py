"""A word read by where it stands (words.yaml `verb_use`).

English makes verbs of nouns: "I need to bill Ahmad Fauzi for 3 days of consulting", "please invoice the client"
ask to create an invoice, where "bill" alone names a supplier's bill; "the invoices we billed to Dewi" are invoices
(the past asks nothing). Indonesian "buat" is both make and for: "ada invoice buat CV Berkah?" (an invoice for CV
Berkah) asks for no invoice to be made. Every word here comes from the lexicon; this module knows positions only.
"""
from __future__ import annotations

import weakref
from dataclasses import replace

# what ends a clause between two words: a verb at a clause's start is read as at the question's start
CLAUSE_MARKS = frozenset(".,;:!?()[]\"'“”‘’—–>")
CREATE = (("create", 1.0),)  # the kind a term's verb asks (routing.core.model.KINDS)


def read_by_position(index, words: list[str], norm: str, starts: list[int], ends: list[int], units: list, capital,
                     read: list[str] | None = None) -> list:
    """`units` with a term's word used as a verb read as the creation of the term it names (its past as that term,
    asking nothing), and a verb that is also a value marker read as the marker between a term and a name. `read`:
    the words as the router read them ("invoce" as invoice), else `words`."""
    use = index.domain.words.verb_use
    said, triggers = _said(index, use)
    read = read or words
    if triggers.isdisjoint(words) and (read is words or triggers.isdisjoint(read)):
        return units  # most questions: no word of `verb_use` at all
    out = list(units)
    n = len(words)
    unit_at = {u.first: u for u in out}

    def opens(i: int) -> bool:  # the word begins its clause ("40,000" and "1.2" are one number, no clause)
        if i == 0:
            return True
        gap = norm[ends[i - 1]:starts[i]]
        if gap in (",", ".") and words[i - 1][-1:].isdigit() and words[i][:1].isdigit():
            return False
        return any(ch in CLAUSE_MARKS for ch in gap)

    def named(i: int) -> bool:  # typed with a capital, no record's number nor a term ("Acme"; not "INV-1044", "GST")
        return i < n and capital(i) and not any(ch.isdigit() for ch in norm[starts[i]:].split(None, 1)[0]) \
            and (unit_at.get(i) is None or unit_at[i].role != "concept")

    def after_cue(i: int) -> bool:  # one of `cues` ends right before word i, inside its clause
        return any(len(c) <= i and tuple(words[i - len(c):i]) == c and not any(opens(k) for k in range(i - len(c) + 1, i + 1))
                   for c in use.cues)

    def object_at(i: int) -> bool:  # what a verb takes: a pronoun, or a determiner before a term or a name
        if i >= n or opens(i):
            return False
        if words[i] in use.objects or named(i):
            return True
        if words[i] not in use.determiners:
            return False
        k = i + 1
        while k < n and not opens(k) and (unit_at.get(k) is None or unit_at[k].role == "stop"):
            k += 1
        u = unit_at.get(k)
        return u is not None and not opens(k) and (u.role == "concept" and not u.kinds or named(k))

    for j, u in enumerate(out):
        if u.last - u.first != 1:
            continue
        i = u.first
        if u.role == "concept" and use.words:
            term, past = _verb_of(index, said, words[i])
            if term is None:
                term, past = _verb_of(index, said, read[i])  # as read: "invoce" is invoice
            if term is None:
                continue
            entry = index.phrases.get((term,))
            if entry is None or not entry.concept:
                continue
            if past:
                # "we billed Acme", "invoices billed to Dewi": what was created, no request ("Acme billed us": theirs)
                if (not opens(i) and words[i - 1] in use.subjects) or (
                        i + 2 < n and words[i + 1] in use.recipients and not opens(i + 1) and named(i + 2)):
                    out[j] = replace(u, key=entry.concept, kinds=())
                continue
            if not object_at(i + 1):
                continue  # a verb takes its object: "to invoice INV-1044" names an invoice, "invoice this month" lists
            if after_cue(i) or (opens(i) and (words[i + 1] not in use.objects and not named(i + 1) or _marked(use, words, i + 2, n, opens))):
                out[j] = replace(u, key=entry.concept, kinds=CREATE)
        elif u.role == "action" and words[i] in use.markers and j and not opens(i) and out[j - 1].role == "concept" \
                and out[j - 1].last == i and _asks_of(out, j, norm, words, index.request_words):
            # "ada invoice buat CV Berkah?": the marker of a name after a term, no verb
            k = i + 1
            while k < n and not opens(k) and not named(k) and (unit_at.get(k) is None or not unit_at[k].kinds):
                k += 1
            if named(k) and not opens(k):
                out[j] = replace(u, role="stop", key=words[i], kinds=())
    return out


_SAID: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _said(index, use) -> tuple[dict, frozenset]:
    """`use.words` as a dict, and every word that may set the module to work (the words, their past forms, the
    markers); kept per index."""
    got = _SAID.get(index)
    if got is None:
        said = dict(use.words)
        got = _SAID[index] = (said, frozenset(said) | {w + e for w in said for e in index.past_endings} | use.markers)
    return got


def _asks_of(units: list, j: int, norm: str, words: list[str], requests: frozenset[str]) -> bool:
    """The question asks of what is there: a question mark, a verb of another kind than the one at j ("ada invoice
    buat CV Berkah?", "cariin invoice buat Pak Joko"), or no word of a request ("faktur buat Toko Sejahtera"); a
    request with no other verb ("tolong invoice buat PT Maju ya") still asks one made."""
    return "?" in norm or any(v.kinds and v.kinds != units[j].kinds for k, v in enumerate(units) if k != j) \
        or requests.isdisjoint(words)


def _verb_of(index, said: dict, word: str) -> tuple[str | None, bool]:
    """The term word `word` creates as a verb, and whether it is its past ("billed", "invoiced")."""
    if word in said:
        return said[word], False
    for ending in index.past_endings:
        if word.endswith(ending) and word[: -len(ending)] in said:
            return said[word[: -len(ending)]], True
    return None, False


def _marked(use, words: list[str], i: int, n: int, opens) -> bool:
    """One of `marks` follows in the same clause ("bill Acme Ltd for three days")."""
    while i < n and not opens(i):
        if words[i] in use.marks:
            return True
        i += 1
    return False
