"""How a power's child server starts (lexicons/<domain>/servers.yaml `server:`), and whether it can
start on this machine.

    launch_for(spec, catalog, instance=)  -> Launch(command, args, env, cwd, missing)
    server_status(gateway)                -> one row per power: live / program missing / described only

A `server:` block is either `bundled: sqlite|filesystem` (our own children, routing/mcp/children/)
or a program: `command`, `args`, `env`, `cwd`. Texts may hold placeholders:

    {python}          this interpreter            {repo}   the repository root
    {root}            the domain's folder         {state}  a folder for servers' own files
    {node_bin}        .mcp-node/node_modules/.bin (the npm reference servers, `.ci/run` installs them)
    {env:NAME:-DEFAULT}  an environment variable, or DEFAULT (which may be one {placeholder})

A program that is not on this machine is reported, not fatal: activation answers SERVER_MISSING
with the install hint of servers.yaml, and the gateway goes on serving every other power.
"""
from __future__ import annotations

import os
import re
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

from routing.designs.power_gateway.catalog import PowerCatalog, PowerSpec

REPO_ROOT = Path(__file__).resolve().parents[2]
NODE_BIN = REPO_ROOT / ".mcp-node" / "node_modules" / ".bin"
STATE_ENV = "ROUTING_MCP_STATE"       # where servers keep their files (the memory graph); default .mcp-state/
INSTANCE_ENV = "ROUTING_MCP_INSTANCE"  # every child carries its gateway's tag (tests find leftovers by it)
_ENV_REF = re.compile(r"\{env:([A-Za-z_][A-Za-z0-9_]*)(?::-((?:[^{}]|\{\w+\})*))?\}")
_TOKEN = re.compile(r"\{(python|repo|root|state|node_bin)\}")


@dataclass(frozen=True)
class Launch:
    command: str
    args: list[str]
    env: dict[str, str] = field(default_factory=dict)
    cwd: str = str(REPO_ROOT)
    missing: str | None = None  # why it cannot start here (program not found), in plain words


def state_dir() -> Path:
    return Path(os.environ.get(STATE_ENV) or REPO_ROOT / ".mcp-state")


def expand(text: str, catalog: PowerCatalog) -> str:
    """A servers.yaml text with its placeholders filled in."""
    tokens = {"python": sys.executable, "repo": str(REPO_ROOT), "root": str(catalog.root),
              "state": str(state_dir()), "node_bin": str(NODE_BIN)}
    text = _ENV_REF.sub(lambda m: os.environ.get(m.group(1)) or (m.group(2) or ""), str(text))
    return _TOKEN.sub(lambda m: tokens[m.group(1)], text)


def _locate(command: str, path: str | None) -> str | None:
    """The program's full path, or None when it is not on this machine."""
    if os.sep in command:
        return command if os.path.isfile(command) and os.access(command, os.X_OK) else None
    return shutil.which(command, path=path)


def launch_for(spec: PowerSpec, catalog: PowerCatalog, *, instance: str = "") -> Launch:
    server = spec.server
    tag = {INSTANCE_ENV: instance} if instance else {}
    if server.get("bundled"):
        if server["bundled"] == "sqlite":
            args = ["-m", "routing.mcp.children.sqlite_server", "--database",
                    str(catalog.resolve_path(server.get("database", "sample/sample.sql")))]
        else:
            args = ["-m", "routing.mcp.children.filesystem_server", "--root",
                    str(catalog.resolve_path(server.get("root", "sandbox")))]
        return Launch(sys.executable, args + (["--instance", instance] if instance else []),
                      {"PYTHONPATH": str(REPO_ROOT), **tag})
    env = {str(k): expand(str(v), catalog) for k, v in (server.get("env") or {}).items()}
    command = expand(server["command"], catalog)
    args = [expand(str(a), catalog) for a in server.get("args") or []]
    cwd = expand(server["cwd"], catalog) if server.get("cwd") else str(REPO_ROOT)
    found = _locate(command, env.get("PATH") or os.environ.get("PATH"))
    missing = None
    if found is None:
        hint = f" Install it: {server['install']}." if server.get("install") else ""
        missing = (f"The {spec.name} server's program {Path(command).name!r} is not installed on this machine, "
                   f"so {spec.name} cannot start here.{hint} Every other power still works.")
    elif not Path(cwd).is_dir():
        missing = f"The {spec.name} server's working folder {cwd} does not exist."
    return Launch(found or command, args, {**env, **tag}, cwd, missing)


def server_status(gateway) -> list[dict]:
    """Per power: name, server (program or bundled child), state (live / missing / described) and,
    when missing, the message the agent gets. For the Catalog page and `python -m routing mcp --list`."""
    rows = []
    for name in gateway.catalog.names():
        spec = gateway.catalog.get(name)
        row = {"power": name, "server": spec.server_label, "tools": len(spec.tools)}
        if not spec.live:
            row.update(state="described", message="No server configured: the tools are described only.")
        else:
            launch = launch_for(spec, gateway.catalog)
            row.update(state="missing" if launch.missing else "live", message=launch.missing or "",
                       command=" ".join([launch.command, *launch.args]))
        rows.append(row)
    return rows
