"""The house rules of routing/ (issue 10): packages by concern, no import cycle, no Streamlit,
small modules, and every domain declares a design the registry knows."""
from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from routing import DESIGNS, list_domain_names, load_router
from routing.core.errors import LexiconError

ROOT = Path(__file__).resolve().parent.parent
PKG = ROOT / "routing"
MAX_MODULE_LINES = 520  # "no module over ~500 lines"
# Modules still waiting for their split by job (issue 10); each split removes its line.
PENDING_SPLIT: set[str] = set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _imports(path: Path) -> set[str]:
    """Modules of routing imported at module level (imports inside functions are deferred on purpose)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = _module_name(path)
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    out: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.startswith("routing")}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            if not mod.startswith("routing"):
                continue
            out.add(mod)
            for a in node.names:  # `from routing.cli import query` imports the module routing.cli.query
                if (PKG.parent / (mod.replace(".", "/") + "/" + a.name + ".py")).exists():
                    out.add(f"{mod}.{a.name}")
    return out


def _graph() -> dict[str, set[str]]:
    modules = {_module_name(p): p for p in PKG.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        deps = set()
        for mod in _imports(path):
            # importing routing.a.b runs routing/__init__ and routing/a/__init__ first
            parts = mod.split(".")
            for i in range(1, len(parts) + 1):
                prefix = ".".join(parts[:i])
                if prefix in modules and prefix != name and not name.startswith(prefix + "."):
                    deps.add(prefix)
        graph[name] = deps
    return graph


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(n: str) -> list[str] | None:
        state[n] = 1
        stack.append(n)
        for m in sorted(graph.get(n, ())):
            if state.get(m) == 1:
                return stack[stack.index(m):] + [m]
            if state.get(m) is None:
                found = visit(m)
                if found:
                    return found
        stack.pop()
        state[n] = 2
        return None

    for n in sorted(graph):
        if n not in state:
            found = visit(n)
            if found:
                return found
    return None


def test_no_import_cycle():
    cycle = _find_cycle(_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_cycle_finder_finds_a_cycle():
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_routing_never_imports_streamlit():
    offenders = [str(p.relative_to(ROOT)) for p in PKG.rglob("*.py") if "streamlit" in p.read_text(encoding="utf-8")]
    assert offenders == []


def test_top_level_is_small_and_modules_are_short():
    top = sorted(p.name for p in PKG.glob("*.py"))
    assert len(top) <= 6, top
    long = {str(p.relative_to(ROOT)): n for p in PKG.rglob("*.py") if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
            and str(p.relative_to(ROOT)) not in PENDING_SPLIT}
    assert long == {}, f"modules over {MAX_MODULE_LINES} lines: {long}"


@pytest.mark.parametrize("name", list_domain_names())
def test_every_domain_builds_with_its_declared_design(name):
    router = load_router(name)
    assert router.design in DESIGNS
    assert router.describe()["design"] == router.design
    assert router.describe()["name"] == name


def test_domains_command_lists_the_design():
    out = subprocess.run([sys.executable, "-m", "routing", "domains"], cwd=ROOT, capture_output=True, text=True, check=True).stdout
    rows = {d["name"]: d for d in json.loads(out)}
    assert rows["accounting"]["design"] == "tools"
    assert rows["cfo"]["design"] == "tools"


def test_an_unknown_design_is_a_lexicon_error_naming_file_and_line(tmp_path):
    import shutil

    shutil.copytree(ROOT / "lexicons", tmp_path / "lexicons", ignore=shutil.ignore_patterns(".history"))
    settings = tmp_path / "lexicons" / "accounting" / "settings.yaml"
    text = settings.read_text(encoding="utf-8").replace("design: tools", "design: toolz")
    settings.write_text(text, encoding="utf-8")
    with pytest.raises(LexiconError) as err:
        load_router("accounting", tmp_path / "lexicons")
    problem = err.value.problems[0]
    assert "toolz" in problem.message and "tools" in problem.message
    assert problem.line == text.splitlines().index("design: toolz   # routing design: rank the API's tools (routing/designs/tools.py)") + 1
