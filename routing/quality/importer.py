"""Bring your own intents: labelled utterances (CSV) -> a new domain folder.

    result = import_labelled_csv("train.csv", "banking77", root=Path("lexicons"), holdout=0.1)

writes lexicons/<name>/ with settings.yaml, tools.yaml (one tool per label, its utterances as
examples, a description read from the label), synonyms.yaml (empty, for the editor to fill),
patterns.yaml (empty list) and golden.yaml: a deterministic, stratified held-out share of every
label that the router never sees as an example, for `python -m routing eval`.

Nothing is written until the whole CSV has been read and the new domain has validated; files are
written to a temporary folder that is renamed into place (atomic for the domain as a whole).
"""
from __future__ import annotations

import csv
import hashlib
import io
import re
import shutil
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path

import yaml

from routing.core.lexicon import (
    DEFAULT_LEXICON_ROOT,
    SHARED_DIR,
    domain_from_data,
)
from routing.core.model import Domain
from routing.quality.evaluate import LABEL_COLUMNS, GoldenCase
from routing.semantic.learned import enough_to_learn

# Tool names as the OpenAI "tools" format accepts them; other characters become "_".
TOOL_NAME_RE = re.compile(r"[^A-Za-z0-9_-]+")
DOMAIN_NAME_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
MAX_TOOL_NAME = 64
MAX_UTTERANCE_CHARS = 1000  # the router refuses longer queries, so longer examples are useless
REFERENCE_TODAY = "2026-01-22"  # golden corpora resolve dates against one fixed day

# Scoring for an imported domain: the examples are all it knows, so they carry the confidence;
# keywords and patterns count once a person adds synonyms and patterns.
# example: the query's words against the examples' (BM25); semantic: embedding closeness to the
# examples (routing.semantic), what carries paraphrases.
IMPORTED_WEIGHTS = {"keyword": 0.35, "pattern": 0.35, "action": 0.0, "example": 0.5, "semantic": 0.5, "fuzzy_penalty": 0.03}
# With enough examples to learn from (routing.semantic.learned.enough_to_learn), a model trained on
# them (`learned`) tells close intents apart best and carries most of the weight. These add up to
# about 1, so a strong match is not capped at 1.0 where the contract's ties (A-Z) would decide.
# Chosen on a split of Banking77's training set only, never on a test set.
IMPORTED_WEIGHTS_LEARNED = {"keyword": 0.1, "pattern": 0.1, "action": 0.0, "example": 0.25, "semantic": 0.05,
                            "learned": 0.4, "fuzzy_penalty": 0.01}
# The contract's own tiers: an imported domain is calibrated (`calibration: fit`, see
# routing/core/calibration.py), so its confidence is a probability and the defaults mean what they say.
IMPORTED_THRESHOLDS = {"high": 0.85, "medium": 0.5, "low": 0.3, "margin": 0.1}
# Rows whose label says "not one of ours": negatives, for calibration and out-of-scope rejection.
from routing.core.calibration import NEGATIVE_LABELS  # noqa: E402


class ImportProblem(ValueError):
    """The CSV cannot become a domain; the message says why in plain words."""


@dataclass(frozen=True)
class ImportedTool:
    name: str
    label: str
    examples: int
    heldout: int


@dataclass(frozen=True)
class ImportResult:
    domain: str
    folder: Path
    tools: tuple[ImportedTool, ...]
    rows_read: int
    skipped: tuple[str, ...] = ()  # why rows were left out (empty text, too long, duplicate)
    renamed: dict[str, str] = field(default_factory=dict)  # label -> tool name, where they differ

    @property
    def examples(self) -> int:
        return sum(t.examples for t in self.tools)

    @property
    def heldout(self) -> int:
        return sum(t.heldout for t in self.tools)

    def to_dict(self) -> dict:
        return {
            "domain": self.domain,
            "folder": str(self.folder),
            "rows_read": self.rows_read,
            "tools": len(self.tools),
            "examples": self.examples,
            "heldout": self.heldout,
            "skipped": list(self.skipped),
            "renamed": dict(self.renamed),
        }


@dataclass(frozen=True)
class LabelledRows:
    by_label: dict[str, list[str]]  # label -> distinct utterances, in file order
    rows_read: int
    skipped: tuple[str, ...]
    negatives: tuple[str, ...] = ()  # rows labelled oos / none / empty: questions that are not ours


def tool_name_for(label: str) -> str:
    name = TOOL_NAME_RE.sub("_", label.strip()).strip("_")
    return name[:MAX_TOOL_NAME] or "unnamed"


def description_for(label: str) -> str:
    """'card_arrival' -> 'Card arrival.': readable until a person writes a better one."""
    text = re.sub(r"[_\-.]+", " ", label).strip()
    text = re.sub(r"\s+", " ", text)
    return (text[:1].upper() + text[1:] + ".") if text else "Imported intent."


def read_labelled_rows(source: str | bytes | Path, *, text_col: str = "text", label_col: str = "category") -> LabelledRows:
    """Parse CSV text (or a file) into utterances per label; raise ImportProblem on a bad file."""
    if isinstance(source, Path):
        try:
            source = source.read_bytes()
        except OSError as exc:
            raise ImportProblem(f"Cannot read {source}: {exc.strerror}.") from None
    if isinstance(source, bytes):
        try:
            source = source.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportProblem("The file is not UTF-8 text. Save it as CSV (UTF-8) and try again.") from None
    try:
        reader = csv.DictReader(io.StringIO(source, newline=""))
        columns = [c.strip() for c in (reader.fieldnames or [])]
    except csv.Error as exc:
        raise ImportProblem(f"The CSV cannot be read: {exc}.") from None
    if not columns:
        raise ImportProblem("The file is empty: it needs a header row and one utterance per row.")
    missing = [c for c in (text_col, label_col) if c not in columns]
    if missing:
        raise ImportProblem(
            f"Column {' and '.join(repr(m) for m in missing)} not found; the header has {', '.join(repr(c) for c in columns)}. "
            "Choose the text and label columns."
        )
    reader.fieldnames = columns
    by_label: dict[str, list[str]] = {}
    seen: dict[str, set[str]] = {}
    skipped: list[str] = []
    negatives: dict[str, str] = {}
    rows = 0
    try:
        for line_no, row in enumerate(reader, start=2):
            rows += 1
            text = " ".join((row.get(text_col) or "").split())
            label = (row.get(label_col) or "").strip()
            if not text:
                skipped.append(f"line {line_no}: empty text")
                continue
            if len(text) > MAX_UTTERANCE_CHARS:
                skipped.append(f"line {line_no}: text longer than {MAX_UTTERANCE_CHARS} characters")
                continue
            if label.casefold() in NEGATIVE_LABELS:
                negatives.setdefault(text.casefold(), text)
                continue
            key = text.casefold()
            if key in seen.setdefault(label, set()):
                skipped.append(f"line {line_no}: duplicate of an earlier {label} utterance")
                continue
            seen[label].add(key)
            by_label.setdefault(label, []).append(text)
    except csv.Error as exc:
        raise ImportProblem(f"The CSV cannot be read near line {reader.line_num}: {exc}.") from None
    if not by_label:
        raise ImportProblem("No labelled utterances found: every row has an empty text or a negative label (oos / none / empty).")
    return LabelledRows(by_label, rows, tuple(skipped), tuple(negatives.values()))


def split_holdout(utterances: list[str], share: float) -> tuple[list[str], list[str]]:
    """(examples, held out): the same rows every run (ordered by a hash of the text), the given
    share of each label held out, at least one example always kept."""
    if share <= 0 or len(utterances) < 2:
        return list(utterances), []
    ranked = sorted(utterances, key=lambda u: hashlib.sha1(u.encode("utf-8")).hexdigest())
    n_out = min(len(utterances) - 1, max(1, round(len(utterances) * share)))
    held = set(ranked[:n_out])
    return [u for u in utterances if u not in held], [u for u in utterances if u in held]


# A language is the domain's when its common words (wordfreq Zipf >= this) explain the utterances.
LANGUAGE_ZIPF = 3.0
LANGUAGE_MIN_SHARE = 0.3  # of the words the languages chosen so far leave unexplained
LANGUAGE_MIN_LEFT = 0.1  # another language is considered only while this share is unexplained


def infer_languages(texts: list[str], candidates: list[str]) -> list[str]:
    """The languages of the utterances, among `candidates` (those lexicons/_shared/words.yaml has):
    greedily, the language whose common words explain most of the words not yet explained.
    Without it an imported domain had `languages: []`, which turned the real-word guard off
    ("writing" corrected to "waiting"). Empty without wordfreq."""
    try:
        from wordfreq import available_languages, zipf_frequency
    except ImportError:  # pragma: no cover
        return []
    known = set(available_languages())
    candidates = [c for c in candidates if c in known]
    words = {w for t in texts for w in re.findall(r"[^\W\d_]{3,}", t.casefold())}
    if not words or not candidates:
        return []
    common = {lang: {w for w in words if zipf_frequency(w, lang) >= LANGUAGE_ZIPF} for lang in candidates}
    chosen: list[str] = []
    left = set(words)
    while len(left) >= LANGUAGE_MIN_LEFT * len(words) and len(chosen) < len(candidates):
        lang = max((c for c in candidates if c not in chosen), key=lambda c: (len(common[c] & left), c))
        gain = len(common[lang] & left)
        if gain < LANGUAGE_MIN_SHARE * len(left):
            break
        chosen.append(lang)
        left -= common[lang]
    return chosen


def build_domain_files(
    name: str, rows: LabelledRows, *, holdout: float, source_label: str = "", languages: list[str] | None = None
) -> tuple[dict[str, object], ImportResult]:
    """The parsed content of each file of the new domain (file name -> data), and its summary."""
    tools_yaml: list[dict] = []
    golden_cases: list[dict] = []
    imported: list[ImportedTool] = []
    renamed: dict[str, str] = {}
    used: set[str] = set()
    for label in sorted(rows.by_label):
        tool = tool_name_for(label)
        base, k = tool, 2
        while tool in used:
            tool, k = f"{base[: MAX_TOOL_NAME - 4]}_{k}", k + 1
        used.add(tool)
        if tool != label:
            renamed[label] = tool
        examples, held = split_holdout(rows.by_label[label], holdout)
        entry = {"name": tool, "description": description_for(label), "kind": "chat"}
        if tool != label:
            entry["label"] = label  # the label as the data spells it: eval --data maps it back
        tools_yaml.append({**entry, "examples": examples})
        if held:
            golden_cases.append({"expect": {"tool": tool}, "queries": held})
        imported.append(ImportedTool(tool, label, len(examples), len(held)))
    negatives, negatives_held = split_holdout(list(rows.negatives), holdout) if rows.negatives else ([], [])
    settings = {
        "name": name,
        "description": f"Imported from {source_label or 'a CSV'}: {len(imported)} intents.",
        "languages": list(languages or []),
        "thresholds": dict(IMPORTED_THRESHOLDS),
        **IMPORTED_SETTINGS,
        "scoring": dict(IMPORTED_WEIGHTS_LEARNED if enough_to_learn(sum(t.examples for t in imported), sum(1 for t in imported if t.examples)) else IMPORTED_WEIGHTS),
        "calibration": "fit",
    }
    files = new_domain_files(settings, tools_yaml, golden_cases, negatives_held)
    if negatives:
        files["negatives.yaml"] = {"negatives": negatives}
    summary = ImportResult(name, Path(), tuple(imported), rows.rows_read, rows.skipped, renamed)
    return files, summary


HEADERS = {
    "settings.yaml": "# Imported intents: scoring leans on example similarity (see routing/importer.py).\n",
    "tools.yaml": "# One tool per label; its utterances are the examples. Edit descriptions freely.\n",
    "synonyms.yaml": "# Canonical term -> variants. Add terms here to make keywords count.\n",
    "patterns.yaml": "# Phrases / term sets / regexes -> a tool (see lexicons/accounting/patterns.yaml).\n",
    "golden.yaml": "# Held-out utterances (never used as examples): python -m routing eval --domain NAME\n",
    "negatives.yaml": "# Questions that are not this domain's (rows labelled oos / none / empty): they teach it to say no.\n",
}


def checked_texts(name: str, files: dict, root: Path, headers: dict[str, str] | None = None,
                  unchecked: tuple[str, ...] = ("golden.yaml", "negatives.yaml")) -> dict[str, str]:
    """The texts of a new domain's files (file name -> text), once its data validates as a domain.

    The data validated is the data written: the safe dumper quotes every string that would read back
    as something else ("yes", "1.0", "2024-01-01", "null"), so parsing the text again gives the same
    values (tests/test_import_roundtrip.py) and would only spend seconds on a big catalog. `unchecked`: the files no
    domain is built from (questions to measure it, questions that are not its)."""
    texts = {f: (headers or HEADERS)[f] + _dump(data) for f, data in files.items()}
    domain_from_data(name, {f: d for f, d in files.items() if f not in unchecked}, root=root)
    return texts


def _dump(data: object) -> str:
    dumper = getattr(yaml, "CSafeDumper", yaml.SafeDumper)  # libyaml's emitter when there is one: the same text, faster
    return yaml.dump(data, Dumper=dumper, allow_unicode=True, sort_keys=False, width=120, default_flow_style=False)


# What every imported domain's settings.yaml says besides its own description, thresholds and weights.
IMPORTED_SETTINGS = {
    "dates": {"week_start": "monday", "fiscal_year_start_month": 1},
    "vague": {"words": [], "question": "Could you say a little more about what you need?"},
}


def new_domain_files(settings: dict, tools_yaml: list, golden_cases: list, negatives: list) -> dict:
    """The files of a newly imported domain (file name -> data): every importer writes the same set."""
    return {
        "settings.yaml": settings,
        "tools.yaml": {"tools": tools_yaml},
        "synonyms.yaml": {},
        "patterns.yaml": {"patterns": []},
        "golden.yaml": {"today": REFERENCE_TODAY, "cases": golden_cases, "negative": negatives},
    }


def import_target(root: Path, name: str, *, force: bool, example: str) -> Path:
    """The folder an import writes a new domain to, or ImportProblem saying why it cannot: a name
    that is not a plain lower-case name or is reserved, a domain that exists (without `force`), a
    lexicon root without _shared/words.yaml. Every importer (CSV, tool catalogs) asks here."""
    if not DOMAIN_NAME_RE.match(name or ""):
        raise ImportProblem(f"Domain name {name!r} must be lower-case letters, digits, '-' or '_' (e.g. {example}).")
    if name.startswith("_") or name == SHARED_DIR:
        raise ImportProblem(f"{name!r} is reserved.")
    folder = root / name
    if folder.exists() and not force:
        raise ImportProblem(f"Domain {name!r} already exists in {root}; choose another name or replace it (--force).")
    if not (root / SHARED_DIR / "words.yaml").exists():
        raise ImportProblem(f"{root} has no {SHARED_DIR}/words.yaml; copy lexicons/{SHARED_DIR} there first.")
    return folder


def import_labelled_csv(
    source: str | bytes | Path,
    name: str,
    *,
    root: Path | str = DEFAULT_LEXICON_ROOT,
    text_col: str = "text",
    label_col: str = "category",
    holdout: float = 0.1,
    force: bool = False,
    source_label: str = "",
) -> ImportResult:
    """Turn a labelled CSV into lexicons/<name>/; refuses to replace a domain unless `force`."""
    root = Path(root)
    if not 0 <= holdout < 1:
        raise ImportProblem(f"The held-out share must be between 0 and 1 (e.g. 0.1), not {holdout}.")
    folder = import_target(root, name, force=force, example="banking77")
    if isinstance(source, Path) and not source_label:
        source_label = source.name
    rows = read_labelled_rows(source, text_col=text_col, label_col=label_col)
    shared_languages = [str(k) for k in (yaml.safe_load((root / SHARED_DIR / "words.yaml").read_text(encoding="utf-8")) or {})]
    utterances = [u for us in rows.by_label.values() for u in us]
    languages = infer_languages(utterances, shared_languages)
    files, summary = build_domain_files(name, rows, holdout=holdout, source_label=source_label, languages=languages)
    write_domain_folder(root, name, checked_texts(name, files, root))
    return ImportResult(summary.domain, folder, summary.tools, summary.rows_read, summary.skipped, summary.renamed)


def write_domain_folder(root: Path, name: str, texts: dict[str, str]) -> Path:
    """Write a domain's files (file name -> text) into a temporary folder renamed into place:
    atomic for the domain as a whole (an existing folder of that name is replaced)."""
    folder = root / name
    staging = Path(tempfile.mkdtemp(prefix=f".{name}.", dir=root))
    staging.chmod(0o755)  # mkdtemp makes it private; a domain folder is ordinary
    try:
        for f, text in texts.items():
            (staging / f).write_text(text, encoding="utf-8")
        if folder.exists():
            trash = root / f".{name}.replaced"
            shutil.rmtree(trash, ignore_errors=True)
            folder.rename(trash)
            staging.rename(folder)
            shutil.rmtree(trash, ignore_errors=True)
        else:
            staging.rename(folder)
    except OSError as exc:
        shutil.rmtree(staging, ignore_errors=True)
        raise ImportProblem(f"Could not write {folder}: {exc.strerror}.") from None
    return folder


def _decode(source: str | bytes) -> str:
    if isinstance(source, bytes):
        try:
            return source.decode("utf-8-sig")
        except UnicodeDecodeError:
            raise ImportProblem("The file is not UTF-8 text. Save it as CSV (UTF-8) or plain text and try again.") from None
    return source


def csv_columns(source: str | bytes) -> list[str]:
    """The header of a CSV (empty if it has none)."""
    try:
        return [c.strip() for c in next(csv.reader(io.StringIO(_decode(source), newline="")), [])]
    except csv.Error as exc:
        raise ImportProblem(f"The CSV cannot be read: {exc}.") from None


def read_queries(source: str | bytes, *, is_csv: bool, text_col: str = "text", label_col: str | None = None) -> list[GoldenCase]:
    """Queries to run (the one reader of labelled query files: eval --data, coverage, tuner):
    a CSV (text column; optional label column = the expected tool, a label oos / none / empty
    = a negative that must come back not_found) or plain text, one query a line.
    `label_col="auto"` takes the first of LABEL_COLUMNS the header has."""
    text = _decode(source)
    if not is_csv:
        return [GoldenCase(query=line.strip(), line=i + 1) for i, line in enumerate(text.splitlines()) if line.strip()]
    columns = csv_columns(text)
    if text_col not in columns:
        raise ImportProblem(f"Column {text_col!r} not found; the header has {', '.join(repr(c) for c in columns) or 'nothing'}. Name the text column (--text-col).")
    if label_col == "auto":
        label_col = next((c for c in LABEL_COLUMNS if c in columns and c != text_col), None)
    elif label_col is not None and label_col not in columns:
        raise ImportProblem(f"Column {label_col!r} not found; the header has {', '.join(repr(c) for c in columns)}.")
    try:
        reader = csv.reader(io.StringIO(text, newline=""))
        next(reader, None)
        ti = columns.index(text_col)
        li = columns.index(label_col) if label_col in columns else None
        out = []
        for i, row in enumerate(reader):
            query = " ".join(row[ti].split()) if ti < len(row) else ""
            if not query:
                continue
            if li is None:
                out.append(GoldenCase(query=query, line=i + 2))
                continue
            label = row[li].strip() if li < len(row) else ""
            if label.casefold() in NEGATIVE_LABELS:
                out.append(GoldenCase(query=query, status="not_found", line=i + 2, group="negative"))
            else:
                out.append(GoldenCase(query=query, tool=label, line=i + 2))
        return out
    except csv.Error as exc:
        raise ImportProblem(f"The CSV cannot be read: {exc}.") from None


def relabel_cases(domain: Domain, cases: list[GoldenCase]) -> list[GoldenCase]:
    """Map labels the importer had to rename ("reverted_card_payment?") to their tool names."""
    renamed = {str(t.extra["label"]): t.name for t in domain.tools if t.extra.get("label")}
    if not renamed:
        return cases
    return [replace(c, tool=renamed.get(c.tool, c.tool)) if c.tool else c for c in cases]
