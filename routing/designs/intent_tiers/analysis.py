"""One query read against the tiers: triggers fired, players named, pronouns, unknown names.

The result, `TierAnalysis`, carries the attributes routing.core.router.classify reads (vague,
concepts, actions, literals, dates, units), so the threshold tuner re-classifies this design's
scores with the same rule the design uses.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from datetime import date

from routing.core.index import QueryAnalysis, RouterIndex
from routing.core.patterns import search_with_timeout
from routing.core.common_words import common_word
from routing.core.framing import framing_spans
from routing.core.stems import stemmers
from routing.core.text import normalize, tokenize

from .config import TierConfig
from .data import Player
from .entities import Mention, PlayerIndex, fold

try:
    from wordfreq import zipf_frequency as _zipf
except ImportError:  # pragma: no cover
    _zipf = None


@dataclass(frozen=True)
class Fired:
    tier: str
    trigger: str
    text: str
    weight: float

    def to_dict(self) -> dict:
        return {"tier": self.tier, "trigger": self.trigger, "text": self.text, "weight": self.weight}


@dataclass(frozen=True)
class TierAnalysis:
    query: str
    base: QueryAnalysis  # normalisation, typo correction (routing.core.index)
    fired: tuple[Fired, ...]
    mentions: tuple[Mention, ...]
    pronoun: str | None
    unknown_names: tuple[str, ...]
    carried: tuple[Player, ...]  # players from the conversation the query refers back to
    max_depth: str = "L2"
    data_mode: str = "replay"
    # what classify reads
    vague: tuple[str, ...] = ()
    concepts: dict = field(default_factory=dict)
    actions: tuple = ()
    literals: tuple = ()
    dates: tuple = ()
    units: tuple = ()

    @property
    def text(self) -> str:
        return self.base.text

    @property
    def normalized(self) -> str:
        return self.base.normalized

    @property
    def corrections(self):
        return self.base.corrections

    @property
    def ambiguous(self) -> Mention | None:
        return next((m for m in self.mentions if m.ambiguous), None)

    @property
    def players(self) -> tuple[Player, ...]:
        """The players the query is about: named ones, else those carried over."""
        named = tuple(m.candidates[0].player for m in self.mentions if not m.ambiguous)
        if self.pronoun and self.carried:  # "compare him with Okafor": the earlier player, then the named one
            return tuple({p.id: p for p in self.carried + named}.values())
        return named or (self.carried if not self.mentions else ())

    @property
    def tiers_fired(self) -> list[str]:
        return list(dict.fromkeys(f.tier for f in self.fired))


def analyze(index: RouterIndex, config: TierConfig, players: PlayerIndex, roster, query: str, *, today: date, context: dict) -> TierAnalysis:
    base = index.analyze(query, today=today)
    concept_text = {}
    for u in base.units:
        if u.role == "concept":
            concept_text.setdefault(u.key, u.surface)
    unit_of = {i: u for u in base.units for i in range(u.first, u.last)}
    words = [fold(t.text) for t in base.tokens]
    # each word's forms: as typed, and as the index read it (an inflection folded: "okafor's" -> okafor)
    # and a name with a suffix of the languages ("diaz's", "mensahnya") as the roster's name word it holds
    # and a name the roster lacks without its possessive ("Haaland's": haaland, so it is asked about as a name)
    forms = [
        tuple(dict.fromkeys([w] + ([fold(unit_of[i].key)] if i in unit_of and unit_of[i].role == "literal" else [])
                            + [c for c, _, _ in index.unsuffixed(w) if c in players.name_words]
                            + ([w[:-2]] if w[-2:] in ("'s", "’s") and w[:-2].isalpha() else [])))
        for i, w in enumerate(words)
    ]
    typed = [t.text for t in tokenize(fold(normalize(query)))]  # as typed: "performanya" keeps its suffix
    # a pronoun with a clitic of the languages, written apart by an apostrophe, is the pronoun ("she's
    # been improving": she has); a word that only ends like one ("dias") is not
    pronoun_words = config.pronoun_words | {w for w in typed if any(
        c in config.pronoun_words and not sfx.isalpha() for c, sfx, _ in index.unsuffixed(w, 2))}
    pronoun = next((w for w in typed if w in pronoun_words), None)
    if pronoun is None:
        folded = " ".join(typed)
        for rx in config.pronoun_regexes:
            hit, _ = search_with_timeout(rx, folded)
            if hit:
                pronoun = rx.search(folded).group(0)
                break
    # a word the index read as a term, verb, stop word, date or number is never a name
    blocked = {i for i, w in enumerate(words) if w in pronoun_words or (i in unit_of and unit_of[i].role != "literal")}
    mentions = tuple(players.mentions(forms, blocked))
    used = {i for m in mentions for i in range(m.first, m.last)}
    # Words typed with a capital, the query's first word aside. In a question that names a known player, a
    # capital that only starts a sentence ("Evening! Settling a bet ...", "... gimana ya? Makasih") is no
    # sign of a second name: a sentence ends at "!", "?" or "." after a word of three letters or more ("vs."
    # and "Mr." end none); without a known player a capital at a sentence's start may still be the name
    # asked about ("Great game! Rice stats?")
    # In a question that names a known player, a capital right after a word that introduces a place, a time
    # or an opponent (tiers.yaml `places_after`: "after Christmas", "from Bandung", "against Chelsea", also
    # with a stop word between: "in the Premier League") is no second name when a language of the domain
    # knows the word; a rare one still is ("since Kowalczykowski joined"), and without a known player the
    # capital may be the name asked about ("stats from Walker").
    typed_words = query.split()
    languages = index.domain.settings.languages
    places = frozenset().union(*(ws for _, ws in config.places_after))

    stop = index.domain.words.stopwords

    def _place(j: int) -> bool:
        before = [fold(w.strip(".,!?;:'\"")) for w in typed_words[max(j - 2, 0):j]]
        if not typed_words[j - 1][-1:].isalpha() or _rare(fold(typed_words[j].strip(".,!?;:'\"")), languages):
            return False
        return before[-1] in places or (len(before) == 2 and before[0] in places and before[1] in stop
                                        and typed_words[j - 2][-1:].isalpha())

    capitalised = {fold(w.strip(".,!?;:'\"")) for j, w in enumerate(typed_words)
                   if j and w[:1].isupper() and not (mentions and _ends_sentence(typed_words[j - 1]))
                   and not ((mentions or context.get("player_ids")) and _place(j))}
    # A word right after a trigger and one of its `name_after` words ("stats for saka", "form of
    # mbappe") that the introducing word's language does not know is whom the trigger is about: a
    # name even in lower case and even when another language of the domain knows the word ("saka"
    # is common Indonesian); "form of payment" stays no name (tiers.yaml).
    after: dict[str, dict[str, str]] = {}  # trigger term -> introducing word -> its language
    for tier in config.tiers.values():
        for t in tier.triggers:
            for lang, ws in t.name_after if t.term is not None else ():
                after.setdefault(t.term, {}).update({w: lang for w in ws})

    def _named_after(i: int) -> bool:
        trigger = unit_of.get(i - 2) if i >= 2 else None
        if trigger is None or trigger.role != "concept":
            return False
        lang = after.get(trigger.key, {}).get(words[i - 1])
        return lang is not None and _rare(forms[i][-1], (lang,))

    teams = players.team_at(words)
    vowels = index.vowels

    def _could_be_name(i: int, w: str) -> bool:
        # a team of the data is no player; a word in lower case with no vowel after its first letter
        # is a chat abbreviation ("gmn", "bbrp"), no name (the languages' `vowels`, words.yaml), unless
        # a trigger introduces it ("stats for rhys")
        return (i not in used and i not in blocked and i not in teams and forms[i][-1] not in players.name_words
                and forms[i][-1].isalpha() and len(w) >= 3 and forms[i][-1] not in index.known
                and not (vowels and w not in capitalised and not any(ch in vowels for ch in w[1:]) and not _named_after(i)))

    # A rare word in lower case right after a named player says what the player does ("is Emre Yildiz
    # underperforming his xG"), it is no second name; elsewhere ("okafor vs mbappe") it is one.
    # So does a rare word in lower case right after a term, in a question that names a known player:
    # it says which part of the term ("Teodor Ilić - quick stats rundown": a rundown of stats).
    # And a rare word of the languages right after a pronoun that refers back ("is he overperforming")
    # or a term ("stats rundown") says what the player does, in a question that asks of one player: where
    # the two-player tier's words stand ("compare him kowalczykowski") or the word is no word of the
    # languages at all (no frequency: "okafor xg kowalczykowski"), it may still be a second name.
    after_player = {m.last for m in mentions}
    described = {i + 1 for i, w in enumerate(words) if w in pronoun_words}
    if mentions:
        # in a question that names a known player, any lower-case word of the languages is no second
        # name ("Lukas Brenner stats pls bhai", "Arjun Mehta ka form kaisa chal raha hai yaar"), unless
        # the two-player tier's words stand (below); a word no language knows ("kowalczykowski") still is
        described |= {i for i in range(len(words)) if words[i] not in capitalised}
    described = {i for i in described if i < len(words) and _could_be_name(i, words[i])}  # only a word that could be a name matters
    if described:
        two = config.tiers.get(config.defaults.get("two_players", ""))
        asks_two = two is not None and any(
            (t.term is not None and t.term in base.concepts) or (t.term is None and search_with_timeout(t.regex, base.text)[0])
            for t in two.triggers)
        # with two known players named, the comparison has both: no lower-case word is a third name, a word
        # of the languages or not ("Okafor ya Vogel, kiske goals zyada hain")
        if len(mentions) >= 2:
            after_player |= described
        elif not asks_two:
            after_player |= {i for i in described if _a_word(forms[i][-1], index.domain.settings.languages)}
    unknown_at = [
        i for i, w in enumerate(words)
        if _could_be_name(i, w) and (w in capitalised or i not in after_player and _rare(forms[i][-1], index.domain.settings.languages))
    ]
    introduced = {i for i, w in enumerate(words) if _could_be_name(i, w) and _named_after(i)}
    unknown_at = sorted(set(unknown_at) | introduced)
    if mentions:  # a name in a statement before the sentence naming the players is the story's ("Grup WhatsApp ...");
        said = min(m.first for m in mentions)  # one in a question before it is asked about ("How is Mbappe? And Okafor?")
        unknown_at = [i for i in unknown_at if i > said or not _told_before(base.text[base.tokens[i].end:base.tokens[said].start])]
    unknown = _names(unknown_at, [f[-1] for f in forms], {i for i, w in enumerate(words) if w in capitalised})
    # weak triggers ("stats", "form") need someone to be about: a player, a pronoun or a name-like word,
    # or a query that says nothing else ("I need help", "show me the stats": the design document's
    # trigger table makes them Surface; the missing player is then asked for). Stop words and verbs
    # ("show", "get") say nothing else; "help me fill this tax form" names other things, so it stays
    # no football question.
    trigger_terms = {t.term for tier in config.tiers.values() for t in tier.triggers if t.term is not None}
    bare = all(u.role in ("stop", "action") or (u.role == "concept" and u.key in trigger_terms) for u in base.units)
    has_player = bool(mentions) or bool(pronoun) or bool(unknown) or bare
    # an everyday trigger ("why", "improve", "vs") needs the question to be about football: someone to
    # be about, or a term of the game that is no everyday trigger ("why the sudden drop in form?",
    # "compare our two strikers"); "tips to improve my public speaking" names neither
    everyday = {t.term for tier in config.tiers.values() for t in tier.triggers if t.everyday and t.term is not None}
    about_football = has_player or any(u.role == "concept" and u.key not in everyday for u in base.units)
    fired: list[Fired] = []
    describing: list[str] = []  # per fired trigger: "describes" (a word of what the tools report), "period" (of their time) or ""
    one_player, two_players = config.defaults.get("one_player"), config.defaults.get("two_players")
    # a word of time ("lately") asks of someone named: a known player, a pronoun or a name typed with a capital, not
    # a rare word in lower case ("any good football podcasts lately?")
    named = bool(mentions) or bool(pronoun) or any(words[i] in capitalised for i in unknown_at)
    # said of two players a word of time is the two-player tier's, unless the speaker corrects themselves ("how's A
    # lately - hold on, wrong guy, how's B?"; words.yaml `correction`, `correction_alone`): read only where two are named
    lw = index.domain.words
    corrects = len(mentions) >= 2 and any(ts and framing_spans(words, ts, anchors) for ts, anchors in (
        (lw.correction, lw.correction_anchors), (lw.correction_alone, lw.correction_alone_anchors)))
    for name in config.precedence:
        for trig in config.tiers[name].triggers:
            if (trig.needs_player and not has_player) or (trig.everyday and not about_football) or (trig.period and not named):
                continue
            if trig.unless and len(mentions) + len(unknown) < 2 and any(t in base.concepts for t in trig.unless):
                continue
            # a word of what the one-player tier's tools report ("goals", "assists") said of two players is
            # the two-player tier's ("who has more assists, Okafor or Vogel"): tiers.yaml `describes`
            tier = two_players if (trig.describes or trig.period and not corrects) and name == one_player and len(mentions) >= 2 else name
            sense = "describes" if trig.describes else "period" if trig.period else ""
            if trig.term is not None:
                if trig.term in base.concepts:
                    fired.append(Fired(tier, trig.label, concept_text.get(trig.term, trig.term), trig.weight))
                    describing.append(sense)
            else:
                hit, _ = search_with_timeout(trig.regex, base.text)
                if hit:
                    fired.append(Fired(tier, trig.label, trig.regex.search(base.text).group(0).strip(), trig.weight))
                    describing.append(sense)
    carried = tuple(p for p in (roster.by_id(pid) for pid in context.get("player_ids") or []) if p is not None)
    # where only words of what the tools report fired ("goals", "minutes") about a player named or carried, a
    # name the roster lacks is the game's setting, no player asked about ("How many goals did Okafor score at
    # Anfield?", "Okafor ke goals aur assists batao"); a tier's own trigger still asks about it
    if unknown and describing and all(describing) and (mentions or (pronoun and carried)):
        # ... and a word of time alone only clears a rare word in lower case: "Okafor or Haaland lately?" names Haaland
        keep = [] if "describes" in describing else [i for i in unknown_at if words[i] in capitalised]
        unknown = _names(keep, [f[-1] for f in forms], {i for i, w in enumerate(words) if w in capitalised}) if keep else ()
        unknown_at = keep
    refers_back = bool(pronoun) and not mentions
    needs_player = bool(fired) and not mentions and not unknown
    vague: tuple[str, ...] = ()
    # a pronoun after a name the roster lacks, typed with a capital, refers back to that name ("Kylian Mbappe -
    # how's his season going?"): the player is not found, the conversation lacks nothing; a rare word after the
    # pronoun ("kok dia susah banget ngegolin") or in lower case ("gimme sumthin on his form") is no antecedent
    pronoun_at = next((i for i, w in enumerate(words) if pronoun is not None and pronoun in w), len(words))
    if refers_back and not carried and not any(i < pronoun_at and words[i] in capitalised for i in unknown_at):
        vague = (pronoun,)
    elif needs_player and not carried:
        vague = ("player",)
    return TierAnalysis(
        query=query, base=base, fired=tuple(fired), mentions=mentions, pronoun=pronoun,
        unknown_names=unknown, carried=carried if (pronoun or needs_player) else (),
        max_depth=str(context.get("max_depth") or "L2"), data_mode=str(context.get("data_mode") or "replay"), vague=vague,
    )


def _ends_sentence(word: str) -> bool:
    """A typed word that ends a sentence: it ends with "!" or "?", or with "." after three letters or more."""
    return word[-1:] in "!?" or (word[-1:] == "." and sum(ch.isalpha() for ch in word) >= 3)


def _names(at: list[int], words: list[str], capitalised: set[int]) -> tuple[str, ...]:
    """Unknown name words as names: adjacent words make one name, a word typed with a capital joins
    its neighbours ("Kevin De Bruyne"), and any other word between them ("vs", "and") parts two
    names ("saka", "foden")."""
    runs: list[list[int]] = []
    for i in at:
        if runs and (runs[-1][-1] == i - 1 or (runs[-1][-1] == i - 2 and i - 1 in capitalised)):
            runs[-1] += [j for j in range(runs[-1][-1] + 1, i + 1)]
        else:
            runs.append([i])
    return tuple(" ".join(words[i] for i in run) for run in runs)


def _a_word(word: str, languages) -> bool:
    """A word of one of the languages at all (wordfreq knows it, however rarely used, or its stem:
    "dicadangkan" of cadang)."""
    if _zipf is None:
        return False
    languages = tuple(languages or ("en",))
    if max(_zipf(word, lang) for lang in languages) > 0:
        return True
    return any(stem != word and max(_zipf(stem, lang) for lang in languages) > 0 for stem in (st(word) for st in _stemmers(languages)))


@lru_cache(maxsize=8)
def _stemmers(languages: tuple) -> list:
    return stemmers(languages)


def _rare(word: str, languages) -> bool:
    """A word rarer than routing.core.common_words.COMMON_ZIPF in every language of the domain: it may be a name."""
    if _zipf is None:
        return False
    return not common_word(word, tuple(languages or ("en",)))


def _told_before(between: str) -> bool:
    """The text between a name and the first player named ends a statement (a full stop, no question mark)."""
    return "?" not in between and any(ch in ".!" for ch in between)
