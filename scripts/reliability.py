"""Reliability under pressure and attack (issues 16 and 23): fuzzed queries (folded letters such as
ı, İ, ſ included), concurrent writers, writers killed mid-save, garbage fed to `batch`, hostile
lexicon files, lexicon files that lead outside the lexicon folder (links, devices, FIFOs), regexes
that try to hang, request bodies of every shape sent to the HTTP API, and the LLM endpoint watched
while nobody asks for it.

    python scripts/reliability.py            # the full size (~10 minutes on 2 cores)
    python scripts/reliability.py --quick    # a smaller run (tests/test_reliability.py runs smaller still)

Prints a summary table (and --json for the figures). Exit status 0 when every check holds, 1 when
any does not. Every trial works on a scratch copy of lexicons/; the repository is never touched.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import unicodedata
from datetime import date, timedelta
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from routing.core.errors import ErrorCode, LexiconError  # noqa: E402
from routing.core.lexicon import list_domain_names, load_domain  # noqa: E402
from routing.designs import build_router  # noqa: E402
from routing.editing import store  # noqa: E402

FULL = {"queries": 100_000, "writers": 32, "rounds": 4, "kills": 150, "batch_lines": 5_000, "regexes": 2_000, "bodies": 5_000,
        "llm_queries": 200}
QUICK = {"queries": 10_000, "writers": 16, "rounds": 1, "kills": 40, "batch_lines": 1_000, "regexes": 500, "bodies": 1_000,
         "llm_queries": 50}
# Letters that case-insensitive matching equates with plain ones while lower() keeps them apart.
FOLDED = {"i": ("ı", "İ"), "I": ("İ",), "s": ("ſ",), "k": ("\u212a",)}

STATUSES = {"activated", "multiple_matches", "weak_matches", "not_found", "needs_clarification"}
MATCH_TYPES = {"keyword", "synonym", "fuzzy", "pattern", "semantic", "hybrid", "example"}
ERROR_CODES = {c.value for c in ErrorCode}
MATCH_COUNTS = {"activated": (1, 1), "multiple_matches": (2, 3), "weak_matches": (1, 5), "not_found": (0, 0), "needs_clarification": (0, 0)}
CONTRACT_KEYS = ("query", "domain", "today", "normalized", "corrections", "status", "message", "clarifying_question", "path",
                 "matches", "dates", "error", "events", "timing_ms")


def scratch_lexicons(parent: Path) -> Path:
    dest = parent / "lexicons"
    shutil.copytree(REPO / "lexicons", dest, ignore=shutil.ignore_patterns(".history", ".*.tmp"))
    return dest


# ---------------------------------------------------------------- 1. fuzzed queries

_ODD = [
    "\u200b", "\u200d", "\ufeff", "\u202e", "\u0301", "\u00ad", "\ufdfa", "\u2028", "\x00", "\x1b[31m", "\t", "\r", "🙂", "👨‍👩‍👧",
    "ﬁ", "Ⅻ", "①", "٣", "ß", "İ", "ǅ", "𝔦𝔫𝔳𝔬𝔦𝔠𝔢", "ｉｎｖｏｉｃｅ", "发票", "счёт", "فاتورة", "चालान", "\ud800", "%s", "{0}", "'; DROP",
]
_DATES = ["today", "yesterday", "tomorrow", "last 7 days", "bulan ini", "Q1", "last quarter", "FY 2025-26", "15 Maret 2025",
          "1-15 Januari", "last 99999999 days", "next 100000 years", "tahun lalu", "pichle mahine", "0000-01-01", "31 April",
          "9999-12-31", "last " + "9" * 50 + " days", "minggu lalu", "2 minggu terakhir"]


def vocabulary(root: Path) -> list[str]:
    words: set[str] = set()
    for name in list_domain_names(root):
        d = load_domain(name, root)
        for canon, variants in d.synonyms:
            words.add(canon.replace("_", " "))
            words.update(variants)
        for t in d.tools:
            words.update(ex for _, ex in t.examples)
    return sorted(words)


def fuzzed_query(rng: random.Random, vocab: list[str]) -> object:
    roll = rng.random()
    if roll < 0.01:
        return rng.choice([None, 42, 3.5, b"invoice", ["invoice"], {"q": 1}])  # not text
    if roll < 0.03:
        return rng.choice(["", " ", "\n\t ", "?!?", "...", "\u200b\u200b"])
    if roll < 0.05:
        return rng.choice(vocab) * rng.randint(40, 400)  # far over 1,000 characters
    if roll < 0.06:
        return "\ufdfa" * rng.randint(50, 70)  # short, but folds to over 1,000 characters
    parts: list[str] = []
    for _ in range(rng.randint(1, 8)):
        r = rng.random()
        if r < 0.45:
            word = rng.choice(vocab)
            if rng.random() < 0.3 and len(word) > 3:  # a typo
                i = rng.randrange(len(word) - 1)
                word = word[:i] + word[i + 1] + word[i] + word[i + 2:]
            parts.append(word.upper() if rng.random() < 0.1 else word)
        elif r < 0.6:
            word = rng.choice(_DATES)
            if rng.random() < 0.25:  # 'Q1 Frı' crashed every domain (issue 23)
                word = "".join(rng.choice(FOLDED[c]) if c in FOLDED and rng.random() < 0.5 else c for c in word)
            parts.append(word)
        elif r < 0.7:
            parts.append(str(rng.choice([0, 7, -3, 10**30, 3.14, 2026, 99999999])))
        elif r < 0.85:
            parts.append(rng.choice(_ODD))
        else:
            parts.append("".join(chr(rng.choice([rng.randint(0x20, 0x7E), rng.randint(0xA0, 0x2FFF), rng.randint(0x3000, 0xFFFD),
                                                  rng.randint(0x10000, 0x1FAFF)])) for _ in range(rng.randint(1, 12))))
    return rng.choice([" ", "  ", "", ", ", "\n"]).join(parts)


def contract_problems(out: dict, query: object, today: date, catalog: list[str] | None = None) -> list[str]:
    """What in one route result breaks shared/CONTRACT.md. Matches come best first, equals by name or, where
    `catalog` (the domain's tools in their file's order) is given, in that order (the gateway's equals of one
    kind of service, 004's "postgres, mysql, mongodb")."""
    bad = [f"missing {k}" for k in CONTRACT_KEYS if k not in out]
    if bad:
        return bad
    status, matches = out["status"], out["matches"]
    if status not in STATUSES:
        bad.append(f"status {status!r}")
    if out["path"] not in ("fast", "llm"):
        bad.append(f"path {out['path']!r}")
    if out["today"] != today.isoformat():
        bad.append("today differs from the one given")
    lo, hi = MATCH_COUNTS.get(status, (0, 5))
    if not lo <= len(matches) <= hi:
        bad.append(f"{status} with {len(matches)} matches")
    if status == "not_found" and not out.get("available"):
        bad.append("not_found without available")
    if status == "needs_clarification" and not out["clarifying_question"]:
        bad.append("needs_clarification without a question")
    place = {name: i for i, name in enumerate(catalog or ())}
    for a, b in zip(matches, matches[1:]):
        in_catalog_order = a["name"] in place and b["name"] in place and place[a["name"]] < place[b["name"]]
        if a["confidence"] < b["confidence"] or (a["confidence"] == b["confidence"] and a["name"] > b["name"] and not in_catalog_order):
            bad.append("matches out of order")
    for m in matches:
        if not 0.0 <= m["confidence"] <= 1.0:
            bad.append(f"confidence {m['confidence']}")
        if m["match_type"] not in MATCH_TYPES:
            bad.append(f"match_type {m['match_type']!r}")
        total = sum(v for v in m["score_breakdown"].values() if isinstance(v, (int, float)))
        if abs(total - m["confidence"]) > 0.02:
            bad.append(f"breakdown sums to {total:.3f}, confidence {m['confidence']}")
    for d in out["dates"]:
        if d.get("kind") not in ("calendar", "rolling"):
            bad.append(f"date kind {d.get('kind')!r}")
        if (d["start"] is None) != (d["end"] is None):
            bad.append("date with one end")
        elif d["start"] is None and not d.get("reason"):
            bad.append("unresolved date without a reason")
        elif d["start"] is not None and not date.fromisoformat(d["start"]) <= date.fromisoformat(d["end"]):
            bad.append("date range ends before it starts")
    err = out["error"]
    if err is not None and err.get("code") not in ERROR_CODES:
        bad.append(f"error code {err.get('code')!r}")
    text_ok = isinstance(query, str) and query.strip() and any(ch.isalnum() for ch in query) and \
        max(len(query), len(unicodedata.normalize("NFKC", query))) <= 1000
    if not text_ok and (err is None or err["code"] != "INVALID_QUERY"):
        bad.append("unusable query without INVALID_QUERY")
    if text_ok and err is not None and err["code"] == "INVALID_QUERY":
        bad.append("usable query refused")
    json.dumps(out)  # must serialise
    return bad


def run_fuzz(n: int, root: Path, seed: int = 16) -> dict:
    rng = random.Random(seed)
    routers = {name: build_router(load_domain(name, root)) for name in list_domain_names(root)}
    vocab = vocabulary(root)
    edges = [date(1, 1, 1), date(1, 1, 2), date(9999, 12, 31), date(9999, 12, 30), date(2024, 2, 29), date(2026, 1, 22)]
    exceptions: list[str] = []
    violations: list[str] = []
    times: list[float] = []
    names = sorted(routers)
    for i in range(n):
        router = routers[names[i % len(names)]]
        query = fuzzed_query(rng, vocab)
        today = rng.choice(edges) if rng.random() < 0.2 else date(1, 1, 1) + timedelta(days=rng.randrange(3_652_059))
        try:
            t0 = time.perf_counter()
            out = router.route(query, today=today).to_dict()
            times.append((time.perf_counter() - t0) * 1000)
            problems = contract_problems(out, query, today, [t.name for t in router.domain.tools])
        except Exception as exc:  # noqa: BLE001 - counting them is the point
            exceptions.append(f"{router.name} {query!r:.80} today={today}: {type(exc).__name__}: {exc}")
            continue
        if problems:
            violations.append(f"{router.name} {query!r:.80} today={today}: {'; '.join(problems)}")
    times.sort()
    return {"queries": n, "domains": len(names), "exceptions": len(exceptions), "violations": len(violations),
            "p99_ms": round(times[int(len(times) * 0.99)] if times else 0.0, 2), "max_ms": round(times[-1] if times else 0.0, 1),
            "examples": (exceptions + violations)[:5]}


# ---------------------------------------------------------------- 2. concurrent writers


def run_writers(n: int, rounds: int, parent: Path, domain: str = "accounting") -> dict:
    root = scratch_lexicons(parent / "writers")
    canonicals = [c for c, _ in load_domain(domain, root).synonyms]
    saved = refused = failed = 0
    lost: list[str] = []
    started = time.perf_counter()
    for r in range(rounds):
        jobs = []
        for i in range(n):
            canonical = canonicals[i % len(canonicals)]
            variant = f"zqw{r}x{i}"
            cmd = [sys.executable, "-m", "routing", "--lexicons", str(root), "lexicon", "add-synonym", domain, canonical, variant]
            jobs.append((canonical, variant, subprocess.Popen(cmd, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE)))
        for canonical, variant, proc in jobs:
            _out, err = proc.communicate(timeout=600)
            if proc.returncode == 0:
                saved += 1
            elif proc.returncode == 2:
                refused += 1
            else:
                failed += 1
                lost.append(f"{variant}: exit {proc.returncode}: {err.decode()[-200:]}")
        table = store.read_synonyms(store.read_file(domain, "synonyms.yaml", root))
        load_domain(domain, root)  # the file always parses and validates
        for canonical, variant, proc in jobs:
            if proc.returncode == 0 and variant not in table.get(canonical, []):
                lost.append(f"{variant} reported saved but is not under {canonical}")
    return {"writers": n, "rounds": rounds, "edits": n * rounds, "saved": saved, "refused": refused, "crashed": failed,
            "lost": len(lost), "seconds": round(time.perf_counter() - started, 1), "examples": lost[:5]}


# ---------------------------------------------------------------- 3. writers killed mid-save


def _undo_would_apply(root: Path, domain: str) -> bool | None:
    """None when there is no save to undo; else whether undo_last_save would accept the files."""
    folder = root / domain
    records = [r for r in sorted((folder / ".history").glob("[0-9]*")) if not r.name.endswith("-undone")]
    if not records:
        return None
    meta = json.loads((records[-1] / "save.json").read_text(encoding="utf-8"))
    return all(store.digest_text((folder / f).read_text(encoding="utf-8")) == d["after"] for f, d in meta["files"].items())


def _one_save(i: int, domain: str, canonicals: list[str], root: Path, rng: random.Random) -> None:
    if i % 3 == 2:
        store.set_thresholds(domain, {"high": round(0.85 + rng.random() * 0.1, 3)}, root=root, source="kill-trial")
    else:
        store.add_synonym(domain, canonicals[i % len(canonicals)], f"zqk{i}", root=root, source="kill-trial")


def _die_at_rename(k: int, *, after: bool) -> None:
    """In a forked writer: SIGKILL itself just before (or after) its k-th os.replace (the renames
    of a save: the record's save.json, then each lexicon file)."""
    real = os.replace
    count = [0]

    def replace(src, dst):
        count[0] += 1
        if count[0] == k and not after:
            os.kill(os.getpid(), signal.SIGKILL)
        real(src, dst)
        if count[0] == k and after:
            os.kill(os.getpid(), signal.SIGKILL)

    os.replace = replace


def _phase(folder: Path, before: set[str]) -> str:
    """How far the killed save got, read from what it left on disk (before anything is settled)."""
    new = [r for r in (folder / ".history").glob("[0-9]*") if r.name not in before]
    if not new:
        return "before its record"
    record = new[-1]
    if not (record / "save.json").exists():
        return "writing its record"
    if (record / ".pending").exists():
        return "replacing the file"
    return "finished"


def run_kill_trials(n: int, parent: Path, seed: int = 16, domain: str = "accounting") -> dict:
    """Each trial forks a writer that starts one save at once. A third kill themselves just before
    or after a rename of the save (the record's save.json, the lexicon file); the others are
    SIGKILLed at a random moment between 0 and 1.2x the time a save takes here, half of them in
    the save's last part, where the files are written."""
    root = scratch_lexicons(parent / "kills")
    rng = random.Random(seed)
    canonicals = [c for c, _ in load_domain(domain, root).synonyms]
    folder = root / domain
    t0 = time.perf_counter()
    for i in range(3):  # warm up, and measure what a save takes
        _one_save(-1 - i, domain, canonicals, root, rng)
    save_s = (time.perf_counter() - t0) / 3
    killed = finished = damaged = temp_left = incomplete_left = undo_refused = undone = 0
    phases: dict[str, int] = {}
    examples: list[str] = []
    for i in range(n):
        before = {r.name for r in (folder / ".history").glob("[0-9]*")}
        ready_r, ready_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the writer: one save, then gone
            try:
                os.close(ready_r)
                if i % 3 == 0:  # a third die at an exact point of the writing: around the k-th rename
                    _die_at_rename(rng.randint(1, 2), after=rng.random() < 0.5)
                os.write(ready_w, b"1")
                _one_save(i, domain, canonicals, root, rng)
            finally:
                os._exit(0)
        os.close(ready_w)
        os.read(ready_r, 1)
        os.close(ready_r)
        if i % 3:  # the others are killed from outside: half anywhere in the save, half in its last part
            time.sleep(save_s * (rng.random() * 1.2 if i % 2 else 0.7 + rng.random() * 0.5))
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _, status = os.waitpid(pid, 0)
        if os.WIFSIGNALED(status):
            killed += 1
            phase = _phase(folder, before)
            phases[phase] = phases.get(phase, 0) + 1
        else:
            finished += 1
        # What the next person sees: the lexicon loads, and the next load settles the leftovers.
        try:
            load_domain(domain, root)
        except LexiconError as exc:
            damaged += 1
            examples.append(f"trial {i}: {exc}")
        store.read_file(domain, "synonyms.yaml", root)
        temps = [p for p in list(folder.glob(".*.tmp")) + list((folder / ".history").glob(".*.tmp"))]
        temp_left += len(temps)
        incomplete = [r for r in (folder / ".history").glob("[0-9]*") if not (r / "save.json").exists() or (r / ".pending").exists()]
        incomplete_left += len(incomplete)
        can_undo = _undo_would_apply(root, domain)
        if can_undo is False:
            undo_refused += 1
            examples.append(f"trial {i}: the last save cannot be undone")
        if can_undo and rng.random() < 0.1:  # now and then, really undo it
            result = store.undo_last_save(domain, root)
            undone += result.status == "saved"
            if result.status != "saved":
                undo_refused += 1
                examples.append(f"trial {i}: undo {result.status}: {result.message}")
    return {"trials": n, "save_ms": round(save_s * 1000), "killed": killed, "finished": finished, "phases": phases,
            "yaml_damaged": damaged, "temp_files_left": temp_left, "incomplete_records_left": incomplete_left,
            "undo_refused": undo_refused, "undone": undone, "examples": examples[:5]}


# ---------------------------------------------------------------- 4. garbage fed to batch


def garbage_lines(n: int, rng: random.Random) -> list[bytes]:
    good = [b"outstanding invoices", "faktur bulan ini".encode(), "Umsätze letzte Woche 🙂".encode(), b"", b"   "]
    bad = [b"\xff\xfe", b"kas\xc3", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\x80\x80", b"\xe2\x82", b"\xfe\xff\x00i"]
    lines = []
    for _ in range(n):
        r = rng.random()
        if r < 0.4:
            line = rng.choice(good)
        elif r < 0.8:
            line = rng.choice(good) + rng.choice(bad) + rng.choice(good)
        elif r < 0.9:
            line = bytes(rng.randrange(256) for _ in range(rng.randint(1, 60))).replace(b"\n", b"")
        elif r < 0.95:
            line = b"invoice \r tagihan\x00 \x1b[2J"
        else:
            line = (b"x" * rng.randint(900, 3000)) + rng.choice(bad)
        lines.append(line)
    return lines


def run_garbage_batch(n: int, parent: Path, seed: int = 16) -> dict:
    rng = random.Random(seed)
    lines = garbage_lines(n, rng)
    data = b"\n".join(lines)  # the last line has no newline
    undecodable = []
    for line in lines:
        try:
            line.decode("utf-8")
            undecodable.append(False)
        except UnicodeDecodeError:
            undecodable.append(True)
    base_env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHONIOENCODING", "LC_", "LANG", "PYTHONUTF8"))}
    runs = {"PYTHONIOENCODING=utf-8": {"PYTHONIOENCODING": "utf-8"}, "default locale": {}, "LC_ALL=C": {"LC_ALL": "C", "PYTHONUTF8": "0"}}
    out: dict = {"lines_in": len(lines), "undecodable_in": sum(undecodable), "runs": {}}
    for label, extra in runs.items():
        proc = subprocess.run([sys.executable, "-m", "routing", "batch"], input=data, capture_output=True, cwd=REPO,
                              env={**base_env, **extra}, timeout=1800)
        got = proc.stdout.split(b"\n")
        if got and got[-1] == b"":
            got.pop()
        not_utf8 = not_json = wrong = 0
        for i, raw in enumerate(got):
            try:
                obj = json.loads(raw.decode("utf-8"))
            except UnicodeDecodeError:
                not_utf8 += 1
                continue
            except ValueError:
                not_json += 1
                continue
            if i < len(undecodable) and undecodable[i] and (obj.get("error") or {}).get("code") != "INVALID_QUERY":
                wrong += 1
        out["runs"][label] = {"exit": proc.returncode, "lines_out": len(got), "not_utf8": not_utf8, "not_json": not_json,
                              "bad_line_not_invalid_query": wrong, "traceback": b"Traceback" in proc.stderr}
    return out


# ---------------------------------------------------------------- 5. hostile lexicon files


def hostile_cases() -> dict[str, tuple[str, str]]:
    bomb = "lol: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"l{i}: &{chr(98 + i)} [{', '.join('*' + chr(97 + i) for _ in range(10))}]\n" for i in range(8))
    return {
        "alias bomb (unknown key, settings)": ("accounting/settings.yaml", "\nbomb:\n  " + bomb.replace("\n", "\n  ")),
        "unhashable key ? [a, b]": ("accounting/settings.yaml", "\n? [a, b]\n: 1\n"),
        "nesting 1,000 deep": ("accounting/synonyms.yaml", "\ndeep: " + "[" * 1000 + "]" * 1000 + "\n"),
        "nesting 100,000 deep": ("accounting/synonyms.yaml", "\ndeep: " + "[" * 100_000 + "\n"),
        "self-referring alias": ("accounting/synonyms.yaml", "\nloop: &l [*l]\n"),
        "50 MB file": ("accounting/tools.yaml", "#" + "x" * 50_000_000 + "\n"),
        "broken _shared/dates.yaml": ("_shared/dates.yaml", "\nen: [\n"),
        "misspelt key pipelin:": ("cfo/tools.yaml", None),
        "not UTF-8": ("accounting/patterns.yaml", "\n# \udcff\n"),
    }


def run_hostile_lexicons(parent: Path) -> dict:
    rows = {}
    for label, (file, extra) in hostile_cases().items():
        root = scratch_lexicons(parent / f"hostile{len(rows)}")
        path = root / file
        if extra is None:
            path.write_text(path.read_text().replace("    pipeline:", "    pipelin:", 1))
        else:
            with path.open("ab") as fh:
                fh.write(extra.encode("utf-8", "surrogateescape"))
        domain = file.split("/")[0] if not file.startswith("_") else "accounting"
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, "-m", "routing", "--lexicons", str(root), "route", "outstanding invoices", "--domain", domain],
                              capture_output=True, cwd=REPO, timeout=300)
        rows[label] = {"exit": proc.returncode, "seconds": round(time.perf_counter() - t0, 2),
                       "traceback": b"Traceback" in proc.stderr, "names_file": Path(file).name.encode() in proc.stderr}
        shutil.rmtree(root.parent, ignore_errors=True)
    return rows


# ---------------------------------------------------------------- 6. regexes that try to hang


def _time_search(compiled, probe: str) -> float:
    t0 = time.perf_counter()
    try:
        compiled.search(probe, timeout=1.0)
    except TimeoutError:
        pass
    return time.perf_counter() - t0


def run_regex_fuzz(n: int, seed: int = 16) -> dict:
    """Random small regexes: every one the guard accepts, run on inputs made of its own characters,
    must finish within the per-query budget (the runtime timeout is the backstop, not the rule)."""
    from routing.core.patterns import MATCH_TIMEOUT_S, PatternSafetyError, check_regex

    rng = random.Random(seed)
    atoms = ["a", "b", "k", "é", ".", r"\w", r"\s", r"\d", "[ab]", "[^a]", "kk", "ab"]
    quants = ["", "", "+", "*", "?", "{2,}", "{1,3}"]

    def gen(depth: int = 0) -> str:
        parts = []
        for _ in range(rng.randint(1, 3)):
            if depth < 2 and rng.random() < 0.35:
                alts = "|".join(gen(depth + 1) for _ in range(rng.randint(1, 3)))
                parts.append(f"({alts}){rng.choice(quants)}")
            else:
                parts.append(rng.choice(atoms) + rng.choice(quants))
        return "".join(parts)

    accepted = refused = slow = 0
    worst = 0.0
    examples: list[str] = []
    for _ in range(n):
        source = gen() + rng.choice(["$", "!", ""])
        try:
            compiled = check_regex(source)
        except PatternSafetyError:
            refused += 1
            continue
        accepted += 1
        chars = [c for c in source if c.isalnum()] or ["a"]
        for probe in ("".join(rng.choice(chars) for _ in range(60)) + "!", chars[0] * 60 + "!", "a k" * 30 + "\x00"):
            spent = min(_time_search(compiled, probe) for _ in range(3))  # the least of three: machine noise aside
            worst = max(worst, spent)
            if spent > MATCH_TIMEOUT_S:
                slow += 1
                examples.append(f"/{source}/ took {spent * 1000:.0f} ms on {probe[:20]!r}")
    return {"regexes": n, "accepted": accepted, "refused": refused, "accepted_but_slow": slow,
            "worst_ms": round(worst * 1000, 1), "examples": examples[:5]}


# ---------------------------------------------------------------- 7. the lexicon folder's walls

_WATCH = """
import os, runpy, sys
watched = {os.path.realpath(p) for p in os.environ["RELIABILITY_WATCH"].split(os.pathsep) if p}
seen = []
def hook(event, args):
    if event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
        try:
            path = os.path.realpath(os.fsdecode(args[0]))
        except (TypeError, ValueError):
            return
        if path in watched:
            seen.append(path)
sys.addaudithook(hook)
sys.argv = ["routing", *sys.argv[1:]]
try:
    runpy.run_module("routing", run_name="__main__")
finally:
    sys.stderr.write(f"\\nOUTSIDE_READS={len(seen)}\\n")
"""


def wall_cases(outside: Path) -> dict:
    """label -> (file in the lexicon folder, what it becomes, the path a read would be outside)."""
    return {
        "synonyms.yaml linked to /etc/passwd": ("accounting/synonyms.yaml", ("link", "/etc/passwd"), "/etc/passwd"),
        "synonyms.yaml linked to a valid file outside": ("accounting/synonyms.yaml", ("link", str(outside)), str(outside)),
        "synonyms.yaml linked to /dev/zero": ("accounting/synonyms.yaml", ("link", "/dev/zero"), "/dev/zero"),
        "_shared/dates.yaml linked outside": ("_shared/dates.yaml", ("link", str(outside)), str(outside)),
        "synonyms.yaml a FIFO": ("accounting/synonyms.yaml", ("fifo", None), ""),
        "domain folder linked outside": ("accounting", ("linkdir", None), ""),
        "control: an ordinary synonyms.yaml (the hook must see it read)": ("accounting/synonyms.yaml", ("keep", None), "SELF"),
    }


def run_walls(parent: Path) -> dict:
    """Each case routes once in a child process watched by an audit hook: how it exits, whether it
    names the file, how many times it opened the path outside the lexicon folder, and no hang."""
    rows = {}
    for label, (file, (kind, target), watch) in wall_cases(parent / "outside.yaml").items():
        root = scratch_lexicons(parent / f"walls{len(rows)}")
        (parent / "outside.yaml").write_text((root / "accounting" / "synonyms.yaml").read_text())
        path = root / file
        watched = [str(path) if watch == "SELF" else watch]
        if kind == "keep":
            pass
        elif kind == "linkdir":
            away = parent / f"away{len(rows)}"
            shutil.move(str(path), away)
            path.symlink_to(away, target_is_directory=True)
            watched = [str(p) for p in away.iterdir()]
        else:
            path.unlink()
            if kind == "link":
                path.symlink_to(target)
            else:
                os.mkfifo(path)
        t0 = time.perf_counter()
        try:
            proc = subprocess.run([sys.executable, "-c", _WATCH, "--lexicons", str(root), "route", "outstanding invoices",
                                   "--domain", "accounting"], capture_output=True, cwd=REPO, timeout=60,
                                  env=dict(os.environ, RELIABILITY_WATCH=os.pathsep.join(watched)))
            hung = False
        except subprocess.TimeoutExpired as exc:
            proc, hung = exc, True
        err = (proc.stderr or b"")
        reads = int(err.rsplit(b"OUTSIDE_READS=", 1)[1].split()[0]) if b"OUTSIDE_READS=" in err else -1
        rows[label] = {"control": kind == "keep", "exit": None if hung else proc.returncode, "seconds": round(time.perf_counter() - t0, 2), "hung": hung,
                       "traceback": b"Traceback" in err, "names_file": Path(file).name.encode() in err, "outside_reads": reads}
        shutil.rmtree(root.parent, ignore_errors=True)
    return rows


# ---------------------------------------------------------------- 8. request bodies of every shape


def random_json(rng: random.Random, depth: int = 0):
    roll = rng.random()
    if depth < 4 and roll < 0.15:
        return [random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    if depth < 4 and roll < 0.3:
        return {rng.choice(["a", "player_ids", "mode", "high", "ı", ""]): random_json(rng, depth + 1) for _ in range(rng.randint(0, 3))}
    return rng.choice([None, True, False, 0, 1, -1, 0.5, 1.5, -0.0, 1e308, "", "x", "L1", "live", "2026-01-22", "Q1 Frı", "İ", "ſ",
                       "2026-02-30", "saka", "outstanding invoices", "\u200b", "a" * 1200])


def random_body(rng: random.Random) -> object:
    if rng.random() < 0.03:
        return random_json(rng)
    fields = ["query", "domain", "today", "thresholds", "context", "data_mode", "max_depth", "llm", "bogus"]
    body: dict = {}
    if rng.random() < 0.5:  # a request as a client writes it, with one odd part at most
        body = {"query": rng.choice(["outstanding invoices", "Q1 Frı sales", "stats for saka", "show me the bots", "hello",
                                     "query my database", "gstr3b summary", "İnvoices last week"]),
                "domain": rng.choice(["accounting", "cfo", "football", "factory", "powers"])}
        fields = rng.sample(["today", "thresholds", "context", "data_mode", "max_depth"], 1)
    else:
        fields = rng.sample(fields, rng.randint(0, len(fields)))
    for f in fields:
        if f == "domain" and rng.random() < 0.8:
            body[f] = rng.choice(["accounting", "cfo", "football", "factory", "powers"])
        elif f == "thresholds" and rng.random() < 0.7:
            body[f] = {k: rng.choice([0, 0.0, 0.3, 0.5, 0.85, 1, 1.2, -1, None, "x"]) for k in rng.sample(["high", "medium", "low", "margin"], rng.randint(0, 4))}
        elif f == "context" and rng.random() < 0.6:
            body[f] = {k: random_json(rng) for k in rng.sample(["player_ids", "players", "max_depth", "data_mode", "power"], rng.randint(0, 3))}
        elif f == "llm":
            body[f] = rng.choice([False, None, 0, "yes"])  # never True: no endpoint is watched here
        elif f == "bogus" and rng.random() < 0.7:
            continue
        else:
            body[f] = random_json(rng)
    return body


def run_bodies(n: int, seed: int = 16) -> dict:
    """Random request bodies to POST /route in process: every answer is a 2xx/4xx in the contract's
    shape, never a 500."""
    from fastapi.testclient import TestClient

    from routing.serve.app import create_app

    rng = random.Random(seed)
    counts: dict[int, int] = {}
    bad: list[str] = []
    with TestClient(create_app(REPO / "lexicons"), raise_server_exceptions=False) as client:
        for i in range(n):
            body = random_body(rng)
            raw = json.dumps(body) if rng.random() > 0.02 else "[" * rng.choice([40, 2000, 60000])
            r = client.post("/route", content=raw)
            counts[r.status_code] = counts.get(r.status_code, 0) + 1
            shaped = r.status_code == 200 and "status" in r.json() or r.status_code >= 400 and "error" in r.json()
            if r.status_code >= 500 or not shaped:
                bad.append(f"{r.status_code} for {raw[:120]}")
    return {"bodies": n, "statuses": dict(sorted(counts.items())), "server_errors": sum(v for k, v in counts.items() if k >= 500),
            "unshaped": len(bad), "examples": bad[:5]}


# ---------------------------------------------------------------- 9. the LLM only when asked


def run_llm_watch(n: int, parent: Path) -> dict:
    """An OpenAI-compatible endpoint that counts what reaches it (and answers 503 at once): `batch`
    routes n golden questions per domain with OPENAI_BASE_URL set and nobody asking for the LLM
    (must be 0 calls), then `route --llm` asks once (must reach it: the counter works)."""
    import http.server
    import threading

    hits: list[str] = []

    class Counter(http.server.BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            hits.append(self.path)
            self.rfile.read(int(self.headers.get("Content-Length") or 0))
            self.send_response(503)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Counter)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    env = dict(os.environ, OPENAI_BASE_URL=f"http://127.0.0.1:{server.server_address[1]}/v1", OPENAI_API_KEY="sk-watch",
               ROUTING_LLM_TIMEOUT="2", ROUTING_LLM_RETRIES="0")
    per_domain: dict[str, int] = {}
    try:
        for name in list_domain_names(REPO / "lexicons"):
            # Its own golden questions plus questions no domain covers (where a design might reach for a model).
            questions = golden_questions(REPO / "lexicons", name)[:n] + OFF_TOPIC
            before = len(hits)
            subprocess.run([sys.executable, "-m", "routing", "batch", "--domain", name, "--today", "2026-01-22"],
                           input="\n".join(q.replace("\n", " ") for q in questions).encode(), capture_output=True, cwd=REPO,
                           env=env, timeout=600)
            per_domain[name] = len(hits) - before
        before = len(hits)
        subprocess.run([sys.executable, "-m", "routing", "route", "why did expenses grow, compare with sales", "--domain", "cfo",
                        "--today", "2026-01-22", "--llm"], capture_output=True, cwd=REPO, env=env, timeout=120)
        asked = len(hits) - before
    finally:
        server.shutdown()
    return {"per_domain": per_domain, "unasked_calls": sum(per_domain.values()), "asked_calls": asked,
            "questions": sum(min(n, len(golden_questions(REPO / "lexicons", d))) + len(OFF_TOPIC) for d in per_domain)}


OFF_TOPIC = ["what is the weather on mars", "tell me a joke about penguins", "xq zzv plorb", "how do I bake sourdough bread",
             "apa kabar hari ini", "kya haal hai"]


def golden_questions(root: Path, domain: str) -> list[str]:
    from routing.quality.evaluate import load_golden

    try:
        return [c.query for c in load_golden(root / domain / "golden.yaml")]
    except Exception:  # noqa: BLE001 - a golden format this loader does not read: the batch still runs
        import yaml

        data = yaml.safe_load((root / domain / "golden.yaml").read_text(encoding="utf-8"))
        found: list[str] = []

        def walk(node):
            if isinstance(node, str):
                found.append(node)
            elif isinstance(node, list):
                for x in node:
                    walk(x)
            elif isinstance(node, dict):
                for k in ("query", "q", "question"):
                    if isinstance(node.get(k), str):
                        found.append(node[k])
                        return
                for x in node.values():
                    walk(x)
        walk(data)
        return found


# ---------------------------------------------------------------- the run


def run_all(sizes: dict, *, only: set[str] | None = None) -> dict:
    results: dict = {}
    with tempfile.TemporaryDirectory(prefix="reliability-") as tmp:
        parent = Path(tmp)
        steps = {
            "fuzz": lambda: run_fuzz(sizes["queries"], REPO / "lexicons"),
            "writers": lambda: run_writers(sizes["writers"], sizes["rounds"], parent),
            "kills": lambda: run_kill_trials(sizes["kills"], parent),
            "batch": lambda: run_garbage_batch(sizes["batch_lines"], parent),
            "hostile": lambda: run_hostile_lexicons(parent),
            "regex": lambda: run_regex_fuzz(sizes["regexes"]),
            "walls": lambda: run_walls(parent),
            "bodies": lambda: run_bodies(sizes["bodies"]),
            "llm": lambda: run_llm_watch(sizes["llm_queries"], parent),
        }
        for name, step in steps.items():
            if only and name not in only:
                continue
            t0 = time.perf_counter()
            results[name] = step()
            results[name + "_seconds"] = round(time.perf_counter() - t0, 1)
            print(f"  {name}: done in {results[name + '_seconds']} s", file=sys.stderr, flush=True)
    return results


def verdicts(r: dict) -> list[tuple[str, str, bool]]:
    """(check, figure, holds) rows of the summary table."""
    rows = []
    if "fuzz" in r:
        f = r["fuzz"]
        rows.append((f"{f['queries']:,} fuzzed queries ({f['domains']} domains)",
                     f"{f['exceptions']} exceptions, {f['violations']} contract violations, p99 {f['p99_ms']} ms",
                     f["exceptions"] == 0 and f["violations"] == 0))
    if "writers" in r:
        w = r["writers"]
        rows.append((f"{w['writers']} concurrent writers x {w['rounds']} rounds",
                     f"{w['saved']}/{w['edits']} saved, {w['refused']} refused, {w['lost']} lost, {w['crashed']} crashed ({w['seconds']} s)",
                     w["saved"] == w["edits"] and w["lost"] == 0))
    if "kills" in r:
        k = r["kills"]
        where = ", ".join(f"{v} {p}" for p, v in sorted(k["phases"].items(), key=lambda x: -x[1]))
        rows.append((f"{k['trials']} writers SIGKILLed mid-save (1/3 at a rename, 2/3 at 0-{k['save_ms'] * 6 // 5} ms; a save: {k['save_ms']} ms)",
                     f"{k['killed']} killed ({where}), {k['finished']} finished; {k['yaml_damaged']} damaged, {k['temp_files_left']} temp files and "
                     f"{k['incomplete_records_left']} incomplete records left, {k['undo_refused']} undo refused ({k['undone']} undone)",
                     k["yaml_damaged"] == k["temp_files_left"] == k["incomplete_records_left"] == k["undo_refused"] == 0))
    if "batch" in r:
        b = r["batch"]
        for label, run in b["runs"].items():
            rows.append((f"batch, {b['lines_in']:,} garbage lines ({b['undecodable_in']:,} not UTF-8), {label}",
                         f"exit {run['exit']}, {run['lines_out']:,} lines out, {run['not_utf8']} not UTF-8, {run['not_json']} not JSON, "
                         f"{run['bad_line_not_invalid_query']} bad lines without INVALID_QUERY",
                         run["exit"] == 0 and run["lines_out"] == b["lines_in"] and run["not_utf8"] == run["not_json"] == 0
                         and run["bad_line_not_invalid_query"] == 0 and not run["traceback"]))
    if "hostile" in r:
        for label, h in r["hostile"].items():
            rows.append((f"hostile lexicon: {label}", f"exit {h['exit']} in {h['seconds']} s, file named: {h['names_file']}",
                         h["exit"] == 3 and not h["traceback"] and h["names_file"] and h["seconds"] < 30))
    if "regex" in r:
        g = r["regex"]
        rows.append((f"{g['regexes']:,} random regexes through the guard",
                     f"{g['accepted']} accepted, {g['refused']} refused; accepted but over 10 ms: {g['accepted_but_slow']} (worst {g['worst_ms']} ms)",
                     g["accepted_but_slow"] == 0))
    if "walls" in r:
        for label, h in r["walls"].items():
            if h.get("control"):
                rows.append((f"lexicon walls, {label}", f"exit {h['exit']}, reads seen: {h['outside_reads']}",
                             h["exit"] == 0 and h["outside_reads"] >= 1))
                continue
            rows.append((f"lexicon walls: {label}", f"exit {h['exit']} in {h['seconds']} s, hung: {h['hung']}, file named: {h['names_file']}, "
                         f"reads outside: {h['outside_reads']}",
                         h["exit"] == 3 and not h["hung"] and not h["traceback"] and h["names_file"] and h["outside_reads"] == 0))
    if "bodies" in r:
        b = r["bodies"]
        rows.append((f"{b['bodies']:,} random request bodies to POST /route",
                     f"statuses {b['statuses']}; {b['server_errors']} server errors, {b['unshaped']} answers outside the contract",
                     b["server_errors"] == 0 and b["unshaped"] == 0))
    if "llm" in r:
        m = r["llm"]
        rows.append((f"LLM endpoint watched: {m['questions']:,} golden questions over {len(m['per_domain'])} domains, none asking",
                     f"{m['unasked_calls']} calls unasked ({', '.join(f'{k} {v}' for k, v in m['per_domain'].items())}); "
                     f"route --llm reached it {m['asked_calls']} time(s)",
                     m["unasked_calls"] == 0 and m["asked_calls"] >= 1))
    return rows


def print_table(rows: list[tuple[str, str, bool]]) -> None:
    w1 = max(len(a) for a, _, _ in rows)
    w2 = max(len(b) for _, b, _ in rows)
    print(f"| {'check'.ljust(w1)} | {'figures'.ljust(w2)} | ok |")
    print(f"|{'-' * (w1 + 2)}|{'-' * (w2 + 2)}|----|")
    for a, b, ok in rows:
        print(f"| {a.ljust(w1)} | {b.ljust(w2)} | {'yes' if ok else 'NO'} |")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--quick", action="store_true", help="smaller counts")
    p.add_argument("--only", nargs="*", choices=["fuzz", "writers", "kills", "batch", "hostile", "regex", "walls", "bodies", "llm"])
    p.add_argument("--json", action="store_true", help="print the figures as JSON after the table")
    args = p.parse_args(argv)
    sizes = QUICK if args.quick else FULL
    results = run_all(sizes, only=set(args.only) if args.only else None)
    rows = verdicts(results)
    print_table(rows)
    if args.json:
        print(json.dumps(results, indent=2, ensure_ascii=False))
    for name in ("fuzz", "writers", "kills", "regex", "bodies"):
        for line in (results.get(name) or {}).get("examples", []):
            print(f"  {name}: {line}")
    return 0 if all(ok for _, _, ok in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
