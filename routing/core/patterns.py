"""Safety for user-written regular expressions: a lexicon must never be able to hang routing.

The guard decides by the regex's structure, not by trying it on sample inputs (samples miss
whatever characters they lack). Backtracking turns exponential only when a repeated part can
match the same text in more than one way; so inside any part repeated more than a few times,
every choice the engine makes (which alternative, one more repetition or stop, take an optional
part or skip it) must be decided by the next character: the choices may not start with a
character in common. `(a+)+`, `(q|q)+$`, `(k|kk)+$`, `(.|.)+$`, `(\\w+\\s?)+` are refused;
`(\\d+,)+`, `(ab|ac)+`, `\\b(uang|cash)\\b.{0,20}` pass. A repeated part that can match nothing
(`(a?)*`) is refused too, and so are more than two open-ended repeats in a row that can take the
same characters (`.*a.*b.*c`: polynomial time of degree three on a 1,000-character query).
Possessive repeats and atomic groups are judged like any other part: they do not backtrack, but
the `regex` module does not look at its time limit inside them either, so `(a+)++$` and
`(?>a+)+$` ran ~150 ms per query against a 10 ms limit; both are refused.

At route time every regex runs under a timeout (the `regex` module supports one), and the
regexes of one query share one budget of processor time (RegexBudget): whatever slips through costs
a query a few milliseconds in all, the time-outs are reported, never dropped, and a busy machine
(time spent waiting, not matching) changes no answer.
"""
from __future__ import annotations

import re
import re._constants as C  # noqa: PLC2701 - the standard library's own regex syntax tree
import re._parser as sre_parse  # noqa: PLC2701
import threading
import time

import regex

MATCH_TIMEOUT_S = 0.01  # one regex on one query
QUERY_BUDGET_S = 0.02  # every regex of one query, together
MAX_REGEX_CHARS = 300
MAX_AMBIGUOUS_REPEATS = 2  # outside any repeat: open-ended repeats whose end is not decided by the next character

_OLD_NESTED = regex.compile(r"\((?:[^()\\]|\\.)*\)(?:[+*]|\{\d*,\d*\})")  # a quantified group, textually


class PatternSafetyError(ValueError):
    pass


def check_regex(source: str) -> regex.Pattern:
    """Compile `source` or raise PatternSafetyError saying, in plain words, what is wrong."""
    if len(source) > MAX_REGEX_CHARS:
        raise PatternSafetyError(f"regex is {len(source)} characters long; keep it under {MAX_REGEX_CHARS}")
    try:
        compiled = regex.compile(source, regex.IGNORECASE | regex.V0)
    except regex.error as exc:
        raise PatternSafetyError(f"regex does not compile: {exc}") from None
    problem = structural_problem(source)
    if problem:
        raise PatternSafetyError(f"regex /{source}/ {problem}; that can take exponential time on some inputs - rewrite it")
    return compiled


_PARSE_LOCK = threading.Lock()


def _parse_sub_keeping_branches(source, state, verbose, nested):
    """re._parser._parse_sub without its merge of one-character alternatives into a set: `(a|\\w)`
    must stay a choice, as the `regex` module that runs the pattern treats it. The factoring of a
    common prefix (`(k|kk)` -> `k(|k)`) is kept: it changes no ambiguity."""
    items = []
    while True:
        items.append(sre_parse._parse(source, state, verbose, nested + 1, not nested and not items))
        if not source.match("|"):
            break
        if not nested:
            verbose = state.flags & sre_parse.SRE_FLAG_VERBOSE
    if len(items) == 1:
        return items[0]
    subpattern = sre_parse.SubPattern(state)
    while all(items) and all(item[0] == items[0][0] for item in items):
        prefix = items[0][0]
        for item in items:
            del item[0]
        subpattern.append(prefix)
    subpattern.append((C.BRANCH, (None, items)))
    return subpattern


def _parse_tree(source: str):
    """The syntax tree of `source` as the standard library reads it, choices kept as written.
    (The standard parser is borrowed for a moment; what it builds meanwhile means the same.)"""
    with _PARSE_LOCK:
        original = sre_parse._parse_sub
        sre_parse._parse_sub = _parse_sub_keeping_branches
        try:
            return sre_parse.parse(source, re.IGNORECASE)
        finally:
            sre_parse._parse_sub = original


def structural_problem(source: str) -> str | None:
    """Why the regex's shape can backtrack exponentially, or None."""
    try:
        tree = _parse_tree(source)
    except (re.error, OverflowError, RecursionError, ValueError):
        # Syntax only the `regex` module reads (\p{L}, ...): allowed when no group is repeated.
        if _OLD_NESTED.search(source):
            return "repeats a group in a syntax the safety check cannot read; write it in the common syntax"
        return None
    checker = _Checker(source)
    try:
        checker.seq(list(tree), frozenset(), False)
    except _Unsafe as exc:
        return str(exc)
    if checker.ambiguous > MAX_AMBIGUOUS_REPEATS:
        return (f"has {checker.ambiguous} open-ended repeats in a row that can take the same characters (like .*a.*b.*); "
                f"the time grows with the query's length to the power {checker.ambiguous}")
    return None


class _Unsafe(Exception):
    pass


# A "first set" is a frozenset of atoms: ("lit", ch), ("any",), ("in", items, negate), or ("ref",).
_REPEATS = (C.MAX_REPEAT, C.MIN_REPEAT)
_REPRESENTATIVES = "aZ0_ -\t\n.é€Ωж٣"


class _Checker:
    def __init__(self, source: str):
        chars = set(_REPRESENTATIVES)
        for ch in source:
            chars.update((ch, ch.lower(), ch.upper()))
        self.universe = chars
        self.ambiguous = 0  # open-ended repeats outside any repeat whose end the next character does not decide

    # ---- what a part can start with, and whether it can match nothing

    def first(self, seq: list, follow: frozenset) -> frozenset:
        out: set = set()
        for op, av in seq:
            atoms, nullable = self.item(op, av)
            out |= atoms
            if not nullable:
                return frozenset(out)
        return frozenset(out) | follow

    def nullable(self, seq: list) -> bool:
        return all(self.item(op, av)[1] for op, av in seq)

    def item(self, op, av) -> tuple[frozenset, bool]:
        if op in (C.LITERAL, C.NOT_LITERAL):
            return frozenset({("lit" if op is C.LITERAL else "notlit", chr(av))}), False
        if op is C.ANY:
            return frozenset({("any",)}), False
        if op is C.IN:
            return frozenset({("in", tuple(av))}), False
        if op is C.BRANCH:
            atoms: set = set()
            nullable = False
            for alt in av[1]:
                atoms |= self.first(alt, frozenset())
                nullable = nullable or self.nullable(alt)
            return frozenset(atoms), nullable
        if op is C.SUBPATTERN:
            return self.first(av[3], frozenset()), self.nullable(av[3])
        if op is C.ATOMIC_GROUP:
            return self.first(av, frozenset()), self.nullable(av)
        if op in _REPEATS or op is C.POSSESSIVE_REPEAT:
            lo, _hi, body = av
            return self.first(body, frozenset()), lo == 0 or self.nullable(body)
        if op is C.GROUPREF:
            return frozenset({("any",)}), True
        if op is C.GROUPREF_EXISTS:
            _group, yes, no = av
            branches = [yes] + ([no] if no else [])
            atoms = set().union(*(self.first(b, frozenset()) for b in branches))
            return frozenset(atoms), not no or any(self.nullable(b) for b in branches)
        return frozenset(), True  # anchors, look-arounds: match no character

    # ---- do two first sets share a character?

    def overlap(self, a: frozenset, b: frozenset) -> bool:
        if not a or not b:
            return False
        return any(any(self.matches(x, ch) for x in a) and any(self.matches(y, ch) for y in b) for ch in self.universe)

    def matches(self, atom: tuple, ch: str) -> bool:
        kind = atom[0]
        if kind == "any":
            return ch != "\n"
        if kind == "lit":
            return ch.casefold() == atom[1].casefold()
        if kind == "notlit":
            return ch.casefold() != atom[1].casefold()
        negate = False
        hit = False
        for op, av in atom[1]:
            if op is C.NEGATE:
                negate = True
            elif op is C.LITERAL:
                hit = hit or ch.casefold() == chr(av).casefold()
            elif op is C.RANGE:
                lo, hi = av
                hit = hit or any(lo <= ord(c) <= hi for c in {ch, ch.lower(), ch.upper()})
            elif op is C.CATEGORY:
                hit = hit or _category(av, ch)
        return hit != negate

    # ---- the walk

    def seq(self, seq: list, follow: frozenset, in_repeat: bool) -> None:
        for i, (op, av) in enumerate(seq):
            after = self.first(seq[i + 1:], follow)
            if op is C.BRANCH:
                alts = av[1]
                if in_repeat:
                    firsts = [self.first(alt, after) for alt in alts]
                    for x in range(len(alts)):
                        for y in range(x + 1, len(alts)):
                            if self.overlap(firsts[x], firsts[y]):
                                raise _Unsafe("repeats a choice whose alternatives can match the same text (like (a|a)+ or (k|kk)+)")
                for alt in alts:
                    self.seq(alt, after, in_repeat)
            elif op in _REPEATS or op is C.POSSESSIVE_REPEAT:
                lo, hi, body = av
                body = list(body)
                repeating = hi > 1
                if repeating and self.nullable(body):
                    raise _Unsafe("repeats a part that can match nothing (like (a?)*)")
                if hi > lo and self.overlap(self.first(body, frozenset()), after):
                    if in_repeat:
                        raise _Unsafe("repeats a part inside another repeat where either could take the same text (like (a+)+)")
                    if hi > 1:
                        self.ambiguous += 1
                inner = self.first(body, frozenset()) | after if hi > 1 else after
                self.seq(body, inner, in_repeat or repeating)
            elif op is C.SUBPATTERN:
                self.seq(list(av[3]), after, in_repeat)
            elif op is C.ATOMIC_GROUP:
                self.seq(list(av), after, in_repeat)
            elif op is C.GROUPREF_EXISTS:
                _group, yes, no = av
                self.seq(list(yes), after, in_repeat)
                if no:
                    self.seq(list(no), after, in_repeat)
            # look-arounds: they match no character of their own


def _category(cat, ch: str) -> bool:
    if cat in (C.CATEGORY_DIGIT, C.CATEGORY_UNI_DIGIT):
        return ch.isdigit()
    if cat in (C.CATEGORY_NOT_DIGIT, C.CATEGORY_UNI_NOT_DIGIT):
        return not ch.isdigit()
    if cat in (C.CATEGORY_SPACE, C.CATEGORY_UNI_SPACE):
        return ch.isspace()
    if cat in (C.CATEGORY_NOT_SPACE, C.CATEGORY_UNI_NOT_SPACE):
        return not ch.isspace()
    if cat in (C.CATEGORY_WORD, C.CATEGORY_UNI_WORD):
        return ch.isalnum() or ch == "_"
    if cat in (C.CATEGORY_NOT_WORD, C.CATEGORY_UNI_NOT_WORD):
        return not (ch.isalnum() or ch == "_")
    return True  # line breaks and the like: assume they may overlap


# ---------------------------------------------------------------- at route time


class RegexBudget:
    """The processor time the regexes of one query may take together; once spent, the rest are skipped.
    `timeouts` names every pattern that timed out or was skipped, for the result to report.

    Spent time is this thread's processor time (`time.thread_time`), not the wall clock: on a busy
    machine a query waits for the processor without spending its budget, so the answer does not
    depend on the load. One regex still runs under the `regex` module's own timeout, which is wall
    time; one that times out having used under half its limit of the processor was waiting, not
    working, and gets one more try."""

    def __init__(self, total_s: float = QUERY_BUDGET_S, per_regex_s: float = MATCH_TIMEOUT_S):
        self.left = total_s
        self.per_regex_s = per_regex_s
        self.timeouts: list[str] = []

    def search(self, compiled: regex.Pattern, text: str, label: str = "") -> bool:
        for attempt in (1, 2):
            limit = min(self.per_regex_s, self.left)
            if limit <= 0:
                break
            started = time.thread_time()
            try:
                return compiled.search(text, timeout=limit) is not None
            except TimeoutError:
                if attempt == 2 or time.thread_time() - started >= limit / 2:
                    break
            finally:
                self.left -= time.thread_time() - started
        self.timeouts.append(label)
        return False


def search_with_timeout(compiled: regex.Pattern, text: str) -> tuple[bool, bool]:
    """(matched, timed_out) for one regex on one query (its own budget)."""
    budget = RegexBudget(MATCH_TIMEOUT_S)
    return budget.search(compiled, text), bool(budget.timeouts)
