"""Days that say when something happens, not what period is asked (issue 22's held-out sets: a manager asking for
a meeting). "We meet the bank tomorrow and they'd like to see the payments from last month": tomorrow is the
meeting, last month the period; "bikin slide buat rapat hari Senin ... penjualan selama Q4": Monday is the meeting,
Q4 the period. A single day is an occasion where a word of words.yaml `occasions` ("meet", "rapat") says so: a day
ahead in that word's clause beside a date that is not ahead, or a day right after a framing phrase holding the word
("before the board meeting on Monday") beside a longer period, and so is a day, past or ahead, within three words of
such a word ("board meets on Monday and ... last quarter") beside a longer period, where no term or verb of the domain
comes before it in its clause ("what did we spend on the offsite on 12 December" asks of the offsite). Any date right
before an occasion's word names it ("for Friday's board meeting I need last quarter's ...", "before the Q3 review"),
and one right after it alone in its clause ("audit next week, need the balance sheet as of 31 March 2025"), unless the domain's tools are about the
occasion (a calendar's meetings). Dropped, its words read as framing is (no name, no
search text; the whole clause where it is the occasion's alone: "the auditors come tomorrow, ..."); never every date ("bills due tomorrow and payments from last week" keeps both)."""
from __future__ import annotations

from datetime import date

from routing.core.framing import clauses

NEAR = 2  # an occasion's word this many words or fewer from a date makes it the occasion's ("Friday's board meeting")


def occasions(dates, date_at: list[tuple[int, int]], framed: list, dropped: set, today: date, words: list[str],
              norm: str, starts: list[int], ends: list[int], index) -> tuple[set, list, tuple]:
    """(`dropped`, `framed`, the dates set aside) with the token ranges of the dates that name an occasion added to
    the first two; `norm`, `starts`, `ends` give the question's clauses (routing.core.framing.clauses), `index` the
    domain's occasion words (words.yaml `occasions`) and terms."""
    said = index.domain.words.occasions
    kept = [(d, at) for d, at in zip(dates, date_at) if at not in dropped and d.resolved]
    if len(kept) < 2 or said.isdisjoint(words):
        return dropped, framed, ()
    parts = clauses(norm, starts, ends)  # only where a word of an occasion is there
    # an occasion's word outside every date ("the coming quarter", "yang akan datang" say no occasion)
    in_date = {i for a, b in date_at for i in range(a, b)}
    holds = lambda lo, hi: any(words[i] in said for i in range(lo, hi) if i not in in_date)
    # beside a date, an occasion the domain's tools are about ("meetings last week" to a calendar) is what is asked
    beside = lambda lo, hi: any(words[i] in said and not getattr(index.entry(words[i]), "concept", None)
                                for i in range(lo, hi) if i not in in_date)
    # a term or a verb of the domain before it in its clause makes the day asked ("what did we spend on the offsite on
    # 12 December", "invoices due by the audit deadline on 31 January", "list everything we received on 19 January at
    # the meeting")
    asked_of = lambda lo, hi: any((e := index.entry(words[i])) is not None and (e.concept or e.kinds)
                                  for i in range(lo, hi) if i not in in_date and words[i] not in said)
    frames = [s for s in framed if isinstance(s, tuple) and len(s) == 2 and holds(*s)]
    out, aside = [], []
    for d, at in kept:
        others = [o for o, a in kept if a != at]
        clause = next(((lo, hi) for lo, hi in parts if lo <= at[0] < hi), (0, len(words)))
        day = d.start == d.end
        # a day ahead in an occasion's clause beside a date that is not ahead; or a day, past or ahead, within three words
        # of an occasion the tools are not about ("board meets on Monday and ... a profit last quarter", "the auditor's
        # visit is on 10 February. ... for December", "Friday ki board meeting ke liye") beside a longer period, where
        # no term or verb of the domain comes before it in its clause
        ahead = day and (holds(*clause) and d.start > today and any(o.start <= today for o in others)
                         or (beside(max(at[0] - NEAR - 1, clause[0]), at[0]) or beside(at[1], min(at[1] + NEAR + 1, clause[1])))
                         and not asked_of(clause[0], at[0])
                         and any(o.start != o.end and not o.start <= d.start <= o.end for o in others))
        after_frame = day and any(hi == at[0] for _, hi in frames) and any(o.start != o.end for o in others)
        # "Friday's board meeting", "the Q3 review": a date right before an occasion's word names it; one right after
        # it does where no other date shares its clause ("audit next week, need the balance sheet as of 31 March";
        # "the conference last month compared to this month", "review last quarter's expenses ..." ask of both)
        alone_here = not any(clause[0] <= a[0] < clause[1] for _, a in kept if a != at)
        # ... and so does a date wholly ahead right after it beside a period gone by ("board meeting next week and I
        # can't tell if we made a profit last quarter": the meeting is next week, the question asks of last quarter)
        named = beside(at[1], min(at[1] + NEAR, clause[1])) or beside(max(at[0] - NEAR, clause[0]), at[0]) and (
            alone_here or d.start > today and not asked_of(clause[0], at[0])
            and any(o.end is not None and o.end < today for o in others))
        if ahead or after_frame or named:
            out.append(at)
            # "the auditors come tomorrow, show ...": a clause of the occasion alone says nothing of the ask
            alone = ahead and not any(clause[0] <= a[0] < clause[1] for _, a in kept if a != at)
            aside.append(clause if alone and clause[1] - clause[0] < len(words) else at)
    if not out or len(out) == len(kept):
        return dropped, framed, ()
    return dropped | set(out), [*framed, *aside], tuple(d for d, at in kept if at in out)
