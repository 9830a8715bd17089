"""The powers' MCP tools (lexicons/<domain>/servers.yaml): what each power brings once activated.

    load_catalog(domain)      -> PowerCatalog (validated; problems name file and line)
    steered(description, guidance) -> the description an agent sees, guidance after the marker
    did_you_mean(name, names) -> the closest known names (typos of a power's name)

No protocol here: routing.mcp turns these into MCP tools and starts the bundled child servers.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rapidfuzz import process
from rapidfuzz.distance import OSA

from routing.core.errors import LexiconError, Problem
from routing.core.model import Domain
from routing.core.yamlio import line_of, read_yaml

SERVERS_FILE = "servers.yaml"
GUIDANCE_MARKER = "--- EXPERT GUIDANCE ---"
BUNDLED = ("sqlite", "filesystem")  # child servers in routing/mcp/children/
# A server started from a program: `command` (a program on PATH or a path with {placeholders}),
# `args`, `env`, `cwd`; `install` says how to get the program when it is missing; `timeout` is a
# call's deadline in seconds; `expose` lists the only tools of the server the agent may call.
COMMAND_KEYS = ("command", "args", "env", "cwd", "install", "timeout", "expose")


def steered(description: str, guidance: str) -> str:
    """A tool's description followed by its steering text, as the agent receives it."""
    description = (description or "").strip()
    guidance = (guidance or "").strip()
    return f"{description}\n\n{GUIDANCE_MARKER}\n{guidance}" if guidance else description


@dataclass(frozen=True)
class McpTool:
    name: str
    description: str
    guidance: str
    input_schema: dict

    def as_agent_tool(self, prefix: str = "") -> dict:
        """The MCP tool definition (tools/list shape) the agent receives."""
        return {
            "name": f"{prefix}{self.name}",
            "description": steered(self.description, self.guidance),
            "inputSchema": self.input_schema,
        }


@dataclass(frozen=True)
class PowerSpec:
    name: str
    description: str
    keywords: tuple[str, ...]
    tools: tuple[McpTool, ...]
    server: dict = field(default_factory=dict)  # {bundled: sqlite, database: ...} or {}

    @property
    def live(self) -> bool:
        """True when servers.yaml says how to start a real MCP server for this power (whether or
        not its program is on this machine: routing.mcp.launch checks that)."""
        return bool(self.server.get("bundled") or self.server.get("command"))

    @property
    def server_label(self) -> str | None:
        """`bundled:sqlite`, or the program servers.yaml starts (`mcp-server-git`); None when described only."""
        if self.server.get("bundled"):
            return "bundled:" + self.server["bundled"]
        if self.server.get("command"):
            return Path(str(self.server["command"])).name
        return None

    def exposes(self, tool_name: str) -> bool:
        """Whether the agent may see and call this tool of the server (servers.yaml `expose`)."""
        allowed = self.server.get("expose")
        return not allowed or tool_name in allowed

    def guidance_for(self, tool_name: str) -> str:
        return next((t.guidance for t in self.tools if t.name == tool_name), "")


@dataclass(frozen=True)
class PowerCatalog:
    root: Path
    powers: dict[str, PowerSpec]

    def get(self, name: str) -> PowerSpec | None:
        return self.powers.get(name)

    def names(self) -> list[str]:
        return list(self.powers)

    def resolve_path(self, relative: str) -> Path:
        """A path named in servers.yaml, relative to the domain folder."""
        return (self.root / relative).resolve()


def did_you_mean(name: str, names: list[str], *, limit: int = 3) -> list[str]:
    """Known names close to `name` (edit similarity), best first; empty when nothing is close."""
    if not isinstance(name, str) or not name.strip():
        return []
    key = name.strip().casefold()
    found = process.extract(key, names, scorer=OSA.normalized_similarity, limit=limit, score_cutoff=0.5)
    prefixed = [n for n in names if n.startswith(key[:3]) and n not in {f[0] for f in found}]
    return [f[0] for f in found] + prefixed[: max(0, limit - len(found))]


def _schema(value: Any, where: list[Problem], label: str, line: int | None, what: str) -> dict:
    if value is None:
        return {"type": "object", "properties": {}}
    if not isinstance(value, dict) or value.get("type") != "object":
        where.append(Problem(label, line, f"{what}: input_schema must be a JSON schema of type object"))
        return {"type": "object", "properties": {}}
    return _plain(value)


def _plain(value: Any) -> Any:
    """YAML's line-aware containers as plain dicts and lists (JSON-serialisable, comparable)."""
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def _server_problem(server: Any) -> str | None:
    """What is wrong with a power's `server:` block, or None."""
    if not isinstance(server, dict):
        return "server must be a mapping (bundled: NAME, or command: PROGRAM with args, env, cwd)"
    if "command" in server:
        unknown = [k for k in server if k not in COMMAND_KEYS]
        if unknown:
            return f"server: unknown key {unknown[0]!r} (known: {', '.join(COMMAND_KEYS)})"
        if not isinstance(server["command"], str) or not server["command"].strip():
            return "server.command must be the program to start (text)"
        if not isinstance(server.get("args", []), list) or not all(isinstance(a, (str, int, float)) for a in server.get("args", [])):
            return "server.args must be a list of texts"
        env = server.get("env", {})
        if not isinstance(env, dict) or not all(isinstance(v, (str, int, float)) for v in env.values()):
            return "server.env must map names to texts"
        if "cwd" in server and not isinstance(server["cwd"], str):
            return "server.cwd must be a folder (text)"
        timeout = server.get("timeout", 1)
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or timeout <= 0:
            return "server.timeout must be a number of seconds above 0"
        expose = server.get("expose", [])
        if not isinstance(expose, list) or not all(isinstance(t, str) for t in expose):
            return "server.expose must be a list of tool names"
        return None
    if server.get("bundled") not in BUNDLED:
        return f"server.bundled must be one of {', '.join(BUNDLED)}, not {server.get('bundled')!r} (or give server.command)"
    return None


def load_catalog(domain: Domain, data: Any = None) -> PowerCatalog:
    """servers.yaml of the domain (or `data`, the file as parsed, for an edit not yet written),
    checked against its powers (tools.yaml)."""
    path = domain.root / SERVERS_FILE
    label = f"{domain.root.name}/{SERVERS_FILE}"
    problems: list[Problem] = []
    if data is None:
        data = read_yaml(path, label, root=domain.root.parent) if path.exists() else {"powers": {}}
    raw = data.get("powers") if isinstance(data, dict) else None
    if not isinstance(raw, dict):
        raise LexiconError([Problem(label, 1, "must have a top-level 'powers:' mapping of power name -> server and tools")])
    by_name = {t.name: t for t in domain.tools}
    for name in raw:
        if name not in by_name:
            problems.append(Problem(label, line_of(raw, name), f"power {name!r} is not in tools.yaml (known: {', '.join(by_name)})"))
    powers: dict[str, PowerSpec] = {}
    for tool in domain.tools:
        block = raw.get(tool.name) or {}
        bl = line_of(raw, tool.name)
        if not isinstance(block, dict):
            problems.append(Problem(label, bl, f"power {tool.name}: must map to server: and tools:"))
            block = {}
        server = _plain(block.get("server") or {})
        server_problem = _server_problem(server) if server else None
        if server_problem:
            problems.append(Problem(label, line_of(block, "server") or bl, f"power {tool.name}: {server_problem}"))
            server = {}
        tools: list[McpTool] = []
        seen: set[str] = set()
        items = block.get("tools") or []
        if not isinstance(items, list):
            problems.append(Problem(label, line_of(block, "tools") or bl, f"power {tool.name}: tools must be a list"))
            items = []
        for i, t in enumerate(items):
            tl = line_of(items, i) or bl
            if not isinstance(t, dict) or not isinstance(t.get("name"), str) or not t["name"].strip():
                problems.append(Problem(label, tl, f"power {tool.name}: tool {i + 1} needs a name"))
                continue
            if t["name"] in seen:
                problems.append(Problem(label, tl, f"power {tool.name}: tool {t['name']!r} is listed twice"))
            seen.add(t["name"])
            if not str(t.get("description") or "").strip():
                problems.append(Problem(label, tl, f"power {tool.name}: tool {t['name']} has no description"))
            tools.append(McpTool(
                name=t["name"].strip(),
                description=str(t.get("description") or "").strip(),
                guidance=str(t.get("guidance") or "").strip(),
                input_schema=_schema(t.get("input_schema"), problems, label, line_of(t, "input_schema") or tl, f"power {tool.name} tool {t['name']}"),
            ))
        powers[tool.name] = PowerSpec(tool.name, tool.description, tool.keywords, tuple(tools), server)
    if problems:
        raise LexiconError(problems)
    return PowerCatalog(domain.root, powers)
