"""Safety for user-written regular expressions: a lexicon must never be able to hang routing.

Two guards: a static check that rejects the classic catastrophic shapes (a quantified group that
itself contains a quantifier, e.g. `(a+)+`, `(\\w*)*`, `(a|aa)+`), then a probe that runs the regex
on adversarial inputs under a time limit. At route time every regex also runs under a timeout
(the `regex` module supports one; the standard `re` does not), so even a pattern that slipped
through costs at most a few milliseconds.
"""
from __future__ import annotations

import regex

# Time limits in seconds. The probe limit is generous: it runs once per save, not per query.
PROBE_TIMEOUT_S = 0.2
MATCH_TIMEOUT_S = 0.01
MAX_REGEX_CHARS = 300

_NESTED_QUANTIFIER = regex.compile(r"\((?:[^()\\]|\\.)*(?:[+*]|\{\d*,\d*\})(?:[^()\\]|\\.)*\)(?:[+*]|\{\d*,\d*\})")
_PROBE_UNITS = ("a", "1", " ", "ab", "a ", "invoice ", "x1", "-")


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
    if _NESTED_QUANTIFIER.search(source):
        raise PatternSafetyError(
            f"regex /{source}/ repeats a group that itself repeats (like (a+)+); "
            "that can take exponential time on some inputs - rewrite it without the nested repeat"
        )
    for unit in _PROBE_UNITS:
        probe = unit * 40 + "\u0000!"
        try:
            compiled.search(probe, timeout=PROBE_TIMEOUT_S)
        except TimeoutError:
            raise PatternSafetyError(
                f"regex /{source}/ took over {PROBE_TIMEOUT_S * 1000:.0f} ms on a 80-character test input; "
                "it would backtrack catastrophically - simplify it"
            ) from None
    return compiled


def search_with_timeout(compiled: regex.Pattern, text: str) -> tuple[bool, bool]:
    """(matched, timed_out) for one regex on one query."""
    try:
        return compiled.search(text, timeout=MATCH_TIMEOUT_S) is not None, False
    except TimeoutError:
        return False, True
