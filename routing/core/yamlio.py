"""Reading YAML with line numbers, so every validation message can say where, and within limits,
so no lexicon file can hang, exhaust or crash the process that loads it:

- a file is read through routing.core.safefile: a regular file, inside the lexicon root once links are
  resolved, never more than MAX_FILE_BYTES;
- collections nested deeper than MAX_DEPTH are refused while parsing (before the composer, which
  recurses, could overflow the stack);
- aliases may repeat at most MAX_ALIAS_EXPANSION nodes in all (a "billion laughs" is refused), and
  an alias that contains itself is refused;
- any other failure of the loader (an unhashable key such as `? [a, b]`, a RecursionError, ...)
  becomes a LexiconError naming the file: never an exception of another kind.

The shared validators of YAML values (a list of words, a number in a range) live here too."""
from __future__ import annotations

import difflib
import re
from pathlib import Path
from typing import Any

import yaml

from routing.core.errors import LexiconError, Problem
from routing.core.safefile import MAX_FILE_BYTES, TOO_BIG, read_text_bounded


class LineDict(dict):
    """A mapping that remembers the line of itself and of each key (1-based)."""

    line: int = 0

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.lines: dict[Any, int] = {}

    def line_of(self, key: Any) -> int:
        return self.lines.get(key, self.line)

    @property
    def key_lines(self) -> dict[Any, int]:
        return self.lines


class LineList(list):
    """A sequence that remembers the line of itself and of each item (1-based)."""

    line: int = 0

    def __init__(self, *args):
        super().__init__(*args)
        self.lines: list[int] = []

    def line_of(self, index: int) -> int:
        return self.lines[index] if 0 <= index < len(self.lines) else self.line

    @property
    def item_lines(self) -> list[int]:
        return self.lines


MAX_DEPTH = 50  # nested mappings / lists
MAX_ALIAS_EXPANSION = 10_000  # nodes that aliases may repeat, in all


class _DuplicateKey(yaml.MarkedYAMLError):
    pass


_TOO_BIG = TOO_BIG


class _LoadLimit(yaml.MarkedYAMLError):
    """A limit of this loader (depth, aliases, key type), reported with its line like a syntax error."""


# libyaml's C parser when present (several times faster on big imported domains); the
# constructors below are ours either way, so the result is the same.
_BaseLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_BaseLoader):
    pass


def _construct_mapping(loader: _LineLoader, node: yaml.MappingNode) -> LineDict:
    loader.flatten_mapping(node)
    mapping = LineDict()
    mapping.line = node.start_mark.line + 1
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            hash(key)
        except TypeError:
            raise _LoadLimit(
                "while reading a mapping", node.start_mark, f"a key must be text or a number, not a {key_node.id}", key_node.start_mark
            ) from None
        if key in mapping:
            raise _DuplicateKey(
                "while reading a mapping", node.start_mark, f"duplicate key {key!r}", key_node.start_mark
            )
        mapping[key] = loader.construct_object(value_node, deep=True)
        mapping.lines[key] = key_node.start_mark.line + 1
    return mapping


def _construct_sequence(loader: _LineLoader, node: yaml.SequenceNode) -> LineList:
    seq = LineList(loader.construct_object(child, deep=True) for child in node.value)
    seq.line = node.start_mark.line + 1
    seq.lines = [child.start_mark.line + 1 for child in node.value]
    return seq


def _construct_str(loader: _LineLoader, node: yaml.ScalarNode):
    # Dates stay strings: lexicon files are text a person edits, not typed data.
    return loader.construct_scalar(node)


# YAML 1.1 reads on/off/yes/no/y/n as booleans; in word lists they are words ("on", "no"). Only
# true/false stay booleans.
_LineLoader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for ch, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}
_LineLoader.add_implicit_resolver(
    "tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)
_LineLoader.add_constructor("tag:yaml.org,2002:timestamp", _construct_str)


def _check_depth(text: str) -> bool:
    """Walk the parser's events (libyaml's parser keeps its own stack; it does not recurse); whether
    the document holds an alias (without one there is nothing for _check_expansion to count)."""
    depth, aliases = 0, False
    for event in yaml.parse(text, Loader=_BaseLoader):
        if isinstance(event, yaml.AliasEvent):
            aliases = True
        elif isinstance(event, yaml.CollectionStartEvent):
            depth += 1
            if depth > MAX_DEPTH:
                raise _LoadLimit(None, None, f"nested more than {MAX_DEPTH} levels deep", event.start_mark)
        elif isinstance(event, yaml.CollectionEndEvent):
            depth -= 1
    return aliases


def _flow_too_deep(text: str):
    """(line, column) where flow brackets ([ {) first nest deeper than MAX_DEPTH, else None.

    Asked only after the YAML library refused a file: some releases of libyaml refuse deep flow
    nesting in their scanner, before any event reaches _check_depth, each with its own wording. This
    plain scan (quotes and comments skipped) lets the message be ours whatever the library says."""
    depth, line, col, quote = 0, 1, 0, ""
    prev = "\n"
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "\n":
            line, col = line + 1, 0
        if quote:
            if ch == "\\" and quote == '"':
                i += 2
                col += 2
                prev = ""
                continue
            if ch == quote:
                quote = ""
        elif ch in "'\"" and (prev in " \t\n[{,:-" ):
            quote = ch
        elif ch == "#" and prev in " \t\n":
            end = text.find("\n", i)
            i = n if end < 0 else end
            prev = ""
            continue
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return line, col
        elif ch in "]}":
            depth = max(0, depth - 1)
        prev = ch
        col += 1
        i += 1
    return None


def _check_expansion(root: yaml.Node) -> None:
    """Count the nodes the document would have with every alias expanded, without expanding."""
    size: dict[int, int] = {}
    on_path: set[int] = set()
    stack: list[tuple[yaml.Node, bool]] = [(root, False)]

    def children(node: yaml.Node) -> list[yaml.Node]:
        if isinstance(node, yaml.MappingNode):
            return [n for pair in node.value for n in pair]
        if isinstance(node, yaml.SequenceNode):
            return list(node.value)
        return []

    while stack:
        node, done = stack.pop()
        key = id(node)
        if done:
            on_path.discard(key)
            size[key] = 1 + sum(size[id(c)] for c in children(node))
            if size[key] - len(size) > MAX_ALIAS_EXPANSION:  # the first (innermost) collection that blows up
                raise _too_many(node, size[key], len(size))
            continue
        if key in size:
            continue
        on_path.add(key)
        stack.append((node, True))
        for child in children(node):
            if id(child) in on_path:
                raise _LoadLimit(None, None, "an alias refers to a collection that contains it", child.start_mark)
            if id(child) not in size:
                stack.append((child, False))


def _too_many(node: yaml.Node, expanded: int, distinct: int) -> "_LoadLimit":
    """The alias limit, named at the collection where the repeats pile up (its lines)."""
    first, last = node.start_mark.line + 1, node.end_mark.line + 1
    where = f" (the collection on line{'s' if last > first else ''} {first}{f'-{last}' if last > first else ''})"
    return _LoadLimit(
        None, None, f"aliases expand to {expanded:,} nodes from {distinct:,}{where}; at most {MAX_ALIAS_EXPANSION:,} repeated nodes are allowed",
        node.start_mark,
    )


def load_with_lines(text: str) -> Any:
    """Parse YAML into LineDict / LineList within the limits above (yaml.YAMLError on bad syntax
    or a limit passed)."""
    if len(text) > MAX_FILE_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise _LoadLimit(None, None, _TOO_BIG, None)
    aliases = _check_depth(text)
    loader = _LineLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if aliases:
            _check_expansion(node)
        return loader.construct_document(node)
    finally:
        loader.dispose()


def line_of(node: Any, key: Any = None) -> int:
    """The line of a key in a LineDict, an item in a LineList, or the node itself; 0 if unknown."""
    if isinstance(node, LineDict):
        return node.line_of(key) if key is not None else node.line
    if isinstance(node, LineList):
        return node.line_of(key) if isinstance(key, int) else node.line
    return 0


class ProblemCollector:
    """Gathers the problems of one file, so a single load reports all of them."""

    def __init__(self, label: str):
        self.label = label
        self.problems: list[Problem] = []

    def add(self, line: int | None, message: str) -> None:
        self.problems.append(Problem(self.label, line, message))


def str_list(value: Any, collector: "ProblemCollector", line: int, what: str, *, numbers: bool = True) -> list[str]:
    """A list of words or phrases (one string counts as a one-item list), stripped; each item that
    is not text (numbers count as text when `numbers`) or is empty is a problem with its line."""
    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list):
        collector.add(line, f"{what} must be a list of words, not {type(value).__name__}")
        return []
    out = []
    for i, item in enumerate(value):
        item_line = line_of(value, i) or line
        if isinstance(item, bool) or not isinstance(item, (str, int, float) if numbers else str):
            collector.add(item_line, f"{what}: {item!r} is not a word (quote it if YAML read it as a number or yes/no)")
        elif not str(item).strip():
            collector.add(item_line, f"{what}: item {i + 1} is empty")
        else:
            out.append(str(item).strip())
    return out


def number(value: Any, collector: "ProblemCollector", line: int, what: str, lo: float, hi: float | None, default: float) -> float:
    """A number in [lo, hi] (hi None: no upper bound); the default when absent or wrong (a problem)."""
    if value is None:
        return default
    bounds = f"between {lo:g} and {hi:g}" if hi is not None else f">= {lo:g}"
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
        collector.add(line, f"{what} must be a number {bounds}, not {value!r}")
        return default
    if value < lo or (hi is not None and value > hi):
        collector.add(line, f"{what} must be {bounds}, not {value}")
        return default
    return float(value)


def check_keys(node: Any, known, collector: "ProblemCollector", where: str, line: int = 0) -> None:
    """Refuse keys a file may not hold (a misspelt `pipelin:` would otherwise load and do nothing):
    one problem per unknown key, with its line and the nearest known key."""
    if not isinstance(node, dict):
        return
    names = sorted(str(k) for k in known)
    for key in node:
        if key in known:
            continue
        near = difflib.get_close_matches(str(key), names, n=1, cutoff=0.6)
        hint = f"; did you mean {near[0]!r}?" if near else f" (known: {', '.join(names)})"
        collector.add(line_of(node, key) or line or None, f"unknown key {key!r} in {where}{hint}")


def parse_yaml(text: str, file_label: str) -> Any:
    """Parse YAML text; raise LexiconError naming the file and line on any syntax problem."""
    try:
        return load_with_lines(text)
    except _LoadLimit as exc:
        line = exc.problem_mark.line + 1 if exc.problem_mark else None
        raise LexiconError([Problem(file_label, line, " ".join(x for x in (exc.context, exc.problem) if x))]) from None
    except yaml.MarkedYAMLError as exc:
        deep = _flow_too_deep(text)
        if deep is not None:
            raise LexiconError([Problem(file_label, deep[0], f"nested more than {MAX_DEPTH} levels deep")]) from None
        mark = exc.problem_mark or exc.context_mark
        line = mark.line + 1 if mark else None
        problem = " ".join(x for x in (exc.context, exc.problem) if x) or "not valid YAML"
        raise LexiconError([Problem(file_label, line, f"YAML syntax: {problem}")]) from None
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (NUL, most controls)
        pos = exc.position if isinstance(exc.position, int) else 0
        line = text.count("\n", 0, pos) + 1
        column = pos - (text.rfind("\n", 0, pos) + 1) + 1
        raise LexiconError([Problem(file_label, line, f"character U+{exc.character:04X} at column {column} is not allowed in YAML")]) from None
    except yaml.YAMLError as exc:
        raise LexiconError([Problem(file_label, None, f"YAML: {exc}")]) from None
    except RecursionError:
        raise LexiconError([Problem(file_label, None, f"cannot be read: nested too deeply (limit {MAX_DEPTH} levels)")]) from None
    except Exception as exc:  # noqa: BLE001 - whatever the loader raises, the file is at fault
        raise LexiconError([Problem(file_label, None, f"cannot be read: {type(exc).__name__}: {exc}")]) from None


def file_label(root: Path, path: Path) -> str:
    """How messages name a lexicon file: relative to the lexicon folder's parent
    (lexicons/accounting/synonyms.yaml), or the full path when it lies elsewhere."""
    try:
        return str(Path(path).relative_to(Path(root).parent))
    except ValueError:
        return str(path)


def read_yaml(path: Path, file_label: str | None = None, *, root: Path | None = None) -> Any:
    """Parse one YAML file read within its walls (routing.core.safefile: a regular file, inside `root`
    once links are resolved when a root is given, at most MAX_FILE_BYTES); LexiconError naming file
    and line on any problem."""
    label = file_label or str(path)
    return parse_yaml(read_text_bounded(path, label, root=root), label)
