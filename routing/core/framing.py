"""Framing: the words of a question that say who asked for something or what it is for, not what is
wanted ("my boss wants to know ...", "I've been asked to ...", "before the sales meeting ...",
"aaj ki meeting ke liye ..."). Read as stop words, so that "lead" in "my lead asked me" is no CRM
lead and "today" in "for today's meeting" no date range of the data. Also the other parts of a question
that are not its ask: a clause it sets aside ("not the profit - the actual cash": `contrast_spans`).

A framing phrase is written in words.yaml (`framing`, per language) as slots separated by spaces: a
slot takes any one of its words ("boss|manager|editor"), a slot ending in "?" may be absent, and
"*" takes any one word. The words are those of the languages; nothing here knows any."""
from __future__ import annotations

import re
from dataclasses import dataclass

ANY = "*"
MAX_SLOTS = 12  # a framing phrase is a short clause; a longer template is a mistake in words.yaml


@dataclass(frozen=True)
class Slot:
    words: frozenset[str] | None  # None: any one word
    optional: bool


Template = tuple[Slot, ...]


def parse_template(text: str) -> tuple[Template | None, str | None]:
    """A template from its words.yaml form, or (None, the problem)."""
    parts = text.casefold().split()
    if not parts:
        return None, "is empty"
    if len(parts) > MAX_SLOTS:
        return None, f"has {len(parts)} slots (at most {MAX_SLOTS})"
    slots = []
    for part in parts:
        optional = part.endswith("?") and len(part) > 1
        body = part[:-1] if optional else part
        if body == ANY:
            slots.append(Slot(None, optional))
            continue
        alternatives = [w for w in body.split("|")]
        if not all(alternatives) or any(ANY in w for w in alternatives):
            return None, f"slot {part!r} must be words separated by | (or * for any word)"
        slots.append(Slot(frozenset(alternatives), optional))
    if all(s.optional for s in slots):
        return None, "needs at least one slot that is not optional"
    if all(s.words is None for s in slots if not s.optional):
        return None, "needs at least one slot of words that is not optional"
    return tuple(slots), None


def anchor_words(templates: tuple[Template, ...]) -> frozenset[str]:
    """The words one of which every template needs (its first required slot of words): a question with
    none of them holds no framing, and is not searched."""
    out: set[str] = set()
    for t in templates:
        out |= next(s.words for s in t if not s.optional and s.words is not None)
    return frozenset(out)


def _match(t: Template, words: list[str], si: int, wi: int) -> int | None:
    """The end of the longest match of slots si.. at word wi (slots are few; a template has at most MAX_SLOTS)."""
    if si == len(t):
        return wi
    slot = t[si]
    best = None
    if wi < len(words) and (slot.words is None or words[wi] in slot.words):
        best = _match(t, words, si + 1, wi + 1)
    if slot.optional:
        skip = _match(t, words, si + 1, wi)
        if skip is not None and (best is None or skip > best):
            best = skip
    return best


def framing_spans(words: list[str], templates: tuple[Template, ...], anchors: frozenset[str]) -> list[tuple[int, int]]:
    """Word ranges [lo, hi) of the question that are framing, left to right, never overlapping, the
    longest at each start (every span holds its template's required words: parse_template sees to it)."""
    if not templates or anchors.isdisjoint(words):
        return []
    present = set(words)
    # a template can match only where each of its required slots of words has a word in the question
    live = [t for t in templates if all(s.optional or s.words is None or not s.words.isdisjoint(present) for s in t)]
    if not live:
        return []
    spans: list[tuple[int, int]] = []
    i = 0
    while i < len(words):
        end = None
        for t in live:
            e = _match(t, words, 0, i)
            if e is not None and e > i and (end is None or e > end):
                end = e
        if end is not None:
            spans.append((i, end))
            i = end
        else:
            i += 1
    return spans


# A clause ends at a comma, semicolon, colon, a dash standing apart, or a sentence's end ("not the
# profit - the actual cash"); a hyphen inside a word ("section-wise") ends nothing.
CLAUSE_END = re.compile(r"[,;:.?!]|\s[-–—]+|[-–—]+\s")


def clauses(text: str, starts: list[int], ends: list[int]) -> list[tuple[int, int]]:
    """Token ranges [lo, hi) of the question's clauses, split where the text between two tokens ends one."""
    out, lo = [], 0
    for i in range(1, len(starts)):
        if CLAUSE_END.search(text[ends[i - 1]:starts[i]]):
            out.append((lo, i))
            lo = i
    if starts:
        out.append((lo, len(starts)))
    return out


def contrast_spans(words: list[str], parts: list[tuple[int, int]], before: frozenset[str], after: frozenset[str]) -> list[tuple[int, int]]:
    """The clauses a question sets aside to say what it does want ("not the profit - the actual cash",
    "P&L nahi, cash wala statement", "..., bukan yang masih nunggak"): a clause that begins with one of
    `before` (words.yaml `contrast`) or ends with one of `after` (the same, in a language whose negation
    follows its word), in a question of two clauses or more. "not paid invoices" is one clause: no contrast
    (and routing.core.aside.set_aside keeps a negated term of the lexicon, "..., not paid", as a filter)."""
    if len(parts) < 2:
        return []
    return [(lo, hi) for lo, hi in parts if hi - lo > 1 and (words[lo] in before or words[hi - 1] in after)]


def purpose_clauses(words: list[str], parts: list[tuple[int, int]], templates: tuple[Template, ...]) -> list[tuple[int, int]]:
    """The clauses that say what an answer is for ("before I approve a credit note, show me ...",
    "... ? deciding on a bad-debt provision", "mau mutusin gajian dimajuin"): a clause one of the
    `templates` (words.yaml `purpose`) begins, in a question with another clause left to ask."""
    if len(parts) < 2 or not templates:
        return []
    out = [(lo, hi) for lo, hi in parts if hi - lo > 1 and any((_match(t, words[lo:hi], 0, 0) or 0) > 0 for t in templates)]
    return out if len(out) < len(parts) else []


def purpose_within(words: list[str], parts: list[tuple[int, int]], templates: tuple[Template, ...], told) -> list[tuple[int, int]]:
    """The same said inside a clause: from one of `templates` (words.yaml `purpose_within`) after the clause's first
    word to its end ("I need to check a bill before I approve payment - find ..."), the clause's head left to ask,
    unless the word after it `told` of the past ("... before I got their name")."""
    out = []
    for lo, hi in parts if templates else ():
        if hi - lo < 4:
            continue
        at, end = next(((j, e) for j in range(1, hi - lo - 1) for t in templates if (e := _match(t, words[lo:hi], 0, j) or 0) > j),
                       (None, 0))
        if at is not None and not (lo + end < hi and told(words[lo + end])):
            out.append((lo + at, hi))
    return out


def message_content(words: list[str], templates: tuple[Template, ...], anchors, sends, opens, text: str, starts, ends) -> list[tuple[int, int]]:
    """What a message asked to be sent says: from one of `templates` (words.yaml `message_content`: "saying",
    "bilang") to the end of its sentence, where a verb that sends (`sends(i)`: word i is one of settings.yaml
    `message_kinds`, said as a request, not told of the past) opens its sentence (`opens(i)`: only stop words before
    it there, "tolong kirim ...") at most MESSAGE_REACH words before it ("email Budi, saying the meeting
    moved to Thursday", "kirim email ke Pak Andi, bilang rapatnya mundur ke Kamis"; "our scout sent a long email
    saying ..." tells). One span at most: the first."""
    n = len(words)
    if not templates or anchors.isdisjoint(words):
        return []
    for j in range(1, n - 1):
        if any((_match(t, words, 0, j) or 0) > j for t in templates):
            for i in range(j - 1, max(j - MESSAGE_REACH, 0) - 1, -1):
                if _SENTENCE_GAP.search(text[ends[i]:starts[i + 1]]):  # a dot inside an address or a number ends none
                    break
                if sends(i) and opens(i):
                    end = next((k for k in range(j + 1, n) if _SENTENCE_GAP.search(text[ends[k - 1]:starts[k]])), n)
                    return [(j, end)]  # "Email Andi saying I'm late. Also what's on my calendar?" asks again after it
    return []


_SENTENCE_GAP = re.compile(r"[.?!;:]\s")  # SENTENCE_END, where a space follows (no dot of an address)
MESSAGE_REACH = 8  # words between a verb that sends and what its message says ("kirim email ke Pak Andi, bilang ...")


# A sentence ends at ".", "!", "?", ";" or ":" (a comma or a dash only parts a clause)
SENTENCE_END = re.compile(r"[;:.?!]")
FULL_STOP = re.compile(r"[.?!]")  # a sentence ended, not a colon's elaboration ("... ke pemasok: mana yang ...")


def background_clauses(words: list[str], parts: list[tuple[int, int]], templates: tuple[Template, ...], text: str,
                       starts: list[int], ends: list[int], stop: frozenset[str], framed=(), opener=None,
                       stated=None) -> tuple[list[tuple[int, int]], int]:
    """The statements a question makes before it asks ("Accounts payable is a bit behind and I was asked to
    help: could you show me the supplier bills we received?"): the clauses before the first one that holds
    a request (one of the `templates`, words.yaml `request`) or ends a question ("?"), and where that ask
    begins (its first token; 0: none). A request that opens its clause (only `stop` words or `framed` spans
    before it: "..., so could you list ...", "..., so I was wondering if you could list ...") follows any
    clause; any other ask must follow a sentence's end: "overdue customers list, biggest amount first pls" and
    "customer yg masih nunggak, udah brp lama telatnya?" name what they ask for before the comma. The caller
    keeps the statements where the ask names no term of its own or refers back to them ("...; please enter it
    in the books"). `opener(words, i)`: the clause from word i opens with a verb or a question of the domain ("Show
    me ...", "How much ..."): after a full stop, that asks too. `stated(lo, hi)`: the clause opens with a word of its
    own, no term of the domain ("prepping for ...", "mau rencanain ...")."""
    if len(parts) < 2 or not templates:
        return [], 0
    # a separator inside a number or a word ("1.8 lakh", "1,200", "e-mail") parts no clause here
    merged: list[tuple[int, int]] = []
    for lo, hi in parts:
        if merged and not any(ch.isspace() for ch in text[ends[lo - 1]:starts[lo]]):
            merged[-1] = (merged[-1][0], hi)
        else:
            merged.append((lo, hi))
    parts = merged
    if len(parts) < 2:
        return [], 0
    anchors = anchor_words(templates)
    for k, (lo, hi) in enumerate(parts):
        clause = words[lo:hi]
        at = None
        if not anchors.isdisjoint(clause):  # no template matches a clause without one of its required words
            at = next((j for j in range(hi - lo) if any(_match(t, clause, 0, j) for t in templates)), None)
        asked = "?" in text[ends[hi - 1]:ends[hi - 1] + 3]
        # a clause after the first that opens with a verb or a question of the domain asks after a sentence's end,
        # and after a comma where it is the second and the first `stated` something of the speaker's own ("mau
        # rencanain modal kerja, lihat arus kas ...", "prepping for the review, pull up our invoices"); one ending in
        # "?" after a comma narrows the clause before ("hutang yang lewat jatuh tempo, mana yang duluan?")
        verb_first = bool(k and not asked and opener is not None
                          and (opener(words, lo) or opener(words, next((i for i in range(lo, hi) if words[i] not in stop), lo)))
                          and (k == 1 and stated is not None and stated(*parts[0]) or FULL_STOP.search(text[ends[lo - 1]:starts[lo]])))
        if at is None and not asked and not verb_first:
            continue
        if k == 0:
            return [], 0
        opens = at is not None and all(w in stop or any(a <= i < b for a, b in framed) for i, w in enumerate(words[lo:lo + at], lo))
        if opens or verb_first or SENTENCE_END.search(text[ends[lo - 1]:starts[lo]]):
            return parts[:k], lo
        return [], 0
    return [], 0


def preface_clause(words: list[str], parts: list[tuple[int, int]], templates: tuple[Template, ...]) -> list[tuple[int, int]]:
    """A first clause that only says where a question comes from ("Customer asks:", "From Budi:",
    "Ticket #4420 -"): one of the `templates` (words.yaml `preface`) spans it whole, and a clause follows."""
    if len(parts) < 2 or not templates:
        return []
    lo, hi = parts[0]
    return [(lo, hi)] if any(_match(t, words[lo:hi], 0, 0) == hi - lo for t in templates) else []


def inside(span: tuple[int, int], spans) -> bool:
    """Whether the token range lo..hi-1 lies within one of `spans` (ranges [lo, hi))."""
    return any(a <= span[0] and span[1] <= b for a, b in spans)


def signed(framed: list, parts: list[tuple[int, int]], capital) -> list:
    """`framed` with a signature: a last clause of one to three words, each typed with a capital, right after a
    courtesy clause set aside ("..., Thanks, Budi", "Salam, Rina Wati") is who wrote, no name asked about.
    `capital(i)`: word i is typed with a capital (None: none is seen)."""
    if capital is None or not parts or len(parts) < 2:
        return framed
    (plo, phi), (lo, hi) = parts[-2], parts[-1]
    if 1 <= hi - lo <= 3 and (plo, phi) in framed and all(capital(i) for i in range(lo, hi)):
        return sorted([*framed, (lo, hi)])
    return framed
