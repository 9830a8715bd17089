"""A lexicon that fails validation names the file, the line and the problem, and routing keeps
serving the last good version."""
from __future__ import annotations

import shutil
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from routing import LexiconError, RouterRegistry, Status, load_domain
from routing.core.patterns import PatternSafetyError, check_regex
from routing.core.router import Router

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture()
def lex(tmp_path) -> Path:
    dest = tmp_path / "lexicons"
    shutil.copytree(ROOT / "lexicons", dest, ignore=shutil.ignore_patterns(".history"))
    return dest


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, old
    path.write_text(text.replace(old, new, 1))


def _problem(lex: Path) -> str:
    with pytest.raises(LexiconError) as info:
        load_domain("accounting", lex)
    return str(info.value)


def _line_of(path: Path, needle: str) -> int:
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if needle in line)


def test_yaml_syntax_error_names_file_and_line(lex):
    syn = lex / "accounting" / "synonyms.yaml"
    _edit(syn, "customer: [client,", "customer: [client,,, {")
    msg = _problem(lex)
    assert "lexicons/accounting/synonyms.yaml line" in msg and "YAML syntax" in msg


def test_wrong_type_names_the_key(lex):
    settings = lex / "accounting" / "settings.yaml"
    _edit(settings, "high: 0.85", "high: very")
    msg = _problem(lex)
    assert f"settings.yaml line {_line_of(settings, 'high: very')}" in msg and "thresholds.high" in msg


def test_pattern_naming_unknown_tool_or_param(lex):
    pat = lex / "accounting" / "patterns.yaml"
    _edit(pat, "tool: receivables_aging}", "tool: receivables_agin}")
    assert "unknown tool 'receivables_agin'" in _problem(lex)
    shutil.copy(ROOT / "lexicons/accounting/patterns.yaml", pat)
    _edit(pat, "params: {status: unpaid}}", "params: {colour: unpaid}}")
    assert "does not have" in _problem(lex) and "colour" in _problem(lex)


def test_one_variant_under_two_canonical_terms(lex):
    syn = lex / "accounting" / "synonyms.yaml"
    _edit(syn, "supplier: [vendor,", "supplier: [pelanggan, vendor,")
    msg = _problem(lex)
    assert "'pelanggan' is listed under both 'customer'" in msg
    assert f"synonyms.yaml line {_line_of(syn, 'supplier: [pelanggan')}" in msg


def test_catastrophic_regex_is_rejected_quickly(lex):
    pat = lex / "accounting" / "patterns.yaml"
    text = pat.read_text() + "  - {regex: '(a+)+$', tool: invoice_list}\n  - {regex: '(a|aa)+$', tool: invoice_list}\n"
    pat.write_text(text)
    msg = _problem(lex)
    assert "like (a+)+" in msg and "(a|a)+ or (k|kk)+" in msg
    assert "exponential time" in msg


@pytest.mark.parametrize("source", [r"(q|q)+$", r"(é|é)+$", r"(k|kk)+$", r"(.|.)+$", r"(\w+\s?)+$", r"(a?)*b",
                                    r"(a+)++$", r"(?>a+)+$"])
def test_the_regex_guard_decides_by_structure_not_by_probing(source):
    """Shapes whose characters no fixed probe input holds are refused all the same."""
    with pytest.raises(PatternSafetyError, match="exponential"):
        check_regex(source)


@pytest.mark.parametrize("source", [r"(\d+,)+", r"(ab|ac)+", r"\b(uang|cash)\b.{0,20}\b(in|out)\b", r"(?>ab)+", r"(ab?)+", r"a++b"])
def test_the_regex_guard_passes_unambiguous_repeats(source):
    check_regex(source)


def test_the_regexes_of_one_query_share_one_budget_and_time_outs_are_reported():
    import regex as regex_module

    from routing.core.patterns import QUERY_BUDGET_S, RegexBudget

    slow = regex_module.compile(r"(q|q)+$", regex_module.IGNORECASE)  # past the guard, as if it had slipped through
    budget = RegexBudget()
    started = time.thread_time()
    for i in range(50):
        budget.search(slow, "q" * 40 + "!", f"pattern {i}")
    spent = time.thread_time() - started
    assert len(budget.timeouts) == 50  # each one named, none dropped
    assert spent < QUERY_BUDGET_S * 10  # fifty slow regexes cost one budget of processor time, not fifty timeouts


def test_a_busy_machine_spends_no_regex_budget():
    """Time a query spends waiting for the processor is not time its regexes took: the answer stays."""
    import regex as regex_module

    from routing.core.patterns import QUERY_BUDGET_S, RegexBudget

    budget = RegexBudget()
    time.sleep(QUERY_BUDGET_S * 2)  # the wall clock passes the whole budget; the processor does not
    assert budget.search(regex_module.compile(r"\bkas\b"), "saldo kas bulan lalu", "cash")
    assert budget.timeouts == []


def test_a_regex_that_timed_out_while_waiting_gets_one_more_try():
    import regex as regex_module

    from routing.core.patterns import RegexBudget

    class Preempted:  # times out without using the processor, as when the machine is busy
        def __init__(self, waits: int):
            self.runs, self.waits = 0, waits
            self.inner = regex_module.compile(r"\bkas\b")

        def search(self, text, timeout):
            self.runs += 1
            if self.runs <= self.waits:
                raise TimeoutError("regex timed out")
            return self.inner.search(text, timeout=timeout)

    once = Preempted(waits=1)
    budget = RegexBudget()
    assert budget.search(once, "saldo kas", "cash") and budget.timeouts == [] and once.runs == 2

    always = Preempted(waits=99)  # reported after its second try, never a third
    assert not budget.search(always, "saldo kas", "cash") and budget.timeouts == ["cash"] and always.runs == 2


def test_a_route_reports_regex_time_outs_in_its_events(lex):
    import regex as regex_module

    router = Router(load_domain("accounting", lex))
    cp = router.index.regex_patterns[0]
    router.index.regex_patterns[0] = replace(cp, regex=regex_module.compile(r"(q|q)+$", regex_module.IGNORECASE))
    result = router.route("invoices " + "q" * 40 + "!", today="2026-01-22")
    [event] = [e for e in result.events if e["type"] == "regex_timeout"]
    # the pattern that hung is named first; on a loaded machine the ones after it may find the query's
    # budget spent, and each of those is named too (never dropped), in the lexicon's order
    labels = [p.label for p in router.index.regex_patterns]
    assert event["patterns"][0] == cp.label == labels[0]
    assert event["patterns"] == labels[: len(event["patterns"])]


def test_duplicate_yaml_key_is_reported(lex):
    settings = lex / "accounting" / "settings.yaml"
    settings.write_text(settings.read_text() + "\ncurrency: USD\n")
    assert "duplicate key 'currency'" in _problem(lex)


def test_registry_keeps_serving_the_last_good_lexicon(lex):
    registry = RouterRegistry(lex)
    good = registry.state("accounting")
    assert good.error is None
    syn = lex / "accounting" / "synonyms.yaml"
    _edit(syn, "customer: [client,", "customer: [client,,, {")
    broken = registry.state("accounting")
    assert broken.error is not None and broken.router is good.router
    assert "synonyms.yaml line" in str(broken.error)
    assert broken.router.route("outstanding invoices", today="2026-01-22").status is Status.ACTIVATED
    shutil.copy(ROOT / "lexicons/accounting/synonyms.yaml", syn)
    _edit(syn, "invoice: [invoices,", "invoice: [zorblat, invoices,")
    fixed = registry.state("accounting")
    assert fixed.error is None and fixed.router is not good.router
    assert fixed.router.route("daftar zorblat", today="2026-01-22").matches[0].name == "invoice_list"


def test_cli_exits_3_with_the_problem_on_an_invalid_lexicon(lex):
    _edit(lex / "accounting" / "tools.yaml", "kind: summary", "kind: sumary")
    proc = subprocess.run(
        [sys.executable, "-m", "routing", "--lexicons", str(lex), "route", "sales", "--domain", "accounting"],
        capture_output=True, text=True, cwd=ROOT,
    )
    assert proc.returncode == 3
    assert "LEXICON_INVALID" in proc.stderr and "tools.yaml line" in proc.stderr and "sumary" in proc.stderr


# ---------------------------------------------------------------- unknown keys (issue 10)


@pytest.mark.parametrize("domain,file,old,new,near", [
    ("cfo", "tools.yaml", "    pipeline:", "    pipelin:", "pipeline"),
    ("accounting", "settings.yaml", "design: tools", "desing: tools", "design"),
    ("accounting", "settings.yaml", "  high: 0.85", "  hihg: 0.85", "high"),
    ("accounting", "settings.yaml", "  kind_bonus: 0.2", "  kind_bonsu: 0.2", "kind_bonus"),
    ("accounting", "settings.yaml", "  fiscal_year_start_month: 1", "  fiscal_year_start_mont: 1", "fiscal_year_start_month"),
    ("accounting", "settings.yaml", "  question:", "  questoin:", "question"),
    ("accounting", "settings.yaml", "  classifier:", "  clasifier:", "classifier"),
    ("accounting", "tools.yaml", "default: all, required: true", "defualt: all, required: true", "default"),
    ("accounting", "patterns.yaml", "{phrase: who owes me money, tool: receivables_aging}", "{phrase: who owes me money, tool: receivables_aging, wieght: 1}", "weight"),
    ("cfo", "groups.yaml", "common_params:", "common_param:", "common_params"),
    ("cfo", "groups.yaml", "    group: bookkeeper", "    grup: bookkeeper", "group"),
    # the other designs' own keys (routing.designs.DESIGN_FILE_KEYS) and the shared ones in their files
    ("football", "tools.yaml", "    depth: L1", "    dept: L1", "depth"),
    ("football", "settings.yaml", "languages:", "langauges:", "languages"),
    ("powers", "settings.yaml", "gateway:", "gatway:", "gateway"),
    ("factory", "tools.yaml", "    tables: [production_runs", "    tabels: [production_runs", "tables"),
    ("factory", "settings.yaml", "languages:", "languges:", "languages"),
])
def test_an_unknown_key_is_refused_with_file_line_and_the_nearest_known_key(lex, domain, file, old, new, near):
    path = lex / domain / file
    _edit(path, old, new)
    line = next(i for i, text in enumerate(path.read_text().splitlines(), 1) if new.strip() in text and not text.lstrip().startswith("#"))
    with pytest.raises(LexiconError) as info:
        load_domain(domain, lex).name and Router(load_domain(domain, lex)).route("profit", today="2026-01-22") and _path_config(lex, domain)
    messages = [p for p in info.value.problems if "unknown key" in p.message]
    assert messages, info.value
    [problem] = messages
    assert problem.file.endswith(f"{domain}/{file}") and f"did you mean {near!r}" in problem.message
    assert problem.line == line


def _path_config(lex, domain):
    from routing.paths.config import load_path_config

    return load_path_config(load_domain(domain, lex))


def test_an_unknown_key_in_dates_yaml_is_a_lexicon_error(lex):
    _edit(lex / "_shared" / "dates.yaml", "shared:\n", "shared:\n  colour: 1\n")
    proc = subprocess.run(
        [sys.executable, "-m", "routing", "--lexicons", str(lex), "dates", "today"], capture_output=True, text=True, cwd=ROOT,
    )
    assert proc.returncode == 3 and "unknown key 'colour'" in proc.stderr and "dates.yaml line" in proc.stderr


# ---------------------------------------------------------------- loading under attack (issue 16)

_BOMB = "lol: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"l{i}: &{chr(98 + i)} [{', '.join('*' + chr(97 + i) for _ in range(10))}]\n" for i in range(6)
)


@pytest.mark.parametrize("content,fragment,bad_line", [
    (_BOMB, "aliases expand", 4),  # l2 (line 4 of the attack) is the first to repeat over 10,000 nodes
    ("? [a, b]\n: 1\n", "a key must be text", 1),
    ("x: " + "[" * 1000 + "]" * 1000 + "\n", "nested more than", 1),
    ("x: " + "[" * 100000 + "\n", "nested more than", 1),
    ("x: &a [*a]\n", "contains it", 1),
])
def test_hostile_yaml_is_a_lexicon_error_naming_the_file(lex, content, fragment, bad_line):
    """Our refusal, file and line, whatever the YAML library's own limits and wording (PyYAML 6.0.4
    refuses deep flow nesting in its scanner, before our depth check sees an event)."""
    settings = lex / "accounting" / "settings.yaml"
    first = len(settings.read_text().splitlines()) + 2  # the attack's first line (after a blank one)
    settings.write_text(settings.read_text() + "\n" + content.replace("x:", "zz_attack:"))
    msg = _problem(lex)
    assert "lexicons/accounting/settings.yaml" in msg and fragment in msg
    assert f"line {first + bad_line - 1}" in msg, msg


@pytest.mark.parametrize("data,line,fragment", [
    (b"a: 1\nb: \xff\n", 2, "not UTF-8"),
    (b"a: 1\n\nb: x\x00y\n", 3, "U+0000"),
])
def test_bytes_yaml_refuses_name_their_line(lex, data, line, fragment):
    (lex / "accounting" / "synonyms.yaml").write_bytes(data)
    msg = _problem(lex)
    assert f"synonyms.yaml line {line}" in msg and fragment in msg, msg


# ---------------------------------------------------------------- the lexicon folder's walls (issue 23)


def _replace_with_link(path: Path, target) -> None:
    path.unlink()
    path.symlink_to(target)


def _loads_with_problem(lex: Path, fragment: str) -> str:
    msg = _problem(lex)
    assert "synonyms.yaml" in msg and fragment in msg, msg
    return msg


def test_a_link_to_a_file_outside_the_lexicon_folder_is_refused_unread(lex, tmp_path):
    outside = tmp_path / "elsewhere.yaml"
    outside.write_text((lex / "accounting" / "synonyms.yaml").read_text())  # valid YAML, still refused
    _replace_with_link(lex / "accounting" / "synonyms.yaml", outside)
    _loads_with_problem(lex, "outside the lexicon folder")
    _replace_with_link(lex / "accounting" / "synonyms.yaml", "/etc/passwd")
    msg = _loads_with_problem(lex, "outside the lexicon folder")
    assert "root:" not in msg  # nothing of the file's content is quoted


def test_a_link_inside_the_lexicon_folder_still_loads(lex):
    syn = lex / "accounting" / "synonyms.yaml"
    copy = lex / "accounting" / "synonyms-copy.txt"
    copy.write_text(syn.read_text())
    _replace_with_link(syn, copy)
    assert load_domain("accounting", lex).synonyms


def test_devices_and_fifos_are_refused_without_hanging(lex):
    syn = lex / "accounting" / "synonyms.yaml"
    _replace_with_link(syn, "/dev/zero")
    _loads_with_problem(lex, "outside the lexicon folder")
    syn.unlink()
    import os
    os.mkfifo(syn)  # open() of a FIFO without a writer would block forever
    _loads_with_problem(lex, "FIFO")
    registry = RouterRegistry(lex)  # the fingerprint reads it too
    assert registry.state("accounting").error is not None


def test_a_file_larger_than_its_size_says_is_read_no_further_than_the_limit(lex, monkeypatch):
    """st_size is trusted only to refuse early: reading stops at the limit whatever it said."""
    import routing.core.safefile as safefile

    syn = lex / "accounting" / "synonyms.yaml"
    monkeypatch.setattr(safefile, "MAX_FILE_BYTES", 1000)
    real_fstat = safefile.os.fstat
    monkeypatch.setattr(safefile.os, "fstat", lambda fd: __import__("os").stat_result((*real_fstat(fd)[:6], 10, *real_fstat(fd)[7:])))
    with pytest.raises(LexiconError, match="MB"):
        safefile.read_bounded(syn, limit=1000)


def test_a_file_over_the_size_limit_is_refused_unread(lex):
    from routing.core.yamlio import MAX_FILE_BYTES

    syn = lex / "accounting" / "synonyms.yaml"
    with syn.open("a") as fh:
        fh.write(("# padding\n" * 1000) * (MAX_FILE_BYTES // 10_000 + 1))
    msg = _problem(lex)
    assert "synonyms.yaml" in msg and "MB" in msg


def test_registry_keeps_the_last_good_router_through_hostile_files(lex):
    registry = RouterRegistry(lex)
    good = registry.router("accounting")
    for file, content in (("settings.yaml", "? [a, b]\n: 1\n"), ("_shared/dates.yaml", "en: [\n")):
        path = lex / file if "/" in file else lex / "accounting" / file
        before = path.read_text()
        path.write_text(before + "\n" + content)
        state = registry.state("accounting")
        assert state.error is not None and state.router is good, file
        assert file.split("/")[-1] in str(state.error)
        assert state.router.route("outstanding invoices", today="2026-01-22").status is Status.ACTIVATED
        path.write_text(before)


def test_a_malformed_dates_yaml_exits_3_on_the_cli(lex):
    (lex / "_shared" / "dates.yaml").write_text("en:\n  units: [day\n")
    for args in (["route", "invoices"], ["dates", "today"], ["batch"]):
        proc = subprocess.run([sys.executable, "-m", "routing", "--lexicons", str(lex), *args],
                              capture_output=True, text=True, cwd=ROOT, input="")
        assert proc.returncode == 3, (args, proc.stderr)
        assert "LEXICON_INVALID" in proc.stderr and "dates.yaml line" in proc.stderr and "Traceback" not in proc.stderr
