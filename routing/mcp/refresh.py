"""`python -m routing mcp --refresh`: what each live power's server really offers, written into its
lexicon, so the gateway describes and routes by it.

For every power whose server is a program (servers.yaml `server: command:`; our own bundled children
are described by hand) and can start here, the server is
started, asked tools/list, and stopped. Then, through the lexicon's safe writer (routing.editing:
round-trip YAML, domain lock, validation, history, atomic replace):

    servers.yaml  the power's `tools:` become the server's own: name, description, input_schema
                  (only those `expose` allows); the expert guidance a person wrote is kept by tool
                  name, and a tool the server no longer lists is dropped.
    tools.yaml    the power's `examples.mcp` become its tools' one-line summaries (the first
                  sentence of each description), so a request in the server's own words finds it.
                  Keywords stay as a person wrote them: they are canonical terms of synonyms.yaml,
                  and a tool's name ("git_log") is no such term ("look at the logs" must not find git).

A power whose program is missing is reported and left as it was. Nothing is written on --dry-run.
"""
from __future__ import annotations

import re
from typing import Any

import anyio

from routing.core.errors import LexiconError
from routing.core.lexicon import load_domain
from routing.designs.power_gateway.catalog import SERVERS_FILE, load_catalog
from routing.editing.files import EditRejected, FileEdit
from routing.editing.roundtrip import _flow_map, _flow_seq, _plain, _render
from routing.editing.store import read_file, save_edits

from .launch import launch_for

EXAMPLES_KEY = "mcp"  # tools.yaml examples.<key>: the summaries of a power's tools, as its server lists them
_SENTENCE = re.compile(r"(?<=[.!?])\s|\n")


def summary(description: str, *, limit: int = 120) -> str:
    """The first sentence (or line) of a tool's description, without its final full stop."""
    first = _SENTENCE.split((description or "").strip(), maxsplit=1)[0].strip()
    first = first[:limit].rsplit(" ", 1)[0] if len(first) > limit else first
    return first.rstrip(".").strip()


async def list_tools(spec, catalog, *, start_seconds: float = 30.0) -> list:
    """Start the power's server, ask tools/list, stop it (every process reaped by the SDK)."""
    from mcp import ClientSession, StdioServerParameters, stdio_client

    from .proxy import _errlog

    launch = launch_for(spec, catalog)
    if launch.missing:
        raise RuntimeError(launch.missing)
    params = StdioServerParameters(command=launch.command, args=launch.args, cwd=launch.cwd, env=launch.env)
    async with stdio_client(params, errlog=_errlog()) as (read, write):
        async with ClientSession(read, write) as session:
            with anyio.fail_after(start_seconds):
                await session.initialize()
                return list((await session.list_tools()).tools)


def _tool_entry(tool, guidance: str) -> Any:
    entry = {"name": tool.name, "description": (tool.description or "").strip()}
    if guidance:
        entry["guidance"] = guidance
    schema = _plain(dict(tool.input_schema or {"type": "object", "properties": {}}))
    schema.pop("$schema", None)  # the JSON-schema dialect marker says nothing to an agent
    entry["input_schema"] = schema
    return entry


def _comment_above(text: str, key: str) -> list[str]:
    """The comment lines right above `  key:` in servers.yaml (a power's heading), without '# '."""
    lines = text.splitlines()
    try:
        at = lines.index(f"  {key}:")
    except ValueError:
        return []
    out = []
    for line in reversed(lines[:at]):
        if not line.strip().startswith("#"):
            break
        out.append(line.strip()[1:].strip())
    return list(reversed(out))


def servers_edit(snapshot, listed: dict[str, list], guidance: dict[str, dict[str, str]]) -> FileEdit:
    """servers.yaml with each refreshed power's tools replaced by its server's."""

    def mutate(doc: Any) -> Any:
        powers = doc["powers"]
        keys = list(powers.keys())
        for power, tools in listed.items():
            block = powers[power]
            old = [_plain(t) for t in block.get("tools") or []]
            new = [_tool_entry(t, guidance[power].get(t.name, "")) for t in tools]
            if old == new:
                continue
            block["tools"] = new
            # the comment heading the next power was held by the old list's last line: put it back
            following = keys.index(power) + 1
            if following < len(keys):
                above = _comment_above(snapshot.text, keys[following])
                if above:
                    powers.yaml_set_comment_before_after_key(keys[following], before="\n".join(above), indent=2)
        return doc

    return _render(snapshot, mutate, "refresh powers' tools from their MCP servers")


def tools_edit(snapshot, listed: dict[str, list]) -> FileEdit:
    """tools.yaml with each refreshed power's examples.mcp set to its tools' summaries."""

    def mutate(doc: Any) -> Any:
        for entry in doc["tools"]:
            tools = listed.get(entry.get("name"))
            if tools is None:
                continue
            lines = list(dict.fromkeys(s for s in (summary(t.description or t.name.replace("_", " ")) for t in tools) if s))
            examples = entry.get("examples")
            if not isinstance(examples, dict):
                examples = entry["examples"] = _flow_map({"en": list(examples or [])}) if examples else _flow_map({})
            if _plain(examples.get(EXAMPLES_KEY)) != lines:
                examples[EXAMPLES_KEY] = _flow_seq(lines)
        return doc

    return _render(snapshot, mutate, "examples from the powers' MCP servers")


def refresh_domain(gateway, *, powers: list[str] | None = None, dry_run: bool = False) -> dict:
    """Refresh the live powers of a gateway domain. Returns {status, powers: [{power, state, tools}], diff}."""
    catalog = gateway.catalog
    domain = gateway.domain.name
    root = gateway.domain.root.parent
    unknown = [p for p in powers or [] if p not in catalog.names()]
    if unknown:
        return {"status": "error", "message": f"unknown power {unknown[0]!r} (known: {', '.join(catalog.names())})", "powers": []}
    chosen = [n for n in (powers or catalog.names()) if catalog.get(n).server.get("command")]
    report, listed, guidance = [], {}, {}
    for name in chosen:
        spec = catalog.get(name)
        try:
            tools = anyio.run(lambda: list_tools(spec, catalog))
        except Exception as exc:  # noqa: BLE001 - one power that cannot start never stops the others
            report.append({"power": name, "state": "not refreshed", "message": str(exc) or type(exc).__name__})
            continue
        tools = [t for t in tools if spec.exposes(t.name)]
        listed[name] = tools
        guidance[name] = {t.name: t.guidance for t in spec.tools if t.guidance}
        report.append({"power": name, "state": "listed", "tools": [t.name for t in tools]})
    if not listed:
        return {"status": "unchanged", "message": "No server could be asked.", "powers": report}
    try:
        edits = [servers_edit(read_file(domain, SERVERS_FILE, root), listed, guidance),
                 tools_edit(read_file(domain, "tools.yaml", root), listed)]
        overrides = {e.file: e.parsed() for e in edits}
        load_catalog(load_domain(domain, root, overrides={"tools.yaml": overrides["tools.yaml"]}), overrides[SERVERS_FILE])
    except (EditRejected, LexiconError) as exc:
        return {"status": "invalid", "message": str(exc), "powers": report}
    diff = "".join(e.diff() for e in edits if e.changed)
    if dry_run:
        return {"status": "dry_run", "powers": report, "diff": diff}
    saved = save_edits(domain, edits, root, action="mcp --refresh", source="cli")
    return {"status": saved.status, "message": saved.message, "powers": report, "diff": diff}
