"""A date pattern compiled to ignore case, rewritten to match case-sensitively in an ASCII text with
no capital letter (a query as the router sees it: casefolded): the same matches at a third of the
cost on the longest patterns, as the engine no longer folds each character it compares.

The rewrite works on the pattern's parse tree: each character or class that ignores case becomes
the ASCII characters (other than A-Z) it matches, as the engine itself answers; everything else is
kept. A pattern with a construct not handled here is not rewritten (None): the caller keeps the
original, so the only effect of this module is speed. tests/test_dates_folded.py checks the
matches of both on the date lexicon's own phrases and on fuzzed texts."""
from __future__ import annotations

import re
from functools import lru_cache

try:  # the parser and compiler behind re (Python 3.11+), and their former names
    from re import _compiler as _sre_compile, _constants as _sre_constants, _parser as _sre_parse
except ImportError:  # pragma: no cover - Python < 3.11
    import sre_compile as _sre_compile
    import sre_constants as _sre_constants
    import sre_parse as _sre_parse

_C = _sre_constants
_ASCII_LOWER = [chr(c) for c in range(128) if not "A" <= chr(c) <= "Z"]  # what a casefolded ASCII text holds
_NEVER = 0xFFFF  # a character no ASCII text holds: a class that matches none of it


class _Unsupported(Exception):
    pass


@lru_cache(maxsize=4096)
def _ascii_matches(items: tuple, flags: int) -> tuple[int, ...]:
    """The ASCII characters (other than A-Z) a character class matches, case ignored as `flags` say."""
    state = _sre_parse.State()
    state.flags = flags
    pattern = _sre_compile.compile(_sre_parse.SubPattern(state, [(_C.IN, list(items))]), flags)
    return tuple(ord(c) for c in _ASCII_LOWER if pattern.fullmatch(c))


def _class(codes: tuple[int, ...], negate: bool = False) -> tuple:
    items = [(_C.LITERAL, c) for c in codes] or [(_C.LITERAL, _NEVER)]
    return (_C.IN, ([(_C.NEGATE, None)] if negate else []) + items)


def _fold(data, icase: bool, flags: int, state) -> list:
    out = []
    for op, av in data:
        if op is _C.LITERAL and icase:
            codes = _ascii_matches(((_C.LITERAL, av),), flags)
            out.append((_C.LITERAL, codes[0]) if len(codes) == 1 else _class(codes))
        elif op is _C.NOT_LITERAL and icase:
            codes = _ascii_matches(((_C.LITERAL, av),), flags)
            out.append((_C.NOT_LITERAL, codes[0]) if len(codes) == 1 else _class(codes, negate=True))
        elif op is _C.IN and icase:
            out.append(_class(_ascii_matches(tuple(av), flags)))
        elif op in (_C.LITERAL, _C.NOT_LITERAL, _C.IN, _C.AT, _C.ANY, _C.CATEGORY, _C.GROUPREF):
            # A backreference compares text with text: in a casefolded ASCII text, ignoring case changes nothing.
            out.append((op, av))
        elif op is _C.BRANCH:
            out.append((op, (av[0], [_sub(b, icase, flags, state) for b in av[1]])))
        elif op is _C.SUBPATTERN:
            group, add, delete, p = av
            inner = (icase or bool(add & re.IGNORECASE)) and not delete & re.IGNORECASE
            out.append((op, (group, add & ~re.IGNORECASE, delete & ~re.IGNORECASE, _sub(p, inner, flags, state))))
        elif op in (_C.MAX_REPEAT, _C.MIN_REPEAT, getattr(_C, "POSSESSIVE_REPEAT", _C.MAX_REPEAT)):
            out.append((op, (av[0], av[1], _sub(av[2], icase, flags, state))))
        elif op in (_C.ASSERT, _C.ASSERT_NOT):
            out.append((op, (av[0], _sub(av[1], icase, flags, state))))
        else:
            raise _Unsupported(op)
    return out


def _sub(p, icase: bool, flags: int, state):
    return _sre_parse.SubPattern(state, _fold(p.data, icase, flags, state))


# A guard: the first characters every match starts with, as a lookahead tried before the pattern's
# many alternatives (most words of a text start none of them). Only necessary prefixes are kept, so
# adding it changes no match.
GUARD_CHARS = 3
_REPEATS = (_C.MAX_REPEAT, _C.MIN_REPEAT, getattr(_C, "POSSESSIVE_REPEAT", _C.MAX_REPEAT))


@lru_cache(maxsize=4096)
def _chars(op, av, flags: int) -> frozenset:
    """The ASCII characters one character item matches (case as it stands in a folded pattern)."""
    state = _sre_parse.State()
    state.flags = flags
    pattern = _sre_compile.compile(_sre_parse.SubPattern(state, [(op, av)]), flags)
    return frozenset(c for c in range(128) if pattern.fullmatch(chr(c)))


def _heads(items: list, k: int, flags: int) -> set:
    """The first (up to k) characters of any match of `items`, as tuples of character sets; a
    shorter tuple leaves the rest open, and () means anything may come first."""
    if k == 0 or not items:
        return {()}
    op, av = items[0]
    rest = items[1:]
    if op in (_C.LITERAL, _C.NOT_LITERAL, _C.ANY, _C.CATEGORY) or op is _C.IN:
        chars = _chars(op, tuple(av) if op is _C.IN else av, flags)
        return {(chars, *t) for t in _heads(rest, k - 1, flags)} if chars else set()
    if op is _C.BRANCH:
        return set().union(*(_heads([*b.data, *rest], k, flags) for b in av[1]))
    if op is _C.SUBPATTERN:
        return _heads([*av[3].data, *rest], k, flags)
    if op in _REPEATS:
        lo, hi, p = av
        out = _heads(rest, k, flags) if lo == 0 else set()
        if hi == 0:
            return out
        if () in _heads(list(p.data), 1, flags):  # a part that may match nothing: left open
            return {()}
        again = (op, (max(lo - 1, 0), hi if hi == _C.MAXREPEAT else hi - 1, p))
        return out | _heads([*p.data, again, *rest], k, flags)
    if op in (_C.ASSERT, _C.ASSERT_NOT, _C.AT):
        return _heads(rest, k, flags)
    return {()}


def _trie(heads: set) -> str:
    """A pattern matching any of the heads (each a tuple of character sets), by first character."""
    by_first: dict[frozenset, set] = {}
    for h in heads:
        by_first.setdefault(h[0], set()).add(h[1:])
    parts = []
    for chars, tails in sorted(by_first.items(), key=lambda kv: sorted(kv[0])):
        head = re.escape(chr(next(iter(chars)))) if len(chars) == 1 else "[" + "".join(re.escape(chr(c)) for c in sorted(chars)) + "]"
        parts.append(head if () in tails else head + "(?:" + _trie(tails) + ")")
    return "|".join(parts)


def _guarded(data: list, flags: int, state) -> list:
    """`data` with a guard lookahead after its leading assertions (unchanged when none is found)."""
    heads = _heads(data, GUARD_CHARS, flags)
    if not heads or () in heads:
        return data
    guard = _sre_parse.parse("(?=" + _trie(heads) + ")", flags).data[0]
    at = 0
    while at < len(data) and data[at][0] in (_C.ASSERT, _C.ASSERT_NOT):
        at += 1
    return [*data[:at], guard, *data[at:]]


def case_sensitive(pattern: re.Pattern) -> re.Pattern | None:
    """`pattern` (compiled with IGNORECASE) as a case-sensitive pattern with the same matches, group
    for group, in any ASCII text without a capital letter; None where it cannot be rewritten."""
    if not pattern.flags & re.IGNORECASE or not isinstance(pattern.pattern, str):
        return None
    return _case_sensitive(pattern.pattern, pattern.flags)


@lru_cache(maxsize=256)  # a date lexicon is loaded per router: its patterns are rewritten once
def _case_sensitive(source: str, flags: int) -> re.Pattern | None:
    try:
        parsed = _sre_parse.parse(source, flags)
        state = parsed.state
        folded = _sub(parsed, bool(state.flags & re.IGNORECASE), flags, state)
        state.flags &= ~re.IGNORECASE
        flags &= ~re.IGNORECASE
        folded.data = _guarded(folded.data, flags, state)
        return _sre_compile.compile(folded, flags)
    except (_Unsupported, AttributeError, TypeError, ValueError, re.error):
        return None
