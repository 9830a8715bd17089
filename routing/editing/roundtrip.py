"""Keeping what a person wrote: an edit is applied to a ruamel.yaml round-trip document (comments,
key order, quoting, flow style survive), then a three-way line merge takes only the lines the edit
changed, so lines ruamel would re-format stay byte for byte as they were."""
from __future__ import annotations

import difflib
import io
from datetime import date, datetime
from typing import Any, Callable

from ruamel.yaml import YAML
from ruamel.yaml.comments import CommentedMap, CommentedSeq
from ruamel.yaml.util import load_yaml_guess_indent

from routing.core.errors import LexiconError, Problem
from routing.core.yamlio import parse_yaml
from routing.editing.files import EditRejected, FileEdit, FileSnapshot

# ---------------------------------------------------------------- round-trip rendering


def _yaml_for(text: str) -> YAML:
    """A round-trip YAML that writes with the file's own indentation and never re-wraps lines."""
    try:
        _, ind, bsi = load_yaml_guess_indent(text)
    except Exception:  # a file that does not parse: the caller's load reports it properly
        ind, bsi = None, None
    y = YAML()
    y.preserve_quotes = True
    y.width = 100_000  # never fold a long line: a person chose where lines break
    y.indent(mapping=2 if bsi is not None or not ind else ind, sequence=ind or 4, offset=bsi if bsi is not None else 2)
    return y


def _dump(y: YAML, doc: Any) -> str:
    if doc is None:
        return ""
    out = io.StringIO()
    y.dump(doc, out)
    return out.getvalue()


def _plain(value: Any) -> Any:
    """ruamel's round-trip types -> plain Python, the way routing.yamlio would read them."""
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, (datetime, date)):
        return value.isoformat()
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        return float(value)
    if isinstance(value, str):
        return str(value)
    return value


def _render(snapshot: FileSnapshot, mutate: Callable[[Any], Any], action: str = "") -> FileEdit:
    """Apply `mutate(doc) -> doc` to the round-trip document and return the minimal new text."""
    crlf = "\r\n" in snapshot.text
    original = snapshot.text.replace("\r\n", "\n") if crlf else snapshot.text
    parse_yaml(original, snapshot.label)  # a file broken by hand: LexiconError with file and line
    y = _yaml_for(original)
    try:
        doc = y.load(original) if original.strip() else None
    except Exception as exc:  # ruamel stricter than the router's reader: still say which file
        raise LexiconError([Problem(snapshot.label, None, f"YAML: {exc}")]) from None
    base = _dump(y, doc)
    doc = mutate(doc)
    theirs = _dump(y, doc)
    if theirs == base:
        return FileEdit(snapshot, snapshot.text, action)
    merged = merge_lines(base, original, theirs)
    intended = _plain(doc)
    if _parses_to(merged, intended, snapshot.label) is not True:
        merged = theirs  # the merge could not be proven faithful: the plain round-trip dump is
    if _parses_to(merged, intended, snapshot.label) is not True:
        raise EditRejected(
            f"{snapshot.file}: the edit cannot be written so that it reads back the same "
            "(a value YAML would read as another type?); nothing was written"
        )
    if crlf:
        merged = merged.replace("\n", "\r\n")
    return FileEdit(snapshot, merged, action)


def _parses_to(text: str, intended: Any, label: str) -> bool | LexiconError:
    try:
        return _plain(parse_yaml(text, label)) == intended
    except LexiconError as exc:
        return exc


def merge_lines(base: str, ours: str, theirs: str) -> str:
    """Three-way line merge. `base` is ruamel's dump of the file as loaded, `ours` the file as a
    person wrote it, `theirs` ruamel's dump after the edit. Regions only the edit changed are
    taken from `theirs`; regions only the person's formatting changed stay as in `ours`; where
    both differ, `theirs` wins (the edit must land; that region is re-formatted)."""
    b, o, t = base.splitlines(keepends=True), ours.splitlines(keepends=True), theirs.splitlines(keepends=True)
    to_ours = _line_map(b, o)
    to_theirs = _line_map(b, t)
    out: list[str] = []
    i = j = k = 0
    while True:
        sync = i
        while sync < len(b) and not (sync in to_ours and sync in to_theirs and to_ours[sync] >= j and to_theirs[sync] >= k):
            sync += 1
        if sync == len(b):
            out += _resolve(b[i:], o[j:], t[k:])
            break
        oj, tk = to_ours[sync], to_theirs[sync]
        out += _resolve(b[i:sync], o[j:oj], t[k:tk])
        out.append(o[oj])
        i, j, k = sync + 1, oj + 1, tk + 1
    return "".join(out)


def merge_three(base: str, ours: str, theirs: str) -> str | None:
    """Merge two edits of the same file made from `base`: `ours` (this save) and `theirs` (what
    another writer put on disk since). None when both changed the same lines (a true conflict).
    Insertions at the same place, both pure additions, keep theirs then ours."""
    b, o, t = base.splitlines(keepends=True), ours.splitlines(keepends=True), theirs.splitlines(keepends=True)
    if b and not b[-1].endswith("\n"):
        return None  # a last line without newline: leave such merges to a person
    def hunks(other: list[str]) -> list[tuple[int, int, list[str]]]:
        ops = difflib.SequenceMatcher(None, b, other, autojunk=False).get_opcodes()
        return [(i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in ops if tag != "equal"]

    mine, other = hunks(o), hunks(t)
    for a1, a2, _ in mine:
        for b1, b2, _ in other:
            if a1 < b2 and b1 < a2:
                return None
            if a1 == b1 and (a1 != a2 or b1 != b2):
                return None  # one replaces lines the other inserts before
    out: list[str] = []
    pos = 0
    for i1, i2, replacement in sorted(other + mine, key=lambda h: h[0]):  # stable: theirs first
        if i1 < pos:
            return None
        out += b[pos:i1] + replacement
        pos = i2
    return "".join(out + b[pos:])


def _line_map(a: list[str], b: list[str]) -> dict[int, int]:
    mapping: dict[int, int] = {}
    for block in difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks():
        for n in range(block.size):
            mapping[block.a + n] = block.b + n
    return mapping


def _resolve(base: list[str], ours: list[str], theirs: list[str]) -> list[str]:
    if ours == base:
        return theirs
    if theirs == base or theirs == ours:
        return ours
    return _merge_disjoint(base, ours, theirs) or theirs


def _merge_disjoint(base: list[str], ours: list[str], theirs: list[str]) -> list[str] | None:
    """Both sides changed this stretch: apply both when their hunks touch different base lines."""
    def hunks(other: list[str]) -> list[tuple[int, int, list[str]]]:
        ops = difflib.SequenceMatcher(None, base, other, autojunk=False).get_opcodes()
        return [(i1, i2, other[j1:j2]) for tag, i1, i2, j1, j2 in ops if tag != "equal"]

    mine, edit = hunks(ours), hunks(theirs)
    for a1, a2, _ in mine:
        for b1, b2, _ in edit:
            if (a1 < b2 and b1 < a2) or a1 == b1:
                return None
    out: list[str] = []
    pos = 0
    for i1, i2, replacement in sorted(mine + edit, key=lambda h: (h[0], h[1])):
        out += base[pos:i1] + replacement
        pos = i2
    return out + base[pos:]


# ---------------------------------------------------------------- ruamel helpers


def _flow_seq(items: list) -> CommentedSeq:
    seq = CommentedSeq(items)
    seq.fa.set_flow_style()
    return seq


def _flow_map(items: dict) -> CommentedMap:
    m = CommentedMap(items)
    m.fa.set_flow_style()
    return m


def _keep_trailing_comment(container: Any, key: Any, previous: Any) -> None:
    """A comment after an entry (a blank line and the next group's heading) belongs to what
    follows; when the entry goes, hand the comment to the entry before it."""
    items = getattr(getattr(container, "ca", None), "items", None)
    if items is None or key not in items or previous is None:
        return
    if previous in items and any(items[previous]):
        return
    items[previous] = items.pop(key)


def _delete_seq_item(seq: CommentedSeq, index: int) -> None:
    _keep_trailing_comment(seq, index, index - 1 if index > 0 else None)
    del seq[index]


def _delete_map_key(mapping: CommentedMap, key: Any) -> None:
    keys = list(mapping.keys())
    pos = keys.index(key)
    _keep_trailing_comment(mapping, key, keys[pos - 1] if pos > 0 else None)
    del mapping[key]


def _sync_list(seq: Any, new: list[str]) -> Any:
    """Make a list hold `new`, touching only what changed (kept items keep their quoting)."""
    if not isinstance(seq, list):
        return _flow_seq(list(new))
    old = [str(x) for x in seq]
    if old == new:
        return seq
    kept_old = [x for x in old if x in new]
    kept_new = [x for x in new if x in old]
    simple = kept_old == kept_new and len(set(new)) == len(new) and len(set(old)) == len(old)
    if simple:
        for i in reversed(range(len(seq))):
            if str(seq[i]) not in new:
                _delete_seq_item(seq, i)
        for v in new:
            if v not in old:
                seq.append(v)
        if [str(x) for x in seq] == new:
            return seq
    existing = {str(x): x for x in seq}
    del seq[:]
    seq.extend(existing.get(v, v) for v in new)
    return seq
