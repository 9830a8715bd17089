"""Statements a question makes before it asks (issue 22, held-out set 44: a finance intern's background first).

"Mrs Pemberton rang this morning asking about something we billed her for. Could you find the invoices made
out to Mrs Joan Pemberton, please?" asks for invoices: the clauses before the first request (words.yaml
`request`: "could you", "please", "tolong", Hindi's verb-final "dikhao") or question are background where each
tells something (`_tells`) and the ask names a term of its own and refers back to nothing (words.yaml
`anaphora`: "it", "also", "juga", "-nya"). routing.core.aside.set_aside finds them (statements_before);
analyze reads their terms and verbs as stop words (background_read); their dates give way to the ask's.
Which clauses: routing.core.framing.background_clauses. No language's words here: they are in words.yaml."""
from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from routing.core.framing import CLAUSE_END, SENTENCE_END, background_clauses, inside

# What a statement made before the ask loses: its terms, verbs and vague words; its names, amounts and
# dates stay (a parameter may be said there: "Received 75k from Sinha Traders. Please record the payment"),
# its own words and numbers marked `told` (background_read)
BACKGROUND_ROLES = ("concept", "action", "vague")


def background_read(units, background, source: str, norm: str, starts: list[int], ends: list[int], cased, tools=()) -> list:
    """`units` with the terms, verbs and vague words of the `background` spans read as stop words, keyed by their
    words (no phrase pattern reads "accounts payable" there as "what do I owe"). A name typed with a capital inside
    its sentence stays ("There is an old MariaDB database ...: would you run a query"), and so does a term that is
    a tool's own name (`tools`: "the orders table in mysql is big. could you count the rows?"): what the statement
    names may be the very thing asked of. Words of its own, names, numbers and amounts stay (dropping its lower-case
    words as well, tried: labelled sets 0 fixed / 1 lost, sealed set 44 one lost); those are marked `told`, no search
    text where the ask names its own (routing.core.params.argument_text). `cased`: the cased token spans of
    a text that is not ASCII (None for ASCII; () when they do not align, and then no capital is seen)."""
    def named(u) -> bool:
        if u.key in tools:
            return True
        if u.first == 0 or cased == () or u.role != "literal":  # a term typed in capitals ("WA", "GST") is still a term
            return False
        first = source[starts[u.first]] if cased is None else cased[u.first][0][:1]
        return first.isupper() and not SENTENCE_END.search(norm[ends[u.first - 1]:starts[u.first]])
    return [_read(u, background, named) for u in units]


def _read(u, background, named):
    """One unit as background_read reads it."""
    if not inside((u.first, u.last), background):
        return u
    if named(u):  # kept, as a parameter may be said there; no name the ask points a search at
        return replace(u, told="name") if u.role == "literal" else u
    if u.role in BACKGROUND_ROLES:
        return replace(u, role="stop", key=u.surface, kinds=())
    return replace(u, told="word") if u.role in ("literal", "number") else u


def statements_before(index, words: list[str], norm: str, starts: list[int], ends: list[int], date_at, parts, framed,
                      capital=None) -> tuple[list[tuple[int, int]], set]:
    """(background spans, the date ranges they drop) of a question split into `parts` (clauses); ([], set()) for
    none. `capital(i)`: word i is typed with a capital (capital_of)."""
    w = index.domain.words
    n = len(words)
    in_date = {i for a, b in date_at for i in range(a, b)}

    @lru_cache(maxsize=None)  # asked of the first clause while looking for the ask, and again for its dates
    def stated(lo: int, hi: int) -> bool:
        """The clause opens with a word of content none of the domain's and holds no verb of the domain ("prepping for
        the review", "mau rencanain modal kerja"; "disuruh cek utang ke pemasok" asks to check)."""
        if _opens_question(w, words, lo, hi):
            return False
        first = next((i for i in range(lo, hi) if words[i] not in w.stopwords and i not in in_date), None)
        if first is None or not words[first].isalpha() or words[first] in index.known or index.entry(words[first]) is not None:
            return False
        if any(_opens(index, words, i) for i in range(lo, hi) if i not in in_date):
            return False
        return index.is_real_word(words[first]) or not index.correct(words[first])  # "recievables" is a term mistyped
    before, ask = background_clauses(words, parts, w.request, norm, starts, ends, w.stopwords, framed, lambda ws, i: _opens(index, ws, i),
                                     stated)
    if not before:
        return [], set()
    if ":" in norm[ends[ask - 1]:starts[ask]] and _opens_question(w, words, *before[-1]):
        before = before[:-1]  # a question before a colon, its options after it ("who has more goals: A or B?"), asks
        if not before:
            return [], set()
    asked = [words[i] for i in range(ask, n) if i not in in_date]
    refers = _suffixes(w.anaphora)
    if any(x in w.anaphora or (refers and len(x) > 4 and _refers(index, x, refers)) for x in asked) \
            or not (names_term(index, asked) or _asks_of_other(index, words, norm, starts, ends, ask)) \
            or not all(any(_tells(index, words, c, framed, date_at, capital) for c in s) for s in _sentences(before, norm, starts, ends)):
        return [], set()
    # a statement's date where the ask names its own is no date of the ask ("The audit is in March. Could you show
    # the bank balance for December?"); its words are no name. A statement only a comma parts from the ask drops its
    # date where it says who asked ("My manager wants ... before the audit next week, so could you list the invoices
    # of last month"); "Versus last year, could you show this year's margin" keeps it
    # ... and a goal said first ("budgeting for next year, show the profit and loss for 2025"), where it compares with
    # nothing (words.yaml `additive`: "Versus last year, could you show ... this year?" asks of both)
    sentence = SENTENCE_END.search(norm[ends[ask - 1]:starts[ask]]) or any(
        lo <= a and b <= hi for a, b in framed for lo, hi in before) \
        or len(before) == 1 and stated(*before[0]) and w.additive.isdisjoint(words[before[0][0]:before[0][1]])
    # a write's statement holds the record's own date ("Received 75k on 15 January. Please record the payment
    # today": "today" says when to write it)
    writes = set(index.domain.settings.weights.explicit_kinds)
    asks_write = any(k in writes for i in range(ask, n) for k, _ in _kinds(index, words[i]))
    if sentence and not asks_write and any(at[0] >= ask for at in date_at):
        return before, {at for at in date_at if inside(at, before)}
    # the same for whole sentences before the ask's: "I only started on Monday. Pak Hendra wants the invoices paid
    # last month, so could you pull up the paid invoices from last month?" asks of last month, not of Monday
    said = [hi for lo, hi in before if SENTENCE_END.search(norm[ends[hi - 1]:starts[hi]])]
    if said and not asks_write and any(at[0] >= said[-1] for at in date_at):
        return before, {at for at in date_at if at[1] <= said[-1]}
    return before, set()


def _opens_question(w, words: list[str], lo: int, hi: int) -> bool:
    """The clause lo..hi-1 opens with a question word (words.yaml `interrogatives`) as its first or second word: it
    asks, it states nothing before the ask ("so which is cheaper: ...")."""
    return any(words[i] in w.interrogatives for i in range(lo, min(lo + 2, hi)))


def capital_of(source: str, starts: list[int], cased):
    """word index -> typed with a capital inside its sentence (`cased`: None for an ASCII text, whose offsets are
    the source's; () when the cased tokens do not align, and then no capital is seen). A sentence's first word is
    capitalised whatever it is ("Background: a customer called ..."), so it says no name."""
    if cased == ():
        return lambda i: False

    n = len(starts) if cased is None else len(cased)

    def typed(i: int) -> tuple[bool, int]:
        at = starts[i] if cased is None else cased[i][1]
        return source[at: at + 1].isupper(), at

    def capital(i: int) -> bool:
        upper, at = typed(i)
        if not upper:
            return False
        before = source[:at].rstrip()
        # a sentence's first word is a name where the next is typed with a capital too ("Tata Steel ke bills ...")
        return bool(before) and before[-1] not in ".?!" or i + 1 < n and typed(i + 1)[0]
    return capital


def _sentences(parts: list[tuple[int, int]], norm: str, starts: list[int], ends: list[int]) -> list[list[tuple[int, int]]]:
    """The clauses grouped by sentence: a sentence tells where one of its clauses does ("Our new bookkeeper, Tom, is
    reconciling the supplier side ...": the clauses a comma parts are one statement)."""
    out: list[list[tuple[int, int]]] = []
    for lo, hi in parts:
        if out and not SENTENCE_END.search(norm[ends[out[-1][-1][1] - 1]:starts[lo]]):
            out[-1].append((lo, hi))
        else:
            out.append([(lo, hi)])
    return out


def opens_clause(index, words: list[str], norm: str, starts: list[int], ends: list[int]) -> bool:
    """A clause after the first opens with a verb or a question of the domain ("... I can't explain it to the board.
    Show me the cash flow statement for Q4 2025.", "prepping for the review, pull up our invoices"): it may ask
    after a statement."""
    if CLAUSE_END.search(norm) is None:  # one clause (most questions): nothing to scan
        return False
    stop = index.domain.words.stopwords
    for i in range(1, len(words)):
        if CLAUSE_END.search(norm[ends[i - 1]:starts[i]]):
            j = next((k for k in range(i, len(words)) if words[k] not in stop), None)
            if _opens(index, words, i) or j is not None and _opens(index, words, j):
                return True
    return False


def _opens(index, words: list[str], i: int) -> bool:
    """Word i (or the phrase of two it begins) is a verb or a question of the domain ("show", "how much")."""
    entry = index.phrases.get(tuple(words[i:i + 2])) if i + 1 < len(words) else None
    return bool(entry is not None and entry.kinds or _kinds(index, words[i]))


def _kinds(index, word: str) -> tuple:
    """The verb kinds the domain reads in one word ((kind, strength), ...; () for none)."""
    entry = index.entry(word)
    return entry.kinds if entry is not None and entry.kinds else ()


def _tells(index, words: list[str], clause: tuple[int, int], framed, date_at, capital=None) -> bool:
    """Whether a clause before the ask tells something rather than asks: it does not open with a verb of the
    domain ("Create an invoice for Acme. Please add GST." and "List unpaid invoices. Please ..." ask twice) and
    holds a word of its own in lower case, one neither the domain's nor a stop word ("Mrs Pemberton rang", "the
    audit"; "For suppliers, could you list ...", "Laporan laba rugi bulan ini." and "Invoices for Acme Corp in
    December. Which are unpaid?" only name what is asked for), or opens with someone else as its subject (words.yaml
    `narrators`: "he paid by transfer last week"). `capital(i)`: word i is typed with a capital."""
    told = opened = False
    stop, narrators = index.domain.words.stopwords, index.domain.words.narrators
    for i in range(*clause):
        w = words[i]
        if not opened and w in narrators:  # "he paid by transfer last week": what someone else did
            told = opened = True
            continue
        if any(a <= i < b for a, b in framed) or any(a <= i < b for a, b in date_at) or w in stop:
            continue
        entry = index.entry(w)
        if not opened and entry is not None and entry.kinds:
            return False
        opened = True
        if entry is None and w.isalpha() and len(w) >= 3 and not (capital is not None and capital(i)):
            told = True
    return told


@lru_cache(maxsize=16)
def _suffixes(anaphora: frozenset[str]) -> tuple[str, ...]:
    """The suffixes of words.yaml `anaphora` ("-nya"): a word of five letters or more ending in one refers back
    ("pembayarannya", its payment); () for none."""
    return tuple(a[1:] for a in anaphora if a.startswith("-"))


def _refers(index, word: str, suffixes: tuple[str, ...]) -> bool:
    """Whether `word` ends in one of `suffixes` after a word the domain knows ("pembayarannya": its payment;
    "biasanya", usually, is no word of the domain's with "-nya")."""
    return any(word.endswith(s) and index.entry(word[: -len(s)]) is not None for s in suffixes)


def _asks_of_other(index, words: list[str], norm: str, starts: list[int], ends: list[int], ask: int) -> bool:
    """Whether an ask naming no term of the domain asks of another thing: it ends the question with "?" and two
    words of that last sentence are none the domain knows ("Kira-kira berapa lama biasanya PLN memperbaiki
    gangguan?", "Any tips for a weekend near the coast?"), so the story before it, whatever its terms, is no
    question to the domain's tools ("Bisa dibantu? Trims ya", "Kindly advise." ask of the story)."""
    n = len(words)
    if not norm.rstrip().endswith("?"):
        return False
    last = max([i for i in range(ask + 1, n) if SENTENCE_END.search(norm[ends[i - 1]:starts[i]])], default=ask)
    return sum(x.isalpha() and len(x) > 2 and x not in index.known and index.entry(x) is None for x in words[last:]) >= 2


def names_term(index, words: list[str]) -> bool:
    """Whether one of `words` is a term of the domain (a concept, not only a verb)."""
    for w in words:
        entry = index.entry(w)
        if entry is not None and entry.concept:
            return True
    return False
