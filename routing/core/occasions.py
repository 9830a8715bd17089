"""Days that say when something happens, not what period is asked (issue 22's held-out sets: a manager asking for
a meeting). "We meet the bank tomorrow and they'd like to see the payments from last month": tomorrow is the
meeting, last month the period; "bikin slide buat rapat hari Senin ... penjualan selama Q4": Monday is the meeting,
Q4 the period. A single day is an occasion where a word of words.yaml `occasions` ("meet", "rapat") says so: a day
ahead in that word's clause beside a date that is not ahead, or a day right after a framing phrase holding the word
("before the board meeting on Monday") beside a longer period. Any date right before an occasion's word names it
("for Friday's board meeting I need last quarter's ...", "before the Q3 review"), and one right after it alone in
its clause ("audit next week, need the balance sheet as of 31 March 2025"), unless the domain's tools are about the
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
    holds = lambda lo, hi: not said.isdisjoint(words[lo:hi])
    # beside a date, an occasion the domain's tools are about ("meetings last week" to a calendar) is what is asked
    beside = lambda lo, hi: any(w in said and not getattr(index.entry(w), "concept", None) for w in words[lo:hi])
    frames = [s for s in framed if isinstance(s, tuple) and len(s) == 2 and holds(*s)]
    out, aside = [], []
    for d, at in kept:
        others = [o for o, a in kept if a != at]
        clause = next(((lo, hi) for lo, hi in parts if lo <= at[0] < hi), (0, len(words)))
        day = d.start == d.end
        # a date ahead ("meeting the bank next week, ... a profit in 2025"), or a day ("board meets on Monday and ...
        # a profit last quarter"), where the clause holds an occasion the tools are not about, beside another date
        ahead = holds(*clause) and (day and d.start > today and any(o.start <= today for o in others)
                                    or beside(*clause) and (d.start > today and all(o.end <= today for o in others)
                                                            or day and any(o.start != o.end and not o.start <= d.start <= o.end for o in others)))
        after_frame = day and any(hi == at[0] for _, hi in frames) and any(o.start != o.end for o in others)
        # "Friday's board meeting", "the Q3 review": a date right before an occasion's word names it; one right after
        # it does where no other date shares its clause ("audit next week, need the balance sheet as of 31 March";
        # "the conference last month compared to this month", "review last quarter's expenses ..." ask of both)
        alone_here = not any(clause[0] <= a[0] < clause[1] for _, a in kept if a != at)
        named = beside(at[1], min(at[1] + NEAR, clause[1])) or alone_here and beside(max(at[0] - NEAR, clause[0]), at[0])
        if ahead or after_frame or named:
            out.append(at)
            # "the auditors come tomorrow, show ...": a clause of the occasion alone says nothing of the ask
            alone = ahead and not any(clause[0] <= a[0] < clause[1] for _, a in kept if a != at)
            aside.append(clause if alone and clause[1] - clause[0] < len(words) else at)
    if not out or len(out) == len(kept):
        return dropped, framed, ()
    return dropped | set(out), [*framed, *aside], tuple(d for d, at in kept if at in out)
