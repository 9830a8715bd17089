"""What a domain's lexicon is once loaded: frozen dataclasses for thresholds, scoring weights, tools
and their parameters, patterns, settings, shared language words and the domain itself, plus the
fixed vocabularies (tool kinds, parameter types, date roles, weekdays) the files may use."""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


KINDS = ("list", "search", "detail", "summary", "report", "create", "action", "chat")
PARAM_TYPES = ("string", "enum", "date", "number", "boolean")
DATE_ROLES = ("date_from", "date_to", "query")
# where a number the question states goes (routing.core.quantities): money, a count ("top 5"), a span of days
NUMBER_ROLES = ("amount", "count", "days")
PARAM_ROLES = DATE_ROLES + NUMBER_ROLES
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")


@dataclass(frozen=True)
class Thresholds:
    high: float = 0.85
    medium: float = 0.50
    low: float = 0.30
    margin: float = 0.10

    def to_dict(self) -> dict:
        return {"high": self.high, "medium": self.medium, "low": self.low, "margin": self.margin}


@dataclass(frozen=True)
class Weights:
    """How many points each signal can add to a tool's confidence (see routing.scoring)."""

    keyword: float = 0.55
    action: float = 0.25
    pattern: float = 0.35
    example: float = 0.25
    semantic: float = 0.0
    learned: float = 0.0  # a linear model trained on the examples (routing.semantic.learned)
    # The lexicon and the example questions agree on the top tool, each ahead of every other tool
    # (routing.core.scoring.score_agreement, routing.core.agreement); 0 leaves the weighted sum as it is.
    agreement: float = 0.0
    # A leader this far ahead of its runner-up, in a question asking one thing, is lifted to the
    # `high` threshold (routing.core.sole.mark_clear_lead); 0 leaves the bands as they are.
    clear_lead: float = 0.0
    # How many of the question's terms such a leader may lack (routing.core.sole.mark_clear_lead); 0: every
    # term must be the leader's. Chosen per domain on its labelled sets, as clear_lead is.
    clear_lead_unheld: int = 0
    # A smaller lead that also lifts such a leader where every close rival holds only some of the leader's terms
    # (routing.core.sole.mark_clear_lead); 0: off.
    clear_lead_subset: float = 0.0
    fuzzy_penalty: float = 0.03
    # Kind fit without a strong verb: every kind starts neutral; a weak verb for the kind, the
    # domain's default kind (only when there is no verb at all) and a date range each add a bonus.
    default_kind: str = "list"
    kind_neutral: float = 0.4
    kind_bonus: float = 0.2
    date_kinds: tuple[str, ...] = ("list", "summary", "report")
    # Kinds never assumed: writes need a verb asking for them; detail views need an identifier.
    explicit_kinds: tuple[str, ...] = ("create", "action")
    identifier_kinds: tuple[str, ...] = ("detail",)
    # Kinds whose verb sends a message: what follows "saying" / "bilang" after one is the message (routing.core.aside)
    message_kinds: tuple[str, ...] = ("action",)
    # Kinds that take free text as an argument (a name, a search term): unknown words in the
    # query are that argument, so they do not count against these tools.
    argument_kinds: tuple[str, ...] = ("search", "detail", "create", "action")
    # Kinds a name in the query points to (a capitalised unknown word: "bills from CV Abadi").
    name_kinds: tuple[str, ...] = ("search",)
    # Action verbs count in example similarity at this fraction of a content word.
    example_verb_weight: float = 0.5


@dataclass(frozen=True)
class Param:
    name: str
    type: str = "string"
    default: Any = None
    values: tuple[str, ...] = ()
    required: bool = False
    role: str | None = None  # date_from / date_to: where a resolved date range goes; query: the words a search is for; amount / count / days: a number
    default_note: str | None = None
    description: str = ""


@dataclass(frozen=True)
class Tool:
    name: str
    description: str
    kind: str
    keywords: tuple[str, ...]
    related: tuple[str, ...]
    params: tuple[Param, ...]
    examples: tuple[tuple[str, str], ...]  # (language, text)
    category: str | None = None
    output: str | None = None
    extra: dict = field(default_factory=dict, compare=False, hash=False)

    @property
    def key_params(self) -> list[str]:
        return [p.name for p in self.params]


@dataclass(frozen=True)
class Pattern:
    tool: str
    phrase: str | None = None
    terms: tuple[str, ...] = ()
    regex: str | None = None
    params: tuple[tuple[str, Any], ...] = ()
    weight: float = 1.0
    line: int = 0
    # canonical terms that, where the question names them, come in this order (the first is the thing
    # asked for: "clients with unpaid invoices" asks for clients; "the invoices clients have not paid", invoices)
    order: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        if self.phrase is not None:
            return f'phrase "{self.phrase}"' + (f" ({' before '.join(self.order)})" if self.order else "")
        if self.terms:
            return "terms [" + ", ".join(self.terms) + "]" + (f" ({' before '.join(self.order)})" if self.order else "")
        return f"regex /{self.regex}/"


@dataclass(frozen=True)
class Settings:
    name: str
    description: str
    languages: tuple[str, ...]
    thresholds: Thresholds
    week_start: int
    fiscal_year_start_month: int
    timezone: str
    currency: str
    vague_words: tuple[str, ...]
    clarifying_question: str
    weights: Weights
    fiscal_year_label: str = "start"   # dates.fiscal_year_label: "FY2025" starts (start) or ends (end) in 2025
    quarters: str = "calendar"         # dates.quarters: Q1..Q4 said alone are calendar quarters or the fiscal year's (fiscal)
    comparisons: str = "asked"         # dates.comparisons: "with the previous month as comparison" is a period asked, or set aside (aside: the tools compare)
    design: str = "tools"  # which routing design routes this domain (routing.designs.DESIGNS)
    design_line: int | None = None
    # phrases holding a term's word in another sense ("train ticket", "slack tide", "pesan taksi"): read as one
    # stop word, so the term is not read inside them (settings.yaml `other_senses`)
    other_senses: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict, compare=False, hash=False)


@dataclass(frozen=True)
class NumberWords:
    """words.yaml `numbers`, every language merged (a word means one factor in all of them)."""

    factors: tuple[tuple[str, int], ...] = ()  # (word, factor): "lakh" -> 100000
    currency: frozenset[str] = frozenset()  # words ("rs", "rp") and signs ("₹", "$") that mark money
    days: frozenset[str] = frozenset()  # words that make a number a span of days ("days", "hari", "din")
    percent: frozenset[str] = frozenset()  # words and signs that make it a share ("%", "persen")
    plus: frozenset[str] = frozenset()  # words that add to an amount ("2 lakh plus GST"; the sign "+" always does)

    @property
    def multipliers(self) -> dict[str, int]:
        by_word = self.__dict__.get("_by_word")
        if by_word is None:  # built once; frozen dataclasses allow a cache in __dict__
            by_word = dict(self.factors)
            object.__setattr__(self, "_by_word", by_word)
        return by_word


@dataclass(frozen=True)
class VerbUse:
    """A word read by where it stands (words.yaml `verb_use`, routing.core.verb_use): a term's word used as a verb
    (`words`: "bill Acme for the work" creates an invoice) after one of `cues` ("need to", "please") or at a
    clause's start, taking an object (one of `objects`, one of `determiners` before a term or a name, or a name;
    a pronoun or a name there with one of `marks` after it); its past after one of `subjects` ("we billed") or
    before one of `recipients` and a name ("billed to Dewi"); a verb that is also a value marker (`markers`:
    "invoice buat CV Berkah?", for) between a term and a name, in a question of what is there."""
    words: tuple[tuple[str, str], ...] = ()
    cues: tuple[tuple[str, ...], ...] = ()
    objects: frozenset[str] = frozenset()
    determiners: frozenset[str] = frozenset()
    marks: frozenset[str] = frozenset()
    subjects: frozenset[str] = frozenset()
    recipients: frozenset[str] = frozenset()
    markers: frozenset[str] = frozenset()


@dataclass(frozen=True)
class LanguageWords:
    stopwords: frozenset[str]
    actions: tuple[tuple[tuple[str, ...], str, float], ...]  # (words, kind, strength)
    suffixes: tuple[tuple[str, str], ...]  # (suffix, replacement), longest first
    # words that say "not" (words.yaml `negations`): any one stands for any other inside a phrase
    negations: frozenset[str] = frozenset()
    # the negation words of languages whose negation follows the word it negates (words.yaml
    # `negation_after_word: true`, e.g. romanised Hindi "pay nahi hua"): "<word> nahi" reads as "not <word>"
    negations_after: frozenset[str] = frozenset()
    # words after which the query states a value ("invoices from acme", "weather in rome"; words.yaml
    # `value_markers`): a free-text parameter no author marked `role: query` takes only such words
    value_markers: frozenset[str] = frozenset()
    # the letters an abbreviation drops (words.yaml `vowels`): "mnth" reads as month (see RouterIndex.abbreviation)
    vowels: frozenset[str] = frozenset()
    # the marks that double the word they end (words.yaml `reduplication`): Indonesian writes the plural
    # "invoice-invoice" as "invoice2", read as the word itself (see routing.core.analysis.read_word)
    reduplication: frozenset[str] = frozenset()
    # the words that may stand between a negation and the word it negates (words.yaml `negation_gap`:
    # "without being paid", "nobody has paid"; not "not just settled")
    negation_gap: frozenset[str] = frozenset()
    # how quantities are written (words.yaml `numbers`): multipliers, currency, day and percent words
    numbers: NumberWords = field(default_factory=lambda: NumberWords())
    # who asked and what for (words.yaml `framing`, routing.core.framing): read as stop words
    framing: tuple = ()
    framing_anchors: frozenset[str] = frozenset()
    # irregular forms of a word (words.yaml `irregular`: "spent" -> spend): read as the word, like an inflection
    irregular: tuple[tuple[str, str], ...] = ()
    # a question of how the asker can do something (words.yaml `advice`: "how do I", "gimana cara"): asks no tool
    advice: tuple = ()
    advice_anchors: frozenset[str] = frozenset()
    # chat shorthand of a word (words.yaml `shorthand`: "brp" -> berapa): read as the word, no typo
    shorthand: tuple[tuple[str, str], ...] = ()
    # words that set a clause aside ("not the profit - the cash"; words.yaml `contrast`), before / after it
    contrast_before: frozenset[str] = frozenset()
    contrast_after: frozenset[str] = frozenset()
    # a speaker correcting themselves ("yesterday no wait I mean last week"; words.yaml `correction`)
    correction: tuple = ()
    correction_anchors: frozenset[str] = frozenset()
    # endings of a verb's past ("issued", "recorded"; words.yaml `past`): such a form of a verb that asks is no request
    past: tuple[str, ...] = ()
    # a clause that says what the answer is for ("before I approve ...", "deciding on ..."; words.yaml `purpose`)
    purpose: tuple = ()
    # a first clause that says where the question comes from ("Customer asks:"; words.yaml `preface`)
    preface: tuple = ()
    # words that make a clause a request ("could you", "please", "tolong"; words.yaml `request`): statements
    # before it are background (routing.core.framing.background_clauses)
    request: tuple = ()
    # words that refer back to what was said before ("it", "them", "itu"; words.yaml `anaphora`): a request
    # holding one leans on its background, which is then kept
    anaphora: frozenset[str] = frozenset()
    # a question whether something was done ("did we", "have you"; words.yaml `done`): the verb of the tools after
    # it says what is asked about, no request to do it ("did we file the GSTR-3B or is it still pending?")
    done: tuple = ()
    done_anchors: frozenset[str] = frozenset()
    # a perfective after a verb (words.yaml `done_after`: Hindi "file kiya", "bana diya"): the verb before it asks no write
    done_after: tuple = ()
    done_after_anchors: frozenset[str] = frozenset()
    # greetings, thanks and goodbyes (words.yaml `courtesy`): a clause of them alone asks nothing, set aside as framing is
    courtesy: tuple = ()
    courtesy_anchors: frozenset[str] = frozenset()
    # words saying something happens on a day (words.yaml `occasions`: "meet", "rapat"; routing.core.occasions)
    occasions: frozenset[str] = frozenset()
    # someone else as a clause's subject (words.yaml `narrators`: "he", "dia"): the clause tells (routing.core.background)
    narrators: frozenset[str] = frozenset()
    # the same said as a clause of its own ("..., no, ...", "..., nahi, ...", "koreksi: ..."; words.yaml `correction_alone`)
    correction_alone: tuple = ()
    correction_alone_anchors: frozenset[str] = frozenset()
    # words that open a question (words.yaml `interrogatives`: "who", "siapa"): a clause opening with one asks
    interrogatives: frozenset[str] = frozenset()
    # what a message to be sent says begins here (words.yaml `message_content`: "saying", "bilang"; routing.core.aside)
    message_content: tuple = ()
    # words that add a date to the one before, no correction ("sorry, and November too"; words.yaml `additive`)
    additive: frozenset[str] = frozenset()
    additive_after: frozenset[str] = frozenset()  # ... said after the later date ("arre, November ka bhi")
    # a date said as the period before another one said ("P&L for November with the previous month as comparison";
    # words.yaml `comparison`, routing.core.occasions.compared)
    comparison: frozenset[str] = frozenset()
    comparison_cues: frozenset[str] = frozenset()  # ... said where the question compares ("vs", "against", "dibanding")
    # a word read by where it stands (words.yaml `verb_use`, routing.core.verb_use)
    verb_use: VerbUse = field(default_factory=VerbUse)
    # the same inside a clause, from the template to the clause's end ("I need to check a bill before I approve
    # payment - find ..."; words.yaml `purpose_within`)
    purpose_within: tuple = ()


@dataclass(frozen=True)
class Domain:
    name: str
    root: Path
    settings: Settings
    tools: tuple[Tool, ...]
    synonyms: tuple[tuple[str, tuple[str, ...]], ...]  # (canonical, variants)
    patterns: tuple[Pattern, ...]
    words: LanguageWords
    fingerprint: str

    def tool(self, name: str) -> Tool | None:
        return self._tools_by_name.get(name)

    def with_weights(self, **changes: float) -> "Domain":
        """The same domain with some scoring weights changed (a variant to measure, a signal that
        cannot speak here); the lexicon on disk is untouched."""
        from dataclasses import replace

        return replace(self, settings=replace(self.settings, weights=replace(self.settings.weights, **changes)))

    def describe(self, **more: Any) -> dict:
        """What `python -m routing domains` and the catalog say of the domain; a design adds to it."""
        return {
            "name": self.name,
            "design": self.settings.design,
            "description": self.settings.description,
            "languages": list(self.settings.languages),
            "tool_count": len(self.tools),
            "tools": [t.name for t in self.tools],
            **more,
        }

    @property
    def _tools_by_name(self) -> dict[str, Tool]:
        by_name = self.__dict__.get("_by_name")
        if by_name is None:  # built once; frozen dataclasses allow a cache in __dict__
            by_name = {t.name: t for t in self.tools}
            object.__setattr__(self, "_by_name", by_name)
        return by_name
