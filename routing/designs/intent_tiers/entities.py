"""Players named in a query: fuzzy look-up over the roster (typos, missing accents, surname only).

A mention is a run of query words matching one player's name. Each player is scored by its best
span: first + last name together (1.0 when exact), the surname alone, or the first name alone
(a little less specific). Words of 5+ letters may carry typos (edit similarity >= the domain's
`player_match`); shorter words must match exactly, but for a first name one edit off right before
its player's surname ("Andy Hidayat", "Nico Petrovic"). Candidates whose spans overlap form one
mention; a longer span beats a shorter one inside it ("Marco Diaz" beats every other Diaz), and
players within `ambiguous_gap` of the best are all kept: more than one is AMBIGUOUS_ENTITY.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass

from rapidfuzz.distance import OSA

from routing.core.text import tokenize

from .data import Player, Roster

# Letters NFKD does not decompose into a base letter plus an accent.
_FOLD = str.maketrans({"ø": "o", "ł": "l", "ı": "i", "ß": "ss", "đ": "d", "æ": "ae", "œ": "oe", "þ": "th"})
FIRST_NAME_FACTOR = 0.9  # a first name alone says less than a surname
MIN_FUZZY_LEN = 5


def fold(text: str) -> str:
    text = unicodedata.normalize("NFKD", text.casefold().translate(_FOLD))
    return "".join(ch for ch in text if not unicodedata.combining(ch))


@dataclass(frozen=True)
class Candidate:
    player: Player
    confidence: float
    first: int  # token span, inclusive / exclusive
    last: int
    via: str  # full name | surname | first name | fuzzy
    surface: str

    def to_dict(self) -> dict:
        return {**self.player.to_dict(), "confidence": round(self.confidence, 4), "via": self.via, "mention": self.surface}


@dataclass(frozen=True)
class Mention:
    surface: str
    first: int
    last: int
    candidates: tuple[Candidate, ...]  # best first; more than one: ambiguous

    @property
    def ambiguous(self) -> bool:
        return len(self.candidates) > 1


class PlayerIndex:
    def __init__(self, roster: Roster, *, cutoff: float, gap: float):
        self.roster = roster
        self.cutoff = cutoff
        self.gap = gap
        self.names = [(p, [t.text for t in tokenize(fold(p.name))]) for p in roster.players]
        self.name_words = frozenset(w for _, parts in self.names for w in parts)
        # The data's teams (each player's own and every opponent) as folded words: a team named in a
        # question ("Fajar Nugroho di Arema Jaya") is no unknown player
        teams = {p.team for p in roster.players} | {g.opponent for p in roster.players for g in p.games}
        self.teams = sorted({tuple(t.text for t in tokenize(fold(name))) for name in teams if name.strip()} - {()},
                            key=len, reverse=True)

    def team_at(self, words: list[str]) -> set[int]:
        """Indexes of the words that spell a team of the data, longest team name first."""
        out: set[int] = set()
        for team in self.teams:
            n = len(team)
            for i in range(len(words) - n + 1):
                if tuple(words[i:i + n]) == team and not out & set(range(i, i + n)):
                    out.update(range(i, i + n))
        return out

    def _sim(self, word: str, name_word: str) -> float:
        if word == name_word:
            return 1.0
        if len(word) < MIN_FUZZY_LEN or len(name_word) < MIN_FUZZY_LEN:
            return 0.0
        s = OSA.normalized_similarity(word, name_word)
        return s if s >= self.cutoff else 0.0

    @staticmethod
    def _near(forms: tuple[str, ...], name_word: str) -> float:
        """A short first name one edit off ("Andy", "Nico", "Bayou"), said before its player's surname."""
        return max((OSA.normalized_similarity(f, name_word) for f in forms
                    if min(len(f), len(name_word)) >= 3 and OSA.distance(f, name_word) == 1), default=0.0)

    def _best(self, forms: tuple[str, ...], name_word: str) -> float:
        return max((self._sim(f, name_word) for f in forms), default=0.0)

    def candidates(self, words: list[tuple[str, ...]], blocked: set[int]) -> list[Candidate]:
        """Every player some query words could name; `blocked` token indexes are never names.
        Each query word comes with its forms (as typed, and without an inflection: "okafor's")."""
        out = []
        for player, parts in self.names:
            best: Candidate | None = None
            first, last = parts[0], parts[-1]
            for i, w in enumerate(words):
                if i in blocked:
                    continue
                options = []
                if len(parts) > 1 and i + 1 < len(words) and i + 1 not in blocked:
                    b = self._best(words[i + 1], last)
                    a = (self._best(w, first) or self._near(w, first)) if b else 0.0
                    if a and b:
                        options.append(((a + b) / 2 + 1.0, i, i + 2, "full name" if a == b == 1 else "fuzzy"))
                s = self._best(w, last)
                if s:
                    options.append((s, i, i + 1, "surname" if s == 1 else "fuzzy"))
                if len(parts) > 1:
                    s = self._best(w, first) * FIRST_NAME_FACTOR
                    if s:
                        options.append((s, i, i + 1, "first name" if s == FIRST_NAME_FACTOR else "fuzzy"))
                for rank, a, b, via in options:
                    conf = min(1.0, rank if rank <= 1 else rank - 1.0)
                    span_rank = (b - a, conf)
                    if best is None or span_rank > (best.last - best.first, best.confidence):
                        best = Candidate(player, conf, a, b, via, " ".join(f[0] for f in words[a:b]))
            if best is not None:
                out.append(best)
        return out

    def mentions(self, words: list[tuple[str, ...]], blocked: set[int]) -> list[Mention]:
        """Mentions in query order; each lists its candidate players, best first."""
        cands = sorted(self.candidates(words, blocked), key=lambda c: (-(c.last - c.first), -c.confidence, c.player.name))
        groups: list[list[Candidate]] = []
        for c in cands:
            home = next((g for g in groups if c.first < g[0].last and g[0].first < c.last), None)
            if home is None:
                groups.append([c])
                continue
            lead = home[0]
            # a shorter span inside a longer one is beaten; a close rival on the same span is kept
            if (c.last - c.first) == (lead.last - lead.first) and c.confidence >= lead.confidence - self.gap:
                home.append(c)
        mentions = [
            Mention(g[0].surface, g[0].first, g[0].last, tuple(sorted(g, key=lambda c: (-c.confidence, c.player.name))))
            for g in groups
        ]
        return sorted(mentions, key=lambda m: m.first)
