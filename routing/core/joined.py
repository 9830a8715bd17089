"""Tokens that belong together although the tokenizer splits them: an amount written with digit
groups ("2,500,000", "1.750.000") and an e-mail address ("rina.putri@gmail.com"). Language-free."""
from __future__ import annotations


def address_end(tokens, i: int, text: str) -> int:
    """End (exclusive) of an e-mail address starting at token i (tokens joined by ".", "_", "-" or
    one "@", no spaces); i + 1 if the run has no "@". A domain written after a lone "@" ("ends in
    @gmail.com") is an address's part too: a name, not the service it spells."""
    j = i + 1
    start = tokens[i].start
    at = start > 0 and text[start - 1] == "@" and (start == 1 or text[start - 2].isspace()) and (
        j < len(tokens) and text[tokens[i].end : tokens[j].start] == ".")
    while j < len(tokens):
        gap = text[tokens[j - 1].end : tokens[j].start]
        if gap == "@" and not at:
            at = True
        elif gap not in (".", "_", "-"):
            break
        j += 1
    return j if at else i + 1


def amount_end(tokens, i: int, text: str) -> int:
    """End (exclusive) of a grouped number starting at token i: digits, then groups of exactly
    three digits each after a single "," or "." ("2,500,000", "1.750.000"); i + 1 if none."""
    j = i + 1
    if not tokens[i].text.isdigit() or len(tokens[i].text) > 3:
        return j
    while (
        j < len(tokens) and tokens[j].text.isdigit() and len(tokens[j].text) == 3
        and text[tokens[j - 1].end : tokens[j].start] in (",", ".")
    ):
        j += 1
    return j
