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
        return _sre_compile.compile(folded, flags & ~re.IGNORECASE)
    except (_Unsupported, AttributeError, TypeError, ValueError, re.error):
        return None
