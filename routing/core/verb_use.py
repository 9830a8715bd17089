"""A word read by where it stands (words.yaml `verb_use`).

English makes verbs of nouns: "I need to bill Ahmad Fauzi for 3 days of consulting", "please invoice the client"
ask to create an invoice, where "bill" alone names a supplier's bill; "the invoices we billed to Dewi" are invoices
(the past asks nothing). Indonesian "buat" is both make and for: "ada invoice buat CV Berkah?" (an invoice for CV
Berkah) asks for no invoice to be made. Every word here comes from the lexicon; this module knows positions only.
"""
from __future__ import annotations

from dataclasses import replace

# what ends a clause between two words: a verb at a clause's start is read as at the question's start
CLAUSE_MARKS = frozenset(".,;:!?()[]\"'“”‘’—–>")


def read_by_position(index, words: list[str], norm: str, starts: list[int], ends: list[int], units: list, capital) -> list:
    """`units` with a term's word used as a verb read as the creation of the term it names (its past as that term,
    asking nothing), and a verb that is also a value marker read as the marker between a term and a name."""
    use = index.domain.words.verb_use
    if not use.words and not use.markers:
        return units
    out = list(units)
    n = len(words)
    said = dict(use.words)

    def opens(i: int) -> bool:  # the word begins its clause
        return i == 0 or any(ch in CLAUSE_MARKS for ch in norm[ends[i - 1]:starts[i]])

    def named(i: int) -> bool:  # typed with a capital, no record's number ("Acme", not "INV-1044")
        return i < n and capital(i) and not any(ch.isdigit() for ch in norm[starts[i]:].split(None, 1)[0])

    for j, u in enumerate(out):
        if u.last - u.first != 1:
            continue
        i = u.first
        word = words[i]
        if u.role == "concept" and use.words:
            term, past = _verb_of(index, said, word)
            if term is None:
                continue
            entry = index.phrases.get((term,))
            if entry is None or not entry.concept:
                continue
            after = words[i + 1] if i + 1 < n else ""
            cue = not opens(i) and words[i - 1] in use.cues
            if past:
                # "we billed Acme", "invoices billed to Dewi": what was created, no request ("Acme billed us": theirs)
                if cue or (after in use.cues and not opens(i + 1)):
                    out[j] = replace(u, key=entry.concept, kinds=())
                continue
            if i + 1 >= n or opens(i + 1) or not (after in use.objects or named(i + 1)):
                continue  # a verb takes its object: "to invoice INV-1044" names an invoice
            if cue or (opens(i) and (after in use.objects or _marked(use, words, i + 2, n, opens))):
                out[j] = replace(u, key=entry.concept, kinds=(("create", 1.0),))
        elif u.role == "action" and word in use.markers and j and out[j - 1].role == "concept" and out[j - 1].last == i:
            # "invoice buat CV Berkah": the marker of a name after a term, no verb
            k = i + 1
            while k < n and not opens(k) and not named(k) and not any(v.kinds for v in out if v.first == k):
                k += 1
            if named(k) and not opens(k):
                out[j] = replace(u, role="stop", key=word, kinds=())
    return out


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
